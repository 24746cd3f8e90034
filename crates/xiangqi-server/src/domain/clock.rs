//! Time controls: correspondence (days per move) or a live clock (base + increment).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// A time control. Correspondence: `days` to make each move. Live: `base`
/// milliseconds per side, plus `increment` milliseconds after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClockSpec {
    /// Days per move, 1 to 30.
    Correspondence { days: i64 },
    /// Base time 10 s to 3 h and an increment of 0 to 10 minutes, in milliseconds.
    Live { base: i64, increment: i64 },
}

impl ClockSpec {
    pub fn check(self) -> ApiResult<Self> {
        match self {
            ClockSpec::Correspondence { days } if (1..=30).contains(&days) => Ok(self),
            ClockSpec::Correspondence { .. } => {
                Err(ApiError::bad_request("correspondence days per move are 1 to 30"))
            }
            ClockSpec::Live { base, increment }
                if (10_000..=3 * 3600 * 1000).contains(&base) && (0..=600_000).contains(&increment) =>
            {
                Ok(self)
            }
            ClockSpec::Live { .. } => Err(ApiError::bad_request(
                "a live clock is 10 s to 3 h, with an increment of 0 to 10 minutes",
            )),
        }
    }

    pub fn is_live(self) -> bool {
        matches!(self, ClockSpec::Live { .. })
    }

    /// The columns (kind, days, base, increment) the store keeps.
    pub fn columns(self) -> (&'static str, i64, i64, i64) {
        match self {
            ClockSpec::Correspondence { days } => ("correspondence", days, 0, 0),
            ClockSpec::Live { base, increment } => ("live", 0, base, increment),
        }
    }

    /// Reads the store's columns back.
    pub fn from_columns(kind: &str, days: i64, base: i64, increment: i64) -> Result<Self, String> {
        match kind {
            "live" => Ok(ClockSpec::Live { base, increment }),
            "correspondence" => Ok(ClockSpec::Correspondence { days }),
            _ => Err(format!("{kind:?} is not a kind of clock")),
        }
    }

    /// How PGN's `TimeControl` tag writes it: `600+5` (seconds) live, `1/259200`
    /// (one move per period of seconds) for correspondence.
    pub fn pgn_tag(self) -> String {
        match self {
            ClockSpec::Live { base, increment } => format!("{}+{}", base / 1000, increment / 1000),
            ClockSpec::Correspondence { days } => format!("1/{}", days * DAY_MS / 1000),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip_and_limits_hold() {
        for c in [ClockSpec::Correspondence { days: 3 }, ClockSpec::Live { base: 600_000, increment: 5000 }] {
            let (k, d, b, i) = c.columns();
            assert_eq!(ClockSpec::from_columns(k, d, b, i), Ok(c));
            assert!(c.check().is_ok());
        }
        assert!(ClockSpec::from_columns("hourglass", 0, 0, 0).is_err());
        assert!(ClockSpec::Correspondence { days: 31 }.check().is_err());
        assert!(ClockSpec::Live { base: 5000, increment: 0 }.check().is_err());
        assert_eq!(ClockSpec::Live { base: 600_000, increment: 5000 }.pgn_tag(), "600+5");
        assert_eq!(ClockSpec::Correspondence { days: 3 }.pgn_tag(), "1/259200");
    }
}
