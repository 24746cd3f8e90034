//! Properties over random playouts on both boards: FEN and move-name round-trips,
//! `legal_moves` agreeing with `is_legal`, play/undo restoring position and hash,
//! and no parser panicking on any text.

mod common;

use common::playout;
use proptest::prelude::*;
use xiangqi::{Cell, Geometry, Hex, Move, Position, Standard, notation::iccs};

fn check_position<G: Geometry>(pos: &Position<G>) -> Result<(), TestCaseError> {
    let fen = pos.to_fen();
    let back = Position::<G>::from_fen(&fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
    prop_assert_eq!(&back, pos);
    prop_assert_eq!(back.hash(), pos.hash(), "incremental hash differs from a fresh one for {}", fen);

    let legal = pos.legal_moves();
    let t = G::TABLES;
    for from in 0..t.cells() {
        for to in 0..t.cells() {
            let m = Move::new(Cell::new(from), Cell::new(to));
            prop_assert_eq!(legal.contains(&m), pos.is_legal(m), "{} in {}", pos.move_name(m), fen);
        }
    }
    prop_assert_eq!(legal.len() as u64, pos.count_legal());
    for &m in &legal {
        prop_assert_eq!(iccs::parse(t, &iccs::write(t, m)), Some(m));
        let mut p = pos.clone();
        let undo = p.play_unchecked(m);
        let fresh = Position::<G>::from_fen(&p.to_fen()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(p.hash(), fresh.hash());
        prop_assert!(!p.is_attacked(p.general(!p.turn()), p.turn()), "mover left in check");
        p.undo(m, undo);
        prop_assert_eq!(&p, pos);
        prop_assert_eq!(p.hash(), pos.hash());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn standard_playouts_keep_every_invariant(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout::<Standard>(&choices).iter().step_by(7) {
            check_position(pos)?;
        }
    }

    #[test]
    fn hex_playouts_keep_every_invariant(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        for pos in playout::<Hex>(&choices).iter().step_by(7) {
            check_position(pos)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fen_parsers_never_panic(text in "\\PC{0,120}") {
        let _ = Position::<Standard>::from_fen(&text);
        let _ = Position::<Hex>::from_fen(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[rnbakcpRNBAKCPeEhH1-9/ -]{0,100}( [wrb])?( - -)?( [0-9]{1,4})?( [0-9]{1,4})?") {
        let _ = Position::<Standard>::from_fen(&text);
        let _ = Position::<Hex>::from_fen(&text);
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,12}") {
        let pos = Position::<Standard>::startpos();
        let _ = pos.parse_move(&text);
        let hex = Position::<Hex>::startpos();
        let _ = hex.parse_move(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn legal_captures_are_exactly_the_legal_moves_onto_enemy_pieces(choices in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in playout::<Standard>(&choices).iter().step_by(5) {
            let enemy = pos.by_color(!pos.turn());
            let mut expected: Vec<Move> = pos.legal_moves().into_iter().filter(|m| enemy.contains(m.to)).collect();
            let mut got: Vec<Move> = pos.legal_captures().into_iter().collect();
            expected.sort();
            got.sort();
            prop_assert_eq!(got, expected);
        }
    }
}
