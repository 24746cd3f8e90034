//! Game records: reading PGN in every dialect and any file players keep
//! (XQF, DhtmlXQ, CCBridge, PGN in any encoding), each record with its tree
//! of variations and comments; writing PGN, XQF and DhtmlXQ; replaying a
//! record as history to see what a rule set would have judged on the way.

use std::sync::Arc;

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyBytes, PyDict, PyList},
};
use xiangqi::{
    Variant,
    history::{self, Verdict},
    notation::{limits::Limits, pgn},
};
use xiangqi_records::{Encoding, Game as FileGame, ReadOptions, RecordError as FileRecordError};

use crate::{
    board::{AnyPosition, rule_set, written_notation},
    errors,
    game::{PyGame, PyOutcome},
    moves::{self, PyMove},
    position::PyPosition,
};

/// One game record: its tags, its start position, its main line and its
/// whole tree of moves (variations and comments), as read from a file or
/// made from a game.
#[pyclass(frozen, module = "xiangqi_rs", name = "Record")]
pub struct PyRecord {
    pub game: Arc<FileGame>,
}

/// One position of a record's tree: the move that led there (`None` at the
/// start), its comment, and the moves that may follow, the main one first.
#[pyclass(frozen, module = "xiangqi_rs", name = "Node")]
pub struct PyNode {
    game: Arc<FileGame>,
    id: usize,
}

/// What a rule set would have said at a ply of a record replayed as history:
/// `kind` is `"ended"` (the game would have ended after this move: `outcome`)
/// or `"forbidden"` (this move would have been refused: `forbidden`, the
/// rule's name).
#[pyclass(frozen, module = "xiangqi_rs", name = "Verdict")]
pub struct PyVerdict {
    /// The move the verdict fell on, 1 for the record's first.
    #[pyo3(get)]
    ply: usize,
    /// `"ended"` or `"forbidden"`.
    #[pyo3(get)]
    kind: &'static str,
    /// How the game would have ended (for `"ended"`).
    #[pyo3(get)]
    outcome: Option<PyOutcome>,
    /// The rule that would have refused the move (for `"forbidden"`):
    /// `"fourth_check"` or `"two_point_chase"`.
    #[pyo3(get)]
    forbidden: Option<&'static str>,
}

#[pymethods]
impl PyVerdict {
    fn __repr__(&self) -> String {
        match (&self.outcome, self.forbidden) {
            (Some(o), _) => format!("Verdict(ply={}, ended: {})", self.ply, o.outcome),
            (_, Some(f)) => format!("Verdict(ply={}, forbidden: {f})", self.ply),
            _ => format!("Verdict(ply={})", self.ply),
        }
    }
}

fn limits(name: &str) -> PyResult<Limits> {
    match name {
        "archive" => Ok(Limits::ARCHIVE),
        "site" => Ok(Limits::SITE),
        other => Err(PyValueError::new_err(format!("unknown limits {other:?} (expected archive or site)"))),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum OnError {
    Raise,
    Skip,
}

fn on_error(name: &str) -> PyResult<OnError> {
    match name {
        "raise" => Ok(OnError::Raise),
        "skip" => Ok(OnError::Skip),
        other => Err(PyValueError::new_err(format!("unknown errors {other:?} (expected raise or skip)"))),
    }
}

/// The records read, or the first refused one as an exception when asked to raise.
fn collect(
    py: Python<'_>,
    games: Vec<Result<FileGame, FileRecordError>>,
    how: OnError,
) -> PyResult<Vec<Py<PyRecord>>> {
    let mut out = Vec::with_capacity(games.len());
    for (i, game) in games.into_iter().enumerate() {
        match game {
            Ok(game) => out.push(Py::new(py, PyRecord { game: Arc::new(game) })?),
            Err(e) if how == OnError::Raise => return Err(errors::file_error(Some(i + 1), &e)),
            Err(_) => {}
        }
    }
    Ok(out)
}

/// Reads every game of a PGN text in any dialect the site reads (ICCS, old
/// ICCS, WXF, Chinese in simplified or traditional glyphs, full-width forms,
/// moves run together), with variations and comments.
///
/// `errors="raise"` raises `RecordError` for the first game that cannot be
/// read (its `game` number, `ply`, `move_text`); `"skip"` leaves such games
/// out. `limits` is `"archive"` (files of any size, each game bounded) or
/// `"site"` (the play site's upload limits).
#[pyfunction]
#[pyo3(signature = (text, *, errors = "raise", limits = "archive"))]
pub fn read_pgn(py: Python<'_>, text: &str, errors: &str, limits: &str) -> PyResult<Vec<Py<PyRecord>>> {
    let how = on_error(errors)?;
    let limits = self::limits(limits)?;
    let games = py.detach(|| {
        pgn::trees_with(text, &limits)
            .map(|read| {
                let read = read?;
                let game = FileGame::new(read.record, read.tree);
                match read.cut {
                    None => Ok(game),
                    Some(error) => Err(FileRecordError::Cut { kept: Box::new(game), error }),
                }
            })
            .collect::<Vec<_>>()
    });
    collect(py, games, how)
}

/// Reads every record of a file of any format players keep, told by its
/// content: PGN (any dialect, in UTF-8, GBK/GB18030, Big5 or UTF-16), XQF,
/// DhtmlXQ, CCBridge CBF/CBR/CBL. `source` is a path or the file's bytes;
/// `encoding` names a text file's encoding when the guess is wrong.
///
/// Errors as `read_pgn`; a file over a whole-file limit raises `RecordError`
/// with `game` None.
#[pyfunction]
#[pyo3(signature = (source, *, encoding = None, errors = "raise", limits = "archive"))]
pub fn read_file(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    errors: &str,
    limits: &str,
) -> PyResult<Vec<Py<PyRecord>>> {
    let how = on_error(errors)?;
    let options = ReadOptions {
        encoding: encoding
            .map(|e| e.parse::<Encoding>().map_err(|e| PyValueError::new_err(e.to_string())))
            .transpose()?,
        limits: self::limits(limits)?,
    };
    let bytes: Vec<u8> = match source.cast::<PyBytes>() {
        Ok(b) => b.as_bytes().to_vec(),
        Err(_) => {
            let path: std::path::PathBuf = source.extract()?;
            std::fs::read(&path)?
        }
    };
    let read = py.detach(|| xiangqi_records::read_file(&bytes, &options));
    let read = read.map_err(|e| errors::file_error(None, &e))?;
    collect(py, read.games, how)
}

/// The format a file's bytes are in, by their content: `"PGN"`, `"XQF"`,
/// `"DhtmlXQ"`, `"CBF"`, `"CBR"` or `"CBL"`.
#[pyfunction]
pub fn detect_format(data: &[u8]) -> &'static str {
    xiangqi_records::Format::of(data, None).name()
}

#[pymethods]
impl PyRecord {
    /// A record of a game's moves, with its tags (`Result` and `Termination`
    /// when it is over, `RuleSet`, then `tags`). Standard board only.
    #[staticmethod]
    #[pyo3(signature = (game, tags = None))]
    fn from_game(game: &PyGame, tags: Option<&Bound<'_, PyDict>>) -> PyResult<PyRecord> {
        let xiangqi::AnyGame::Standard(g) = game.inner() else {
            return Err(PyValueError::new_err("records are of the standard board"));
        };
        let mut record = pgn::Record::from_game(g);
        if let Some(tags) = tags {
            for (k, v) in tags.iter() {
                record.set_tag(&k.extract::<String>()?, &v.str()?.to_string());
            }
        }
        let tree = xiangqi::notation::tree::MoveTree::line(&record.moves);
        Ok(PyRecord { game: Arc::new(FileGame::new(record, tree)) })
    }

    /// The tags in file order, as a dict (Game, FEN and Format are not tags
    /// here: they follow from the rest).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (k, v) in &self.game.record.tags {
            out.set_item(k, v)?;
        }
        Ok(out)
    }

    /// A tag's value (the name in any case), or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.game.record.tag(name).map(str::to_string)
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition::new_at(AnyPosition::Standard(self.game.record.start.clone()))
    }

    /// The main line.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::move_list(py, Variant::Standard, self.game.record.moves.iter().copied())
    }

    /// The tree's first node (the start position), whose children begin the
    /// main line and its variations.
    #[getter]
    fn root(&self) -> PyNode {
        PyNode { game: self.game.clone(), id: xiangqi::notation::tree::MoveTree::ROOT }
    }

    /// Moves in the tree, every variation's included.
    #[getter]
    fn node_count(&self) -> usize {
        self.game.tree.len() - 1
    }

    /// The main line replayed as a game under a rule set (the record's
    /// `RuleSet` tag when `rules` is None, else `"asian"`), where a move the
    /// rule set refuses is an error (`RecordError` with its `ply`).
    #[pyo3(signature = (rules = None))]
    fn game(&self, rules: Option<&str>) -> PyResult<PyGame> {
        let rules = rules.map(rule_set).transpose()?;
        let g = self.game.record.to_game(rules).map_err(|e| errors::pgn_error(None, &e))?;
        Ok(PyGame { game: xiangqi::AnyGame::Standard(g) })
    }

    /// The main line replayed as history under a rule set (as `game`): what
    /// the rule set would have judged on the way, in order (a repetition, a
    /// perpetual check or chase, the move limit, a forbidden move), while
    /// the moves go on.
    #[pyo3(signature = (rules = None))]
    fn history(&self, py: Python<'_>, rules: Option<&str>) -> PyResult<Vec<Py<PyVerdict>>> {
        let rules = rules.map(rule_set).transpose()?;
        let replayed = self.game.record.history(rules).map_err(|e| errors::pgn_error(None, &e))?;
        replayed.judged.iter().map(|j| Py::new(py, verdict(j))).collect()
    }

    /// The record as PGN with moves in a notation, comments and variations kept.
    #[pyo3(signature = (notation = "iccs"))]
    fn pgn(&self, notation: &str) -> PyResult<String> {
        Ok(pgn::write_tree(&self.game.record, &self.game.tree, written_notation(notation)?))
    }

    /// The record as an XQF file's bytes (variations and comments kept).
    fn xqf<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &xiangqi_records::xqf::write(&self.game))
    }

    /// The record as a DhtmlXQ block (variations and comments kept).
    fn dhtmlxq(&self) -> String {
        xiangqi_records::dhtmlxq::write(&self.game)
    }

    fn __repr__(&self) -> String {
        let r = &self.game.record;
        format!(
            "Record(red={:?}, black={:?}, result={:?}, moves={})",
            r.tag("Red").unwrap_or("?"),
            r.tag("Black").unwrap_or("?"),
            r.tag("Result").unwrap_or("*"),
            r.moves.len()
        )
    }
}

fn verdict(j: &history::Judged) -> PyVerdict {
    match j.verdict {
        Verdict::Ended(o) => {
            PyVerdict { ply: j.ply, kind: "ended", outcome: Some(o.into()), forbidden: None }
        }
        Verdict::Forbidden(f) => PyVerdict {
            ply: j.ply,
            kind: "forbidden",
            outcome: None,
            forbidden: Some(match f {
                xiangqi::Forbidden::FourthCheck => "fourth_check",
                xiangqi::Forbidden::TwoPointChase => "two_point_chase",
            }),
        },
    }
}

#[pymethods]
impl PyNode {
    /// The node's index in its tree (0 is the start).
    #[getter]
    fn id(&self) -> usize {
        self.id
    }

    /// The move that led here; `None` at the start.
    #[getter]
    fn r#move(&self, py: Python<'_>) -> Option<Py<PyMove>> {
        self.game.tree.mv(self.id).map(|m| moves::move_object(py, Variant::Standard, m))
    }

    /// The comment on the move that led here (at the start: the comment
    /// before the first move); empty for none.
    #[getter]
    fn comment(&self) -> String {
        self.game.tree.comment(self.id).to_string()
    }

    /// The nodes after this one: the main move first, then its variations.
    #[getter]
    fn children(&self) -> Vec<PyNode> {
        self.game.tree.children(self.id).iter().map(|&id| PyNode { game: self.game.clone(), id }).collect()
    }

    /// The node before this one; `None` at the start.
    #[getter]
    fn parent(&self) -> Option<PyNode> {
        self.game.tree.parent(self.id).map(|id| PyNode { game: self.game.clone(), id })
    }

    /// The moves from the start to here.
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::move_list(py, Variant::Standard, self.game.tree.path(self.id).into_iter())
    }

    fn __repr__(&self) -> String {
        let m =
            self.game.tree.mv(self.id).map(|m| xiangqi::notation::iccs::write(Variant::Standard.tables(), m));
        format!("Node(id={}, move={:?}, children={})", self.id, m, self.game.tree.children(self.id).len())
    }
}
