//! The `Game` class (a start position, the moves played and a rule set, which
//! alone can say whether a move is allowed now and how the game ended) and
//! the `Outcome` class.

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyDict, PyList, PyTuple},
};
use xiangqi::{AnyGame, Color, Outcome, Reason, Variant, with_game};

use crate::{
    board::{AnyPosition, rule_set, with_position, written_notation},
    errors,
    moves::{self, PyMove},
    position::PyPosition,
};

/// How a game ended: the winner (`"red"`, `"black"`, or `None` for a draw)
/// and the reason (`"checkmate"`, `"stalemate"`, `"perpetual_check"`,
/// `"perpetual_chase"`, `"repetition"`, `"no_attackers"`, `"move_limit"`,
/// `"resignation"`, `"time_forfeit"`, `"agreement"`).
#[pyclass(frozen, eq, hash, module = "xiangqi_rs", name = "Outcome")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyOutcome {
    pub outcome: Outcome,
}

impl From<Outcome> for PyOutcome {
    fn from(outcome: Outcome) -> Self {
        PyOutcome { outcome }
    }
}

fn color(name: &str) -> PyResult<Color> {
    match name.to_ascii_lowercase().as_str() {
        "red" | "r" | "w" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        other => Err(PyValueError::new_err(format!("unknown side {other:?} (expected red or black)"))),
    }
}

#[pymethods]
impl PyOutcome {
    /// An outcome: `winner` `"red"`, `"black"` or `None` (a draw), and a reason's name.
    #[new]
    #[pyo3(signature = (winner, reason))]
    fn py_new(winner: Option<&str>, reason: &str) -> PyResult<PyOutcome> {
        let reason: Reason = reason.parse().map_err(PyValueError::new_err)?;
        let winner = winner.map(color).transpose()?;
        Ok(PyOutcome { outcome: Outcome { winner, reason } })
    }

    /// `"red"`, `"black"`, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.outcome.winner.map(Color::name)
    }

    /// The reason's stable name (`"perpetual_check"`).
    #[getter]
    fn reason(&self) -> &'static str {
        self.outcome.reason.name()
    }

    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`, as records write it.
    #[getter]
    fn result(&self) -> &'static str {
        self.outcome.result()
    }

    fn __str__(&self) -> String {
        self.outcome.to_string()
    }

    fn __repr__(&self) -> String {
        match self.outcome.winner {
            Some(c) => format!("Outcome('{c}', '{}')", self.outcome.reason.name()),
            None => format!("Outcome(None, '{}')", self.outcome.reason.name()),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.winner(), me.reason()).into_pyobject(py)?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
    }
}

/// A game: a start position, the moves played and a rule set (`"asian"`,
/// `"casual"`, `"itsyourturn"` on the standard board, `"hex"` on the hex
/// board). The rule set judges what the position alone cannot: repetition,
/// perpetual check and chase, the fourth check in a row, the move limit.
#[pyclass(module = "xiangqi_rs", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub game: AnyGame,
}

impl PyGame {
    fn position_now(&self) -> AnyPosition {
        match &self.game {
            AnyGame::Standard(g) => AnyPosition::Standard(g.position().clone()),
            AnyGame::Hex(g) => AnyPosition::Hex(g.position().clone()),
        }
    }

    fn read_move(&self, given: &Bound<'_, PyAny>) -> PyResult<xiangqi::Move> {
        if let Ok(m) = given.cast::<PyMove>() {
            let m = m.get();
            if m.variant != self.game.variant() {
                return Err(PyValueError::new_err("a move of the other board"));
            }
            return Ok(m.mv);
        }
        let text: String = given.extract()?;
        self.game.parse_any(&text).map_err(|e| errors::move_error(&text, &e))
    }

    fn play_move(&mut self, m: xiangqi::Move) -> PyResult<()> {
        let name = self.game.move_name(m);
        let checked = self.game.check(m).map_err(|e| errors::game_error(&name, &e))?;
        self.game.play_checked(checked);
        Ok(())
    }
}

#[pymethods]
impl PyGame {
    /// A game from a FEN (the board's start when none is given) under a rule
    /// set. The board is `variant`, else the rule set's board, else the
    /// standard one; the rule set is `rules`, else the board's usual one
    /// (`"asian"` on the standard board, `"hex"` on the hex board).
    #[new]
    #[pyo3(signature = (fen = None, variant = None, rules = None))]
    fn py_new(fen: Option<&str>, variant: Option<&str>, rules: Option<&str>) -> PyResult<PyGame> {
        let rules = rules.map(rule_set).transpose()?;
        let v = match variant {
            Some(name) => crate::board::variant(name)?,
            None => rules.map_or(Variant::Standard, |r| r.variant()),
        };
        let rules = rules.unwrap_or_else(|| v.default_rules());
        let game = match fen {
            None => AnyGame::startpos(v, rules),
            Some(fen) => AnyGame::new(v, fen, rules).map_err(|e| errors::fen_error(fen, &e))?,
        };
        Ok(PyGame { game })
    }

    /// The board: `"standard"` or `"hex"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.rule_set().name()
    }

    /// The current position's FEN.
    #[getter]
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// The start position's FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.game.start_fen()
    }

    /// The side to move: `"red"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.game.turn().name()
    }

    /// The number of moves played.
    #[getter]
    fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    /// The moves played, in order.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::move_list(py, self.game.variant(), self.game.moves().into_iter())
    }

    /// The last move played, if any.
    #[getter]
    fn last_move(&self, py: Python<'_>) -> Option<Py<PyMove>> {
        self.game.last_move().map(|m| moves::move_object(py, self.game.variant(), m))
    }

    /// The Zobrist hash of the current position.
    #[getter]
    fn zobrist(&self) -> u64 {
        with_game!(&self.game, g => g.position().hash())
    }

    /// The Zobrist hash of every position so far, the start first.
    fn hashes(&self) -> Vec<u64> {
        with_game!(&self.game, g => g.hashes().collect())
    }

    /// How the game ended, or `None` while it goes on.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome().map(PyOutcome::from)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.game.is_check()
    }

    /// The current position (a copy, with no moves to undo).
    fn position(&self) -> PyPosition {
        PyPosition::new_at(self.position_now())
    }

    /// The legal moves now, under the board's rules and the rule set's
    /// history rules; empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::move_list(py, self.game.variant(), self.game.legal_moves().iter().copied())
    }

    /// The legal moves now by their coordinate names, sorted.
    fn legal_names(&self) -> Vec<String> {
        self.game.legal_names()
    }

    /// Why a move is refused now (by the board or the rule set), in words,
    /// or `None` if it may be played.
    fn why_illegal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let m = match r#move.cast::<PyMove>() {
            Ok(m) => m.get().mv,
            Err(_) => match self.read_move(r#move) {
                Ok(m) => m,
                Err(e) => return Python::attach(|py| Ok(Some(e.value(py).str()?.to_string()))),
            },
        };
        if let Some(o) = self.game.outcome() {
            return Ok(Some(format!("the game is over ({o})")));
        }
        Ok(self.game.why_illegal(m).map(|r| r.to_string()))
    }

    /// Reads a move in a notation (`"any"`, `"iccs"`, `"wxf"`, `"chinese"`)
    /// where the game stands.
    #[pyo3(signature = (text, notation = "any"))]
    fn parse_move(&self, py: Python<'_>, text: &str, notation: &str) -> PyResult<Py<PyMove>> {
        let how = crate::board::notation(notation)?;
        let m = crate::board::parse_move(&self.position_now(), text, how)
            .map_err(|e| errors::move_error(text, &e))?;
        Ok(moves::move_object(py, self.game.variant(), m))
    }

    /// Writes a move legal now in a notation (`"iccs"`, `"old_iccs"`, `"wxf"`, `"chinese"`).
    #[pyo3(signature = (r#move, notation = "iccs"))]
    fn write_move(&self, r#move: &Bound<'_, PyAny>, notation: &str) -> PyResult<String> {
        let format = written_notation(notation)?;
        let m = self.read_move(r#move)?;
        let pos = self.position_now();
        if let Some(reason) = with_position!(&pos, p => p.why_illegal(m)) {
            let name = self.game.move_name(m);
            let illegal = xiangqi::IllegalMove { notation: name.clone(), reason };
            return Err(errors::move_error(&name, &xiangqi::MoveError::Illegal(illegal)));
        }
        Ok(self.game.write_move(m, format))
    }

    /// Every move played, written in a notation.
    #[pyo3(signature = (notation = "iccs"))]
    fn written_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        Ok(self.game.written_moves(written_notation(notation)?))
    }

    /// Plays a move (a `Move`, or text in ICCS, WXF or Chinese) and returns it.
    ///
    /// Raises `GameOverError` once the game is over, `MoveError` for a move
    /// the board or the rule set refuses (a fourth check in a row, a
    /// two-point chase under `"itsyourturn"`).
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        if let Some(o) = self.game.outcome() {
            let text = r#move.str()?.to_string();
            return Err(errors::game_error(&text, &xiangqi::GameError::Over(o)));
        }
        let m = self.read_move(r#move)?;
        self.play_move(m)?;
        Ok(moves::move_object(py, self.game.variant(), m))
    }

    /// Takes back the last move (reopening a game it had ended) and returns
    /// it, or `None` at the start.
    fn undo(&mut self, py: Python<'_>) -> Option<Py<PyMove>> {
        self.game.undo().map(|m| moves::move_object(py, self.game.variant(), m))
    }

    /// Ends the game for a reason off the board (`"resignation"`,
    /// `"time_forfeit"`, `"agreement"`); ignored once the game is over.
    #[pyo3(signature = (winner, reason))]
    fn finish(&mut self, winner: Option<&str>, reason: &str) -> PyResult<()> {
        let outcome = PyOutcome::py_new(winner, reason)?.outcome;
        self.game.finish(outcome);
        Ok(())
    }

    /// `side` (`"red"` or `"black"`) resigns.
    fn resign(&mut self, side: &str) -> PyResult<()> {
        self.game.finish(Outcome::win(!color(side)?, Reason::Resignation));
        Ok(())
    }

    /// The game as PGN with moves in a notation, and tags (`{"Red": "..."}`)
    /// set after the ones the game gives (Result, Termination, RuleSet).
    #[pyo3(signature = (notation = "iccs", tags = None))]
    fn pgn(&self, notation: &str, tags: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let format = written_notation(notation)?;
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(tags) = tags {
            for (k, v) in tags.iter() {
                pairs.push((k.extract()?, v.str()?.to_string()));
            }
        }
        let borrowed: Vec<(&str, String)> = pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        Ok(self.game.pgn(&borrowed, format))
    }

    /// An independent copy.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(variant='{}', rules='{}', plies={}, fen='{}')",
            self.game.variant(),
            self.game.rule_set(),
            self.game.ply_count(),
            self.game.fen()
        )
    }

    /// Pickles as the start, the rule set, the moves and a result declared off
    /// the board (a result the rules reached is reached again by the moves).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let g = &me.game;
        let args = (g.start_fen(), g.variant().name(), g.rule_set().name()).into_pyobject(py)?;
        let declared = g
            .outcome()
            .filter(|o| matches!(o.reason, Reason::Resignation | Reason::TimeForfeit | Reason::Agreement));
        let names = g.written_moves(xiangqi::notation::pgn::Format::Iccs);
        let state =
            (names, declared.map(|o| (o.winner.map(Color::name), o.reason.name()))).into_pyobject(py)?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any(), state.into_any()])
    }

    fn __setstate__(&mut self, state: (Vec<String>, Option<(Option<String>, String)>)) -> PyResult<()> {
        let (names, declared) = state;
        let t = self.game.tables();
        for name in names {
            let m = xiangqi::notation::iccs::parse(t, &name)
                .ok_or_else(|| PyValueError::new_err(format!("{name:?} is no move")))?;
            self.play_move(m)?;
        }
        if let Some((winner, reason)) = declared {
            self.finish(winner.as_deref(), &reason)?;
        }
        Ok(())
    }
}

impl PyGame {
    /// The game's current position with its history, for the engine.
    pub fn inner(&self) -> &AnyGame {
        &self.game
    }
}
