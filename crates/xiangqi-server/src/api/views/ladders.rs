//! Ladders: rungs, challenges and results.

use super::*;

/// A place on a ladder.
#[derive(Serialize, ToSchema)]
pub struct RungView {
    /// 1 is the top.
    pub position: i64,
    pub name: String,
    pub joined: i64,
}

/// A ladder result: a game, or a challenge the defender let lapse.
#[derive(Serialize, ToSchema)]
pub struct LadderResultView {
    pub challenger: String,
    pub defender: String,
    /// The challenger won (and took the defender's place).
    pub challenger_won: bool,
    /// The game; null when the challenge lapsed.
    pub game: Option<String>,
    pub at: i64,
}

/// Beside a page of a ladder's places: which ladder, its open challenges, its latest results.
#[derive(Serialize, ToSchema)]
pub struct LadderAround {
    pub category: Category,
    /// Open ladder challenges, oldest first, the first page
    /// (`GET /ladders/{category}/challenges` walks on); each lapses at `expires`.
    pub challenges: Vec<LadderChallengeView>,
    /// The `after` of the next page of challenges; null on the last.
    pub challenges_next: Option<String>,
    /// The latest 20 results, newest first.
    pub results: Vec<LadderResultView>,
}

/// An open ladder challenge.
#[derive(Serialize, ToSchema)]
pub struct LadderChallengeView {
    pub challenge: ChallengeView,
    /// When it counts as lost by the one challenged if not accepted.
    pub expires: i64,
}

/// The place a player took on joining.
#[derive(Serialize, ToSchema)]
pub struct JoinedLadder {
    pub position: i64,
}

super::page::listings! {
    /// A ladder: a page of places from the top, its open challenges, its latest results.
    LadderView = Rungs of RungView as "rungs" with LadderAround,
        next "Pass as `after` for the next page of places; null on the last.":
        "A ladder: a page of places from the top, its open challenges, its latest results.";
    /// A page of a ladder's open challenges.
    LadderChallengePage = LadderChallenges of LadderChallengeView as "challenges": "A page of a ladder's open challenges.";
}
