//! The pool that heavy parsing runs on: a PGN file to import, a study's
//! chapter from a PGN record. Reading and replaying a large record takes a
//! core for a noticeable time, so it never runs on the async runtime's threads
//! (which serve every other request) but on blocking threads, at most `size`
//! at once over the whole instance and at most `share` of those for one client
//! (a network address, an IPv6 /64). A request that finds either full is
//! refused at once ([`Refusal::Busy`]: 429 with `Retry-After`) rather than
//! queued: a queue would hold its body in memory and its connection open, and
//! the client can send it again in a moment.

use std::{collections::HashMap, net::IpAddr, sync::Arc};

use crate::{
    domain::refusal::{Error, Refusal, Result},
    model::client::client_key,
};

/// How long a refused client is asked to wait: a large record is read in
/// about that long.
pub const RETRY_AFTER_S: u64 = 2;

/// Places taken, over the instance and by client.
#[derive(Default)]
struct Taken {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// Heavy parsing, bounded over the instance and per client (see the module).
/// The same places bound other long work of one client's: an export holds
/// one while its file is written (see [`ParsePool::refusing`]).
pub struct ParsePool {
    size: usize,
    share: usize,
    taken: std::sync::Mutex<Taken>,
    /// What a client that finds no place is told.
    refusal: Refusal,
}

/// A place in the pool for one piece of work of one client, given back when
/// dropped (when the work ends, even if it panics or its request goes away).
pub struct Turn {
    pool: Arc<ParsePool>,
    client: IpAddr,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut taken = self.pool.lock();
        taken.total = taken.total.saturating_sub(1);
        if let Some(n) = taken.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                taken.by_client.remove(&self.client);
            }
        }
    }
}

impl ParsePool {
    /// A pool of `size` places (at least one), of which one client holds at
    /// most `share` (at least one, at most `size`).
    pub fn new(size: usize, share: usize) -> Self {
        let size = size.max(1);
        ParsePool {
            size,
            share: share.clamp(1, size),
            taken: std::sync::Mutex::default(),
            refusal: Refusal::Busy { seconds: RETRY_AFTER_S },
        }
    }

    /// The same pool, whose refusal names the work it bounds.
    #[must_use]
    pub fn refusing(self, refusal: Refusal) -> Self {
        ParsePool { refusal, ..self }
    }

    /// A pool sized for this machine: a place per core, a quarter of them (at
    /// least one) for one client.
    pub fn for_this_machine() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        ParsePool::new(cores, cores / 4)
    }

    /// Places over the instance.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Places one client may hold.
    pub fn share(&self) -> usize {
        self.share
    }

    /// Places taken now.
    pub fn busy(&self) -> usize {
        self.lock().total
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Taken> {
        self.taken.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for `client`, or [`Refusal::Busy`] if the pool is full or the
    /// client holds its share.
    pub fn admit(self: &Arc<Self>, client: IpAddr) -> Result<Turn, Refusal> {
        let client = client_key(client);
        let mut taken = self.lock();
        let mine = taken.by_client.get(&client).copied().unwrap_or(0);
        if taken.total >= self.size || mine >= self.share {
            return Err(self.refusal.clone());
        }
        taken.total += 1;
        *taken.by_client.entry(client).or_default() += 1;
        Ok(Turn { pool: self.clone(), client })
    }

    /// Runs `work` for `client` on a blocking thread, in a place of the pool
    /// (see [`ParsePool::admit`]).
    ///
    /// # Errors
    /// [`Refusal::Busy`] if there is no place; a fault (answered 500 and
    /// logged) if `work` panics.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        client: IpAddr,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        self.admit(client)?.run(work).await
    }
}

impl Turn {
    /// Runs `work` on a blocking thread; the place is given back when it ends
    /// (not when the caller stops waiting for it).
    ///
    /// # Errors
    /// A fault (answered 500 and logged) if `work` panics.
    pub async fn run<T: Send + 'static>(self, work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        tokio::task::spawn_blocking(move || {
            let _turn = self;
            work()
        })
        .await
        .map_err(|e| match e.try_into_panic() {
            Ok(panic) => Error::broken(format!(
                "parsing panicked: {}",
                crate::supervise::panic_message(panic.as_ref())
            )),
            Err(e) => Error::broken(format!("parsing: {e}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn one_client_holds_its_share_and_the_pool_its_size() {
        let pool = Arc::new(ParsePool::new(3, 2));
        let a1 = pool.admit(ip("10.0.0.1")).unwrap();
        let _a2 = pool.admit(ip("10.0.0.1")).unwrap();
        let refused = pool.admit(ip("10.0.0.1")).err().unwrap();
        assert_eq!(refused, Refusal::Busy { seconds: RETRY_AFTER_S });
        assert_eq!(refused.retry_after_s(), Some(RETRY_AFTER_S), "a Retry-After goes with it");
        assert_eq!(refused.code(), crate::domain::refusal::ErrorCode::TooManyRequests);
        let _b1 = pool.admit(ip("10.0.0.2")).unwrap();
        assert!(pool.admit(ip("10.0.0.3")).is_err(), "the pool is full");
        drop(a1);
        let _again = pool.admit(ip("10.0.0.1")).expect("a place comes back when its work ends");
        assert!(pool.admit(ip("2001:db8::1")).is_err(), "the pool is full again");
    }

    #[test]
    fn an_ipv6_client_is_its_64() {
        let pool = Arc::new(ParsePool::new(8, 1));
        let _one = pool.admit(ip("2001:db8:1:2::1")).unwrap();
        assert!(pool.admit(ip("2001:db8:1:2::99")).is_err(), "the same /64");
        assert!(pool.admit(ip("2001:db8:1:3::1")).is_ok(), "another /64");
    }

    #[tokio::test]
    async fn work_runs_off_the_runtime_and_a_panic_frees_its_place() {
        let pool = Arc::new(ParsePool::new(1, 1));
        let runtime_thread = std::thread::current().id();
        let ran_on = pool.run(ip("10.0.0.1"), || std::thread::current().id()).await.unwrap();
        assert_ne!(ran_on, runtime_thread, "on a blocking thread");
        let failed = pool.run(ip("10.0.0.1"), || -> u32 { panic!("a parser's bug") }).await;
        assert!(
            matches!(failed, Err(Error::Broken(ref why)) if why.contains("a parser's bug")),
            "{failed:?}"
        );
        assert_eq!(pool.busy(), 0, "the place came back");
        assert_eq!(pool.run(ip("10.0.0.1"), || 7).await.unwrap(), 7);
    }
}
