//! How a user likes the site to look and behave: piece set, board theme and
//! piece size, coordinates, the notation of move lists, animation, sound, the
//! Submit button by the game's pace, and the language.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{explorer::Speed, named_enum};

named_enum! {
    /// How pieces are drawn.
    "a piece set" PieceSet {
        /// Traditional Chinese glyphs (帥仕相傌俥炮兵 / 將士象馬車砲卒).
        Traditional = "traditional",
        /// Simplified glyphs (帅仕相马车炮兵 / 将士象马车炮卒).
        Simplified = "simplified",
        /// A symbol of how each piece moves and a letter (K A E H R C P), for those
        /// who do not read the characters.
        Beginner = "beginner",
    }
}

named_enum! {
    /// The board's colours.
    "a board theme" Theme {
        Wood = "wood",
        Paper = "paper",
        /// High contrast, for low vision.
        Contrast = "contrast",
    }
}

named_enum! {
    /// Labels along the board's edges.
    "a kind of coordinates" Coordinates {
        Off = "off",
        /// Files a-i from Red's left, ranks 0-9 from Red's side.
        Iccs = "iccs",
        /// Files 1-9 from each side's right.
        Wxf = "wxf",
    }
}

named_enum! {
    /// How move lists name moves.
    "a notation" Notation {
        Wxf = "wxf",
        Chinese = "chinese",
        Iccs = "iccs",
    }
}

/// Whether a move waits for the Submit button, by the game's pace. By default
/// a live game's move is played on the click or drop, and a correspondence
/// move waits for Submit (a slip there costs days).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirmations {
    pub bullet: bool,
    pub blitz: bool,
    pub rapid: bool,
    pub classical: bool,
    pub correspondence: bool,
}

impl Confirmations {
    /// Submit for correspondence games only.
    pub const DEFAULT: Confirmations =
        Confirmations { bullet: false, blitz: false, rapid: false, classical: false, correspondence: true };

    /// Whether a game of this pace waits for Submit (an imported game, never played here, does).
    pub fn at(self, speed: Speed) -> bool {
        match speed {
            Speed::Bullet => self.bullet,
            Speed::Blitz => self.blitz,
            Speed::Rapid => self.rapid,
            Speed::Classical => self.classical,
            Speed::Correspondence | Speed::Other => self.correspondence,
        }
    }
}

impl Default for Confirmations {
    fn default() -> Self {
        Confirmations::DEFAULT
    }
}

named_enum! {
    /// A language of the site.
    "a language" Language {
        En = "en",
        #[serde(rename = "zh-Hans")]
        ZhHans = "zh-Hans",
        #[serde(rename = "zh-Hant")]
        ZhHant = "zh-Hant",
        Vi = "vi",
    }
}

/// A user's preferences. Every field has a default, so a user who never chose
/// has them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Preferences {
    pub pieces: PieceSet,
    pub theme: Theme,
    /// Piece size in percent of the standard size, 80-120.
    pub piece_size: u8,
    pub coordinates: Coordinates,
    pub notation: Notation,
    pub animation: bool,
    pub sound: bool,
    /// Which paces' moves wait for Submit.
    pub confirm_moves: Confirmations,
    /// Null: follow the browser's language.
    pub language: Option<Language>,
    /// The game page read out for screen readers: the position in words, a
    /// list of the legal moves, and the opponent's moves, checks, clock
    /// warnings and the result announced as they happen. Rows stored before
    /// it existed read as off.
    #[serde(default)]
    pub screen_reader: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            pieces: PieceSet::Traditional,
            theme: Theme::Wood,
            piece_size: 100,
            coordinates: Coordinates::Iccs,
            notation: Notation::Wxf,
            animation: true,
            sound: false,
            confirm_moves: Confirmations::DEFAULT,
            language: None,
            screen_reader: false,
        }
    }
}

impl Preferences {
    /// Preferences as a row keeps them. Rows written before moves were
    /// confirmed by pace hold `live_submit` instead: `confirm` there was the
    /// default every account was stored with (choosing it took a switch to
    /// `instant` and back, which a row cannot tell apart), and `instant` asked
    /// for live moves on the click, which the default now gives; either way
    /// such an account starts with today's default.
    pub fn from_stored(json: &str) -> Result<Preferences, serde_json::Error> {
        let mut value: serde_json::Value = serde_json::from_str(json)?;
        if let Some(fields) = value.as_object_mut()
            && fields.remove("live_submit").is_some()
        {
            fields
                .entry("confirm_moves")
                .or_insert_with(|| serde_json::to_value(Confirmations::DEFAULT).unwrap_or_default());
        }
        serde_json::from_value(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_bounds_hold() {
        let p = Preferences::default();
        let json = serde_json::to_value(p).unwrap();
        assert_eq!(json["language"], serde_json::Value::Null);
        assert_eq!(serde_json::from_value::<Preferences>(json).unwrap(), p);
        assert!(Preferences { piece_size: 79, ..p }.check().is_err());
        assert!(Preferences { piece_size: 120, ..p }.check().is_ok());
        use crate::model::Named;
        for l in Language::all() {
            assert_eq!(serde_json::to_value(l).unwrap(), l.name());
        }
        let unknown = serde_json::json!({"pieces": "traditional", "colour": "red"});
        assert!(serde_json::from_value::<Preferences>(unknown).is_err());
    }

    #[test]
    fn rows_from_before_the_screen_reader_mode_read_it_as_off() {
        let chosen = Preferences { theme: Theme::Contrast, screen_reader: true, ..Preferences::default() };
        let mut old = serde_json::to_value(chosen).unwrap();
        old.as_object_mut().unwrap().remove("screen_reader");
        let read = Preferences::from_stored(&old.to_string()).unwrap();
        assert!(!read.screen_reader);
        assert_eq!(read.theme, Theme::Contrast, "the rest is kept");
        let kept = Preferences::from_stored(&serde_json::to_string(&chosen).unwrap()).unwrap();
        assert_eq!(kept, chosen);
    }

    #[test]
    fn live_moves_go_on_the_click_and_correspondence_ones_wait_for_submit() {
        let c = Confirmations::DEFAULT;
        assert!(
            !c.at(Speed::Bullet) && !c.at(Speed::Blitz) && !c.at(Speed::Rapid) && !c.at(Speed::Classical)
        );
        assert!(c.at(Speed::Correspondence));
        let rapid_too = Confirmations { rapid: true, ..c };
        assert!(rapid_too.at(Speed::Rapid) && !rapid_too.at(Speed::Blitz));
    }

    #[test]
    fn rows_from_before_confirmations_by_pace_start_at_the_default() {
        let mut old =
            serde_json::to_value(Preferences { theme: Theme::Paper, ..Preferences::default() }).unwrap();
        old.as_object_mut().unwrap().remove("confirm_moves");
        for was in ["confirm", "instant"] {
            old["live_submit"] = was.into();
            let read = Preferences::from_stored(&old.to_string()).unwrap();
            assert_eq!(read.confirm_moves, Confirmations::DEFAULT, "{was}");
            assert_eq!(read.theme, Theme::Paper, "the rest is kept");
        }
        let chosen = Preferences {
            confirm_moves: Confirmations { blitz: true, ..Confirmations::DEFAULT },
            ..Preferences::default()
        };
        let row = serde_json::to_string(&chosen).unwrap();
        assert_eq!(Preferences::from_stored(&row).unwrap(), chosen, "a new row reads as written");
    }
}
