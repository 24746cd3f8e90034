//! The benchmark: fixed positions searched to a fixed depth from an empty table.
//! Its node count is a signature of the search (any change to search or
//! evaluation changes it); its speed is the engine's nodes per second.

use std::time::Duration;

use xiangqi::{Geometry, Position, Variant};

use crate::{Control, Engine, Limits, Options, Root, clock::Instant};

/// The default depth of `xiangqi bench`.
pub const DEFAULT_DEPTH: i32 = 15;

/// Positions of both boards: openings, middle games and endgames.
pub const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Standard, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    (Variant::Standard, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 2 2"),
    (Variant::Standard, "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 3"),
    (Variant::Standard, "r2akab1r/9/1cn1b1nc1/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKAB1R w - - 2 5"),
    (Variant::Standard, "2bakab1r/r8/2n1c1nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/R8/2BAKAB1R w - - 0 8"),
    (Variant::Standard, "2bak4/4a4/4b1n2/p3p1C1p/2p3p2/9/P1P1P3P/2N1B4/4A4/2BAK4 w - - 0 20"),
    (Variant::Standard, "3akab2/9/4b4/p3p3p/2p3p2/9/P1P1P3P/4B4/4A4/2BAK4 w - - 0 30"),
    (Variant::Standard, "4kab2/4a4/4b4/9/9/9/9/4B4/4A4/2BAK3R w - - 0 40"),
    (Variant::Standard, "3k5/4a4/5a3/9/2b6/9/9/9/4p4/5K3 b - - 0 50"),
    (Variant::Standard, "2ba1k3/4a4/4b4/9/6R2/2r6/9/4B4/4A4/2BAK4 w - - 0 35"),
    (Variant::Standard, "r1ba1ab1r/4k4/1cn1c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/4A4/RNB1KAB1R w - - 0 9"),
    (Variant::Standard, "2baka3/9/4b4/p3C3p/4p1p2/2p6/P5n1P/4B4/4A4/2BAK4 b - - 0 25"),
    (Variant::Hex, "startpos"),
];

/// The totals of a benchmark run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The nodes of all the searches.
    pub nodes: u64,
    /// The time of all the searches, without clearing the engine between them.
    pub time: Duration,
}

impl Report {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every benchmark position to `depth`, the engine cleared before each
/// (as for a new game, outside the timing), calling `each(index, fen, nodes)` after each.
/// With `nnue`, each board's net evaluates its positions.
///
/// # Errors
/// A benchmark position that does not parse (a bug in this file).
pub fn run(
    depth: i32,
    hash_mb: usize,
    threads: usize,
    nnue: crate::nnue::Nets,
    each: &mut dyn FnMut(usize, &str, u64),
) -> Result<Report, String> {
    let mut total = Report { nodes: 0, time: Duration::ZERO };
    let mut engine = Engine::new(Options { hash_mb, threads, nnue, ..Options::default() });
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        engine.clear();
        let nodes = xiangqi::with_geometry!(variant, G => one::<G>(&mut engine, fen, depth, &mut total)?);
        each(i, fen, nodes);
    }
    Ok(total)
}

fn one<G: Geometry>(engine: &mut Engine, fen: &str, depth: i32, total: &mut Report) -> Result<u64, String> {
    let pos: Position<G> = if fen == "startpos" {
        Position::startpos()
    } else {
        fen.parse().map_err(|e| format!("bench position {fen:?}: {e}"))?
    };
    let root = Root::from_position(pos, G::VARIANT.default_rules().rules());
    let start = Instant::now();
    let result = engine.search(&root, &Limits::depth(depth), &Control::new(), &mut |_| {});
    total.time += start.elapsed();
    total.nodes += result.nodes;
    Ok(result.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_parses_and_the_count_is_deterministic() {
        let a = run(3, 1, 1, Default::default(), &mut |_, _, _| {}).unwrap();
        let b = run(3, 1, 1, Default::default(), &mut |_, _, _| {}).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
        let net = crate::nnue::Nets::embedded();
        let c = run(3, 1, 1, net.clone(), &mut |_, _, _| {}).unwrap();
        let d = run(3, 1, 1, net, &mut |_, _, _| {}).unwrap();
        assert_eq!(c.nodes, d.nodes);
        assert_ne!(a.nodes, c.nodes, "the net changes the tree");
    }
}
