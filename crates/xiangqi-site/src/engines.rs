//! The engine pool: searches run on blocking threads, never on the async
//! runtime's, and at most `size` at once. Engine time is the site's scarcest
//! resource, so it is handed out by rule rather than by who asks first:
//!
//! - a game's search (the computer's move, its answer to a draw offer) goes
//!   ahead of every study (analysis, review); if every engine is studying, the
//!   longest-running analysis is asked to stop, and goes back to the queue;
//! - among studies, the next engine goes to the one whose owner was served
//!   least recently, so that a few users asking back to back cannot keep the
//!   others waiting.
//!
//! A search that finds the pool full waits its turn, and callers can ask how
//! many are waiting to tell the user so.

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use tokio::sync::oneshot;
use xiangqi_engine::{Control, Engine, Options};

/// Transposition table per pooled engine: enough for the site's short searches.
const HASH_MB: usize = 16;

/// Whom a search is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A game waits on it: the computer's move or answer.
    Game,
    /// A study of someone's (an analysis, a review), named by whose it is.
    Study(String),
}

/// What a search that may be interrupted gives the pool: the handle that stops it.
type Stoppable = (Arc<Control>, Arc<AtomicBool>);

/// The queue for engines.
#[derive(Default)]
struct Queue {
    free: usize,
    games: VecDeque<oneshot::Sender<()>>,
    studies: VecDeque<(String, oneshot::Sender<()>)>,
    /// Studies running now that a game may interrupt, oldest first.
    interruptible: VecDeque<(u64, Stoppable)>,
    /// When each owner of a study was last served (a count of handovers).
    served: HashMap<String, u64>,
    handovers: u64,
}

impl Queue {
    /// Hands a freed engine to the next in line; whether anyone took it.
    fn hand_over(&mut self) -> bool {
        while let Some(next) = self.games.pop_front() {
            if next.send(()).is_ok() {
                return true;
            }
        }
        while !self.studies.is_empty() {
            // The owner served least recently goes first; among equals, who came first.
            let pick = (0..self.studies.len())
                .min_by_key(|&i| self.served.get(&self.studies[i].0).copied().unwrap_or(0))
                .unwrap_or(0);
            let Some((owner, next)) = self.studies.remove(pick) else { break };
            if next.send(()).is_ok() {
                self.handovers += 1;
                self.served.insert(owner, self.handovers);
                return true;
            }
        }
        false
    }

    /// Asks the longest-running interruptible study to stop, unless one was
    /// asked already and has not yet given its engine back.
    fn interrupt_a_study(&mut self) {
        if self.interruptible.iter().any(|(_, (_, asked))| asked.load(Ordering::Relaxed)) {
            return;
        }
        if let Some((_, (control, asked))) = self.interruptible.front() {
            asked.store(true, Ordering::Relaxed);
            control.stop();
        }
    }
}

/// Engines for the site's computer opponents and analysis. Each evaluates
/// with the embedded nets, one for each board: they play far stronger than the
/// classical evaluation (the engine README's measurements), and these searches
/// are what a player meets of the engine.
pub struct EnginePool {
    queue: Mutex<Queue>,
    /// Engines not in use, kept so that their tables are allocated once.
    idle: Mutex<Vec<Engine>>,
    size: usize,
    waiting: AtomicUsize,
    next_id: std::sync::atomic::AtomicU64,
}

/// Why a search did not run.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("the engine pool is shut")]
    Closed,
    #[error("the search failed: {0}")]
    Failed(String),
}

/// What a search gave, and whether a game's search interrupted it (its
/// answer is then what it had found so far).
#[derive(Debug)]
pub struct Searched<T> {
    pub answer: T,
    pub interrupted: bool,
}

/// An engine taken from the pool, given back when dropped.
struct Permit<'p> {
    pool: &'p EnginePool,
    id: u64,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.pool.give_back(self.id);
    }
}

/// A place in the queue. If the wait is given up (the caller went away) after
/// an engine was already handed to it, the engine goes back.
struct Waiting<'p> {
    pool: &'p EnginePool,
    rx: Option<oneshot::Receiver<()>>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(mut rx) = self.rx.take() {
            rx.close();
            if rx.try_recv().is_ok() {
                self.pool.give_back(0);
            }
        }
    }
}

impl EnginePool {
    /// A pool of `size` engines (at least one), each searching on one thread.
    pub fn new(size: usize) -> Self {
        let size = size.max(1);
        EnginePool {
            queue: Mutex::new(Queue { free: size, ..Queue::default() }),
            idle: Mutex::new(Vec::new()),
            size,
            waiting: AtomicUsize::new(0),
            next_id: std::sync::atomic::AtomicU64::new(1),
        }
    }

    /// A pool sized for this machine: half its cores, leaving the rest to serving.
    pub fn for_this_machine() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        EnginePool::new(cores / 2)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Searches waiting for an engine.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Whether a search asked for now would wait.
    pub fn is_full(&self) -> bool {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).free == 0
    }

    /// Runs a game's `job` with an engine on a blocking thread once one is free.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        Ok(self.run_as(Purpose::Game, None, job, |_| {}).await?.answer)
    }

    /// Runs `job` for `claim` once an engine is free for it (see the module's
    /// rules); if every engine is busy, first tells `queued` how many searches
    /// are waiting (this one included), at the moment it starts to wait. A
    /// study that gives `stop` may be interrupted by a game's search through it.
    pub async fn run_as<T, F>(
        &self,
        claim: Purpose,
        stop: Option<Arc<Control>>,
        job: F,
        queued: impl FnOnce(usize),
    ) -> Result<Searched<T>, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        let permit = self.take(&claim, queued).await?;
        let asked = Arc::new(AtomicBool::new(false));
        if let (Purpose::Study(_), Some(control)) = (&claim, stop) {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            queue.interruptible.push_back((permit.id, (control, asked.clone())));
            // A game may have come while this one was being handed its engine.
            if !queue.games.is_empty() {
                queue.interrupt_a_study();
            }
        }
        let engine = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut engine = engine.unwrap_or_else(|| {
            Engine::new(Options { hash_mb: HASH_MB, ..Options::default() }.with_embedded_net())
        });
        let (engine, answer) = tokio::task::spawn_blocking(move || {
            let answer = job(&mut engine);
            (engine, answer)
        })
        .await
        .map_err(|e| PoolError::Failed(e.to_string()))?;
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(engine);
        drop(permit);
        Ok(Searched { answer, interrupted: asked.load(Ordering::Relaxed) })
    }

    async fn take(&self, claim: &Purpose, queued: impl FnOnce(usize)) -> Result<Permit<'_>, PoolError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let handed = {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            if queue.free > 0 {
                queue.free -= 1;
                if let Purpose::Study(owner) = claim {
                    queue.handovers += 1;
                    let at = queue.handovers;
                    queue.served.insert(owner.clone(), at);
                }
                None
            } else {
                let (tx, rx) = oneshot::channel();
                match claim {
                    Purpose::Game => {
                        queue.games.push_back(tx);
                        queue.interrupt_a_study();
                    }
                    Purpose::Study(owner) => queue.studies.push_back((owner.clone(), tx)),
                }
                Some(rx)
            }
        };
        if let Some(rx) = handed {
            let mut place = Waiting { pool: self, rx: Some(rx) };
            let ahead = self.waiting.fetch_add(1, Ordering::Relaxed) + 1;
            queued(ahead);
            let got = match place.rx.as_mut() {
                Some(rx) => rx.await,
                None => Ok(()),
            };
            place.rx = None;
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            got.map_err(|_| PoolError::Closed)?;
        }
        self.forget_old_owners();
        Ok(Permit { pool: self, id })
    }

    /// An engine comes back (from the search `id`, if it ran one): the next in
    /// line gets it, or it waits free.
    fn give_back(&self, id: u64) {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue.interruptible.retain(|(running, _)| *running != id);
        if !queue.hand_over() {
            queue.free += 1;
        }
    }

    /// Owners' turns are kept for the most recent ones only.
    fn forget_old_owners(&self) {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if queue.served.len() > 10_000 {
            let keep_after = queue.handovers.saturating_sub(1_000);
            queue.served.retain(|_, at| *at > keep_after);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{sync::Arc, time::Duration};

    use xiangqi::{Position, RuleSet, Standard};
    use xiangqi_engine::{Control, Limits, Root};

    use super::*;

    fn root() -> Root<Standard> {
        Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules())
    }

    #[tokio::test]
    async fn searches_beyond_the_pool_size_wait_and_all_finish() {
        let pool = Arc::new(EnginePool::new(1));
        let search = |pool: Arc<EnginePool>| async move {
            pool.run(|engine| engine.search(&root(), &Limits::depth(3), &Control::new(), &mut |_| {}).best)
                .await
        };
        let first = tokio::spawn(search(pool.clone()));
        let second = tokio::spawn(search(pool.clone()));
        let (a, b) = (first.await.unwrap().unwrap(), second.await.unwrap().unwrap());
        assert!(a.is_some() && b.is_some());
        assert_eq!(pool.waiting(), 0);
        assert!(!pool.is_full());
        assert_eq!(pool.idle.lock().unwrap().len(), 1, "the one engine is reused");
    }

    /// A study that searches until stopped, and says whether it was.
    async fn endless_study(pool: Arc<EnginePool>, owner: &str) -> Searched<bool> {
        let control = Arc::new(Control::new());
        let c = control.clone();
        pool.run_as(
            Purpose::Study(owner.to_string()),
            Some(control),
            move |engine| {
                engine.search(&root(), &Limits::default(), &c, &mut |_| {});
                c.is_stopped()
            },
            |_| {},
        )
        .await
        .unwrap()
    }

    #[tokio::test]
    async fn a_game_interrupts_a_study_and_goes_first() {
        let pool = Arc::new(EnginePool::new(1));
        let study = tokio::spawn(endless_study(pool.clone(), "ann"));
        while !pool.is_full() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let started = std::time::Instant::now();
        let game =
            pool.run(|engine| engine.search(&root(), &Limits::depth(2), &Control::new(), &mut |_| {}).best);
        assert!(game.await.unwrap().is_some());
        assert!(started.elapsed() < Duration::from_secs(5), "the endless study gave way");
        let studied = study.await.unwrap();
        assert!(studied.interrupted && studied.answer);
    }

    #[test]
    fn the_owner_served_least_recently_is_next() {
        let mut queue = Queue::default();
        let mut waiting = Vec::new();
        for owner in ["ann", "ann", "bob"] {
            let (tx, rx) = oneshot::channel();
            queue.studies.push_back((owner.to_string(), tx));
            waiting.push(rx);
        }
        queue.handovers = 5;
        queue.served.insert("ann".into(), 5);
        assert!(queue.hand_over());
        assert!(waiting[2].try_recv().is_ok(), "bob, never served, before ann's two");
        assert!(queue.hand_over());
        assert!(waiting[0].try_recv().is_ok(), "then ann's first");
    }
}
