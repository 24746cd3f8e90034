//! An efficiently updatable neural network evaluation (NNUE) for the standard board.

pub mod data;
pub mod selfplay;
