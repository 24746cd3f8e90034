//! Notices to every instance on a PostgreSQL database (NOTIFY), sent in
//! batches: a busy server makes many changes a millisecond, and one statement
//! per channel carries all that came in while the last one was being sent.
//! A notice's payload never holds a line break, so a batch is its payloads
//! one per line (see [`payloads`]); repeats within a batch go once.

use std::{collections::HashSet, sync::Arc};

use sqlx::AnyPool;
use tokio::sync::{Mutex, mpsc};
use tokio_util::sync::CancellationToken;

/// NOTIFY refuses payloads of 8,000 bytes and more.
const MOST_BYTES: usize = 7_000;

#[derive(Clone)]
pub(super) struct Notices(mpsc::UnboundedSender<(&'static str, String)>);

impl Notices {
    /// Starts the sender; it stops when the last store holding this is
    /// dropped, and starts again after a fault (see `crate::supervise`).
    pub(super) fn start(pool: AnyPool) -> Notices {
        let (tx, rx) = mpsc::unbounded_channel();
        let rx = Arc::new(Mutex::new(rx));
        tokio::spawn(async move {
            let ends = crate::supervise::Ends::WhenDone;
            crate::supervise::supervise("the notice sender", ends, CancellationToken::new(), None, || {
                send(pool.clone(), rx.clone())
            })
            .await;
        });
        Notices(tx)
    }

    pub(super) fn queue(&self, channel: &'static str, payload: String) {
        debug_assert!(!payload.contains('\n'), "a notice's payload is one line");
        let _ = self.0.send((channel, payload));
    }
}

/// The payloads of one notification.
pub fn payloads(batch: &str) -> impl Iterator<Item = &str> {
    batch.split('\n')
}

async fn send(pool: AnyPool, queue: Arc<Mutex<mpsc::UnboundedReceiver<(&'static str, String)>>>) {
    let mut queue = queue.lock().await;
    let mut batch = Vec::new();
    while queue.recv_many(&mut batch, 4096).await > 0 {
        let mut seen = HashSet::new();
        // Channels in the order they first came, payloads in order within each.
        let mut channels: Vec<(&'static str, Vec<String>)> = Vec::new();
        for (channel, payload) in batch.drain(..) {
            if !seen.insert((channel, payload.clone())) {
                continue;
            }
            match channels.iter_mut().find(|(c, _)| *c == channel) {
                Some((_, payloads)) => payloads.push(payload),
                None => channels.push((channel, vec![payload])),
            }
        }
        for (channel, payloads) in channels {
            for text in joined(&payloads) {
                let sent =
                    sqlx::query("SELECT pg_notify($1, $2)").bind(channel).bind(text).execute(&pool).await;
                if let Err(e) = sent {
                    tracing::warn!("cannot notify other instances on {channel}: {e}");
                }
            }
        }
    }
}

/// Payloads joined one per line into texts that NOTIFY takes.
fn joined(payloads: &[String]) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for p in payloads {
        match texts.last_mut() {
            Some(t) if t.len() + 1 + p.len() <= MOST_BYTES => {
                t.push('\n');
                t.push_str(p);
            }
            _ => texts.push(p.clone()),
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_join_into_bounded_lines_and_split_back() {
        let many: Vec<String> = (0..2_000).map(|i| format!("game{i:05}")).collect();
        let texts = joined(&many);
        assert!(texts.len() > 1);
        assert!(texts.iter().all(|t| t.len() <= MOST_BYTES));
        let back: Vec<&str> = texts.iter().flat_map(|t| payloads(t)).collect();
        assert_eq!(back, many.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(payloads("").collect::<Vec<_>>(), [""], "an empty payload is one notice");
    }
}
