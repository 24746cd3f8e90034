//! The games database and the opening explorer: the positions a finished game
//! reached and what was played from them, written with the game's finish;
//! searches of finished games; imported collections.

use std::collections::BTreeMap;

use sqlx::Row;
use xiangqi::{Color, RuleSet};

use super::{FromRow, Keyset, Store, get, named, optional_named, value_rows};
use crate::model::Named;
use crate::model::explorer::ImportedRecord;
use crate::model::explorer::{GameSearch, Outcomes, Speed};
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// What a finished game gives the explorer: its first moves, and the buckets
/// its counts go to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    pub rules: RuleSet,
    pub speed: Speed,
    /// Each position met (its key) and the move (ICCS) played from it, once per position.
    pub steps: Vec<(i64, String)>,
    /// Every position reached, once each.
    pub reached: Vec<i64>,
}

/// What imported games give their owner's explorer: those with a result, with
/// the players' average rating where the record gave both.
fn counted_imports<'a>(
    games: impl Iterator<Item = &'a (ImportedRecord, Option<Explored>)>,
) -> Vec<Counted<'a>> {
    games
        .filter_map(|(g, explored)| {
            Some(Counted {
                owner: &g.owner,
                explored: explored.as_ref()?,
                winner: g.winner,
                rating: g.rating,
            })
        })
        .collect()
}

/// One game's contribution to the explorer of an owner ("" for the site).
pub struct Counted<'a> {
    pub owner: &'a str,
    pub explored: &'a Explored,
    pub winner: Option<Color>,
    /// The players' average rating, if known.
    pub rating: Option<i64>,
}

/// The width of a rating band in the explorer's buckets.
pub const BAND: i64 = 100;

/// The band an average rating counts in (0 for games without ratings).
pub fn band_of(rating: Option<i64>) -> i64 {
    rating.map_or(0, |r| r.max(BAND).div_euclid(BAND) * BAND)
}

type BucketKey = (String, i64, &'static str, &'static str, i64, String);

#[derive(Default, Clone, Copy)]
struct Counts {
    games: i64,
    red: i64,
    draws: i64,
    black: i64,
    rating_sum: i64,
    rated: i64,
}

/// The bucket of a position's totals over every rule set, pace and rating:
/// what the explorer reads when no filter is set.
pub const TOTALS: (&str, &str, i64) = ("", "", -1);

/// Rows per statement of a multi-row write (12 values a row). SQLite finds
/// each bound value by its name among the statement's, a cost that grows
/// with the square of their number: 16 rows (192 values) keep a 2 MiB
/// import's counts a small part of its time, at a few more statements.
const CHUNK: usize = 16;

/// Whether games are added to the explorer's counts or taken back out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum CountChange {
    Add,
    TakeBack,
}

/// Adds games to the explorer's counts (or takes them back): merged by bucket
/// first, and written in one order of keys, so that transactions writing the
/// same hot rows (the start position's) wait for each other and never
/// deadlock. A row whose last game was taken back goes.
pub(super) async fn count_games(
    tx: &mut Tx<'_>,
    games: &[Counted<'_>],
    change: CountChange,
) -> Result<(), sqlx::Error> {
    let one = if change == CountChange::Add { 1 } else { -1 };
    let mut merged: BTreeMap<BucketKey, Counts> = BTreeMap::new();
    for g in games {
        let band = band_of(g.rating);
        // Each move counts in its bucket and in the position's totals (every
        // filter left out), which the explorer reads without a filter.
        let buckets = [(g.explored.rules.name(), g.explored.speed.name(), band), TOTALS];
        for ((key, mv), (rules, speed, band)) in
            g.explored.steps.iter().flat_map(|step| buckets.map(|bucket| (step, bucket)))
        {
            let c = merged.entry((g.owner.to_string(), *key, rules, speed, band, mv.clone())).or_default();
            c.games += one;
            match g.winner {
                Some(Color::Red) => c.red += one,
                Some(Color::Black) => c.black += one,
                None => c.draws += one,
            }
            if let Some(r) = g.rating {
                c.rating_sum += one * r;
                c.rated += one;
            }
        }
    }
    let rows: Vec<(BucketKey, Counts)> = merged.into_iter().collect();
    for chunk in rows.chunks(CHUNK) {
        let values = value_rows(tx, chunk.len(), 12);
        let sql = format!(
            "INSERT INTO explorer_moves (owner, pos_key, rules, speed, band, mv, games, red_wins, draws, black_wins, \
             rating_sum, rated_games) VALUES {values} ON CONFLICT (owner, pos_key, rules, speed, band, mv) DO UPDATE SET \
             games = explorer_moves.games + excluded.games, red_wins = explorer_moves.red_wins + excluded.red_wins, \
             draws = explorer_moves.draws + excluded.draws, black_wins = explorer_moves.black_wins + excluded.black_wins, \
             rating_sum = explorer_moves.rating_sum + excluded.rating_sum, \
             rated_games = explorer_moves.rated_games + excluded.rated_games"
        );
        let mut q = sqlx::query(&sql);
        for ((owner, key, rules, speed, band, mv), c) in chunk {
            q = q
                .bind(owner.clone())
                .bind(*key)
                .bind(*rules)
                .bind(*speed)
                .bind(*band)
                .bind(mv.clone())
                .bind(c.games)
                .bind(c.red)
                .bind(c.draws)
                .bind(c.black)
                .bind(c.rating_sum)
                .bind(c.rated);
        }
        q.execute(&mut **tx).await?;
        if change == CountChange::TakeBack {
            let keys = value_rows(tx, chunk.len(), 6);
            let sql = format!(
                "DELETE FROM explorer_moves WHERE games <= 0 AND (owner, pos_key, rules, speed, band, mv) IN ({keys})"
            );
            let mut q = sqlx::query(&sql);
            for ((owner, key, rules, speed, band, mv), _) in chunk {
                q = q.bind(owner.clone()).bind(*key).bind(*rules).bind(*speed).bind(*band).bind(mv.clone());
            }
            q.execute(&mut **tx).await?;
        }
    }
    Ok(())
}

/// Writes the positions a finished site game reached, for the search by position.
pub(super) async fn write_positions(
    tx: &mut Tx<'_>,
    game: &str,
    ended_ms: i64,
    reached: &[i64],
) -> Result<(), sqlx::Error> {
    for chunk in reached.chunks(3 * CHUNK) {
        let values = value_rows(tx, chunk.len(), 3);
        let sql = format!(
            "INSERT INTO game_positions (pos_key, ended_ms, game_id) VALUES {values} ON CONFLICT DO NOTHING"
        );
        let mut q = sqlx::query(&sql);
        for key in chunk {
            q = q.bind(*key).bind(ended_ms).bind(game.to_string());
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// What the explorer asks of one position.
#[derive(Clone, Debug, Default)]
pub struct ExplorerAsk {
    /// "" for the site's games, else the owner of an imported collection.
    pub owner: String,
    pub pos_key: i64,
    pub rules: Option<RuleSet>,
    pub speed: Option<Speed>,
    /// Average ratings from `min_rating` to `max_rating` (by band).
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
}

/// A move played from a position and how its games went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    pub mv: String,
    pub outcomes: Outcomes,
    pub rating_sum: i64,
    pub rated_games: i64,
}

impl FromRow for ExplorerRow {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ExplorerRow {
            mv: get(r, "mv")?,
            outcomes: Outcomes {
                games: get(r, "games")?,
                red_wins: get(r, "red_wins")?,
                draws: get(r, "draws")?,
                black_wins: get(r, "black_wins")?,
            },
            rating_sum: get(r, "rating_sum")?,
            rated_games: get(r, "rated_games")?,
        })
    }
}

/// The explorer's owner of the Masters collection's games; no user name holds a `*`.
pub const MASTERS: &str = "*masters";

/// Where imported records are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collection {
    /// A user's own imported games.
    Imported,
    /// The site's Masters collection.
    Masters,
}

impl FromRow for ImportedRecord {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ImportedRecord {
            id: get(r, "id")?,
            owner: get(r, "owner")?,
            red: get(r, "red")?,
            black: get(r, "black")?,
            event: get(r, "event")?,
            date: get(r, "date")?,
            rules: named(r, "rules")?,
            start_fen: get(r, "start_fen")?,
            winner: optional_named(r, "winner")?,
            result: get(r, "result")?,
            moves: get(r, "moves")?,
            ply: get(r, "ply")?,
            rating: get(r, "rating")?,
            record: get(r, "record")?,
            judged: get(r, "judged")?,
            digest: get(r, "digest")?,
            ecco: get(r, "ecco")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

/// A value bound to a search's statement.
enum Bound {
    Text(String),
    Int(i64),
}

impl Store {
    /// The moves played from a position, most played first (at most 100).
    pub async fn explorer(&self, ask: &ExplorerAsk) -> Result<Vec<ExplorerRow>, sqlx::Error> {
        let mut sql = String::from(
            "SELECT mv, CAST(SUM(games) AS BIGINT) AS games, CAST(SUM(red_wins) AS BIGINT) AS red_wins, \
             CAST(SUM(draws) AS BIGINT) AS draws, CAST(SUM(black_wins) AS BIGINT) AS black_wins, \
             CAST(SUM(rating_sum) AS BIGINT) AS rating_sum, CAST(SUM(rated_games) AS BIGINT) AS rated_games \
             FROM explorer_moves WHERE owner = $1 AND pos_key = $2 AND band >= $3 AND band <= $4",
        );
        let unfiltered = ask.rules.is_none()
            && ask.speed.is_none()
            && ask.min_rating.is_none()
            && ask.max_rating.is_none();
        // Without a filter the totals' rows alone; with one, the buckets (band 0 and up).
        let (min, max) = if unfiltered {
            (TOTALS.2, TOTALS.2)
        } else {
            (
                ask.min_rating.map_or(0, |r| band_of(Some(r))),
                ask.max_rating.map_or(i64::MAX, |r| band_of(Some(r))),
            )
        };
        let mut n = 4;
        if ask.rules.is_some() {
            n += 1;
            sql.push_str(&format!(" AND rules = ${n}"));
        }
        if ask.speed.is_some() {
            n += 1;
            sql.push_str(&format!(" AND speed = ${n}"));
        }
        sql.push_str(" GROUP BY mv ORDER BY games DESC, mv LIMIT 100");
        let mut q = sqlx::query(&sql).bind(ask.owner.clone()).bind(ask.pos_key).bind(min).bind(max);
        if let Some(r) = ask.rules {
            q = q.bind(r.name());
        }
        if let Some(s) = ask.speed {
            q = q.bind(s.name());
        }
        self.all(q).await
    }

    /// A page of finished games that match a search, the most recently ended
    /// first; the key is `updated_ms.id`. A search by position walks that
    /// position's games (newest first) in `game_positions`; one by player walks
    /// each side's index and merges the two; else the finished games' index.
    pub async fn search_games(&self, s: &GameSearch, page: &Page) -> Result<Paged<GameRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let mut binds: Vec<Bound> = Vec::new();
        let mut bind = |b: Bound| {
            binds.push(b);
            format!("${}", binds.len())
        };
        let mut filters: Vec<String> = vec!["g.status = 'finished'".into()];
        if let Some(w) = s.winner {
            filters.push(match w {
                Some(c) => format!("g.winner = {}", bind(Bound::Text(c.name().into()))),
                None => "g.winner IS NULL".into(),
            });
        }
        if let Some(r) = s.reason {
            filters.push(format!("g.reason = {}", bind(Bound::Text(r.name().into()))));
        }
        if let Some(r) = s.rules {
            filters.push(format!("g.rules = {}", bind(Bound::Text(r.name().into()))));
        }
        if let Some(v) = s.variant {
            filters.push(format!("g.variant = {}", bind(Bound::Text(v.name().into()))));
        }
        if let Some(rated) = s.rated {
            filters.push(format!("g.rated = {}", bind(Bound::Int(i64::from(rated)))));
        }
        if let Some(speed) = s.speed {
            filters.push(speed.condition("g"));
        }
        if let Some(since) = s.since_ms {
            filters.push(format!("g.updated_ms >= {}", bind(Bound::Int(since))));
        }
        if let Some(codes) = &s.openings {
            let marks: Vec<String> = codes.iter().map(|c| bind(Bound::Text(c.clone()))).collect();
            // A search for an opening no code answers finds no game.
            filters.push(if marks.is_empty() {
                "1 = 0".into()
            } else {
                format!("g.ecco IN ({})", marks.join(", "))
            });
        }
        let before = (bind(Bound::Int(before_ms)), bind(Bound::Text(before_id)));
        let limit = bind(Bound::Int(page.probe()));
        let until = s.until_ms.map(|u| bind(Bound::Int(u)));
        // The first bound alone is a range of the index walked, so a page
        // deep in the list starts at its key rather than filtering its way
        // there from the newest game; the second cuts the key's own moment.
        let bound = |column: &str, end: &str| {
            let mut c = format!(
                "{column}_ms <= {b} AND ({column}_ms < {b} OR ({column}_ms = {b} AND {end} < {i}))",
                b = before.0,
                i = before.1
            );
            if let Some(u) = &until {
                c.push_str(&format!(" AND {column}_ms <= {u}"));
            }
            c
        };
        let game_bound = bound("g.updated", "g.id");
        let sql = if let Some(key) = s.pos_key {
            let key = bind(Bound::Int(key));
            let mut f = filters.clone();
            if let Some(p) = &s.player {
                let p = bind(Bound::Text(p.clone()));
                match &s.opponent {
                    Some(o) => {
                        let o = bind(Bound::Text(o.clone()));
                        f.push(format!(
                            "((g.red = {p} AND g.black = {o}) OR (g.black = {p} AND g.red = {o}))"
                        ));
                    }
                    None => f.push(format!("(g.red = {p} OR g.black = {p})")),
                }
            }
            let pos_bound = bound("p.ended", "p.game_id");
            format!(
                "SELECT g.* FROM game_positions p JOIN games g ON g.id = p.game_id \
                 WHERE p.pos_key = {key} AND {pos_bound} AND {} \
                 ORDER BY p.ended_ms DESC, p.game_id DESC LIMIT {limit}",
                f.join(" AND ")
            )
        } else if let Some(p) = &s.player {
            let p = bind(Bound::Text(p.clone()));
            let o = s.opponent.as_ref().map(|o| bind(Bound::Text(o.clone())));
            let side = |me: &str, them: &str| {
                let mut f = filters.clone();
                f.push(format!("g.{me} = {p}"));
                if let Some(o) = &o {
                    f.push(format!("g.{them} = {o}"));
                }
                format!(
                    "SELECT * FROM (SELECT g.* FROM games g WHERE {} AND {game_bound} \
                     ORDER BY g.updated_ms DESC, g.id DESC LIMIT {limit}) AS {me}_side",
                    f.join(" AND ")
                )
            };
            format!(
                "SELECT * FROM ({} UNION ALL {}) AS found ORDER BY updated_ms DESC, id DESC LIMIT {limit}",
                side("red", "black"),
                side("black", "red")
            )
        } else {
            format!(
                "SELECT g.* FROM games g WHERE {} AND {game_bound} ORDER BY g.updated_ms DESC, g.id DESC LIMIT {limit}",
                filters.join(" AND ")
            )
        };
        let mut q = sqlx::query(&sql);
        for b in binds {
            q = match b {
                Bound::Text(t) => q.bind(t),
                Bound::Int(i) => q.bind(i),
            };
        }
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |g: &GameRecord| format!("{}.{}", g.updated_ms, g.id)))
    }

    /// A page of a player's finished games, oldest first, with their moves
    /// (ICCS, in order): the archive is read this way a page at a time. The key
    /// is `updated_ms.id`.
    pub async fn archive_page(
        &self,
        name: &str,
        page: &Page,
    ) -> Result<Paged<(GameRecord, Vec<String>)>, sqlx::Error> {
        let (since_ms, since_id) = page.since();
        let side = |s: &str| {
            format!(
                "SELECT * FROM (SELECT * FROM games WHERE {s} = $1 AND status = 'finished' \
                 AND updated_ms >= $2 AND (updated_ms > $2 OR (updated_ms = $2 AND id > $3)) \
                 ORDER BY updated_ms, id LIMIT $4) AS {s}_side"
            )
        };
        let sql = format!(
            "SELECT * FROM ({} UNION ALL {}) AS mine ORDER BY updated_ms, id LIMIT $4",
            side("red"),
            side("black")
        );
        let q = sqlx::query(&sql).bind(name).bind(since_ms).bind(since_id).bind(page.probe());
        let games: Vec<GameRecord> = self.all(q).await?;
        let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
        let mut moves = self.moves_of_games(&ids).await?;
        let out: Vec<_> = games
            .into_iter()
            .map(|g| {
                let played = moves.remove(&g.id).unwrap_or_default();
                (g, played)
            })
            .collect();
        Ok(page.cut(out, |(g, _): &(GameRecord, Vec<String>)| format!("{}.{}", g.updated_ms, g.id)))
    }

    /// How many games a user has imported.
    pub async fn imported_count(&self, owner: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM imported_games WHERE owner = $1")
            .bind(owner)
            .fetch_one(&self.pool)
            .await?;
        row.try_get::<i64, _>("n")
    }

    /// Keeps imported games and counts them in their owner's explorer, all in
    /// one transaction: the games kept, without those whose record the owner
    /// has already (by digest), which are neither kept nor counted again.
    pub async fn import_games(
        &self,
        games: &[(ImportedRecord, Option<Explored>)],
    ) -> Result<Vec<ImportedRecord>, sqlx::Error> {
        self.keep_records(Collection::Imported, games).await
    }

    /// Keeps games in the site's Masters collection and counts them in its
    /// explorer, as [`Store::import_games`] does for a user's.
    pub async fn import_masters(
        &self,
        games: &[(ImportedRecord, Option<Explored>)],
    ) -> Result<Vec<ImportedRecord>, sqlx::Error> {
        self.keep_records(Collection::Masters, games).await
    }

    async fn keep_records(
        &self,
        collection: Collection,
        games: &[(ImportedRecord, Option<Explored>)],
    ) -> Result<Vec<ImportedRecord>, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let mut fresh = Vec::with_capacity(games.len());
        for game @ (g, _) in games {
            let columns = "id, red, black, event, date, rules, start_fen, winner, result, moves, ply, rating, \
                           record, judged, digest, created_ms, ecco";
            let values = "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17";
            let sql = match collection {
                Collection::Imported => format!(
                    "INSERT INTO imported_games ({columns}, owner) VALUES ({values}, $18) \
                     ON CONFLICT (owner, digest) DO NOTHING"
                ),
                Collection::Masters => {
                    format!(
                        "INSERT INTO masters_games ({columns}) VALUES ({values}) ON CONFLICT (digest) DO NOTHING"
                    )
                }
            };
            let mut q = sqlx::query(&sql)
                .bind(&g.id)
                .bind(&g.red)
                .bind(&g.black)
                .bind(&g.event)
                .bind(&g.date)
                .bind(g.rules.name())
                .bind(&g.start_fen)
                .bind(g.winner.map(Color::name))
                .bind(&g.result)
                .bind(&g.moves)
                .bind(g.ply)
                .bind(g.rating)
                .bind(&g.record)
                .bind(&g.judged)
                .bind(&g.digest)
                .bind(g.created_ms)
                .bind(&g.ecco);
            if collection == Collection::Imported {
                q = q.bind(&g.owner);
            }
            if q.execute(&mut *tx).await?.rows_affected() == 1 {
                fresh.push(game);
            }
        }
        count_games(&mut tx, &counted_imports(fresh.iter().copied()), CountChange::Add).await?;
        tx.commit().await?;
        Ok(fresh.into_iter().map(|(g, _)| g.clone()).collect())
    }

    /// A page of the Masters collection, newest first, of a player's games
    /// (either side) when one is named; the key is `created_ms.id`.
    pub async fn masters_games(
        &self,
        player: Option<&str>,
        page: &Page,
    ) -> Result<Paged<ImportedRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let after = "(created_ms < $2 OR (created_ms = $2 AND id < $3))";
        let sql = match player {
            Some(_) => format!(
                "SELECT '{MASTERS}' AS owner, * FROM masters_games WHERE (red = $1 OR black = $1) AND {after} \
                 ORDER BY created_ms DESC, id DESC LIMIT $4"
            ),
            None => format!(
                "SELECT '{MASTERS}' AS owner, * FROM masters_games WHERE $1 = '' AND {after} \
                 ORDER BY created_ms DESC, id DESC LIMIT $4"
            ),
        };
        let q =
            sqlx::query(&sql).bind(player.unwrap_or("")).bind(before_ms).bind(before_id).bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |g: &ImportedRecord| format!("{}.{}", g.created_ms, g.id)))
    }

    /// One game of the Masters collection.
    pub async fn masters_game(&self, id: &str) -> Result<Option<ImportedRecord>, sqlx::Error> {
        let sql = format!("SELECT '{MASTERS}' AS owner, * FROM masters_games WHERE id = $1");
        self.one(sqlx::query(&sql).bind(id)).await
    }

    /// Deletes imported games of `owner`, takes back what they added to the
    /// owner's explorer and the puzzles found in them, in one transaction:
    /// how many were there to delete (one deleted twice at once is taken back
    /// once).
    pub async fn forget_imported(
        &self,
        owner: &str,
        games: &[(ImportedRecord, Option<Explored>)],
    ) -> Result<u64, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let mut gone = Vec::new();
        for game in games {
            let deleted = sqlx::query("DELETE FROM imported_games WHERE id = $1 AND owner = $2")
                .bind(&game.0.id)
                .bind(owner)
                .execute(&mut *tx)
                .await?;
            if deleted.rows_affected() == 1 {
                // Its puzzles go with it (or, tried already, forget it).
                self.withdraw_puzzles(&mut tx, owner, Some(&game.0.id)).await?;
                gone.push(game);
            }
        }
        count_games(&mut tx, &counted_imports(gone.iter().copied()), CountChange::TakeBack).await?;
        tx.commit().await?;
        Ok(gone.len() as u64)
    }

    /// A page of a user's imported games, newest first; the key is `created_ms.id`.
    pub async fn imported_games(
        &self,
        owner: &str,
        page: &Page,
    ) -> Result<Paged<ImportedRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let q = sqlx::query(
            "SELECT * FROM imported_games WHERE owner = $1 AND (created_ms < $2 OR (created_ms = $2 AND id < $3)) \
             ORDER BY created_ms DESC, id DESC LIMIT $4",
        )
        .bind(owner)
        .bind(before_ms)
        .bind(before_id)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |g: &ImportedRecord| format!("{}.{}", g.created_ms, g.id)))
    }

    /// One imported game.
    pub async fn imported_game(&self, id: &str) -> Result<Option<ImportedRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM imported_games WHERE id = $1").bind(id)).await
    }
}

impl Speed {
    /// The SQL condition on a games row (alias `g`) of games at this pace; the
    /// pace of a live clock is its base time and 40 increments.
    pub fn condition(self, g: &str) -> String {
        let live = format!("{g}.clock_kind = 'live' AND {g}.base_ms + 40 * {g}.increment_ms");
        match self {
            Speed::Bullet => format!("({live} < 180000)"),
            Speed::Blitz => format!("({live} >= 180000 AND {live} < 600000)"),
            Speed::Rapid => format!("({live} >= 600000 AND {live} < 1800000)"),
            Speed::Classical => format!("({live} >= 1800000)"),
            Speed::Correspondence => format!("{g}.clock_kind = 'correspondence'"),
            Speed::Other => "1 = 0".into(),
        }
    }
}
