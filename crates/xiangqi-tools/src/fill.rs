//! `xiangqi fill`: a PostgreSQL database filled with a site's worth of made-up
//! but consistent data (accounts, games being played with their legal moves,
//! years of finished games, messages, challenges, buddies), to measure the
//! server at that size.
//!
//! Every row is a pure function of the seed and its number, so nothing is held
//! in memory but a few counters per account: rows stream into COPY in batches.
//! The whole fill is one transaction on an empty database: tables are
//! truncated and written with `COPY ... FREEZE` (no later vacuum needed), their
//! keys, indexes and foreign keys are dropped for the load and made again at
//! the end (the foreign keys checked over all the rows). A failure rolls back
//! to the empty database it started from.
//!
//! Games carry every move, from lines the engine plays against itself with
//! players' variety in the openings (2,000 on the standard board and 200 on
//! the hex board by default, each game one of them cut where it ended); finished games also have the games database's rows: the positions
//! each reached in its first 40 plies and the explorer's counts of the moves
//! played from them.

use std::{
    collections::HashMap,
    fmt::Write as _,
    time::{Duration, Instant},
};

use sqlx::{Connection, Executor, PgConnection, Row, postgres::PgCopyIn};
use xiangqi::{RuleSet, Variant};

use xiangqi::rng::Rng;

mod lines;
mod puzzles;
use lines::{LINE_PLIES, Line, Lines};
pub use puzzles::puzzler_account;
use xiangqi_site::{
    domain::accounts::hash_password,
    model::explorer::Speed,
    model::{Named, clock::ClockSpec, ratings::Category},
    store::{Store, TOTALS, band_of},
};

/// How much to write.
#[derive(Clone, Debug)]
pub struct Plan {
    pub accounts: u64,
    /// Correspondence games being played.
    pub open_games: u64,
    pub finished_games: u64,
    pub messages: u64,
    pub challenges: u64,
    /// Buddy and ignore list entries (about).
    pub relations: u64,
    /// Accounts seen in the last minutes (about): who is here.
    pub online: u64,
    pub puzzles: u64,
    /// Accounts with a puzzle rating and first attempts (a few to hundreds each).
    pub puzzlers: u64,
    /// Lines of play the games follow on the standard board (a tenth as many
    /// on the hex board), each played by the engine.
    pub lines: usize,
    /// Engines playing the lines at once.
    pub threads: usize,
    /// The password of every account.
    pub password: String,
    pub seed: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            accounts: 3_000_000,
            open_games: 1_000_000,
            finished_games: 2_000_000,
            messages: 5_000_000,
            challenges: 200_000,
            relations: 2_000_000,
            online: 2_000,
            puzzles: 1_000_000,
            puzzlers: 200_000,
            lines: 2_000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            password: DEFAULT_PASSWORD.to_string(),
            seed: 1,
        }
    }
}

/// The password of every filled account unless another is given.
pub const DEFAULT_PASSWORD: &str = "fill-password";

/// Why a database was not filled.
#[derive(Debug, thiserror::Error)]
pub enum FillError {
    #[error("fill writes PostgreSQL only (it loads with COPY): give a postgres:// URL")]
    NotPostgres,
    #[error("the table {0} holds rows already: fill an empty database (drop it and create it again)")]
    NotEmpty(String),
    #[error("{0}")]
    Plan(String),
    #[error("{0}")]
    Database(#[from] sqlx::Error),
}

/// What one table received and how long it took.
#[derive(Debug)]
pub struct Loaded {
    pub table: &'static str,
    pub rows: u64,
    pub elapsed: Duration,
}

/// What a fill wrote.
#[derive(Debug)]
pub struct Filled {
    pub tables: Vec<Loaded>,
    /// Making keys, indexes and foreign keys again.
    pub indexing: Duration,
    /// Statistics for the planner.
    pub analyzing: Duration,
    pub elapsed: Duration,
}

impl Filled {
    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|t| t.rows).sum()
    }
}

/// The name of filled account number `i` (unique: the letters before it carry
/// no digit, and the number is its end).
pub fn account_name(seed: u64, i: u64) -> String {
    let mut r = rng_at(seed, Stream::Name, i);
    let digits = i.to_string();
    let first = WORDS[r.below64(WORDS.len() as u64) as usize];
    let second = WORDS[r.below64(WORDS.len() as u64) as usize];
    let fits = first.len() + second.len() + 1 + digits.len() <= 20;
    match r.below64(6) {
        0 | 1 => format!("{first}{digits}"),
        2 if fits => format!("{}{}{digits}", capital(first), capital(second)),
        3 if fits => format!("{first}_{second}{digits}"),
        4 => format!("{first}-{digits}"),
        _ => format!("{}{digits}", capital(first)),
    }
}

fn capital(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

/// Fills the empty PostgreSQL database at `url` (its schema made first),
/// telling `say` how it goes.
///
/// # Errors
/// [`FillError`]: not PostgreSQL, a database with rows, a bad plan, or a
/// database error (after which the database is as it was).
pub async fn fill(url: &str, plan: &Plan, say: &(dyn Fn(&str) + Sync)) -> Result<Filled, FillError> {
    if !(url.starts_with("postgres:") || url.starts_with("postgresql:")) {
        return Err(FillError::NotPostgres);
    }
    if plan.accounts < 1000 {
        return Err(FillError::Plan("fill at least 1000 accounts".into()));
    }
    if plan.accounts > 99_999_999 {
        return Err(FillError::Plan("fill at most 99,999,999 accounts (names have 20 characters)".into()));
    }
    if plan.password.chars().count() < 8 {
        return Err(FillError::Plan("the password has at least 8 characters".into()));
    }
    let started = Instant::now();
    // The schema, as the server makes it.
    Store::open(url).await?.close().await;
    let mut conn = PgConnection::connect(url).await?;
    conn.execute("SET synchronous_commit = off").await?;
    conn.execute("SET maintenance_work_mem = '1GB'").await?;
    conn.execute("SET work_mem = '256MB'").await?;
    conn.execute("BEGIN").await?;
    let tables: Vec<String> = sqlx::query(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_sqlx_migrations' \
         ORDER BY tablename",
    )
    .fetch_all(&mut conn)
    .await?
    .iter()
    .map(|r| r.try_get("tablename"))
    .collect::<Result<_, _>>()?;
    for t in &tables {
        let filter = if t == "users" { " WHERE computer_level IS NULL" } else { "" };
        let any: bool = sqlx::query(&format!("SELECT EXISTS (SELECT 1 FROM {}{filter}) AS any", ident(t)))
            .fetch_one(&mut conn)
            .await?
            .try_get("any")?;
        if any {
            return Err(FillError::NotEmpty(t.clone()));
        }
    }
    say("hashing the password once for every account");
    let hash = hash_password(&plan.password).map_err(|e| FillError::Plan(e.to_string()))?;
    let schema = Schema::read(&mut conn).await?;
    schema.drop(&mut conn).await?;
    conn.execute("CREATE TEMPORARY TABLE computers ON COMMIT DROP AS SELECT * FROM users").await?;
    let all = tables.iter().map(|t| ident(t)).collect::<Vec<_>>().join(", ");
    conn.execute(format!("TRUNCATE {all}").as_str()).await?;

    say(&format!("the engine plays the games' {} lines", plan.lines));
    let lines = Lines::play(plan.seed, plan.lines, plan.threads);
    let world = World::new(plan, &lines);
    let mut loaded = Vec::new();
    let mut tally = Tally::new(plan.accounts);
    loaded.push(world.finished_games(&mut conn, &mut tally, say).await?);
    loaded.push(world.open_games(&mut conn, say).await?);
    loaded.push(world.moves(&mut conn, say).await?);
    loaded.extend(world.explorer(&mut conn, say).await?);
    loaded.push(world.users(&mut conn, &tally, &hash, say).await?);
    loaded.push(world.ratings(&mut conn, &tally, say).await?);
    loaded.push(world.messages(&mut conn, say).await?);
    loaded.push(world.challenges(&mut conn, say).await?);
    loaded.push(world.relations(&mut conn, say).await?);
    loaded.push(world.puzzles(&mut conn, say).await?);
    loaded.push(world.puzzle_themes(&mut conn, say).await?);
    loaded.push(world.puzzle_players(&mut conn, say).await?);
    loaded.push(world.puzzle_attempts(&mut conn, say).await?);
    conn.execute("INSERT INTO users SELECT * FROM computers").await?;
    // The ratings are written as they stand: there are no earlier games to replay into them.
    sqlx::query("INSERT INTO rating_replays (id, done_ms) VALUES (1, $1)")
        .bind(world.now)
        .execute(&mut conn)
        .await?;

    let indexing = Instant::now();
    schema.make(&mut conn, say).await?;
    conn.execute("COMMIT").await?;
    let indexing = indexing.elapsed();
    say("analyzing");
    let analyzing = Instant::now();
    conn.execute("ANALYZE").await?;
    let analyzing = analyzing.elapsed();
    conn.close().await?;
    Ok(Filled { tables: loaded, indexing, analyzing, elapsed: started.elapsed() })
}

/// A quoted SQL identifier.
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The keys, indexes and foreign keys of the schema, dropped for the load and
/// made again after it.
struct Schema {
    /// (table, name, definition) of primary keys and unique constraints.
    keys: Vec<(String, String, String)>,
    foreign: Vec<(String, String, String)>,
    /// (name, CREATE INDEX statement).
    indexes: Vec<(String, String)>,
}

impl Schema {
    async fn read(conn: &mut PgConnection) -> Result<Schema, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT c.conrelid::regclass::text AS tbl, c.conname::text AS name, pg_get_constraintdef(c.oid) AS def, \
             c.contype::text AS kind FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace \
             WHERE n.nspname = current_schema() AND c.contype IN ('p', 'u', 'f') \
             AND c.conrelid::regclass::text <> '_sqlx_migrations' ORDER BY c.conname",
        )
        .fetch_all(&mut *conn)
        .await?;
        let (mut keys, mut foreign) = (Vec::new(), Vec::new());
        for r in rows {
            let c = (r.try_get("tbl")?, r.try_get("name")?, r.try_get("def")?);
            if r.try_get::<String, _>("kind")? == "f" { foreign.push(c) } else { keys.push(c) }
        }
        let indexes = sqlx::query(
            "SELECT i.indexname::text AS name, i.indexdef AS def FROM pg_indexes i WHERE i.schemaname = current_schema() \
             AND i.tablename <> '_sqlx_migrations' AND NOT EXISTS (SELECT 1 FROM pg_constraint c \
             WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass AND c.contype IN ('p', 'u')) \
             ORDER BY i.indexname",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("name")?, r.try_get("def")?)))
        .collect::<Result<_, sqlx::Error>>()?;
        Ok(Schema { keys, foreign, indexes })
    }

    async fn drop(&self, conn: &mut PgConnection) -> Result<(), sqlx::Error> {
        for (table, name, _) in self.foreign.iter().chain(&self.keys) {
            conn.execute(format!("ALTER TABLE {table} DROP CONSTRAINT {}", ident(name)).as_str()).await?;
        }
        for (name, _) in &self.indexes {
            conn.execute(format!("DROP INDEX {}", ident(name)).as_str()).await?;
        }
        Ok(())
    }

    async fn make(&self, conn: &mut PgConnection, say: &(dyn Fn(&str) + Sync)) -> Result<(), sqlx::Error> {
        let steps = self.keys.len() + self.indexes.len() + self.foreign.len();
        let mut done = 0;
        let mut step = |what: &str, t: Instant| {
            done += 1;
            say(&format!("  [{done}/{steps}] {what}: {:.1} s", t.elapsed().as_secs_f64()));
        };
        say("making keys, indexes and foreign keys");
        for (table, name, def) in &self.keys {
            let t = Instant::now();
            conn.execute(format!("ALTER TABLE {table} ADD CONSTRAINT {} {def}", ident(name)).as_str())
                .await?;
            step(name, t);
        }
        for (name, def) in &self.indexes {
            let t = Instant::now();
            conn.execute(def.as_str()).await?;
            step(name, t);
        }
        for (table, name, def) in &self.foreign {
            let t = Instant::now();
            conn.execute(format!("ALTER TABLE {table} ADD CONSTRAINT {} {def}", ident(name)).as_str())
                .await?;
            step(name, t);
        }
        Ok(())
    }
}

/// The random streams, one per kind of row, so that each row is found again by
/// its number alone.
#[derive(Clone, Copy)]
enum Stream {
    Name = 1,
    User,
    Finished,
    Open,
    Line,
    Message,
    Challenge,
    Relation,
    Strength,
    Puzzle,
    Puzzler,
}

/// The generator for item `n` of a stream: each item is made from its own
/// numbers, whatever was made before it.
fn rng_at(seed: u64, stream: Stream, n: u64) -> Rng {
    let mut r = Rng(seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((stream as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(n.wrapping_mul(0xBF58_476D_1CE4_E5B9)));
    r.next_u64();
    r
}

/// What made-up data draws, on top of the seeded generator.
trait Draw {
    fn below64(&mut self, n: u64) -> u64;
    fn range(&mut self, low: i64, high: i64) -> i64;
    fn chance(&mut self, p: f64) -> bool;
    fn normal(&mut self) -> f64;
    fn pick<'a, T>(&mut self, weighted: &'a [(T, u32)]) -> &'a T;
}

impl Draw for Rng {
    /// A number in `0..n` (`n` > 0).
    fn below64(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + self.below64((high - low).max(1) as u64) as i64
    }

    fn chance(&mut self, p: f64) -> bool {
        self.fraction() < p
    }

    /// About normally distributed: mean 0, deviation 1.
    fn normal(&mut self) -> f64 {
        (0..6).map(|_| self.fraction()).sum::<f64>() * 2.0 - 6.0
    }

    fn pick<'a, T>(&mut self, weighted: &'a [(T, u32)]) -> &'a T {
        let total: u32 = weighted.iter().map(|(_, w)| w).sum();
        let mut at = self.below64(u64::from(total)) as u32;
        for (t, w) in weighted {
            if at < *w {
                return t;
            }
            at -= w;
        }
        &weighted[weighted.len() - 1].0
    }
}

const ID_ALPHABET: &[u8; 33] = b"abcdefghijkmnopqrstuvwxyz23456789";
/// Ids are 12 characters of the alphabet the server uses: `n` times a number
/// prime to 33 is a different id for every `n`, and looks random.
fn fill_id(n: u64) -> String {
    const SPACE: u128 = 33u128.pow(12);
    let mut x = (u128::from(n) * 762_939_453_125 + 1_234_567_891) % SPACE;
    let mut id = [0u8; 12];
    for c in id.iter_mut().rev() {
        *c = ID_ALPHABET[(x % 33) as usize];
        x /= 33;
    }
    String::from_utf8_lossy(&id).into_owned()
}

const DAY_MS: i64 = 24 * 3600 * 1000;
const HOUR_MS: i64 = 3600 * 1000;
/// The site's history: eight years up to the fill.
const HISTORY_MS: i64 = 8 * 365 * DAY_MS;
/// Seen in the last minutes: here now (as the server counts it).
const HERE_MS: i64 = 5 * 60 * 1000;

/// Per account: results and rated games per category, counted as finished
/// games are written, for the accounts and ratings written after them.
struct Tally {
    /// Wins, losses, draws.
    results: Vec<[u32; 3]>,
    rated: Vec<[u32; 4]>,
    last_ms: Vec<i64>,
}

impl Tally {
    fn new(accounts: u64) -> Tally {
        let n = accounts as usize;
        Tally { results: vec![[0; 3]; n], rated: vec![[0; 4]; n], last_ms: vec![0; n] }
    }
}

/// A game's made-up header.
struct GameHead<'a> {
    id: String,
    red: u64,
    black: u64,
    variant: Variant,
    rules: RuleSet,
    /// (kind, hours, base_ms, increment_ms)
    clock: (&'static str, i64, i64, i64),
    line: &'a Line,
    ply: usize,
    status: &'static str,
    winner: Option<&'static str>,
    reason: Option<&'static str>,
    red_ms: i64,
    black_ms: i64,
    draw_offer: Option<&'static str>,
    rated: bool,
    created_ms: i64,
    updated_ms: i64,
}

const CATEGORIES: [Category; 4] = [
    Category::StandardCorrespondence,
    Category::StandardLive,
    Category::HexCorrespondence,
    Category::HexLive,
];

fn category_index(variant: Variant, live: bool) -> usize {
    match (variant, live) {
        (Variant::Standard, false) => 0,
        (Variant::Standard, true) => 1,
        (Variant::Hex, false) => 2,
        (Variant::Hex, true) => 3,
    }
}

struct World<'a> {
    plan: &'a Plan,
    lines: &'a Lines,
    /// The fill's moment: history ends here.
    now: i64,
}

impl<'a> World<'a> {
    fn new(plan: &'a Plan, lines: &'a Lines) -> World<'a> {
        World { plan, lines, now: xiangqi_site::domain::now_ms() }
    }

    fn start_ms(&self) -> i64 {
        self.now - HISTORY_MS
    }

    /// When account `i` joined: in number order over the first nine tenths of the history.
    fn joined_ms(&self, i: u64) -> i64 {
        self.start_ms() + (i as f64 / self.plan.accounts as f64 * 0.9 * HISTORY_MS as f64) as i64
    }

    /// A player among the first `reach` accounts: most at random, some of the
    /// earliest far more often (a few play thousands of games).
    fn player(&self, r: &mut Rng, reach: u64) -> u64 {
        if r.chance(0.6) { r.below64(reach) } else { (r.fraction().powi(2) * reach as f64) as u64 }
    }

    /// A player's strength: what their ratings are near and their results follow.
    fn strength(&self, i: u64) -> f64 {
        1500.0 + 220.0 * rng_at(self.plan.seed, Stream::Strength, i).normal()
    }

    fn pair(&self, r: &mut Rng, reach: u64) -> (u64, u64) {
        let red = self.player(r, reach);
        loop {
            let black = self.player(r, reach);
            if black != red {
                return (red, black);
            }
        }
    }

    fn board(&self, r: &mut Rng) -> (Variant, RuleSet) {
        if r.chance(0.1) {
            (Variant::Hex, RuleSet::Hex)
        } else {
            (
                Variant::Standard,
                *r.pick(&[(RuleSet::Asian, 55), (RuleSet::ItsYourTurn, 30), (RuleSet::Casual, 15)]),
            )
        }
    }

    fn line(&self, r: &mut Rng, variant: Variant) -> &'a Line {
        let lines = self.lines.of(variant);
        &lines[r.below64(lines.len() as u64) as usize]
    }

    fn correspondence(r: &mut Rng) -> (&'static str, i64, i64, i64) {
        ("correspondence", *r.pick(&[(24, 15), (48, 25), (72, 30), (120, 15), (168, 10), (336, 5)]), 0, 0)
    }

    /// Finished game number `k`: they end in order over the history.
    fn finished_game(&self, k: u64) -> GameHead<'a> {
        let mut r = rng_at(self.plan.seed, Stream::Finished, k);
        let n = self.plan.accounts;
        let f = k as f64 / self.plan.finished_games.max(1) as f64;
        let reach = ((n as f64 * (f / 0.9).min(1.0)) as u64).clamp(1000.min(n), n);
        let (red, black) = self.pair(&mut r, reach);
        let (variant, rules) = self.board(&mut r);
        let live = r.chance(0.3);
        let clock = if live {
            (
                "live",
                0,
                *r.pick(&[(180_000, 20), (300_000, 35), (600_000, 30), (900_000, 15)]),
                *r.pick(&[(0, 50), (2000, 25), (5000, 25)]),
            )
        } else {
            Self::correspondence(&mut r)
        };
        let line = self.line(&mut r, variant);
        let aborted = r.chance(0.03);
        let ply = if aborted { r.below64(2) as usize } else { r.range(12, LINE_PLIES as i64 + 1) as usize };
        let per_move = if live { r.range(3_000, 25_000) } else { r.range(HOUR_MS, 30 * HOUR_MS) };
        let ended = (self.start_ms() + (f * HISTORY_MS as f64) as i64 + r.range(0, HOUR_MS))
            .max(self.joined_ms(red.max(black)) + ply as i64 * per_move + HOUR_MS)
            .min(self.now - HOUR_MS);
        let (status, winner, reason) = if aborted {
            ("aborted", None, None)
        } else {
            let reason = *r.pick(&[
                ("resignation", 40),
                ("checkmate", 18),
                ("time_forfeit", 18),
                ("agreement", 10),
                ("repetition", 4),
                ("perpetual_check", 3),
                ("perpetual_chase", 2),
                ("move_limit", 2),
                ("no_attackers", 2),
                ("stalemate", 1),
            ]);
            let drawn = matches!(reason, "agreement" | "move_limit" | "no_attackers")
                || (reason == "repetition" && rules != RuleSet::Hex);
            let winner = if drawn {
                None
            } else {
                let edge = self.strength(red) - self.strength(black) + 30.0;
                Some(if r.chance(1.0 / (1.0 + 10f64.powf(-edge / 400.0))) { "red" } else { "black" })
            };
            ("finished", winner, Some(reason))
        };
        let (red_ms, black_ms) = if live {
            let base = clock.2;
            ((base as f64 * r.fraction()) as i64, (base as f64 * r.fraction()) as i64)
        } else {
            (0, 0)
        };
        GameHead {
            id: fill_id(k),
            red,
            black,
            variant,
            rules,
            clock,
            line,
            ply,
            status,
            winner,
            reason,
            red_ms,
            black_ms,
            draw_offer: None,
            rated: !aborted && r.chance(0.85),
            created_ms: ended - ply as i64 * per_move - r.range(0, HOUR_MS),
            updated_ms: ended,
        }
    }

    /// Correspondence game number `k` being played: its last move was made
    /// within its time for a move.
    fn open_game(&self, k: u64) -> GameHead<'a> {
        let mut r = rng_at(self.plan.seed, Stream::Open, k);
        let (red, black) = self.pair(&mut r, self.plan.accounts);
        let (variant, rules) = self.board(&mut r);
        let clock = Self::correspondence(&mut r);
        let line = self.line(&mut r, variant);
        let ply = r.range(10, LINE_PLIES as i64 + 1) as usize;
        let turn_started = self.now - r.range(0, clock.1 * HOUR_MS * 9 / 10);
        let per_move = r.range(HOUR_MS, 20 * HOUR_MS);
        GameHead {
            id: fill_id(self.plan.finished_games + k),
            red,
            black,
            variant,
            rules,
            clock,
            line,
            ply,
            status: "active",
            winner: None,
            reason: None,
            red_ms: 0,
            black_ms: 0,
            draw_offer: if r.chance(0.02) { Some(if ply % 2 == 0 { "black" } else { "red" }) } else { None },
            rated: r.chance(0.85),
            created_ms: turn_started - ply as i64 * per_move,
            updated_ms: turn_started,
        }
    }

    fn game_row(&self, g: &GameHead<'_>, out: &mut String, names: &Names) {
        let start = &g.line.fens[0];
        let fen = &g.line.fens[g.ply];
        let (kind, hours, base, increment) = g.clock;
        // id red black variant rules start_fen clock_kind hours base_ms increment_ms ply version fen status
        // winner reason red_ms black_ms turn_started_ms draw_offer rated created_ms updated_ms
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{start}\t{kind}\t{hours}\t{base}\t{increment}\t{}\t{}\t{fen}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            g.id,
            names.get(g.red),
            names.get(g.black),
            g.variant.name(),
            g.rules.name(),
            g.ply,
            g.ply + 1,
            g.status,
            g.winner.unwrap_or("\\N"),
            g.reason.unwrap_or("\\N"),
            g.red_ms,
            g.black_ms,
            g.updated_ms,
            g.draw_offer.unwrap_or("\\N"),
            i64::from(g.rated),
            g.created_ms,
            g.updated_ms,
        );
    }

    async fn finished_games(
        &self,
        conn: &mut PgConnection,
        tally: &mut Tally,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let names = Names::new(self.plan.seed);
        let mut copy = Copy::start(conn, "games", GAME_COLUMNS, self.plan.finished_games, say).await?;
        for k in 0..self.plan.finished_games {
            let g = self.finished_game(k);
            if g.status == "finished" {
                let (red, black) = (g.red as usize, g.black as usize);
                match g.winner {
                    Some("red") => {
                        tally.results[red][0] += 1;
                        tally.results[black][1] += 1;
                    }
                    Some(_) => {
                        tally.results[black][0] += 1;
                        tally.results[red][1] += 1;
                    }
                    None => {
                        tally.results[red][2] += 1;
                        tally.results[black][2] += 1;
                    }
                }
                if g.rated {
                    let c = category_index(g.variant, g.clock.0 == "live");
                    tally.rated[red][c] += 1;
                    tally.rated[black][c] += 1;
                }
                tally.last_ms[red] = tally.last_ms[red].max(g.updated_ms);
                tally.last_ms[black] = tally.last_ms[black].max(g.updated_ms);
            }
            self.game_row(&g, copy.buffer(), &names);
            copy.row().await?;
        }
        copy.finish().await
    }

    async fn open_games(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let names = Names::new(self.plan.seed);
        let mut copy = Copy::start(conn, "games", GAME_COLUMNS, self.plan.open_games, say).await?;
        for k in 0..self.plan.open_games {
            self.game_row(&self.open_game(k), copy.buffer(), &names);
            copy.row().await?;
        }
        let mut l = copy.finish().await?;
        l.table = "games (being played)";
        Ok(l)
    }

    async fn moves(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        // About the mean length of a game.
        let expected = (self.plan.finished_games + self.plan.open_games) * 45;
        let mut copy = Copy::start(conn, "moves", "game_id, ply, iccs, wxf, at_ms", expected, say).await?;
        let finished = (0..self.plan.finished_games).map(|k| self.finished_game(k));
        for g in finished.chain((0..self.plan.open_games).map(|k| self.open_game(k))) {
            if g.ply == 0 {
                continue;
            }
            let span = g.updated_ms - g.created_ms;
            for (p, (iccs, wxf)) in g.line.moves[..g.ply].iter().enumerate() {
                let at = g.created_ms + span * (p as i64 + 1) / g.ply as i64;
                let _ = writeln!(copy.buffer(), "{}\t{}\t{iccs}\t{wxf}\t{at}", g.id, p + 1);
                copy.row().await?;
            }
        }
        copy.finish().await
    }

    /// The games database's rows for the finished games: the positions each
    /// reached in its first plies, and the explorer's counts of the moves
    /// played from them (summed here, then written a row per bucket), as the
    /// server writes them when a game ends.
    async fn explorer(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Vec<Loaded>, sqlx::Error> {
        let plies = xiangqi_site::domain::explorer::PLIES;
        let expected = self.plan.finished_games * (plies as u64 + 1);
        let mut counts: HashMap<(i64, &str, &str, i64, &str), [i64; 6]> = HashMap::new();
        let mut copy =
            Copy::start(conn, "game_positions", "pos_key, ended_ms, game_id", expected, say).await?;
        for k in 0..self.plan.finished_games {
            let g = self.finished_game(k);
            if g.status != "finished" {
                continue;
            }
            let counted = g.ply.min(plies);
            let keys = &g.line.keys[..=counted];
            for (i, key) in keys.iter().enumerate() {
                if keys[..i].contains(key) {
                    continue;
                }
                let _ = writeln!(copy.buffer(), "{key}\t{}\t{}", g.updated_ms, g.id);
                copy.row().await?;
            }
            let (kind, hours, base, increment) = g.clock;
            let speed = ClockSpec::from_columns(kind, hours, base, increment).map_or(Speed::Other, Speed::of);
            let rating = ((self.strength(g.red) + self.strength(g.black)) / 2.0).round() as i64;
            let band = band_of(Some(rating));
            for i in 0..counted {
                if keys[..i].contains(&keys[i]) {
                    continue;
                }
                let mv = g.line.moves[i].0.as_str();
                for (rules, speed, band) in [(g.rules.name(), speed.name(), band), TOTALS] {
                    let c = counts.entry((keys[i], rules, speed, band, mv)).or_default();
                    c[0] += 1;
                    match g.winner {
                        Some("red") => c[1] += 1,
                        Some(_) => c[3] += 1,
                        None => c[2] += 1,
                    }
                    c[4] += rating;
                    c[5] += 1;
                }
            }
        }
        let positions = copy.finish().await?;
        let columns = "owner, pos_key, rules, speed, band, mv, games, red_wins, draws, black_wins, rating_sum, rated_games";
        let mut copy = Copy::start(conn, "explorer_moves", columns, counts.len() as u64, say).await?;
        for ((key, rules, speed, band, mv), c) in &counts {
            let _ = writeln!(
                copy.buffer(),
                "\t{key}\t{rules}\t{speed}\t{band}\t{mv}\t{}\t{}\t{}\t{}\t{}\t{}",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                c[5]
            );
            copy.row().await?;
        }
        Ok(vec![positions, copy.finish().await?])
    }

    async fn users(
        &self,
        conn: &mut PgConnection,
        tally: &Tally,
        hash: &str,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let columns = "name, name_key, password_hash, bio, rating, created_ms, seen_ms, wins, losses, draws, \
                       location, languages, admin, shown_category, rated_by_default";
        let n = self.plan.accounts;
        let mut copy = Copy::start(conn, "users", columns, n, say).await?;
        let here = self.plan.online as f64 / n as f64;
        for i in 0..n {
            let mut r = rng_at(self.plan.seed, Stream::User, i);
            let name = account_name(self.plan.seed, i);
            let joined = self.joined_ms(i);
            let last = tally.last_ms[i as usize].max(joined);
            let seen = if r.chance(here) {
                self.now - r.range(0, HERE_MS - 60_000)
            } else {
                last + ((self.now - 2 * HERE_MS - last) as f64 * r.fraction()) as i64
            };
            let bio = if r.chance(0.1) { *r.pick(&BIOS) } else { "" };
            let location = if r.chance(0.2) { *r.pick(&LOCATIONS) } else { "" };
            let languages = if r.chance(0.3) { *r.pick(&LANGUAGES) } else { "" };
            let shown = rating_of(
                self.strength(i),
                tally.rated[i as usize][0],
                &mut rng_at(self.plan.seed, Stream::Strength, i + n),
            )
            .0;
            let [w, l, d] = tally.results[i as usize];
            let _ = writeln!(
                copy.buffer(),
                "{name}\t{}\t{hash}\t{bio}\t{}\t{joined}\t{seen}\t{w}\t{l}\t{d}\t{location}\t{languages}\t0\tstandard_correspondence\t1",
                name.to_lowercase(),
                shown.round() as i64,
            );
            copy.row().await?;
        }
        copy.finish().await
    }

    async fn ratings(
        &self,
        conn: &mut PgConnection,
        tally: &Tally,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let columns = "user_name, category, rating, deviation, volatility, games, updated_ms";
        let n = self.plan.accounts;
        let names = Names::new(self.plan.seed);
        let mut copy = Copy::start(conn, "ratings", columns, n, say).await?;
        for i in 0..n {
            for (c, category) in CATEGORIES.iter().enumerate() {
                let games = tally.rated[i as usize][c];
                if games == 0 {
                    continue;
                }
                // The standard correspondence rating is drawn as the users' shown one was.
                let stream = if c == 0 { i + n } else { i + n * (c as u64 + 1) };
                let (rating, deviation, volatility) =
                    rating_of(self.strength(i), games, &mut rng_at(self.plan.seed, Stream::Strength, stream));
                let _ = writeln!(
                    copy.buffer(),
                    "{}\t{}\t{rating:.3}\t{deviation:.3}\t{volatility:.5}\t{games}\t{}",
                    names.get(i),
                    category.name(),
                    tally.last_ms[i as usize],
                );
                copy.row().await?;
            }
        }
        copy.finish().await
    }

    async fn messages(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let columns = "id, sender, recipient, body, created_ms, read_ms, sender_deleted, recipient_deleted";
        let names = Names::new(self.plan.seed);
        let n = self.plan.accounts;
        let base = self.plan.finished_games + self.plan.open_games + self.plan.challenges;
        let mut copy = Copy::start(conn, "messages", columns, self.plan.messages, say).await?;
        for j in 0..self.plan.messages {
            let mut r = rng_at(self.plan.seed, Stream::Message, j);
            let sender = self.player(&mut r, n);
            // Half go to someone on the sender's buddy list, as most letters do.
            let recipient = if r.chance(0.5) {
                buddy(sender, r.below64(8), n)
            } else {
                let mut to = self.player(&mut r, n);
                while to == sender {
                    to = self.player(&mut r, n);
                }
                to
            };
            let first = self.joined_ms(sender.max(recipient));
            // More of them lately.
            let created = first + ((self.now - first) as f64 * (1.0 - r.fraction().powi(3))) as i64
                - r.range(0, HOUR_MS);
            let created = created.max(first);
            let read = if r.chance(if self.now - created > 7 * DAY_MS { 0.95 } else { 0.5 }) {
                (created + r.range(60_000, 2 * DAY_MS)).min(self.now).to_string()
            } else {
                "\\N".to_string()
            };
            let _ = writeln!(
                copy.buffer(),
                "{}\t{}\t{}\t{}\t{created}\t{read}\t{}\t{}",
                fill_id(base + j),
                names.get(sender),
                names.get(recipient),
                r.pick(&MESSAGES),
                i64::from(r.chance(0.03)),
                i64::from(r.chance(0.03)),
            );
            copy.row().await?;
        }
        copy.finish().await
    }

    async fn challenges(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let columns = "id, creator, opponent, rules, color, clock_kind, hours, base_ms, increment_ms, auto, status, \
                       game_id, created_ms, rated";
        let names = Names::new(self.plan.seed);
        let n = self.plan.accounts;
        let base = self.plan.finished_games + self.plan.open_games;
        let mut copy = Copy::start(conn, "challenges", columns, self.plan.challenges, say).await?;
        for j in 0..self.plan.challenges {
            let mut r = rng_at(self.plan.seed, Stream::Challenge, j);
            let (_, rules) = self.board(&mut r);
            let clock = if r.chance(0.2) {
                ("live", 0, *r.pick(&[(300_000, 50), (600_000, 50)]), *r.pick(&[(0, 50), (5000, 50)]))
            } else {
                Self::correspondence(&mut r)
            };
            let color = *r.pick(&[("random", 60), ("red", 20), ("black", 20)]);
            let kind = *r.pick(&[("room", 12), ("direct", 8), ("cancelled", 50), ("accepted", 30)]);
            let (creator, opponent, status, game, created, auto) = match kind {
                "accepted" if self.plan.finished_games > 0 => {
                    let g = self.finished_game(r.below64(self.plan.finished_games));
                    (g.red, Some(g.black), "accepted", Some(g.id), g.created_ms - r.range(60_000, DAY_MS), 0)
                }
                "room" => {
                    let creator = self.player(&mut r, n);
                    // Open ones are recent: the waiting room of the last two weeks.
                    (
                        creator,
                        None,
                        "open",
                        None,
                        self.now - r.range(60_000, 14 * DAY_MS),
                        i64::from(r.chance(0.1)),
                    )
                }
                "direct" => {
                    let creator = self.player(&mut r, n);
                    let to = buddy(creator, r.below64(8), n);
                    (creator, Some(to), "open", None, self.now - r.range(60_000, 14 * DAY_MS), 0)
                }
                _ => {
                    let creator = self.player(&mut r, n);
                    let to = r.chance(0.5).then(|| buddy(creator, r.below64(8), n));
                    let first = self.joined_ms(creator);
                    (
                        creator,
                        to,
                        "cancelled",
                        None,
                        first + ((self.now - first) as f64 * r.fraction()) as i64,
                        0,
                    )
                }
            };
            let (clock_kind, hours, base_ms, increment) = clock;
            let _ = writeln!(
                copy.buffer(),
                "{}\t{}\t{}\t{}\t{color}\t{clock_kind}\t{hours}\t{base_ms}\t{increment}\t{auto}\t{status}\t{}\t{created}\t{}",
                fill_id(base + j),
                names.get(creator),
                opponent.map_or_else(|| "\\N".to_string(), |o| names.get(o)),
                rules.name(),
                game.unwrap_or_else(|| "\\N".to_string()),
                i64::from(r.chance(0.85)),
            );
            copy.row().await?;
        }
        copy.finish().await
    }

    async fn relations(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let names = Names::new(self.plan.seed);
        let n = self.plan.accounts;
        // Three in ten keep a list; their lists are as long as makes the total.
        let mean = (self.plan.relations as f64 / n as f64 / 0.3).max(1.0);
        let mut copy =
            Copy::start(conn, "relations", "owner, other, kind, created_ms", self.plan.relations, say)
                .await?;
        for owner in 0..n {
            let mut r = rng_at(self.plan.seed, Stream::Relation, owner);
            if !r.chance(0.3) {
                continue;
            }
            let count = 1 + r.below64((2.0 * mean) as u64).min(BUDDY_SLOTS - 1);
            for slot in 0..count {
                let other = buddy(owner, slot, n);
                let kind = if r.chance(0.08) { "ignore" } else { "buddy" };
                let first = self.joined_ms(owner.max(other));
                let at = first + ((self.now - first) as f64 * r.fraction()) as i64;
                let _ = writeln!(copy.buffer(), "{}\t{}\t{kind}\t{at}", names.get(owner), names.get(other));
                copy.row().await?;
            }
        }
        copy.finish().await
    }
}

/// The columns a game row is written in.
const GAME_COLUMNS: &str = "id, red, black, variant, rules, start_fen, clock_kind, hours, base_ms, increment_ms, ply, \
    version, fen, status, winner, reason, red_ms, black_ms, turn_started_ms, draw_offer, rated, created_ms, updated_ms";

/// How many different accounts one account's buddy list may name.
const BUDDY_SLOTS: u64 = 64;

/// The account in slot `slot` of `owner`'s buddy list: distinct slots are
/// distinct accounts, never the owner.
fn buddy(owner: u64, slot: u64, accounts: u64) -> u64 {
    let step = (accounts - 1) / BUDDY_SLOTS;
    (owner + 1 + (slot % BUDDY_SLOTS) * step + owner % step.max(1)) % accounts
}

/// A Glicko-2 rating near a player's strength, surer with more games.
fn rating_of(strength: f64, games: u32, r: &mut Rng) -> (f64, f64, f64) {
    if games == 0 {
        return (1500.0, 350.0, 0.06);
    }
    let deviation = (350.0 / (1.0 + f64::from(games) / 4.0).sqrt()).max(45.0 + 10.0 * r.fraction());
    let rating = (strength + r.normal() * deviation * 0.5).clamp(600.0, 2900.0);
    (rating, deviation, 0.06 + 0.004 * r.normal().abs())
}

/// Account names by number, made once per table (they are the keys the other
/// tables name).
struct Names {
    seed: u64,
}

impl Names {
    fn new(seed: u64) -> Names {
        Names { seed }
    }

    fn get(&self, i: u64) -> String {
        account_name(self.seed, i)
    }
}

/// Rows into one table's COPY, sent in batches of about a megabyte, with
/// progress every few seconds.
struct Copy<'c, 's> {
    copy: PgCopyIn<&'c mut PgConnection>,
    table: &'static str,
    buffer: String,
    rows: u64,
    expected: u64,
    started: Instant,
    told: Instant,
    say: &'s (dyn Fn(&str) + Sync),
}

impl<'c, 's> Copy<'c, 's> {
    async fn start(
        conn: &'c mut PgConnection,
        table: &'static str,
        columns: &str,
        expected: u64,
        say: &'s (dyn Fn(&str) + Sync),
    ) -> Result<Copy<'c, 's>, sqlx::Error> {
        let copy = conn.copy_in_raw(&format!("COPY {table} ({columns}) FROM STDIN WITH (FREEZE)")).await?;
        let now = Instant::now();
        Ok(Copy {
            copy,
            table,
            buffer: String::with_capacity(1 << 21),
            rows: 0,
            expected,
            started: now,
            told: now,
            say,
        })
    }

    fn buffer(&mut self) -> &mut String {
        &mut self.buffer
    }

    /// One row more is in the buffer.
    async fn row(&mut self) -> Result<(), sqlx::Error> {
        self.rows += 1;
        if self.buffer.len() >= 1 << 20 {
            self.send().await?;
            if self.told.elapsed() >= Duration::from_secs(5) {
                self.told = Instant::now();
                let secs = self.started.elapsed().as_secs_f64();
                (self.say)(&format!(
                    "  {}: {} of {} rows, {:.0} rows/s",
                    self.table,
                    self.rows,
                    self.expected,
                    self.rows as f64 / secs
                ));
            }
        }
        Ok(())
    }

    async fn send(&mut self) -> Result<(), sqlx::Error> {
        self.copy.send(self.buffer.as_bytes()).await?;
        self.buffer.clear();
        Ok(())
    }

    async fn finish(mut self) -> Result<Loaded, sqlx::Error> {
        if !self.buffer.is_empty() {
            self.send().await?;
        }
        self.copy.finish().await?;
        let elapsed = self.started.elapsed();
        (self.say)(&format!(
            "{}: {} rows in {:.1} s, {:.0} rows/s",
            self.table,
            self.rows,
            elapsed.as_secs_f64(),
            self.rows as f64 / elapsed.as_secs_f64().max(1e-9)
        ));
        Ok(Loaded { table: self.table, rows: self.rows, elapsed })
    }
}

const WORDS: [&str; 64] = [
    "li", "wang", "zhang", "liu", "chen", "yang", "huang", "zhao", "wu", "zhou", "xu", "sun", "ma", "zhu",
    "hu", "guo", "he", "lin", "luo", "gao", "nguyen", "tran", "pham", "le", "tiger", "dragon", "river",
    "cannon", "horse", "chariot", "elephant", "advisor", "general", "pawn", "red", "black", "master", "wind",
    "cloud", "stone", "jade", "pine", "crane", "phoenix", "lotus", "moon", "star", "storm", "iron", "silver",
    "golden", "silent", "swift", "lucky", "north", "south", "east", "west", "mountain", "lake", "bamboo",
    "plum", "snow", "fire",
];

const BIOS: [(&str, u32); 8] = [
    ("Correspondence player since the old days.", 3),
    ("I like the central cannon opening.", 3),
    ("Slow games only, please.", 2),
    ("学象棋二十年了。", 2),
    ("喜欢下慢棋，欢迎挑战。", 2),
    ("Club player, always happy to play a rated game.", 2),
    ("Learning the endgames one at a time.", 1),
    ("中炮对屏风马爱好者", 1),
];

const LOCATIONS: [(&str, u32); 10] = [
    ("Beijing", 3),
    ("Shanghai", 3),
    ("Guangzhou", 2),
    ("Hong Kong", 2),
    ("Taipei", 2),
    ("Singapore", 2),
    ("Hanoi", 2),
    ("Vancouver", 1),
    ("London", 1),
    ("San Francisco", 1),
];

const LANGUAGES: [(&str, u32); 5] = [("zh", 5), ("en", 4), ("en,zh", 3), ("vi", 2), ("de,en", 1)];

const MESSAGES: [(&str, u32); 12] = [
    ("Good game! Rematch?", 4),
    ("Thanks for the game.", 4),
    ("Sorry for the slow moves this week, I am travelling.", 2),
    ("Would you like to play a rated correspondence game?", 2),
    ("That cannon sacrifice was brilliant.", 1),
    ("I missed the horse fork completely.", 1),
    ("谢谢，下得很好！", 3),
    ("再来一盘吗？", 2),
    ("这几天比较忙，走棋会慢一点。", 1),
    ("你的中局很厉害。", 1),
    ("Happy new year!", 1),
    ("Shall we try the hex board next?", 1),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_distinct_and_well_formed() {
        let ids: std::collections::HashSet<String> = (0..100_000).map(fill_id).collect();
        assert_eq!(ids.len(), 100_000);
        let names: std::collections::HashSet<String> =
            (0..100_000).map(|i| account_name(7, i).to_lowercase()).collect();
        assert_eq!(names.len(), 100_000);
        for i in [0, 9, 99_999_999] {
            let name = account_name(7, i);
            assert!(xiangqi_site::domain::accounts::check_name(&name).is_ok(), "{name}");
        }
    }

    #[test]
    fn buddy_slots_name_others() {
        for owner in [0, 1, 999, 2_999_999] {
            let others: std::collections::HashSet<u64> =
                (0..BUDDY_SLOTS).map(|s| buddy(owner, s, 3_000_000)).collect();
            assert_eq!(others.len() as u64, BUDDY_SLOTS);
            assert!(!others.contains(&owner));
        }
    }
}
