//! What bounds a search (depth, nodes, time) and how a clock becomes a time budget.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

/// The moves a sudden-death clock is shared over. Games against other engines
/// last about 57 moves a side and are mostly lost in the middle game, so a budget
/// that spends early does better than one that saves for an endgame: 16 beat 20
/// (+14 ± 48), which beat 28 (+28 ± 50), in 100 games each at 3+0.03. The
/// increment keeps the late moves from starving.
const SUDDEN_DEATH_HORIZON: u32 = 16;

/// The time left on the mover's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// The time on the clock now.
    pub time: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search, and how many lines it looks for; all bounds `None`
/// means search until stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<i32>,
    /// The nodes to search, all threads together.
    pub nodes: Option<u64>,
    /// The time to search, whatever the clock.
    pub move_time: Option<Duration>,
    /// The mover's clock, which a time budget is made from.
    pub clock: Option<Clock>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// Time kept back per move for the protocol's latency.
    pub move_overhead: Duration,
    /// The number of root moves to find a line for, best first (UCI `MultiPV`;
    /// 0 counts as 1). Each line after the first is searched without the root
    /// moves of the lines before it, so more lines cost more time per depth.
    pub multi_pv: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            move_time: None,
            clock: None,
            mate: None,
            move_overhead: Duration::ZERO,
            multi_pv: 1,
        }
    }
}

impl Limits {
    /// A search to `depth` plies.
    pub fn depth(depth: i32) -> Self {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A search of `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// A search of `t`.
    pub fn move_time(t: Duration) -> Self {
        Limits { move_time: Some(t), ..Limits::default() }
    }

    /// These limits, looking for `lines` root moves instead of one.
    pub fn with_multi_pv(self, lines: usize) -> Self {
        Limits { multi_pv: lines, ..self }
    }

    /// The time budget: (the time to aim for, the time never to exceed).
    pub fn budget(&self) -> Option<(Duration, Duration)> {
        let overhead = self.move_overhead;
        if let Some(t) = self.move_time {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Some((t, t));
        }
        let clock = self.clock?;
        let safe = clock.time.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_HORIZON).clamp(1, 40);
        let optimum = (safe / moves + clock.increment * 3 / 4).min(safe * 3 / 4);
        let maximum = (optimum * 4).min(safe * 3 / 4).max(optimum);
        Some((optimum, maximum))
    }
}

/// How a caller steers a running search from another thread.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    /// A control that has not stopped and is not pondering.
    pub fn new() -> Self {
        Control::default()
    }

    /// Asks the search to return as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Control::stop`] was called (and not undone by [`Control::resume`]).
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Lets a stopped search's handle run another search (a host that paused
    /// a search to give its thread to more urgent work, say).
    pub fn resume(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// While pondering, time limits are not applied; [`Control::ponderhit`] starts the clock.
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the search now counts its time.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is pondering: its time limits wait for [`Control::ponderhit`].
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_clock_is_never_overspent() {
        for ms in [1u64, 10, 50, 200, 1000, 60_000] {
            let limits = Limits {
                clock: Some(Clock {
                    time: Duration::from_millis(ms),
                    increment: Duration::from_millis(10),
                    moves_to_go: None,
                }),
                move_overhead: Duration::from_millis(20),
                ..Limits::default()
            };
            let (optimum, maximum) = limits.budget().unwrap();
            assert!(optimum <= maximum);
            assert!(maximum <= Duration::from_millis(ms.saturating_sub(20).max(1)), "{ms}: {maximum:?}");
        }
    }

    #[test]
    fn sudden_death_spends_about_a_sixteenth_of_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (optimum, maximum) = limits.budget().unwrap();
        assert_eq!(optimum, Duration::from_millis(625 + 75));
        assert_eq!(maximum, optimum * 4);
    }

    #[test]
    fn moves_to_go_one_may_use_most_of_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_secs(10),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            }),
            ..Limits::default()
        };
        let (optimum, _) = limits.budget().unwrap();
        assert!(optimum >= Duration::from_secs(5));
    }
}
