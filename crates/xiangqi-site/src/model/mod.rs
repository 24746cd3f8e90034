//! The site's vocabulary as types: every status, side and choice is an enum,
//! parsed once where text comes in (a request, a database row) and written back
//! by name. The rules crate's own enums (colour, rule set, variant, reason) join
//! in through [`Named`].

pub mod accounts;
pub mod board;
pub mod challenges;
pub mod client;
pub mod clock;
pub mod eval;
pub mod explorer;
pub mod games;
pub mod news;
pub mod page;
pub mod people;
pub mod preferences;
pub mod puzzles;
pub mod ratings;
pub mod reviews;
pub mod studies;
pub mod tournaments;
pub mod wire;

use xiangqi::{Color, Reason, RuleSet, Variant};

/// An enum with a stable lower-case name per value, as stored and as sent.
pub trait Named: Copy + Sized + 'static {
    /// What the values are, for error messages ("a colour").
    const WHAT: &'static str;
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;

    fn parse(text: &str) -> Result<Self, String> {
        Self::all().iter().copied().find(|v| v.name() == text).ok_or_else(|| {
            let names: Vec<&str> = Self::all().iter().map(|v| v.name()).collect();
            format!("{text:?} is not {} (expected {})", Self::WHAT, names.join(", "))
        })
    }
}

/// Declares a site enum: serde and the API document use the same names as the
/// store (each name is its variant in snake case). Each enum declared so has a
/// test of its own, named after it, that holds the names equal
/// (`wire_names_agree`).
macro_rules! named_enum {
    ($(#[$meta:meta])* $what:literal $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $crate::model::Named for $name {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                &[$($name::$variant,)+]
            }
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        // Named after the enum, which a function may be (they are looked up
        // apart), since a macro cannot make a name of its own from it.
        #[cfg(test)]
        #[test]
        #[allow(non_snake_case)]
        fn $name() {
            $crate::model::wire_names_agree::<$name>();
        }
    };
}
pub(crate) use named_enum;

named_enum! {
    /// Where a game stands.
    "a game status" GameStatus {
        /// Being played.
        Active = "active",
        /// Over: see `outcome`.
        Finished = "finished",
        /// Called off before both sides had moved: no result, not rated.
        Aborted = "aborted",
    }
}

named_enum! {
    /// What a notice to a user is about.
    "a kind of notice" NoticeKind {
        /// `from` challenges you.
        Challenge = "challenge",
        /// `from` accepted your challenge: `game` has started.
        Accepted = "accepted",
        /// `from` declined your challenge.
        Declined = "declined",
        /// `game` waits for your move.
        YourMove = "your_move",
        /// `from` declined your draw offer in `game`.
        DrawDeclined = "draw_declined",
        /// `from` offers a rematch of `game`.
        Rematch = "rematch",
        /// `from` sent you a private message.
        Message = "message",
        /// A tournament round has begun: `game` is yours in it.
        TournamentGame = "tournament_game",
        /// `from` made you a member of `study`.
        StudyInvite = "study_invite",
    }
}

named_enum! {
    /// What the computer is doing about its move in a game.
    "a computer state" ComputerState {
        /// Its search is running.
        Thinking = "thinking",
        /// Every engine is busy: its search waits its turn.
        Queued = "queued",
    }
}

named_enum! {
    /// How a user regards another: kept on their buddy list, or ignored.
    "a relation" Relation {
        Buddy = "buddy",
        Ignore = "ignore",
    }
}

impl NoticeKind {
    /// The notice in English words, for clients that do not translate it.
    pub fn text(self, from: &str) -> String {
        match self {
            NoticeKind::Challenge => format!("{from} challenges you"),
            NoticeKind::Accepted => format!("{from} accepted your challenge"),
            NoticeKind::Declined => format!("{from} declined your challenge"),
            NoticeKind::YourMove => "It is your move".to_string(),
            NoticeKind::DrawDeclined => format!("{from} declined your draw offer"),
            NoticeKind::Rematch => format!("{from} offers a rematch"),
            NoticeKind::Message => format!("{from} sent you a message"),
            NoticeKind::TournamentGame => "Your tournament game has started".to_string(),
            NoticeKind::StudyInvite => format!("{from} invited you to a study"),
        }
    }
}

named_enum! {
    /// Where a challenge stands.
    "a challenge status" ChallengeStatus {
        /// Waiting for an answer (or, in the auto-match queue, for a partner).
        Open = "open",
        /// Taken: its game has started.
        Accepted = "accepted",
        /// Withdrawn by its creator or declined by the one challenged.
        Cancelled = "cancelled",
        /// A ladder challenge not accepted in time: the defender lost their place.
        Lapsed = "lapsed",
    }
}

named_enum! {
    /// The side a challenge's creator asks to play.
    "a side" SideChoice {
        Red = "red",
        Black = "black",
        /// Decided by lot when the challenge is accepted.
        Random = "random",
    }
}

named_enum! {
    /// What a player does about a draw.
    "a draw action" DrawAction {
        /// Offer a draw (agreeing, if the opponent has already offered one).
        Offer = "offer",
        Accept = "accept",
        Decline = "decline",
    }
}

named_enum! {
    /// How a move compares with the engine's choice, by how much it lowered the
    /// mover's evaluation (see `domain::analysis::classify`).
    "a move class" MoveClass {
        /// The engine's own choice, or within 60 centipawns of it.
        Good = "good",
        /// Lost 60 to 149 centipawns (`?!`).
        Inaccuracy = "inaccuracy",
        /// Lost 150 to 299 centipawns (`?`).
        Mistake = "mistake",
        /// Lost 300 centipawns or more (`??`).
        Blunder = "blunder",
    }
}

named_enum! {
    /// Where a game review stands.
    "a review status" ReviewStatus {
        /// Being computed: `done` of `total` positions evaluated so far.
        Pending = "pending",
        /// Every position evaluated.
        Done = "done",
    }
}

named_enum! {
    /// Why an analysis ended.
    "a reason an analysis ended" AnalysisEnd {
        /// It reached its time, node or depth limit.
        Limit = "limit",
        /// The same user started another analysis, which stopped this one.
        Replaced = "replaced",
        /// The position is over (checkmate, stalemate or a rule): nothing to search.
        Over = "over",
    }
}

impl SideChoice {
    /// The creator's colour, drawing lots for `Random`.
    pub fn resolve(self, coin: impl FnOnce() -> bool) -> Color {
        match self {
            SideChoice::Red => Color::Red,
            SideChoice::Black => Color::Black,
            SideChoice::Random => {
                if coin() {
                    Color::Red
                } else {
                    Color::Black
                }
            }
        }
    }
}

named_enum! {
    /// How a tournament pairs its players.
    "a tournament format" TournamentFormat {
        /// Everyone meets everyone once (Berger tables, colours alternating).
        RoundRobin = "round_robin",
        /// A stated number of rounds, players of equal score meeting, no one twice.
        Swiss = "swiss",
    }
}

named_enum! {
    /// Where a tournament stands.
    "a tournament status" TournamentStatus {
        /// Taking entries until it starts.
        Signup = "signup",
        /// Its rounds are being played.
        Running = "running",
        /// Over: its standings and crosstable are final.
        Finished = "finished",
        /// Too few players signed up by the start.
        Cancelled = "cancelled",
    }
}

named_enum! {
    /// How one pairing of a tournament round ended.
    "a pairing result" PairingResult {
        /// Red won the game.
        Red = "red",
        /// Black won the game.
        Black = "black",
        Draw = "draw",
        /// A Swiss bye: no opponent, one point.
        Bye = "bye",
        /// Black had withdrawn: red wins without a game.
        RedByForfeit = "red_by_forfeit",
        /// Red had withdrawn: black wins without a game.
        BlackByForfeit = "black_by_forfeit",
    }
}

impl PairingResult {
    /// The result of a game that ended with `winner` (`None`: a draw).
    pub fn of_game(winner: Option<Color>) -> PairingResult {
        match winner {
            Some(Color::Red) => PairingResult::Red,
            Some(Color::Black) => PairingResult::Black,
            None => PairingResult::Draw,
        }
    }

    /// A forfeit won by `winner`.
    pub fn forfeit(winner: Color) -> PairingResult {
        match winner {
            Color::Red => PairingResult::RedByForfeit,
            Color::Black => PairingResult::BlackByForfeit,
        }
    }

    /// Half points for the side `side`: a win 2, a draw 1, a loss 0 (a bye is red's).
    pub fn half_points(self, side: Color) -> i64 {
        match (self, side) {
            (PairingResult::Draw, _) => 1,
            (PairingResult::Bye, Color::Red) => 2,
            (PairingResult::Red | PairingResult::RedByForfeit, Color::Red)
            | (PairingResult::Black | PairingResult::BlackByForfeit, Color::Black) => 2,
            _ => 0,
        }
    }

    /// Whether a game was played over the board (not a bye or a forfeit).
    pub fn played(self) -> bool {
        matches!(self, PairingResult::Red | PairingResult::Black | PairingResult::Draw)
    }
}

named_enum! {
    /// What breaks a tie on points.
    "a tie-break" TieBreak {
        /// Round-robin: the points of the opponents beaten, plus half those of the opponents drawn.
        SonnebornBerger = "sonneborn_berger",
        /// Swiss: the sum of the opponents' points.
        Buchholz = "buchholz",
    }
}

impl TournamentFormat {
    pub fn tiebreak(self) -> TieBreak {
        match self {
            TournamentFormat::RoundRobin => TieBreak::SonnebornBerger,
            TournamentFormat::Swiss => TieBreak::Buchholz,
        }
    }
}

named_enum! {
    /// A pairing's result for one of its players.
    "a player's result" PlayerResult {
        Win = "win",
        Draw = "draw",
        Loss = "loss",
        /// A Swiss bye: one point.
        Bye = "bye",
        /// The opponent had withdrawn: one point without a game.
        ForfeitWin = "forfeit_win",
        /// Withdrawn: the game is lost without being played.
        ForfeitLoss = "forfeit_loss",
    }
}

impl PairingResult {
    /// The result as the player on `side` had it.
    pub fn for_side(self, side: Color) -> PlayerResult {
        match (self, self.half_points(side)) {
            (PairingResult::Bye, _) => PlayerResult::Bye,
            (PairingResult::RedByForfeit | PairingResult::BlackByForfeit, 2) => PlayerResult::ForfeitWin,
            (PairingResult::RedByForfeit | PairingResult::BlackByForfeit, _) => PlayerResult::ForfeitLoss,
            (_, 2) => PlayerResult::Win,
            (_, 1) => PlayerResult::Draw,
            _ => PlayerResult::Loss,
        }
    }
}

/// The rules crate's enums, which carry their own `ALL` and `name`.
macro_rules! named_from_rules {
    ($($ty:ty: $what:literal),+ $(,)?) => {$(
        impl Named for $ty {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                &<$ty>::ALL
            }
            fn name(self) -> &'static str {
                <$ty>::name(self)
            }
        }
    )+};
}

named_from_rules! {
    Color: "a colour",
    RuleSet: "a rule set",
    Reason: "a reason a game ended",
    Variant: "a board",
}

/// What serde writes for each value of `T` is its listed name, which serde
/// and [`Named::parse`] read back to the value.
#[cfg(test)]
pub(crate) fn wire_names_agree<T>()
where
    T: Named + std::fmt::Debug + PartialEq + serde::Serialize + serde::de::DeserializeOwned,
{
    for &v in T::all() {
        let name = v.name();
        let wire = serde_json::to_value(v).unwrap();
        assert_eq!(wire, name, "{} {v:?}: serde writes {wire}, the store {name:?}", T::WHAT);
        let read: T = serde_json::from_value(name.into())
            .unwrap_or_else(|e| panic!("{} {v:?}: serde does not read {name:?}: {e}", T::WHAT));
        assert_eq!(read, v, "{}: serde reads {name:?} as another value", T::WHAT);
        assert_eq!(T::parse(name), Ok(v), "{}: {name:?} parses as another value", T::WHAT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_ones_are_explained() {
        for s in GameStatus::all() {
            assert_eq!(GameStatus::parse(s.name()), Ok(*s));
        }
        for r in RuleSet::all() {
            assert_eq!(<RuleSet as Named>::parse(r.name()), Ok(*r));
        }
        let e = SideChoice::parse("green").unwrap_err();
        assert!(e.contains("red, black, random"), "{e}");
    }
}
