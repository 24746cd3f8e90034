//! Ladders, one per rating category. A player joins at the bottom and
//! challenges someone at most 20 places above; each player is in at most 2 open
//! challenges of a ladder. The one challenged must accept within 3 days, or the
//! challenge counts as lost by them. A challenger who wins takes the defender's
//! place, and everyone between moves down one; a defender who wins (or draws)
//! keeps their place.

use std::sync::Arc;

use super::{
    accounts,
    board::default_rules,
    events::Events,
    limits::Quotas,
    lobby::{Lobby, Terms},
    refusal::{Refusal, Result},
};

use crate::model::challenges::ChallengeRecord;
use crate::model::page::{Page, Paged};
use crate::model::{
    SideChoice,
    clock::{ClockSpec, DAY_MS},
    ratings::Category,
};
use crate::store::{LadderResultRow, RungRow, Store, Written};

/// How far above themselves a player may challenge.
pub const REACH: i64 = 20;
/// Open challenges a player may be in, per ladder.
pub const MAX_OPEN: i64 = 2;
/// How long the one challenged has to accept.
pub const ANSWER_MS: i64 = 3 * DAY_MS;

/// Whether a player at `challenger` may challenge one at `defender` (1 is the top).
pub fn may_challenge(challenger: i64, defender: i64) -> Result<(), Refusal> {
    if defender >= challenger {
        return Err(Refusal::LadderUpward {});
    }
    if challenger - defender > REACH {
        return Err(Refusal::LadderReach { reach: REACH });
    }
    Ok(())
}

/// The time control of a ladder's games.
fn ladder_clock(category: Category) -> ClockSpec {
    match category {
        Category::StandardCorrespondence | Category::HexCorrespondence => {
            ClockSpec::Correspondence { hours: 72 }
        }
        Category::StandardLive | Category::HexLive => ClockSpec::Live { base: 600_000, increment: 5_000 },
    }
}

/// The rating ladders: joining one and challenging those above.
pub struct Ladders {
    store: Store,
    events: Events,
    quotas: Arc<Quotas>,
    lobby: Arc<Lobby>,
}

impl Ladders {
    pub fn new(store: Store, events: Events, quotas: Arc<Quotas>, lobby: Arc<Lobby>) -> Self {
        Ladders { store, events, quotas, lobby }
    }

    pub async fn open_ladder_challenges(
        &self,
        category: Category,
        page: &Page,
    ) -> Result<Paged<ChallengeRecord>> {
        Ok(self.store.open_ladder_challenges(category, page).await?)
    }

    /// Joins a ladder at the bottom; the place taken.
    pub async fn join_ladder(&self, user: &str, category: Category, now: i64) -> Result<i64> {
        let place = self.store.join_ladder(category, user, now).await?.ok_or(Refusal::OnLadder {})?;
        // Open ladder pages redraw on lobby events.
        self.events.lobby_changed().await;
        Ok(place)
    }

    /// Challenges a player higher on a ladder.
    pub async fn ladder_challenge(
        &self,
        user: &str,
        category: Category,
        defender: &str,
        now: i64,
    ) -> Result<ChallengeRecord> {
        self.quotas.may_challenge(user, now).await?;
        let defender = accounts::user(&self.store, defender).await?.name;
        let place = |who: &str| {
            let who = who.to_string();
            async move { self.store.ladder_position(category, &who).await }
        };
        let mine = place(user).await?.ok_or(Refusal::JoinLadderFirst {})?;
        let theirs =
            place(&defender).await?.ok_or_else(|| Refusal::NotOnLadder { name: defender.clone() })?;
        may_challenge(mine, theirs)?;
        for who in [user, defender.as_str()] {
            if self.store.open_ladder_challenges_of(category, who).await? >= MAX_OPEN {
                return Err(Refusal::LadderBusy { name: who.to_string(), allowed: MAX_OPEN }.into());
            }
        }
        let terms = Terms {
            opponent: Some(defender),
            variant: category.variant(),
            rules: default_rules(category.variant()),
            color: SideChoice::Random,
            clock: ladder_clock(category),
            rematch_of: None,
            rated: true,
            ladder: Some(category),
        };
        self.lobby.create_challenge(user, terms, false, now).await
    }

    /// Ladder challenges not accepted in time count as lost by the one who let
    /// them lapse. Each is claimed in the database first, so with several
    /// instances running this, each lapse is applied exactly once.
    pub async fn lapse_ladder_challenges(&self, now: i64) -> Result<usize> {
        let mut applied = 0;
        for c in self.store.lapsed_ladder_challenges(now).await? {
            let (Some(category), Some(defender)) = (c.ladder, c.opponent.clone()) else { continue };
            let result = LadderResultRow {
                challenger: c.creator.clone(),
                defender,
                challenger_won: true,
                game: None,
                at_ms: c.expires_ms.unwrap_or(now),
            };
            if self.store.ladder_result(category, &result, Some(&c.id)).await? == Written::Done {
                applied += 1;
            }
        }
        if applied > 0 {
            self.events.lobby_changed().await;
        }
        Ok(applied)
    }
}

/// A ladder as its page shows it: a page of its rungs, its open challenges
/// and its latest results.
pub struct LadderPage {
    pub rungs: Paged<RungRow>,
    pub challenges: Paged<ChallengeRecord>,
    pub results: Vec<LadderResultRow>,
}

/// How many of a ladder's latest results its page shows.
pub const SHOWN_RESULTS: u32 = 20;

impl Ladders {
    pub async fn ladder_page(&self, category: Category, page: &Page) -> Result<LadderPage> {
        let (store, first) = (&self.store, Page::first(Page::MAX));
        let (rungs, challenges, results) = tokio::try_join!(
            store.ladder(category, page),
            store.open_ladder_challenges(category, &first),
            store.ladder_results(category, SHOWN_RESULTS),
        )?;
        Ok(LadderPage { rungs, challenges, results })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_goes_up_at_most_twenty_places() {
        assert!(may_challenge(21, 1).is_ok());
        assert!(may_challenge(22, 1).is_err());
        assert!(may_challenge(2, 1).is_ok());
        assert!(may_challenge(1, 2).is_err(), "not downwards");
        assert!(may_challenge(3, 3).is_err(), "not oneself");
    }
}
