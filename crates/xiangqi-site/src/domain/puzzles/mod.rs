//! Puzzles: positions from real games where one move wins, found by the
//! engine ([`find`]) in the site's games, the Masters collection and the
//! imports of users who agreed ([`sources`]), tagged by what the line shows
//! ([`themes`]), rated by Glicko-2 as people solve them (a solver's first
//! attempt at a puzzle is a game between the two).
//!
//! The solution stays on the server: a player sends the moves they made and
//! hears whether the last was right, and the opponent's answer. A hint shows
//! the piece to move, and makes the attempt unrated.
//!
//! Only an attempt the solver could not have prepared is rated. A visitor (not
//! logged in) may try any puzzle, again and again, and a wrong move shows the
//! whole line; so a logged-in user's first attempt is rated only on a puzzle
//! the site handed them ([`Handout`]: the next puzzle, the day's) before the
//! attempt began, and only if no visitor tried it from the user's network
//! address. A puzzle opened by its id is played unrated, and the answer says
//! why ([`Unrated`]). Visitors' moves and hints count against an hourly limit
//! per network address ([`VISITOR_MOVES_PER_HOUR`]). The puzzle a running
//! streak stands on is answered through the streak alone, and a streak's
//! puzzles are drawn at random from those near its difficulty, none tried from
//! the streaker's address.

pub mod find;
pub mod sources;
pub mod themes;

use std::sync::Arc;

use xiangqi::{Color, Variant};
use xiangqi_engine::Control;

use self::find::{Budget, Found};
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};
use crate::model::puzzles::{AttemptRecord, NewPuzzle, PuzzlePlayerRecord, PuzzleRecord, StreakRecord};
use crate::{
    domain::{
        Clock,
        accounts::new_id,
        board::{Board, default_rules},
        games::Games,
        limits::{Quotas, too_often},
        refusal::{Act, Error, Refusal, Result, Window},
    },
    model::{
        named_enum,
        puzzles::{AttemptResult, Handout, Origin, PuzzleTheme, Unrated},
    },
};
use crate::{
    engines::{EnginePool, Purpose},
    store::{Ended, Ending, Store, Tally, Wanted},
};

named_enum! {
    /// What a move made in a puzzle did.
    "a puzzle step" StepKind {
        /// Right, and the line goes on: the opponent answers with `reply`.
        Right = "right",
        /// Right, and the last: the puzzle is solved.
        Solved = "solved",
        /// Not the move: the attempt ends, and the solution is shown.
        Wrong = "wrong",
    }
}

/// Who sends a move or asks for a puzzle: a logged-in user or a visitor, and
/// the network address (an IPv4 address or an IPv6 /64) they ask from.
#[derive(Clone, Copy, Debug)]
pub struct Solver<'a> {
    pub user: Option<&'a str>,
    pub address: &'a str,
}

/// Moves and hints one network address may ask for in an hour without logging in.
pub const VISITOR_MOVES_PER_HOUR: u32 = 300;
/// How long a visitor's move in a puzzle is kept: for that long, an attempt
/// at the puzzle from the same network address is unrated, and the next
/// puzzle handed to a solver there is another.
pub const PROBES_KEPT_MS: i64 = 30 * 24 * super::limits::HOUR_MS;
/// The next puzzle is drawn from this many nearest a rating, so that which one
/// comes (next, or in a streak) cannot be foreseen.
const CHOICES: i64 = 8;
/// A new puzzle's rating: the middle of the scale, with the widest
/// deviation, until people's attempts place it.
pub const NEW_PUZZLE_RATING: f64 = 1500.0;
/// A timed streak lasts this long.
pub const STREAK_MS: i64 = 3 * 60 * 1000;
/// A streak's first puzzle is about this hard, and each next one this much harder.
const STREAK_START: f64 = 800.0;
const STREAK_STEP: f64 = 60.0;
/// The leaderboard counts players with at least this many attempts.
pub const LEADER_ATTEMPTS: i64 = 10;
const LEADERS: i64 = 50;
/// Finished games looked at per round of the background search, and the
/// least moves a game must have.
const SCAN_GAMES: i64 = 4;
const SCAN_LEAST_PLIES: i64 = 7;

/// What a move in a puzzle did, and what comes of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub kind: StepKind,
    /// The opponent's answer to a right move that is not the last.
    pub reply: Option<String>,
    /// The whole line, once the attempt has ended.
    pub solution: Option<Vec<String>>,
    /// The change to the solver's rating, when this ended a rated first attempt.
    pub rating: Option<(f64, f64)>,
    /// Why the attempt this ended was not rated.
    pub unrated: Option<Unrated>,
    /// In a streak: the next puzzle after a solved one, and the count so far.
    pub streak: Option<StreakStep>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StreakStep {
    pub solved: i64,
    pub over: bool,
    pub next: Option<PuzzleRecord>,
}

/// What a round of the search of finished games did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scanned {
    pub games: u64,
    /// New puzzles.
    pub puzzles: u64,
}

/// A user's puzzle standing on both boards and their latest rated attempts.
#[derive(Debug)]
pub struct PuzzleStanding {
    pub boards: Vec<(Variant, PuzzlePlayerRecord)>,
    pub history: Paged<AttemptRecord>,
}

/// How a move sent for a puzzle compares with its line.
fn judge(puzzle: &PuzzleRecord, played: &[String]) -> Result<(StepKind, Option<String>)> {
    let solver_moves = puzzle.moves.len() / 2;
    if played.is_empty() || played.len() > solver_moves {
        return Err(Refusal::PuzzleLine { moves: solver_moves as u32 }.into());
    }
    let mut board = Board::from_fen(puzzle.variant, &puzzle.fen, default_rules(puzzle.variant))
        .map_err(|e| Error::Broken(format!("puzzle {}: {e}", puzzle.id)))?;
    let broken = |e: String| Error::Broken(format!("puzzle {}: {e}", puzzle.id));
    board.play_name(&puzzle.moves[0]).map_err(broken)?;
    let solver = board.turn();
    for (i, text) in played.iter().enumerate() {
        let checked = board.check_text(text).map_err(|why| Refusal::illegal(text, why))?;
        let expected = board.parse_legal(&puzzle.moves[2 * i + 1]).map_err(|e| broken(format!("{e:?}")))?;
        let last = i + 1 == solver_moves;
        let right = checked.mv() == expected || (last && puzzle.mate && mates(&board, checked.mv(), solver));
        if !right {
            return Ok((StepKind::Wrong, None));
        }
        if i + 1 == played.len() {
            return Ok(if last {
                (StepKind::Solved, None)
            } else {
                (StepKind::Right, Some(puzzle.moves[2 * i + 2].clone()))
            });
        }
        board.play_checked(checked);
        board.play_name(&puzzle.moves[2 * i + 2]).map_err(broken)?;
    }
    unreachable!("the loop returns at the last move played")
}

/// Whether `m` mates for `solver` (another mate than the line's also solves it).
fn mates(board: &Board, m: xiangqi::Move, solver: Color) -> bool {
    let mut after = board.clone();
    after.play(m).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(solver))
}

/// The cell of the piece to move next, after the solver's moves `played`.
fn hint(puzzle: &PuzzleRecord, played: &[String]) -> Result<String> {
    let (kind, _) = if played.is_empty() { (StepKind::Right, None) } else { judge(puzzle, played)? };
    if kind != StepKind::Right {
        return Err(Refusal::PuzzleLine { moves: (puzzle.moves.len() / 2) as u32 }.into());
    }
    let next = &puzzle.moves[2 * played.len() + 1];
    let mut board = Board::from_fen(puzzle.variant, &puzzle.fen, default_rules(puzzle.variant))
        .map_err(|e| Error::Broken(e.to_string()))?;
    for m in &puzzle.moves[..2 * played.len() + 1] {
        board.play_name(m).map_err(Error::Broken)?;
    }
    let m = board.parse_legal(next).map_err(|e| Error::Broken(format!("{e:?}")))?;
    Ok(super::board::each!(&board, g => g.position().cell_name(m.from)))
}

/// The day (UTC) a moment falls on, as `YYYY-MM-DD`.
pub fn day_of(ms: i64) -> String {
    let (y, m, d) = super::civil_date(ms);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Puzzles: solving them (daily, next, streaks), their ratings, and finding
/// new ones in games.
pub struct Puzzles {
    store: Store,
    games: Arc<Games>,
    quotas: Arc<Quotas>,
    engines: Arc<EnginePool>,
    clock: Clock,
}

impl Puzzles {
    pub fn new(
        store: Store,
        games: Arc<Games>,
        quotas: Arc<Quotas>,
        engines: Arc<EnginePool>,
        clock: Clock,
    ) -> Self {
        Puzzles { store, games, quotas, engines, clock }
    }

    /// Forgets visitors' puzzle moves past the time they make a solver's
    /// attempt at those puzzles unrated.
    pub(crate) async fn forget_old_probes(&self, now: i64) -> Result<u64> {
        Ok(self.store.forget_probes(now - PROBES_KEPT_MS).await?)
    }

    pub async fn puzzle(&self, id: &str) -> Result<PuzzleRecord> {
        self.store.puzzle(id).await?.ok_or_else(|| Refusal::NoPuzzle { id: id.to_string() }.into())
    }

    /// The next puzzle for a player: near their puzzle rating on the board
    /// (a visitor's: the middle of the scale), of a theme if one is asked
    /// for, one they have not tried; drawn from the few nearest. Written
    /// nowhere: see [`Self::next_puzzle_for`].
    pub async fn next_puzzle(
        &self,
        user: Option<&str>,
        variant: Variant,
        theme: Option<PuzzleTheme>,
    ) -> Result<PuzzleRecord> {
        self.pick_next(user, None, variant, theme).await
    }

    /// The next puzzle for a solver. A logged-in user gets one not tried from
    /// their address without logging in either, and it is handed to them: the
    /// one their next rated attempt may be on, in place of the last one.
    pub async fn next_puzzle_for(
        &self,
        solver: Solver<'_>,
        variant: Variant,
        theme: Option<PuzzleTheme>,
    ) -> Result<PuzzleRecord> {
        let Some(user) = solver.user else { return self.pick_next(None, None, variant, theme).await };
        let p = self.pick_next(Some(user), Some(solver.address), variant, theme).await?;
        self.store.hand_out(user, Handout::Next, variant, &p.id, solver.address, self.clock.now_ms()).await?;
        Ok(p)
    }

    async fn pick_next(
        &self,
        user: Option<&str>,
        address: Option<&str>,
        variant: Variant,
        theme: Option<PuzzleTheme>,
    ) -> Result<PuzzleRecord> {
        let rating = match user {
            Some(u) => self.store.puzzle_player(u, variant).await?.map(|p| p.rating.rating),
            None => None,
        };
        // A little either side, so that two players of one rating do not
        // always meet the same puzzle next.
        let spread = rand::random_range(-60.0..60.0);
        let wanted =
            Wanted { variant, user, address, theme, near: rating.unwrap_or(NEW_PUZZLE_RATING) + spread };
        self.draw_puzzle(&wanted).await?.ok_or_else(|| Refusal::NoPuzzleLeft {}.into())
    }

    /// One of the [`CHOICES`] puzzles nearest what is wanted, at random.
    async fn draw_puzzle(&self, wanted: &Wanted<'_>) -> Result<Option<PuzzleRecord>> {
        let mut near = self.store.next_puzzles(wanted, CHOICES).await?;
        if near.is_empty() {
            return Ok(None);
        }
        Ok(Some(near.swap_remove(rand::random_range(0..near.len()))))
    }

    /// The puzzle of the day (UTC), chosen by the first to ask for it.
    pub async fn daily_puzzle(&self) -> Result<PuzzleRecord> {
        let now = self.clock.now_ms();
        let day = day_of(now);
        if let Some(p) = self.store.daily_puzzle(&day).await? {
            return Ok(p);
        }
        // Somewhere between 1300 and 1900, varying with the day.
        let near = 1300.0 + (now.div_euclid(86_400_000) * 7919).rem_euclid(600) as f64;
        self.store.choose_daily(&day, near).await?.ok_or_else(|| Refusal::NoPuzzleLeft {}.into())
    }

    /// The puzzle of the day, handed to a logged-in user who has not tried it.
    pub async fn daily_puzzle_for(&self, solver: Solver<'_>) -> Result<PuzzleRecord> {
        let p = self.daily_puzzle().await?;
        if let Some(user) = solver.user {
            self.store
                .hand_out(user, Handout::Daily, p.variant, &p.id, solver.address, self.clock.now_ms())
                .await?;
        }
        Ok(p)
    }

    /// The piece to move next; shown to a logged-in user, it makes their
    /// first attempt unrated. In a streak, only through the streak.
    pub async fn puzzle_hint(
        &self,
        solver: Solver<'_>,
        id: &str,
        played: &[String],
        streak: Option<&str>,
    ) -> Result<String> {
        let puzzle = self.puzzle(id).await?;
        let now = self.clock.now_ms();
        self.streak_of(solver, id, streak, now).await?;
        let cell = hint(&puzzle, played)?;
        match solver.user {
            Some(u) => self.store.open_attempt(u, id, true, solver.address, now).await?,
            None => self.visitor_tries(solver.address, id, now).await?,
        }
        Ok(cell)
    }

    /// Judges the solver's moves so far in a puzzle (the last one new). A
    /// wrong move or the last right one ends a logged-in user's first
    /// attempt, rated only as the module says; a visitor's move counts
    /// against the address's hourly limit.
    pub async fn puzzle_move(
        &self,
        solver: Solver<'_>,
        id: &str,
        played: &[String],
        streak: Option<&str>,
    ) -> Result<Step> {
        let puzzle = self.puzzle(id).await?;
        let now = self.clock.now_ms();
        let running = self.streak_of(solver, id, streak, now).await?;
        let (kind, reply) = judge(&puzzle, played)?;
        if solver.user.is_none() {
            self.visitor_tries(solver.address, id, now).await?;
        }
        let mut step = Step { kind, reply, solution: None, rating: None, unrated: None, streak: None };
        if kind == StepKind::Right {
            if let Some(u) = solver.user {
                self.store.open_attempt(u, id, false, solver.address, now).await?;
            }
            return Ok(step);
        }
        step.solution = Some(puzzle.moves.clone());
        let result = if kind == StepKind::Solved { AttemptResult::Solved } else { AttemptResult::Failed };
        match solver.user {
            Some(u) => {
                let ending = Ending {
                    user: u,
                    puzzle: &puzzle,
                    result,
                    streak: running.is_some(),
                    address: solver.address,
                    now,
                };
                match self.store.end_attempt(&ending).await? {
                    Ended::Rated { before, after } => step.rating = Some((before, after)),
                    Ended::Unrated(why) => step.unrated = Some(why),
                    Ended::Earlier => step.unrated = Some(Unrated::Repeat),
                }
            }
            None => step.unrated = Some(Unrated::Visitor),
        }
        if let Some(s) = running {
            let solved = kind == StepKind::Solved && now <= s.ends_ms;
            step.streak = Some(self.streak_step(&s, &puzzle, solved, solver.address).await?);
        }
        Ok(step)
    }

    /// The running streak a move or hint is sent in, if one is named: it must
    /// be the user's and stand on the puzzle. Without one, the puzzle must not
    /// be any running streak's, so that nobody learns its line elsewhere.
    async fn streak_of(
        &self,
        solver: Solver<'_>,
        puzzle: &str,
        streak: Option<&str>,
        now: i64,
    ) -> Result<Option<StreakRecord>> {
        match (streak, solver.user) {
            (Some(s), Some(u)) => Ok(Some(self.running_streak(u, s, puzzle).await?)),
            (Some(_), None) => Err(Refusal::LogInFirst {}.into()),
            (None, _) if self.store.in_running_streak(puzzle, now).await? => {
                Err(Refusal::PuzzleInStreak {}.into())
            }
            (None, _) => Ok(None),
        }
    }

    /// Counts a visitor's move or hint against the address's hourly limit,
    /// and keeps that the puzzle was tried there.
    async fn visitor_tries(&self, address: &str, puzzle: &str, now: i64) -> Result<()> {
        let tally = Tally::PuzzleProbes(address);
        let (allowed, per) = (VISITOR_MOVES_PER_HOUR, Window::Hour);
        let mut turn = self.store.counting(tally).await?;
        if let Some(at) = turn.nth_latest(tally, now - per.ms(), allowed).await? {
            return Err(too_often(Act::PuzzleMoves, allowed, per, at, now).into());
        }
        self.store.insert_probe(&mut turn, address, puzzle, now).await?;
        turn.done().await?;
        Ok(())
    }

    /// A streak of `user`'s whose current puzzle is `puzzle`.
    async fn running_streak(&self, user: &str, id: &str, puzzle: &str) -> Result<StreakRecord> {
        let s = self.store.streak(id).await?.filter(|s| s.user == user);
        let s = s.ok_or_else(|| Refusal::NoStreak { id: id.to_string() })?;
        if s.over || s.current.as_deref() != Some(puzzle) {
            return Err(Refusal::StreakOver {}.into());
        }
        Ok(s)
    }

    /// A streak after one of its puzzles ended: on to a harder one if it was
    /// solved in time, else over. The next is drawn from those near its
    /// difficulty that the user has not tried and nobody tried from `address`
    /// without logging in.
    async fn streak_step(
        &self,
        s: &StreakRecord,
        puzzle: &PuzzleRecord,
        solved: bool,
        address: &str,
    ) -> Result<StreakStep> {
        if solved {
            let near = STREAK_START + STREAK_STEP * (s.solved + 1) as f64;
            let wanted =
                Wanted { variant: s.variant, user: Some(&s.user), address: Some(address), theme: None, near };
            if let Some(next) = self.draw_puzzle(&wanted).await? {
                if self.store.advance_streak(&s.id, &puzzle.id, &next.id).await?
                    == crate::store::Written::Stale
                {
                    return Err(Refusal::StreakOver {}.into());
                }
                return Ok(StreakStep { solved: s.solved + 1, over: false, next: Some(next) });
            }
        }
        if self.store.end_streak(s, solved).await? == crate::store::Written::Stale {
            return Err(Refusal::StreakOver {}.into());
        }
        Ok(StreakStep { solved: s.solved + i64::from(solved), over: true, next: None })
    }

    /// Starts a timed streak (ending any the user had running) on its first
    /// puzzle, drawn as [`Self::streak_step`] draws the next ones.
    pub async fn start_streak(
        &self,
        user: &str,
        address: &str,
        variant: Variant,
    ) -> Result<(StreakRecord, PuzzleRecord)> {
        let wanted =
            Wanted { variant, user: Some(user), address: Some(address), theme: None, near: STREAK_START };
        let first = self.draw_puzzle(&wanted).await?.ok_or(Refusal::NoPuzzleLeft {})?;
        let now = self.clock.now_ms();
        let streak = StreakRecord {
            id: new_id(),
            user: user.to_string(),
            variant,
            started_ms: now,
            ends_ms: now + STREAK_MS,
            solved: 0,
            current: Some(first.id.clone()),
            over: false,
        };
        let mut turn = self.quotas.streak_turn(user, now).await?;
        self.store.start_streak(&mut turn, &streak).await?;
        turn.done().await?;
        Ok((streak, first))
    }

    /// A user's puzzle ratings on both boards and their attempts, newest first.
    pub async fn puzzle_standing(&self, user: &str, page: &Page) -> Result<PuzzleStanding> {
        if self.store.user(user).await?.is_none() {
            return Err(Refusal::NoUser { name: user.to_string() }.into());
        }
        let mut boards = Vec::new();
        for variant in Variant::ALL {
            if let Some(p) = self.store.puzzle_player(user, variant).await? {
                boards.push((variant, p));
            }
        }
        Ok(PuzzleStanding { boards, history: self.store.puzzle_history(user, page).await? })
    }

    /// The best puzzle solvers on a board.
    pub async fn puzzle_leaders(&self, variant: Variant) -> Result<Vec<PuzzlePlayerRecord>> {
        Ok(self.store.puzzle_leaders(variant, LEADER_ATTEMPTS, LEADERS).await?)
    }

    /// Stores the puzzles found in one of the site's games (or a self-play
    /// game: no id); how many were new.
    pub async fn add_puzzles(&self, variant: Variant, game: Option<&str>, found: &[Found]) -> Result<u64> {
        let origin = game.map_or(Origin::Engine, |g| Origin::Site { game: g.to_string() });
        Ok(self.store.insert_puzzles(&new_puzzles(variant, &origin, found, self.clock.now_ms())).await?)
    }

    /// One round of the search of the site's finished games for puzzles: the
    /// next few, each searched on the engine pool as a study (a game's search
    /// interrupts it, and the game is searched again next round).
    pub async fn scan_for_puzzles(&self, budget: Budget) -> Result<Scanned> {
        let (after_ms, after_id) = self.store.puzzle_scan_cursor().await?;
        let games =
            self.store.finished_games_after(after_ms, &after_id, SCAN_LEAST_PLIES, SCAN_GAMES).await?;
        let mut scanned = Scanned::default();
        for game in games {
            match self.puzzles_of_game(&game, budget).await? {
                Some(found) => {
                    scanned.puzzles += self.add_puzzles(game.variant, Some(&game.id), &found).await?
                }
                None => return Ok(scanned),
            }
            self.store.set_puzzle_scan_cursor(game.updated_ms, &game.id).await?;
            scanned.games += 1;
        }
        Ok(scanned)
    }

    /// The puzzles of one finished game, or `None` if a game's search interrupted the work.
    async fn puzzles_of_game(&self, game: &GameRecord, budget: Budget) -> Result<Option<Vec<Found>>> {
        let board = self.games.load_game(&game.id).await?.game;
        self.search_board(board, budget).await
    }

    /// The puzzles the engine finds on a board, searched on the pool at a
    /// study's priority, or `None` if the search was interrupted.
    async fn search_board(&self, board: Arc<Board>, budget: Budget) -> Result<Option<Vec<Found>>> {
        let stop = Arc::new(Control::new());
        let control = stop.clone();
        let searched = self
            .engines
            .run_as(
                Purpose::Study("puzzles".into()),
                Some(stop),
                move |engine| find::find_in(&board, engine, budget, &control),
                |_| {},
            )
            .await
            .map_err(|e| Error::Broken(e.to_string()))?;
        Ok(searched.answer.ok())
    }
}

/// The rows of puzzles found in a game, each with a new id.
pub fn new_puzzles(variant: Variant, origin: &Origin, found: &[Found], now: i64) -> Vec<NewPuzzle> {
    found
        .iter()
        .map(|f| NewPuzzle {
            id: new_id(),
            variant,
            fen: f.fen.clone(),
            moves: f.moves.clone(),
            key: f.key,
            themes: f.themes.clone(),
            mate: f.mate,
            origin: origin.clone(),
            rating: first_rating(f),
            created_ms: now,
        })
        .collect()
}

/// Where a new puzzle starts on the rating scale: longer lines are harder,
/// and a mate in one is easy.
fn first_rating(f: &Found) -> f64 {
    let length = f.solver_moves() as f64;
    NEW_PUZZLE_RATING - 300.0
        + 200.0 * length.min(4.0)
        + if f.themes.contains(&PuzzleTheme::MateIn1) { -100.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_named_as_the_calendar_names_them() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(951_782_400_000), "2000-02-29");
        assert_eq!(day_of(1_795_651_200_000), "2026-11-26");
    }

    fn puzzle(variant: Variant, fen: &str, moves: &[&str], mate: bool) -> PuzzleRecord {
        PuzzleRecord {
            id: "p".into(),
            variant,
            fen: fen.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            themes: vec![],
            mate,
            origin: Origin::Engine,
            rating: Default::default(),
            plays: 0,
            solves: 0,
        }
    }

    fn moves(m: &[&str]) -> Vec<String> {
        m.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_line_is_judged_move_by_move_and_any_mate_ends_a_mating_one() {
        let p = puzzle(
            Variant::Standard,
            "5k3/6n2/9/9/9/9/2r6/4K4/3R5/9 b",
            &["g8e9", "d1f1", "c3f3", "f1f3", "e9f7", "f3f7"],
            true,
        );
        assert_eq!(judge(&p, &moves(&["d1f1"])).unwrap(), (StepKind::Right, Some("c3f3".into())));
        assert_eq!(judge(&p, &moves(&["d1d2"])).unwrap(), (StepKind::Wrong, None));
        assert_eq!(judge(&p, &moves(&["d1f1", "f1f3", "f3f7"])).unwrap(), (StepKind::Solved, None));
        assert!(judge(&p, &moves(&["d1f1", "f1f3", "f3f7", "f7f8"])).is_err(), "longer than the line");
        assert!(judge(&p, &moves(&["d1e2"])).is_err(), "a chariot does not move so");
        assert_eq!(hint(&p, &[]).unwrap(), "d1");
        assert_eq!(hint(&p, &moves(&["d1f1"])).unwrap(), "f1");
    }
}
