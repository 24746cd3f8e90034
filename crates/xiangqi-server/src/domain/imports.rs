//! Games imported from PGN files into a user's own collection: the xqbase
//! dialect (its `[Format]` and FEN tags, Chinese tag names as written) with
//! moves in ICCS, WXF or Chinese (traditional or simplified glyphs), many games
//! to a file. Each game is read and replayed move by move by the rules crate;
//! a game refused is named with its place in the file, the move and why, and
//! the others are kept, all in one transaction, and counted in the owner's own
//! opening explorer (games with a result only).

use xiangqi::{
    Color, RuleSet, Variant,
    notation::{
        limits::{Limit, Limits},
        pgn::{self, PgnError, Record},
    },
};

use std::net::IpAddr;

use super::{
    Services,
    accounts::new_id,
    board::Board,
    explorer::{PLIES, Speed},
    model::named_enum,
    refusal::{Error, Illegality, Refusal, Result},
};
use crate::store::{Explored, ImportedRow, Page, Paged};

/// The largest file one upload may be, in bytes: the record limits' bytes per file.
pub const MAX_BYTES: usize = Limits::SITE.file_bytes;
/// The most games one upload may hold: the record limits' games per file.
pub const MAX_GAMES: usize = Limits::SITE.games_per_file;
/// The most imported games one user may keep.
pub const MAX_KEPT: i64 = 20_000;
/// The refusal of an upload over [`MAX_BYTES`] or [`MAX_GAMES`].
pub fn too_large() -> Refusal {
    Refusal::ImportTooLarge { max_kib: (MAX_BYTES / 1024) as u32, max_games: MAX_GAMES as u32 }
}

/// How many imported games one transaction of a deletion of all takes.
const DELETE_PAGE: u32 = Page::MAX;

/// The longest a tag kept from a record (a player's name, the event) may be, in characters.
const TAG_CHARS: usize = 100;

named_enum! {
    /// Why a game of an imported file was refused.
    "why an imported game was refused" ImportProblem {
        /// A tag line that cannot be read.
        Tag = "tag",
        /// The FEN tag names no position the rules accept.
        Fen = "fen",
        /// A move cannot be read, or is illegal where it is played.
        Move = "move",
        /// A comment or variation is not closed.
        Unclosed = "unclosed",
        /// A record of another board than the standard one.
        Variant = "variant",
        /// The record passes a record limit (its line is too long).
        Limit = "limit",
    }
}

/// A game of a file that was refused.
#[derive(Clone, Debug)]
pub struct Refused {
    /// Its place in the file, from 1.
    pub number: u32,
    pub red: String,
    pub black: String,
    pub problem: ImportProblem,
    /// The move refused: its number (ply, from 1), its number as the record
    /// writes it (`2.` for Red's second move, `2...` for Black's), its text and why.
    pub ply: Option<u32>,
    pub label: Option<String>,
    pub text: Option<String>,
    pub why: Option<Illegality>,
    /// The reason in English.
    pub detail: String,
}

/// What came of an upload.
#[derive(Clone, Debug)]
pub struct ImportReport {
    pub kept: Vec<ImportedRow>,
    pub refused: Vec<Refused>,
}

/// The tag blocks of a PGN text, one per game, in order: a game starts at a
/// tag line that comes after moves (or at the first tag line). Only the
/// players' names of a game the rules crate refuses are read from these.
fn tag_blocks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut in_moves = true;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if in_moves {
                games.push(Vec::new());
                in_moves = false;
            }
            let inner = trimmed.trim_start_matches('[').trim_end_matches(']');
            if let (Some((key, value)), Some(game)) =
                (inner.split_once(char::is_whitespace), games.last_mut())
            {
                game.push((key.to_string(), value.trim().trim_matches('"').to_string()));
            }
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
    }
    games
}

/// The players a tag block names, `?` where it does not.
fn named_players(tags: Option<&Vec<(String, String)>>) -> (String, String) {
    let find = |names: &[&str]| {
        tags.and_then(|t| t.iter().find(|(k, _)| names.contains(&k.as_str())))
            .map(|(_, v)| v.chars().filter(|c| !c.is_control()).take(TAG_CHARS).collect())
            .unwrap_or_else(|| "?".to_string())
    };
    (find(&["Red", "红方", "紅方"]), find(&["Black", "黑方"]))
}

/// A tag's value cut to [`TAG_CHARS`], `?` when missing.
fn tag(record: &Record, names: &[&str]) -> String {
    let value = names.iter().find_map(|n| record.tag(n)).unwrap_or("?").trim();
    let value = if value.is_empty() { "?" } else { value };
    value.chars().filter(|c| !c.is_control()).take(TAG_CHARS).collect()
}

/// The players' names of a record, in English or Chinese tag names.
fn players(record: &Record) -> (String, String) {
    (tag(record, &["Red", "红方", "紅方"]), tag(record, &["Black", "黑方"]))
}

fn refused_of(number: u32, (red, black): (String, String), e: &PgnError) -> Refused {
    let mut r = Refused {
        number,
        red,
        black,
        problem: ImportProblem::Move,
        ply: None,
        label: None,
        text: None,
        why: None,
        detail: e.to_string(),
    };
    match e {
        PgnError::Tag { .. } => r.problem = ImportProblem::Tag,
        PgnError::Fen(_) => r.problem = ImportProblem::Fen,
        PgnError::Unclosed { .. } => r.problem = ImportProblem::Unclosed,
        PgnError::Variant(_) => r.problem = ImportProblem::Variant,
        PgnError::OverLimit { ply, .. } => {
            r.problem = ImportProblem::Limit;
            r.ply = ply.and_then(|p| u32::try_from(p).ok());
        }
        PgnError::Move { ply, number, red, text, source } => {
            r.ply = Some(*ply as u32);
            r.label = Some(format!("{number}{}", if *red { "." } else { "..." }));
            r.text = Some(text.clone());
            r.why = Some(Illegality::from(source.as_ref()));
        }
    }
    r
}

/// The winner a Result tag names: `Some(None)` for a draw, none when unknown.
fn winner_of(result: &str) -> Option<Option<Color>> {
    match result.trim() {
        "1-0" => Some(Some(Color::Red)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" | "½-½" => Some(None),
        _ => None,
    }
}

/// What a kept game gives its owner's explorer: its opening, if its result is known.
fn explored(row: &ImportedRow, game: &Board) -> Option<Explored> {
    let (steps, reached) = game.opening(PLIES);
    (row.result != "*").then_some(Explored { rules: row.rules, speed: Speed::Other, steps, reached })
}

/// A kept game replayed from its row, with what it gave its owner's explorer.
fn replayed(row: ImportedRow) -> Result<(ImportedRow, Option<Explored>)> {
    let broken = |why: String| Error::broken(format!("imported game {}: {why}", row.id));
    let mut board = Board::from_fen(Variant::Standard, &row.start_fen, row.rules).map_err(broken)?;
    for m in row.moves.split_whitespace() {
        board.play_name(m).map_err(broken)?;
    }
    let explored = explored(&row, &board);
    Ok((row, explored))
}

/// A game read, checked by replaying it with the rules: kept with what it
/// gives its owner's explorer, or refused.
fn check(
    owner: &str,
    number: u32,
    record: &Record,
    now: i64,
) -> std::result::Result<(ImportedRow, Option<Explored>), Box<Refused>> {
    let rules = record.tag("RuleSet").and_then(|r| r.parse::<RuleSet>().ok()).unwrap_or(RuleSet::Asian);
    let rules = if super::board::rules_fit(Variant::Standard, rules) { rules } else { RuleSet::Asian };
    let game = record.to_game(Some(rules)).map_err(|e| Box::new(refused_of(number, players(record), &e)))?;
    let start_fen = record.start.to_fen();
    let mut board = Board::from_fen(Variant::Standard, &start_fen, rules)
        .map_err(|detail| Refused {
            number,
            red: players(record).0,
            black: players(record).1,
            problem: ImportProblem::Fen,
            ply: None,
            label: None,
            text: None,
            why: None,
            detail,
        })
        .map_err(Box::new)?;
    let mut iccs = Vec::with_capacity(record.moves.len());
    for (i, &m) in game.moves().iter().enumerate() {
        let name = board.names(m).iccs;
        board
            .play(m)
            .map_err(|detail| Refused {
                number,
                red: players(record).0,
                black: players(record).1,
                problem: ImportProblem::Move,
                ply: Some(i as u32 + 1),
                label: Some(format!("{}{}", i / 2 + 1, if i % 2 == 0 { "." } else { "..." })),
                text: Some(name.clone()),
                why: None,
                detail,
            })
            .map_err(Box::new)?;
        iccs.push(name);
    }
    let result = tag(record, &["Result", "结果", "結果"]);
    let winner = winner_of(&result);
    let (red, black) = players(record);
    let elo =
        |n: &str| record.tag(n).and_then(|v| v.trim().parse::<i64>().ok()).filter(|r| (1..4000).contains(r));
    let row = ImportedRow {
        id: new_id(),
        owner: owner.to_string(),
        red,
        black,
        event: tag(record, &["Event", "赛事", "賽事"]),
        date: tag(record, &["Date", "日期"]),
        rules,
        start_fen,
        winner: winner.flatten(),
        result: if winner.is_some() { result } else { "*".into() },
        ply: iccs.len() as i64,
        moves: iccs.join(" "),
        rating: match (elo("RedElo"), elo("BlackElo")) {
            (Some(r), Some(b)) => Some((r + b) / 2),
            _ => None,
        },
        created_ms: now,
    };
    let explored = explored(&row, &board);
    Ok((row, explored))
}

/// What a file gives: the games kept, with what each gives its owner's
/// explorer, and those refused.
type Read = (Vec<(ImportedRow, Option<Explored>)>, Vec<Refused>);

/// Reads and checks every game of a file for `owner`: the heavy part of an
/// import, run in the parsing pool. The file as a whole is measured before
/// any of its games is read.
fn read_file(owner: &str, text: &str, now: i64) -> Result<Read> {
    if text.contains('\0') {
        return Err(Refusal::NulCharacter {}.into());
    }
    pgn::check_file(text, &Limits::SITE).map_err(|e| match e {
        PgnError::OverLimit { limit: Limit::FileBytes | Limit::GamesPerFile, .. } => too_large(),
        other => Refusal::from_pgn(other),
    })?;
    let records = pgn::read_all_with(text, &Limits::SITE);
    // The names of refused games, where the tag blocks line up with the games read.
    let blocks = tag_blocks(text);
    let blocks = if blocks.len() == records.len() { blocks } else { Vec::new() };
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    for (i, read) in records.iter().enumerate() {
        let number = i as u32 + 1;
        match read {
            Err(e) => refused.push(refused_of(number, named_players(blocks.get(i)), e)),
            Ok(record) => match check(owner, number, record, now) {
                Ok(game) => kept.push(game),
                Err(r) => refused.push(*r),
            },
        }
    }
    Ok((kept, refused))
}

impl Services {
    /// Imports the games of a PGN file into `user`'s collection: every game
    /// checked, those refused named, the rest kept together. The file is read
    /// in the parsing pool, in a turn of `client`'s share.
    pub async fn import_pgn(
        &self,
        user: &str,
        client: IpAddr,
        text: String,
        now: i64,
    ) -> Result<ImportReport> {
        if text.len() > MAX_BYTES {
            return Err(too_large().into());
        }
        let owner = user.to_string();
        let (kept, refused) = self.parsing.run(client, move || read_file(&owner, &text, now)).await??;
        // One upload of a user at a time counts and writes: two at once cannot
        // both pass the cap.
        let held = self.store.exclusive(&format!("xiangqi:imports:{user}")).await?;
        let written = async {
            let stored = self.store.imported_count(user).await?;
            if stored + kept.len() as i64 > MAX_KEPT {
                return Err(Refusal::ImportsFull { allowed: MAX_KEPT as u32, stored }.into());
            }
            Ok::<_, super::refusal::Error>(self.store.import_games(&kept).await?)
        }
        .await;
        held.release().await;
        written?;
        Ok(ImportReport { kept: kept.into_iter().map(|(row, _)| row).collect(), refused })
    }

    /// A page of `user`'s imported games, newest first.
    pub async fn imported_games(&self, user: &str, page: &Page) -> Result<Paged<ImportedRow>> {
        Ok(self.store.imported_games(user, page).await?)
    }

    /// Deletes one of `user`'s imported games, and what it gave their explorer.
    pub async fn delete_imported(&self, user: &str, id: &str) -> Result<()> {
        let game = replayed(self.imported_game(user, id).await?)?;
        match self.store.forget_imported(user, &[game]).await? {
            0 => Err(Refusal::NoGame { id: id.to_string() }.into()),
            _ => Ok(()),
        }
    }

    /// Deletes all of `user`'s imported games, a page at a time (each page
    /// with what it gave the explorer, together): how many there were.
    pub async fn delete_all_imported(&self, user: &str) -> Result<u64> {
        let mut deleted = 0;
        loop {
            let page = self.store.imported_games(user, &Page::first(DELETE_PAGE)).await?;
            if page.items.is_empty() {
                return Ok(deleted);
            }
            let games = page.items.into_iter().map(replayed).collect::<Result<Vec<_>>>()?;
            deleted += self.store.forget_imported(user, &games).await?;
        }
    }

    /// One of `user`'s imported games (only its owner sees it).
    pub async fn imported_game(&self, user: &str, id: &str) -> Result<ImportedRow> {
        match self.store.imported_game(id).await? {
            Some(g) if g.owner == user => Ok(g),
            _ => Err(Refusal::NoGame { id: id.to_string() }.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_tag_blocks_name_its_games_players() {
        let text = "[Game \"Chinese Chess\"]\n[Red \"a\"]\n\n1. h2e2 h9g7 1-0\n\n[Game \"Chinese Chess\"]\n[黑方 \"乙\"]\n1. h2e2 *\n";
        let blocks = tag_blocks(text);
        assert_eq!(blocks.len(), 2);
        assert_eq!(named_players(blocks.first()), ("a".to_string(), "?".to_string()));
        assert_eq!(named_players(blocks.get(1)), ("?".to_string(), "乙".to_string()));
        assert_eq!(pgn::read_all(text).len(), 2);
    }

    #[test]
    fn a_bad_game_is_named_with_its_move() {
        let text = "[Red \"x\"]\n1. h2e2 h9g7 2. a0a5 1-0\n";
        let games = pgn::read_all(text);
        let Err(e) = &games[0] else { panic!("a rook cannot jump") };
        let r = refused_of(1, ("x".into(), "y".into()), e);
        assert_eq!(r.problem, ImportProblem::Move);
        assert_eq!(r.ply, Some(3));
    }
}
