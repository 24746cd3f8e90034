//! The lobby: challenges to a named player, open challenges in the waiting room,
//! and auto-match (an open challenge that pairs with the next request for the
//! same settings).

use std::sync::Arc;

use xiangqi::{Color, RuleSet, Variant};

use super::{
    accounts::{self, new_id},
    board::{rules_fit, variant_of},
    computer::{self, Computer},
    events::Events,
    games::Games,
    games::{Loaded, new_game_row},
    limits::Quotas,
    refusal::{ErrorCode, Refusal, Result},
};

use crate::model::challenges::ChallengeRecord;
use crate::model::page::{Page, Paged};
use crate::model::{
    clock::ClockSpec,
    ratings::Category,
    {ChallengeStatus, NoticeKind, SideChoice},
};
use crate::store::{Lobby as Lists, Store, Written};

/// What a player asks for.
#[derive(Clone, Debug)]
pub struct Terms {
    pub opponent: Option<String>,
    pub variant: Variant,
    pub rules: RuleSet,
    /// The creator's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
    /// The game this challenge offers a rematch of.
    pub rematch_of: Option<String>,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The ladder a ladder challenge climbs.
    pub ladder: Option<Category>,
}

fn check_terms(t: &Terms) -> Result<()> {
    if !rules_fit(t.variant, t.rules) {
        return Err(Refusal::RulesMismatch { variant: t.variant, rules: t.rules }.into());
    }
    t.clock.check()?;
    Ok(())
}

/// An auto-match request has no opponent and no side: the pairing decides.
fn auto_terms(variant: Variant, rules: RuleSet, clock: ClockSpec, rated: bool) -> Terms {
    Terms {
        opponent: None,
        variant,
        rules,
        color: SideChoice::Random,
        clock,
        rematch_of: None,
        rated,
        ladder: None,
    }
}

/// The lobby: challenges, the waiting room, auto-match and rematches.
pub struct Lobby {
    store: Store,
    events: Events,
    quotas: Arc<Quotas>,
    games: Arc<Games>,
    computer: Arc<Computer>,
    /// Auto-match requests are paired one at a time (see [`Lobby::automatch`]).
    pairing: tokio::sync::Mutex<()>,
}

impl Lobby {
    pub fn new(
        store: Store,
        events: Events,
        quotas: Arc<Quotas>,
        games: Arc<Games>,
        computer: Arc<Computer>,
    ) -> Self {
        Lobby { store, events, quotas, games, computer, pairing: tokio::sync::Mutex::new(()) }
    }

    /// Offers the opponent a rematch of a game that is over: the same rules and
    /// clock with colours swapped. If the opponent has already offered one, it is
    /// accepted and the new game starts (`Ok`); else the offer waits (`Err`).
    pub async fn rematch(&self, user: &str, id: &str, now: i64) -> Result<Result<Loaded, ChallengeRecord>> {
        self.quotas.may_challenge(user, now).await?;
        let loaded = self.games.load_game(id).await?;
        let me = loaded.color_of(user).ok_or(Refusal::NotPlaying {})?;
        if loaded.is_active() {
            return Err(Refusal::GameNotOver {}.into());
        }
        let opponent = loaded.player(!me).to_string();
        if let Some(level) = computer::level_of(&opponent) {
            // The computer always takes a rematch: the new game starts now.
            let level = level.number();
            let color = if me == Color::Red { SideChoice::Black } else { SideChoice::Red };
            let terms = (loaded.row.variant, loaded.row.rules);
            return Ok(Ok(self
                .computer
                .play_computer(user, level, terms, None, color, loaded.row.clock, now)
                .await?));
        }
        // Both players asking at once must meet in one game, not leave two
        // crossing offers: one asks at a time, and the second finds the first's.
        let held = self.store.exclusive(&format!("xiangqi:rematch:{id}")).await?;
        let answer = self.rematch_in_turn(user, &loaded, me, opponent, now).await;
        held.release().await;
        answer
    }

    async fn rematch_in_turn(
        &self,
        user: &str,
        loaded: &Loaded,
        me: Color,
        opponent: String,
        now: i64,
    ) -> Result<Result<Loaded, ChallengeRecord>> {
        let id = loaded.row.id.as_str();
        if let Some(theirs) = self.store.rematch_from(id, &opponent).await? {
            return Ok(Ok(self.accept_challenge(user, &theirs.id, now).await?));
        }
        if let Some(mine) = self.store.rematch_from(id, user).await? {
            return Ok(Err(mine));
        }
        let terms = Terms {
            opponent: Some(opponent),
            variant: loaded.row.variant,
            rules: loaded.row.rules,
            color: if me == Color::Red { SideChoice::Black } else { SideChoice::Red },
            clock: loaded.row.clock,
            rematch_of: Some(id.to_string()),
            rated: loaded.row.rated,
            ladder: None,
        };
        Ok(Err(self.create_challenge(user, terms, false, now).await?))
    }

    /// Whether a new challenge is rated: as asked, else the player's default.
    pub async fn rated_or_default(&self, user: &str, asked: Option<bool>) -> Result<bool> {
        match asked {
            Some(rated) => Ok(rated),
            None => Ok(accounts::user(&self.store, user).await?.rated_by_default),
        }
    }

    pub async fn create_challenge(
        &self,
        creator: &str,
        terms: Terms,
        auto: bool,
        now: i64,
    ) -> Result<ChallengeRecord> {
        check_terms(&terms)?;
        let opponent = match &terms.opponent {
            Some(name) => {
                let user = self.store.user(name).await?.ok_or_else(|| super::accounts::no_user(name))?;
                if user.name == creator {
                    return Err(Refusal::Yourself {}.into());
                }
                if user.computer.is_some() {
                    return Err(Refusal::ComputerTakesNoChallenges {}.into());
                }
                if self.store.ignoring(&user.name, creator).await? {
                    return Err(Refusal::CannotChallenge {}.into());
                }
                Some(user.name)
            }
            None => None,
        };
        let row = ChallengeRecord {
            id: new_id(),
            creator: creator.to_string(),
            opponent,
            rules: terms.rules,
            color: terms.color,
            clock: terms.clock,
            auto,
            status: ChallengeStatus::Open,
            game_id: None,
            rematch_of: terms.rematch_of,
            rated: terms.rated,
            ladder: terms.ladder,
            expires_ms: terms.ladder.map(|_| now + super::ladders::ANSWER_MS),
            created_ms: now,
        };
        let mut turn = self.quotas.challenge_turn(creator, now).await?;
        if !auto && self.store.same_challenge(&mut turn, &row).await?.is_some() {
            return Err(Refusal::DuplicateChallenge {}.into());
        }
        self.store.insert_challenge(&mut turn, &row).await?;
        turn.done().await?;
        if let Some(o) = &row.opponent {
            let kind = if row.rematch_of.is_some() { NoticeKind::Rematch } else { NoticeKind::Challenge };
            self.events.notify(o, kind, Some(creator), row.rematch_of.as_deref()).await;
        }
        self.events.lobby_changed().await;
        Ok(row)
    }

    /// Accepts a challenge: starts the game. Of two accepting at once one wins.
    pub async fn accept_challenge(&self, user: &str, id: &str, now: i64) -> Result<Loaded> {
        let c = self.store.challenge(id).await?.ok_or_else(|| Refusal::NoChallenge { id: id.to_string() })?;
        if c.creator == user {
            return Err(Refusal::OwnChallenge {}.into());
        }
        if c.opponent.as_deref().is_some_and(|o| o != user) {
            return Err(Refusal::NotYourChallenge {}.into());
        }
        if c.status != ChallengeStatus::Open || c.expires_ms.is_some_and(|at| now > at) {
            return Err(Refusal::ChallengeClosed {}.into());
        }
        if self.store.ignoring(&c.creator, user).await? {
            return Err(Refusal::CannotChallenge {}.into());
        }
        let creator = c.color.resolve(rand::random::<bool>);
        let (red, black) = if creator == xiangqi::Color::Red {
            (c.creator.as_str(), user)
        } else {
            (user, c.creator.as_str())
        };
        let mut row = new_game_row(new_id(), red, black, (variant_of(c.rules), c.rules), c.clock, now);
        row.rated = c.rated;
        row.ladder = c.ladder.map(|category| (category, c.creator.clone()));
        if self.store.accept_challenge(id, &row).await? == Written::Stale {
            return Err(Refusal::ChallengeClosed {}.into());
        }
        self.events.notify(&c.creator, NoticeKind::Accepted, Some(user), Some(&row.id)).await;
        self.events.lobby_changed().await;
        let loaded = self.games.load_game(&row.id).await?;
        self.events.publish_game(&loaded).await;
        Ok(loaded)
    }

    /// The creator cancels, or the named opponent declines.
    pub async fn close_challenge(&self, user: &str, id: &str) -> Result<()> {
        let c = self.store.challenge(id).await?.ok_or_else(|| Refusal::NoChallenge { id: id.to_string() })?;
        if c.creator != user && c.opponent.as_deref() != Some(user) {
            return Err(Refusal::NotYourChallenge {}.into());
        }
        if self.store.close_challenge(id).await? == Written::Stale {
            return Err(Refusal::ChallengeClosed {}.into());
        }
        if c.creator != user {
            self.events.notify(&c.creator, NoticeKind::Declined, Some(user), c.rematch_of.as_deref()).await;
        }
        self.events.lobby_changed().await;
        Ok(())
    }

    /// Pairs with someone waiting for the same settings, or joins the queue;
    /// `rated` unless asked is the user's default.
    pub async fn automatch(
        &self,
        user: &str,
        (variant, rules): (Variant, RuleSet),
        clock: ClockSpec,
        rated: Option<bool>,
        now: i64,
    ) -> Result<Result<Loaded, ChallengeRecord>> {
        self.quotas.may_challenge(user, now).await?;
        let rated = self.rated_or_default(user, rated).await?;
        let terms = auto_terms(variant, rules, clock, rated);
        check_terms(&terms)?;
        // One request at a time looks for a partner and, finding none, waits:
        // two that came at once, on one instance or two, would otherwise each
        // find the other not yet waiting and both wait.
        let _here = self.pairing.lock().await;
        let held = self.store.lock("xiangqi:automatch").await?;
        let paired = self.pair_or_wait(user, terms, now).await;
        held.release().await;
        paired
    }

    async fn pair_or_wait(
        &self,
        user: &str,
        terms: Terms,
        now: i64,
    ) -> Result<Result<Loaded, ChallengeRecord>> {
        let (rules, clock, rated) = (terms.rules, terms.clock, terms.rated);
        // Someone else may take the same partner at the same moment: try the next.
        for _ in 0..5 {
            let Some(partner) = self.store.auto_request(user, rules, clock, rated, false).await? else {
                break;
            };
            match self.accept_challenge(user, &partner.id, now).await {
                Ok(game) => return Ok(Ok(game)),
                Err(e) if e.code() == ErrorCode::Conflict => continue,
                Err(e) => return Err(e),
            }
        }
        match self.store.auto_request(user, rules, clock, rated, true).await? {
            Some(waiting) => Ok(Err(waiting)),
            None => Ok(Err(self.create_challenge(user, terms, true, now).await?)),
        }
    }
}

/// The waiting room as a viewer sees it and, for a user, the challenges to and
/// from them (the first page of each).
pub struct LobbyLists {
    pub room: Paged<ChallengeRecord>,
    pub incoming: Paged<ChallengeRecord>,
    pub outgoing: Vec<ChallengeRecord>,
}

/// A challenge as a player proposes it; `rated` unless asked is the player's default.
pub struct Proposal {
    pub opponent: Option<String>,
    pub variant: Variant,
    pub rules: RuleSet,
    pub color: SideChoice,
    pub clock: ClockSpec,
    pub rated: Option<bool>,
}

impl Lobby {
    /// A player's challenge, to someone or to the waiting room, if they may make one now.
    pub async fn propose(&self, creator: &str, p: Proposal, now: i64) -> Result<ChallengeRecord> {
        self.quotas.may_challenge(creator, now).await?;
        let terms = Terms {
            opponent: p.opponent.filter(|o| !o.is_empty()),
            variant: p.variant,
            rules: p.rules,
            color: p.color,
            clock: p.clock,
            rematch_of: None,
            ladder: None,
            rated: self.rated_or_default(creator, p.rated).await?,
        };
        self.create_challenge(creator, terms, false, now).await
    }

    /// The lobby for `viewer` (a visitor: the waiting room alone).
    pub async fn lobby_lists(&self, viewer: Option<&str>, page: &Page) -> Result<LobbyLists> {
        // No account has an empty name: a visitor's room is everyone's open challenges.
        let room = self.store.lobby(viewer.unwrap_or(""), Lists::Room, page).await?;
        let Some(user) = viewer else {
            return Ok(LobbyLists {
                room,
                incoming: Paged { items: Vec::new(), next: None },
                outgoing: Vec::new(),
            });
        };
        let first = Page::first(Page::MAX);
        let incoming = self.store.lobby(user, Lists::Incoming, &first).await?;
        let outgoing = self.store.lobby(user, Lists::Outgoing, &first).await?.items;
        Ok(LobbyLists { room, incoming, outgoing })
    }

    /// A page of the challenges to `user`, oldest first.
    pub async fn incoming(&self, user: &str, page: &Page) -> Result<Paged<ChallengeRecord>> {
        Ok(self.store.lobby(user, Lists::Incoming, page).await?)
    }
}
