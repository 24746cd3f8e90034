//! Puzzles, their ratings and who tried them: the next puzzle near a rating
//! is one walk of an index (by board, or by theme and board, then rating),
//! skipping those the user has tried or that were tried from their network
//! address without logging in. What the site handed each user, and what
//! visitors tried from each address, decide which attempts are rated.

use sqlx::any::AnyRow;
use xiangqi::Variant;

use super::{Backend, Counting, FromRow, Keyset, MASTERS, Store, Written, get, named};
use crate::model::explorer::ImportedRecord;
use crate::model::games::GameRecord;
use crate::model::page::{Page, Paged};
use crate::model::puzzles::NewPuzzle;
use crate::model::puzzles::{AttemptRecord, PuzzlePlayerRecord, PuzzleRecord, StreakRecord};
use crate::model::puzzles::{AttemptResult, GameSource, Handout, Origin, PuzzleTheme, Unrated};
use crate::model::{
    Named,
    ratings::{Rating, rate},
};

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

impl FromRow for PuzzleRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let variant: String = get(r, "variant")?;
        Ok(PuzzleRecord {
            id: get(r, "id")?,
            variant: variant.parse().map_err(|why| super::corrupt("variant", why))?,
            fen: get(r, "fen")?,
            moves: get::<String>(r, "moves")?.split_whitespace().map(str::to_string).collect(),
            themes: PuzzleTheme::from_bits(get(r, "themes")?),
            mate: get::<i64>(r, "mate")? != 0,
            origin: Origin::from_parts(named(r, "source")?, get(r, "game_id")?, get(r, "source_owner")?)
                .map_err(|why| super::corrupt("source", why))?,
            rating: Rating {
                rating: get(r, "rating")?,
                deviation: get(r, "deviation")?,
                volatility: get(r, "volatility")?,
                games: get(r, "plays")?,
            },
            plays: get(r, "plays")?,
            solves: get(r, "solves")?,
        })
    }
}

impl FromRow for PuzzlePlayerRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(PuzzlePlayerRecord {
            user: get(r, "user_name")?,
            rating: Rating {
                rating: get(r, "rating")?,
                deviation: get(r, "deviation")?,
                volatility: get(r, "volatility")?,
                games: get(r, "attempts")?,
            },
            attempts: get(r, "attempts")?,
            solved: get(r, "solved")?,
            best_streak: get(r, "best_streak")?,
        })
    }
}

impl FromRow for AttemptRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(AttemptRecord {
            puzzle_id: get(r, "puzzle_id")?,
            result: named(r, "result")?,
            hinted: get::<i64>(r, "hinted")? != 0,
            rated: get::<i64>(r, "rated")? != 0,
            rating: get(r, "rating")?,
            at_ms: get(r, "at_ms")?,
            puzzle_rating: get(r, "puzzle_rating")?,
            themes: PuzzleTheme::from_bits(get(r, "themes")?),
        })
    }
}

impl FromRow for StreakRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let variant: String = get(r, "variant")?;
        Ok(StreakRecord {
            id: get(r, "id")?,
            user: get(r, "user_name")?,
            variant: variant.parse().map_err(|why| super::corrupt("variant", why))?,
            started_ms: get(r, "started_ms")?,
            ends_ms: get(r, "ends_ms")?,
            solved: get(r, "solved")?,
            current: get(r, "current_id")?,
            over: get::<i64>(r, "over")? != 0,
        })
    }
}

/// How a puzzle is asked for.
#[derive(Clone, Debug)]
pub struct Wanted<'a> {
    pub variant: Variant,
    /// Skip the puzzles this user has tried.
    pub user: Option<&'a str>,
    /// Skip the puzzles tried from this network address without logging in.
    pub address: Option<&'a str>,
    pub theme: Option<PuzzleTheme>,
    /// The nearest rating at or above this, or below it when none is.
    pub near: f64,
}

/// A first attempt's end, to write.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    pub user: &'a str,
    pub puzzle: &'a PuzzleRecord,
    pub result: AttemptResult,
    /// Part of a timed streak, which is not rated.
    pub streak: bool,
    /// The network address the ending move came from.
    pub address: &'a str,
    pub now: i64,
}

/// What ending a first attempt changed: the user's rating before and after,
/// when it was rated.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    Rated {
        before: f64,
        after: f64,
    },
    Unrated(Unrated),
    /// The first attempt had ended earlier: nothing changed.
    Earlier,
}

/// Opens a first attempt unless there is one: marked hinted (`$3`), handed if
/// the site had handed the puzzle to the user, and seen if it was tried from
/// the user's address (`$5`) without logging in.
const OPEN_ATTEMPT: &str = "INSERT INTO puzzle_attempts \
    (user_name, puzzle_id, result, hinted, rated, rating, at_ms, handed, seen) \
    VALUES ($1, $2, 'open', $3, 0, NULL, $4, \
    CASE WHEN EXISTS (SELECT 1 FROM puzzle_handouts h WHERE h.user_name = $1 AND h.puzzle_id = $2) \
    THEN 1 ELSE 0 END, \
    CASE WHEN EXISTS (SELECT 1 FROM puzzle_probes q WHERE q.address = $5 AND q.puzzle_id = $2) \
    THEN 1 ELSE 0 END) \
    ON CONFLICT (user_name, puzzle_id) DO NOTHING";

impl Store {
    fn for_update(&self) -> &'static str {
        match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        }
    }

    fn for_share(&self) -> &'static str {
        match self.backend {
            Backend::Postgres => " FOR SHARE",
            Backend::Sqlite => "",
        }
    }

    /// Stores new puzzles with their themes; one already stored for the same
    /// position is skipped. How many were new. (Puzzles from imported games
    /// are stored through [`Store::insert_source_puzzles`], which checks that
    /// their owner still agrees.)
    pub async fn insert_puzzles(&self, puzzles: &[NewPuzzle]) -> Result<u64, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let added = insert_rows(&mut tx, puzzles).await?;
        tx.commit().await?;
        Ok(added)
    }

    /// Stores the puzzles found in a game of the Masters collection (`owner`
    /// empty) or of `owner`'s imports, and moves the source's place past the
    /// game, together: how many were new. An owner's game is stored only
    /// while the owner agrees and the game is kept; if the owner no longer
    /// agrees, nothing is written (`None`): the game is searched when they
    /// agree again. The owner's row, then the game's, are held against
    /// change until this is written, so that a withdrawal either comes first
    /// and is seen, or waits and then finds these puzzles.
    pub async fn insert_source_puzzles(
        &self,
        source: GameSource,
        owner: &str,
        game: &ImportedRecord,
        puzzles: &[NewPuzzle],
    ) -> Result<Option<u64>, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let mut keep = true;
        if source == GameSource::Imports {
            let share = self.for_share();
            let agrees = sqlx::query(&format!(
                "SELECT 1 AS one FROM users WHERE name = $1 AND puzzles_from_imports = 1{share}"
            ))
            .bind(owner)
            .fetch_optional(&mut *tx)
            .await?;
            if agrees.is_none() {
                tx.rollback().await?;
                return Ok(None);
            }
            let kept = sqlx::query(&format!(
                "SELECT 1 AS one FROM imported_games WHERE id = $1 AND owner = $2{share}"
            ))
            .bind(&game.id)
            .bind(owner)
            .fetch_optional(&mut *tx)
            .await?;
            keep = kept.is_some();
        }
        let added = if keep { insert_rows(&mut tx, puzzles).await? } else { 0 };
        sqlx::query(
            "INSERT INTO puzzle_source_scans (source, owner, after_ms, after_id) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (source, owner) DO UPDATE SET after_ms = excluded.after_ms, after_id = excluded.after_id",
        )
        .bind(source.name())
        .bind(owner)
        .bind(game.created_ms)
        .bind(&game.id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(added))
    }

    /// Where the search of a source has got to (for imports: of one owner's
    /// games), by the `created_ms` and id of the last game searched; before
    /// every game if it has not begun.
    pub async fn source_cursor(&self, source: GameSource, owner: &str) -> Result<(i64, String), sqlx::Error> {
        let row = sqlx::query(
            "SELECT after_ms, after_id FROM puzzle_source_scans WHERE source = $1 AND owner = $2",
        )
        .bind(source.name())
        .bind(owner)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => (get(&r, "after_ms")?, get(&r, "after_id")?),
            None => (i64::MIN, String::new()),
        })
    }

    /// Puts the search of a source back (or on) to a place, as
    /// [`Store::source_cursor`] gives it.
    pub async fn set_source_cursor(
        &self,
        source: GameSource,
        owner: &str,
        after_ms: i64,
        after_id: &str,
    ) -> Result<(), sqlx::Error> {
        self.run(
            sqlx::query(
                "INSERT INTO puzzle_source_scans (source, owner, after_ms, after_id) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (source, owner) DO UPDATE SET after_ms = excluded.after_ms, after_id = excluded.after_id",
            )
            .bind(source.name())
            .bind(owner)
            .bind(after_ms)
            .bind(after_id),
        )
        .await?;
        Ok(())
    }

    /// Games of the Masters collection stored after a place, in the order
    /// they were stored.
    pub async fn masters_games_after(
        &self,
        after_ms: i64,
        after_id: &str,
        limit: i64,
    ) -> Result<Vec<ImportedRecord>, sqlx::Error> {
        let sql = format!(
            "SELECT '{MASTERS}' AS owner, * FROM masters_games \
             WHERE created_ms >= $1 AND (created_ms > $1 OR id > $2) ORDER BY created_ms, id LIMIT $3"
        );
        self.all(sqlx::query(&sql).bind(after_ms).bind(after_id).bind(limit)).await
    }

    /// `owner`'s imported games stored after a place, in the order they were stored.
    pub async fn imported_games_after(
        &self,
        owner: &str,
        after_ms: i64,
        after_id: &str,
        limit: i64,
    ) -> Result<Vec<ImportedRecord>, sqlx::Error> {
        self.all(
            sqlx::query(
                "SELECT * FROM imported_games WHERE owner = $1 \
                 AND created_ms >= $2 AND (created_ms > $2 OR id > $3) ORDER BY created_ms, id LIMIT $4",
            )
            .bind(owner)
            .bind(after_ms)
            .bind(after_id)
            .bind(limit),
        )
        .await
    }

    /// The first user (by name) who lets the site search their imported
    /// games and has a game the search has not reached.
    pub async fn next_sharing_owner(&self) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT u.name FROM users u \
             LEFT JOIN puzzle_source_scans c ON c.source = $1 AND c.owner = u.name \
             WHERE u.puzzles_from_imports = 1 AND EXISTS (SELECT 1 FROM imported_games i WHERE i.owner = u.name \
             AND i.created_ms >= COALESCE(c.after_ms, $2) \
             AND (c.owner IS NULL OR i.created_ms > c.after_ms OR i.id > c.after_id)) \
             ORDER BY u.name LIMIT 1",
        )
        .bind(GameSource::Imports.name())
        .bind(i64::MIN)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| get(&r, "name")).transpose()
    }

    /// Whether a user lets the site find puzzles in their imported games;
    /// `None` if there is no such user.
    pub async fn puzzle_sharing(&self, user: &str) -> Result<Option<bool>, sqlx::Error> {
        let row = sqlx::query("SELECT puzzles_from_imports FROM users WHERE name = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| get::<i64>(&r, "puzzles_from_imports").map(|on| on != 0)).transpose()
    }

    /// Writes whether a user lets the site find puzzles in their imported
    /// games; when not, takes back the puzzles from them (see
    /// [`Store::withdraw_puzzles`]) in the same transaction. How far their
    /// games were searched is kept: agreeing again searches only games not
    /// searched before, so toggling cannot make the search start over. False
    /// if there is no such user.
    pub async fn set_puzzle_sharing(&self, user: &str, on: bool) -> Result<bool, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let found = sqlx::query("UPDATE users SET puzzles_from_imports = $1 WHERE name = $2")
            .bind(i64::from(on))
            .bind(user)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if found == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        if !on {
            self.withdraw_puzzles(&mut tx, user, None).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Takes back the puzzles from `owner`'s imported games (from one game,
    /// if named), inside the caller's transaction: those nobody has tried (no
    /// attempt, no running streak on them) are deleted with their themes and
    /// days, and the others forget their game and owner. Their rows are
    /// locked first, so an attempt begun meanwhile either is seen here or
    /// waits for this and finds the puzzle gone. How many were deleted.
    pub(super) async fn withdraw_puzzles(
        &self,
        tx: &mut Tx<'_>,
        owner: &str,
        game: Option<&str>,
    ) -> Result<u64, sqlx::Error> {
        let theirs = match game {
            Some(_) => "source_owner = $1 AND game_id = $2",
            None => "source_owner = $1 AND $2 = ''",
        };
        let game = game.unwrap_or("");
        let locked = sqlx::query(&format!("SELECT id FROM puzzles WHERE {theirs}{}", self.for_update()))
            .bind(owner)
            .bind(game)
            .fetch_all(&mut **tx)
            .await?;
        if locked.is_empty() {
            return Ok(0);
        }
        sqlx::query(&format!(
            "UPDATE puzzles SET source = 'withdrawn', game_id = NULL, source_owner = NULL WHERE {theirs} \
             AND (EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = puzzles.id) \
             OR EXISTS (SELECT 1 FROM puzzle_streaks s WHERE s.current_id = puzzles.id AND s.over = 0))"
        ))
        .bind(owner)
        .bind(game)
        .execute(&mut **tx)
        .await?;
        for table in ["puzzle_themes", "puzzle_days"] {
            sqlx::query(&format!(
                "DELETE FROM {table} WHERE puzzle_id IN (SELECT id FROM puzzles WHERE {theirs})"
            ))
            .bind(owner)
            .bind(game)
            .execute(&mut **tx)
            .await?;
        }
        let deleted = sqlx::query(&format!("DELETE FROM puzzles WHERE {theirs}"))
            .bind(owner)
            .bind(game)
            .execute(&mut **tx)
            .await?
            .rows_affected();
        Ok(deleted)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM puzzles WHERE id = $1").bind(id)).await
    }

    pub async fn puzzle_count(&self, variant: Variant) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE variant = $1")
            .bind(variant.to_string())
            .fetch_one(&self.pool)
            .await
    }

    /// The `among` puzzles nearest a rating (the first at or above it, else
    /// the last below it) that the user has not tried and that were not tried
    /// from the address without logging in.
    pub async fn next_puzzles(&self, w: &Wanted<'_>, among: i64) -> Result<Vec<PuzzleRecord>, sqlx::Error> {
        for upward in [true, false] {
            let (cmp, order) = if upward { (">=", "ASC") } else { ("<", "DESC") };
            let unseen = "NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                 WHERE a.user_name = $3 AND a.puzzle_id = p.id) \
                 AND NOT EXISTS (SELECT 1 FROM puzzle_probes q WHERE q.address = $4 AND q.puzzle_id = p.id)";
            let sql = match w.theme {
                None => format!(
                    "SELECT p.* FROM puzzles p WHERE p.variant = $1 AND p.rating {cmp} $2 AND {unseen} \
                     ORDER BY p.rating {order} LIMIT $5"
                ),
                Some(_) => format!(
                    "SELECT p.* FROM puzzle_themes t JOIN puzzles p ON p.id = t.puzzle_id \
                     WHERE t.theme = $6 AND t.variant = $1 AND t.rating {cmp} $2 AND {unseen} \
                     ORDER BY t.rating {order} LIMIT $5"
                ),
            };
            let mut q = sqlx::query(&sql)
                .bind(w.variant.to_string())
                .bind(w.near)
                .bind(w.user.unwrap_or("").to_string())
                .bind(w.address.unwrap_or("").to_string())
                .bind(among);
            if let Some(t) = w.theme {
                q = q.bind(t.name());
            }
            let rows: Vec<PuzzleRecord> = self.all(q).await?;
            if !rows.is_empty() {
                return Ok(rows);
            }
        }
        Ok(Vec::new())
    }

    /// Writes that the site handed `puzzle` to a user at `address` (in place
    /// of the one it handed before in the same place: `kind` on `variant`'s
    /// board), unless the user has tried it already.
    pub async fn hand_out(
        &self,
        user: &str,
        kind: Handout,
        variant: Variant,
        puzzle: &str,
        address: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        self.run(
            sqlx::query(
                "INSERT INTO puzzle_handouts (user_name, kind, variant, puzzle_id, address, at_ms) \
                 SELECT $1, $2, $3, $4, $5, $6 WHERE NOT EXISTS \
                 (SELECT 1 FROM puzzle_attempts a WHERE a.user_name = $1 AND a.puzzle_id = $4) \
                 ON CONFLICT (user_name, kind, variant) DO UPDATE SET puzzle_id = excluded.puzzle_id, \
                 address = excluded.address, at_ms = excluded.at_ms",
            )
            .bind(user)
            .bind(kind.name())
            .bind(variant.to_string())
            .bind(puzzle)
            .bind(address)
            .bind(now),
        )
        .await?;
        Ok(())
    }

    /// Writes a visitor's move or hint in a puzzle, in the address's turn to
    /// ask for them (which the limit on them counted).
    pub async fn insert_probe(
        &self,
        on: &mut Counting,
        address: &str,
        puzzle: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO puzzle_probes (address, puzzle_id, at_ms) VALUES ($1, $2, $3)")
            .bind(address)
            .bind(puzzle)
            .bind(now)
            .execute(on.connection())
            .await?;
        Ok(())
    }

    /// Deletes visitors' moves and hints from before `before`; how many went.
    pub async fn forget_probes(&self, before: i64) -> Result<u64, sqlx::Error> {
        self.run(sqlx::query("DELETE FROM puzzle_probes WHERE at_ms <= $1").bind(before)).await
    }

    /// Whether a streak running at `now` stands on the puzzle.
    pub async fn in_running_streak(&self, puzzle: &str, now: i64) -> Result<bool, sqlx::Error> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM puzzle_streaks WHERE current_id = $1 AND over = 0 AND ends_ms > $2 LIMIT 1",
        )
        .bind(puzzle)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    pub async fn puzzle_player(
        &self,
        user: &str,
        variant: Variant,
    ) -> Result<Option<PuzzlePlayerRecord>, sqlx::Error> {
        self.one(
            sqlx::query("SELECT * FROM puzzle_players WHERE user_name = $1 AND variant = $2")
                .bind(user)
                .bind(variant.to_string()),
        )
        .await
    }

    pub async fn attempt(&self, user: &str, puzzle: &str) -> Result<Option<AttemptRecord>, sqlx::Error> {
        self.one(
            sqlx::query(
                "SELECT a.*, p.rating AS puzzle_rating, p.themes FROM puzzle_attempts a \
                 JOIN puzzles p ON p.id = a.puzzle_id WHERE a.user_name = $1 AND a.puzzle_id = $2",
            )
            .bind(user)
            .bind(puzzle),
        )
        .await
    }

    /// Opens a user's first attempt at a puzzle if there is none yet (from
    /// `address`), and marks it hinted when a hint is shown.
    pub async fn open_attempt(
        &self,
        user: &str,
        puzzle: &str,
        hinted: bool,
        address: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        self.run(
            sqlx::query(OPEN_ATTEMPT).bind(user).bind(puzzle).bind(i64::from(hinted)).bind(now).bind(address),
        )
        .await?;
        if hinted {
            self.run(
                sqlx::query(
                    "UPDATE puzzle_attempts SET hinted = 1 WHERE user_name = $1 AND puzzle_id = $2 AND result = 'open'",
                )
                .bind(user)
                .bind(puzzle),
            )
            .await?;
        }
        Ok(())
    }

    /// Ends a user's first attempt at a puzzle, once: the attempt, both
    /// ratings (when it is rated) and both tallies are written together, the
    /// user's row and then the puzzle's locked first, in that order. It is
    /// rated only outside a streak, without a hint, when the site had handed
    /// the puzzle to the user before the attempt began, and when it was not
    /// tried without logging in from the address the attempt began or ended
    /// at. A second end of the same attempt changes nothing: the attempt's row
    /// is the one of the user and the puzzle, and the first end to lock it
    /// marks it ended.
    pub async fn end_attempt(&self, e: &Ending<'_>) -> Result<Ended, sqlx::Error> {
        let variant = e.puzzle.variant.to_string();
        let fresh = Rating::default();
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO puzzle_players (user_name, variant, rating, deviation, volatility, attempts, solved, \
             best_streak, updated_ms) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6) \
             ON CONFLICT (user_name, variant) DO NOTHING",
        )
        .bind(e.user)
        .bind(&variant)
        .bind(fresh.rating)
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(e.now)
        .execute(&mut *tx)
        .await?;
        let player = sqlx::query(&format!(
            "SELECT * FROM puzzle_players WHERE user_name = $1 AND variant = $2{}",
            self.for_update()
        ))
        .bind(e.user)
        .bind(&variant)
        .fetch_one(&mut *tx)
        .await?;
        let player = PuzzlePlayerRecord::from_row(&player)?;
        // The puzzle's row is locked before the attempt refers to it: the
        // reference's own share lock, taken first by two solvers of one
        // puzzle, would leave each waiting on the other for the row.
        let puzzle = sqlx::query(&format!("SELECT * FROM puzzles WHERE id = $1{}", self.for_update()))
            .bind(&e.puzzle.id)
            .fetch_one(&mut *tx)
            .await?;
        let puzzle = PuzzleRecord::from_row(&puzzle)?;
        sqlx::query(OPEN_ATTEMPT)
            .bind(e.user)
            .bind(&e.puzzle.id)
            .bind(0_i64)
            .bind(e.now)
            .bind(e.address)
            .execute(&mut *tx)
            .await?;
        let open = sqlx::query(&format!(
            "SELECT hinted, handed, seen FROM puzzle_attempts \
             WHERE user_name = $1 AND puzzle_id = $2 AND result = 'open'{}",
            self.for_update()
        ))
        .bind(e.user)
        .bind(&e.puzzle.id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(open) = open else {
            tx.rollback().await?;
            return Ok(Ended::Earlier);
        };
        let tried_here =
            sqlx::query("SELECT 1 AS one FROM puzzle_probes WHERE address = $1 AND puzzle_id = $2 LIMIT 1")
                .bind(e.address)
                .bind(&e.puzzle.id)
                .fetch_optional(&mut *tx)
                .await?
                .is_some();
        let seen = get::<i64>(&open, "seen")? != 0 || tried_here;
        let unrated = if e.streak {
            Some(Unrated::Streak)
        } else if get::<i64>(&open, "hinted")? != 0 {
            Some(Unrated::Hinted)
        } else if get::<i64>(&open, "handed")? == 0 {
            Some(Unrated::Opened)
        } else if seen {
            Some(Unrated::Seen)
        } else {
            None
        };
        let solved = e.result == AttemptResult::Solved;
        let rated = unrated.is_none();
        let mut after = None;
        let ended = if let Some(why) = unrated {
            Ended::Unrated(why)
        } else {
            let winner = if solved { xiangqi::Color::Red } else { xiangqi::Color::Black };
            let (user_after, puzzle_after) = rate(&player.rating, &puzzle.rating, Some(winner));
            write_puzzle_rating(&mut tx, &puzzle.id, &puzzle_after).await?;
            sqlx::query(
                "UPDATE puzzle_players SET rating = $3, deviation = $4, volatility = $5 \
                 WHERE user_name = $1 AND variant = $2",
            )
            .bind(e.user)
            .bind(&variant)
            .bind(user_after.rating)
            .bind(user_after.deviation)
            .bind(user_after.volatility)
            .execute(&mut *tx)
            .await?;
            after = Some(user_after.rating);
            Ended::Rated { before: player.rating.rating, after: user_after.rating }
        };
        // The rating is written only when there is one: a null bound where a
        // number was bound before confuses a prepared statement's parameter type.
        sqlx::query(
            "UPDATE puzzle_attempts SET result = $3, rated = $4, at_ms = $5, seen = $6 \
             WHERE user_name = $1 AND puzzle_id = $2",
        )
        .bind(e.user)
        .bind(&e.puzzle.id)
        .bind(e.result.name())
        .bind(i64::from(rated))
        .bind(e.now)
        .bind(i64::from(seen))
        .execute(&mut *tx)
        .await?;
        if let Some(after) = after {
            sqlx::query("UPDATE puzzle_attempts SET rating = $3 WHERE user_name = $1 AND puzzle_id = $2")
                .bind(e.user)
                .bind(&e.puzzle.id)
                .bind(after)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "UPDATE puzzle_players SET attempts = attempts + 1, solved = solved + $3, updated_ms = $4 \
             WHERE user_name = $1 AND variant = $2",
        )
        .bind(e.user)
        .bind(&variant)
        .bind(i64::from(solved))
        .bind(e.now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE puzzles SET plays = plays + 1, solves = solves + $2 WHERE id = $1")
            .bind(&e.puzzle.id)
            .bind(i64::from(solved))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ended)
    }

    /// A user's first attempts, newest first.
    pub async fn puzzle_history(&self, user: &str, page: &Page) -> Result<Paged<AttemptRecord>, sqlx::Error> {
        let (ms, id) = page.before();
        let rows: Vec<AttemptRecord> = self
            .all(
                sqlx::query(
                    "SELECT a.*, p.rating AS puzzle_rating, p.themes FROM puzzle_attempts a \
                     JOIN puzzles p ON p.id = a.puzzle_id \
                     WHERE a.user_name = $1 AND a.result <> 'open' AND (a.at_ms < $2 OR (a.at_ms = $2 AND a.puzzle_id < $3)) \
                     ORDER BY a.at_ms DESC, a.puzzle_id DESC LIMIT $4",
                )
                .bind(user)
                .bind(ms)
                .bind(id)
                .bind(page.probe()),
            )
            .await?;
        Ok(page.cut(rows, |a| format!("{}.{}", a.at_ms, a.puzzle_id)))
    }

    /// The best puzzle ratings on a board among users with at least `least` attempts.
    pub async fn puzzle_leaders(
        &self,
        variant: Variant,
        least: i64,
        limit: i64,
    ) -> Result<Vec<PuzzlePlayerRecord>, sqlx::Error> {
        self.all(
            sqlx::query(
                "SELECT * FROM puzzle_players WHERE variant = $1 AND attempts >= $2 ORDER BY rating DESC LIMIT $3",
            )
            .bind(variant.to_string())
            .bind(least)
            .bind(limit),
        )
        .await
    }

    /// Starts a streak (ending any the user had running) on its first puzzle.
    /// Ends the user's running streak and starts `s`, written in the user's
    /// turn to start streaks (which the limit on them counted).
    pub async fn start_streak(&self, on: &mut Counting, s: &StreakRecord) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE puzzle_streaks SET over = 1, current_id = NULL WHERE user_name = $1 AND over = 0",
        )
        .bind(&s.user)
        .execute(on.connection())
        .await?;
        sqlx::query(
            "INSERT INTO puzzle_streaks (id, user_name, variant, started_ms, ends_ms, solved, current_id, over) \
             VALUES ($1, $2, $3, $4, $5, 0, $6, 0)",
        )
        .bind(&s.id)
        .bind(&s.user)
        .bind(s.variant.to_string())
        .bind(s.started_ms)
        .bind(s.ends_ms)
        .bind(s.current.clone())
        .execute(on.connection())
        .await?;
        Ok(())
    }

    pub async fn streak(&self, id: &str) -> Result<Option<StreakRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM puzzle_streaks WHERE id = $1").bind(id)).await
    }

    /// Moves a running streak from the puzzle just solved to the next one.
    pub async fn advance_streak(&self, id: &str, solved: &str, next: &str) -> Result<Written, sqlx::Error> {
        let q = sqlx::query(
            "UPDATE puzzle_streaks SET solved = solved + 1, current_id = $3 \
             WHERE id = $1 AND current_id = $2 AND over = 0",
        )
        .bind(id)
        .bind(solved)
        .bind(next);
        Ok(Written::from_count(self.run(q).await?))
    }

    /// Ends a streak (counting the last puzzle if it was solved) and keeps
    /// the user's best; [`Written::Stale`] if it had ended already.
    pub async fn end_streak(&self, s: &StreakRecord, last_solved: bool) -> Result<Written, sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let ended = sqlx::query(
            "UPDATE puzzle_streaks SET over = 1, current_id = NULL, solved = solved + $2 WHERE id = $1 AND over = 0",
        )
        .bind(&s.id)
        .bind(i64::from(last_solved))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if ended != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        let fresh = Rating::default();
        sqlx::query(
            "INSERT INTO puzzle_players (user_name, variant, rating, deviation, volatility, attempts, solved, \
             best_streak, updated_ms) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6) \
             ON CONFLICT (user_name, variant) DO NOTHING",
        )
        .bind(&s.user)
        .bind(s.variant.to_string())
        .bind(fresh.rating)
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(s.started_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_players SET best_streak = $3 WHERE user_name = $1 AND variant = $2 AND best_streak < $3",
        )
        .bind(&s.user)
        .bind(s.variant.to_string())
        .bind(s.solved + i64::from(last_solved))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// The puzzle of a day, once chosen.
    pub async fn daily_puzzle(&self, day: &str) -> Result<Option<PuzzleRecord>, sqlx::Error> {
        self.one(
            sqlx::query(
                "SELECT p.* FROM puzzle_days d JOIN puzzles p ON p.id = d.puzzle_id WHERE d.day = $1",
            )
            .bind(day),
        )
        .await
    }

    /// Chooses the puzzle of a day unless another request chose first: the
    /// standard-board puzzle nearest `near` that has not been a day's puzzle.
    pub async fn choose_daily(&self, day: &str, near: f64) -> Result<Option<PuzzleRecord>, sqlx::Error> {
        for (cmp, order) in [(">=", "ASC"), ("<", "DESC")] {
            let sql = format!(
                "INSERT INTO puzzle_days (day, puzzle_id) \
                 SELECT $1, p.id FROM puzzles p WHERE p.variant = 'standard' AND p.rating {cmp} $2 \
                 AND NOT EXISTS (SELECT 1 FROM puzzle_days d WHERE d.puzzle_id = p.id) \
                 ORDER BY p.rating {order} LIMIT 1 ON CONFLICT (day) DO NOTHING"
            );
            self.run(sqlx::query(&sql).bind(day).bind(near)).await?;
            if let Some(p) = self.daily_puzzle(day).await? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// Where the search of finished games for puzzles has got to.
    pub async fn puzzle_scan_cursor(&self) -> Result<(i64, String), sqlx::Error> {
        let row = sqlx::query("SELECT after_ms, after_id FROM puzzle_scan WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => (get(&r, "after_ms")?, get(&r, "after_id")?),
            None => (0, String::new()),
        })
    }

    pub async fn set_puzzle_scan_cursor(&self, after_ms: i64, after_id: &str) -> Result<(), sqlx::Error> {
        self.run(
            sqlx::query(
                "INSERT INTO puzzle_scan (id, after_ms, after_id) VALUES (1, $1, $2) \
                 ON CONFLICT (id) DO UPDATE SET after_ms = excluded.after_ms, after_id = excluded.after_id",
            )
            .bind(after_ms)
            .bind(after_id),
        )
        .await?;
        Ok(())
    }

    /// Finished games of at least `least_plies` moves that ended after a
    /// point, in the order they ended.
    pub async fn finished_games_after(
        &self,
        after_ms: i64,
        after_id: &str,
        least_plies: i64,
        limit: i64,
    ) -> Result<Vec<GameRecord>, sqlx::Error> {
        self.all(
            sqlx::query(
                "SELECT * FROM games WHERE status = 'finished' \
                 AND (updated_ms > $1 OR (updated_ms = $1 AND id > $2)) AND ply >= $3 \
                 ORDER BY updated_ms, id LIMIT $4",
            )
            .bind(after_ms)
            .bind(after_id)
            .bind(least_plies)
            .bind(limit),
        )
        .await
    }
}

/// Writes puzzles and their themes; one already stored for the same position
/// is skipped. How many were new.
async fn insert_rows(tx: &mut Tx<'_>, puzzles: &[NewPuzzle]) -> Result<u64, sqlx::Error> {
    let mut added = 0;
    for p in puzzles {
        let fresh = sqlx::query(
            "INSERT INTO puzzles (id, variant, fen, moves, position_key, themes, mate, source, game_id, \
             source_owner, rating, deviation, volatility, plays, solves, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, 0, $14) \
             ON CONFLICT (variant, position_key) DO NOTHING",
        )
        .bind(&p.id)
        .bind(p.variant.to_string())
        .bind(&p.fen)
        .bind(p.moves.join(" "))
        .bind(p.key as i64)
        .bind(PuzzleTheme::to_bits(&p.themes))
        .bind(i64::from(p.mate))
        .bind(p.origin.kind().name())
        .bind(p.origin.game().map(str::to_string))
        .bind(p.origin.owner().map(str::to_string))
        .bind(p.rating)
        .bind(Rating::default().deviation)
        .bind(Rating::default().volatility)
        .bind(p.created_ms)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if fresh == 0 {
            continue;
        }
        added += 1;
        for t in &p.themes {
            sqlx::query(
                "INSERT INTO puzzle_themes (theme, variant, puzzle_id, rating) VALUES ($1, $2, $3, $4)",
            )
            .bind(t.name())
            .bind(p.variant.to_string())
            .bind(&p.id)
            .bind(p.rating)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(added)
}

async fn write_puzzle_rating(tx: &mut Tx<'_>, id: &str, r: &Rating) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4 WHERE id = $1")
        .bind(id)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE puzzle_themes SET rating = $2 WHERE puzzle_id = $1")
        .bind(id)
        .bind(r.rating)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
