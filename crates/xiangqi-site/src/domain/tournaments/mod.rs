//! Tournaments. Anyone may create one: a name, a rating category, a rule set,
//! a time control, a format (round-robin, or Swiss over a stated number of
//! rounds), how many players at least and at most, and a start time (or "when
//! full"). Players sign up and may leave freely until the start.
//!
//! The server runs them by itself. At the start the entrants are seeded by
//! their rating in the category, a round-robin's whole schedule is drawn and a
//! Swiss's first round paired, and the first round's games begin; when every
//! game of a round has ended the next round is paired and begun, and after the
//! last the tournament is finished, its standings and crosstable kept. Too few
//! players at the start time cancel it.
//!
//! A player who withdraws after the start resigns the game they are playing;
//! in a round-robin their later games are forfeited (one point to each
//! opponent, none to them); in a Swiss they are not paired again. A game lost
//! on time ends like any other, and a correspondence deadline nobody claims is
//! enforced by the background task, so a round never waits for ever.
//!
//! Every step (start, next round, finish) is one transaction whose first write
//! is a conditional update of the tournament's version: with several server
//! instances on one database each step happens exactly once, and since all the
//! state is in the database a restarted server carries on where it stood.

pub mod pairing;
pub mod standings;

use std::{collections::HashMap, sync::Arc};

use xiangqi::{Color, Outcome, Reason, RuleSet};

use self::{
    pairing::{Entrant, Round, Strictness},
    standings::{Settled, Standing},
};
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};
use crate::model::tournaments::TournamentRecord;
use crate::store::{EntrantRow, Exclusive, PairingRow, SignUp, Start, Store, TournamentStep, Written};
use crate::{
    domain::{
        accounts::new_id,
        board::rules_fit,
        events::Events,
        games::{Games, new_game_row},
        limits::Quotas,
        refusal::{Error, Refusal, Result, TextField},
    },
    model::{
        GameStatus, NoticeKind, PairingResult, TournamentFormat, TournamentStatus,
        clock::{ClockSpec, DAY_MS},
        ratings::Category,
    },
};

/// The lock a tournament's steps and its games' ends take.
fn lock_name(id: &str) -> String {
    format!("xiangqi:tournament:{id}")
}

/// The fewest players a tournament may be planned for.
pub const MIN_PLAYERS: i64 = 3;
/// The most players a Swiss may take.
pub const MAX_PLAYERS: i64 = 64;
/// The most players a round-robin may take (it lasts one round fewer).
pub const MAX_ROUND_ROBIN_PLAYERS: i64 = 20;
/// The longest a name may be, in characters.
pub const MAX_NAME: usize = 80;
/// How far ahead a start may be set.
pub const MAX_START_AHEAD_MS: i64 = 90 * DAY_MS;

/// What a tournament's creator decides.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub category: Category,
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub format: TournamentFormat,
    /// Swiss only.
    pub rounds: Option<i64>,
    pub min_players: i64,
    pub max_players: i64,
    /// None: when full.
    pub starts_ms: Option<i64>,
}

/// Refuses a plan the site cannot run, saying why.
pub fn check_plan(plan: &Plan, now: i64) -> Result<(), Refusal> {
    let length = plan.name.trim().chars().count();
    if length == 0 || length > MAX_NAME {
        return Err(Refusal::TextLength { field: TextField::TournamentName, min: 1, max: MAX_NAME as u32 });
    }
    if !rules_fit(plan.category.variant(), plan.rules) {
        return Err(Refusal::RulesMismatch { variant: plan.category.variant(), rules: plan.rules });
    }
    plan.clock.check()?;
    if Category::of(plan.category.variant(), plan.clock) != plan.category {
        return Err(Refusal::PaceMismatch { pace: plan.clock.pace() });
    }
    let most = match plan.format {
        TournamentFormat::RoundRobin => MAX_ROUND_ROBIN_PLAYERS,
        TournamentFormat::Swiss => MAX_PLAYERS,
    };
    if plan.min_players < MIN_PLAYERS || plan.min_players > plan.max_players || plan.max_players > most {
        return Err(Refusal::PlayerCount { min: MIN_PLAYERS as u32, max: most as u32 });
    }
    match (plan.format, plan.rounds) {
        (TournamentFormat::RoundRobin, None) => {}
        (TournamentFormat::RoundRobin, Some(_)) => {
            return Err(Refusal::RoundRobinRounds {});
        }
        (TournamentFormat::Swiss, Some(r)) if (1..plan.min_players).contains(&r) => {}
        (TournamentFormat::Swiss, _) => {
            return Err(Refusal::SwissRounds {});
        }
    }
    if let Some(at) = plan.starts_ms
        && (at <= now || at > now + MAX_START_AHEAD_MS)
    {
        return Err(Refusal::TournamentStart { days: (MAX_START_AHEAD_MS / DAY_MS) as u32 });
    }
    Ok(())
}

/// A tournament as it stands: the row, its entrants (by seed once started) and
/// every pairing so far.
pub struct Table {
    pub tournament: TournamentRecord,
    pub entrants: Vec<EntrantRow>,
    pub pairings: Vec<PairingRow>,
}

impl Table {
    fn index(&self) -> HashMap<&str, usize> {
        self.entrants.iter().enumerate().map(|(i, e)| (e.user.as_str(), i)).collect()
    }

    /// The settled pairings, players by their place in `entrants`.
    fn settled(&self) -> Vec<Settled> {
        let index = self.index();
        self.pairings
            .iter()
            .filter_map(|p| {
                let red = *index.get(p.red.as_str())?;
                let black = match &p.black {
                    Some(b) => Some(*index.get(b.as_str())?),
                    None => None,
                };
                Some(Settled { red, black, result: p.result? })
            })
            .collect()
    }

    /// The standings, best first (`player` is a place in `entrants`); empty before the start.
    pub fn standings(&self) -> Vec<Standing> {
        if self.tournament.status == TournamentStatus::Signup
            || self.tournament.status == TournamentStatus::Cancelled
        {
            return Vec::new();
        }
        standings::standings(self.tournament.format, self.entrants.len(), &self.settled())
    }

    /// The next Swiss round's pairings, from the standings of the players still in it.
    fn swiss_round(&self, round: i64) -> Option<Vec<PairingRow>> {
        let mut field: Vec<Entrant> =
            (0..self.entrants.len()).map(|id| Entrant { id, ..Entrant::default() }).collect();
        for s in self.settled() {
            field[s.red].score += s.result.half_points(Color::Red);
            match s.black {
                None => field[s.red].had_bye = true,
                Some(b) => {
                    field[b].score += s.result.half_points(Color::Black);
                    field[s.red].opponents.push(b);
                    field[b].opponents.push(s.red);
                    if s.result.played() {
                        field[s.red].colors.push(Color::Red);
                        field[b].colors.push(Color::Black);
                    }
                }
            }
        }
        let mut ranked: Vec<Entrant> =
            field.into_iter().filter(|e| self.entrants[e.id].withdrawn_round.is_none()).collect();
        ranked.sort_by_key(|e| (-e.score, e.id));
        let paired = pairing::swiss(&ranked, Strictness::Full)
            .or_else(|| pairing::swiss(&ranked, Strictness::NoRematchOnly))?;
        Some(self.rows(round, &paired))
    }

    /// A round's pairings as rows: games by board, then the bye (a round-robin's
    /// rest has no row).
    fn rows(&self, round: i64, paired: &Round) -> Vec<PairingRow> {
        let name = |i: usize| self.entrants[i].user.clone();
        let mut rows: Vec<PairingRow> = paired
            .pairs
            .iter()
            .enumerate()
            .map(|(board, p)| PairingRow {
                round,
                board: board as i64 + 1,
                red: name(p.red),
                black: Some(name(p.black)),
                game_id: None,
                result: None,
            })
            .collect();
        if self.tournament.format == TournamentFormat::Swiss
            && let Some(b) = paired.bye
        {
            rows.push(PairingRow {
                round,
                board: rows.len() as i64 + 1,
                red: name(b),
                black: None,
                game_id: None,
                result: Some(PairingResult::Bye),
            });
        }
        rows
    }
}

/// Tournaments as their players see them: creating one, signing up,
/// withdrawing; the steps that run them are [`Steps`].
pub struct Tournaments {
    store: Store,
    quotas: Arc<Quotas>,
    games: Arc<Games>,
    tournament_steps: Arc<Steps>,
}

impl Tournaments {
    pub fn new(store: Store, quotas: Arc<Quotas>, games: Arc<Games>, tournament_steps: Arc<Steps>) -> Self {
        Tournaments { store, quotas, games, tournament_steps }
    }

    /// A tournament with its entrants and pairings.
    pub async fn tournament_table(&self, id: &str) -> Result<Table> {
        self.tournament_steps.tournament_table(id).await
    }

    pub async fn tournaments(
        &self,
        statuses: &[TournamentStatus],
        page: &Page,
    ) -> Result<Paged<TournamentRecord>> {
        Ok(self.store.tournaments(statuses, page).await?)
    }

    pub async fn create_tournament(&self, creator: &str, plan: Plan, now: i64) -> Result<Table> {
        check_plan(&plan, now)?;
        let row = TournamentRecord {
            id: new_id(),
            name: plan.name.trim().to_string(),
            creator: creator.to_string(),
            category: plan.category,
            rules: plan.rules,
            clock: plan.clock,
            format: plan.format,
            rounds: plan.rounds.unwrap_or(0),
            min_players: plan.min_players,
            max_players: plan.max_players,
            starts_ms: plan.starts_ms,
            status: TournamentStatus::Signup,
            round: 0,
            version: 1,
            created_ms: now,
            started_ms: None,
            finished_ms: None,
            players: 0,
        };
        let mut turn = self.quotas.tournament_turn(creator, now).await?;
        self.store.insert_tournament(&mut turn, &row).await?;
        turn.done().await?;
        self.tournament_steps.tournament_changed(&row.id).await;
        self.tournament_table(&row.id).await
    }

    /// Signs a player up; a tournament that starts when full starts at once.
    pub async fn join_tournament(&self, user: &str, id: &str, now: i64) -> Result<Table> {
        // An unknown tournament is a 404 before anything else.
        self.tournament_table(id).await?;
        match self.store.sign_up(id, user, now).await? {
            SignUp::Done => {}
            SignUp::Closed => return Err(Refusal::EntriesClosed {}.into()),
            SignUp::Full => return Err(Refusal::TournamentFull {}.into()),
            SignUp::Already => return Err(Refusal::SignedUp {}.into()),
        }
        self.tournament_steps.tournament_changed(id).await;
        self.tournament_steps.advance_tournament(id, now).await?;
        self.tournament_table(id).await
    }

    /// Before the start a player just leaves; after it they withdraw (see the
    /// module's words on what that does to their games).
    pub async fn withdraw_from_tournament(&self, user: &str, id: &str, now: i64) -> Result<Table> {
        let table = self.tournament_table(id).await?;
        let t = &table.tournament;
        let entrant = table.entrants.iter().find(|e| e.user == user);
        let Some(entrant) = entrant else {
            return Err(Refusal::NotEntered {}.into());
        };
        match t.status {
            TournamentStatus::Signup => {
                if self.store.leave(id, user).await? == Written::Stale {
                    return Err(Refusal::TournamentStarting {}.into());
                }
            }
            TournamentStatus::Running => {
                if entrant.withdrawn_round.is_some() {
                    return Err(Refusal::Withdrawn {}.into());
                }
                let held = self.store.exclusive(&lock_name(id)).await?;
                let withdrawn = self.store.withdraw(t, user).await;
                held.release().await;
                if withdrawn? == Written::Stale {
                    return Err(Refusal::TournamentMovedOn {}.into());
                }
                if let Some(game) = self.store.active_tournament_game(id, user).await? {
                    let loaded = self.games.load_game(&game.id).await?;
                    if let Some(me) = loaded.color_of(user) {
                        self.games.finish(&loaded, Outcome::win(!me, Reason::Resignation), now).await?;
                    }
                }
            }
            TournamentStatus::Finished | TournamentStatus::Cancelled => {
                return Err(Refusal::TournamentOver {}.into());
            }
        }
        self.tournament_steps.tournament_changed(id).await;
        self.tournament_steps.advance_tournament(id, now).await?;
        self.tournament_table(id).await
    }

    /// The background task's turn: enforces tournament games' correspondence
    /// deadlines, then starts, pairs and finishes every tournament that is due.
    /// How many steps were taken.
    pub async fn advance_tournaments(&self, now: i64) -> Result<usize> {
        for g in self.store.overdue_tournament_games(now).await? {
            let loaded = self.games.load_game(&g.id).await?;
            if loaded.is_active() && loaded.out_of_time(now) {
                // Another instance may end it first: its version check decides.
                let _ = self.games.time_out(&loaded, now).await;
            }
        }
        let mut steps = 0;
        for id in self.store.tournaments_due(now).await? {
            steps += self.tournament_steps.advance_tournament(&id, now).await?;
        }
        Ok(steps)
    }
}

/// The steps that run tournaments (start, next round, finish), taken by
/// themselves when they are due and when a tournament's game ends (see
/// [`Games`]), each under the tournament's lock.
pub struct Steps {
    store: Store,
    events: Events,
}

impl Steps {
    pub fn new(store: Store, events: Events) -> Self {
        Steps { store, events }
    }

    pub async fn tournament_table(&self, id: &str) -> Result<Table> {
        let tournament =
            self.store.tournament(id).await?.ok_or_else(|| Refusal::NoTournament { id: id.to_string() })?;
        let entrants = self.store.entrants(id).await?;
        let pairings = self.store.pairings(id).await?;
        Ok(Table { tournament, entrants, pairings })
    }

    /// Takes every step a tournament is due, one after another.
    async fn advance_tournament(&self, id: &str, now: i64) -> Result<usize> {
        let mut steps = 0;
        // A round with no game to play (all byes and forfeits) is due at once.
        while steps <= 2 * (MAX_PLAYERS as usize) && self.step(id, now).await? {
            steps += 1;
        }
        if steps > 0 {
            self.tournament_changed(id).await;
        }
        Ok(steps)
    }

    /// One step, if one is due: whether this instance took it. Taken under the
    /// tournament's lock, as a game's end that completes a round takes it.
    async fn step(&self, id: &str, now: i64) -> Result<bool> {
        let held = self.store.exclusive(&lock_name(id)).await?;
        let took = self.step_held(id, now).await;
        held.release().await;
        took
    }

    async fn step_held(&self, id: &str, now: i64) -> Result<bool> {
        let table = self.tournament_table(id).await?;
        let t = &table.tournament;
        match t.status {
            TournamentStatus::Signup => {
                let due = t.starts_ms.map_or(t.players >= t.max_players, |at| at <= now);
                if !due {
                    return Ok(false);
                }
                if t.players < t.min_players {
                    return self.close(t, TournamentStatus::Cancelled, now).await;
                }
                self.start(&table, now).await
            }
            TournamentStatus::Running => {
                let Some(step) = self.running_step(&table, now) else { return Ok(false) };
                let done = self.store.take_step(&step).await? == Written::Done;
                if done {
                    self.step_taken(&step).await;
                }
                Ok(done)
            }
            TournamentStatus::Finished | TournamentStatus::Cancelled => Ok(false),
        }
    }

    /// What a running tournament does once every pairing of its round is
    /// settled: begin the next round, or end.
    fn running_step(&self, table: &Table, now: i64) -> Option<TournamentStep> {
        let t = &table.tournament;
        if t.status != TournamentStatus::Running
            || table.pairings.iter().any(|p| p.round == t.round && p.result.is_none())
        {
            return None;
        }
        let close = || TournamentStep::Close {
            tournament: t.clone(),
            status: TournamentStatus::Finished,
            at_ms: now,
        };
        if t.round >= t.rounds {
            return Some(close());
        }
        let next = t.round + 1;
        let rows = match t.format {
            TournamentFormat::RoundRobin => {
                table.pairings.iter().filter(|p| p.round == next).cloned().collect()
            }
            TournamentFormat::Swiss => match table.swiss_round(next) {
                Some(rows) => rows,
                // Nobody left can be paired without a rematch: it ends here.
                None => return Some(close()),
            },
        };
        let (pairings, games) = self.games_for(t, rows, now);
        Some(TournamentStep::NextRound { tournament: t.clone(), pairings, games })
    }

    /// The players of a round that began hear of their games.
    pub(super) async fn step_taken(&self, step: &TournamentStep) {
        if let TournamentStep::NextRound { games, .. } = step {
            self.games_begun(games).await;
        }
    }

    /// The end of a tournament game, before it is written: the tournament's
    /// lock (held until the end is written, so that its step cannot be taken
    /// twice or from a stale table) and the step the end brings, if it
    /// completes the round. Nothing for another game.
    pub(super) async fn tournament_ending(
        &self,
        ended: &GameRecord,
    ) -> Result<Option<(Exclusive, Option<TournamentStep>)>> {
        let (Some((id, _)), Some(outcome), GameStatus::Finished) =
            (&ended.tournament, ended.outcome, ended.status)
        else {
            return Ok(None);
        };
        let held = self.store.exclusive(&lock_name(id)).await?;
        let mut table = match self.tournament_table(id).await {
            Ok(table) => table,
            Err(e) => {
                held.release().await;
                return Err(e);
            }
        };
        for p in table.pairings.iter_mut().filter(|p| p.game_id.as_deref() == Some(&ended.id)) {
            p.result.get_or_insert(PairingResult::of_game(outcome.winner));
        }
        let step = self.running_step(&table, ended.updated_ms);
        Ok(Some((held, step)))
    }

    async fn close(&self, t: &TournamentRecord, status: TournamentStatus, now: i64) -> Result<bool> {
        Ok(self.store.close_tournament(t, status, now).await? == Written::Done)
    }

    /// Seeds the entrants by rating, draws the pairings and begins round 1.
    async fn start(&self, table: &Table, now: i64) -> Result<bool> {
        let t = &table.tournament;
        let mut rated = Vec::new();
        for e in &table.entrants {
            let rating = self.store.rating(&e.user, t.category).await?.rating.round() as i64;
            rated.push((e.user.clone(), rating, e.joined_ms));
        }
        rated.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
        let seeds: Vec<(String, i64, i64)> = rated
            .iter()
            .enumerate()
            .map(|(i, (user, rating, _))| (user.clone(), i as i64 + 1, *rating))
            .collect();
        let seeded = Table {
            tournament: t.clone(),
            entrants: rated
                .iter()
                .map(|(user, rating, joined)| EntrantRow {
                    user: user.clone(),
                    joined_ms: *joined,
                    seed: 0,
                    rating: *rating,
                    withdrawn_round: None,
                })
                .collect(),
            pairings: Vec::new(),
        };
        let (rounds, pairings) = match t.format {
            TournamentFormat::RoundRobin => {
                let schedule = pairing::round_robin(seeded.entrants.len());
                let rows = schedule
                    .iter()
                    .enumerate()
                    .flat_map(|(r, round)| seeded.rows(r as i64 + 1, round))
                    .collect();
                (schedule.len() as i64, rows)
            }
            TournamentFormat::Swiss => {
                let rows =
                    seeded.swiss_round(1).ok_or_else(|| Error::broken("a first round always pairs"))?;
                (t.rounds, rows)
            }
        };
        let (first, later): (Vec<PairingRow>, Vec<PairingRow>) =
            pairings.into_iter().partition(|p| p.round == 1);
        let (mut pairings, games) = self.games_for(t, first, now);
        pairings.extend(later);
        let start = Start { rounds, seeds: &seeds, pairings: &pairings, games: &games };
        let done = self.store.start_tournament(t, &start, now).await? == Written::Done;
        if done {
            self.games_begun(&games).await;
        }
        Ok(done)
    }

    /// The games of a round's unsettled pairings, each pairing given its game.
    fn games_for(
        &self,
        t: &TournamentRecord,
        mut rows: Vec<PairingRow>,
        now: i64,
    ) -> (Vec<PairingRow>, Vec<GameRecord>) {
        let mut games = Vec::new();
        for p in rows.iter_mut() {
            let Some(black) = &p.black else { continue };
            if p.result.is_some() {
                continue;
            }
            let mut game =
                new_game_row(new_id(), &p.red, black, (t.category.variant(), t.rules), t.clock, now);
            game.tournament = Some((t.id.clone(), p.round));
            p.game_id = Some(game.id.clone());
            games.push(game);
        }
        (rows, games)
    }

    /// Tells the players of new games that their game has begun.
    async fn games_begun(&self, games: &[GameRecord]) {
        for g in games {
            for who in [&g.red, &g.black] {
                self.events.notify(who, NoticeKind::TournamentGame, None, Some(&g.id)).await;
            }
        }
    }

    /// A game of tournament `id` is over, its pairing settled with it: the
    /// tournament's pages hear of it, and it moves on if its round is complete.
    /// A step that fails here is taken by the sweep ([`Self::advance_tournaments`]).
    pub(super) async fn tournament_game_over(&self, id: &str, now: i64) {
        self.tournament_changed(id).await;
        if let Err(e) = self.advance_tournament(id, now).await {
            tracing::warn!("tournament {id}: its next step waits for the sweep: {e}");
        }
    }

    /// Open pages showing tournaments load them again.
    async fn tournament_changed(&self, id: &str) {
        self.events.hear(super::events::Happening::Tournament(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn plan() -> Plan {
        Plan {
            name: "Spring cup".into(),
            category: Category::StandardCorrespondence,
            rules: RuleSet::Asian,
            clock: ClockSpec::Correspondence { hours: 48 },
            format: TournamentFormat::Swiss,
            rounds: Some(4),
            min_players: 6,
            max_players: 16,
            starts_ms: None,
        }
    }

    #[test]
    fn a_plan_is_refused_with_the_reason() {
        assert!(check_plan(&plan(), NOW).is_ok());
        let refused = |p: Plan| check_plan(&p, NOW).unwrap_err().to_string();
        assert!(refused(Plan { name: " ".into(), ..plan() }).contains("name"));
        assert!(refused(Plan { category: Category::HexCorrespondence, ..plan() }).contains("hex"));
        let hex = Plan { category: Category::HexCorrespondence, rules: RuleSet::Hex, ..plan() };
        assert!(check_plan(&hex, NOW).is_ok(), "a hex tournament under the hex rules");
        assert!(refused(Plan { category: Category::StandardLive, ..plan() }).contains("category"));
        assert!(refused(Plan { rounds: Some(6), ..plan() }).contains("fewer rounds"));
        assert!(refused(Plan { rounds: None, ..plan() }).contains("Swiss"));
        assert!(
            refused(Plan { format: TournamentFormat::RoundRobin, ..plan() }).contains("leave rounds out")
        );
        assert!(refused(Plan { min_players: 2, ..plan() }).contains("players"));
        assert!(refused(Plan { min_players: 8, max_players: 7, ..plan() }).contains("players"));
        assert!(refused(Plan { starts_ms: Some(NOW - 1), ..plan() }).contains("future"));
        assert!(refused(Plan { clock: ClockSpec::Correspondence { hours: 0 }, ..plan() }).contains("hours"));
        let fast = Plan { clock: ClockSpec::Correspondence { hours: 28 }, ..plan() };
        assert!(check_plan(&fast, NOW).is_ok(), "the seed's Fast kind");
        let rr = Plan { format: TournamentFormat::RoundRobin, rounds: None, max_players: 21, ..plan() };
        assert!(check_plan(&rr, NOW).is_err(), "round-robins stop at 20 players");
    }
}
