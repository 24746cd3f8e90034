//! Challenges and the waiting room.

use super::*;
use crate::model::challenges::ChallengeRecord;

#[derive(Serialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    pub creator: String,
    /// The one challenged; null for the waiting room.
    pub opponent: Option<String>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The creator's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
    /// An auto-match request waiting for a partner.
    pub auto: bool,
    pub created: i64,
    pub status: ChallengeStatus,
    /// The game it started, once accepted.
    pub game: Option<String>,
    /// The game it offers a rematch of, if it is a rematch.
    pub rematch_of: Option<String>,
    /// Whether its game will be rated.
    pub rated: bool,
    /// The ladder it climbs, for a ladder challenge.
    pub ladder: Option<Category>,
}

impl From<&ChallengeRecord> for ChallengeView {
    fn from(c: &ChallengeRecord) -> Self {
        ChallengeView {
            id: c.id.clone(),
            creator: c.creator.clone(),
            opponent: c.opponent.clone(),
            rules: c.rules,
            color: c.color,
            clock: c.clock,
            auto: c.auto,
            created: c.created_ms,
            status: c.status,
            game: c.game_id.clone(),
            rematch_of: c.rematch_of.clone(),
            rated: c.rated,
            ladder: c.ladder,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ChallengeAnswer {
    pub challenge: ChallengeView,
}

/// Beside a page of the waiting room: the challenges to me and mine.
#[derive(Serialize, ToSchema)]
pub struct MyChallenges {
    /// Challenges to me, oldest first: the first page (`GET /challenges/incoming` walks on).
    pub incoming: Vec<ChallengeView>,
    /// The `after` of the next page of challenges to me; null on the last.
    pub incoming_next: Option<String>,
    /// Mine, auto-match requests included (one holds at most as many open
    /// challenges as the server allows).
    pub outgoing: Vec<ChallengeView>,
}

super::page::listings! {
    /// A user's lobby: open challenges, oldest first: a page of the waiting room,
    /// and at most 100 to and from me.
    LobbyView = WaitingRoom of ChallengeView as "open" with MyChallenges,
        items "Others' challenges to anyone: the waiting room, a page at a time.",
        next "The `after` of the waiting room's next page; null on the last.":
        "A user's lobby: open challenges, oldest first: a page of the waiting room,\nand at most 100 to and from me.";
    /// A page of challenges.
    ChallengePage = Challenges of ChallengeView as "challenges": "A page of challenges.";
}
