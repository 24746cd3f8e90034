//! Reading and writing positions, moves and game records.

pub mod fen;
pub mod iccs;
