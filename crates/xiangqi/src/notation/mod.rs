//! Reading and writing positions, moves and game records.

pub mod chinese;
pub mod descriptive;
pub mod fen;
pub mod iccs;
pub mod wxf;
