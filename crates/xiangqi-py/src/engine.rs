//! The engine in-process: a search of one position (with several best lines
//! on request), a batch of searches, and a batch of static evaluations; each
//! runs without the GIL, a batch optionally over several threads.

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    time::Duration,
};

use pyo3::{exceptions::PyValueError, prelude::*};
use xiangqi::{AnyGame, Geometry, Move, Rules, Variant};
use xiangqi_engine::{Analysis, Control, Engine, Limits, Options, Root, Score, eval::Evaluator, nnue::Nets};

use crate::{
    board::{AnyPosition, rule_set},
    errors,
    game::PyGame,
    moves::{self, PyMove},
    position::PyPosition,
};

/// A search score from the side to move's view: centipawns (`cp`), or a
/// mate in `mate` moves (negative: the side to move is mated).
#[pyclass(frozen, eq, module = "xiangqi_rs", name = "Score")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyScore {
    /// Centipawns, or `None` for a mate score.
    #[pyo3(get)]
    cp: Option<i32>,
    /// Moves to mate, or `None` for a centipawn score.
    #[pyo3(get)]
    mate: Option<i32>,
}

impl From<Score> for PyScore {
    fn from(s: Score) -> Self {
        match s {
            Score::Cp(v) => PyScore { cp: Some(v), mate: None },
            Score::Mate(n) => PyScore { cp: None, mate: Some(n) },
        }
    }
}

#[pymethods]
impl PyScore {
    fn __str__(&self) -> String {
        match (self.cp, self.mate) {
            (Some(v), _) => format!("cp {v}"),
            (_, Some(n)) => format!("mate {n}"),
            _ => String::new(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Score({})", self.__str__())
    }
}

/// One line of an analysis: its first move, its score, the depth it was
/// searched to, the nodes its search took, and the principal variation.
#[pyclass(frozen, module = "xiangqi_rs", name = "Line")]
pub struct PyLine {
    /// The line's first move.
    #[pyo3(get)]
    r#move: Py<PyMove>,
    /// The line's score, from the side to move's view.
    #[pyo3(get)]
    score: PyScore,
    /// The depth the line was searched to.
    #[pyo3(get)]
    depth: i32,
    /// The principal variation, the line's first move first.
    #[pyo3(get)]
    pv: Vec<Py<PyMove>>,
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        format!("Line({} {} depth {})", self.r#move.get().iccs(), self.score.__str__(), self.depth)
    }
}

/// The answer of a search: the best move (`None` when the side to move has
/// no legal move), its score, depth and principal variation, the nodes and
/// seconds the whole search took, and `lines`, the best lines in order (as
/// many as `multipv` asked for, fewer when fewer moves are legal).
#[pyclass(frozen, module = "xiangqi_rs", name = "Analysis")]
pub struct PyAnalysis {
    /// The move the engine would play; `None` when there is none to search.
    #[pyo3(get)]
    best_move: Option<Py<PyMove>>,
    /// The best move's score, from the side to move's view.
    #[pyo3(get)]
    score: Option<PyScore>,
    /// The depth the best move was searched to.
    #[pyo3(get)]
    depth: i32,
    /// The nodes of every line's search together.
    #[pyo3(get)]
    nodes: u64,
    /// The seconds the whole analysis took.
    #[pyo3(get)]
    time: f64,
    /// The best move's principal variation.
    #[pyo3(get)]
    pv: Vec<Py<PyMove>>,
    /// The lines found, in the order they were searched (the best move's first).
    #[pyo3(get)]
    lines: Vec<Py<PyLine>>,
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        let best = self.best_move.as_ref().map_or("none".to_string(), |m| m.get().iccs());
        let score = self.score.map_or(String::new(), |s| s.__str__());
        format!("Analysis(best={best}, {score}, depth={}, nodes={})", self.depth, self.nodes)
    }
}

/// A search's root on either board.
#[derive(Clone)]
enum AnyRoot {
    Standard(Root<xiangqi::Standard>),
    Hex(Root<xiangqi::Hex>),
}

/// What to search, read from a `Game` (its history and rule set), a
/// `Position` (the moves played on it are its history) or a FEN.
fn root_of(target: &Bound<'_, PyAny>, rules: Option<&str>, variant: &str) -> PyResult<AnyRoot> {
    let rules = rules.map(rule_set).transpose()?;
    if let Ok(g) = target.cast::<PyGame>() {
        let g = g.borrow();
        let mut game = g.inner().clone();
        if let Some(r) = rules {
            game = rebuild(&game, r)?;
        }
        // A finished game has no move to search: every root move is banned.
        let over = game.outcome().is_some();
        return Ok(match &game {
            AnyGame::Standard(g) => AnyRoot::Standard(finished(Root::from_game(g), over)),
            AnyGame::Hex(g) => AnyRoot::Hex(finished(Root::from_game(g), over)),
        });
    }
    let (base, played) = if let Ok(p) = target.cast::<PyPosition>() {
        let p = p.borrow();
        (p.base(), p.played.iter().map(|(m, _)| *m).collect::<Vec<Move>>())
    } else {
        let fen: String = target.extract()?;
        let v = crate::board::variant(variant)?;
        (AnyPosition::from_fen(v, &fen).map_err(|e| errors::fen_error(&fen, &e))?, Vec::new())
    };
    let rules: Rules = rules.unwrap_or_else(|| base.variant().default_rules()).rules();
    let illegal = |e: xiangqi::IllegalMove| PyValueError::new_err(e.to_string());
    Ok(match base {
        AnyPosition::Standard(p) => AnyRoot::Standard(Root::new(p, &played, rules).map_err(illegal)?),
        AnyPosition::Hex(p) => AnyRoot::Hex(Root::new(p, &played, rules).map_err(illegal)?),
    })
}

fn finished<G: Geometry>(mut root: Root<G>, over: bool) -> Root<G> {
    if over {
        let all = root.moves();
        root.ban(all);
    }
    root
}

/// The same moves from the same start under another rule set.
fn rebuild(game: &AnyGame, rules: xiangqi::RuleSet) -> PyResult<AnyGame> {
    let mut again = AnyGame::new(game.variant(), &game.start_fen(), rules)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    for m in game.moves() {
        again.play(m).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(again)
}

fn variant_of(root: &AnyRoot) -> Variant {
    match root {
        AnyRoot::Standard(_) => Variant::Standard,
        AnyRoot::Hex(_) => Variant::Hex,
    }
}

/// The limits of a search from the keyword arguments; none given is refused,
/// since a search without one would never end.
fn limits(depth: Option<i32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && time.is_none() {
        return Err(PyValueError::new_err("give a depth, nodes or time limit"));
    }
    if let Some(t) = time
        && !(t.is_finite() && t > 0.0)
    {
        return Err(PyValueError::new_err("time is a positive number of seconds"));
    }
    Ok(Limits {
        depth: depth.map(|d| d.max(1)),
        nodes,
        move_time: time.map(Duration::from_secs_f64),
        ..Limits::default()
    })
}

/// Searches `root` for `lines` best lines (the engine's MultiPV: distinct
/// root moves, ordered by score, all from the last depth completed).
fn run(engine: &mut Engine, root: &AnyRoot, limits: &Limits, lines: usize) -> Analysis {
    let limits = limits.clone().with_multi_pv(lines);
    match root {
        AnyRoot::Standard(r) => engine.search(r, &limits, &Control::new(), &mut |_| {}),
        AnyRoot::Hex(r) => engine.search(r, &limits, &Control::new(), &mut |_| {}),
    }
}

fn analysis(py: Python<'_>, v: Variant, found: Analysis) -> PyResult<PyAnalysis> {
    let objects = |pv: &[Move]| pv.iter().map(|&m| moves::move_object(py, v, m)).collect::<Vec<_>>();
    let mut lines = Vec::with_capacity(found.lines.len());
    for line in &found.lines {
        lines.push(Py::new(
            py,
            PyLine {
                r#move: moves::move_object(py, v, line.moves[0]),
                score: line.score.into(),
                depth: line.depth,
                pv: objects(&line.moves),
            },
        )?);
    }
    Ok(PyAnalysis {
        best_move: found.best.map(|m| moves::move_object(py, v, m)),
        score: found.best.map(|_| found.score().into()),
        depth: found.depth(),
        nodes: found.nodes,
        time: found.time.as_secs_f64(),
        pv: objects(found.pv()),
        lines,
    })
}

fn options(hash_mb: usize, nnue: bool) -> Options {
    let base = Options { hash_mb: hash_mb.max(1), threads: 1, ..Options::default() };
    if nnue { base.with_embedded_net() } else { base }
}

/// Runs `work` on each item over `threads` threads, each with its own state
/// from `make`, and returns the answers in the items' order.
fn over_threads<I: Sync, S, R: Send>(
    items: &[I],
    threads: usize,
    make: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &I) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, items.len().max(1));
    let mut answers: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut state = make();
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, work(&mut state, item)));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a batch worker panicked")).collect()
    });
    answers.sort_by_key(|(i, _)| *i);
    answers.into_iter().map(|(_, r)| r).collect()
}

/// The engine, in this process: the search of `xiangqi uci` with the
/// embedded nets (or the classical evaluation with `nnue=False`), a
/// transposition table of `hash_mb` MiB and `threads` search threads.
///
/// An engine keeps its table and histories from search to search; one
/// engine runs one search at a time (use one per Python thread).
#[pyclass(module = "xiangqi_rs", name = "Engine")]
pub struct PyEngine {
    engine: Engine,
    hash_mb: usize,
    nnue: bool,
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 16, threads = 1, nnue = true))]
    fn py_new(hash_mb: usize, threads: usize, nnue: bool) -> PyEngine {
        let engine = Engine::new(Options { threads: threads.max(1), ..options(hash_mb, nnue) });
        PyEngine { engine, hash_mb, nnue }
    }

    /// Searches a `Game` (judged over its history under its rule set), a
    /// `Position` (the moves played on it are its history) or a FEN, within a
    /// `depth`, `nodes` or `time` (seconds) limit, for `multipv` best lines.
    ///
    /// With `multipv` k above 1 the engine searches k times, each time with
    /// the moves already found excluded at the root: line i is the best move
    /// among those left, with its own searched score and principal
    /// variation. A depth limit holds for each line; nodes and time are
    /// shared evenly among them. `rules` names a rule set for a `Position`
    /// or FEN (default: the board's usual one), or replays a `Game` under
    /// another. Runs without the GIL.
    #[pyo3(signature = (target, *, depth = None, nodes = None, time = None, multipv = 1, rules = None, variant = "standard"))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &mut self,
        py: Python<'_>,
        target: &Bound<'_, PyAny>,
        depth: Option<i32>,
        nodes: Option<u64>,
        time: Option<f64>,
        multipv: usize,
        rules: Option<&str>,
        variant: &str,
    ) -> PyResult<PyAnalysis> {
        if multipv == 0 {
            return Err(PyValueError::new_err("multipv is at least 1"));
        }
        let limits = limits(depth, nodes, time)?;
        let root = root_of(target, rules, variant)?;
        let engine = &mut self.engine;
        let found = py.detach(|| run(engine, &root, &limits, multipv));
        analysis(py, variant_of(&root), found)
    }

    /// Searches each of many targets (as `analyse` takes them) within the
    /// limits, one line each, over `threads` threads (each with an engine of
    /// its own and this engine's table size), without the GIL. The answers
    /// come in the targets' order.
    #[pyo3(signature = (targets, *, depth = None, nodes = None, time = None, threads = 1, rules = None, variant = "standard"))]
    #[allow(clippy::too_many_arguments)]
    fn analyse_many(
        &mut self,
        py: Python<'_>,
        targets: Vec<Bound<'_, PyAny>>,
        depth: Option<i32>,
        nodes: Option<u64>,
        time: Option<f64>,
        threads: usize,
        rules: Option<&str>,
        variant: &str,
    ) -> PyResult<Vec<PyAnalysis>> {
        let limits = limits(depth, nodes, time)?;
        let roots = targets.iter().map(|t| root_of(t, rules, variant)).collect::<PyResult<Vec<_>>>()?;
        let found = if threads <= 1 {
            let engine = &mut self.engine;
            py.detach(|| roots.iter().map(|r| run(engine, r, &limits, 1)).collect::<Vec<_>>())
        } else {
            let (hash_mb, nnue) = (self.hash_mb, self.nnue);
            py.detach(|| {
                over_threads(
                    &roots,
                    threads,
                    || Engine::new(options(hash_mb, nnue)),
                    |e, r| run(e, r, &limits, 1),
                )
            })
        };
        roots.iter().zip(found).map(|(r, f)| analysis(py, variant_of(r), f)).collect()
    }

    /// Forgets what earlier searches learnt (its table and histories).
    fn clear(&mut self) {
        self.engine.clear();
    }
}

/// The static evaluation of many positions (`Position` objects or FENs of
/// the board `variant` names), in centipawns from the side to move's view:
/// the embedded net's (or with `nnue=False` the classical evaluation's), no
/// search. Runs without the GIL, over `threads` threads.
#[pyfunction]
#[pyo3(signature = (positions, *, threads = 1, nnue = true, variant = "standard"))]
pub fn evaluate_many(
    py: Python<'_>,
    positions: Vec<Bound<'_, PyAny>>,
    threads: usize,
    nnue: bool,
    variant: &str,
) -> PyResult<Vec<i32>> {
    let v = crate::board::variant(variant)?;
    let list = positions
        .iter()
        .map(|p| {
            if let Ok(p) = p.cast::<PyPosition>() {
                return Ok(p.borrow().pos.clone());
            }
            let fen: String = p.extract()?;
            AnyPosition::from_fen(v, &fen).map_err(|e| errors::fen_error(&fen, &e))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let nets = if nnue { Nets::embedded() } else { Nets::default() };
    Ok(py.detach(|| {
        over_threads(
            &list,
            threads,
            || (Evaluator::<xiangqi::Standard>::default(), Evaluator::<xiangqi::Hex>::default()),
            |(standard, hex), pos| match pos {
                AnyPosition::Standard(p) => static_eval(&nets, standard, p),
                AnyPosition::Hex(p) => static_eval(&nets, hex, p),
            },
        )
    }))
}

fn static_eval<G: Geometry>(nets: &Nets, classical: &Evaluator<G>, pos: &xiangqi::Position<G>) -> i32 {
    match nets.get(G::VARIANT) {
        Some(net) => net.evaluate_position(pos),
        None => classical.evaluate(pos),
    }
}
