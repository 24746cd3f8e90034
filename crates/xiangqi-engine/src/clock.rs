//! The time the search's limits are measured in. Everywhere but WebAssembly
//! this is the standard library's monotonic clock. `wasm32-unknown-unknown`
//! has no clock of its own: the program that embeds the engine gives it one
//! with [`set_clock`] (a browser's `performance.now()`, say). Until it does,
//! time stands still there, and only depth and node limits end a search.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web::{Instant, set_clock};

#[cfg(target_arch = "wasm32")]
mod web {
    use std::{sync::OnceLock, time::Duration};

    static NOW_MS: OnceLock<fn() -> f64> = OnceLock::new();

    /// Gives the engine its clock: milliseconds from any fixed moment, never
    /// going back. The first clock given stays.
    pub fn set_clock(now_ms: fn() -> f64) {
        let _ = NOW_MS.set(now_ms);
    }

    fn now_ms() -> f64 {
        NOW_MS.get().map_or(0.0, |now| now())
    }

    /// A moment on the embedder's clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((now_ms() - self.0).max(0.0) / 1000.0)
        }
    }
}
