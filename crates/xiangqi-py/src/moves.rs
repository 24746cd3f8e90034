//! The `Move` class, and the move objects and names handed out by the
//! hundred: every possible move of each board is made once, on first use,
//! and shared (a move is immutable), so a list of legal moves costs a
//! reference per move rather than an allocation.

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    sync::PyOnceLock,
    types::{PyList, PyString, PyTuple},
};
use xiangqi::{Cell, Move, Variant, notation::iccs};

use crate::board::Grid;

/// A move on a board: the cell it leaves and the cell it goes to.
///
/// Moves compare and hash by board and cells. `str(move)` is its coordinate
/// name (`h2e2` on the standard board, `e4e5` on the hex board).
#[pyclass(frozen, eq, hash, module = "xiangqi_rs", name = "Move")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub mv: Move,
    pub variant: Variant,
}

/// Cells are indexed below this on both boards.
const SLOTS: usize = 90;

fn slot(m: Move) -> usize {
    m.from.index() * SLOTS + m.to.index()
}

struct Shared {
    names: Vec<Py<PyString>>,
    moves: Vec<Py<PyMove>>,
}

fn shared(py: Python<'_>, v: Variant) -> &'static Shared {
    static STANDARD: PyOnceLock<Shared> = PyOnceLock::new();
    static HEX: PyOnceLock<Shared> = PyOnceLock::new();
    let cell = match v {
        Variant::Standard => &STANDARD,
        Variant::Hex => &HEX,
    };
    cell.get_or_init(py, || {
        let t = v.tables();
        let mut names = Vec::with_capacity(SLOTS * SLOTS);
        let mut moves = Vec::with_capacity(SLOTS * SLOTS);
        for from in 0..SLOTS {
            for to in 0..SLOTS {
                let mv = Move::new(Cell::new(from), Cell::new(to));
                let on_board = from < t.cells() && to < t.cells();
                let name = if on_board { iccs::write(t, mv) } else { String::new() };
                names.push(PyString::new(py, &name).unbind());
                moves.push(Py::new(py, PyMove { mv, variant: v }).expect("a move object"));
            }
        }
        Shared { names, moves }
    })
}

/// The shared object of a move.
pub fn move_object(py: Python<'_>, v: Variant, m: Move) -> Py<PyMove> {
    shared(py, v).moves[slot(m)].clone_ref(py)
}

pub fn move_list<'py>(
    py: Python<'py>,
    v: Variant,
    moves: impl ExactSizeIterator<Item = Move>,
) -> PyResult<Bound<'py, PyList>> {
    let s = shared(py, v);
    PyList::new(py, moves.map(|m| s.moves[slot(m)].bind(py)))
}

pub fn name_list<'py>(
    py: Python<'py>,
    v: Variant,
    moves: impl ExactSizeIterator<Item = Move>,
) -> PyResult<Bound<'py, PyList>> {
    let s = shared(py, v);
    PyList::new(py, moves.map(|m| s.names[slot(m)].bind(py)))
}

#[pymethods]
impl PyMove {
    /// A move read from its coordinate name (`h2e2`, `H2-E2`, `e4e5`),
    /// without asking any position whether it is legal.
    #[new]
    #[pyo3(signature = (text, variant = "standard"))]
    fn new(text: &str, variant: &str) -> PyResult<PyMove> {
        let v = crate::board::variant(variant)?;
        let mv = iccs::parse(v.tables(), text)
            .ok_or_else(|| PyValueError::new_err(format!("{text:?} names no move on the {v} board")))?;
        Ok(PyMove { mv, variant: v })
    }

    /// The move between two squares of the array grid (`row * 9 + file`,
    /// see `Position.planes`), as a policy's indices name it.
    #[staticmethod]
    #[pyo3(signature = (from_square, to_square, variant = "standard"))]
    fn from_squares(from_square: usize, to_square: usize, variant: &str) -> PyResult<PyMove> {
        let v = crate::board::variant(variant)?;
        let grid = Grid::of(v);
        let cell = |sq: usize| {
            grid.cell
                .get(sq)
                .copied()
                .flatten()
                .ok_or_else(|| PyValueError::new_err(format!("square {sq} is no cell of the {v} board")))
        };
        Ok(PyMove { mv: Move::new(cell(from_square)?, cell(to_square)?), variant: v })
    }

    /// The coordinate name (`h2e2`).
    #[getter]
    pub fn iccs(&self) -> String {
        iccs::write(self.variant.tables(), self.mv)
    }

    /// The name of the cell the move leaves (`h2`).
    #[getter(from_name)]
    fn source_name(&self) -> String {
        self.variant.tables().cell_name(self.mv.from)
    }

    /// The name of the cell the move goes to (`e2`).
    #[getter(to_name)]
    fn target_name(&self) -> String {
        self.variant.tables().cell_name(self.mv.to)
    }

    /// The square the move leaves on the array grid (`row * 9 + file`).
    #[getter(from_square)]
    fn source_square(&self) -> usize {
        Grid::of(self.variant).square[self.mv.from.index()]
    }

    /// The square the move goes to on the array grid (`row * 9 + file`).
    #[getter(to_square)]
    fn target_square(&self) -> usize {
        Grid::of(self.variant).square[self.mv.to.index()]
    }

    /// The board: `"standard"` or `"hex"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    fn __str__(&self) -> String {
        self.iccs()
    }

    fn __repr__(&self) -> String {
        match self.variant {
            Variant::Standard => format!("Move('{}')", self.iccs()),
            other => format!("Move('{}', variant='{other}')", self.iccs()),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let args = PyTuple::new(py, [me.iccs(), me.variant.name().to_string()])?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
    }
}

/// A move given as a `Move` or as text in a notation, read where `pos` stands.
pub fn extract_move(
    pos: &crate::board::AnyPosition,
    given: &Bound<'_, PyAny>,
    how: crate::board::Notation,
) -> PyResult<Move> {
    if let Ok(m) = given.cast::<PyMove>() {
        let m = m.get();
        if m.variant != pos.variant() {
            return Err(PyValueError::new_err(format!(
                "a move of the {} board given to a position on the {} board",
                m.variant,
                pos.variant()
            )));
        }
        return Ok(m.mv);
    }
    let text: &str = &given.extract::<pyo3::pybacked::PyBackedStr>()?;
    crate::board::parse_move(pos, text, how).map_err(|e| crate::errors::move_error(text, &e))
}
