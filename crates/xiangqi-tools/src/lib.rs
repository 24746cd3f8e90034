//! What is built around the engine and the play server but is not their hot path:
//! fitting the evaluation's weights ([`tune`]), generating NNUE training data
//! by self-play ([`nnue::selfplay`], in the format of [`nnue::data`], written by
//! [`gen_data`]) and training a net ([`nnue::train`]), scoring positions by
//! another engine ([`label`]), running matches between engines ([`matches`]),
//! and filling a PostgreSQL database with made-up accounts and games to measure
//! the play server ([`fill`]), and puzzles from the engine's own games
//! ([`puzzles`]). The `xiangqi` command (`match`, `label`,
//! `gen-data`, `fill`) and the `tune` and `train` binaries drive them.
//!
//! Everything random here draws from the rules crate's seeded generator
//! ([`xiangqi::rng::Rng`]), so a run is made again from its seed.

pub mod fill;
pub mod gen_data;
pub mod label;
pub mod matches;
pub mod nnue;
pub mod progress;
pub mod puzzles;
pub mod random_openings;
pub mod tune;

/// The logistic curve `1 / (1 + e^-x)`: the expected result of a score `x` in
/// the curve's own units (the tuner and the trainer scale their scores into it).
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
