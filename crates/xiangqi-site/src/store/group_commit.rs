//! Group commit: the moves of many games written in one transaction.
//!
//! A commit costs the same for one move as for a hundred (one write of the
//! log, one fsync on PostgreSQL, one turn of SQLite's single writer), so moves
//! that arrive while a commit is running wait for the next one together. Every
//! move is still checked against the version it was made at, and its sender
//! hears back only after the commit that holds it.
//!
//! A writer that panics is started again (see `crate::supervise`); the moves
//! it held are refused, those still queued wait for the new writer, and while
//! a writer is down the instance reports itself not ready.

use std::sync::{
    Arc,
    atomic::{AtomicU32, AtomicUsize, Ordering},
};

use tokio::sync::{Mutex, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::{Backend, Finish, Store, Written, finish, games::write_moves};
use crate::model::games::{GameRecord, MoveRecord};

/// The most moves one transaction takes.
const BATCH: usize = 256;

/// A move waiting for its commit.
pub(super) struct Pending {
    before: GameRecord,
    after: GameRecord,
    /// The move, and the premove played with it if there is one.
    records: Vec<MoveRecord>,
    /// The finish of a move that ends its game.
    finish: Option<Finish>,
    reply: oneshot::Sender<Result<Written, sqlx::Error>>,
}

/// What the writers take from their queue. (A move goes in as it is, as it
/// did before there were faults to inject: no allocation of its own.)
#[allow(clippy::large_enum_variant)]
pub(super) enum Queued {
    Move(Pending),
    /// A fault a test injects: the writer that takes it panics.
    Fault,
}

/// How the writers are.
#[derive(Default)]
struct Health {
    /// Writers that failed and wait to be started again.
    down: AtomicUsize,
    /// Injected faults (see [`GroupCommit::inject_faults`]) still to come, one
    /// at each start of a writer.
    faults: AtomicU32,
}

/// The sending side of the writer task.
#[derive(Clone)]
pub(super) struct GroupCommit {
    tx: mpsc::Sender<Queued>,
    health: Arc<Health>,
}

impl GroupCommit {
    /// Starts the writer for a store. It stops when the last store holding this
    /// sender is dropped.
    pub(super) fn start(store: &Store) -> GroupCommit {
        let (tx, rx) = mpsc::channel(4 * BATCH);
        let queue = Arc::new(Mutex::new(rx));
        let health = Arc::new(Health::default());
        // SQLite writes one transaction at a time; PostgreSQL commits several
        // at once, so while one batch commits the next is already being written.
        let writers = match store.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => 4,
        };
        for _ in 0..writers {
            // A writer holds the store without this sender, so the sender's
            // end is the writers' end: a writer that ends by itself is done,
            // one that panics is started again.
            let (store, queue, health) = (store.without_writer(), queue.clone(), health.clone());
            tokio::spawn(async move {
                let down = &health.down;
                let ends = crate::supervise::Ends::WhenDone;
                crate::supervise::supervise(
                    "the move writer",
                    ends,
                    CancellationToken::new(),
                    Some(down),
                    || write(store.clone(), queue.clone(), health.clone()),
                )
                .await;
            });
        }
        GroupCommit { tx, health }
    }

    /// Whether every writer runs (none waits to be started again after a fault).
    pub(super) fn is_up(&self) -> bool {
        self.health.down.load(Ordering::SeqCst) == 0
    }

    /// For tests: a writer panics `times` times in a row, first when it takes
    /// this from the queue, then as it starts again.
    pub(super) async fn inject_faults(&self, times: u32) {
        if times == 0 {
            return;
        }
        self.health.faults.fetch_add(times - 1, Ordering::SeqCst);
        let _ = self.tx.send(Queued::Fault).await;
    }

    /// Queues a move and waits until it is committed (or found stale).
    pub(super) async fn record(
        &self,
        before: &GameRecord,
        after: &GameRecord,
        records: &[MoveRecord],
        finish: Option<&Finish>,
    ) -> Result<Written, sqlx::Error> {
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            before: before.clone(),
            after: after.clone(),
            records: records.to_vec(),
            finish: finish.cloned(),
            reply,
        };
        self.tx.send(Queued::Move(pending)).await.map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// A fault injected by a test (see [`GroupCommit::inject_faults`]).
fn injected_fault() -> ! {
    panic!("a fault injected by a test")
}

async fn write(store: Store, queue: Arc<Mutex<mpsc::Receiver<Queued>>>, health: Arc<Health>) {
    let take_fault =
        || health.faults.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    if take_fault() {
        injected_fault();
    }
    let mut queued = Vec::with_capacity(BATCH);
    let mut batch = Vec::with_capacity(BATCH);
    while queue.lock().await.recv_many(&mut queued, BATCH).await > 0 {
        for q in queued.drain(..) {
            match q {
                Queued::Move(p) => batch.push(p),
                // The moves taken with it are refused as the writer goes down.
                Queued::Fault => injected_fault(),
            }
        }
        if batch.is_empty() {
            continue;
        }
        // Rows locked in one order by every batch: two batches on PostgreSQL
        // cannot deadlock.
        batch.sort_by(|a, b| a.after.id.cmp(&b.after.id));
        match commit(&store, &batch).await {
            Ok(results) => {
                for (p, written) in batch.drain(..).zip(results) {
                    let _ = p.reply.send(Ok(written));
                }
            }
            Err(e) if super::unreachable(&e) => {
                // Without a database no move can be written: each is told at once.
                tracing::warn!("a group commit of {} moves failed: {e}", batch.len());
                for p in batch.drain(..) {
                    let _ = p.reply.send(Err(sqlx::Error::PoolTimedOut));
                }
            }
            Err(e) => {
                // One bad move must not cost the others theirs: each goes
                // again in a transaction of its own.
                tracing::warn!(
                    "a group commit of {} moves failed ({e}); writing them one by one",
                    batch.len()
                );
                for p in batch.drain(..) {
                    let alone =
                        store.record_move_alone(&p.before, &p.after, &p.records, p.finish.as_ref()).await;
                    let _ = p.reply.send(alone);
                }
            }
        }
    }
}

/// Writes a batch in one transaction: each move whose game is still at the
/// version it was made at, in order.
async fn commit(store: &Store, batch: &[Pending]) -> Result<Vec<Written>, sqlx::Error> {
    let _turn = store.write_turn().await;
    let mut tx = store.pool().begin().await?;
    finish::lock_players(&mut tx, store.backend(), batch.iter().filter_map(|p| p.finish.as_ref())).await?;
    let mut results = Vec::with_capacity(batch.len());
    let mut counted = Vec::new();
    for p in batch {
        let written = write_moves(&mut tx, store.backend(), &p.before, &p.after, &p.records).await?;
        if written == Written::Done
            && let Some(f) = &p.finish
        {
            counted.extend(finish::write_finish(&mut tx, f).await?);
        }
        results.push(written);
    }
    finish::count_explored(&mut tx, &counted).await?;
    tx.commit().await?;
    Ok(results)
}
