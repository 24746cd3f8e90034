//! `xiangqi_rs`, the Python module of this project's rules library, record
//! readers and engine. The classes are thin: each method hands its work to
//! the `xiangqi`, `xiangqi-records` and `xiangqi-engine` crates.

mod arrays;
mod board;
mod engine;
mod errors;
mod game;
mod moves;
mod position;
mod records;

use pyo3::prelude::*;

#[pymodule]
fn xiangqi_rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyOutcome>()?;
    m.add_class::<records::PyRecord>()?;
    m.add_class::<records::PyNode>()?;
    m.add_class::<records::PyVerdict>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyAnalysis>()?;
    m.add_class::<engine::PyLine>()?;
    m.add_class::<engine::PyScore>()?;
    m.add_function(wrap_pyfunction!(position::legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_file, m)?)?;
    m.add_function(wrap_pyfunction!(records::detect_format, m)?)?;
    m.add_function(wrap_pyfunction!(engine::evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::planes, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::board_mask, m)?)?;
    errors::register(m)?;
    Ok(())
}
