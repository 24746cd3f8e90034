//! Time controls: correspondence (hours per move) or a live clock (base + increment).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::named_enum;

pub const HOUR_MS: i64 = 3600 * 1000;
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// The most hours a correspondence move may be given: 30 days.
pub const MAX_HOURS: i64 = 720;

/// A time control. Correspondence: `hours` to make each move (48 is two days;
/// the seed's tournament kinds are "Main", 48 hours, and "Fast", 28 hours).
/// Live: `base` milliseconds per side, plus `increment` milliseconds after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClockSpec {
    /// Hours per move, 1 to 720.
    Correspondence { hours: i64 },
    /// Base time 10 s to 3 h and an increment of 0 to 10 minutes, in milliseconds.
    Live { base: i64, increment: i64 },
}

named_enum! {
    /// Whether a time control is a live clock or days per move.
    "a pace" Pace {
        Correspondence = "correspondence",
        Live = "live",
    }
}

impl ClockSpec {
    pub fn is_live(self) -> bool {
        matches!(self, ClockSpec::Live { .. })
    }

    /// Correspondence: how long each move may take, in milliseconds.
    pub fn per_move_ms(self) -> Option<i64> {
        match self {
            ClockSpec::Correspondence { hours } => Some(hours * HOUR_MS),
            ClockSpec::Live { .. } => None,
        }
    }

    /// The columns (kind, hours, base, increment) the store keeps.
    pub fn columns(self) -> (&'static str, i64, i64, i64) {
        match self {
            ClockSpec::Correspondence { hours } => ("correspondence", hours, 0, 0),
            ClockSpec::Live { base, increment } => ("live", 0, base, increment),
        }
    }

    /// Reads the store's columns back.
    pub fn from_columns(kind: &str, hours: i64, base: i64, increment: i64) -> Result<Self, String> {
        match kind {
            "live" => Ok(ClockSpec::Live { base, increment }),
            "correspondence" => Ok(ClockSpec::Correspondence { hours }),
            _ => Err(format!("{kind:?} is not a kind of clock")),
        }
    }

    /// How PGN's `TimeControl` tag writes it: `600+5` (seconds) live, `1/172800`
    /// (one move per period of seconds) for correspondence.
    pub fn pgn_tag(self) -> String {
        match self {
            ClockSpec::Live { base, increment } => format!("{}+{}", base / 1000, increment / 1000),
            ClockSpec::Correspondence { hours } => format!("1/{}", hours * HOUR_MS / 1000),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip_and_limits_hold() {
        for c in [ClockSpec::Correspondence { hours: 72 }, ClockSpec::Live { base: 600_000, increment: 5000 }]
        {
            let (k, d, b, i) = c.columns();
            assert_eq!(ClockSpec::from_columns(k, d, b, i), Ok(c));
            assert!(c.check().is_ok());
        }
        assert!(ClockSpec::from_columns("hourglass", 0, 0, 0).is_err());
        assert!(ClockSpec::Correspondence { hours: 721 }.check().is_err());
        assert!(ClockSpec::Correspondence { hours: 0 }.check().is_err());
        assert!(ClockSpec::Correspondence { hours: 28 }.check().is_ok(), "the seed's Fast");
        assert!(ClockSpec::Live { base: 5000, increment: 0 }.check().is_err());
        assert_eq!(ClockSpec::Live { base: 600_000, increment: 5000 }.pgn_tag(), "600+5");
        assert_eq!(ClockSpec::Correspondence { hours: 72 }.pgn_tag(), "1/259200");
        assert_eq!(ClockSpec::Correspondence { hours: 48 }.per_move_ms(), Some(2 * DAY_MS));
    }

    #[test]
    fn the_wire_speaks_of_hours() {
        let c: ClockSpec = serde_json::from_str(r#"{"kind":"correspondence","hours":48}"#).unwrap();
        assert_eq!(c, ClockSpec::Correspondence { hours: 48 });
        assert!(serde_json::from_str::<ClockSpec>(r#"{"kind":"correspondence","days":2}"#).is_err());
    }
}
