//! The lobby: challenges to a named player, open challenges in the waiting room,
//! and auto-match (an open challenge that pairs with the next request for the
//! same settings).

use serde_json::{Value, json};
use xiangqi::RuleSet;

use super::{
    Services,
    accounts::new_id,
    clock::ClockSpec,
    games::{Loaded, new_game_row},
    now_ms,
};
use crate::{
    error::{ApiError, ApiResult},
    store::{ChallengeRow, Written},
};

/// What a player asks for.
pub struct Terms {
    pub opponent: Option<String>,
    pub rules: RuleSet,
    /// `red`, `black` or `random`: the creator's side.
    pub color: String,
    pub clock: ClockSpec,
}

pub fn challenge_json(c: &ChallengeRow) -> Value {
    json!({
        "id": c.id, "creator": c.creator, "opponent": c.opponent, "rules": c.rules, "color": c.color,
        "clock": ClockSpec::from_columns(&c.clock_kind, c.days, c.base_ms, c.increment_ms),
        "auto": c.auto, "created": c.created_ms, "status": c.status, "game": c.game_id,
    })
}

fn check_terms(t: &Terms) -> ApiResult<()> {
    if !matches!(t.color.as_str(), "red" | "black" | "random") {
        return Err(ApiError::bad_request("color is red, black or random"));
    }
    if t.rules == RuleSet::Hex {
        return Err(ApiError::bad_request(
            "the server plays standard Xiangqi: rules are asian, itsyourturn or casual",
        ));
    }
    t.clock.check()?;
    Ok(())
}

impl Services {
    pub async fn create_challenge(&self, creator: &str, terms: Terms, auto: bool) -> ApiResult<ChallengeRow> {
        check_terms(&terms)?;
        let opponent = match &terms.opponent {
            Some(name) => {
                let user = self
                    .store
                    .user(name)
                    .await?
                    .ok_or_else(|| ApiError::not_found(format!("no user {name:?}")))?;
                if user.name == creator {
                    return Err(ApiError::bad_request("you cannot challenge yourself"));
                }
                Some(user.name)
            }
            None => None,
        };
        let (kind, days, base, increment) = terms.clock.columns();
        let row = ChallengeRow {
            id: new_id(),
            creator: creator.to_string(),
            opponent,
            rules: terms.rules.to_string(),
            color: terms.color,
            clock_kind: kind.to_string(),
            days,
            base_ms: base,
            increment_ms: increment,
            auto,
            status: "open".into(),
            game_id: None,
            created_ms: now_ms(),
        };
        self.store.insert_challenge(&row).await?;
        if let Some(o) = &row.opponent {
            self.notify(o, &format!("{creator} challenges you"), None).await;
        }
        Ok(row)
    }

    /// Accepts a challenge: starts the game. Of two accepting at once one wins.
    pub async fn accept_challenge(&self, user: &str, id: &str) -> ApiResult<Loaded> {
        let c = self
            .store
            .challenge(id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no challenge {id:?}")))?;
        if c.creator == user {
            return Err(ApiError::forbidden("you cannot accept your own challenge"));
        }
        if c.opponent.as_deref().is_some_and(|o| o != user) {
            return Err(ApiError::forbidden("this challenge is for someone else"));
        }
        if c.status != "open" {
            return Err(ApiError::conflict("the challenge is no longer open"));
        }
        let creator_red = match c.color.as_str() {
            "red" => true,
            "black" => false,
            _ => rand::random::<bool>(),
        };
        let (red, black) = if creator_red { (c.creator.as_str(), user) } else { (user, c.creator.as_str()) };
        let rules: RuleSet = c.rules.parse().map_err(ApiError::internal)?;
        let clock = ClockSpec::from_columns(&c.clock_kind, c.days, c.base_ms, c.increment_ms);
        let row = new_game_row(new_id(), red, black, rules, clock, now_ms());
        if self.store.accept_challenge(id, &row).await? == Written::Stale {
            return Err(ApiError::conflict("the challenge was taken or cancelled meanwhile"));
        }
        self.notify(&c.creator, &format!("{user} accepted your challenge"), Some(&row.id)).await;
        let loaded = self.load_game(&row.id).await?;
        self.publish_game(&row.id).await;
        Ok(loaded)
    }

    /// The creator cancels, or the named opponent declines.
    pub async fn close_challenge(&self, user: &str, id: &str) -> ApiResult<()> {
        let c = self
            .store
            .challenge(id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no challenge {id:?}")))?;
        if c.creator != user && c.opponent.as_deref() != Some(user) {
            return Err(ApiError::forbidden(
                "only its creator or the challenged player can close a challenge",
            ));
        }
        if self.store.close_challenge(id).await? == Written::Stale {
            return Err(ApiError::conflict("the challenge is no longer open"));
        }
        if c.creator != user {
            self.notify(&c.creator, &format!("{user} declined your challenge"), None).await;
        }
        Ok(())
    }

    /// Pairs with someone waiting for the same settings, or joins the queue.
    pub async fn automatch(
        &self,
        user: &str,
        rules: RuleSet,
        clock: ClockSpec,
    ) -> ApiResult<Result<Loaded, ChallengeRow>> {
        let terms = Terms { opponent: None, rules, color: "random".into(), clock };
        check_terms(&terms)?;
        let (kind, days, base, increment) = clock.columns();
        let probe = ChallengeRow {
            id: String::new(),
            creator: user.to_string(),
            opponent: None,
            rules: rules.to_string(),
            color: "random".into(),
            clock_kind: kind.into(),
            days,
            base_ms: base,
            increment_ms: increment,
            auto: true,
            status: "open".into(),
            game_id: None,
            created_ms: 0,
        };
        // Someone else may take the same partner at the same moment: try the next.
        for _ in 0..5 {
            let Some(partner) = self.store.auto_partner(&probe).await? else { break };
            match self.accept_challenge(user, &partner.id).await {
                Ok(game) => return Ok(Ok(game)),
                Err(e) if e.code == "conflict" => continue,
                Err(e) => return Err(e),
            }
        }
        let waiting = self.store.open_challenges().await?.into_iter().find(|c| {
            c.auto
                && c.creator == user
                && c.rules == probe.rules
                && c.clock_kind == probe.clock_kind
                && c.days == days
                && c.base_ms == base
                && c.increment_ms == increment
        });
        match waiting {
            Some(c) => Ok(Err(c)),
            None => Ok(Err(self.create_challenge(user, terms, true).await?)),
        }
    }
}
