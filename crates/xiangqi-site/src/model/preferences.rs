//! How a user likes the site to look and behave: piece set, board theme and
//! piece size, coordinates, the notation of move lists, animation, sound, the
//! Submit button in live games, and the language.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::named_enum;

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

named_enum! {
    /// Whether a move in a live game waits for the Submit button.
    "a way to send live moves" LiveSubmit {
        /// Choose, then Submit (as correspondence games always do).
        Confirm = "confirm",
        /// Sent as soon as it is chosen.
        Instant = "instant",
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
    pub live_submit: LiveSubmit,
    /// Null: follow the browser's language.
    pub language: Option<Language>,
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
            live_submit: LiveSubmit::Confirm,
            language: None,
        }
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
}
