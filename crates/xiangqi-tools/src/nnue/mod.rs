//! NNUE training: the records' format ([`data`]), the self-play that makes
//! them ([`selfplay`]) and the trainer that fits a net to them ([`train`]). The
//! net itself, and its evaluation, are the engine's (`xiangqi_engine::nnue`).

pub mod data;
pub mod selfplay;
pub mod site;
pub mod train;

#[cfg(test)]
mod tests;
