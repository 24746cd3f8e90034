//! The engine: a transposition table, search threads and evaluation weights that
//! persist across searches, and one blocking call to search a position.

use std::{
    sync::atomic::{AtomicBool, AtomicU64},
    time::Duration,
};

use xiangqi::{Geometry, Move};

use crate::{
    correction::Correction,
    eval::{Evaluator, Params},
    limits::{Control, Limits},
    moves::History,
    nnue::Nets,
    root::Root,
    score::{Score, Value},
    search::{Shared, Worker},
    tt::TranspositionTable,
};

/// Progress of a search, sent after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (or all are banned).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    pub value: Value,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// Settings of an [`Engine`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    pub threads: usize,
    pub params: Params,
    /// The nets that evaluate each board's positions instead of the weights
    /// (a board without one: the classical evaluation).
    pub nnue: Nets,
}

impl Default for Options {
    fn default() -> Self {
        Options { hash_mb: 64, threads: 1, params: Params::default(), nnue: Nets::default() }
    }
}

impl Options {
    /// These options with the embedded nets: what people play and analyse
    /// against. `default()` stays classical, which `bench` and the search tests pin.
    pub fn with_embedded_net(self) -> Self {
        Options { nnue: Nets::embedded(), ..self }
    }
}

/// A Xiangqi engine for either board.
///
/// ```
/// use xiangqi::{Position, RuleSet, Standard};
/// use xiangqi_engine::{Control, Engine, Limits, Options, Root};
///
/// let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
/// let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
/// let result = engine.search(&root, &Limits::depth(4), &Control::new(), &mut |_| {});
/// assert!(root.position().is_legal(result.best.unwrap()));
/// ```
pub struct Engine {
    tt: TranspositionTable,
    threads: usize,
    params: Params,
    nnue: Nets,
    /// One per thread.
    memories: Vec<Memory>,
}

/// What one search thread learns and keeps from search to search.
#[derive(Default)]
struct Memory {
    history: History,
    correction: Correction,
}

impl Engine {
    pub fn new(options: Options) -> Self {
        let threads = options.threads.max(1);
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            threads,
            params: options.params,
            nnue: options.nnue,
            memories: (0..threads).map(|_| Memory::default()).collect(),
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.memories.resize_with(self.threads, Memory::default);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// Evaluates each board's positions with its net, or (a board without one)
    /// with the weights. The table's stored evaluations and the correction
    /// tables belong to the evaluation before: they are cleared.
    pub fn set_nnue(&mut self, nets: Nets) {
        self.nnue = nets;
        self.tt.clear();
        for m in &mut self.memories {
            m.correction.clear();
        }
    }

    /// The nets in use.
    pub fn nnue(&self) -> &Nets {
        &self.nnue
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for m in &mut self.memories {
            m.history.clear();
            m.correction.clear();
        }
    }

    /// Searches `root` within `limits`, calling `on_info` after each depth, until a
    /// limit is reached or `control` is stopped. Blocks the calling thread (and
    /// uses `threads - 1` more).
    pub fn search<G: Geometry>(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.search_from(root, limits, control, on_info, true)
    }

    /// [`Engine::search`], where `anew` says whether this is a new search (the table
    /// ages its entries and the histories fade) or a further look at the same
    /// position (each root move of a level's choice, see [`crate::Level`]).
    pub(crate) fn search_from<G: Geometry>(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
        anew: bool,
    ) -> SearchResult {
        let eval = Evaluator::<G>::new(self.params.clone());
        if anew {
            self.tt.new_search();
            for m in &mut self.memories {
                m.history.age();
            }
        }
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
        };
        let nnue = self.nnue.get(G::VARIANT);
        let (main_memory, helpers) = self.memories.split_first_mut().expect("at least one thread");
        let (best, nodes, time) = std::thread::scope(|scope| {
            for (i, memory) in helpers.iter_mut().enumerate() {
                let (shared, eval) = (&shared, &eval);
                scope.spawn(move || {
                    let mut worker = Worker::new(
                        i + 1,
                        root,
                        eval,
                        shared,
                        &mut memory.history,
                        &mut memory.correction,
                        nnue,
                    );
                    worker.run(&mut |_, _| {});
                });
            }
            let Memory { history, correction } = main_memory;
            let mut main = Worker::new(0, root, &eval, &shared, history, correction, nnue);
            let mut report = |it: &crate::search::Iteration, w: &Worker<'_, G>| {
                let time = w.elapsed();
                let nodes = shared.total_nodes().max(w.nodes);
                on_info(&Info {
                    depth: it.depth,
                    seldepth: it.seldepth,
                    score: Score::from_value(it.value),
                    nodes,
                    nps: nps(nodes, time),
                    time,
                    hashfull: shared.tt.hashfull(),
                    pv: it.pv.clone(),
                });
            };
            let best = main.run(&mut report);
            shared.abort.store(true, std::sync::atomic::Ordering::Relaxed);
            (best, main.nodes, main.elapsed())
        });
        let nodes = shared.total_nodes().max(nodes);
        match best {
            Some(it) => SearchResult {
                best: it.pv.first().copied(),
                ponder: it.pv.get(1).copied(),
                value: it.value,
                score: Score::from_value(it.value),
                depth: it.depth,
                nodes,
                time,
                pv: it.pv,
            },
            None => SearchResult {
                best: None,
                ponder: None,
                value: 0,
                score: Score::from_value(0),
                depth: 0,
                nodes,
                time,
                pv: Vec::new(),
            },
        }
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / us) as u64
}

#[cfg(test)]
mod tests {
    use xiangqi::{Hex, Position, RuleSet, Standard};

    use super::*;

    #[test]
    fn several_threads_agree_on_a_legal_move() {
        let mut engine = Engine::new(Options { hash_mb: 4, threads: 3, ..Options::default() });
        let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
        let result = engine.search(&root, &Limits::depth(6), &Control::new(), &mut |_| {});
        assert!(root.position().is_legal(result.best.unwrap()));
        assert_eq!(result.depth, 6);
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
        let root = Root::from_position(Position::<Hex>::startpos(), RuleSet::Hex.rules());
        let control = Control::new();
        control.stop();
        let result = engine.search(&root, &Limits::default(), &control, &mut |_| {});
        assert!(root.position().is_legal(result.best.unwrap()));
    }

    #[test]
    fn info_arrives_once_per_depth() {
        let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
        let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
        let mut depths = Vec::new();
        engine.search(&root, &Limits::depth(5), &Control::new(), &mut |info| depths.push(info.depth));
        assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    }
}
