//! Puzzles for a filled site: a million of them (a few real lines the finder
//! found, each standing for many, under made-up position keys), their
//! themes, and the puzzle ratings and first attempts of a part of the
//! accounts. Puzzle `i`'s rating grows with `i` (with noise), so a player's
//! tries can be drawn near their own rating, where the next puzzle is looked
//! for: the search then has to step over them, as it does on a real site.

use std::fmt::Write as _;

use sqlx::PgConnection;
use xiangqi::rng::Rng;
use xiangqi_site::model::{Named, puzzles::PuzzleTheme};

use super::{Copy, DAY_MS, Draw, Loaded, Names, Stream, World, fill_id, rng_at};

/// Real puzzles the finder found in self-play games: board, FEN, moves, and
/// the themes it gave them.
const LINES: &[(&str, &str, &str, &[PuzzleTheme])] = {
    use PuzzleTheme::*;
    &[
        (
            "standard",
            "2bak4/2c1a4/9/2n1p4/P8/6P2/8P/4rR3/3NA4/4KA1N1 b - - 5 24",
            "c8b8 f2e2",
            &[Capture, Middlegame],
        ),
        (
            "standard",
            "r1b1ka1r1/3Ra4/n3b1nC1/p1p1p3p/6p2/1cP4R1/P5P1P/4B1N1C/4A4/2BAK4 w - - 0 16",
            "i2i6 b4h4",
            &[Capture, Middlegame],
        ),
        (
            "standard",
            "4ka3/4a4/4b3n/6p2/c5b2/3N5/Cr7/n3BA3/3RA4/4K1B2 b - - 29 51",
            "a5f5 d4b3",
            &[Capture, Middlegame],
        ),
        (
            "standard",
            "2ba1kb2/4a4/8n/P5p2/2R3r1p/4C4/2P1n3P/N7N/4A4/2B1KA3 w - - 3 24",
            "c5f5 g5f5",
            &[Capture, DefensiveMove, Middlegame],
        ),
        (
            "standard",
            "1n1C2b2/1R7/4bk3/p1p1p4/2c6/9/P3Pr3/2N1B4/4N4/3AKAB2 w - - 2 22",
            "b8b9 f3f0",
            &[MateIn1, Capture, FlyingGeneral, Middlegame],
        ),
        (
            "standard",
            "4k1b2/4a4/5a3/P8/4n2P1/5N3/9/9/4A4/3K5 b - - 10 76",
            "e5g6 f4g6",
            &[Capture, FlyingGeneral, Endgame],
        ),
        (
            "standard",
            "2R6/3kc2R1/c4r3/8p/p5p2/9/4r3P/4B4/4A4/2BAK4 w - - 11 33",
            "h8e8 d8e8 c9c8 e8e9",
            &[Capture, DefensiveMove, Middlegame],
        ),
        (
            "hex",
            "3ak/R5/b1p1a2/8/4b4/P2N2p1p/2R6/-3C4/--B1A1n2/---4rP/----KA3 w - - 3 25",
            "e4b4 h2e2",
            &[MateIn1, Fork, Middlegame],
        ),
        (
            "hex",
            "3a1/4ka/6b/3N4/9/9/8b/-8/--1KA4/---6/----1A3 b - - 40 85",
            "e10e9 d7b8 e9f9 b8d7",
            &[DiscoveredAttack, FlyingGeneral, Endgame],
        ),
    ]
};

/// The account of solver `k` of `puzzlers` among `accounts`: spread over
/// the accounts, every so many is one.
pub fn puzzler_account(accounts: u64, puzzlers: u64, k: u64) -> u64 {
    k * (accounts / puzzlers.max(1)).max(1) % accounts
}

/// The lowest and highest puzzle ratings, about.
const LOW: f64 = 600.0;
const SPAN: f64 = 2200.0;

impl World<'_> {
    fn puzzle_id(&self, i: u64) -> String {
        // Past every other id the fill makes.
        fill_id(1_000_000_000_000 + i)
    }

    /// Puzzle `i`: its line and its rating.
    fn puzzle(&self, i: u64) -> (usize, f64, Rng) {
        let mut r = rng_at(self.plan.seed, Stream::Puzzle, i);
        // One in ten on the hex board.
        let line = if r.chance(0.1) { 7 + r.below64(2) as usize } else { r.below64(7) as usize };
        let rating = LOW + SPAN * (i as f64 / self.plan.puzzles.max(1) as f64) + 40.0 * r.normal();
        (line, rating, r)
    }

    pub(super) async fn puzzles(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let columns = "id, variant, fen, moves, position_key, themes, mate, game_id, rating, deviation, volatility, \
                       plays, solves, created_ms";
        let mut copy = Copy::start(conn, "puzzles", columns, self.plan.puzzles, say).await?;
        for i in 0..self.plan.puzzles {
            let (line, rating, mut r) = self.puzzle(i);
            let (variant, fen, moves, themes) = LINES[line];
            let plays = r.below64(400) as i64;
            let _ = writeln!(
                copy.buffer(),
                "{}\t{variant}\t{fen}\t{moves}\t{}\t{}\t{}\t\\N\t{rating:.2}\t{:.1}\t0.06\t{plays}\t{}\t{}",
                self.puzzle_id(i),
                r.next_u64() as i64,
                PuzzleTheme::to_bits(themes),
                i64::from(themes.contains(&PuzzleTheme::MateIn1)),
                (350.0 - plays as f64 * 0.7).max(60.0),
                plays / 2,
                self.now - r.range(0, 365 * DAY_MS),
            );
            copy.row().await?;
        }
        copy.finish().await
    }

    pub(super) async fn puzzle_themes(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let mut copy = Copy::start(
            conn,
            "puzzle_themes",
            "theme, variant, puzzle_id, rating",
            self.plan.puzzles * 2,
            say,
        )
        .await?;
        for i in 0..self.plan.puzzles {
            let (line, rating, _) = self.puzzle(i);
            let (variant, _, _, themes) = LINES[line];
            let id = self.puzzle_id(i);
            for t in themes {
                let _ = writeln!(copy.buffer(), "{}\t{variant}\t{id}\t{rating:.2}", t.name());
                copy.row().await?;
            }
        }
        copy.finish().await
    }

    /// The puzzle number nearest a rating, about.
    fn puzzle_near(&self, rating: f64) -> u64 {
        let at = ((rating - LOW) / SPAN * self.plan.puzzles as f64).max(0.0) as u64;
        at.min(self.plan.puzzles.saturating_sub(1))
    }

    /// Solver `k`: the account, their rating and their number of first attempts.
    fn puzzler(&self, k: u64) -> (u64, f64, u64, Rng) {
        let mut r = rng_at(self.plan.seed, Stream::Puzzler, k);
        let account = puzzler_account(self.plan.accounts, self.plan.puzzlers, k);
        let rating = 1500.0 + 300.0 * r.normal();
        // Most try a few; some try hundreds.
        let attempts = 1 + (r.fraction().powi(3) * 400.0) as u64;
        (account, rating, attempts, r)
    }

    pub(super) async fn puzzle_players(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let names = Names::new(self.plan.seed);
        let columns =
            "user_name, variant, rating, deviation, volatility, attempts, solved, best_streak, updated_ms";
        let mut copy = Copy::start(conn, "puzzle_players", columns, self.plan.puzzlers, say).await?;
        for k in 0..self.plan.puzzlers {
            let (account, rating, attempts, mut r) = self.puzzler(k);
            let _ = writeln!(
                copy.buffer(),
                "{}\tstandard\t{rating:.2}\t{:.1}\t0.06\t{attempts}\t{}\t{}\t{}",
                names.get(account),
                (350.0 - attempts as f64).max(50.0),
                attempts * 6 / 10,
                r.below64(30),
                self.now - r.range(0, 30 * DAY_MS),
            );
            copy.row().await?;
        }
        copy.finish().await
    }

    pub(super) async fn puzzle_attempts(
        &self,
        conn: &mut PgConnection,
        say: &(dyn Fn(&str) + Sync),
    ) -> Result<Loaded, sqlx::Error> {
        let names = Names::new(self.plan.seed);
        let columns = "user_name, puzzle_id, result, hinted, rated, rating, at_ms";
        let expected = self.plan.puzzlers * 50;
        let mut copy = Copy::start(conn, "puzzle_attempts", columns, expected, say).await?;
        for k in 0..self.plan.puzzlers {
            let (account, rating, attempts, mut r) = self.puzzler(k);
            let name = names.get(account);
            // Tried one after another around their rating, as the next puzzle serves them.
            let attempts = attempts.min(self.plan.puzzles);
            let first =
                self.puzzle_near(rating).saturating_sub(attempts / 2).min(self.plan.puzzles - attempts);
            let mut at = self.now - r.range(DAY_MS, 200 * DAY_MS);
            for puzzle in first..first + attempts {
                let solved = r.chance(0.6);
                at += r.range(30_000, DAY_MS);
                let _ = writeln!(
                    copy.buffer(),
                    "{name}\t{}\t{}\t0\t1\t{:.2}\t{at}",
                    self.puzzle_id(puzzle),
                    if solved { "solved" } else { "failed" },
                    rating + 20.0 * r.normal(),
                );
                copy.row().await?;
            }
        }
        copy.finish().await
    }
}
