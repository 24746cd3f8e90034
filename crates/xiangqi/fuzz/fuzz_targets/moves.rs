//! Random walks from the start of both boards, steered by the input: every
//! generated move is legal by `is_legal`, play/undo restores the position, and
//! the legal-move count agrees with the generated list.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Cell, Geometry, Hex, Move, Position, Standard};

fn walk<G: Geometry>(data: &[u8]) {
    let mut pos = Position::<G>::startpos();
    for pair in data.chunks(2) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        assert_eq!(moves.len() as u64, pos.count_legal());
        // An arbitrary pair of cells is legal exactly when it is generated.
        let cells = G::TABLES.cells();
        let probe = Move::new(Cell::new(pair[0] as usize % cells), Cell::new(*pair.last().unwrap() as usize % cells));
        assert_eq!(moves.contains(&probe), pos.is_legal(probe));
        let m = moves[pair[0] as usize % moves.len()];
        let before = pos.clone();
        let undo = pos.play_unchecked(m);
        let mut back = pos.clone();
        back.undo(m, undo);
        assert_eq!(back, before);
        assert_eq!(back.hash(), before.hash());
    }
}

fuzz_target!(|data: &[u8]| {
    walk::<Standard>(data);
    walk::<Hex>(data);
});
