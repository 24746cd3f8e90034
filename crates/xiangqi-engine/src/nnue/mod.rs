//! An efficiently updatable neural network evaluation (NNUE), one net per board.
//!
//! The net: 14 inputs per cell and bucket ([`features`]: 7 roles x mine/theirs x
//! the board's cells, 1,260 on the standard board and 1,106 on the hex board,
//! each side seeing the board from its own end, optionally one bucket per
//! palace cell of its general), a layer of [`HIDDEN`] neurons per side kept as an
//! `i16` accumulator that a move changes by a few rows, and one output: the two
//! sides' accumulators, the mover's first, clipped to `0..=QA` and summed against
//! their weights. A net may keep several sets of output weights, one per range of
//! the number of pieces on the board ([`Layout::output_bucket`]); the position
//! picks its set.
//!
//! ```text
//! eval = (Σ clamp(acc_us, 0, QA)·w_us[o] + Σ clamp(acc_them, 0, QA)·w_them[o] + bias[o]) · SCALE / (QA·QB)
//! ```
//!
//! Weights are integers: the feature transformer's are the float weights times
//! [`QA`], the output's times [`QB`] (the trainer, `xiangqi_tools::nnue::train`, rounds them). The file format is
//! [`Network::from_bytes`]'s.

mod cache;
pub mod features;
pub mod simd;
mod stack;

use std::{fmt, sync::Arc};

use cache::RefreshCache;
pub use features::Layout;
pub use simd::Kernel;
pub use stack::AccumulatorStack;
use xiangqi::{Color, Geometry, Move, Piece, Position, Role, Variant};

/// Neurons per side.
pub const HIDDEN: usize = 256;
/// The feature transformer's scale: a float weight of 1 is `QA`, and the clipped ReLU tops out at `QA`.
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 256;
/// Centipawns per unit of the net's output (the output is a logit of the expected result).
pub const SCALE: i32 = 400;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"XQNN";
/// The format version this build writes; it also reads version 1 (one output, no count in the header).
pub const VERSION: u32 = 2;
/// Bytes before the weights: magic, version and seven sizes (six in version 1).
const HEADER: usize = 36;
const HEADER_V1: usize = 32;
/// The most output buckets a net may have.
pub const MAX_OUTPUTS: usize = 16;

/// One row of `HIDDEN` weights (or an accumulator half), aligned for vector loads.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    /// A row of zeros.
    pub const ZERO: Row = Row([0; HIDDEN]);
}

/// Both sides' hidden layer before the clipped ReLU, indexed by colour.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Accumulator(pub [Row; 2]);

impl fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Accumulator")
            .field("red", &&self.0[0].0[..8])
            .field("black", &&self.0[1].0[..8])
            .finish()
    }
}

/// Why a net file is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than the header and the trailing hash.
    TooShort(usize),
    /// Not a net file at all.
    Magic,
    /// A format version this build does not read (it reads 1 and [`VERSION`]).
    Version(u32),
    /// A size in the header that this build does not take.
    Shape {
        /// The header's name for the size.
        field: &'static str,
        /// The size in the file.
        found: u32,
        /// The sizes this build takes.
        expected: &'static str,
    },
    /// The file's length disagrees with its header.
    Size {
        /// The length the header implies, in bytes.
        expected: usize,
        /// The file's length, in bytes.
        found: usize,
    },
    /// The contents do not match their stored hash (a damaged file).
    Hash {
        /// The hash the file holds.
        stored: u64,
        /// The hash of its contents.
        computed: u64,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::TooShort(n) => write!(f, "not a net file: {n} bytes is shorter than any net"),
            NetError::Magic => write!(f, "not a net file: it does not start with \"XQNN\""),
            NetError::Version(v) => {
                write!(f, "net format version {v}; this build reads versions 1 to {VERSION}")
            }
            NetError::Shape { field, found, expected } => {
                write!(f, "the net's {field} is {found}; this build takes {expected}")
            }
            NetError::Size { expected, found } => {
                write!(f, "wrong size: the header promises {expected} bytes, the file has {found}")
            }
            NetError::Hash { stored, computed } => write!(
                f,
                "the net is damaged: its contents hash to {computed:016x}, the file says {stored:016x}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// A loaded net, ready to evaluate.
#[derive(Clone)]
pub struct Network {
    layout: &'static Layout,
    buckets: usize,
    /// One row per input.
    ft_weights: Vec<Row>,
    ft_bias: Row,
    /// One per output bucket.
    outputs: Vec<Output>,
    hash: u64,
    kernel: Kernel,
}

/// One output bucket's weights.
#[derive(Clone)]
struct Output {
    /// The mover's half, then the other side's.
    weights: [Row; 2],
    bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("board", &self.layout.variant)
            .field("buckets", &self.buckets)
            .field("outputs", &self.outputs.len())
            .field("hidden", &HIDDEN)
            .field("hash", &format_args!("{:016x}", self.hash))
            .field("kernel", &self.kernel)
            .finish()
    }
}

/// The standard board's net built into the binary (trained as the engine README says).
pub const EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");
/// The hex board's net built into the binary.
pub const EMBEDDED_HEX: &[u8] = include_bytes!("../../nets/hex.nnue");

/// 64-bit FNV-1a: the net file's check against damage (not a defence against tampering).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The quantised contents of a net, as the trainer (`xiangqi_tools::nnue::train`) produces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The board the net evaluates.
    pub variant: Variant,
    /// The number of input buckets: 1, or one for each cell of a palace.
    pub buckets: usize,
    /// `buckets * per_bucket * HIDDEN` values, input by input.
    pub ft_weights: Vec<i16>,
    /// `HIDDEN` biases of the first layer.
    pub ft_bias: Vec<i16>,
    /// `outputs * 2 * HIDDEN` values: for each output bucket the mover's half, then the other side's.
    pub out_weights: Vec<i16>,
    /// One per output bucket.
    pub out_bias: Vec<i32>,
}

impl Weights {
    /// The net file: header, weights (little endian) and the hash of all before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = Layout::of(self.variant);
        let outputs = self.out_bias.len();
        let mut b = Vec::with_capacity(file_size(HEADER, layout, self.buckets, outputs));
        b.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            layout.cells as u32,
            self.buckets as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            outputs as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_bias {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let hash = fnv1a(&b);
        b.extend_from_slice(&hash.to_le_bytes());
        b
    }
}

/// The length of a net file with this header for a board with `buckets` input buckets and `outputs` output buckets.
fn file_size(header: usize, layout: &Layout, buckets: usize, outputs: usize) -> usize {
    header + 2 * (buckets * layout.per_bucket() * HIDDEN + HIDDEN + outputs * 2 * HIDDEN) + 4 * outputs + 8
}

impl Network {
    /// The standard board's net built into the binary, loaded once.
    pub fn embedded() -> Arc<Network> {
        static NET: std::sync::OnceLock<Arc<Network>> = std::sync::OnceLock::new();
        NET.get_or_init(|| Network::built_in(EMBEDDED, Variant::Standard)).clone()
    }

    /// The hex board's net built into the binary, loaded once.
    pub fn embedded_hex() -> Arc<Network> {
        static NET: std::sync::OnceLock<Arc<Network>> = std::sync::OnceLock::new();
        NET.get_or_init(|| Network::built_in(EMBEDDED_HEX, Variant::Hex)).clone()
    }

    fn built_in(bytes: &[u8], variant: Variant) -> Arc<Network> {
        // The tests load the embedded nets, so a broken one never ships.
        let net =
            Network::from_bytes(bytes).unwrap_or_else(|e| panic!("the embedded {} net: {e}", variant.name()));
        assert_eq!(net.variant(), variant, "the embedded {} net is for another board", variant.name());
        Arc::new(net)
    }

    /// Reads a net file.
    ///
    /// # Errors
    /// A message naming the file and what is wrong with it.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses a net file: `XQNN`, then little-endian `u32`s version (2), cells (90
    /// for the standard board, 79 for the hex board), buckets (1, or the board's
    /// palace cells: 9 or 7), hidden ([`HIDDEN`]), QA, QB and SCALE (this build's)
    /// and output buckets (1 to [`MAX_OUTPUTS`]), then the `i16` feature weights
    /// (input by input), feature biases, output weights (bucket by bucket, the
    /// mover's half first), the `i32` output biases, and last the `u64` FNV-1a
    /// hash of everything before it. Version 1 has no output count: one output.
    ///
    /// # Errors
    /// [`NetError`] for any file that is not such a net, whole and unchanged.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER + 8 {
            return Err(NetError::TooShort(bytes.len()));
        }
        if bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("four bytes"));
        let version = word(1);
        let header = match version {
            1 => HEADER_V1,
            VERSION if bytes.len() >= HEADER + 8 => HEADER,
            VERSION => return Err(NetError::TooShort(bytes.len())),
            _ => return Err(NetError::Version(version)),
        };
        let expect = |field: &'static str, found: u32, ok: bool, expected: &'static str| {
            if ok { Ok(()) } else { Err(NetError::Shape { field, found, expected }) }
        };
        let Some(layout) = Layout::with_cells(word(2) as usize) else {
            return Err(NetError::Shape {
                field: "cell count",
                found: word(2),
                expected: "90 (the standard board) or 79 (the hex board)",
            });
        };
        let buckets = word(3);
        expect(
            "bucket count",
            buckets,
            layout.takes_buckets(buckets as usize),
            "1, or one per palace cell (9 on the standard board, 7 on the hex board)",
        )?;
        expect("hidden size", word(4), word(4) == HIDDEN as u32, "256")?;
        expect("QA", word(5), word(5) == QA as u32, "255")?;
        expect("QB", word(6), word(6) == QB as u32, "256")?;
        expect("SCALE", word(7), word(7) == SCALE as u32, "400")?;
        let outputs = if version == 1 { 1 } else { word(8) };
        expect("output count", outputs, (1..=MAX_OUTPUTS as u32).contains(&outputs), "1 to 16")?;
        let (buckets, outputs) = (buckets as usize, outputs as usize);
        let expected = file_size(header, layout, buckets, outputs);
        if bytes.len() != expected {
            return Err(NetError::Size { expected, found: bytes.len() });
        }
        let (body, tail) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(tail.try_into().expect("eight bytes"));
        let computed = fnv1a(body);
        if stored != computed {
            return Err(NetError::Hash { stored, computed });
        }
        let mut at = header;
        let mut row = || {
            let mut r = Row::ZERO;
            for (v, b) in r.0.iter_mut().zip(bytes[at..at + 2 * HIDDEN].chunks_exact(2)) {
                *v = i16::from_le_bytes([b[0], b[1]]);
            }
            at += 2 * HIDDEN;
            r
        };
        let ft_weights = (0..buckets * layout.per_bucket()).map(|_| row()).collect();
        let ft_bias = row();
        let weights: Vec<[Row; 2]> = (0..outputs).map(|_| [row(), row()]).collect();
        let biases = body[body.len() - 4 * outputs..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("four bytes")));
        let outputs =
            weights.into_iter().zip(biases).map(|(weights, bias)| Output { weights, bias }).collect();
        Ok(Network { layout, buckets, ft_weights, ft_bias, outputs, hash: stored, kernel: Kernel::best() })
    }

    /// The net with the given kernel (for comparing kernels; AVX2 only where available).
    ///
    /// # Panics
    /// If the processor cannot run the kernel.
    pub fn with_kernel(mut self, kernel: Kernel) -> Network {
        assert!(kernel.is_available(), "this processor cannot run the {kernel:?} kernel");
        self.kernel = kernel;
        self
    }

    /// The hash stored in the file (its identity).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The number of input buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The number of output buckets.
    pub fn outputs(&self) -> usize {
        self.outputs.len()
    }

    /// The net's integer weights, as [`Weights::to_bytes`] writes them (a trainer
    /// may start from a net it has no float copy of).
    pub fn weights(&self) -> Weights {
        Weights {
            variant: self.layout.variant,
            buckets: self.buckets,
            ft_weights: self.ft_weights.iter().flat_map(|r| r.0).collect(),
            ft_bias: self.ft_bias.0.to_vec(),
            out_weights: self.outputs.iter().flat_map(|o| &o.weights).flat_map(|r| r.0).collect(),
            out_bias: self.outputs.iter().map(|o| o.bias).collect(),
        }
    }

    /// The board the net evaluates.
    pub fn variant(&self) -> Variant {
        self.layout.variant
    }

    /// The implementation of the kernels that evaluates with this net.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    #[inline]
    fn bucket_of<G: Geometry>(&self, pos: &Position<G>, side: Color) -> usize {
        self.layout.bucket(self.buckets, side, pos.general(side).index())
    }

    /// One side's half of the accumulator, computed from every piece.
    fn refresh_side<G: Geometry>(&self, pos: &Position<G>, side: Color, out: &mut Row) {
        let bucket = self.bucket_of(pos, side);
        let mut rows: arrayvec::ArrayVec<&Row, 32> = arrayvec::ArrayVec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                for c in pos.pieces(piece) {
                    rows.push(&self.ft_weights[self.layout.index(side, bucket, piece, c.index())]);
                }
            }
        }
        self.kernel.add_sub(out, &self.ft_bias, &rows, &[]);
    }

    /// The accumulator of a position of the net's board, from scratch.
    pub fn refresh<G: Geometry>(&self, pos: &Position<G>) -> Accumulator {
        debug_assert_eq!(G::VARIANT, self.layout.variant, "a net evaluates its own board");
        let mut acc = Accumulator([Row::ZERO; 2]);
        for side in Color::ALL {
            self.refresh_side(pos, side, &mut acc.0[side.index()]);
        }
        acc
    }

    /// The accumulator after `m` (taking `captured`) from the one before; `after`
    /// is the position after the move. A general's step that changes its side's
    /// bucket refreshes that side from the bucket's last half in `cache`.
    #[inline]
    pub(super) fn update<G: Geometry>(
        &self,
        before: &Accumulator,
        next: &mut Accumulator,
        after: &Position<G>,
        m: Move,
        captured: Option<Piece>,
        cache: &mut RefreshCache,
    ) {
        let mover = after.piece_at(m.to).expect("the mover stands on its target");
        for side in Color::ALL {
            let out = &mut next.0[side.index()];
            let bucket = self.bucket_of(after, side);
            if self.buckets > 1 && mover.role == Role::General && mover.color == side {
                cache.refresh(self, after, side, bucket, out);
                continue;
            }
            let w =
                |p: Piece, c: xiangqi::Cell| &self.ft_weights[self.layout.index(side, bucket, p, c.index())];
            let add = [w(mover, m.to)];
            let src = &before.0[side.index()];
            match captured {
                Some(c) => self.kernel.add_sub(out, src, &add, &[w(mover, m.from), w(c, m.to)]),
                None => self.kernel.add_sub(out, src, &add, &[w(mover, m.from)]),
            }
        }
    }

    /// The score for the side to move of `pos`, whose accumulator `acc` is, in centipawns.
    #[inline]
    pub fn evaluate<G: Geometry>(&self, acc: &Accumulator, pos: &Position<G>) -> i32 {
        let turn = pos.turn();
        let us = &acc.0[turn.index()];
        let them = &acc.0[(!turn).index()];
        let out =
            &self.outputs[self.layout.output_bucket(self.outputs.len(), pos.occupied().count() as usize)];
        let sum = self.kernel.output(us, them, &out.weights[0], &out.weights[1]);
        let raw = i64::from(sum.wrapping_add(out.bias));
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The score of a position for the side to move, from scratch.
    pub fn evaluate_position<G: Geometry>(&self, pos: &Position<G>) -> i32 {
        self.evaluate(&self.refresh(pos), pos)
    }
}

/// The nets an engine evaluates with, one a board (`None`: that board's classical evaluation).
#[derive(Clone, Debug, Default)]
pub struct Nets {
    /// The standard board's net.
    pub standard: Option<Arc<Network>>,
    /// The hexagonal board's net.
    pub hex: Option<Arc<Network>>,
}

impl Nets {
    /// The nets built into the binary.
    pub fn embedded() -> Nets {
        Nets { standard: Some(Network::embedded()), hex: Some(Network::embedded_hex()) }
    }

    /// The net of a board, if it has one.
    pub fn get(&self, variant: Variant) -> Option<&Network> {
        match variant {
            Variant::Standard => self.standard.as_deref(),
            Variant::Hex => self.hex.as_deref(),
        }
    }

    /// These nets with `net` in place of the one for its board.
    #[must_use]
    pub fn with(self, net: Arc<Network>) -> Nets {
        match net.variant() {
            Variant::Standard => Nets { standard: Some(net), ..self },
            Variant::Hex => Nets { hex: Some(net), ..self },
        }
    }
}
