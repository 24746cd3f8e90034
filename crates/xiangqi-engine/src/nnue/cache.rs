//! The last accumulator half each bucket held, so that a general's step into a
//! bucket costs the pieces that changed since the search last stood there,
//! rather than every piece on the board.
//!
//! With palace buckets a general's step changes every input of its side; a
//! refresh from the bias adds a row per piece (up to 32). Searches walk back and
//! forth between a few palace cells, so the half a bucket last had is usually a
//! few pieces away from the one wanted now. Each search thread keeps one cache;
//! it is only valid for the net it was made for.

use xiangqi::{Bitboard, Color, Geometry, Piece, Position};

use super::{Network, Row};

/// One bucket's half for one side, and the pieces it sums.
#[derive(Clone)]
struct Entry {
    half: Row,
    /// Each coloured piece's cells, by `Piece::index`.
    pieces: [Bitboard; Piece::COUNT],
}

/// The last half of every bucket, for each side, of one net.
pub struct RefreshCache {
    /// Indexed by bucket, then side.
    entries: Vec<[Entry; 2]>,
    net: u64,
}

impl RefreshCache {
    /// An empty cache for `net`: every bucket holds the bias of an empty board.
    pub fn new(net: &Network) -> RefreshCache {
        let empty = Entry { half: net.ft_bias, pieces: [Bitboard::EMPTY; Piece::COUNT] };
        RefreshCache { entries: vec![[empty.clone(), empty]; net.buckets], net: net.hash }
    }

    /// Whether this cache was made for `net`.
    pub fn serves(&self, net: &Network) -> bool {
        self.net == net.hash && self.entries.len() == net.buckets
    }

    /// `side`'s half of `pos` in `bucket`, written to `out`: the bucket's last
    /// half, with the rows of pieces that came and went since, added and taken.
    pub(super) fn refresh<G: Geometry>(
        &mut self,
        net: &Network,
        pos: &Position<G>,
        side: Color,
        bucket: usize,
        out: &mut Row,
    ) {
        debug_assert!(self.serves(net), "a refresh cache serves the net it was made for");
        let entry = &mut self.entries[bucket][side.index()];
        let mut add: arrayvec::ArrayVec<&Row, 32> = arrayvec::ArrayVec::new();
        let mut sub: arrayvec::ArrayVec<&Row, 32> = arrayvec::ArrayVec::new();
        for (kind, was) in entry.pieces.iter_mut().enumerate() {
            let piece = Piece::from_index(kind);
            let now = pos.pieces(piece);
            let row = |c: xiangqi::Cell| &net.ft_weights[net.layout.index(side, bucket, piece, c.index())];
            add.extend((now & !*was).map(row));
            sub.extend((*was & !now).map(row));
            *was = now;
        }
        net.kernel.add_sub(out, &entry.half, &add, &sub);
        entry.half = *out;
    }
}
