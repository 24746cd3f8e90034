//! Games and their moves. A game's row is its current state; its moves are the
//! durable log the state is replayed from.

use std::sync::OnceLock;

use sqlx::{Row, any::AnyRow};
use xiangqi::{Color, Outcome, Reason};

use super::{
    Backend, Finish, FromRow, Keyset, Query, Store, Written, finish, get, named, optional_named,
    unique_violation,
};
use crate::model::games::{Conditionals, GameRecord, MoveRecord, RuleSetRecord};
use crate::model::page::{Page, Paged};
use crate::model::{Named, clock::ClockSpec, ratings::Category};

/// The clock columns that games and challenges share.
pub(super) fn clock(r: &AnyRow) -> Result<ClockSpec, sqlx::Error> {
    let kind: String = get(r, "clock_kind")?;
    ClockSpec::from_columns(&kind, get(r, "hours")?, get(r, "base_ms")?, get(r, "increment_ms")?)
        .map_err(|why| super::corrupt("clock_kind", why))
}

impl FromRow for GameRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let outcome = optional_named::<Reason>(r, "reason")?
            .map(|reason| Ok::<_, sqlx::Error>(Outcome { winner: optional_named(r, "winner")?, reason }))
            .transpose()?;
        Ok(GameRecord {
            id: get(r, "id")?,
            red: get(r, "red")?,
            black: get(r, "black")?,
            variant: named(r, "variant")?,
            rules: named(r, "rules")?,
            start_fen: get(r, "start_fen")?,
            clock: clock(r)?,
            ply: get(r, "ply")?,
            version: get(r, "version")?,
            fen: get(r, "fen")?,
            status: named(r, "status")?,
            outcome,
            red_ms: get(r, "red_ms")?,
            black_ms: get(r, "black_ms")?,
            turn_started_ms: get(r, "turn_started_ms")?,
            draw_offer: optional_named(r, "draw_offer")?,
            rated: get::<i64>(r, "rated")? != 0,
            ladder: match (
                optional_named::<Category>(r, "ladder")?,
                get::<Option<String>>(r, "ladder_challenger")?,
            ) {
                (Some(c), Some(who)) => Some((c, who)),
                _ => None,
            },
            tournament: match (
                get::<Option<String>>(r, "tournament_id")?,
                get::<Option<i64>>(r, "tournament_round")?,
            ) {
                (Some(id), Some(round)) => Some((id, round)),
                _ => None,
            },
            created_ms: get(r, "created_ms")?,
            updated_ms: get(r, "updated_ms")?,
            premoves: [get(r, "premove_red")?, get(r, "premove_black")?],
            conditionals: [
                Conditionals::from_stored(get::<Option<String>>(r, "conditional_red")?.as_deref()),
                Conditionals::from_stored(get::<Option<String>>(r, "conditional_black")?.as_deref()),
            ],
        })
    }
}

impl FromRow for MoveRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(MoveRecord {
            game_id: get(r, "game_id")?,
            ply: get(r, "ply")?,
            iccs: get(r, "iccs")?,
            wxf: get(r, "wxf")?,
            at_ms: get(r, "at_ms")?,
        })
    }
}

/// A player's games that are over, newest first: the key is `updated_ms.id`.
fn game_key(g: &GameRecord) -> String {
    format!("{}.{}", g.updated_ms, g.id)
}

impl Store {
    pub async fn game(&self, id: &str) -> Result<Option<GameRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM games WHERE id = $1").bind(id)).await
    }

    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRecord>, sqlx::Error> {
        self.all(sqlx::query("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply").bind(id)).await
    }

    /// A game's moves after the first `count`, in order.
    pub async fn moves_after(&self, id: &str, count: i64) -> Result<Vec<MoveRecord>, sqlx::Error> {
        self.all(
            sqlx::query("SELECT * FROM moves WHERE game_id = $1 AND ply > $2 ORDER BY ply")
                .bind(id)
                .bind(count),
        )
        .await
    }

    /// The games several players are playing, at most `each` of every one's
    /// most recently changed, by player: one query whatever the number of
    /// players (each side of each player walks its own index).
    pub async fn active_games_of_each(
        &self,
        names: &[String],
        each: u32,
    ) -> Result<std::collections::HashMap<String, Vec<GameRecord>>, sqlx::Error> {
        let mut by_player: std::collections::HashMap<String, Vec<GameRecord>> =
            names.iter().map(|n| (n.clone(), Vec::new())).collect();
        for chunk in names.chunks(Page::MAX as usize) {
            if self.backend == super::Backend::Postgres {
                // One plan for any number of players: each name (letters, digits, `_`
                // and `-`: no comma) walks both side indexes from the newest.
                let side = |s: &str| {
                    format!(
                        "SELECT g.* FROM unnest(string_to_array($1, ',')) AS p(name) CROSS JOIN LATERAL \
                         (SELECT * FROM games WHERE {s} = p.name AND status = 'active' \
                         ORDER BY updated_ms DESC LIMIT $2) AS g"
                    )
                };
                let sql = format!("{} UNION ALL {}", side("red"), side("black"));
                let q = sqlx::query(&sql).bind(chunk.join(",")).bind(i64::from(each));
                for g in self.all::<GameRecord>(q).await? {
                    for side in [&g.red, &g.black] {
                        if let Some(list) = by_player.get_mut(side.as_str()) {
                            list.push(g.clone());
                        }
                    }
                }
                continue;
            }
            let parts: Vec<String> = (1..=chunk.len())
                .flat_map(|i| {
                    ["red", "black"].map(|side| {
                        format!(
                            "SELECT * FROM (SELECT * FROM games WHERE {side} = ${i} AND status = 'active' \
                             ORDER BY updated_ms DESC LIMIT {each}) AS g{side}{i}"
                        )
                    })
                })
                .collect();
            let sql = parts.join(" UNION ALL ");
            let mut q = sqlx::query(&sql);
            for name in chunk {
                q = q.bind(name.clone());
            }
            for g in self.all::<GameRecord>(q).await? {
                for side in [&g.red, &g.black] {
                    if let Some(list) = by_player.get_mut(side.as_str()) {
                        list.push(g.clone());
                    }
                }
            }
        }
        for list in by_player.values_mut() {
            list.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then_with(|| b.id.cmp(&a.id)));
            list.dedup_by(|a, b| a.id == b.id);
            list.truncate(each as usize);
        }
        Ok(by_player)
    }

    /// A player's games that are over (finished or aborted), newest first.
    pub async fn finished_games_of(&self, name: &str, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        self.games_of(name, "status <> 'active'", page).await
    }

    /// A player's games being played, the most recently changed first.
    pub async fn playing_games_of(&self, name: &str, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        self.games_of(name, "status = 'active'", page).await
    }

    /// A page of a player's games with a status, newest change first; the key
    /// is `updated_ms.id`.
    async fn games_of(
        &self,
        name: &str,
        status: &str,
        page: &Page,
    ) -> Result<Paged<GameRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        // Each side walks its own index from the key down; the two short lists merge.
        let side = |s: &str| {
            format!(
                "SELECT * FROM (SELECT * FROM games WHERE {s} = $1 AND {status} \
                 AND (updated_ms < $2 OR (updated_ms = $2 AND id < $3)) ORDER BY updated_ms DESC, id DESC LIMIT $4) AS {s}_side"
            )
        };
        let sql = format!(
            "SELECT * FROM ({} UNION ALL {}) AS mine ORDER BY updated_ms DESC, id DESC LIMIT $4",
            side("red"),
            side("black")
        );
        let q = sqlx::query(&sql).bind(name).bind(before_ms).bind(before_id).bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, game_key))
    }

    /// How many of a player's games wait for their move (the FEN's second
    /// field is the side to move, the only field that can read ` b `).
    pub async fn my_turn_count(&self, name: &str) -> Result<i64, sqlx::Error> {
        let q = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM games WHERE red = $1 AND status = 'active' AND fen NOT LIKE '% b %') \
             + (SELECT COUNT(*) FROM games WHERE black = $1 AND status = 'active' AND fen LIKE '% b %') AS n",
        )
        .bind(name);
        let row = q.fetch_one(&self.pool).await?;
        row.try_get::<i64, _>("n")
    }

    /// Games being played, the most recently moved first, a page at a time:
    /// what a visitor can watch. The key is `updated_ms.id`.
    pub async fn live_games(&self, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let q = sqlx::query(
            "SELECT * FROM games WHERE status = 'active' AND (updated_ms < $1 OR (updated_ms = $1 AND id < $2)) \
             ORDER BY updated_ms DESC, id DESC LIMIT $3",
        )
        .bind(before_ms)
        .bind(before_id)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, game_key))
    }

    /// A player's finished games counted per rule set.
    pub async fn records_by_rules(&self, name: &str) -> Result<Vec<RuleSetRecord>, sqlx::Error> {
        use sqlx::Row;
        let rows = sqlx::query(
            // Each side read from its own index alone (it holds the rule set and winner).
            "SELECT rules, \
               SUM(CASE WHEN winner = side THEN 1 ELSE 0 END) AS wins, \
               SUM(CASE WHEN winner IS NOT NULL AND winner <> side THEN 1 ELSE 0 END) AS losses, \
               SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) AS draws \
             FROM (SELECT rules, winner, 'red' AS side FROM games WHERE red = $1 AND status = 'finished' \
               UNION ALL SELECT rules, winner, 'black' AS side FROM games WHERE black = $1 AND status = 'finished') AS mine \
             GROUP BY rules ORDER BY rules",
        )
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let count = |c: &str| r.try_get::<Option<i64>, _>(c).map(Option::unwrap_or_default);
                Ok(RuleSetRecord {
                    rules: named(r, "rules")?,
                    wins: count("wins")?,
                    losses: count("losses")?,
                    draws: count("draws")?,
                })
            })
            .collect()
    }

    /// Live games being played, by id: the clock watcher walks them a page at a time.
    pub async fn active_live_games(&self, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        let q = sqlx::query(
            "SELECT * FROM games WHERE status = 'active' AND clock_kind = 'live' AND id > $1 ORDER BY id LIMIT $2",
        )
        .bind(page.after.clone().unwrap_or_default())
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |g: &GameRecord| g.id.clone()))
    }

    /// Records a move (or a move and the premove played with it) and the
    /// game's new state, if the game is still at the ply and version the move
    /// was made against. The moves are committed before this returns: with the
    /// other moves that came in meanwhile (a group commit). A move that ends
    /// the game writes its `finish` in the same transaction.
    pub async fn record_move(
        &self,
        before: &GameRecord,
        after: &GameRecord,
        moves: &[MoveRecord],
        finish: Option<&Finish>,
    ) -> Result<Written, sqlx::Error> {
        match &self.writer {
            Some(writer) => writer.record(before, after, moves, finish).await,
            None => self.record_move_alone(before, after, moves, finish).await,
        }
    }

    /// Records a move (and the finish it makes) in a transaction of its own.
    pub(super) async fn record_move_alone(
        &self,
        before: &GameRecord,
        after: &GameRecord,
        moves: &[MoveRecord],
        finish: Option<&Finish>,
    ) -> Result<Written, sqlx::Error> {
        if let (Backend::Postgres, None, [m]) = (self.backend, finish, moves) {
            return match write_move_postgres(&self.pool, before, after, m).await {
                Err(e) if unique_violation(&e) => Ok(Written::Stale),
                written => written,
            };
        }
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        finish::lock_players(&mut tx, self.backend, finish).await?;
        let written = write_moves(&mut tx, self.backend, before, after, moves).await;
        match written {
            Ok(Written::Done) => {}
            Ok(Written::Stale) => return Ok(Written::Stale),
            Err(e) if unique_violation(&e) => return Ok(Written::Stale),
            Err(e) => return Err(e),
        }
        if let Some(f) = finish {
            let counted = finish::write_finish(&mut tx, f).await?;
            finish::count_explored(&mut tx, counted.as_slice()).await?;
        }
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Writes a game's new state if it is still at the version it was read at,
    /// and with it the `finish` of a game this change ends.
    pub async fn update_game(
        &self,
        before: &GameRecord,
        after: &GameRecord,
        finish: Option<&Finish>,
    ) -> Result<Written, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        finish::lock_players(&mut tx, self.backend, finish).await?;
        let w = update_game(&mut tx, before, after).await?;
        if w == Written::Done
            && let Some(f) = finish
        {
            let counted = finish::write_finish(&mut tx, f).await?;
            finish::count_explored(&mut tx, counted.as_slice()).await?;
        }
        tx.commit().await?;
        Ok(w)
    }
}

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

fn winner(g: &GameRecord) -> Option<&'static str> {
    g.outcome.and_then(|o| o.winner).map(Color::name)
}

fn reason(g: &GameRecord) -> Option<&'static str> {
    g.outcome.map(|o| o.reason.name())
}

/// The columns a game's play changes, bound in this order at `$1` + `offset`.
const STATE: [&str; 15] = [
    "ply",
    "version",
    "fen",
    "status",
    "winner",
    "reason",
    "red_ms",
    "black_ms",
    "turn_started_ms",
    "draw_offer",
    "updated_ms",
    "premove_red",
    "premove_black",
    "conditional_red",
    "conditional_black",
];

fn bind_state<'q>(q: Query<'q>, g: &'q GameRecord) -> Query<'q> {
    q.bind(g.ply)
        .bind(g.version)
        .bind(&g.fen)
        .bind(g.status.name())
        .bind(winner(g))
        .bind(reason(g))
        .bind(g.red_ms)
        .bind(g.black_ms)
        .bind(g.turn_started_ms)
        .bind(g.draw_offer.map(Color::name))
        .bind(g.updated_ms)
        .bind(g.premoves[0].as_deref())
        .bind(g.premoves[1].as_deref())
        .bind(g.conditionals[0].to_stored())
        .bind(g.conditionals[1].to_stored())
}

fn placeholders(from: usize, count: usize) -> String {
    (from..from + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

pub(super) async fn insert_game(tx: &mut Tx<'_>, g: &GameRecord) -> Result<(), sqlx::Error> {
    const FIXED: [&str; 16] = [
        "id",
        "red",
        "black",
        "variant",
        "rules",
        "start_fen",
        "clock_kind",
        "hours",
        "base_ms",
        "increment_ms",
        "created_ms",
        "rated",
        "ladder",
        "ladder_challenger",
        "tournament_id",
        "tournament_round",
    ];
    let sql = format!(
        "INSERT INTO games ({}, {}) VALUES ({})",
        STATE.join(", "),
        FIXED.join(", "),
        placeholders(1, STATE.len() + FIXED.len())
    );
    let (kind, hours, base, increment) = g.clock.columns();
    bind_state(sqlx::query(&sql), g)
        .bind(&g.id)
        .bind(&g.red)
        .bind(&g.black)
        .bind(g.variant.name())
        .bind(g.rules.name())
        .bind(&g.start_fen)
        .bind(kind)
        .bind(hours)
        .bind(base)
        .bind(increment)
        .bind(g.created_ms)
        .bind(i64::from(g.rated))
        .bind(g.ladder.as_ref().map(|(c, _)| c.name()))
        .bind(g.ladder.as_ref().map(|(_, who)| who.clone()))
        .bind(g.tournament.as_ref().map(|(id, _)| id.clone()))
        .bind(g.tournament.as_ref().map(|(_, round)| *round))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(super) async fn update_game(
    tx: &mut Tx<'_>,
    before: &GameRecord,
    g: &GameRecord,
) -> Result<Written, sqlx::Error> {
    static SQL: OnceLock<String> = OnceLock::new();
    let sql = SQL.get_or_init(|| {
        let set: Vec<String> = STATE.iter().enumerate().map(|(i, c)| format!("{c} = ${}", i + 1)).collect();
        let n = STATE.len();
        format!("UPDATE games SET {} WHERE id = ${} AND version = ${}", set.join(", "), n + 1, n + 2)
    });
    let r = bind_state(sqlx::query(sql), g).bind(&g.id).bind(before.version).execute(&mut **tx).await?;
    Ok(Written::from_count(r.rows_affected()))
}

/// On PostgreSQL a move is one statement: the game's new state if it is still
/// at the version the move was made at, and the move itself only then (one
/// row written if the game was still there, none if it had moved on).
pub(super) fn postgres_move_sql() -> &'static str {
    static SQL: OnceLock<String> = OnceLock::new();
    SQL.get_or_init(|| {
        let set: Vec<String> = STATE.iter().enumerate().map(|(i, c)| format!("{c} = ${}", i + 1)).collect();
        let n = STATE.len();
        format!(
            "WITH moved AS (UPDATE games SET {} WHERE id = ${} AND version = ${} RETURNING id) \
             INSERT INTO moves (game_id, ply, iccs, wxf, at_ms) SELECT id, ${}, ${}, ${}, ${} FROM moved",
            set.join(", "),
            n + 1,
            n + 2,
            n + 3,
            n + 4,
            n + 5,
            n + 6
        )
    })
}

/// A move and its game's new state in one statement (PostgreSQL).
pub(super) async fn write_move_postgres<'e, E>(
    executor: E,
    before: &GameRecord,
    after: &GameRecord,
    m: &MoveRecord,
) -> Result<Written, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let r = bind_state(sqlx::query(postgres_move_sql()), after)
        .bind(&after.id)
        .bind(before.version)
        .bind(m.ply)
        .bind(&m.iccs)
        .bind(&m.wxf)
        .bind(m.at_ms)
        .execute(executor)
        .await?;
    Ok(Written::from_count(r.rows_affected()))
}

/// A game's new state and the moves that made it, in a transaction: one
/// statement for a single move on PostgreSQL, else the state, then each move
/// once the state was written.
pub(super) async fn write_moves(
    tx: &mut Tx<'_>,
    backend: Backend,
    before: &GameRecord,
    after: &GameRecord,
    moves: &[MoveRecord],
) -> Result<Written, sqlx::Error> {
    if let (Backend::Postgres, [m]) = (backend, moves) {
        return write_move_postgres(&mut **tx, before, after, m).await;
    }
    if update_game(tx, before, after).await? == Written::Stale {
        return Ok(Written::Stale);
    }
    for m in moves {
        insert_move(tx, m).await?;
    }
    Ok(Written::Done)
}

pub(super) async fn insert_move(tx: &mut Tx<'_>, m: &MoveRecord) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO moves (game_id, ply, iccs, wxf, at_ms) VALUES ($1, $2, $3, $4, $5)")
        .bind(&m.game_id)
        .bind(m.ply)
        .bind(&m.iccs)
        .bind(&m.wxf)
        .bind(m.at_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// The move with the given number of each of these games (their last
    /// moves), by game id; at most [`Page::MAX`] * 2 games at a time.
    pub async fn last_moves(
        &self,
        games: &[(String, i64)],
    ) -> Result<std::collections::HashMap<String, String>, sqlx::Error> {
        use sqlx::Row;
        let mut found = std::collections::HashMap::new();
        if self.backend == super::Backend::Postgres && !games.is_empty() {
            // Ids are letters and digits: the lists travel as two joined strings.
            let ids: Vec<&str> = games.iter().map(|(id, _)| id.as_str()).collect();
            let plies: Vec<String> = games.iter().map(|(_, ply)| ply.to_string()).collect();
            let q = sqlx::query(
                "SELECT m.game_id, m.iccs FROM unnest(string_to_array($1, ','), \
                 CAST(string_to_array($2, ',') AS BIGINT[])) AS w(id, ply) \
                 JOIN moves m ON m.game_id = w.id AND m.ply = w.ply",
            )
            .bind(ids.join(","))
            .bind(plies.join(","));
            for r in q.fetch_all(&self.pool).await? {
                found.insert(r.try_get("game_id")?, r.try_get("iccs")?);
            }
            return Ok(found);
        }
        for chunk in games.chunks(2 * Page::MAX as usize) {
            let pairs: Vec<String> = (0..chunk.len())
                .map(|i| format!("(game_id = ${} AND ply = ${})", 2 * i + 1, 2 * i + 2))
                .collect();
            let sql = format!("SELECT game_id, iccs FROM moves WHERE {}", pairs.join(" OR "));
            let mut q = sqlx::query(&sql);
            for (id, ply) in chunk {
                q = q.bind(id.clone()).bind(*ply);
            }
            for r in q.fetch_all(&self.pool).await? {
                found.insert(r.try_get("game_id")?, r.try_get("iccs")?);
            }
        }
        Ok(found)
    }
}
