//! Time controls: correspondence (days per move) or a live clock (base + increment).

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};

pub const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ClockSpec {
    Correspondence { days: i64 },
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

    /// The columns (kind, days, base, increment) the store keeps.
    pub fn columns(self) -> (&'static str, i64, i64, i64) {
        match self {
            ClockSpec::Correspondence { days } => ("correspondence", days, 0, 0),
            ClockSpec::Live { base, increment } => ("live", 0, base, increment),
        }
    }

    pub fn from_columns(kind: &str, days: i64, base: i64, increment: i64) -> Self {
        if kind == "live" { ClockSpec::Live { base, increment } } else { ClockSpec::Correspondence { days } }
    }
}
