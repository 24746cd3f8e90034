//! The computer as an opponent: one account per level (`computer.1` to
//! `computer.8`, names no person can register), games started at once without a
//! challenge, and moves searched on the engine pool whenever it is a computer's
//! turn. The queue of turns lives in memory; the database says whose turn it is,
//! so a restart loses nothing: every computer turn found at start is queued
//! again. With several instances on one PostgreSQL database, an instance that
//! leaves the computer to others passes its turns on (NOTIFY), and a search
//! runs under a lock on its game shared by every instance, so each turn is
//! searched and played once; should two submit at the same ply anyway, the
//! store takes only the first.

use std::{
    collections::HashSet,
    hash::{DefaultHasher, Hash, Hasher},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use xiangqi::{Color, RuleSet, Variant};
use xiangqi_engine::{Control, Engine, Level, Limits, Root, Score};

use crate::engines::{EnginePool, Purpose};

use super::{
    Clock,
    accounts::new_id,
    board::{Board, each, rules_fit},
    events::Events,
    games::{Games, Loaded, new_game_row},
    refusal::{Error, ErrorCode, Refusal, Result},
};

use crate::model::page::Page;
use crate::model::{
    clock::ClockSpec,
    {ComputerState, DrawAction, SideChoice},
};
use crate::store::{Backend, Store};

/// Games a person may play against the computer at once.
pub const MAX_GAMES: i64 = 3;

const PREFIX: &str = "computer.";

/// The account name of the computer at a level.
pub fn name_of(level: Level) -> String {
    format!("{PREFIX}{}", level.number())
}

/// The level a player plays at, if the player is the computer.
pub fn level_of(name: &str) -> Option<Level> {
    name.strip_prefix(PREFIX)?.parse::<u8>().ok().and_then(|n| Level::new(n).ok())
}

/// What the computer is asked to do in a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Job {
    /// Move, if it is its turn.
    Move(String),
    /// Answer the draw its opponent offers.
    Draw(String),
}

impl Job {
    /// As it crosses between instances: `move:ID` or `draw:ID`.
    fn note(&self) -> String {
        match self {
            Job::Move(id) => format!("move:{id}"),
            Job::Draw(id) => format!("draw:{id}"),
        }
    }

    fn from_note(note: &str) -> Option<Job> {
        match note.split_once(':')? {
            ("move", id) => Some(Job::Move(id.to_string())),
            ("draw", id) => Some(Job::Draw(id.to_string())),
            _ => None,
        }
    }

    fn game(&self) -> &str {
        match self {
            Job::Move(id) | Job::Draw(id) => id,
        }
    }
}

/// How many times a job that panics is tried.
const JOB_TRIES: u32 = 3;
/// The pause before a panicked job's next try, times the tries so far.
const JOB_RETRY_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// A job being done: it leaves the worker's busy set however its task ends.
struct Doing {
    busy: Arc<Mutex<HashSet<Job>>>,
    job: Job,
}

impl Drop for Doing {
    fn drop(&mut self) {
        self.busy.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.job);
    }
}

/// The jobs waiting for the computer's worker (see [`Computer::run_computer`]):
/// its moves and its answers to draw offers, queued here, or passed on to
/// the instances that search them.
pub struct Jobs {
    tx: mpsc::UnboundedSender<Job>,
    /// Held by the worker while it runs: one at a time, and a worker started
    /// again after a fault takes the queue over as it was.
    rx: tokio::sync::Mutex<mpsc::UnboundedReceiver<Job>>,
    /// Whether this instance's worker runs (else its jobs go to other instances).
    here: AtomicBool,
    store: Store,
    events: Events,
}

impl Jobs {
    pub fn new(store: Store, events: Events) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Jobs { tx, rx: tokio::sync::Mutex::new(rx), here: AtomicBool::new(false), store, events }
    }

    /// Queues the computer's move when it is the computer's turn.
    pub(super) fn computer_turn(&self, loaded: &Loaded) {
        if loaded.is_active() && level_of(loaded.player(loaded.turn())).is_some() {
            self.queue(Job::Move(loaded.row.id.clone()));
        }
    }

    /// Queues the computer's answer to a draw offer, when its opponent offered one.
    pub(super) fn computer_draw_offer(&self, loaded: &Loaded) {
        if let Some(by) = loaded.row.draw_offer
            && loaded.is_active()
            && level_of(loaded.player(!by)).is_some()
        {
            self.queue(Job::Draw(loaded.row.id.clone()));
        }
    }

    /// Gives a job to this instance's worker or, where none runs and other
    /// instances share the database, to theirs.
    fn queue(&self, job: Job) {
        if self.here.load(Ordering::Relaxed) || self.store.backend() != Backend::Postgres {
            let _ = self.tx.send(job);
            return;
        }
        self.events.hear(super::events::Happening::ComputerWanted(&job.note()));
    }

    /// A job passed on by an instance without a worker: queued if this one has one.
    pub fn computer_job_from_elsewhere(&self, note: &str) {
        if self.here.load(Ordering::Relaxed)
            && let Some(job) = Job::from_note(note)
        {
            let _ = self.tx.send(job);
        }
    }

    /// Queues every computer turn the database knows of: at start, after a restart.
    pub async fn resume_computer_games(&self) -> Result<usize> {
        let mut page = Page::first(Page::MAX);
        let mut queued = 0;
        loop {
            let batch = self.store.computer_turns(&page).await?;
            for row in &batch.items {
                let _ = self.tx.send(Job::Move(row.id.clone()));
                queued += 1;
            }
            match batch.next {
                Some(next) => page.after = Some(next),
                None => return Ok(queued),
            }
        }
    }
}

/// The search budget for one move: the level's own, and on a live clock no more
/// than a thirtieth of the time left (at least a tenth of a second).
fn time_for(loaded: &Loaded, now: i64) -> Limits {
    if !loaded.row.clock.is_live() {
        return Limits::default();
    }
    let left = loaded.time_left(loaded.turn(), now).max(0) as u64;
    Limits::move_time(Duration::from_millis((left / 30).clamp(100, 10_000)))
}

/// The computer's move (by cell names) at `level` in `board`.
fn choose(board: &Board, level: Level, engine: &mut Engine, time: &Limits, seed: u64) -> Option<String> {
    each!(board, g => {
        let root = Root::from_game(g);
        let found = level.play(engine, &root, time, &Control::new(), seed, &mut |_| {});
        found.best.map(|m| g.position().move_name(m))
    })
}

/// Whether the computer, to move or not, takes a draw: when a short search finds
/// it clearly worse.
fn takes_draw(board: &Board, side: Color, engine: &mut Engine) -> bool {
    let score = each!(board, g => {
        let root = Root::from_game(g);
        engine.search(&root, &Limits::nodes(200_000), &Control::new(), &mut |_| {}).score()
    });
    let for_mover = match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 10_000,
        Score::Mate(_) => -10_000,
    };
    let mine = if board.turn() == side { for_mover } else { -for_mover };
    mine <= -150
}

/// The same seed for the same game and ply: a computer's move can be replayed.
fn seed(id: &str, ply: i64) -> u64 {
    let mut h = DefaultHasher::new();
    (id, ply).hash(&mut h);
    h.finish()
}

/// The computer as a player: games against it, and its worker, which plays
/// its moves and answers draw offers in them (as any player does, through
/// [`Games`]).
pub struct Computer {
    store: Store,
    games: Arc<Games>,
    computer_jobs: Arc<Jobs>,
    engines: Arc<EnginePool>,
    events: Events,
    clock: Clock,
}

impl Computer {
    pub fn new(
        store: Store,
        games: Arc<Games>,
        computer_jobs: Arc<Jobs>,
        engines: Arc<EnginePool>,
        events: Events,
        clock: Clock,
    ) -> Self {
        Computer { store, games, computer_jobs, engines, events, clock }
    }

    /// Starts a game against the computer at `level`; the person plays `color`.
    /// The game starts from `fen` where there is one (a position to practise
    /// from), else from the board's start.
    #[allow(clippy::too_many_arguments)]
    pub async fn play_computer(
        &self,
        user: &str,
        level: u8,
        (variant, rules): (Variant, RuleSet),
        fen: Option<&str>,
        color: SideChoice,
        clock: ClockSpec,
        now: i64,
    ) -> Result<Loaded> {
        let level =
            Level::new(level).map_err(|_| Refusal::ComputerLevel { min: Level::MIN, max: Level::MAX })?;
        if !rules_fit(variant, rules) {
            return Err(Refusal::RulesMismatch { variant, rules }.into());
        }
        clock.check()?;
        // A position already over would leave a game nobody can move in.
        let start = match fen.map(str::trim).filter(|f| !f.is_empty()) {
            Some(fen) => {
                let board =
                    Board::from_fen(variant, fen, rules).map_err(|detail| Refusal::BadPosition { detail })?;
                if board.outcome().is_some() || board.legal_names().is_empty() {
                    let detail = "the position is already over: the side to move has no move".to_string();
                    return Err(Refusal::BadPosition { detail }.into());
                }
                Some(board.fen())
            }
            None => None,
        };
        // Counted and started one at a time, so that requests sent together
        // cannot all find room.
        let held = self.store.exclusive(&format!("xiangqi:computer-games:{user}")).await?;
        if self.store.computer_games_of(user).await? >= MAX_GAMES {
            return Err(Refusal::ComputerGames { allowed: MAX_GAMES as u32 }.into());
        }
        let computer = self
            .store
            .computer(level.number())
            .await?
            .ok_or_else(|| Error::broken("the computer's account is missing"))?;
        let mine = color.resolve(rand::random::<bool>);
        let (red, black) =
            if mine == Color::Red { (user, computer.as_str()) } else { (computer.as_str(), user) };
        let mut row = new_game_row(new_id(), red, black, (variant, rules), clock, now);
        row.rated = false;
        if let Some(fen) = start {
            row.start_fen = fen.clone();
            row.fen = fen;
        }
        self.store.start_game(&row).await?;
        held.release().await;
        let loaded = self.games.load_game(&row.id).await?;
        self.events.publish_game(&loaded).await;
        self.computer_jobs.computer_turn(&loaded);
        Ok(loaded)
    }

    /// Works through the computer's jobs until `stop` is cancelled, each
    /// game's at most once at a time. A job that panics is logged and tried
    /// again, a few times, after a pause.
    pub async fn run_computer(self: Arc<Self>, stop: CancellationToken) {
        let Ok(mut rx) = self.computer_jobs.rx.try_lock() else {
            tracing::warn!("the computer's worker runs already");
            return stop.cancelled().await;
        };
        self.computer_jobs.here.store(true, Ordering::Relaxed);
        let busy = Arc::new(Mutex::new(HashSet::new()));
        loop {
            let job = tokio::select! {
                job = rx.recv() => job,
                () = stop.cancelled() => return,
            };
            let Some(job) = job else { return };
            if !busy.lock().unwrap_or_else(|e| e.into_inner()).insert(job.clone()) {
                continue;
            }
            let computer = self.clone();
            let doing = Doing { busy: busy.clone(), job };
            tokio::spawn(async move {
                let job = &doing.job;
                for tries in 1..=JOB_TRIES {
                    match crate::supervise::catching(computer.computer_job(job)).await {
                        Ok(()) => return,
                        Err(why) if tries == JOB_TRIES => {
                            tracing::error!(
                                "computer job {job:?} panicked: {why}; given up after {tries} tries"
                            );
                        }
                        Err(why) => {
                            tracing::error!("computer job {job:?} panicked: {why}; tried again in a moment");
                            tokio::time::sleep(JOB_RETRY_PAUSE * tries).await;
                        }
                    }
                }
            });
        }
    }

    /// One job of the computer's, under its game's lock: one instance at a
    /// time works for a game; one that comes after finds the turn taken (or
    /// the next one to take).
    async fn computer_job(&self, job: &Job) {
        match self.store.lock(&format!("xiangqi:computer:{}", job.game())).await {
            Ok(held) => {
                let done = match job {
                    Job::Move(id) => {
                        let clock = self.clock.clone();
                        self.computer_move(id, move || clock.now_ms()).await.map(|_| ())
                    }
                    Job::Draw(id) => self.computer_answers_draw(id).await,
                };
                held.release().await;
                if let Err(e) = done {
                    tracing::warn!("computer job {job:?}: {}", e);
                }
            }
            Err(e) => tracing::warn!("computer job {job:?}: cannot take its lock: {e}"),
        }
    }

    fn computer_state(&self, id: &str, state: ComputerState, ahead: usize) {
        self.events.hear(super::events::Happening::Computer { game: id, state, ahead });
    }

    /// Searches and plays the computer's move if it is its turn; whether it
    /// moved. `clock` gives the moment the move is made (after the search).
    pub async fn computer_move(&self, id: &str, clock: impl Fn() -> i64) -> Result<bool> {
        let loaded = self.games.load_game(id).await?;
        let name = loaded.player(loaded.turn()).to_string();
        let Some(level) = level_of(&name) else { return Ok(false) };
        if !loaded.is_active() {
            return Ok(false);
        }
        self.computer_state(id, ComputerState::Thinking, 0);
        let board = loaded.game.clone();
        let time = time_for(&loaded, clock());
        let seed = seed(id, loaded.row.ply);
        let chosen = self
            .engines
            .run_as(
                Purpose::Game,
                None,
                move |engine| choose(&board, level, engine, &time, seed),
                |ahead| self.computer_state(id, ComputerState::Queued, ahead),
            )
            .await
            .map_err(|e| Error::broken(e.to_string()))?
            .answer;
        let Some(text) = chosen else { return Ok(false) };
        match self.games.submit_move(&name, id, loaded.row.ply, &text, clock()).await {
            Ok(_) => {
                crate::telemetry::move_played();
                Ok(true)
            }
            // Another instance moved first, or the person resigned meanwhile.
            Err(e) if e.code() == ErrorCode::Conflict => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn computer_answers_draw(&self, id: &str) -> Result<()> {
        let loaded = self.games.load_game(id).await?;
        let Some(by) = loaded.row.draw_offer else { return Ok(()) };
        let me = !by;
        let name = loaded.player(me).to_string();
        if level_of(&name).is_none() || !loaded.is_active() {
            return Ok(());
        }
        let board = loaded.game.clone();
        let takes = self
            .engines
            .run(move |engine| takes_draw(&board, me, engine))
            .await
            .map_err(|e| Error::broken(e.to_string()))?;
        let action = if takes { DrawAction::Accept } else { DrawAction::Decline };
        match self.games.draw(&name, id, action, self.clock.now_ms()).await {
            Ok(_) => Ok(()),
            Err(e) if e.code() == ErrorCode::Conflict => Ok(()),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_computer_is_known_by_its_name_and_no_person_can_take_one() {
        for level in Level::all() {
            assert_eq!(level_of(&name_of(level)), Some(level));
            assert!(super::super::accounts::check_name(&name_of(level)).is_err());
        }
        assert_eq!(level_of("computer.9"), None);
        assert_eq!(level_of("computer1"), None);
        assert_eq!(level_of("alice"), None);
    }
}
