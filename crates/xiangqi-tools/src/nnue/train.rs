//! The trainer: fits a float copy of the net to training records ([`super::data`])
//! by Adam on the mean squared error between the net's expected result and a
//! blend of the game's result and the search's score, then rounds it to the
//! integer net the engine loads.
//!
//! For a record with score `s` (centipawns, side to move) and result `r` (1, ½ or
//! 0 for the side to move), the target is `λ·r + (1-λ)·σ(s / SCALE)` and the
//! prediction `σ(o)`, where `o` is the net's output (so `o·SCALE` is centipawns and
//! a net that predicts the scores exactly keeps the search's scale).
//!
//! Everything is seeded and summed in a fixed order: the same data, settings and
//! thread count give the same net, byte for byte.

use std::{fmt::Write as _, path::Path, time::Instant};

use xiangqi::{Color, Variant, rng::Rng};
use xiangqi_engine::nnue::{HIDDEN, Layout, MAX_OUTPUTS, QA, QB, SCALE, Weights};

use super::data::{Record, Sample};

/// The largest float weight: keeps every quantised weight, and any sum of 32
/// feature rows and the bias, inside 16 bits.
const WEIGHT_LIMIT: f32 = 1.98;

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the start; it falls to 30% after each third of the epochs.
    pub lr: f32,
    /// The weight of the game's result in the target (the rest is the search's score).
    pub lambda: f32,
    /// 1, or one set of inputs per palace cell of the side's general (9, or 7 on the hex board).
    pub buckets: usize,
    /// Output buckets: sets of output weights, chosen by the number of pieces on the board.
    pub outputs: usize,
    pub threads: usize,
    pub seed: u64,
    /// Also train on every position mirrored left to right (the game is symmetric),
    /// which doubles the positions an epoch sees.
    pub mirror: bool,
    /// The share of the positions, the last in the files, held out to measure the
    /// error on games not trained on.
    pub validation: f32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            epochs: 30,
            batch: 16_384,
            lr: 0.001,
            lambda: 0.3,
            buckets: 1,
            outputs: 1,
            threads: 1,
            seed: 1,
            mirror: true,
            validation: 0.02,
        }
    }
}

/// The net in floats.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub variant: Variant,
    pub buckets: usize,
    /// `buckets * per_bucket` rows of `HIDDEN`.
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    /// For each output bucket, the mover's `HIDDEN`, then the other side's.
    pub out_w: Vec<f32>,
    /// One per output bucket.
    pub out_b: Vec<f32>,
}

const CHECKPOINT_MAGIC: [u8; 4] = *b"XQNF";

impl FloatNet {
    /// Small random weights for a net of `variant`'s board with `buckets` input
    /// buckets and `outputs` output buckets (each output bucket starts alike).
    pub fn random(variant: Variant, buckets: usize, outputs: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let ft_w =
            (0..buckets * Layout::of(variant).per_bucket() * HIDDEN).map(|_| 0.1 * rng.unit()).collect();
        let out_scale = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        let one: Vec<f32> = (0..2 * HIDDEN).map(|_| out_scale * rng.unit()).collect();
        let out_w = one.repeat(outputs.max(1));
        FloatNet { variant, buckets, ft_w, ft_b: vec![0.0; HIDDEN], out_w, out_b: vec![0.0; outputs.max(1)] }
    }

    /// The float net of an integer net's weights, with `buckets` input buckets and
    /// `outputs` output buckets: a net of one of either has it copied into each
    /// (so that training goes on from a shipped net and lets each bucket find
    /// its own weights; the copy scores every position as the net did).
    ///
    /// # Errors
    /// When the net has several buckets of a kind and not as many as asked for.
    pub fn from_weights(w: &Weights, buckets: usize, outputs: usize) -> Result<FloatNet, String> {
        let had = w.out_bias.len();
        if had != 1 && had != outputs {
            return Err(format!("the net has {had} output buckets; it can start a net of 1 or {had}"));
        }
        if w.buckets != 1 && w.buckets != buckets {
            let had = w.buckets;
            return Err(format!("the net has {had} input buckets; it can start a net of 1 or {had}"));
        }
        let copies = outputs / had;
        let scaled = |v: &[i16], k: i32| v.iter().map(|&x| f32::from(x) / k as f32).collect::<Vec<_>>();
        Ok(FloatNet {
            variant: w.variant,
            buckets,
            ft_w: scaled(&w.ft_weights, QA).repeat(buckets / w.buckets),
            ft_b: scaled(&w.ft_bias, QA),
            out_w: scaled(&w.out_weights, QB).repeat(copies),
            out_b: w.out_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect::<Vec<_>>().repeat(copies),
        })
    }

    /// The number of output buckets.
    pub fn outputs(&self) -> usize {
        self.out_b.len()
    }

    fn len(&self) -> usize {
        self.ft_w.len() + self.ft_b.len() + self.out_w.len() + self.out_b.len()
    }

    /// The output `o` (a logit; `o * SCALE` centipawns) from output bucket `out`
    /// and, when `cache` is given, the two accumulators it came from.
    fn forward(
        &self,
        us: &[usize],
        them: &[usize],
        out: usize,
        cache: Option<&mut [f32; 2 * HIDDEN]>,
    ) -> f32 {
        let mut acc = [0f32; 2 * HIDDEN];
        for (half, feats) in [us, them].into_iter().enumerate() {
            let a = &mut acc[half * HIDDEN..(half + 1) * HIDDEN];
            a.copy_from_slice(&self.ft_b);
            for &f in feats {
                for (x, w) in a.iter_mut().zip(&self.ft_w[f * HIDDEN..(f + 1) * HIDDEN]) {
                    *x += w;
                }
            }
        }
        let weights = &self.out_w[out * 2 * HIDDEN..(out + 1) * 2 * HIDDEN];
        let o = acc.iter().zip(weights).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum::<f32>() + self.out_b[out];
        if let Some(c) = cache {
            *c = acc;
        }
        o
    }

    /// The score in centipawns the float net gives a record's position.
    pub fn evaluate(&self, sample: &Sample) -> f32 {
        let (us, them) = inputs(sample, self.buckets);
        self.forward(&us, &them, output_bucket(sample, self.outputs()), None) * SCALE as f32
    }

    /// The integer net: feature weights times QA, output weights times QB, rounded.
    pub fn quantise(&self) -> Weights {
        let q =
            |v: f32, k: i32| (v * k as f32).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        Weights {
            variant: self.variant,
            buckets: self.buckets,
            ft_weights: self.ft_w.iter().map(|&v| q(v, QA)).collect(),
            ft_bias: self.ft_b.iter().map(|&v| q(v, QA)).collect(),
            out_weights: self.out_w.iter().map(|&v| q(v, QB)).collect(),
            out_bias: self.out_b.iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect(),
        }
    }

    /// A float checkpoint: `XQNF`, `u32` version 3, cells (90 or 79), buckets, hidden,
    /// epoch and output buckets, then the `f32` weights in the net file's order.
    /// (Version 2 had one output and no count; version 1 had no cell count either
    /// and was always of the standard board.)
    pub fn to_checkpoint(&self, epoch: usize) -> Vec<u8> {
        let mut b = Vec::with_capacity(28 + 4 * self.len());
        b.extend_from_slice(&CHECKPOINT_MAGIC);
        let cells = Layout::of(self.variant).cells as u32;
        for v in [3, cells, self.buckets as u32, HIDDEN as u32, epoch as u32, self.outputs() as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w).chain(&self.out_b) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Reads a checkpoint; also the epoch it was written after.
    ///
    /// # Errors
    /// A message for anything that is not such a checkpoint.
    pub fn from_checkpoint(bytes: &[u8]) -> Result<(FloatNet, usize), String> {
        if bytes.len() < 20 || bytes[..4] != CHECKPOINT_MAGIC {
            return Err("not a float checkpoint (it does not start with \"XQNF\")".into());
        }
        let word =
            |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("four bytes")) as usize;
        // Version 1 (standard board only) has no cell count: its words sit one earlier.
        let version = word(1);
        let (variant, at) = match (version, bytes.len() >= 4 * (version + 4)) {
            (1, _) => (Variant::Standard, 1),
            (2 | 3, true) => match Layout::with_cells(word(2)) {
                Some(layout) => (layout.variant, 2),
                None => return Err(format!("checkpoint of a board of {} cells; 90 or 79 expected", word(2))),
            },
            (v, _) => return Err(format!("checkpoint version {v}; this build reads 1 to 3")),
        };
        let outputs = if version == 3 { word(at + 4) } else { 1 };
        if !(1..=MAX_OUTPUTS).contains(&outputs) {
            return Err(format!("checkpoint with {outputs} output buckets; 1 to {MAX_OUTPUTS} expected"));
        }
        let layout = Layout::of(variant);
        let buckets = word(at + 1);
        if !layout.takes_buckets(buckets) {
            return Err(format!(
                "checkpoint with {buckets} buckets; 1 or {} expected on the {} board",
                layout.palace_cells,
                variant.name()
            ));
        }
        if word(at + 2) != HIDDEN {
            return Err(format!("checkpoint with hidden size {}; this build takes {HIDDEN}", word(at + 2)));
        }
        let mut net = FloatNet {
            variant,
            buckets,
            ft_w: vec![0.0; buckets * layout.per_bucket() * HIDDEN],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; outputs * 2 * HIDDEN],
            out_b: vec![0.0; outputs],
        };
        let header = 4 * (at + 4 + usize::from(version == 3));
        let expected = header + 4 * net.len();
        if bytes.len() != expected {
            return Err(format!("wrong size: {} bytes where the header promises {expected}", bytes.len()));
        }
        let mut values =
            bytes[header..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")));
        for v in net
            .ft_w
            .iter_mut()
            .chain(net.ft_b.iter_mut())
            .chain(net.out_w.iter_mut())
            .chain(net.out_b.iter_mut())
        {
            *v = values.next().unwrap_or_default();
        }
        Ok((net, word(at + 3)))
    }
}

/// The active inputs of a sample: the side to move's, then the other side's.
pub fn inputs(s: &Sample, buckets: usize) -> (Vec<usize>, Vec<usize>) {
    let layout = Layout::of(s.variant);
    let side_inputs = |side: Color| {
        let general = s
            .pieces
            .iter()
            .find(|(p, _)| p.color == side && p.role == xiangqi::Role::General)
            .map_or(0, |&(_, c)| usize::from(c));
        let bucket = layout.bucket(buckets, side, general);
        s.pieces.iter().map(|&(p, c)| layout.index(side, bucket, p, usize::from(c))).collect()
    };
    (side_inputs(s.turn), side_inputs(!s.turn))
}

/// The output bucket of a sample (by the number of pieces on its board).
pub fn output_bucket(s: &Sample, outputs: usize) -> usize {
    Layout::of(s.variant).output_bucket(outputs, s.pieces.len())
}

/// The position mirrored left to right: each piece to the same place on the opposite file.
pub fn mirrored(s: &Sample) -> Sample {
    let layout = Layout::of(s.variant);
    let mut m = s.clone();
    for (_, c) in &mut m.pieces {
        *c = layout.mirror(usize::from(*c)) as u8;
    }
    m
}

/// The training target of a sample (see the module's text).
fn target(s: &Sample, lambda: f32) -> f32 {
    lambda * s.outcome.score_for(s.turn)
        + (1.0 - lambda) * crate::sigmoid(f64::from(s.score) / f64::from(SCALE)) as f32
}

/// Gradients of one thread's share of a batch.
struct Grads {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: Vec<f32>,
    loss: f64,
}

impl Grads {
    fn new(net: &FloatNet) -> Self {
        Grads {
            ft_w: vec![0.0; net.ft_w.len()],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; net.out_w.len()],
            out_b: vec![0.0; net.out_b.len()],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.ft_w.fill(0.0);
        self.ft_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b.fill(0.0);
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Grads) {
        for (a, b) in self.ft_w.iter_mut().zip(&other.ft_w) {
            *a += b;
        }
        for (a, b) in self.ft_b.iter_mut().zip(&other.ft_b) {
            *a += b;
        }
        for (a, b) in self.out_w.iter_mut().zip(&other.out_w) {
            *a += b;
        }
        for (a, b) in self.out_b.iter_mut().zip(&other.out_b) {
            *a += b;
        }
        self.loss += other.loss;
    }
}

/// Adds one sample's gradient of the squared error to `g`.
fn backprop(net: &FloatNet, s: &Sample, lambda: f32, g: &mut Grads) {
    let (us, them) = inputs(s, net.buckets);
    let out = output_bucket(s, net.outputs());
    let mut acc = [0f32; 2 * HIDDEN];
    let o = net.forward(&us, &them, out, Some(&mut acc));
    let p = crate::sigmoid(f64::from(o)) as f32;
    let t = target(s, lambda);
    g.loss += f64::from((p - t) * (p - t));
    let d = 2.0 * (p - t) * p * (1.0 - p);
    g.out_b[out] += d;
    let base = out * 2 * HIDDEN;
    for (half, feats) in [&us, &them].into_iter().enumerate() {
        let range = half * HIDDEN..(half + 1) * HIDDEN;
        let weights = base + half * HIDDEN..base + (half + 1) * HIDDEN;
        let mut dacc = [0f32; HIDDEN];
        for ((da, (&a, &w)), gw) in
            dacc.iter_mut().zip(acc[range].iter().zip(&net.out_w[weights.clone()])).zip(&mut g.out_w[weights])
        {
            *gw += d * a.clamp(0.0, 1.0);
            if a > 0.0 && a < 1.0 {
                *da = d * w;
            }
        }
        for (gb, da) in g.ft_b.iter_mut().zip(&dacc) {
            *gb += da;
        }
        for &f in feats {
            for (gw, da) in g.ft_w[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(&dacc) {
                *gw += da;
            }
        }
    }
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, g: &Grads, lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let params = net
            .ft_w
            .iter_mut()
            .chain(net.ft_b.iter_mut())
            .chain(net.out_w.iter_mut())
            .chain(net.out_b.iter_mut());
        let grads = g.ft_w.iter().chain(&g.ft_b).chain(&g.out_w).chain(&g.out_b);
        for (((p, &gr), m), v) in params.zip(grads).zip(self.m.iter_mut()).zip(self.v.iter_mut()) {
            let gr = gr * scale;
            *m = B1 * *m + (1.0 - B1) * gr;
            *v = B2 * *v + (1.0 - B2) * gr * gr;
            *p = (*p - lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8)).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub lr: f32,
    pub seconds: f64,
}

/// Decodes every record of the files, which must all be of one board: that board and the records.
///
/// # Errors
/// A message naming the file and the first bad record, a torn tail, or the first
/// record of another board than the first record's.
pub fn read_records(paths: &[impl AsRef<Path>]) -> Result<(Variant, Vec<Record>), String> {
    let mut out = Vec::new();
    let mut board = None;
    for path in paths {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (records, tail) = super::data::records(&bytes);
        if tail != 0 {
            return Err(format!(
                "{}: ends with a torn record of {tail} bytes (run `xiangqi gen-data` on it again to cut it off)",
                path.display()
            ));
        }
        for (i, r) in records.iter().enumerate() {
            let s = r.decode().map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
            let first = *board.get_or_insert(s.variant);
            if s.variant != first {
                return Err(format!(
                    "{}: record {i} is of the {} board, the records before it of the {} board (one net is for one board)",
                    path.display(),
                    s.variant.name(),
                    first.name()
                ));
            }
        }
        out.extend(records);
    }
    Ok((board.unwrap_or(Variant::Standard), out))
}

/// The mean loss of a net over records.
fn mean_loss(net: &FloatNet, records: &[Record], lambda: f32) -> f64 {
    let total: f64 = records
        .iter()
        .filter_map(|r| r.decode().ok())
        .map(|s| {
            let (us, them) = inputs(&s, net.buckets);
            let out = output_bucket(&s, net.outputs());
            let d = crate::sigmoid(f64::from(net.forward(&us, &them, out, None))) as f32 - target(&s, lambda);
            f64::from(d * d)
        })
        .sum();
    total / records.len().max(1) as f64
}

/// Trains `net` on `records` (a share held out for validation), calling `each`
/// after every epoch with the figures and the net so far.
pub fn train(
    net: &mut FloatNet,
    records: &[Record],
    config: &Config,
    each: &mut dyn FnMut(&EpochReport, &FloatNet),
) -> Vec<EpochReport> {
    let mut rng = Rng(config.seed);
    // The last records are held out: files keep each game's positions together, so
    // these are (but for one game) positions of games never trained on.
    let held = ((records.len() as f32 * config.validation) as usize).min(records.len());
    let validation = &records[records.len() - held..];
    let kept = records.len() - held;
    // Indices from `kept` up stand for the mirrored positions.
    let mut train_set: Vec<usize> = (0..kept * if config.mirror { 2 } else { 1 }).collect();
    let threads = config.threads.max(1);
    let mut grads: Vec<Grads> = (0..threads).map(|_| Grads::new(net)).collect();
    let mut adam = Adam { m: vec![0.0; net.len()], v: vec![0.0; net.len()], t: 0 };
    let mut reports = Vec::new();
    for epoch in 1..=config.epochs {
        let start = Instant::now();
        let lr = config.lr * 0.3f32.powi(((epoch - 1) * 3 / config.epochs.max(1)) as i32);
        rng.shuffle(&mut train_set);
        let mut loss = 0.0;
        for batch in train_set.chunks(config.batch.max(1)) {
            let share = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(share)) {
                    let net = &*net;
                    scope.spawn(move || {
                        g.clear();
                        for &i in part {
                            if let Ok(s) = records[i % kept].decode() {
                                let s = if i >= kept { mirrored(&s) } else { s };
                                backprop(net, &s, config.lambda, g);
                            }
                        }
                    });
                }
            });
            let used = batch.chunks(share).count();
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                first[0].add(g);
            }
            loss += first[0].loss;
            adam.step(net, &first[0], lr, 1.0 / batch.len() as f32);
        }
        let report = EpochReport {
            epoch,
            train_loss: loss / train_set.len().max(1) as f64,
            validation_loss: mean_loss(net, validation, config.lambda),
            lr,
            seconds: start.elapsed().as_secs_f64(),
        };
        each(&report, net);
        reports.push(report);
    }
    reports
}

/// The loss curves as CSV.
pub fn csv(reports: &[EpochReport]) -> String {
    let mut s = String::from("epoch,train_loss,validation_loss,lr,seconds\n");
    for r in reports {
        let _ =
            writeln!(s, "{},{:.7},{:.7},{},{:.1}", r.epoch, r.train_loss, r.validation_loss, r.lr, r.seconds);
    }
    s
}

/// The loss curves as an SVG line plot: training and validation loss by epoch.
pub fn svg(reports: &[EpochReport], title: &str) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 420.0, 80.0, 20.0, 40.0, 50.0);
    let values = reports.iter().flat_map(|r| [r.train_loss, r.validation_loss]);
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo { (lo, hi) } else { (0.0, lo.abs().max(1e-3) * 2.0) };
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let n = reports.len().max(2) as f64 - 1.0;
    let x = |e: usize| left + (e as f64 - 1.0) / n * (w - left - right);
    let y = |v: f64| top + (hi - v) / (hi - lo) * (h - top - bottom);
    let line = |f: &dyn Fn(&EpochReport) -> f64| {
        reports.iter().map(|r| format!("{:.1},{:.1}", x(r.epoch), y(f(r)))).collect::<Vec<_>>().join(" ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    for k in 0..=4 {
        let v = lo + (hi - lo) * f64::from(k) / 4.0;
        let _ = writeln!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{v:.5}</text>"##,
            w - right,
            left - 6.0,
            y(v) + 4.0,
            y = y(v)
        );
    }
    let step = reports.len().div_ceil(10).max(1);
    for r in reports.iter().filter(|r| (r.epoch - 1) % step == 0 || r.epoch == reports.len()) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x(r.epoch),
            h - bottom + 18.0,
            r.epoch
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">epoch</text>"#,
        (left + w - right) / 2.0,
        h - 8.0
    );
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#444"/>"##,
        w - left - right,
        h - top - bottom
    );
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="{}"/>"##,
        line(&|r| r.train_loss)
    );
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#d62728" stroke-width="2" points="{}"/>"##,
        line(&|r| r.validation_loss)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" fill="#1f77b4">training loss</text><text x="{}" y="{}" fill="#d62728">validation loss</text>"##,
        w - right - 200.0,
        top + 18.0,
        w - right - 100.0,
        top + 18.0
    );
    s.push_str("</svg>\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
