//! Tournaments, their entrants and their rounds' pairings. Every change of
//! entrants, rounds or status is a conditional update of the tournament's
//! `version` in the same transaction: of two server instances doing the same
//! step, one commits and the other's update touches no row and is rolled back.

use sqlx::{Row, any::AnyRow};

use super::{Counting, FromRow, Keyset, Store, Written, games::insert_game, get, named, optional_named};
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};
use crate::model::tournaments::TournamentRecord;
use crate::model::{Named, PairingResult, TournamentStatus};

/// Every tournament column, and the count of its entrants.
const SELECT: &str = "SELECT t.*, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) AS players \
     FROM tournaments t";

impl FromRow for TournamentRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(TournamentRecord {
            id: get(r, "id")?,
            name: get(r, "name")?,
            creator: get(r, "creator")?,
            category: named(r, "category")?,
            rules: named(r, "rules")?,
            clock: super::games::clock(r)?,
            format: named(r, "format")?,
            rounds: get(r, "rounds")?,
            min_players: get(r, "min_players")?,
            max_players: get(r, "max_players")?,
            starts_ms: get(r, "starts_ms")?,
            status: named(r, "status")?,
            round: get(r, "round")?,
            version: get(r, "version")?,
            created_ms: get(r, "created_ms")?,
            started_ms: get(r, "started_ms")?,
            finished_ms: get(r, "finished_ms")?,
            players: get(r, "players")?,
        })
    }
}

/// A player signed up for a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    pub user: String,
    pub joined_ms: i64,
    /// From the start: 1 is the highest rated (0 before).
    pub seed: i64,
    /// The rating in the tournament's category at the start.
    pub rating: i64,
    /// After the start: the round in which the player withdrew.
    pub withdrawn_round: Option<i64>,
}

impl FromRow for EntrantRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(EntrantRow {
            user: get(r, "user_name")?,
            joined_ms: get(r, "joined_ms")?,
            seed: get(r, "seed")?,
            rating: get(r, "rating")?,
            withdrawn_round: get(r, "withdrawn_round")?,
        })
    }
}

/// A board of a round: a game (or a forfeit), or a bye for `red`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub round: i64,
    pub board: i64,
    pub red: String,
    pub black: Option<String>,
    pub game_id: Option<String>,
    /// None while its game is played, or before its round for a round-robin.
    pub result: Option<PairingResult>,
}

impl FromRow for PairingRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(PairingRow {
            round: get(r, "round")?,
            board: get(r, "board")?,
            red: get(r, "red")?,
            black: get(r, "black")?,
            game_id: get(r, "game_id")?,
            result: optional_named(r, "result")?,
        })
    }
}

/// What a sign-up came to.
#[derive(Debug, PartialEq, Eq)]
pub enum SignUp {
    Done,
    /// Not taking entries (started, over, or no such tournament).
    Closed,
    Full,
    Already,
}

/// What a start writes: the entrants' seeds and ratings, every pairing known
/// (a round-robin's whole schedule, a Swiss's first round) and the first
/// round's games.
pub struct Start<'a> {
    pub rounds: i64,
    /// (name, seed, rating).
    pub seeds: &'a [(String, i64, i64)],
    pub pairings: &'a [PairingRow],
    pub games: &'a [GameRecord],
}

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// The claim: moves a tournament on from the version it was read at.
async fn claim(tx: &mut Tx<'_>, t: &TournamentRecord, set: &str, binds: &[i64]) -> Result<bool, sqlx::Error> {
    let n = binds.len();
    let sql = format!(
        "UPDATE tournaments SET {set}, version = version + 1 WHERE id = ${} AND version = ${}",
        n + 1,
        n + 2
    );
    let mut q = sqlx::query(&sql);
    for b in binds {
        q = q.bind(*b);
    }
    let done = q.bind(&t.id).bind(t.version).execute(&mut **tx).await?;
    Ok(done.rows_affected() == 1)
}

/// A running tournament's next step once its round is complete, worked out
/// from the tournament as read (`tournament`, at its version).
#[derive(Clone, Debug, PartialEq)]
pub enum TournamentStep {
    /// Round `tournament.round + 1` begins: its pairings and their games.
    NextRound { tournament: TournamentRecord, pairings: Vec<PairingRow>, games: Vec<GameRecord> },
    /// It ends: finished (its crosstable stays) or cancelled.
    Close { tournament: TournamentRecord, status: TournamentStatus, at_ms: i64 },
}

/// Takes a step in a transaction, if the tournament is still at the version
/// the step was worked out from.
pub(super) async fn take_step_in(tx: &mut Tx<'_>, step: &TournamentStep) -> Result<Written, sqlx::Error> {
    match step {
        TournamentStep::NextRound { tournament: t, pairings, games } => {
            let next = t.round + 1;
            if !claim(tx, t, "round = $1", &[next]).await? {
                return Ok(Written::Stale);
            }
            sqlx::query("DELETE FROM tournament_pairings WHERE tournament_id = $1 AND round = $2")
                .bind(&t.id)
                .bind(next)
                .execute(&mut **tx)
                .await?;
            for g in games {
                insert_game(tx, g).await?;
            }
            insert_pairings(tx, &t.id, pairings).await?;
        }
        TournamentStep::Close { tournament: t, status, at_ms } => {
            let set = format!("status = '{}', finished_ms = $1", status.name());
            if !claim(tx, t, &set, &[*at_ms]).await? {
                return Ok(Written::Stale);
            }
        }
    }
    Ok(Written::Done)
}

async fn insert_pairings(tx: &mut Tx<'_>, id: &str, pairings: &[PairingRow]) -> Result<(), sqlx::Error> {
    for p in pairings {
        sqlx::query(
            "INSERT INTO tournament_pairings (tournament_id, round, board, red, black, game_id, result) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(p.round)
        .bind(p.board)
        .bind(&p.red)
        .bind(&p.black)
        .bind(&p.game_id)
        .bind(p.result.map(Named::name))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Newest first: the key is `created_ms.id`.
fn list_key(t: &TournamentRecord) -> String {
    format!("{}.{}", t.created_ms, t.id)
}

impl Store {
    /// Writes a new tournament, counted in its creator's turn.
    pub async fn insert_tournament(
        &self,
        on: &mut Counting,
        t: &TournamentRecord,
    ) -> Result<(), sqlx::Error> {
        let (kind, hours, base, increment) = t.clock.columns();
        let q = sqlx::query(
            "INSERT INTO tournaments (id, name, creator, category, rules, clock_kind, hours, base_ms, increment_ms, \
             format, rounds, min_players, max_players, starts_ms, status, round, version, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.creator)
        .bind(t.category.name())
        .bind(t.rules.name())
        .bind(kind)
        .bind(hours)
        .bind(base)
        .bind(increment)
        .bind(t.format.name())
        .bind(t.rounds)
        .bind(t.min_players)
        .bind(t.max_players)
        .bind(t.starts_ms)
        .bind(t.status.name())
        .bind(t.round)
        .bind(t.version)
        .bind(t.created_ms);
        q.execute(on.connection()).await?;
        Ok(())
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, sqlx::Error> {
        self.one(sqlx::query(&format!("{SELECT} WHERE t.id = $1")).bind(id)).await
    }

    /// Tournaments in some states, newest first.
    pub async fn tournaments(
        &self,
        statuses: &[TournamentStatus],
        page: &Page,
    ) -> Result<Paged<TournamentRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let names: Vec<String> = statuses.iter().map(|s| format!("'{}'", s.name())).collect();
        let sql = format!(
            "{SELECT} WHERE t.status IN ({}) AND (t.created_ms < $1 OR (t.created_ms = $1 AND t.id < $2)) \
             ORDER BY t.created_ms DESC, t.id DESC LIMIT $3",
            names.join(", ")
        );
        let rows = self.all(sqlx::query(&sql).bind(before_ms).bind(before_id).bind(page.probe())).await?;
        Ok(page.cut(rows, list_key))
    }

    /// A tournament's entrants: by seed once it has started, else in the order they came.
    pub async fn entrants(&self, id: &str) -> Result<Vec<EntrantRow>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM tournament_players WHERE tournament_id = $1 ORDER BY seed, joined_ms, user_name",
        )
        .bind(id);
        self.all(q).await
    }

    pub async fn pairings(&self, id: &str) -> Result<Vec<PairingRow>, sqlx::Error> {
        let q =
            sqlx::query("SELECT * FROM tournament_pairings WHERE tournament_id = $1 ORDER BY round, board")
                .bind(id);
        self.all(q).await
    }

    /// Signs a user up while the tournament takes entries and has room.
    pub async fn sign_up(&self, id: &str, user: &str, now: i64) -> Result<SignUp, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        // The update first: it locks the tournament, so sign-ups queue up here.
        let open =
            sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1 AND status = 'signup'")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        if open.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(SignUp::Closed);
        }
        let row = sqlx::query(
            "SELECT max_players, (SELECT COUNT(*) FROM tournament_players WHERE tournament_id = $1) AS players, \
             (SELECT COUNT(*) FROM tournament_players WHERE tournament_id = $1 AND user_name = $2) AS mine \
             FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .bind(user)
        .fetch_one(&mut *tx)
        .await?;
        let (max, players, mine): (i64, i64, i64) =
            (row.try_get("max_players")?, row.try_get("players")?, row.try_get("mine")?);
        let answer = if mine > 0 {
            SignUp::Already
        } else if players >= max {
            SignUp::Full
        } else {
            sqlx::query(
                "INSERT INTO tournament_players (tournament_id, user_name, joined_ms, seed, rating) VALUES ($1, $2, $3, 0, 0)",
            )
            .bind(id)
            .bind(user)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            SignUp::Done
        };
        if answer == SignUp::Done {
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        Ok(answer)
    }

    /// Takes a user off a tournament that has not started; stale if it has, or
    /// they were not on it.
    pub async fn leave(&self, id: &str, user: &str) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let open =
            sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1 AND status = 'signup'")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        let gone = sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND user_name = $2")
            .bind(id)
            .bind(user)
            .execute(&mut *tx)
            .await?;
        if open.rows_affected() != 1 || gone.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// A player withdraws from a running tournament in round `round`: every
    /// pairing of theirs not yet played (a round-robin's later rounds) is
    /// forfeited to the opponent. Stale if the tournament moved on since `t`
    /// was read, or the player was not in it.
    pub async fn withdraw(&self, t: &TournamentRecord, user: &str) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if !claim(&mut tx, t, "round = round", &[]).await? {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        let out = sqlx::query(
            "UPDATE tournament_players SET withdrawn_round = $1 \
             WHERE tournament_id = $2 AND user_name = $3 AND withdrawn_round IS NULL",
        )
        .bind(t.round)
        .bind(&t.id)
        .bind(user)
        .execute(&mut *tx)
        .await?;
        if out.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        for (side, winner) in [("red", PairingResult::BlackByForfeit), ("black", PairingResult::RedByForfeit)]
        {
            sqlx::query(&format!(
                "UPDATE tournament_pairings SET result = $1 \
                 WHERE tournament_id = $2 AND round > $3 AND {side} = $4 AND result IS NULL AND game_id IS NULL"
            ))
            .bind(winner.name())
            .bind(&t.id)
            .bind(t.round)
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Starts a tournament read at `t`: round 1, the seeds, the pairings known
    /// and the first round's games. Stale if another instance moved it first.
    pub async fn start_tournament(
        &self,
        t: &TournamentRecord,
        start: &Start<'_>,
        now: i64,
    ) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let set = "status = 'running', round = 1, rounds = $1, started_ms = $2";
        if !claim(&mut tx, t, set, &[start.rounds, now]).await? {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        for (user, seed, rating) in start.seeds {
            sqlx::query("UPDATE tournament_players SET seed = $1, rating = $2 WHERE tournament_id = $3 AND user_name = $4")
                .bind(*seed)
                .bind(*rating)
                .bind(&t.id)
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        for g in start.games {
            insert_game(&mut tx, g).await?;
        }
        insert_pairings(&mut tx, &t.id, start.pairings).await?;
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Moves a tournament read at `t` to its next round: the round's pairings
    /// (replacing any scheduled before) and its games. Stale if another instance
    /// moved it first, or anything about it changed since it was read.
    pub async fn take_step(&self, step: &TournamentStep) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if take_step_in(&mut tx, step).await? == Written::Stale {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Ends a tournament read at `t`: finished (its crosstable stays) or cancelled.
    pub async fn close_tournament(
        &self,
        t: &TournamentRecord,
        status: TournamentStatus,
        now: i64,
    ) -> Result<Written, sqlx::Error> {
        self.take_step(&TournamentStep::Close { tournament: t.clone(), status, at_ms: now }).await
    }

    /// Tournaments with something to do at `now` (at most 100): taking entries
    /// and due to start (its time came, or it is full), or running with every
    /// pairing of its round settled.
    pub async fn tournaments_due(&self, now: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT t.id FROM tournaments t WHERE \
               (t.status = 'signup' AND (t.starts_ms <= $1 OR (t.starts_ms IS NULL AND \
                 (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) >= t.max_players))) \
             OR (t.status = 'running' AND NOT EXISTS (SELECT 1 FROM tournament_pairings p \
                 WHERE p.tournament_id = t.id AND p.round = t.round AND p.result IS NULL)) \
             ORDER BY t.created_ms LIMIT 100",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Tournament correspondence games whose side to move let the deadline pass
    /// (at most 100): nobody may be there to claim them, and the round waits.
    pub async fn overdue_tournament_games(&self, now: i64) -> Result<Vec<GameRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM games WHERE tournament_id IS NOT NULL AND status = 'active' \
             AND clock_kind = 'correspondence' AND turn_started_ms + hours * 3600000 < $1 \
             ORDER BY turn_started_ms LIMIT 100",
        )
        .bind(now);
        self.all(q).await
    }

    /// A player's game being played in a tournament, if any.
    pub async fn active_tournament_game(
        &self,
        id: &str,
        user: &str,
    ) -> Result<Option<GameRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM games WHERE tournament_id = $1 AND status = 'active' AND (red = $2 OR black = $2) LIMIT 1",
        )
        .bind(id)
        .bind(user);
        self.one(q).await
    }
}
