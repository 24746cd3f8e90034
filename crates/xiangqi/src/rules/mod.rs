//! Named rule sets. The seeds agree on how pieces move but not on how a game ends
//! when it repeats, so each reading is a value a game carries, not a hard-coded
//! choice.
//!
//! | rule set | repetition | check limit | chase | no-attacker draw | move limit |
//! |---|---|---|---|---|---|
//! | `itsyourturn` | none | 4th check by one piece illegal | two-point rule | yes | off |
//! | `asian` | at the 3rd occurrence: a sole perpetual checker or chaser loses, else draw | – | judged in the repetition, per threatened piece | yes | 120 plies |
//! | `casual` | the 3rd occurrence is a draw | – | – | yes | 120 plies |
//! | `hex` | recreating an earlier position loses | – | – | yes | off |
//!
//! Stalemate loses and the generals may never face each other in every rule set:
//! all five seeds agree on both.

pub mod chase;
mod repetition;

use std::{fmt, str::FromStr};

pub(crate) use repetition::judge;
pub use repetition::{CyclePly, perpetual};

/// A named rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Exactly the play-site seed (`001`): "One player may not put the other player
    /// in check four turns in a row by moving the same piece each turn", its
    /// two-point perpetual-chase rule as written, and "Chinese Chess ends in a draw
    /// when both players have only Elephants and Advisers … in addition to their
    /// Kings". It says nothing of repeated positions or a move limit, so neither
    /// ends a game.
    ItsYourTurn,
    /// The competition (AXF) reading of seeds `000` and `004` ("perpetual check or
    /// perpetual attack is not allowed: the player forcing the repetition must do
    /// something else"): when a position occurs for the third time, a side that
    /// checked with every move of the repetition loses, else a side that chased the
    /// same unprotected piece with every move loses; if both or neither offend, the
    /// game is drawn. Draw after 120 plies without a capture.
    ///
    /// A chase is a new threat to a piece, not a new threat by an attacker: the
    /// Asian rules call a chase a move that *creates* a threat to capture, so a move
    /// chases a piece only if the mover did not already threaten it before the
    /// move, whichever piece made that threat (as Pikafish judges it; see
    /// [`chase`]). A chariot that steps along keeping its threat on a horse does
    /// not chase it, nor does a horse that attacks a chariot a cannon already
    /// attacked.
    #[default]
    Asian,
    /// Friendly play: the third occurrence of a position is a draw; draw after
    /// 120 plies without a capture.
    Casual,
    /// Xiang Hex (seed `003`): "A player loses if stalemate or repetition of
    /// position. If both players have no pieces which can cross the river, the game
    /// is drawn." The player who recreates an earlier position loses.
    Hex,
}

impl RuleSet {
    /// Every named rule set.
    pub const ALL: [RuleSet; 4] = [RuleSet::ItsYourTurn, RuleSet::Asian, RuleSet::Casual, RuleSet::Hex];

    /// The rule set's lower-case name, which [`str::parse`] reads back.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::ItsYourTurn => "itsyourturn",
            RuleSet::Asian => "asian",
            RuleSet::Casual => "casual",
            RuleSet::Hex => "hex",
        }
    }

    /// The board this rule set is written for: the hex rules for Xiang Hex,
    /// the others for the standard board.
    pub fn variant(self) -> crate::Variant {
        match self {
            RuleSet::Hex => crate::Variant::Hex,
            RuleSet::ItsYourTurn | RuleSet::Asian | RuleSet::Casual => crate::Variant::Standard,
        }
    }

    /// The rules this name stands for.
    pub fn rules(self) -> Rules {
        match self {
            RuleSet::ItsYourTurn => Rules {
                repetition: Repetition::Ignored,
                check_limit: Some(4),
                two_point_chase: true,
                no_attackers_draw: true,
                move_limit: None,
            },
            RuleSet::Asian => Rules {
                repetition: Repetition::Perpetual { occurrences: 3 },
                check_limit: None,
                two_point_chase: false,
                no_attackers_draw: true,
                move_limit: Some(120),
            },
            RuleSet::Casual => Rules {
                repetition: Repetition::Draw { occurrences: 3 },
                check_limit: None,
                two_point_chase: false,
                no_attackers_draw: true,
                move_limit: Some(120),
            },
            RuleSet::Hex => Rules {
                repetition: Repetition::RecreatorLoses { occurrences: 2 },
                check_limit: None,
                two_point_chase: false,
                no_attackers_draw: true,
                move_limit: None,
            },
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown rule set {s:?} (expected itsyourturn, asian, casual or hex)"))
    }
}

/// What a repeated position means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Repetition ends nothing.
    Ignored,
    /// The n-th occurrence of a position is a draw.
    Draw {
        /// The occurrence that counts (3 for the third).
        occurrences: u32,
    },
    /// At the n-th occurrence the repetition is judged: perpetual check, then
    /// perpetual chase, loses for a sole offender; anything else draws.
    Perpetual {
        /// The occurrence that counts (3 for the third).
        occurrences: u32,
    },
    /// The player whose move makes a position occur for the n-th time loses.
    RecreatorLoses {
        /// The occurrence that counts (3 for the third).
        occurrences: u32,
    },
}

/// The rules a game is played under; [`RuleSet::rules`] gives the named ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// What a repeated position means.
    pub repetition: Repetition,
    /// A move that would be the n-th check in a row given by moving the same
    /// piece is illegal.
    pub check_limit: Option<u32>,
    /// The play-site seed's two-point perpetual-chase rule.
    pub two_point_chase: bool,
    /// Draw when neither side has a piece that can ever cross the river.
    pub no_attackers_draw: bool,
    /// Draw after this many plies without a capture.
    pub move_limit: Option<u32>,
}

impl Rules {
    /// No rule beyond the board's own: only mate and stalemate end a game. For a
    /// record of moves that another program judges, such as the moves an engine
    /// protocol's `position` command gives.
    pub const BOARD_ONLY: Rules = Rules {
        repetition: Repetition::Ignored,
        check_limit: None,
        two_point_chase: false,
        no_attackers_draw: false,
        move_limit: None,
    };
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<crate::Color>,
    /// Why it ended.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `winner`.
    pub fn win(winner: crate::Color, reason: Reason) -> Outcome {
        Outcome { winner: Some(winner), reason }
    }

    /// A draw.
    pub fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// `1-0`, `0-1` or `1/2-1/2`, as game records write it.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(crate::Color::Red) => "1-0",
            Some(crate::Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{} wins: {}", capitalised(c.name()), self.reason),
            None => write!(f, "Draw: {}", self.reason),
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move (it loses).
    Checkmate,
    /// The side to move has no legal move without being in check (it loses).
    Stalemate,
    /// A repetition judged perpetual check (the checking side loses).
    PerpetualCheck,
    /// A repetition judged perpetual chase (the chasing side loses).
    PerpetualChase,
    /// A repeated position: a draw, or under the hex rules a loss for the side that recreated it.
    Repetition,
    /// Neither side has a piece that can cross the river.
    NoAttackers,
    /// The rule set's number of plies without a capture passed.
    MoveLimit,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    TimeForfeit,
    /// The players agreed to a draw.
    Agreement,
}

impl Reason {
    /// A stable lower-case name (`"checkmate"`, `"perpetual_check"`) for storage and APIs.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::PerpetualChase => "perpetual_chase",
            Reason::Repetition => "repetition",
            Reason::NoAttackers => "no_attackers",
            Reason::MoveLimit => "move_limit",
            Reason::Resignation => "resignation",
            Reason::TimeForfeit => "time_forfeit",
            Reason::Agreement => "agreement",
        }
    }

    /// Every reason.
    pub const ALL: [Reason; 10] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::Repetition,
        Reason::NoAttackers,
        Reason::MoveLimit,
        Reason::Resignation,
        Reason::TimeForfeit,
        Reason::Agreement,
    ];
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Reason::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| format!("unknown reason {s:?}"))
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate (no legal move)",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition of position",
            Reason::NoAttackers => "neither side can cross the river",
            Reason::MoveLimit => "move limit without a capture",
            Reason::Resignation => "resignation",
            Reason::TimeForfeit => "time forfeit",
            Reason::Agreement => "agreement",
        })
    }
}
