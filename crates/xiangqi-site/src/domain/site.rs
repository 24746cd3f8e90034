//! The site as a running service: whether its database answers and moves
//! can be written, its gauges, and the locks one instance holds at a time.

use super::refusal::Result;
use crate::store::{Held, Store};

pub struct Site {
    store: Store,
}

impl Site {
    pub fn new(store: Store) -> Self {
        Site { store }
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<()> {
        Ok(self.store.ping().await?)
    }

    /// A lock held by one instance at a time, if free now.
    pub async fn try_lock(&self, name: &str) -> Result<Option<Held>> {
        Ok(self.store.try_lock(name).await?)
    }

    /// The server's gauges for the metrics page.
    pub async fn metrics(&self, websockets: usize) -> Option<String> {
        crate::telemetry::render(&self.store, websockets).await
    }

    /// Whether moves can be written: the group commit's writers all run
    /// (none is waiting to be started again after a fault).
    pub fn moves_writable(&self) -> bool {
        self.store.writer_up()
    }
}
