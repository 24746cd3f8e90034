//! Tasks that must not end silently. A task of one request or socket (a
//! WebSocket's feeds, an analysis, a review, a computer's move) that panics is
//! logged once, with what it was; a task the server lives on (the accept
//! loops, the clock sweep, the computer's worker, the change listener, the
//! group commit's writers, the notice sender) is also started again, after a
//! pause that doubles with each failure in a row, so that a fault that recurs
//! at once costs a log line a few seconds rather than a busy loop.

use std::{
    any::Any,
    future::Future,
    panic::AssertUnwindSafe,
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

use futures_util::FutureExt;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// The pause before a failed task's first restart.
pub const FIRST_PAUSE: Duration = Duration::from_millis(100);
/// The longest pause between restarts.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(10);
/// A task that ran this long before it failed is started again after the
/// first pause: its earlier failures were not in a row.
const STEADY: Duration = Duration::from_secs(60);

/// The words of a panic's payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without words")
}

/// Runs `task` to its end; the words of its panic if it panicked.
pub async fn catching<F: Future>(task: F) -> Result<F::Output, String> {
    AssertUnwindSafe(task).catch_unwind().await.map_err(|payload| panic_message(payload.as_ref()).to_string())
}

/// `task` with its panic (if any) logged once, as `what`'s.
pub async fn logged<F: Future<Output = ()>>(what: &'static str, task: F) {
    if let Err(why) = catching(task).await {
        tracing::error!(task = what, "{what} panicked: {why}");
    }
}

/// Spawns a task of one request or socket whose panic is logged once (see [`logged`]).
pub fn spawn_logged<F>(what: &'static str, task: F) -> JoinHandle<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    tokio::spawn(logged(what, task))
}

/// How a supervised task may end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// Only when `stop` is cancelled: ending before is a fault.
    OnStop,
    /// By itself, when its work is done (its channel closed, say); only a
    /// panic is a fault.
    WhenDone,
}

/// Runs the task `start` makes until it ends as `ends` allows or `stop` is
/// cancelled; after a panic (or an end `ends` does not allow) the fault is
/// logged and a new task started after a pause (see the module). While a
/// failed task waits for its restart, `down` (if given) counts it.
pub async fn supervise<F, Fut>(
    what: &'static str,
    ends: Ends,
    stop: CancellationToken,
    down: Option<&AtomicUsize>,
    mut start: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let mut pause = FIRST_PAUSE;
    loop {
        let began = Instant::now();
        let ended = catching(start()).await;
        if began.elapsed() >= STEADY {
            pause = FIRST_PAUSE;
        }
        match ended {
            Ok(()) if ends == Ends::WhenDone || stop.is_cancelled() => return,
            Err(why) if stop.is_cancelled() => {
                tracing::error!(task = what, "{what} panicked while stopping: {why}");
                return;
            }
            Ok(()) => tracing::error!(task = what, "{what} ended by itself; it starts again in {pause:?}"),
            Err(why) => tracing::error!(task = what, "{what} panicked: {why}; it starts again in {pause:?}"),
        }
        if let Some(down) = down {
            down.fetch_add(1, Ordering::SeqCst);
        }
        let stopped = tokio::select! {
            () = tokio::time::sleep(pause) => false,
            () = stop.cancelled() => true,
        };
        if let Some(down) = down {
            down.fetch_sub(1, Ordering::SeqCst);
        }
        if stopped {
            return;
        }
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{
        Arc,
        atomic::{AtomicU32, AtomicUsize, Ordering},
    };

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_task_that_panics_or_ends_early_starts_again_and_counts_as_down_meanwhile() {
        let runs = Arc::new(AtomicU32::new(0));
        let down = Arc::new(AtomicUsize::new(0));
        let stop = CancellationToken::new();
        let supervisor = tokio::spawn({
            let (runs, down, stop) = (runs.clone(), down.clone(), stop.clone());
            async move {
                supervise("a test task", Ends::OnStop, stop.clone(), Some(&down), || {
                    let (n, stop) = (runs.fetch_add(1, Ordering::SeqCst), stop.clone());
                    async move {
                        match n {
                            0 => panic!("the first run fails"),
                            1 => {} // the second ends early
                            _ => stop.cancelled().await,
                        }
                    }
                })
                .await;
            }
        });
        tokio::time::sleep(FIRST_PAUSE / 2).await;
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(down.load(Ordering::SeqCst), 1, "down while it waits for its restart");
        tokio::time::sleep(FIRST_PAUSE).await;
        assert_eq!(runs.load(Ordering::SeqCst), 2, "started again, and ended early");
        assert_eq!(down.load(Ordering::SeqCst), 1);
        tokio::time::sleep(FIRST_PAUSE * 2).await;
        assert_eq!(runs.load(Ordering::SeqCst), 3, "after a pause twice as long");
        assert_eq!(down.load(Ordering::SeqCst), 0);
        stop.cancel();
        supervisor.await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 3, "a task that ends on stop is not started again");
    }

    #[tokio::test]
    async fn a_task_that_may_end_ends_and_a_panic_is_caught_with_its_words() {
        let runs = AtomicU32::new(0);
        supervise("a test task", Ends::WhenDone, CancellationToken::new(), None, || {
            runs.fetch_add(1, Ordering::SeqCst);
            async {}
        })
        .await;
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(catching(async { panic!("with {} words", 3) }).await, Err::<(), _>("with 3 words".into()));
        assert_eq!(catching(async { 5 }).await, Ok(5));
        spawn_logged("a test task", async { panic!("logged") })
            .await
            .expect("the panic is caught and logged");
    }
}
