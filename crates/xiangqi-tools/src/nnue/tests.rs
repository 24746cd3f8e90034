//! Tests of the net: incremental updates against refreshes, both kernels, the
//! file format's checks and the embedded net's pinned scores.

use xiangqi::{Geometry, Hex, Position, Standard, Variant, rng::Rng};
use xiangqi_engine::nnue::{AccumulatorStack, Kernel, Layout, NetError, Network, QA, QB};

use crate::nnue::train::FloatNet;

/// A net of random weights for a board, in floats and as a file.
fn random_net(variant: Variant, buckets: usize, seed: u64) -> (FloatNet, Vec<u8>) {
    random_net_with_outputs(variant, buckets, 1, seed)
}

/// As [`random_net`], with `outputs` output buckets that differ from each other.
fn random_net_with_outputs(
    variant: Variant,
    buckets: usize,
    outputs: usize,
    seed: u64,
) -> (FloatNet, Vec<u8>) {
    let mut f = FloatNet::random(variant, buckets, outputs, seed);
    // A bias that keeps many neurons inside the clipped range.
    f.ft_b.iter_mut().enumerate().for_each(|(i, b)| *b = (i % 7) as f32 * 0.1);
    for (k, weights) in f.out_w.chunks_mut(2 * xiangqi_engine::nnue::HIDDEN).enumerate() {
        weights.iter_mut().for_each(|w| *w *= 1.0 - 0.2 * k as f32);
        f.out_b[k] = 0.05 * k as f32;
    }
    let bytes = f.quantise().to_bytes();
    (f, bytes)
}

#[test]
fn incremental_updates_equal_a_refresh_after_random_play_and_undo() {
    updates_equal_refreshes::<Standard>();
    updates_equal_refreshes::<Hex>();
}

fn updates_equal_refreshes<G: Geometry>() {
    let palace = Layout::of(G::VARIANT).palace_cells;
    for (buckets, seed) in [(1, 5), (palace, 6)] {
        let net = Network::from_bytes(&random_net(G::VARIANT, buckets, seed).1).unwrap();
        let mut rng = Rng(seed * 7919 + 1);
        // One stack for all the games, as a search thread keeps one across its
        // lines: its cache and its slots hold what earlier games left there. It
        // starts without room for a move, so it also grows.
        let mut stack = AccumulatorStack::new(&net, &Position::<G>::startpos(), 0);
        for game in 0..20 {
            let mut pos: Position<G> = Position::startpos();
            let mut played = Vec::new();
            for step in 0..200 {
                // Mostly forward, sometimes back, as a search goes.
                if !played.is_empty() && rng.below(3) == 0 {
                    let (m, u) = played.pop().unwrap();
                    pos.undo(m, u);
                    stack.pop();
                } else {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    let captured = pos.piece_at(m.to);
                    let u = pos.play_unchecked(m);
                    stack.push(&pos, m, captured);
                    played.push((m, u));
                }
                assert_eq!(
                    *stack.top(),
                    net.refresh(&pos),
                    "{:?} buckets {buckets} game {game} step {step}",
                    G::VARIANT
                );
            }
            // Back to the start position for the next game.
            played.iter().for_each(|_| stack.pop());
        }
    }
}

#[test]
fn the_simd_and_portable_nets_score_alike() {
    kernels_agree::<Standard>();
    kernels_agree::<Hex>();
}

fn kernels_agree<G: Geometry>() {
    let bytes = random_net_with_outputs(G::VARIANT, Layout::of(G::VARIANT).palace_cells, 8, 9).1;
    let portable = Network::from_bytes(&bytes).unwrap().with_kernel(Kernel::Portable);
    let best = Network::from_bytes(&bytes).unwrap();
    let mut rng = Rng(77);
    let mut pos: Position<G> = Position::startpos();
    for _ in 0..300 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::startpos();
            continue;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        assert_eq!(portable.refresh(&pos), best.refresh(&pos));
        assert_eq!(portable.evaluate_position(&pos), best.evaluate_position(&pos));
    }
}

#[test]
fn the_integer_net_follows_the_float_net() {
    for outputs in [1, 8] {
        integer_follows_float::<Standard>(outputs);
        integer_follows_float::<Hex>(outputs);
    }
}

fn integer_follows_float<G: Geometry>(outputs: usize) {
    let (f, bytes) = random_net_with_outputs(G::VARIANT, 1, outputs, 3);
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.variant(), net.outputs()), (G::VARIANT, outputs));
    let mut pos: Position<G> = Position::startpos();
    // The float net with its weights on the integer grid computes what the integer
    // net does, but for the last truncation: any disagreement in which input a
    // piece is would show here.
    let mut on_grid = f.clone();
    let grid = |v: &mut f32, k: i32| *v = (*v * k as f32).round() / k as f32;
    on_grid.ft_w.iter_mut().chain(on_grid.ft_b.iter_mut()).for_each(|v| grid(v, QA));
    on_grid.out_w.iter_mut().for_each(|v| grid(v, QB));
    on_grid.out_b.iter_mut().for_each(|v| grid(v, QA * QB));
    let mut rng = Rng(5);
    let mut total = 0.0;
    let mut used = vec![false; outputs];
    for _ in 0..60 {
        let moves = pos.legal_moves();
        let captures: Vec<_> = moves.iter().filter(|m| pos.piece_at(m.to).is_some()).collect();
        // Captures first, so that the game passes through several output buckets.
        let m = if captures.is_empty() { moves[rng.below(moves.len())] } else { *captures[0] };
        pos.play_unchecked(m);
        if pos.legal_moves().is_empty() {
            break;
        }
        used[Layout::of(G::VARIANT).output_bucket(outputs, pos.occupied().count() as usize)] = true;
        let sample =
            crate::nnue::data::Record::new(&pos, 0, crate::nnue::data::Outcome::Draw).decode().unwrap();
        let int = net.evaluate_position(&pos) as f32;
        let exact = on_grid.evaluate(&sample);
        assert!((exact - int).abs() < 1.01, "{:?}: float on the grid {exact}, integer {int}", G::VARIANT);
        // Rounding 512 output weights to 1/256 moves a score by some centipawns.
        let float = f.evaluate(&sample);
        assert!((float - int).abs() <= 25.0, "{:?}: float {float} integer {int}", G::VARIANT);
        total += (float - int).abs();
    }
    assert!(total / 60.0 < 10.0, "{:?}: mean difference {}", G::VARIANT, total / 60.0);
    assert!(
        used.iter().filter(|&&u| u).count() >= outputs.min(4),
        "{:?}: output buckets met {used:?}",
        G::VARIANT
    );
}

#[test]
fn damaged_or_foreign_net_files_are_refused() {
    let good = random_net(Variant::Standard, 1, 1).1;
    assert!(Network::from_bytes(&good).is_ok());
    assert_eq!(Network::from_bytes(&good[..20]).unwrap_err(), NetError::TooShort(20));
    let mut b = good.clone();
    b[0] = b'Y';
    assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::Magic);
    let mut b = good.clone();
    b[4] = 3;
    assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::Version(3));
    for outputs in [0, 17] {
        let mut b = good.clone();
        b[32] = outputs;
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, NetError::Shape { field: "output count", .. }), "{e}");
    }
    let mut b = good.clone();
    b[16] = 128; // hidden size 128
    b[17] = 0;
    assert!(matches!(Network::from_bytes(&b), Err(NetError::Shape { field: "hidden size", found: 128, .. })));
    let mut b = good.clone();
    b[8] = 80; // a board of 80 cells
    assert!(matches!(Network::from_bytes(&b), Err(NetError::Shape { field: "cell count", found: 80, .. })));
    let mut b = good.clone();
    b[12] = 7; // seven buckets: the hex board's palace, not the standard board's
    assert!(matches!(Network::from_bytes(&b), Err(NetError::Shape { field: "bucket count", found: 7, .. })));
    let mut b = good.clone();
    b[12] = 9; // nine buckets promised, one bucket's weights present
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NetError::Size { found, .. } if found == good.len()), "{e}");
    assert!(e.to_string().contains("wrong size"), "{e}");
    let short = &good[..good.len() - 2];
    assert!(matches!(Network::from_bytes(short), Err(NetError::Size { .. })));
    let mut b = good.clone();
    b[1000] ^= 1;
    let e = Network::from_bytes(&b).unwrap_err();
    assert!(matches!(e, NetError::Hash { .. }), "{e}");
    assert!(e.to_string().contains("damaged"), "{e}");
    let dir = std::env::temp_dir().join(format!("xiangqi-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.nnue");
    std::fs::write(&path, &b).unwrap();
    let e = Network::load(&path).unwrap_err();
    assert!(e.contains("bad.nnue") && e.contains("damaged"), "{e}");
    assert!(Network::load(&dir.join("missing.nnue")).unwrap_err().contains("missing.nnue"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_float_checkpoint_reads_back_the_same_net() {
    for variant in Variant::ALL {
        let (f, _) = random_net(variant, 1, 4);
        let bytes = f.to_checkpoint(7);
        assert!(FloatNet::from_checkpoint(&bytes[..bytes.len() - 1]).unwrap_err().contains("wrong size"));
        assert_eq!(FloatNet::from_checkpoint(&bytes).unwrap(), (f, 7));
    }
    let (f, _) = random_net_with_outputs(Variant::Hex, 7, 8, 4);
    assert_eq!(FloatNet::from_checkpoint(&f.to_checkpoint(2)).unwrap(), (f, 2));
    // A version 2 checkpoint, from before output buckets, has one output and no count;
    // a version 1 checkpoint, from before the hex board had nets, is a standard net.
    let (f, _) = random_net(Variant::Standard, 1, 4);
    let v3 = f.to_checkpoint(3);
    let mut v2 = [&v3[..4], &2u32.to_le_bytes(), &v3[8..24]].concat();
    v2.extend_from_slice(&v3[28..]);
    assert_eq!(FloatNet::from_checkpoint(&v2).unwrap(), (f.clone(), 3));
    let mut v1 = [&v2[..4], &1u32.to_le_bytes()].concat();
    v1.extend_from_slice(&v2[12..]);
    assert_eq!(FloatNet::from_checkpoint(&v1).unwrap(), (f, 3));
}

#[test]
fn a_net_file_gives_back_its_weights_and_starts_a_float_net_with_more_buckets() {
    let (f, bytes) = random_net(Variant::Standard, 1, 13);
    let net = Network::from_bytes(&bytes).unwrap();
    let weights = net.weights();
    assert_eq!(weights.to_bytes(), bytes);
    // Copied into eight output buckets, or into nine input buckets (the general's
    // palace cells), the float net scores every position as the one-bucket net does.
    let wide = FloatNet::from_weights(&weights, 1, 8).unwrap();
    let one = FloatNet::from_weights(&weights, 1, 1).unwrap();
    let palace = FloatNet::from_weights(&weights, 9, 8).unwrap();
    assert_eq!((wide.outputs(), one.outputs(), palace.outputs(), palace.buckets), (8, 1, 8, 9));
    let mut pos = Position::<Standard>::startpos();
    let mut rng = Rng(13);
    for _ in 0..60 {
        let moves = pos.legal_moves();
        let m = moves.iter().find(|m| pos.piece_at(m.to).is_some()).copied();
        pos.play_unchecked(m.unwrap_or_else(|| moves[rng.below(moves.len())]));
        if pos.legal_moves().is_empty() {
            break;
        }
        let s = crate::nnue::data::Record::new(&pos, 0, crate::nnue::data::Outcome::Draw).decode().unwrap();
        assert_eq!(wide.evaluate(&s), one.evaluate(&s));
        assert_eq!(palace.evaluate(&s), one.evaluate(&s));
        assert!((one.evaluate(&s) - f.evaluate(&s)).abs() <= 25.0);
    }
    assert_eq!(one.quantise().to_bytes(), bytes, "the integer weights survive the trip through floats");
    let (_, eight) = random_net_with_outputs(Variant::Standard, 1, 8, 13);
    let eight = Network::from_bytes(&eight).unwrap().weights();
    assert!(FloatNet::from_weights(&eight, 1, 8).is_ok());
    assert!(FloatNet::from_weights(&eight, 1, 4).unwrap_err().contains("8 output buckets"));
    let (_, nine) = random_net(Variant::Standard, 9, 14);
    let nine = Network::from_bytes(&nine).unwrap().weights();
    assert!(FloatNet::from_weights(&nine, 9, 1).is_ok());
    assert!(FloatNet::from_weights(&nine, 1, 1).unwrap_err().contains("9 input buckets"));
}

#[test]
fn a_version_1_net_file_reads_as_one_output() {
    // The format before output buckets: no output count in the header.
    let (_, v2) = random_net(Variant::Standard, 1, 12);
    let body = &v2[..v2.len() - 8];
    let mut v1 = [&body[..4], &1u32.to_le_bytes(), &body[8..32], &body[36..]].concat();
    let hash = xiangqi_engine::nnue::fnv1a(&v1);
    v1.extend_from_slice(&hash.to_le_bytes());
    let (old, new) = (Network::from_bytes(&v1).unwrap(), Network::from_bytes(&v2).unwrap());
    assert_eq!(old.outputs(), 1);
    let mut pos = Position::<Standard>::startpos();
    let mut rng = Rng(12);
    for _ in 0..40 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[rng.below(moves.len())]);
        assert_eq!(old.evaluate_position(&pos), new.evaluate_position(&pos));
    }
    assert!(Network::from_bytes(xiangqi_engine::nnue::EMBEDDED).is_ok());
}

#[test]
fn a_hex_net_loads_only_as_a_hex_net() {
    let (_, bytes) = random_net(Variant::Hex, 7, 2);
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.variant(), net.buckets()), (Variant::Hex, 7));
    assert_eq!(bytes.len(), 36 + 2 * (7 * 14 * 79 * 256 + 3 * 256) + 4 + 8);
    let nets = xiangqi_engine::nnue::Nets::embedded().with(std::sync::Arc::new(net));
    assert_eq!(nets.get(Variant::Hex).map(Network::hash), Some(Network::from_bytes(&bytes).unwrap().hash()));
    assert_eq!(nets.get(Variant::Standard).map(Network::hash), Some(Network::embedded().hash()));
}

#[test]
fn a_mirrored_position_scores_as_its_mirror_image_does() {
    // Mirroring is what the trainer adds: a net scores a mirrored record exactly as
    // it scores the position played mirrored on the board.
    let (f, _) = random_net(Variant::Standard, 1, 8);
    let fen = "2bak4/4a4/4b1n2/p3p1C1p/2p3p2/9/P1P1P3P/2N1B4/4A4/2BAK4 w - - 0 20";
    let mirror = "4kab2/4a4/2n1b4/p1C1p3p/2p3p2/9/P3P1P1P/4B1N2/4A4/4KAB2 w - - 0 20";
    let rec = |fen: &str| {
        let pos: Position<Standard> = fen.parse().unwrap();
        crate::nnue::data::Record::new(&pos, 0, crate::nnue::data::Outcome::Draw).decode().unwrap()
    };
    let mut a = crate::nnue::train::mirrored(&rec(fen));
    a.pieces.sort_by_key(|&(_, c)| c);
    assert_eq!(a, rec(mirror));
    assert_eq!(f.evaluate(&a), f.evaluate(&rec(mirror)));
}

#[test]
fn a_hex_position_mirrors_onto_the_opposite_files() {
    let rec = |pos: &Position<Hex>| {
        crate::nnue::data::Record::new(pos, 0, crate::nnue::data::Outcome::Draw).decode().unwrap()
    };
    // The start is its own mirror image; any position is its mirror's mirror.
    let start = rec(&Position::startpos());
    let mut m = crate::nnue::train::mirrored(&start);
    m.pieces.sort_by_key(|&(_, c)| c);
    assert_eq!(m, start);
    let mut pos = Position::<Hex>::startpos();
    let mut rng = Rng(3);
    for _ in 0..40 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[rng.below(moves.len())]);
        let s = rec(&pos);
        assert_eq!(crate::nnue::train::mirrored(&crate::nnue::train::mirrored(&s)), s);
    }
}
