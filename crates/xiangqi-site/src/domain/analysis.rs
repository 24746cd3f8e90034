//! Analysis: lines of moves from any position, the engine's evaluation of a
//! position as the site shows it, and the limits that share engine time among
//! users (one running analysis each, so many a minute). The searches run on the
//! engine pool ([`crate::engines`]); game reviews are in [`super::review`].

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::sync::mpsc;
use xiangqi::{Color, Move, Outcome};
use xiangqi_engine::{Control, Info, Limits};

use crate::engines::{EnginePool, Purpose};

use super::{
    board::{Board, MoveNames},
    refusal::{Act, Illegality, Refusal, Result, Window},
};

use crate::model::{AnalysisEnd, board::BoardSpec, eval::Eval};

/// The most moves a line may hold.
pub const MAX_LINE: usize = 1000;
/// The longest an analysis may think, and what it thinks unless asked for less.
pub const MAX_ANALYSIS_MS: u64 = 20_000;
/// The shortest time an analysis may be asked for.
pub const MIN_ANALYSIS_MS: u64 = 100;
/// The deepest an analysis may be asked to go.
pub const MAX_DEPTH: i32 = 60;
/// Lines of distinct first moves one analysis may show.
pub const MAX_LINES: u32 = 5;
/// An analysis stops at this many nodes even if time is left (a fast machine).
pub const MAX_ANALYSIS_NODES: u64 = 60_000_000;
/// Analyses one user may start in a minute, unless the server is told otherwise.
pub const ANALYSES_PER_MINUTE: u32 = 60;

/// One position along a line: the move that led there (none for the first),
/// and the position.
pub struct Step {
    pub played: Option<MoveNames>,
    pub fen: String,
    pub turn: Color,
    pub check: bool,
    pub legal: Vec<String>,
    pub outcome: Option<Outcome>,
}

pub(crate) fn step(board: &Board, played: Option<MoveNames>) -> Step {
    Step {
        played,
        fen: board.fen(),
        turn: board.turn(),
        check: board.is_check(),
        legal: board.legal_names(),
        outcome: board.outcome(),
    }
}

/// Reads a position (the board's start if the spec names none) and plays
/// `moves` on from it (each in any notation the board reads), answering the
/// game at the end and, if `steps`, every position along the way. A position
/// the rules crate refuses is a 400 naming what is wrong with it; a move that
/// cannot be played, a 422 naming the move and why.
pub fn play_line(spec: &BoardSpec, moves: &[String], steps: bool) -> Result<(Board, Vec<Step>)> {
    if moves.len() > MAX_LINE {
        return Err(Refusal::LineLength { max: MAX_LINE as u32 }.into());
    }
    let mut board = Board::from_spec(spec)?;
    let mut out = Vec::new();
    if steps {
        out.push(step(&board, None));
    }
    for (i, text) in moves.iter().enumerate() {
        let refuse = |why: Illegality| Refusal::IllegalMove {
            text: text.clone(),
            why,
            number: Some(u32::try_from(i + 1).unwrap_or(u32::MAX)),
        };
        if board.outcome().is_some() {
            return Err(refuse(Illegality::Over).into());
        }
        let checked = board.check_text(text).map_err(refuse)?;
        let names = board.names(checked.mv());
        board.play_checked(checked);
        if steps {
            out.push(step(&board, Some(names)));
        }
    }
    Ok((board, out))
}

/// What one analysis may spend (at most `time` and, if asked, `depth`) and
/// how many lines of distinct first moves it shows (one unless asked).
pub fn analysis_limits(
    depth: Option<i32>,
    time_ms: Option<u64>,
    lines: Option<u32>,
) -> Result<Limits, Refusal> {
    if let Some(d) = depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(Refusal::Depth { min: 1, max: MAX_DEPTH as u32 });
    }
    let time = time_ms.unwrap_or(MAX_ANALYSIS_MS);
    if !(MIN_ANALYSIS_MS..=MAX_ANALYSIS_MS).contains(&time) {
        return Err(Refusal::ThinkingTime { min_ms: MIN_ANALYSIS_MS as u32, max_ms: MAX_ANALYSIS_MS as u32 });
    }
    let lines = lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(Refusal::AnalysisLines { min: 1, max: MAX_LINES });
    }
    Ok(Limits {
        depth,
        nodes: Some(MAX_ANALYSIS_NODES),
        move_time: Some(Duration::from_millis(time)),
        ..Limits::default()
    }
    .with_multi_pv(lines as usize))
}

/// A depth completed: the score from both views and the principal variation
/// in every notation the board has.
pub struct DepthReport {
    pub depth: i32,
    pub seldepth: i32,
    /// From the side to move's view.
    pub score: Eval,
    /// The same from Red's view.
    pub red: Eval,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// 1 for the best line, 2 for the next, ...
    pub line: u32,
    pub pv: Vec<MoveNames>,
}

impl DepthReport {
    pub fn of(board: &Board, info: &Info) -> DepthReport {
        let eval = Eval::from_score(info.score);
        DepthReport {
            depth: info.depth,
            seldepth: info.seldepth as i32,
            score: eval,
            red: eval.for_red(board.turn()),
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.time.as_millis() as u64,
            line: info.multipv as u32,
            pv: board.line_names(&info.pv),
        }
    }
}

/// How an analysis goes, as it goes.
pub enum Progress {
    /// Every engine is busy: the search waits behind `waiting` others (this one included).
    Queued {
        waiting: usize,
    },
    Depth(DepthReport),
    /// The search has ended (nothing comes after): why, and its best move.
    Done {
        reason: AnalysisEnd,
        best: Option<MoveNames>,
        depth: i32,
        nodes: u64,
    },
    /// The search could not run (the server is stopping).
    Failed {
        message: String,
    },
}

/// At most `limit` uses per user in any `window_ms`.
pub struct RateLimit {
    limit: u32,
    window_ms: i64,
    uses: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimit {
    pub fn new(limit: u32, window_ms: i64) -> Self {
        RateLimit { limit, window_ms, uses: Mutex::new(HashMap::new()) }
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Whether `user` may use it at `now`; if not, in how many milliseconds.
    pub fn check(&self, user: &str, now: i64) -> Result<(), i64> {
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        self.check_in(&mut uses, user, now)
    }

    fn check_in(&self, uses: &mut HashMap<String, VecDeque<i64>>, user: &str, now: i64) -> Result<(), i64> {
        let Some(times) = uses.get_mut(user) else { return Ok(()) };
        while times.front().is_some_and(|&t| t <= now - self.window_ms) {
            times.pop_front();
        }
        match times.front() {
            Some(&oldest) if times.len() >= self.limit as usize => Err(oldest + self.window_ms - now),
            _ => Ok(()),
        }
    }

    fn record_in(&self, uses: &mut HashMap<String, VecDeque<i64>>, user: &str, now: i64) {
        // Users who have not been back for a window are forgotten, so the map
        // holds only recent users.
        if uses.len() > 10_000 {
            let since = now - self.window_ms;
            uses.retain(|_, t| t.back().is_some_and(|&last| last > since));
        }
        uses.entry(user.to_string()).or_default().push_back(now);
    }

    /// Checks and, if allowed, counts a use, in one step: uses asked for at
    /// once are counted one after another.
    pub fn admit(&self, user: &str, now: i64) -> Result<(), i64> {
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        self.check_in(&mut uses, user, now)?;
        self.record_in(&mut uses, user, now);
        Ok(())
    }

    /// Gives back a use counted at `at` that did not happen after all.
    pub fn refund(&self, user: &str, at: i64) {
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = uses.get_mut(user)
            && let Some(i) = times.iter().rposition(|&t| t == at)
        {
            times.remove(i);
        }
    }
}

/// A running analysis: the handle that stops it, and whether a newer analysis
/// of the same user did.
pub struct Ticket {
    user: String,
    id: u64,
    pub control: Arc<Control>,
    replaced: Arc<AtomicBool>,
}

impl Ticket {
    pub fn was_replaced(&self) -> bool {
        self.replaced.load(Ordering::Relaxed)
    }
}

type Slot = (u64, Arc<Control>, Arc<AtomicBool>);

/// The analyses running now, one per user, and the users' rate limits.
pub struct Analyses {
    running: Mutex<HashMap<String, Slot>>,
    next: AtomicU64,
    /// Analyses started per user per minute.
    pub per_minute: RateLimit,
    /// Reviews started per user per hour.
    pub reviews_per_hour: RateLimit,
}

/// Reviews one user may start in an hour.
pub const REVIEWS_PER_HOUR: u32 = 30;

impl Analyses {
    pub fn new(per_minute: u32) -> Self {
        Analyses {
            running: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            per_minute: RateLimit::new(per_minute, 60_000),
            reviews_per_hour: RateLimit::new(REVIEWS_PER_HOUR, 3_600_000),
        }
    }

    /// Registers a new analysis of `user`, stopping the one running before.
    pub fn start(&self, user: &str) -> Ticket {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let control = Arc::new(Control::new());
        let replaced = Arc::new(AtomicBool::new(false));
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, before, flag)) =
            running.insert(user.to_string(), (id, control.clone(), replaced.clone()))
        {
            flag.store(true, Ordering::Relaxed);
            before.stop();
        }
        Ticket { user: user.to_string(), id, control, replaced }
    }

    /// The analysis has ended: it no longer counts as the user's running one.
    pub fn finish(&self, ticket: &Ticket) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.get(&ticket.user).is_some_and(|(id, ..)| *id == ticket.id) {
            running.remove(&ticket.user);
        }
    }

    /// How many analyses are running.
    pub fn running(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The events of an analysis as they come, and what stops it when dropped
/// (a client that closes the stream stops the search).
pub struct Analysis {
    pub events: mpsc::UnboundedReceiver<Progress>,
    pub stop: StopOnDrop,
}

/// Stops a search when dropped.
pub struct StopOnDrop(Arc<Control>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Engine analyses of positions that users ask for, within each user's limits.
pub struct Analyser {
    analyses: Arc<Analyses>,
    engines: Arc<EnginePool>,
}

impl Analyser {
    pub fn new(analyses: Arc<Analyses>, engines: Arc<EnginePool>) -> Self {
        Analyser { analyses, engines }
    }

    /// How many analyses run now.
    pub fn running(&self) -> usize {
        self.analyses.running()
    }

    /// Starts analysing the position at the end of a line for `user` (stopping
    /// the user's analysis running before). Its events come on a channel: a
    /// `queued` one if the engine pool is busy, an `info` per depth, then `done`.
    pub fn analyse(&self, user: &str, board: Board, limits: Limits, now: i64) -> Result<Analysis> {
        self.analyses.per_minute.admit(user, now).map_err(|wait| Refusal::TooOften {
            act: Act::Analyses,
            allowed: self.analyses.per_minute.limit(),
            per: Window::Minute,
            seconds: u64::try_from((wait + 999) / 1000).unwrap_or(1),
        })?;
        let (tx, events) = mpsc::unbounded_channel();
        if board.outcome().is_some() {
            let _ = tx.send(Progress::Done { reason: AnalysisEnd::Over, best: None, depth: 0, nodes: 0 });
            return Ok(Analysis { events, stop: StopOnDrop(Arc::new(Control::new())) });
        }
        let ticket = self.analyses.start(user);
        let stop = StopOnDrop(ticket.control.clone());
        let user_name = user.to_string();
        let (pool, analyses) = (self.engines.clone(), self.analyses.clone());
        crate::supervise::spawn_logged("an analysis", async move {
            let owner = Purpose::Study(user_name);
            let searched = loop {
                let (control, board, limits) = (ticket.control.clone(), board.clone(), limits.clone());
                let (job_tx, queue_tx) = (tx.clone(), tx.clone());
                let searched = pool
                    .run_as(
                        owner.clone(),
                        Some(ticket.control.clone()),
                        move |engine| {
                            // Stopped while it waited: the client left or started another.
                            if control.is_stopped() {
                                return None;
                            }
                            let result = board.search(engine, &limits, &control, &mut |info| {
                                if job_tx.send(Progress::Depth(DepthReport::of(&board, info))).is_err() {
                                    control.stop();
                                }
                            });
                            let best = result.best.map(|m: Move| board.names(m));
                            Some((best, result.depth(), result.nodes))
                        },
                        |waiting| {
                            let _ = queue_tx.send(Progress::Queued { waiting });
                        },
                    )
                    .await;
                // A game needed the engine: the analysis waits for the next one
                // and starts again, unless its client went or replaced it.
                match searched {
                    Ok(s) if s.interrupted && !ticket.was_replaced() && !tx.is_closed() => {
                        ticket.control.resume();
                    }
                    other => break other.map(|s| s.answer),
                }
            };
            let reason = if ticket.was_replaced() { AnalysisEnd::Replaced } else { AnalysisEnd::Limit };
            let event = match searched {
                Ok(Some((best, depth, nodes))) => Progress::Done { reason, best, depth, nodes },
                Ok(None) => Progress::Done { reason, best: None, depth: 0, nodes: 0 },
                Err(e) => Progress::Failed { message: e.to_string() },
            };
            let _ = tx.send(event);
            analyses.finish(&ticket);
        });
        Ok(Analysis { events, stop })
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::{RuleSet, Variant};

    use super::*;
    use crate::domain::refusal::{Error, ErrorCode};

    #[test]
    fn a_line_names_what_is_wrong_with_its_position_or_its_moves() {
        let standard = BoardSpec::start_of(Variant::Standard);
        let at = |fen: &str| BoardSpec { fen: Some(fen.into()), ..standard.clone() };
        let (board, steps) = play_line(&standard, &["C2=5".into(), "h9g7".into()], true).unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[1].played.as_ref().unwrap().iccs, "h2e2");
        assert_eq!(steps[2].played.as_ref().unwrap().wxf, "H8+7");
        assert_eq!(steps[2].turn, Color::Red);
        assert_eq!(board.ply_count(), 2);

        let refusal = |r: Result<(Board, Vec<Step>)>| match r.err().unwrap() {
            Error::Refused(r) => r,
            e => panic!("not a refusal: {e}"),
        };
        let two_generals = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1";
        let e = refusal(play_line(&at(two_generals), &[], true));
        assert_eq!(e.code(), ErrorCode::BadRequest);
        assert!(e.to_string().contains("too many red generals"), "{e}");
        let facing = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let e = refusal(play_line(&at(facing), &[], true));
        assert!(e.to_string().contains("generals face each other"), "{e}");

        let e = refusal(play_line(&standard, &["h2e2".into(), "h2e2".into()], true));
        assert_eq!(e.code(), ErrorCode::IllegalMove);
        assert!(matches!(&e, Refusal::IllegalMove { text, number: Some(2), .. } if text == "h2e2"), "{e:?}");
        let long = vec!["h2e2".to_string(); MAX_LINE + 1];
        assert_eq!(refusal(play_line(&standard, &long, false)).code(), ErrorCode::BadRequest);
        let e = refusal(play_line(
            &BoardSpec { variant: Some(Variant::Hex), rules: Some(RuleSet::Asian), fen: None },
            &[],
            false,
        ));
        assert!(e.to_string().contains("hex"), "{e}");
    }

    #[test]
    fn limits_are_bounded() {
        let l = analysis_limits(None, None, None).unwrap();
        assert_eq!(l.move_time, Some(Duration::from_millis(MAX_ANALYSIS_MS)));
        assert_eq!(analysis_limits(Some(8), Some(500), None).unwrap().depth, Some(8));
        assert!(analysis_limits(Some(0), None, None).is_err());
        assert!(analysis_limits(None, Some(MAX_ANALYSIS_MS + 1), None).is_err());
        assert!(analysis_limits(None, Some(10), None).is_err());
    }

    #[test]
    fn a_rate_limit_counts_uses_in_a_sliding_window_and_says_when_to_come_back() {
        let limit = RateLimit::new(2, 60_000);
        assert_eq!(limit.admit("a", 1_000), Ok(()));
        assert_eq!(limit.admit("a", 2_000), Ok(()));
        assert_eq!(limit.admit("a", 3_000), Err(58_000));
        assert_eq!(limit.admit("b", 3_000), Ok(()), "each user has their own");
        assert_eq!(limit.check("a", 61_000), Ok(()), "the first use has left the window");
        assert_eq!(limit.admit("a", 61_000), Ok(()));
        assert_eq!(limit.admit("a", 61_500), Err(500));
    }

    #[test]
    fn a_new_analysis_of_a_user_stops_the_one_before() {
        let analyses = Analyses::new(10);
        let first = analyses.start("a");
        let other = analyses.start("b");
        assert_eq!(analyses.running(), 2);
        let second = analyses.start("a");
        assert!(first.control.is_stopped() && first.was_replaced());
        assert!(!second.control.is_stopped() && !other.control.is_stopped());
        analyses.finish(&first);
        assert_eq!(analyses.running(), 2, "the first no longer holds the user's place");
        analyses.finish(&second);
        analyses.finish(&other);
        assert_eq!(analyses.running(), 0);
    }
}
