//! Strength levels: which numbers are levels, legal moves on both boards,
//! mates taken, and random choices that follow the seed.

use xiangqi::{Geometry, Hex, Move, Position, RuleSet, Standard};
use xiangqi_engine::{Control, Engine, Level, Limits, Root};

fn levels() -> Vec<Level> {
    Level::all().collect()
}

/// The position after `plies` moves from the start, each picked from the legal
/// moves by a fixed rule, so the positions are varied but always the same.
fn after<G: Geometry>(plies: usize, rules: RuleSet) -> Root<G> {
    let start = Position::<G>::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for i in 0..plies {
        let legal = pos.legal_moves();
        let m = legal[(i * 7 + 3) % legal.len()];
        pos.play(m).unwrap();
        moves.push(m);
    }
    Root::new(start, &moves, rules.rules()).unwrap()
}

fn choose<G: Geometry>(level: Level, root: &Root<G>, seed: u64) -> Move {
    let mut engine = Engine::new(level.engine_options());
    level.choose_move(&mut engine, root, &Control::new(), seed).expect("a move")
}

#[test]
fn only_one_to_eight_are_levels() {
    assert!(Level::new(0).is_err());
    assert!(Level::new(9).is_err());
    assert_eq!(Level::new(0).unwrap_err().to_string(), "level 0 is not a level from 1 to 8");
    assert!("nine".parse::<Level>().is_err());
    assert_eq!(" 3".parse::<Level>().unwrap().number(), 3);
    assert_eq!(levels().iter().map(|l| l.number()).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    assert_eq!(Level::try_from(8u8), Level::new(8));
}

#[test]
fn levels_grow_stronger_in_budget_and_in_measured_strength() {
    let all = levels();
    for pair in all.windows(2) {
        let (a, b) = (pair[0].style(), pair[1].style());
        // A level is not hotter than the one below it, nor a full search smaller.
        assert!(b.temperature <= a.temperature, "{pair:?}");
        if a.temperature == 0 {
            assert!(b.nodes > a.nodes, "{pair:?}");
        }
        assert!(pair[1].elo() > pair[0].elo(), "{pair:?}: {} then {}", pair[0].elo(), pair[1].elo());
    }
    assert_eq!(all[0].elo(), 0);
    assert_eq!(all[7].style().temperature, 0);
    assert!(all[0].style().temperature > 0);
}

#[test]
fn every_level_plays_a_legal_move_on_the_standard_board() {
    let fens = [
        // A middle game, an endgame and a position in check.
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        "3k5/4a4/9/9/2p6/9/9/4B4/4A4/2C1K4 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4A4/3rK4 w - - 0 1",
    ];
    let mut roots: Vec<Root<Standard>> =
        fens.iter().map(|f| Root::from_position(f.parse().unwrap(), RuleSet::Asian.rules())).collect();
    assert!(roots[2].position().is_check());
    roots.push(after(12, RuleSet::Asian));
    for level in levels() {
        for root in &roots {
            let m = choose(level, root, 5);
            assert!(root.position().is_legal(m), "level {level}: {m:?} in {}", root.position().to_fen());
        }
    }
}

#[test]
fn every_level_plays_a_legal_move_on_the_hex_board() {
    let roots: Vec<Root<Hex>> = [0, 9, 24].into_iter().map(|n| after(n, RuleSet::Hex)).collect();
    for level in levels() {
        for root in &roots {
            let m = choose(level, root, 5);
            assert!(root.position().is_legal(m), "level {level}: {m:?} in {}", root.position().to_fen());
        }
    }
}

#[test]
fn every_level_takes_a_mate_in_one() {
    // The horse screens the cannon and covers the general's flight squares (馬後炮).
    let fen = "4k4/9/4N4/9/9/9/9/C8/9/5K3 w - - 0 1";
    let root: Root<Standard> = Root::from_position(fen.parse().unwrap(), RuleSet::Asian.rules());
    for level in levels() {
        for seed in 0..4 {
            let m = choose(level, &root, seed);
            let mut pos = root.position().clone();
            pos.play(m).unwrap();
            assert!(pos.is_check() && pos.legal_moves().is_empty(), "level {level}, seed {seed}: {m:?}");
        }
    }
}

#[test]
fn low_levels_follow_the_seed() {
    let root: Root<Standard> = after(4, RuleSet::Asian);
    for level in [Level::new(1).unwrap(), Level::new(2).unwrap()] {
        let moves: Vec<Move> = (0..12).map(|seed| choose(level, &root, seed)).collect();
        let again: Vec<Move> = (0..12).map(|seed| choose(level, &root, seed)).collect();
        assert_eq!(moves, again, "level {level}: the same seeds gave other moves");
        let mut distinct = moves.clone();
        distinct.sort_by_key(|m| (m.from.index(), m.to.index()));
        distinct.dedup();
        assert!(distinct.len() >= 3, "level {level}: only {distinct:?} over 12 seeds");
    }
}

#[test]
fn a_level_keeps_its_own_budget_and_one_thread() {
    let level = Level::new(5).unwrap();
    let root: Root<Standard> = after(6, RuleSet::Asian);
    let mut engine = Engine::new(xiangqi_engine::Options { threads: 3, ..level.engine_options() });
    // Depth and nodes asked for are the level's business; only time is the caller's.
    let asked = Limits { depth: Some(30), nodes: Some(u64::MAX), ..Limits::default() };
    assert_eq!(level.limits(&asked).nodes, Some(level.style().nodes));
    let result = level.play(&mut engine, &root, &asked, &Control::new(), 1, &mut |_| {});
    assert!(result.nodes <= level.style().nodes + 2048, "{} nodes", result.nodes);
    assert_eq!(engine.threads(), 3);
    let mut fresh = Engine::new(level.engine_options());
    assert_eq!(level.choose_move(&mut fresh, &root, &Control::new(), 1), result.best);
}

#[test]
fn a_position_without_moves_gets_none() {
    // Black is mated.
    let fen = "3Rk4/9/4R4/9/9/9/9/9/9/3K5 b - - 0 1";
    let root: Root<Standard> = Root::from_position(fen.parse().unwrap(), RuleSet::Asian.rules());
    assert!(root.moves().is_empty());
    for level in levels() {
        let mut engine = Engine::new(level.engine_options());
        assert_eq!(level.choose_move(&mut engine, &root, &Control::new(), 3), None);
    }
}
