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

/// Progress of a search: one line of a completed depth, sent for each line
/// (best first) after each depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth just completed, in plies.
    pub depth: i32,
    /// The deepest ply this line's search reached.
    pub seldepth: usize,
    /// Which line this is, from 1 (the best) to [`Limits::multi_pv`].
    pub multipv: usize,
    /// The line's score, from the side to move's view.
    pub score: Score,
    /// The nodes searched so far, all threads together.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// The time since the search started.
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// The line's moves, starting with its root move.
    pub pv: Vec<Move>,
}

/// One root move and the play the search expects after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, starting with the root move; never empty.
    pub moves: Vec<Move>,
    /// The score from the side to move's view.
    pub score: Score,
    /// The same score in the search's units (see [`Value`]).
    pub value: Value,
    /// The depth the line was searched to, in plies.
    pub depth: i32,
    /// The deepest ply its search reached, where the search measured one (a
    /// level's chosen move, scored by a search of its own, has none).
    pub seldepth: Option<usize>,
}

impl Line {
    pub(crate) fn new(moves: Vec<Move>, value: Value, depth: i32, seldepth: Option<usize>) -> Self {
        debug_assert!(!moves.is_empty(), "a line starts with a root move");
        Line { moves, score: Score::from_value(value), value, depth, seldepth }
    }
}

/// The answer of a search: the lines found (one unless [`Limits::multi_pv`]
/// asks for more), the move to play, and what the search cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play: `None` only when the side to move has no legal move
    /// (or all are banned).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The lines of distinct root moves, best first, all from the last depth
    /// completed; empty only when `best` is `None`.
    pub lines: Vec<Line>,
    /// The nodes searched, all threads together.
    pub nodes: u64,
    /// The time the search took.
    pub time: Duration,
}

impl Analysis {
    /// The first line: the best move's.
    pub fn line(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// The best line's moves (empty when there is no move).
    pub fn pv(&self) -> &[Move] {
        self.line().map_or(&[], |l| &l.moves)
    }

    /// The best line's score (0 when there is no move).
    pub fn score(&self) -> Score {
        Score::from_value(self.value())
    }

    /// The best line's score in the search's units (0 when there is no move).
    pub fn value(&self) -> Value {
        self.line().map_or(0, |l| l.value)
    }

    /// The depth of the best line (0 when there is no move, or when the search
    /// stopped before it completed a depth).
    pub fn depth(&self) -> i32 {
        self.line().map_or(0, |l| l.depth)
    }
}

/// Settings of an [`Engine`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Search threads (lazy SMP); 0 counts as 1.
    pub threads: usize,
    /// The classical evaluation's weights.
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
    /// An engine with an empty transposition table of `options.hash_mb`.
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

    /// Searches on `threads` threads from the next search on (0 counts as 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.memories.resize_with(self.threads, Memory::default);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Evaluates with these weights where no net evaluates.
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

    /// Searches `root` within `limits` until a limit is reached or `control` is
    /// stopped, calling `on_info` for each line after each depth. Blocks the
    /// calling thread (and uses `threads - 1` more). `control` may be stopped
    /// from another thread; the answer is then the last depth completed.
    ///
    /// With [`Limits::multi_pv`] above 1 the answer holds that many lines of
    /// distinct root moves (fewer where there are fewer legal moves), ordered
    /// by score.
    pub fn search<G: Geometry>(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
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
    ) -> Analysis {
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
        let (lines, nodes, time) = std::thread::scope(|scope| {
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
                for (i, line) in it.lines.iter().enumerate() {
                    on_info(&Info {
                        depth: it.depth,
                        seldepth: line.seldepth.unwrap_or(0),
                        multipv: i + 1,
                        score: line.score,
                        nodes,
                        nps: nps(nodes, time),
                        time,
                        hashfull: shared.tt.hashfull(),
                        pv: line.moves.clone(),
                    });
                }
            };
            let lines = main.run(&mut report);
            shared.abort.store(true, std::sync::atomic::Ordering::Relaxed);
            (lines, main.nodes, main.elapsed())
        });
        let nodes = shared.total_nodes().max(nodes);
        let pv = lines.first().map_or(&[][..], |l| &l.moves[..]);
        Analysis { best: pv.first().copied(), ponder: pv.get(1).copied(), lines, nodes, time }
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
        assert_eq!(result.depth(), 6);
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

    /// A quiet middle game (a bench position): no check, and the best move, a
    /// horse's, captures nothing and stands clear of the third at every depth.
    const QUIET: &str = "r1ba1ab1r/4k4/1cn1c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/4A4/RNB1KAB1R w - - 0 9";

    fn analyse(fen: &str, limits: &Limits) -> Analysis {
        let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
        let root = Root::from_position(fen.parse::<Position<Standard>>().unwrap(), RuleSet::Asian.rules());
        engine.search(&root, limits, &Control::new(), &mut |_| {})
    }

    #[test]
    fn multi_pv_finds_distinct_root_moves_best_first() {
        let pos: Position<Standard> = QUIET.parse().unwrap();
        assert!(!pos.is_check());
        for depth in [4, 6, 8] {
            let one = analyse(QUIET, &Limits::depth(depth));
            let three = analyse(QUIET, &Limits::depth(depth).with_multi_pv(3));
            assert_eq!(one.lines.len(), 1);
            assert_eq!(three.lines.len(), 3, "{three:?}");
            let firsts: Vec<Move> = three.lines.iter().map(|l| l.moves[0]).collect();
            assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
            assert!(three.lines.windows(2).all(|w| w[0].value >= w[1].value), "{three:?}");
            assert!(three.lines.iter().all(|l| l.depth == depth && l.seldepth.is_some()));
            assert_eq!(three.best, Some(firsts[0]));
            assert_eq!(three.best, one.best, "depth {depth}");
            assert!(pos.piece_at(firsts[0].to).is_none(), "a quiet best move");
        }
    }

    #[test]
    fn multi_pv_reports_each_line_after_each_depth() {
        let mut engine = Engine::new(Options { hash_mb: 4, ..Options::default() });
        let root = Root::from_position(QUIET.parse::<Position<Standard>>().unwrap(), RuleSet::Asian.rules());
        let mut seen = Vec::new();
        let limits = Limits::depth(3).with_multi_pv(2);
        let result = engine.search(&root, &limits, &Control::new(), &mut |i| seen.push((i.depth, i.multipv)));
        assert_eq!(seen, vec![(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]);
        assert_eq!(result.lines.len(), 2);
    }

    #[test]
    fn multi_pv_beyond_the_legal_moves_gives_a_line_for_each() {
        // Black's king and advisors, a soldier on the second rank: few moves.
        let fen = "3k5/4a4/5a3/9/2b6/9/9/9/4p4/5K3 b - - 0 50";
        let legal = fen.parse::<Position<Standard>>().unwrap().legal_moves().len();
        let all = analyse(fen, &Limits::depth(3).with_multi_pv(500));
        assert_eq!(all.lines.len(), legal);
        let mut firsts: Vec<Move> = all.lines.iter().map(|l| l.moves[0]).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), legal, "every root move once");
    }
}
