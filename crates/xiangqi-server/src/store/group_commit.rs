//! Group commit: the moves of many games written in one transaction.
//!
//! A commit costs the same for one move as for a hundred (one write of the
//! log, one fsync on PostgreSQL, one turn of SQLite's single writer), so moves
//! that arrive while a commit is running wait for the next one together. Every
//! move is still checked against the version it was made at, and its sender
//! hears back only after the commit that holds it.

use std::sync::Arc;

use tokio::sync::{Mutex, mpsc, oneshot};

use super::{
    Backend, Finish, GameRow, MoveRow, Store, Written, finish,
    games::{insert_move, update_game, write_move_postgres},
};

/// The most moves one transaction takes.
const BATCH: usize = 256;

/// A move waiting for its commit.
pub(super) struct Pending {
    before: GameRow,
    after: GameRow,
    record: MoveRow,
    /// The finish of a move that ends its game.
    finish: Option<Finish>,
    reply: oneshot::Sender<Result<Written, sqlx::Error>>,
}

/// The sending side of the writer task.
#[derive(Clone)]
pub(super) struct GroupCommit(mpsc::Sender<Pending>);

impl GroupCommit {
    /// Starts the writer for a store. It stops when the last store holding this
    /// sender is dropped.
    pub(super) fn start(store: &Store) -> GroupCommit {
        let (tx, rx) = mpsc::channel(4 * BATCH);
        let queue = Arc::new(Mutex::new(rx));
        // SQLite writes one transaction at a time; PostgreSQL commits several
        // at once, so while one batch commits the next is already being written.
        let writers = match store.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => 4,
        };
        for _ in 0..writers {
            // A writer holds the store without this sender, so the sender's
            // end is the writers' end.
            tokio::spawn(write(store.without_writer(), queue.clone()));
        }
        GroupCommit(tx)
    }

    /// Queues a move and waits until it is committed (or found stale).
    pub(super) async fn record(
        &self,
        before: &GameRow,
        after: &GameRow,
        record: &MoveRow,
        finish: Option<&Finish>,
    ) -> Result<Written, sqlx::Error> {
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            before: before.clone(),
            after: after.clone(),
            record: record.clone(),
            finish: finish.cloned(),
            reply,
        };
        self.0.send(pending).await.map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

async fn write(store: Store, queue: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    let mut batch = Vec::with_capacity(BATCH);
    while queue.lock().await.recv_many(&mut batch, BATCH).await > 0 {
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
                        store.record_move_alone(&p.before, &p.after, &p.record, p.finish.as_ref()).await;
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
        let written = match store.backend() {
            Backend::Postgres => write_move_postgres(&mut *tx, &p.before, &p.after, &p.record).await?,
            Backend::Sqlite => {
                let written = update_game(&mut tx, &p.before, &p.after).await?;
                if written == Written::Done {
                    insert_move(&mut tx, &p.record).await?;
                }
                written
            }
        };
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
