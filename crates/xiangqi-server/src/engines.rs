//! The engine pool: searches run on blocking threads, never on the async
//! runtime's, and at most `size` at once. Engine time is the site's scarcest
//! resource; a search that finds the pool full waits its turn, and callers can
//! ask how many are waiting to tell the user so.

use std::sync::{
    Mutex,
    atomic::{AtomicUsize, Ordering},
};

use tokio::sync::Semaphore;
use xiangqi_engine::{Engine, Options};

/// Transposition table per pooled engine: enough for the site's short searches.
const HASH_MB: usize = 16;

/// Engines for the site's computer opponents and analysis. Each evaluates
/// standard-board positions with the embedded net (the hex board keeps the
/// classical evaluation): it plays far stronger than the classical one (the
/// engine README's measurements), and these searches are what a player meets of
/// the engine.
pub struct EnginePool {
    permits: Semaphore,
    /// Engines not in use, kept so that their tables are allocated once.
    idle: Mutex<Vec<Engine>>,
    size: usize,
    waiting: AtomicUsize,
}

/// Why a search did not run.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("the engine pool is shut")]
    Closed,
    #[error("the search failed: {0}")]
    Failed(String),
}

impl EnginePool {
    /// A pool of `size` engines (at least one), each searching on one thread.
    pub fn new(size: usize) -> Self {
        let size = size.max(1);
        EnginePool {
            permits: Semaphore::new(size),
            idle: Mutex::new(Vec::new()),
            size,
            waiting: AtomicUsize::new(0),
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
        self.permits.available_permits() == 0
    }

    /// Runs `job` with an engine on a blocking thread once one is free.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        self.run_or_queue(job, |_| {}).await
    }

    /// Runs `job` as [`EnginePool::run`] does; if every engine is busy, first
    /// tells `queued` how many searches are ahead of this one (the one that
    /// frees an engine included), at the moment it starts to wait.
    pub async fn run_or_queue<T, F>(&self, job: F, queued: impl FnOnce(usize)) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        let _permit = match self.permits.try_acquire() {
            Ok(permit) => permit,
            Err(tokio::sync::TryAcquireError::Closed) => return Err(PoolError::Closed),
            Err(tokio::sync::TryAcquireError::NoPermits) => {
                let ahead = self.waiting.fetch_add(1, Ordering::Relaxed) + 1;
                queued(ahead);
                let permit = self.permits.acquire().await;
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                permit.map_err(|_| PoolError::Closed)?
            }
        };
        let engine = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut engine = engine.unwrap_or_else(|| {
            Engine::new(Options { hash_mb: HASH_MB, ..Options::default() }.with_embedded_net())
        });
        let (engine, answer) = tokio::task::spawn_blocking(move || {
            let answer = job(&mut engine);
            (engine, answer)
        })
        .await
        .map_err(|e| PoolError::Failed(e.to_string()))?;
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(engine);
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use xiangqi::{Position, RuleSet, Standard};
    use xiangqi_engine::{Control, Limits, Root};

    use super::*;

    #[tokio::test]
    async fn searches_beyond_the_pool_size_wait_and_all_finish() {
        let pool = Arc::new(EnginePool::new(1));
        let search = |pool: Arc<EnginePool>| async move {
            pool.run(|engine| {
                let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
                engine.search(&root, &Limits::depth(3), &Control::new(), &mut |_| {}).best
            })
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
}
