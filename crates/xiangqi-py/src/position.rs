//! The `Position` class: a board, its pieces, the side to move and the
//! counters, with the moves played on it kept so that they can be undone.

use pyo3::{
    exceptions::{PyIndexError, PyValueError},
    prelude::*,
    types::{PyDict, PyList, PyTuple},
};
use xiangqi::{Cell, Move, Undo, Variant};

use crate::{
    board::{AnyPosition, Grid, Notation, with_position, written_notation},
    errors,
    moves::{self, PyMove, extract_move},
};

/// A legal position on the standard or the hex board.
///
/// `play` and `undo` change it in place; `copy()` gives an independent one.
/// Two positions are equal when their FENs are.
#[pyclass(module = "xiangqi_rs", name = "Position")]
#[derive(Clone)]
pub struct PyPosition {
    pub pos: AnyPosition,
    /// The moves played on this object, with what undoing each needs.
    pub played: Vec<(Move, Undo)>,
}

impl PyPosition {
    pub fn new_at(pos: AnyPosition) -> PyPosition {
        PyPosition { pos, played: Vec::new() }
    }

    /// The position before the moves played on this object.
    pub fn base(&self) -> AnyPosition {
        let mut base = self.pos.clone();
        for &(m, u) in self.played.iter().rev() {
            with_position!(&mut base, p => p.undo(m, u));
        }
        base
    }

    pub fn variant_of(&self) -> Variant {
        self.pos.variant()
    }

    pub fn play_move(&mut self, m: Move) -> PyResult<()> {
        let undo = with_position!(&mut self.pos, p => p.play(m))
            .map_err(|e| errors::move_error(&e.notation.clone(), &xiangqi::MoveError::Illegal(e)))?;
        self.played.push((m, undo));
        Ok(())
    }

    fn cell_of(&self, key: &Bound<'_, PyAny>) -> PyResult<Cell> {
        let t = self.variant_of().tables();
        if let Ok(square) = key.extract::<usize>() {
            return Grid::of(self.variant_of())
                .cell
                .get(square)
                .copied()
                .flatten()
                .ok_or_else(|| PyValueError::new_err(format!("square {square} is no cell of this board")));
        }
        let name: String = key.extract()?;
        t.parse_cell(&name).ok_or_else(|| PyValueError::new_err(format!("{name:?} is no cell of this board")))
    }
}

#[pymethods]
impl PyPosition {
    /// A position from a FEN (the start position when none is given) on the
    /// board `variant` names (`"standard"` or `"hex"`).
    #[new]
    #[pyo3(signature = (fen = None, variant = "standard"))]
    fn py_new(fen: Option<&str>, variant: &str) -> PyResult<PyPosition> {
        let v = crate::board::variant(variant)?;
        let pos = match fen {
            None => AnyPosition::startpos(v),
            Some(fen) => AnyPosition::from_fen(v, fen).map_err(|e| errors::fen_error(fen, &e))?,
        };
        Ok(PyPosition::new_at(pos))
    }

    /// The FEN of the position.
    #[getter]
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The board: `"standard"` or `"hex"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant_of().name()
    }

    /// The side to move: `"red"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        with_position!(&self.pos, p => p.turn().name())
    }

    /// Plies since the last capture.
    #[getter]
    fn halfmoves(&self) -> u32 {
        with_position!(&self.pos, p => p.halfmoves())
    }

    /// The move number, from 1, growing after each Black move.
    #[getter]
    fn fullmoves(&self) -> u32 {
        with_position!(&self.pos, p => p.fullmoves())
    }

    /// The Zobrist hash of the placement and the side to move (not of the
    /// counters): the key the engine and the site's explorer use.
    #[getter]
    fn zobrist(&self) -> u64 {
        with_position!(&self.pos, p => p.hash())
    }

    /// The moves played on this object since it was made, oldest first.
    #[getter]
    fn played<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::move_list(py, self.variant_of(), self.played.iter().map(|(m, _)| *m))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        with_position!(&self.pos, p => p.is_check())
    }

    /// Whether the side to move has no legal move (it has lost: checkmate,
    /// or stalemate, which loses too).
    fn is_over(&self) -> bool {
        with_position!(&self.pos, p => p.legal_moves().is_empty())
    }

    /// The legal moves, as `Move` objects.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = with_position!(&self.pos, p => p.legal_moves());
        moves::move_list(py, self.variant_of(), list.iter().copied())
    }

    /// The legal moves by their coordinate names (`h2e2`), in generation order.
    fn legal_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = with_position!(&self.pos, p => p.legal_moves());
        moves::name_list(py, self.variant_of(), list.iter().copied())
    }

    /// Whether a move (a `Move` or coordinate text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        extract_move(&self.pos, r#move, Notation::Any).is_ok()
    }

    /// Why a move is illegal here, in words, or `None` if it is legal.
    fn why_illegal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        if let Ok(m) = r#move.cast::<PyMove>() {
            let m = m.get().mv;
            return Ok(with_position!(&self.pos, p => p.why_illegal(m)).map(|r| r.to_string()));
        }
        match extract_move(&self.pos, r#move, Notation::Any) {
            Ok(_) => Ok(None),
            Err(e) => Python::attach(|py| Ok(Some(e.value(py).getattr("reason")?.extract()?))),
        }
    }

    /// Reads a move in a notation (`"any"`, `"iccs"`, `"wxf"`, `"chinese"`;
    /// the hex board has coordinates only) and checks that it is legal here.
    ///
    /// Raises `MoveError` for text that is no move or a move refused here.
    #[pyo3(signature = (text, notation = "any"))]
    fn parse_move(&self, py: Python<'_>, text: &str, notation: &str) -> PyResult<Py<PyMove>> {
        let how = crate::board::notation(notation)?;
        let m = crate::board::parse_move(&self.pos, text, how).map_err(|e| errors::move_error(text, &e))?;
        Ok(moves::move_object(py, self.variant_of(), m))
    }

    /// Writes a legal move in a notation (`"iccs"`, `"old_iccs"`, `"wxf"`,
    /// `"chinese"`; on the hex board WXF and Chinese name the piece and its
    /// two cells, `Pe4-e5`).
    #[pyo3(signature = (r#move, notation = "iccs"))]
    fn write_move(&self, r#move: &Bound<'_, PyAny>, notation: &str) -> PyResult<String> {
        let format = written_notation(notation)?;
        let m = extract_move(&self.pos, r#move, Notation::Any)?;
        if let Some(reason) = with_position!(&self.pos, p => p.why_illegal(m)) {
            let name = with_position!(&self.pos, p => p.move_name(m));
            let illegal = xiangqi::IllegalMove { notation: name.clone(), reason };
            return Err(errors::move_error(&name, &xiangqi::MoveError::Illegal(illegal)));
        }
        Ok(with_position!(&self.pos, p => format.write(p, m)))
    }

    /// Plays a legal move (a `Move`, or text in any notation) and returns it.
    ///
    /// Raises `MoveError` if the move is not legal here.
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let m = extract_move(&self.pos, r#move, Notation::Any)?;
        self.play_move(m)?;
        Ok(moves::move_object(py, self.variant_of(), m))
    }

    /// Takes back the last move played on this object and returns it.
    ///
    /// Raises `IndexError` when none is left.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let (m, u) = self.played.pop().ok_or_else(|| PyIndexError::new_err("no move to undo"))?;
        with_position!(&mut self.pos, p => p.undo(m, u));
        Ok(moves::move_object(py, self.variant_of(), m))
    }

    /// The number of move sequences of `depth` plies from here (a move
    /// generator's check). Runs without the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.pos.clone();
        py.detach(move || with_position!(&pos, p => p.perft(depth)))
    }

    /// The piece on a cell, by its name (`"e0"`) or its square on the array
    /// grid: its FEN letter (upper case Red, `K A B N R C P`), or `None`.
    fn piece_at(&self, cell: &Bound<'_, PyAny>) -> PyResult<Option<char>> {
        let c = self.cell_of(cell)?;
        Ok(with_position!(&self.pos, p => p.piece_at(c)).map(|p| p.char()))
    }

    /// Every piece, as a dict from cell name to FEN letter.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = self.variant_of().tables();
        let out = PyDict::new(py);
        for c in (0..t.cells()).map(Cell::new) {
            if let Some(piece) = with_position!(&self.pos, p => p.piece_at(c)) {
                out.set_item(t.cell_name(c), piece.char())?;
            }
        }
        Ok(out)
    }

    /// The position as a NumPy array of shape `(14, rows, 9)`, `dtype`
    /// `"uint8"` or `"float32"`: plane `p` is Red's general, advisor,
    /// elephant, horse, chariot, cannon, soldier (0-6), then Black's (7-13);
    /// `row` is the cell's number along its file from Red's end (rank 0-9
    /// on the standard board, cells 1-11 on the hex board), the column its
    /// file a-i from Red's left. With `mover_view`, when Black is to move
    /// the board is turned half round and the colours swap, so planes 0-6
    /// are the mover's.
    #[pyo3(signature = (dtype = "uint8", mover_view = false))]
    fn planes<'py>(&self, py: Python<'py>, dtype: &str, mover_view: bool) -> PyResult<Bound<'py, PyAny>> {
        crate::arrays::position_planes(py, &self.pos, dtype, mover_view)
    }

    /// The legal moves as two NumPy `int64` arrays of squares (`row * 9 +
    /// file`, the grid of `planes`): where each move starts and where it
    /// ends, in the order of `legal_moves()`.
    fn legal_move_arrays<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        crate::arrays::move_arrays(py, &self.pos)
    }

    /// An independent copy (the moves played on this one included).
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPosition>().is_ok_and(|o| o.borrow().pos == self.pos)
    }

    fn __str__(&self) -> String {
        self.pos.fen()
    }

    fn __repr__(&self) -> String {
        match self.variant_of() {
            Variant::Standard => format!("Position('{}')", self.pos.fen()),
            v => format!("Position('{}', variant='{v}')", self.pos.fen()),
        }
    }

    /// Pickles as the position before the moves played on it and those moves,
    /// so that a copy made by pickling can undo them too.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let args = (me.base().fen(), me.variant_of().name()).into_pyobject(py)?;
        let names = moves::name_list(py, me.variant_of(), me.played.iter().map(|(m, _)| *m))?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any(), names.into_any()])
    }

    fn __setstate__(&mut self, state: Vec<String>) -> PyResult<()> {
        let t = self.variant_of().tables();
        for name in state {
            let m = xiangqi::notation::iccs::parse(t, &name)
                .ok_or_else(|| PyValueError::new_err(format!("{name:?} is no move")))?;
            self.play_move(m)?;
        }
        Ok(())
    }
}

/// The legal moves of a FEN by their coordinate names, read afresh each call
/// (as engines' wrappers take a FEN per call).
#[pyfunction]
#[pyo3(signature = (fen, variant = "standard"))]
pub fn legal_moves<'py>(py: Python<'py>, fen: &str, variant: &str) -> PyResult<Bound<'py, PyList>> {
    let v = crate::board::variant(variant)?;
    let pos = AnyPosition::from_fen(v, fen).map_err(|e| errors::fen_error(fen, &e))?;
    let list = with_position!(&pos, p => p.legal_moves());
    moves::name_list(py, v, list.iter().copied())
}
