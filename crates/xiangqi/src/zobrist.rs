//! Zobrist keys, generated at compile time from a fixed seed so that hashes are
//! the same in every build (the engine's tests and opening books rely on it).

use crate::{
    geometry::MAX_CELLS,
    types::{Cell, Piece},
};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; MAX_CELLS]; 14],
    black_to_move: u64,
}

const fn keys() -> Keys {
    let mut state = 0x5851_f42d_4c95_7f2d;
    let mut pieces = [[0; MAX_CELLS]; 14];
    let mut p = 0;
    while p < 14 {
        let mut c = 0;
        while c < MAX_CELLS {
            let (s, k) = splitmix(state);
            state = s;
            pieces[p][c] = k;
            c += 1;
        }
        p += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys { pieces, black_to_move }
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
