//! One search thread: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves.
//!
//! Threads share only the transposition table and the stop flags (lazy SMP):
//! each searches the same tree, and what one finds reaches the others through
//! the table.

use std::{
    sync::{
        LazyLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use xiangqi::{
    Bitboard, Color, Geometry, Move, MoveList, Piece, Position, Repetition, Role, Undo,
    rules::{CyclePly, chase, perpetual},
};

use crate::{
    Line,
    clock::Instant,
    correction::{Correction, Keys},
    eval::{Evaluator, Placement},
    limits::{Control, Limits},
    moves::{Context, History, PackedMove, context, history_bonus},
    nnue::{AccumulatorStack, Network},
    picker::{GOOD_CAPTURE, KILLER, Picker, Scored, TT_MOVE, capture_order, pick},
    root::Root,
    score::{DRAW, INFINITE, MATE_BOUND, MAX_PLY, Value, from_tt, is_decisive, mate_in, mated_in, to_tt},
    see,
    tt::{Bound, Entry, TranspositionTable},
};

/// What every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    /// Set when the main thread ends the search (time, depth or node limit).
    pub abort: AtomicBool,
    /// Nodes searched so far, per thread (published every few thousand nodes).
    pub nodes: Vec<AtomicU64>,
    pub limits: &'a Limits,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.control.is_stopped()
    }
}

/// One position of the line from the start of the game to the node being
/// searched, with what the search keeps for its ply. The frames before the
/// root are the game's (their search fields are never written); before them
/// come [`SENTINELS`] empty frames, so that a node looks one or two plies back
/// without a bounds check.
struct Frame {
    hash: u64,
    /// Whether the move into this position gave check (the side to move is in check).
    check: bool,
    /// The move into this position (`None` for the start and after a null move).
    mv: Option<Move>,
    undo: Option<Undo>,
    /// Enemy pieces newly chased by the move, computed when a repetition needs it.
    chased: Option<Bitboard>,
    /// The move as continuation history keys it.
    context: Context,
    /// The quiet moves that last refuted a node at this ply, newest first; kept
    /// from node to node and from one iteration to the next.
    killers: [Option<Move>; 2],
    /// The move this ply's search must leave out (a singular-extension test).
    excluded: Option<Move>,
    /// The corrected static evaluation of the node at this ply (`-INFINITE` in
    /// check, [`NO_EVAL`] before the root).
    static_eval: Value,
    /// The principal variation from this ply.
    pv: Vec<Move>,
}

/// Frames before the start of the game: a node looks back two plies at most.
const SENTINELS: usize = 2;

/// The static evaluation of a frame the search has not evaluated: above every
/// evaluation, so no node counts as improving on it.
const NO_EVAL: Value = INFINITE;

impl Frame {
    /// A frame for a position reached by `mv`, its search fields empty; `pv` is
    /// allocated for a frame the search may fill.
    fn new(hash: u64, check: bool, mv: Option<Move>, chased: Option<Bitboard>, pv: Vec<Move>) -> Self {
        Frame {
            hash,
            check,
            mv,
            undo: None,
            chased,
            context: None,
            killers: [None; 2],
            excluded: None,
            static_eval: NO_EVAL,
            pv,
        }
    }
}

/// A finished iteration, as reported to the caller: a line for each root move
/// asked for, best first.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub depth: i32,
    pub lines: Vec<Line>,
}

impl Iteration {
    fn best(&self) -> &Line {
        &self.lines[0]
    }
}

/// Late-move reductions by depth and move number.
fn reduction(depth: i32, moves: usize) -> i32 {
    let d = f64::from(depth.clamp(1, 63));
    let m = (moves.clamp(1, 63)) as f64;
    (0.75 + d.ln() * m.ln() / 2.25) as i32
}

/// [`reduction`] for depths and move numbers up to 63, computed once for every
/// search (its 4,096 logarithms took a search of a few thousand nodes 1% of its time).
static REDUCTIONS: LazyLock<[[i32; 64]; 64]> =
    LazyLock::new(|| std::array::from_fn(|d| std::array::from_fn(|m| reduction(d as i32, m))));

pub(crate) struct Worker<'a, G: Geometry> {
    pub id: usize,
    pos: Position<G>,
    eval: &'a Evaluator<G>,
    shared: &'a Shared<'a>,
    history: &'a mut History,
    correction: &'a mut Correction,
    root: &'a Root<G>,
    /// The line from before the start of the game to the deepest ply the
    /// search can reach; `frames[top]` is the current position.
    frames: Vec<Frame>,
    top: usize,
    /// Index in `frames` of the root position (ply 0).
    root_frame: usize,
    pub nodes: u64,
    seldepth: usize,
    root_moves: Vec<Move>,
    /// The root moves of the lines already found at this depth, which the
    /// search for the next line leaves out (MultiPV).
    root_excluded: Vec<Move>,
    /// The nodes spent below each root move (same order as `root_moves`) in this search.
    root_effort: Vec<u64>,
    start: Instant,
    budget: Option<(Duration, Duration)>,
    /// What each move brings up to date for the evaluation.
    incremental: Incremental<'a>,
}

/// The evaluation's state for each position on the current line, which a move
/// updates from the one before: the classical evaluation's sums, or the net's
/// accumulators when a net evaluates this board.
enum Incremental<'a> {
    /// Material and placement sums.
    Classical(Vec<Placement>),
    Net(AccumulatorStack<'a>),
}

/// How much of the time budget a new iteration may start within, as a factor of
/// the usual 60%: `stable` counts the iterations the best move has held, `trend`
/// is the mean of this search's iteration values and `share` the part of its
/// nodes spent below the best move.
fn time_scale(stable: u32, value: Value, trend: Value, share: f64) -> f64 {
    // A best move that keeps changing deserves more time; a settled one less.
    let settled = match stable {
        0 => 1.5,
        1 | 2 => 1.1,
        _ => 0.7,
    };
    // A value falling below the search's trend deserves more time, a rising one less.
    let falling = (1.0 + f64::from(trend - value) / 200.0).clamp(0.8, 1.5);
    // A best move that took nearly all the nodes has no rival worth the time.
    let focus = 1.0 - ((share.clamp(0.6, 0.95) - 0.6) / 0.35) * 0.4;
    settled * falling * focus
}

impl<'a, G: Geometry> Worker<'a, G> {
    pub fn new(
        id: usize,
        root: &'a Root<G>,
        eval: &'a Evaluator<G>,
        shared: &'a Shared<'a>,
        history: &'a mut History,
        correction: &'a mut Correction,
        nnue: Option<&'a Network>,
    ) -> Self {
        debug_assert!(nnue.is_none_or(|n| n.variant() == G::VARIANT), "a net evaluates its own board");
        let root_moves = root.moves();
        let root_frame = SENTINELS + root.past.len();
        let mut frames = Vec::with_capacity(root_frame + MAX_PLY + 2);
        frames.extend((0..SENTINELS).map(|_| Frame::new(0, false, None, None, Vec::new())));
        frames.push(Frame::new(root.start_hash, false, None, Some(Bitboard::EMPTY), Vec::new()));
        for p in &root.past {
            frames.push(Frame::new(p.hash, p.check, Some(p.mv), Some(p.chased), Vec::new()));
        }
        frames[root_frame].check = root.position.is_check();
        // The root's frame and those the search may reach keep a principal variation.
        frames[root_frame].pv = Vec::with_capacity(MAX_PLY);
        frames
            .extend((1..MAX_PLY + 2).map(|_| Frame::new(0, false, None, None, Vec::with_capacity(MAX_PLY))));
        Worker {
            id,
            pos: root.position.clone(),
            eval,
            shared,
            history,
            correction,
            root,
            frames,
            top: root_frame,
            root_frame,
            nodes: 0,
            seldepth: 0,
            root_effort: vec![0; root_moves.len()],
            root_moves,
            root_excluded: Vec::new(),
            start: Instant::now(),
            budget: shared.limits.budget(),
            incremental: match nnue {
                Some(net) => Incremental::Net(AccumulatorStack::new(net, &root.position, MAX_PLY + 2)),
                None => {
                    let mut sums = Vec::with_capacity(MAX_PLY + 2);
                    sums.push(eval.placement(&root.position));
                    Incremental::Classical(sums)
                }
            },
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Whether the search must end now. The main thread also enforces the limits.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.is_main() {
                self.check_limits();
            }
        }
        self.shared.stopped()
    }

    fn check_limits(&mut self) {
        if let Some(max) = self.shared.limits.nodes
            && self.shared.total_nodes() >= max
        {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
        if self.shared.control.is_pondering() {
            self.start = Instant::now();
            return;
        }
        if let Some((_, maximum)) = self.budget
            && self.start.elapsed() >= maximum
        {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Iterative deepening; `report` sees each finished iteration (main thread
    /// only). The lines of the last iteration, or none when there is no root move.
    pub fn run(&mut self, report: &mut dyn FnMut(&Iteration, &Self)) -> Vec<Line> {
        if self.root_moves.is_empty() {
            return Vec::new();
        }
        let max_depth = self.shared.limits.depth.unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);
        let mut best: Option<Iteration> = None;
        let mut stable = 0;
        let (mut sum, mut iterations) = (0i64, 0i64);
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            let Some(it) = self.iteration(depth, best.as_ref()) else { break };
            let (first, value) = (it.best().moves[0], it.best().value);
            if best.as_ref().is_some_and(|b| b.best().moves[0] == first) {
                stable += 1;
            } else {
                stable = 0;
            }
            if self.is_main() {
                report(&it, self);
            }
            best = Some(it);
            if self.shared.stopped() {
                break;
            }
            sum += i64::from(value);
            iterations += 1;
            let trend = (sum / iterations) as Value;
            if self.is_main() && self.iteration_ends_search(value, stable, trend, self.effort_share(first)) {
                break;
            }
            depth += 1;
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        best.map_or_else(|| vec![Line::new(vec![self.root_moves[0]], 0, 0, None)], |it| it.lines)
    }

    /// One depth of iterative deepening: a search for each line asked for, each
    /// without the root moves of the lines before it, the lines then ordered by
    /// value. `None` when the search stopped before the depth completed, unless
    /// it is the first and found a line, which is better than none.
    fn iteration(&mut self, depth: i32, previous: Option<&Iteration>) -> Option<Iteration> {
        let wanted = self.shared.limits.multi_pv.clamp(1, self.root_moves.len());
        let mut lines = Vec::with_capacity(wanted);
        self.root_excluded.clear();
        for k in 0..wanted {
            let before = previous.and_then(|p| p.lines.get(k)).map(|l| l.value);
            let v = self.aspiration(depth, before.unwrap_or(0), before.is_some());
            let stopped = self.shared.stopped();
            if stopped && previous.is_some() {
                return None;
            }
            let pv = &self.frames[self.root_frame].pv;
            let Some(&first) = pv.first() else {
                // Stopped before any root move finished.
                break;
            };
            lines.push(Line::new(pv.clone(), v, depth, Some(self.seldepth)));
            if stopped {
                break;
            }
            self.root_excluded.push(first);
        }
        self.root_excluded.clear();
        // A later line can outscore an earlier one when the search of the
        // earlier one was cut by its window or pruned differently.
        lines.sort_by_key(|l| std::cmp::Reverse(l.value));
        (!lines.is_empty()).then_some(Iteration { depth, lines })
    }

    /// Where a root move stands in `root_moves` (and so in `root_effort`).
    fn root_index(&self, m: Move) -> Option<usize> {
        self.root_moves.iter().position(|&r| r == m)
    }

    /// The share of this search's nodes spent below a root move.
    fn effort_share(&self, m: Move) -> f64 {
        let spent = self.root_index(m).map_or(0, |i| self.root_effort[i]);
        spent as f64 / self.nodes.max(1) as f64
    }

    /// Whether to stop after an iteration: `trend` is the mean of the iterations'
    /// values so far, `share` the part of the nodes the best move took.
    fn iteration_ends_search(&mut self, value: Value, stable: u32, trend: Value, share: f64) -> bool {
        let limits = self.shared.limits;
        if let Some(n) = limits.mate
            && value >= MATE_BOUND
            && (crate::score::MATE - value + 1) / 2 <= n
        {
            return true;
        }
        if self.shared.control.is_pondering() {
            return false;
        }
        if let Some((optimum, _)) = self.budget {
            if limits.move_time.is_some() {
                return false;
            }
            let scale = time_scale(stable, value, trend, share);
            // An iteration usually takes longer than all before it: do not start one
            // that is unlikely to finish.
            return self.start.elapsed().as_secs_f64() > optimum.as_secs_f64() * scale * 0.6;
        }
        false
    }

    fn aspiration(&mut self, depth: i32, prev: Value, have_prev: bool) -> Value {
        self.seldepth = 0;
        if depth < 5 || !have_prev || is_decisive(prev) {
            return self.search(-INFINITE, INFINITE, depth, 0, true);
        }
        let mut delta = 18;
        let mut alpha = (prev - delta).max(-INFINITE);
        let mut beta = (prev + delta).min(INFINITE);
        loop {
            let v = self.search(alpha, beta, depth, 0, true);
            if self.shared.stopped() {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
            } else {
                return v;
            }
            delta += delta / 2 + 5;
        }
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.frames[self.top].check
    }

    #[inline]
    fn make(&mut self, m: Move) {
        let mover = self.pos.piece_at(m.from).expect("a move starts from a piece");
        let captured = self.pos.piece_at(m.to);
        if let Incremental::Classical(sums) = &mut self.incremental {
            let (mg, eg, phase) = self.eval.placement_change(mover, m, captured);
            let (a, b, c) = *sums.last().expect("a sum per position on the line");
            sums.push((a + mg, b + eg, c + phase));
        }
        let undo = self.pos.play_unchecked(m);
        if let Incremental::Net(stack) = &mut self.incremental {
            stack.push(&self.pos, m, captured);
        }
        self.shared.tt.prefetch(self.pos.hash());
        let check = self.pos.is_check();
        self.top += 1;
        let f = &mut self.frames[self.top];
        f.hash = self.pos.hash();
        f.check = check;
        f.mv = Some(m);
        f.undo = Some(undo);
        f.chased = None;
        f.context = context(mover.index(), m.to);
    }

    #[inline]
    fn unmake(&mut self) {
        let f = &self.frames[self.top];
        self.top -= 1;
        if let (Some(m), Some(u)) = (f.mv, f.undo) {
            self.pos.undo(m, u);
            match &mut self.incremental {
                Incremental::Classical(sums) => {
                    sums.pop();
                }
                Incremental::Net(stack) => stack.pop(),
            }
        } else {
            self.pos.play_null();
        }
    }

    fn make_null(&mut self) {
        self.pos.play_null();
        self.top += 1;
        let f = &mut self.frames[self.top];
        f.hash = self.pos.hash();
        f.check = false;
        f.mv = None;
        f.undo = None;
        f.chased = None;
        f.context = None;
    }

    /// The score of the current position if the game would end by repetition or a
    /// draw rule here, from the side to move's view.
    fn rule_outcome(&mut self, ply: usize) -> Option<Value> {
        let rules = self.root.rules;
        if self.pos.no_attackers() {
            return Some(DRAW);
        }
        if rules.move_limit.is_some_and(|l| self.pos.halfmoves() >= l) {
            return Some(DRAW);
        }
        let n = self.top;
        // The plies since the start of the game.
        let played = n - SENTINELS;
        if played < 4 || self.frames[n].mv.is_none() || self.frames[n - 1].mv.is_none() {
            return None;
        }
        let window = (self.pos.halfmoves() as usize).min(played);
        // Where a second occurrence already ends the game, it counts anywhere.
        let at_once =
            matches!(rules.repetition, Repetition::RecreatorLoses { occurrences } if occurrences <= 2);
        let hash = self.frames[n].hash;
        // Inside the search a repetition counts at once; one reaching back before
        // the root counts when the position occurs a third time.
        let mut seen_before_root = false;
        let mut k = 4;
        while k <= window {
            let j = n - k;
            if self.frames[j + 1].mv.is_none() || self.frames[j + 2].mv.is_none() {
                return None;
            }
            if self.frames[j].hash == hash {
                if j >= self.root_frame || seen_before_root || at_once {
                    return Some(self.judge_cycle(j, n, ply));
                }
                seen_before_root = true;
            }
            k += 2;
        }
        None
    }

    /// The verdict on the cycle of plies after position `from` up to `to` (equal positions).
    fn judge_cycle(&mut self, from: usize, to: usize, ply: usize) -> Value {
        let rules = self.root.rules;
        match rules.repetition {
            Repetition::Ignored | Repetition::Draw { .. } => DRAW,
            // The player whose move recreated the position (the opponent) loses.
            Repetition::RecreatorLoses { .. } => mate_in(ply),
            Repetition::Perpetual { .. } => {
                // The side to move made plies to-1, to-3, ...; the other side to, to-2, ...
                let turn = self.pos.turn();
                let mut cycle = Vec::with_capacity(to - from);
                for i in from + 1..=to {
                    let Some(mv) = self.frames[i].mv else { return DRAW };
                    let mover = if (to - i).is_multiple_of(2) { !turn } else { turn };
                    cycle.push(CyclePly { mover, mv, check: self.frames[i].check });
                }
                let verdict = perpetual(&cycle, || {
                    self.fill_chases(from, to);
                    (from + 1..=to).map(|i| self.frames[i].chased.unwrap_or(Bitboard::EMPTY)).collect()
                });
                match verdict.winner {
                    None => DRAW,
                    Some(winner) if winner == turn => mate_in(ply),
                    Some(_) => mated_in(ply),
                }
            }
        }
    }

    /// Computes the chase sets of the search's plies in the cycle (those before the
    /// root were computed with the game).
    fn fill_chases(&mut self, from: usize, to: usize) {
        if (from + 1..=to).all(|i| self.frames[i].chased.is_some()) {
            return;
        }
        let mut after = self.pos.clone();
        for i in (from + 1..=to).rev() {
            let f = &mut self.frames[i];
            let (Some(m), Some(u)) = (f.mv, f.undo) else { return };
            let mut before = after.clone();
            before.undo(m, u);
            if f.chased.is_none() {
                f.chased = Some(chase::chased(&before, &after));
            }
            after = before;
        }
    }

    fn evaluate(&self) -> Value {
        match &self.incremental {
            Incremental::Net(stack) => self.evaluate_nnue(stack),
            Incremental::Classical(sums) => {
                self.eval.evaluate_placed(&self.pos, self.placed(sums), -INFINITE, INFINITE).0
            }
        }
    }

    /// The net's score, scaled down (as the classical evaluation does) for a side
    /// that leads without a piece able to cross the river, and kept off mate scores.
    #[inline]
    fn evaluate_nnue(&self, stack: &AccumulatorStack) -> Value {
        let (net, acc) = (stack.net(), stack.top());
        debug_assert_eq!(*acc, net.refresh(&self.pos), "incremental accumulator drifted");
        let mut v = net.evaluate(acc, &self.pos);
        let us = self.pos.turn();
        if v > 0 && !crate::eval::has_attackers(&self.pos, us)
            || v < 0 && !crate::eval::has_attackers(&self.pos, !us)
        {
            v /= 8;
        }
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The classical sums of the position at the end of the line.
    #[inline]
    fn placed(&self, sums: &[Placement]) -> Placement {
        let placed = *sums.last().expect("a sum per position on the line");
        debug_assert_eq!(placed, self.eval.placement(&self.pos), "incremental placement drifted");
        placed
    }

    fn has_big_pieces(&self, c: Color) -> bool {
        [Role::Chariot, Role::Horse, Role::Cannon].iter().any(|&r| self.pos.pieces(Piece::new(c, r)).any())
    }

    fn search(&mut self, mut alpha: Value, mut beta: Value, depth: i32, ply: usize, pv_node: bool) -> Value {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node);
        }
        self.nodes += 1;
        debug_assert_eq!(self.top, self.root_frame + ply, "a node's frame is its ply's");
        let at = self.top;
        self.frames[at].pv.clear();
        if self.should_stop() {
            return 0;
        }
        let root = ply == 0;
        if !root {
            if let Some(v) = self.rule_outcome(ply) {
                return v;
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate();
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.in_check();
        let hash = self.pos.hash();
        let excluded = self.frames[at].excluded;
        let entry = self.shared.tt.probe(hash);
        let tt_move = entry.and_then(|e| e.mv.unpack());
        if !pv_node
            && excluded.is_none()
            && let Some(v) = entry.and_then(|e| e.cutoff(depth, alpha, beta, ply))
        {
            return v;
        }

        let raw_eval = if in_check { 0 } else { entry.map_or_else(|| self.evaluate(), |e| e.eval) };
        // In check the node has no static evaluation, so nothing to correct.
        let keys = (!in_check).then(|| Keys::new(&self.pos, &self.contexts()));
        let static_eval = keys.map_or(-INFINITE, |k| self.corrected(raw_eval, &k));
        self.frames[at].static_eval = static_eval;
        // Two plies before the root the frame has no evaluation ([`NO_EVAL`]).
        let improving = !in_check && static_eval > self.frames[at - 2].static_eval;

        if !pv_node && !in_check && !is_decisive(beta) && excluded.is_none() {
            // Reverse futility: far above beta at low depth, the opponent will not recover.
            if depth <= 7 && static_eval - 85 * (depth - i32::from(improving)) >= beta {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move surely would.
            let last_null = self.frames[at].mv.is_none() && ply > 0;
            if depth >= 3 && static_eval >= beta && !last_null && self.has_big_pieces(self.pos.turn()) {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.make_null();
                let v = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.unmake();
                if self.shared.stopped() {
                    return 0;
                }
                if v >= beta {
                    return if is_decisive(v) { beta } else { v };
                }
            }
        }

        let depth = if tt_move.is_none() && depth >= 5 && pv_node { depth - 1 } else { depth };

        // Singular extension: when the hash move is much better than every other move
        // (a search without it fails low well below its score), it is searched deeper;
        // when even the others beat beta, the node is cut (multi-cut); when they come
        // close and its own stored score beats beta, it is searched a ply shallower.
        let mut hash_move_extension = 0;
        if let (Some(e), Some(m)) = (entry, tt_move)
            && !root
            && excluded.is_none()
            && depth >= 8
            && e.depth >= depth - 3
            && e.bound != Bound::Upper
            && !is_decisive(from_tt(e.value, ply))
            && self.pos.is_legal(m)
        {
            let singular_beta = from_tt(e.value, ply) - 2 * depth;
            self.frames[at].excluded = Some(m);
            let v = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false);
            self.frames[at].excluded = None;
            if self.shared.stopped() {
                return 0;
            }
            if v < singular_beta {
                hash_move_extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if from_tt(e.value, ply) >= beta {
                hash_move_extension = -1;
            }
        }

        let mut picker = if root {
            Picker::with_list(self.score_moves(&self.root_moves, tt_move))
        } else if let Some(x) = excluded {
            Picker::excluding(x, self.frames[at].killers, self.contexts(), in_check)
        } else {
            Picker::new(tt_move, self.frames[at].killers, self.contexts(), in_check)
        };
        let mut best_value = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut best_is_capture = false;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut captures_tried: MoveList = MoveList::new();
        let mut move_count = 0;
        while let Some((m, order)) = picker.next(&mut self.pos, self.history) {
            move_count += 1;
            let capture = self.pos.piece_at(m.to).is_some();
            if !root && best_value > -MATE_BOUND && !in_check {
                if !capture {
                    let lmp = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                    if depth <= 4 && move_count > lmp.max(2) {
                        picker.skip_quiets();
                        continue;
                    }
                    if depth <= 5 && static_eval + 110 + 90 * depth <= alpha && move_count > 1 {
                        continue;
                    }
                    if depth <= 3 && order < -4000 * depth {
                        continue;
                    }
                } else if depth <= 5 && order < GOOD_CAPTURE && !see::see_ge(&mut self.pos, m, -120 * depth) {
                    continue;
                }
            }
            let nodes_before = self.nodes;
            self.make(m);
            let gives_check = self.in_check();
            let extension = if Some(m) == tt_move && hash_move_extension != 0 {
                hash_move_extension
            } else {
                i32::from(gives_check && ply < 2 * depth as usize + 8)
            };
            let new_depth = depth - 1 + extension;
            let mut v;
            if move_count == 1 {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 3 && !capture && !gives_check && move_count > 1 + usize::from(pv_node) {
                    r = REDUCTIONS[depth.min(63) as usize][move_count.min(63)];
                    r += i32::from(!pv_node) + i32::from(!improving) - i32::from(in_check);
                    if order >= KILLER {
                        r -= 1;
                    } else {
                        r -= order / 8000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.unmake();
            if root && let Some(i) = self.root_index(m) {
                self.root_effort[i] += self.nodes - nodes_before;
            }
            if self.shared.stopped() {
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = Some(m);
                    best_is_capture = capture;
                    if pv_node {
                        self.update_pv(m);
                    }
                    if v >= beta {
                        self.reward_cutoff(m, capture, &quiets_tried, &captures_tried, depth);
                        break;
                    }
                    alpha = v;
                }
            }
            if capture {
                captures_tried.push(m);
            } else {
                quiets_tried.push(m);
            }
        }
        if move_count == 0 {
            if excluded.is_some() {
                // The left-out move was the only one: it is singular.
                return alpha;
            }
            // Checkmate and stalemate both lose.
            return mated_in(ply);
        }
        if best_value == -INFINITE {
            // Every move was pruned: only possible when a score is already known.
            return alpha;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A search that left moves out says nothing about the position itself,
        // so neither the table nor the corrections may learn from it.
        if excluded.is_some() || root && !self.root_excluded.is_empty() {
            return best_value;
        }
        // A result that bounds the evaluation's error in the direction it was
        // wrong teaches the correction tables (captures judge the material, not
        // the structure).
        let bounds_the_error = match bound {
            Bound::Exact => true,
            Bound::Lower => best_value > static_eval,
            Bound::Upper => best_value < static_eval,
        };
        if let Some(keys) = keys
            && !best_is_capture
            && !is_decisive(best_value)
            && bounds_the_error
        {
            self.correction.update(&keys, best_value - raw_eval, depth);
        }
        if bound == Bound::Upper && !root {
            self.reward_refutation_of_fail_low(depth);
        }
        self.shared.tt.store(
            hash,
            Entry {
                mv: best_move.map_or(PackedMove::NONE, PackedMove::new),
                value: to_tt(best_value, ply),
                eval: raw_eval,
                depth,
                bound,
            },
        );
        best_value
    }

    /// A static evaluation with what the correction tables learnt added, kept off mate scores.
    #[inline]
    fn corrected(&self, raw: Value, keys: &Keys) -> Value {
        (raw + self.correction.get(keys)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A node where every move failed low was a good quiet move for the side that
    /// played into it: the parent's histories learn so, as they would from a cutoff.
    fn reward_refutation_of_fail_low(&mut self, depth: i32) {
        let n = self.top;
        // Not when the parent is the start of the game.
        if n < SENTINELS + 2 {
            return;
        }
        let Some(m) = self.frames[n].mv else { return };
        let Some(undo) = self.frames[n].undo else { return };
        if undo.captured.is_some() {
            return;
        }
        let Some(piece) = self.pos.piece_at(m.to) else { return };
        let contexts = [self.frames[n - 1].context, self.frames[n - 2].context];
        self.history.update_quiet(piece.color.index(), piece.index(), m, &contexts, history_bonus(depth));
    }

    /// The continuation-history keys of the current node: the last two moves.
    fn contexts(&self) -> [Context; 2] {
        [self.frames[self.top].context, self.frames[self.top - 1].context]
    }

    /// The principal variation of the current node after `m` raised alpha: `m`,
    /// then its child's.
    #[inline]
    fn update_pv(&mut self, m: Move) {
        let (head, tail) = self.frames.split_at_mut(self.top + 1);
        let pv = &mut head[self.top].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Teaches the histories that `m` refuted this node and the moves tried
    /// before it did not (every capture tried before a cutoff failed to find one).
    fn reward_cutoff(&mut self, m: Move, capture: bool, quiets: &MoveList, captures: &MoveList, depth: i32) {
        let bonus = history_bonus(depth);
        let pos = &self.pos;
        let update_capture = |history: &mut History, m: Move, bonus: i32| {
            if let (Some(p), Some(v)) = (pos.piece_at(m.from), pos.piece_at(m.to)) {
                history.update_capture(p, m.to, v.role, bonus);
            }
        };
        for &c in captures {
            update_capture(self.history, c, -bonus);
        }
        if capture {
            update_capture(self.history, m, bonus);
            return;
        }
        let us = pos.turn().index();
        let contexts = self.contexts();
        let piece = |m: Move| pos.piece_at(m.from).map_or(0, |p| p.index());
        self.history.update_quiet(us, piece(m), m, &contexts, bonus);
        for &q in quiets {
            self.history.update_quiet(us, piece(q), q, &contexts, -bonus);
        }
        let k = &mut self.frames[self.top].killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// Ordering scores for the root's moves (inner nodes order theirs in [`Picker`]).
    fn score_moves(&self, moves: &[Move], tt_move: Option<Move>) -> Scored {
        let us = self.pos.turn().index();
        let killers = self.frames[self.top].killers;
        let mut out = Scored::new();
        for &m in moves.iter().filter(|m| !self.root_excluded.contains(*m)) {
            let s = if Some(m) == tt_move {
                TT_MOVE
            } else if self.pos.piece_at(m.to).is_some() {
                capture_order(&self.pos, m, self.history)
            } else if killers[0] == Some(m) {
                KILLER + 1
            } else if killers[1] == Some(m) {
                KILLER
            } else {
                self.history.get(us, m).min(KILLER - 1)
            };
            out.push((m, s));
        }
        out
    }

    fn qsearch(&mut self, mut alpha: Value, beta: Value, ply: usize, pv_node: bool) -> Value {
        self.nodes += 1;
        debug_assert_eq!(self.top, self.root_frame + ply, "a node's frame is its ply's");
        self.frames[self.top].pv.clear();
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.no_attackers() {
            return DRAW;
        }
        let in_check = self.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let hash = self.pos.hash();
        let entry = self.shared.tt.probe(hash);
        if !pv_node && let Some(v) = entry.and_then(|e| e.cutoff(0, alpha, beta, ply)) {
            return v;
        }
        let raw_eval = match (&self.incremental, entry) {
            _ if in_check => 0,
            (_, Some(e)) => e.eval,
            (Incremental::Net(stack), None) => self.evaluate_nnue(stack),
            (Incremental::Classical(sums), None) => {
                let (v, full) = self.eval.evaluate_placed(&self.pos, self.placed(sums), alpha, beta);
                if !full {
                    // Far outside the window: the rough score decides, and is not stored.
                    if v >= beta {
                        return v;
                    }
                    if !pv_node && v + crate::eval::LAZY_MARGIN + 900 <= alpha {
                        return v;
                    }
                }
                v
            }
        };
        let stand_pat = if in_check {
            -INFINITE
        } else {
            self.corrected(raw_eval, &Keys::new(&self.pos, &self.contexts()))
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let targets = if in_check { Bitboard(u128::MAX) } else { self.pos.by_color(!self.pos.turn()) };
        let moves = self.pos.legal_moves_to_with_check(targets, in_check);
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }
        let tt_move = entry.and_then(|e| e.mv.unpack());
        let mut scored: Scored = moves
            .iter()
            .map(|&m| {
                (m, if Some(m) == tt_move { TT_MOVE } else { capture_order(&self.pos, m, self.history) })
            })
            .collect();
        let mut best_value = stand_pat;
        let mut best_move = None;
        for i in 0..scored.len() {
            let (m, _) = pick(&mut scored, i);
            if !in_check {
                // Delta pruning: not even winning the victim outright (exchange values run
                // about half again above the evaluation's) would reach alpha.
                let victim = self.pos.piece_at(m.to).map_or(0, |p| see::value(p.role));
                if stand_pat + victim * 2 / 3 + 150 <= alpha || !see::see_ge(&mut self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node);
            self.unmake();
            if self.shared.stopped() {
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let bound = if best_value >= beta { Bound::Lower } else { Bound::Upper };
        self.shared.tt.store(
            hash,
            Entry {
                mv: best_move.map_or(PackedMove::NONE, PackedMove::new),
                value: to_tt(best_value, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::time_scale;

    #[test]
    fn time_grows_for_a_changing_move_and_a_falling_value_and_shrinks_for_a_lone_one() {
        let plain = time_scale(1, 0, 0, 0.5);
        assert_eq!(plain, 1.1, "a held move, a steady value and rivals: the base factor");
        assert!(time_scale(0, 0, 0, 0.5) > plain, "a new best move");
        assert!(time_scale(3, 0, 0, 0.5) < plain, "a move held for three iterations");
        assert!(time_scale(1, -60, 0, 0.5) > plain, "a value 60 below the trend");
        assert!(time_scale(1, 60, 0, 0.5) < plain, "a value 60 above it");
        assert!(time_scale(1, 0, 0, 0.9) < plain, "a best move that took 90% of the nodes");
        // Each term is bounded, so no position can stretch or starve a move's time.
        assert_eq!(time_scale(1, -10_000, 0, 0.5), 1.1 * 1.5);
        assert_eq!(time_scale(1, 10_000, 0, 0.5), 1.1 * 0.8);
        assert!((time_scale(1, 0, 0, 1.0) - 1.1 * 0.6).abs() < 1e-9);
        assert_eq!(time_scale(0, -10_000, 0, 0.0), 1.5 * 1.5, "the most time");
    }
}
