//! Ratings: Glicko-2 per category (standard or hex board, correspondence or
//! live), updated after every rated game as a rating period of one game, as the
//! established sites do. A deviation above 110 marks a rating provisional.

use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};
use xiangqi::{Color, Variant};

use super::{clock::ClockSpec, named_enum};

named_enum! {
    /// What a rating measures: one board at one pace.
    "a rating category" Category {
        StandardCorrespondence = "standard_correspondence",
        StandardLive = "standard_live",
        HexCorrespondence = "hex_correspondence",
        HexLive = "hex_live",
    }
}

impl Category {
    pub fn of(variant: Variant, clock: ClockSpec) -> Category {
        match (variant, clock.is_live()) {
            (Variant::Standard, false) => Category::StandardCorrespondence,
            (Variant::Standard, true) => Category::StandardLive,
            (Variant::Hex, false) => Category::HexCorrespondence,
            (Variant::Hex, true) => Category::HexLive,
        }
    }

    /// The board of the games counted in the category.
    pub fn variant(self) -> Variant {
        match self {
            Category::StandardCorrespondence | Category::StandardLive => Variant::Standard,
            Category::HexCorrespondence | Category::HexLive => Variant::Hex,
        }
    }
}

/// Above this deviation a rating is provisional: too few games to trust it.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's rating in one category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: i64,
}

impl Default for Rating {
    /// A newcomer: 1500 with the widest deviation.
    fn default() -> Self {
        let r = Glicko2Rating::new();
        Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility, games: 0 }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    fn after(&self, r: Glicko2Rating) -> Rating {
        Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility, games: self.games + 1 }
    }
}

/// Both players' ratings after a game between them (`None`: a draw).
pub fn rate(red: &Rating, black: &Rating, winner: Option<Color>) -> (Rating, Rating) {
    let outcome = match winner {
        Some(Color::Red) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (r, b) = glicko2(&red.glicko(), &black.glicko(), &outcome, &Glicko2Config::new());
    (red.after(r), black.after(b))
}

#[cfg(test)]
mod tests {
    use skillratings::glicko2::glicko2_rating_period;

    use super::*;

    /// The worked example of Glickman's "Example of the Glicko-2 system": a
    /// 1500 (RD 200) player beats a 1400 (RD 30) and loses to a 1550 (RD 100)
    /// and a 1700 (RD 300) in one period, with tau 0.5: 1464.06, RD 151.52,
    /// volatility 0.05999.
    #[test]
    fn the_published_example_comes_out_as_published() {
        let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after =
            glicko2_rating_period(&player, &results, &Glicko2Config { tau: 0.5, ..Glicko2Config::new() });
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!((after.deviation - 151.52).abs() < 0.01, "{}", after.deviation);
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{}", after.volatility);
    }

    #[test]
    fn a_win_moves_two_newcomers_apart_and_a_draw_keeps_them_level() {
        let (red, black) = rate(&Rating::default(), &Rating::default(), Some(Color::Red));
        assert!(red.rating > 1500.0 && black.rating < 1500.0);
        assert!((red.rating - 1500.0 - (1500.0 - black.rating)).abs() < 1e-6, "symmetric");
        assert!(red.deviation < 350.0 && red.provisional());
        assert_eq!((red.games, black.games), (1, 1));
        let (a, b) = rate(&Rating::default(), &Rating::default(), None);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn categories_follow_board_and_pace() {
        let live = ClockSpec::Live { base: 300_000, increment: 0 };
        let post = ClockSpec::Correspondence { hours: 72 };
        assert_eq!(Category::of(Variant::Standard, post), Category::StandardCorrespondence);
        assert_eq!(Category::of(Variant::Hex, live), Category::HexLive);
    }
}

/// One player's rating in one category.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRecord {
    pub user: String,
    pub category: Category,
    pub rating: Rating,
}
