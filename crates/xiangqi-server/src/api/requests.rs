//! Request bodies and query strings. Every one refuses fields it does not know,
//! so a misspelt or unsupported field is an error, never silently ignored.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use xiangqi::{RuleSet, Variant};

use crate::model::accounts::ProfileFields;
use crate::model::board::BoardSpec;
use crate::model::page::Page;
use crate::model::wire;
use crate::model::{DrawAction, SideChoice, TournamentFormat, clock::ClockSpec, ratings::Category};

/// A user id and password, to register or log in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3-20 letters, digits, `_` or `-`; unique ignoring case.
    pub name: String,
    /// 8-200 characters.
    pub password: String,
    /// Registering only: the code of the invitation followed (`/#/join/{code}`).
    #[serde(default)]
    pub invite: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

/// The whole profile: fields left out are cleared.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileEdit {
    /// At most 500 characters, kept as typed and shown as text.
    pub bio: String,
    /// At most 100 characters.
    #[serde(default)]
    pub location: String,
    /// Up to 8 languages the user reads, 1-30 characters each.
    #[serde(default)]
    pub languages: Vec<String>,
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<RuleSet>)]
    pub preferred_rules: Option<RuleSet>,
    #[serde(default)]
    pub preferred_clock: Option<ClockSpec>,
}

impl From<ProfileEdit> for ProfileFields {
    fn from(p: ProfileEdit) -> Self {
        ProfileFields {
            bio: p.bio,
            location: p.location.trim().to_string(),
            languages: p.languages.into_iter().map(|l| l.trim().to_string()).collect(),
            preferred_rules: p.preferred_rules,
            preferred_clock: p.preferred_clock,
        }
    }
}

/// A private message.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewMessage {
    /// The recipient's user id.
    pub to: String,
    /// 1-2000 characters, kept as typed.
    pub body: String,
}

/// A line in a game's chat.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChatLine {
    /// 1-500 characters, kept as typed.
    pub body: String,
}

/// How to read an uploaded record file.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// The encoding of a text file, where the guess between GBK and Big5
    /// might fail (a short file); guessed when left out.
    pub encoding: Option<TextEncoding>,
    /// Answer as it goes (`true`): a line of JSON (`application/x-ndjson`)
    /// with the progress every quarter of a second, then the answer or the
    /// refusal, instead of one answer at the end.
    pub progress: Option<bool>,
}

/// A new study from a record file: its title, and the encoding of a text file.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StudyImportQuery {
    /// 1-80 characters.
    pub title: String,
    /// Guessed when left out.
    pub encoding: Option<TextEncoding>,
}

/// The encodings of text record files.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    #[serde(rename = "utf-8")]
    Utf8,
    /// GB18030, which reads GBK and GB2312 files too.
    #[serde(rename = "gb18030", alias = "gbk", alias = "gb2312")]
    Gb18030,
    #[serde(rename = "big5")]
    Big5,
    #[serde(rename = "utf-16le")]
    Utf16Le,
    #[serde(rename = "utf-16be")]
    Utf16Be,
}

impl From<xiangqi_records::Encoding> for TextEncoding {
    fn from(e: xiangqi_records::Encoding) -> Self {
        use xiangqi_records::Encoding;
        match e {
            Encoding::Utf8 => TextEncoding::Utf8,
            Encoding::Gb18030 => TextEncoding::Gb18030,
            Encoding::Big5 => TextEncoding::Big5,
            Encoding::Utf16Le => TextEncoding::Utf16Le,
            Encoding::Utf16Be => TextEncoding::Utf16Be,
        }
    }
}

impl From<TextEncoding> for xiangqi_records::Encoding {
    fn from(e: TextEncoding) -> Self {
        use xiangqi_records::Encoding;
        match e {
            TextEncoding::Utf8 => Encoding::Utf8,
            TextEncoding::Gb18030 => Encoding::Gb18030,
            TextEncoding::Big5 => Encoding::Big5,
            TextEncoding::Utf16Le => Encoding::Utf16Le,
            TextEncoding::Utf16Be => Encoding::Utf16Be,
        }
    }
}

/// Which chat lines: those after line `after` (0 for all), at most 200.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    #[serde(default)]
    pub after: i64,
}

/// Which messages: received or sent, a page at a time.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailboxQuery {
    /// `inbox` (received) or `sent`; `inbox` if left out.
    #[serde(default, rename = "box")]
    pub mailbox: Option<MailboxName>,
    pub after: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum MailboxName {
    Inbox,
    Sent,
}

/// A search of user profiles; every part is optional.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Names that start with this (ignoring case).
    pub name: Option<String>,
    /// Names that contain this anywhere (ignoring case).
    pub contains: Option<String>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Only those seen in the last 5 minutes.
    #[serde(default)]
    pub online: bool,
    pub after: Option<String>,
    pub limit: Option<u32>,
}

/// A new invitation, optionally with a challenge for whoever registers through it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewInvitation {
    #[serde(default)]
    pub challenge: Option<InvitedChallenge>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvitedChallenge {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The inviter's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
}

/// A challenge to a named player, or (without `opponent`) to anyone in the waiting room.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    #[serde(default)]
    pub opponent: Option<String>,
    /// The board; if left out, the one the rules are played on (`hex` for the
    /// hex rules, else `standard`).
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Variant>)]
    pub variant: Option<Variant>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The creator's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
    /// Whether the game changes ratings; the creator's default if left out.
    #[serde(default)]
    pub rated: Option<bool>,
}

/// Ask to be paired with the next player who asks for the same settings.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoMatch {
    /// The board; if left out, the one the rules are played on (`hex` for the
    /// hex rules, else `standard`).
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Variant>)]
    pub variant: Option<Variant>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub clock: ClockSpec,
    /// Rated or casual (only equal requests pair); the player's default if left out.
    #[serde(default)]
    pub rated: Option<bool>,
}

/// A game against the computer.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewComputerGame {
    /// 1 (a beginner can win) to 8 (the engine at full strength); see `GET /computer/levels`.
    pub level: u8,
    /// The board; if left out, the one the rules are played on.
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Variant>)]
    pub variant: Option<Variant>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// Your side.
    pub color: SideChoice,
    pub clock: ClockSpec,
    /// A position to start from (FEN on the board played, the side to move
    /// included); the board's start when left out. The position must be legal
    /// and not over.
    #[serde(default)]
    pub fen: Option<String>,
}

/// A move.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Submit {
    /// The number of moves already played: the move made is number `ply + 1`.
    pub ply: i64,
    /// ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`).
    #[serde(rename = "move")]
    pub text: String,
}

/// A premove: queued while the opponent is to move, played with their move.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PremoveRequest {
    /// The number of moves played now (the opponent is to make move `ply + 1`).
    pub ply: i64,
    /// Two points, the first holding one of your pieces: `h2e2` (cell names on
    /// the hex board). Whether it is legal is known after the opponent's move.
    #[serde(rename = "move")]
    pub text: String,
}

/// Conditional moves: lines of "if they play X, I answer Y", kept while the
/// opponent is to move in a correspondence game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionalsRequest {
    /// The number of moves played now (the opponent is to make move `ply + 1`).
    pub ply: i64,
    /// Each line begins with the opponent's next move and alternates, ending
    /// with my answer; moves in any notation (`h2e2`, `C2=5`, `炮二平五`).
    /// Lines that begin alike form a tree: each move of the opponent's has one
    /// answer. None takes them all back. At most 1,000 moves in all.
    pub lines: Vec<Vec<String>>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    pub action: DrawAction,
}

/// Which page of a list: the `next` of the previous page, and how many (1-100, default 50).
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The `next` of the previous page.
    pub after: Option<String>,
    /// How many at most (1-100; 50 if left out).
    pub limit: Option<u32>,
}

/// Which games of the Masters collection: a player's (either side), a page at a time.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MastersQuery {
    /// A player's name as the records write it.
    pub player: Option<String>,
    /// The `next` of the previous page.
    pub after: Option<String>,
    /// How many at most (1-100; 50 if left out).
    pub limit: Option<u32>,
}

impl From<PageQuery> for Page {
    fn from(q: PageQuery) -> Page {
        Page { after: q.after, limit: q.limit }
    }
}

impl PageQuery {
    /// The page asked for, as long as a page may be unless `limit` says
    /// fewer: for lists that once came whole.
    pub fn or_longest(self) -> Page {
        Page { after: self.after, limit: Some(self.limit.unwrap_or(Page::MAX)) }
    }
}

/// A piece of news.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewNews {
    /// 1-200 characters.
    pub title: String,
    /// 1-10,000 characters, kept as written.
    pub body: String,
}

/// Which rating shows next to my name, and whether my new challenges are rated
/// unless I say otherwise.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingSettings {
    pub shown: Category,
    pub rated_by_default: bool,
}

/// A ladder challenge.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLadderChallenge {
    /// Someone at most 20 places above you.
    pub opponent: String,
}

/// A new tournament.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    /// 1-80 characters.
    pub name: String,
    /// The rating category its games count in; the time control must be of its pace.
    pub category: Category,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// Correspondence (the seed's "Main" is 48 hours a move, "Fast" 28) or live.
    pub clock: ClockSpec,
    pub format: TournamentFormat,
    /// Swiss only: 1 or more, fewer than `min_players`. Left out for a round-robin.
    #[serde(default)]
    pub rounds: Option<i64>,
    /// At least 3; fewer signed up at the start time cancel it.
    pub min_players: i64,
    /// At most 64 (a round-robin: 20).
    pub max_players: i64,
    /// When it starts (milliseconds since the epoch, at most 90 days ahead);
    /// left out or null: as soon as `max_players` have signed up.
    #[serde(default)]
    pub starts: Option<i64>,
}

/// Which tournaments, a page at a time.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TournamentsQuery {
    /// `upcoming` (taking entries; the default), `running` or `finished` (cancelled ones included).
    pub status: Option<TournamentShelf>,
    pub after: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Deserialize, ToSchema, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
pub enum TournamentShelf {
    #[default]
    Upcoming,
    Running,
    Finished,
}

/// A line of moves from a position. The board follows from the rules when it
/// is left out, the rules from the board (its usual ones), and with neither
/// it is the standard board under the asian rules.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    #[serde(flatten)]
    pub start: BoardSpec,
    /// Moves played on from it, each in any notation the board reads (ICCS,
    /// WXF or Chinese on the standard board; cell names on the hex board).
    #[serde(default)]
    pub moves: Vec<String>,
}

/// What to analyse: a position (the board's start if `fen` is left out) and
/// moves played on from it, whose end the engine searches (the moves before
/// count for repetitions).
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AnalysisQuery {
    /// Its parameters come first in the document (`params(BoardSpec, AnalysisQuery)`).
    #[serde(flatten)]
    #[param(ignore)]
    pub start: BoardSpec,
    /// Moves separated by spaces or commas.
    pub moves: Option<String>,
    /// Stop after this depth (1-60).
    pub depth: Option<i32>,
    /// Milliseconds to think (100-20000; 20000 if left out).
    pub time: Option<u64>,
    /// Lines of distinct first moves to show, best first (1-5; 1 if left
    /// out). The search's time and nodes are the lines' together.
    pub lines: Option<u32>,
}

impl AnalysisQuery {
    /// The moves, one string each.
    pub fn move_list(&self) -> Vec<String> {
        self.moves
            .as_deref()
            .unwrap_or("")
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Which puzzle comes next.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzleQuery {
    /// The board (`standard` if left out).
    #[serde(default, with = "wire::optional")]
    #[param(value_type = Option<String>)]
    pub variant: Option<Variant>,
    /// Only puzzles of this theme.
    #[serde(default)]
    pub theme: Option<crate::model::puzzles::PuzzleTheme>,
}

/// The solver's moves in a puzzle so far, the last one new (ICCS on the
/// standard board, cell names on the hex board).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMoves {
    pub moves: Vec<String>,
    /// The streak this puzzle is part of, if any.
    #[serde(default)]
    pub streak: Option<String>,
}

/// A timed streak on a board.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewStreak {
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Variant>)]
    pub variant: Option<Variant>,
}

/// Whether the site may find puzzles in my imported games (off until I turn
/// it on). A puzzle shows its position and line only, never the game or
/// whose it was. Turning it off removes the puzzles from my games that nobody
/// has tried, and the others forget which game they came from; each game is
/// searched once, so turning it on again searches only games not searched
/// before.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSharing {
    pub imports: bool,
}

/// A board, for lists kept per board.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// `standard` (if left out) or `hex`.
    #[serde(default, with = "wire::optional")]
    #[param(value_type = Option<String>)]
    pub variant: Option<Variant>,
}

/// A result to search for.
#[derive(Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum ResultFilter {
    Red,
    Black,
    Draw,
}

/// A search of the games database: finished games, the most recently ended
/// first; every part is optional. A position (`fen`, or `moves` from the start
/// of `variant`'s board) finds the games that reached it in their first 40 plies.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameSearchQuery {
    /// Played either side (the exact user id).
    pub player: Option<String>,
    /// Played against `player`.
    pub opponent: Option<String>,
    /// `red` (Red won), `black` or `draw`.
    #[param(value_type = Option<String>)]
    pub result: Option<ResultFilter>,
    /// How it ended (`checkmate`, `resignation`, ...).
    #[serde(default, with = "wire::optional")]
    #[param(value_type = Option<String>)]
    pub reason: Option<xiangqi::Reason>,
    #[serde(default, with = "wire::optional")]
    #[param(value_type = Option<String>)]
    pub rules: Option<RuleSet>,
    /// `standard` or `hex`.
    #[serde(default, with = "wire::optional")]
    #[param(value_type = Option<String>)]
    pub variant: Option<Variant>,
    /// `bullet`, `blitz`, `rapid`, `classical` or `correspondence`.
    #[param(value_type = Option<String>)]
    pub speed: Option<crate::model::explorer::Speed>,
    pub rated: Option<bool>,
    /// Ended at or after this moment (milliseconds since the epoch).
    pub since: Option<i64>,
    /// Ended at or before this moment.
    pub until: Option<i64>,
    /// A position reached (FEN).
    pub fen: Option<String>,
    /// Moves from the start (or from `fen`), separated by spaces, in any notation.
    pub moves: Option<String>,
    /// The opening: an ECCO code or its start (`C4`), or a name in any of the
    /// site's languages (`屏风马`, `Screen Horses`).
    pub opening: Option<String>,
    pub after: Option<String>,
    pub limit: Option<u32>,
}

impl GameSearchQuery {
    /// The search asked for, where its position starts, and the page.
    pub fn asked(self) -> (crate::model::explorer::GameSearch, crate::domain::explorer::PositionAsk, Page) {
        let search = crate::model::explorer::GameSearch {
            player: self.player,
            opponent: self.opponent,
            winner: self.result.map(|r| match r {
                ResultFilter::Red => Some(xiangqi::Color::Red),
                ResultFilter::Black => Some(xiangqi::Color::Black),
                ResultFilter::Draw => None,
            }),
            reason: self.reason,
            rules: self.rules,
            variant: self.variant,
            speed: self.speed,
            rated: self.rated,
            since_ms: self.since,
            until_ms: self.until,
            pos_key: None,
            openings: self.opening.as_deref().map(crate::domain::openings::codes_matching),
        };
        // The board and rules filter the games (left out, any); the position
        // is on the board they name, or the standard one.
        let start = BoardSpec { variant: self.variant, rules: self.rules, fen: self.fen };
        let at = crate::domain::explorer::PositionAsk { start, moves: self.moves };
        (search, at, Page { after: self.after, limit: self.limit })
    }
}

/// What a download is written as.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `pgn` (ICCS moves), `pgn-wxf`, `pgn-chinese`, or `xqf` (one game of
    /// the standard board only); `pgn-wxf` when left out. Comments and
    /// variations are kept in each.
    pub format: Option<crate::domain::exports::ExportFormat>,
}

impl ExportQuery {
    /// The format asked for, or the default.
    pub fn format(&self) -> crate::domain::exports::ExportFormat {
        self.format.unwrap_or(crate::domain::exports::ExportFormat::DEFAULT)
    }
}

/// A new study (with one chapter from the start of the standard board).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewStudy {
    /// 1-80 characters.
    pub title: String,
    /// `private` (members only) if left out.
    #[serde(default)]
    pub visibility: Option<crate::model::studies::Visibility>,
}

/// Which studies a list holds.
#[derive(Deserialize, ToSchema, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
pub enum StudyShelfName {
    /// Everyone's public studies (the default).
    #[default]
    Public,
    /// Mine and those I am a member of (log in first).
    Mine,
}

#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StudiesQuery {
    pub shelf: Option<StudyShelfName>,
    pub after: Option<String>,
    pub limit: Option<u32>,
}

/// Where the opening explorer looks: the position (`fen`, and `moves` played
/// from it, or from the start of `variant`'s board), and whose games.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExplorerQuery {
    /// The board and the position the moves start from; its rules also
    /// choose whose games count (all rule sets of the board if left out).
    /// Its parameters come first in the document (`params(BoardSpec, ExplorerQuery)`).
    #[serde(flatten)]
    #[param(ignore)]
    pub start: BoardSpec,
    pub moves: Option<String>,
    #[param(value_type = Option<String>)]
    pub speed: Option<crate::model::explorer::Speed>,
    /// The players' average rating at least / at most this (by bands of 100).
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// `site` (every finished game here; the default), `mine` (my imported
    /// games) or `masters` (the site's collection of real games).
    pub source: Option<crate::domain::explorer::ExplorerSource>,
}

/// The study's version an edit is made on: the query of a deletion, or the
/// whole body of an edit that needs nothing more.
#[derive(Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StudyVersion {
    pub version: i64,
}

/// The owner renames a study or makes it public or private.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StudySettings {
    /// The study's version this edit is made on.
    pub version: i64,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub visibility: Option<crate::model::studies::Visibility>,
}

/// The owner adds a member by user name, or changes a member's role.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyInvite {
    pub version: i64,
    pub name: String,
    pub role: crate::model::studies::StudyRole,
}

/// A new chapter: from the start of a board, from a position (`fen`), or from
/// a game record (`pgn`, standard board: its start, moves, variations and
/// comments, arrows and marks from `[%cal]` and `[%csl]`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChapter {
    pub version: i64,
    /// 1-80 characters; from the record's players, or "Chapter N", if left out.
    #[serde(default)]
    pub title: Option<String>,
    /// With `pgn`, only the rules count (the record has its own start).
    #[serde(flatten)]
    pub start: BoardSpec,
    #[serde(default)]
    pub pgn: Option<String>,
}

/// A chapter's new title.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChapterRename {
    pub version: i64,
    pub title: String,
}

/// A chapter's new place in the study's list.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChapterPlace {
    pub version: i64,
    /// 0 for the first; past the end, the last.
    pub place: u32,
}

/// A move after a node of a chapter: the main line if the node had none
/// after it, else a variation (a move that is there already is not added again).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyMove {
    pub version: i64,
    pub node: u32,
    /// In any notation the board reads (`h2e2`, `C2=5`, `炮二平五`).
    #[serde(rename = "move")]
    pub text: String,
}

/// A node's comment, arrows or marked points: those given replace the old.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeAnnotation {
    pub version: i64,
    /// Up to 2000 characters; empty to clear.
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default)]
    pub arrows: Option<Vec<crate::domain::studies::Arrow>>,
    #[serde(default)]
    pub marks: Option<Vec<crate::domain::studies::Mark>>,
}
