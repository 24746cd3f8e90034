//! Zobrist keys, generated at compile time from a fixed seed so that hashes are
//! the same in every build (the engine's tests and opening books rely on it).

use crate::{
    geometry::MAX_CELLS,
    rng::Rng,
    types::{Cell, Piece},
};

struct Keys {
    pieces: [[u64; MAX_CELLS]; Piece::COUNT],
    black_to_move: u64,
}

const fn keys() -> Keys {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let mut pieces = [[0; MAX_CELLS]; Piece::COUNT];
    let mut p = 0;
    while p < Piece::COUNT {
        let mut c = 0;
        while c < MAX_CELLS {
            pieces[p][c] = rng.next_u64();
            c += 1;
        }
        p += 1;
    }
    Keys { pieces, black_to_move: rng.next_u64() }
}

static KEYS: Keys = keys();

#[inline]
pub(crate) fn piece(p: Piece, c: Cell) -> u64 {
    KEYS.pieces[p.index()][c.index()]
}

#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS.black_to_move
}
