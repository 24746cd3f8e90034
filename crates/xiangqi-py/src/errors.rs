//! The exceptions the module raises: one base class, and one class for each
//! kind of input that can be refused, each carrying the place it was refused at
//! as attributes (a record's game number, a move's ply and text).

use pyo3::{IntoPyObjectExt, create_exception, exceptions::PyValueError, prelude::*};
use xiangqi::{FenError as RulesFenError, GameError, MoveError as RulesMoveError, notation::pgn::PgnError};
use xiangqi_records::RecordError as FileRecordError;

create_exception!(
    xiangqi_rs,
    XiangqiError,
    PyValueError,
    "The base of every error this module raises (a ValueError)."
);
create_exception!(xiangqi_rs, FenError, XiangqiError, "A FEN that describes no legal position.");
create_exception!(
    xiangqi_rs,
    MoveError,
    XiangqiError,
    "A move that cannot be read, or that the board or the rule set refuses (`move_text`, `reason`)."
);
create_exception!(
    xiangqi_rs,
    GameOverError,
    XiangqiError,
    "A move asked of a game that is over (`outcome`)."
);
create_exception!(
    xiangqi_rs,
    RecordError,
    XiangqiError,
    "A game record that cannot be read: `game` (1-based, in its file), `ply`, `move_number`, `move_text`, `line`, `offset`, `limit`."
);

/// Registers the exception classes on the module under their Python names.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("XiangqiError", py.get_type::<XiangqiError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    Ok(())
}

/// An exception of class `E` with `message` and the given attributes set on it.
fn with_attributes<E: pyo3::type_object::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    attributes: &[(&str, Py<PyAny>)],
) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    let value = err.value(py);
    for (name, v) in attributes {
        // Setting an attribute on a fresh exception instance cannot fail.
        let _ = value.setattr(*name, v.bind(py));
    }
    err
}

fn none(py: Python<'_>) -> Py<PyAny> {
    py.None()
}

fn obj<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: T) -> Py<PyAny> {
    v.into_py_any(py).unwrap_or_else(|_| py.None())
}

pub fn fen_error(fen: &str, e: &RulesFenError) -> PyErr {
    Python::attach(|py| {
        with_attributes::<FenError>(py, format!("{e} (FEN {fen:?})"), &[("fen", obj(py, fen))])
    })
}

/// A move refused by a position or a game: `text` is what was asked for.
pub fn move_error(text: &str, e: &RulesMoveError) -> PyErr {
    let reason = match e {
        RulesMoveError::Illegal(illegal) => illegal.reason.to_string(),
        other => other.to_string(),
    };
    Python::attach(|py| {
        with_attributes::<MoveError>(
            py,
            e.to_string(),
            &[("move_text", obj(py, text)), ("reason", obj(py, reason)), ("ply", none(py))],
        )
    })
}

pub fn game_error(text: &str, e: &GameError) -> PyErr {
    match e {
        GameError::Over(outcome) => Python::attach(|py| {
            let outcome = crate::game::PyOutcome::from(*outcome);
            with_attributes::<GameOverError>(
                py,
                e.to_string(),
                &[("outcome", obj(py, outcome)), ("move_text", obj(py, text))],
            )
        }),
        GameError::Illegal(illegal) => move_error(text, &RulesMoveError::Illegal(illegal.clone())),
        GameError::Notation(n) => move_error(text, n),
    }
}

/// Where a record was refused, as the exception's attributes say it.
#[derive(Default)]
struct Place {
    ply: Option<usize>,
    move_number: Option<u32>,
    move_text: Option<String>,
    line: Option<usize>,
    offset: Option<usize>,
    limit: Option<&'static str>,
}

fn pgn_place(e: &PgnError) -> Place {
    match e {
        PgnError::Move { ply, number, text, .. } => Place {
            ply: Some(*ply),
            move_number: Some(*number),
            move_text: Some(text.clone()),
            ..Place::default()
        },
        PgnError::Tag { line, .. } => Place { line: Some(*line), ..Place::default() },
        PgnError::OverLimit { limit, ply, .. } => {
            Place { ply: *ply, limit: Some(limit.name()), ..Place::default() }
        }
        _ => Place::default(),
    }
}

fn file_place(e: &FileRecordError) -> Place {
    match e {
        FileRecordError::Record(p) | FileRecordError::Cut { error: p, .. } => pgn_place(p),
        FileRecordError::Layout { offset, .. } => Place { offset: Some(*offset), ..Place::default() },
    }
}

fn record_error_with(game: Option<usize>, message: String, place: Place) -> PyErr {
    let message = match game {
        Some(n) => format!("game {n}: {message}"),
        None => message,
    };
    Python::attach(|py| {
        let attributes = [
            ("game", obj(py, game)),
            ("ply", obj(py, place.ply)),
            ("move_number", obj(py, place.move_number)),
            ("move_text", obj(py, place.move_text)),
            ("line", obj(py, place.line)),
            ("offset", obj(py, place.offset)),
            ("limit", obj(py, place.limit)),
        ];
        with_attributes::<RecordError>(py, message, &attributes)
    })
}

/// A PGN record refused; `game` is its place in its file (1-based), if known.
pub fn pgn_error(game: Option<usize>, e: &PgnError) -> PyErr {
    record_error_with(game, e.to_string(), pgn_place(e))
}

/// A record of a file of any format refused.
pub fn file_error(game: Option<usize>, e: &FileRecordError) -> PyErr {
    record_error_with(game, e.to_string(), file_place(e))
}
