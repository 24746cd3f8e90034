//! NumPy arrays for model training: a position's piece planes and its legal
//! moves as square indices. The arrays are built here as bytes and handed to
//! `numpy.frombuffer`, so NumPy is needed only by those who call these.
//!
//! Layout: a position is 14 planes of the board grid, `planes[p, row, file]`,
//! shape `(14, rows, 9)`: plane `p` is Red's general, advisor, elephant,
//! horse, chariot, cannon, soldier (0-6) then Black's in the same order
//! (7-13); `row` counts cell numbers along a file from Red's end (rank 0-9
//! on the standard board, so `rows` is 10; cells 1-11 on the hex board,
//! `rows` 11, where a file's grid squares past its cells are never set, see
//! `board_mask`); `file` is a-i from Red's left. A square is `row * 9 + file`.
//!
//! With `mover_view` the board is seen from the side to move: when Black is
//! to move, the board is turned half round and the colours swap, so planes
//! 0-6 are always the mover's pieces and its general starts at the bottom.

use pyo3::{exceptions::PyValueError, prelude::*, types::PyByteArray};
use xiangqi::{Cell, Color, Geometry, Move, Piece, Variant};

use crate::{
    board::{AnyPosition, FILES, Grid, with_position},
    position::PyPosition,
};

const PLANES: usize = Piece::COUNT;

#[derive(Clone, Copy)]
enum Dtype {
    U8,
    F32,
}

fn dtype(name: &str) -> PyResult<Dtype> {
    match name {
        "uint8" => Ok(Dtype::U8),
        "float32" => Ok(Dtype::F32),
        other => Err(PyValueError::new_err(format!("unknown dtype {other:?} (expected uint8 or float32)"))),
    }
}

/// Sets the planes of one position into `out` (one byte per square, 0 or 1).
fn fill<G: Geometry>(pos: &xiangqi::Position<G>, mover_view: bool, out: &mut [u8]) {
    let grid = Grid::of(G::VARIANT);
    let plane = grid.rows * FILES;
    let turn = mover_view && pos.turn() == Color::Black;
    for c in 0..G::TABLES.cells() {
        let Some(piece) = pos.piece_at(Cell::new(c)) else { continue };
        let (cell, piece) =
            if turn { (grid.turned[c], Piece::new(!piece.color, piece.role)) } else { (c, piece) };
        out[piece.index() * plane + grid.square[cell]] = 1;
    }
}

/// A NumPy array of `bytes` read as `dtype` (from one byte a value), of `shape`.
fn to_numpy<'py>(
    py: Python<'py>,
    bytes: Vec<u8>,
    dtype: Dtype,
    shape: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let (buffer, name) = match dtype {
        Dtype::U8 => (bytes, "uint8"),
        Dtype::F32 => (bytes.iter().flat_map(|&b| f32::from(b).to_ne_bytes()).collect(), "float32"),
    };
    let array = np.call_method1("frombuffer", (PyByteArray::new(py, &buffer), name))?;
    array.call_method1("reshape", (shape,))
}

fn planes_of(positions: &[&AnyPosition], mover_view: bool) -> PyResult<(Vec<u8>, usize)> {
    let Some(first) = positions.first() else { return Ok((Vec::new(), 10)) };
    let v = first.variant();
    if positions.iter().any(|p| p.variant() != v) {
        return Err(PyValueError::new_err("every position of a batch is on one board"));
    }
    let grid = Grid::of(v);
    let size = PLANES * grid.rows * FILES;
    let mut bytes = vec![0u8; size * positions.len()];
    for (pos, out) in positions.iter().zip(bytes.chunks_mut(size)) {
        with_position!(pos, p => fill(p, mover_view, out));
    }
    Ok((bytes, grid.rows))
}

/// The planes of one position (see `Position.planes`).
pub fn position_planes<'py>(
    py: Python<'py>,
    pos: &AnyPosition,
    dtype: &str,
    mover_view: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let dtype = self::dtype(dtype)?;
    let (bytes, rows) = planes_of(&[pos], mover_view)?;
    to_numpy(py, bytes, dtype, vec![PLANES, rows, FILES])
}

/// The legal moves of a position as arrays of squares (see `Position.legal_move_arrays`).
pub fn move_arrays<'py>(
    py: Python<'py>,
    pos: &AnyPosition,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let grid = Grid::of(pos.variant());
    let list: Vec<Move> = with_position!(pos, p => p.legal_moves().to_vec());
    let squares = |f: fn(&Move) -> Cell| -> Vec<u8> {
        list.iter().flat_map(|m| (grid.square[f(m).index()] as i64).to_ne_bytes()).collect()
    };
    let np = py.import("numpy")?;
    let array = |bytes: Vec<u8>| np.call_method1("frombuffer", (PyByteArray::new(py, &bytes), "int64"));
    Ok((array(squares(|m| m.from))?, array(squares(|m| m.to))?))
}

/// The planes of many positions of one board as one NumPy array of shape
/// `(n, 14, rows, 9)` (the layout of `Position.planes`).
#[pyfunction]
#[pyo3(signature = (positions, *, dtype = "uint8", mover_view = false))]
pub fn planes<'py>(
    py: Python<'py>,
    positions: Vec<PyRef<'py, PyPosition>>,
    dtype: &str,
    mover_view: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let dtype = self::dtype(dtype)?;
    let list: Vec<&AnyPosition> = positions.iter().map(|p| &p.pos).collect();
    let (bytes, rows) = py.detach(|| planes_of(&list, mover_view))?;
    to_numpy(py, bytes, dtype, vec![positions.len(), PLANES, rows, FILES])
}

/// A board's grid as a NumPy `uint8` array of shape `(rows, 9)`: 1 where the
/// square is a cell of the board, 0 where it is not (only on the hex board).
#[pyfunction]
#[pyo3(signature = (variant = "standard"))]
pub fn board_mask<'py>(py: Python<'py>, variant: &str) -> PyResult<Bound<'py, PyAny>> {
    let v: Variant = crate::board::variant(variant)?;
    let grid = Grid::of(v);
    let bytes = grid.cell.iter().map(|c| u8::from(c.is_some())).collect();
    to_numpy(py, bytes, Dtype::U8, vec![grid.rows, FILES])
}
