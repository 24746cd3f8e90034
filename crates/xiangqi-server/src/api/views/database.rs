//! The games database, the opening explorer and imported collections.

use super::*;
use crate::{
    api::requests::TextEncoding,
    domain::{
        explorer::ExplorerMove,
        imports::{ImportProblem, ImportReport, Judgement, Noted, PlacedRecord, RecordFormat, Refused},
        refusal::Illegality,
    },
    model::explorer::ImportedRecord,
};

/// A move played from a position, and how its games went.
#[derive(Serialize, ToSchema)]
pub struct ExplorerMoveView {
    /// The move in ICCS (`h2e2`; cells on the hex board).
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
    /// Games that played it from here (a game that came back here counts once).
    pub games: i64,
    pub red_wins: i64,
    pub draws: i64,
    pub black_wins: i64,
    /// The players' average rating in those games; null if none was known.
    pub average_rating: Option<i64>,
}

impl From<&ExplorerMove> for ExplorerMoveView {
    fn from(m: &ExplorerMove) -> Self {
        let o = m.row.outcomes;
        ExplorerMoveView {
            iccs: m.row.mv.clone(),
            wxf: m.wxf.clone(),
            chinese: m.chinese.clone(),
            games: o.games,
            red_wins: o.red_wins,
            draws: o.draws,
            black_wins: o.black_wins,
            average_rating: (m.row.rated_games > 0).then(|| m.row.rating_sum / m.row.rated_games),
        }
    }
}

/// The opening explorer's answer for a position: the moves played there, the
/// most played first (at most 100). Only the first 40 plies of each game count.
#[derive(Serialize, ToSchema)]
pub struct ExplorerAnswer {
    /// The position (FEN).
    pub fen: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    /// How many plies of each game are counted.
    pub plies: u32,
    pub moves: Vec<ExplorerMoveView>,
    /// The ECCO code of the opening this very position defines, if it is one
    /// (names from `GET /openings`).
    pub opening: Option<String>,
}

/// An opening of the ECCO classification, named in the site's languages.
#[derive(Serialize, ToSchema)]
pub struct OpeningView {
    /// `A00`-`E99`.
    pub code: String,
    /// In simplified characters; "——" parts the opening from its variation.
    pub simplified: String,
    pub traditional: String,
    /// Where a published name exists.
    pub english: Option<String>,
    pub vietnamese: Option<String>,
}

impl From<&xiangqi_records::ecco::Opening> for OpeningView {
    fn from(o: &xiangqi_records::ecco::Opening) -> Self {
        OpeningView {
            code: o.code.to_string(),
            simplified: o.simplified.to_string(),
            traditional: o.traditional.to_string(),
            english: o.english.map(str::to_string),
            vietnamese: o.vietnamese.map(str::to_string),
        }
    }
}

/// Every opening of the classification.
#[derive(Serialize, ToSchema)]
pub struct OpeningsAnswer {
    pub openings: Vec<OpeningView>,
    /// Where the classification comes from.
    pub source: String,
}

/// How a player's games with one opening went, on one side.
#[derive(Serialize, ToSchema)]
pub struct PlayerOpeningView {
    /// The ECCO code.
    pub opening: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub color: Color,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
}

/// A player's finished games by opening and side, the most played first (at most 20).
#[derive(Serialize, ToSchema)]
pub struct PlayerOpeningsAnswer {
    pub openings: Vec<PlayerOpeningView>,
}

/// A game imported into my collection, without its moves.
#[derive(Serialize, ToSchema)]
pub struct ImportedGameView {
    pub id: String,
    pub red: String,
    pub black: String,
    pub event: String,
    pub date: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The result as the record wrote it (`1-0`, `0-1`, `1/2-1/2`, or in
    /// words such as `红胜`), or `*` where it gave none (unknown).
    pub result: String,
    /// Null for a draw or an unknown result.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Color>)]
    pub winner: Option<Color>,
    pub ply: i64,
    pub start_fen: String,
    /// When it was imported.
    pub imported: i64,
    /// Its opening's ECCO code (names from `GET /openings`); null when it has
    /// none or is not named yet.
    pub opening: Option<String>,
}

impl From<&ImportedRecord> for ImportedGameView {
    fn from(g: &ImportedRecord) -> Self {
        ImportedGameView {
            id: g.id.clone(),
            red: g.red.clone(),
            black: g.black.clone(),
            event: g.event.clone(),
            date: g.date.clone(),
            rules: g.rules,
            result: g.result.clone(),
            winner: g.winner,
            ply: g.ply,
            start_fen: g.start_fen.clone(),
            imported: g.created_ms,
            opening: g.ecco.clone().filter(|c| !c.is_empty()),
        }
    }
}

/// What the rule set would have said at a move of an imported record, which
/// the players played on from.
#[derive(Serialize, ToSchema)]
pub struct NotedView {
    /// The move it fell on, 1 for the record's first.
    pub ply: u32,
    pub judgement: Judgement,
    /// How the game would have ended, for `ended`.
    pub outcome: Option<OutcomeView>,
}

impl From<&Noted> for NotedView {
    fn from(n: &Noted) -> Self {
        NotedView { ply: n.ply, judgement: n.judgement, outcome: n.outcome.map(OutcomeView::from) }
    }
}

/// A position of an imported record's tree: the position after its move,
/// with the comment written after that move.
#[derive(Serialize, ToSchema)]
pub struct RecordNodeView {
    /// Its parent's place in `tree` (null at the start).
    pub parent: Option<u32>,
    pub position: LinePosition,
    pub comment: String,
}

/// An imported game with its moves.
#[derive(Serialize, ToSchema)]
pub struct ImportedGameAnswer {
    pub game: ImportedGameView,
    /// The main line in ICCS, in order.
    pub moves: Vec<String>,
    /// The whole record as PGN with its variations and comments (moves in
    /// ICCS); the main line alone for a game imported before records were
    /// kept whole.
    pub record: String,
    /// The record's tree, each position after its parent and the main line
    /// before its variations: at most 2,000 positions.
    pub tree: Vec<RecordNodeView>,
    /// Whether the record holds more positions than `tree` (its file holds them all).
    pub tree_cut: bool,
    /// What the record's rule set would have judged on the way, in order.
    pub judged: Vec<NotedView>,
}

impl From<PlacedRecord> for ImportedGameAnswer {
    fn from(placed: PlacedRecord) -> Self {
        let g = &placed.row;
        ImportedGameAnswer {
            game: ImportedGameView::from(g),
            moves: g.moves.split_whitespace().map(str::to_string).collect(),
            record: if g.record.is_empty() { g.moves.clone() } else { g.record.clone() },
            judged: Noted::read_all(&g.judged).iter().map(NotedView::from).collect(),
            tree_cut: placed.cut,
            tree: placed
                .steps
                .into_iter()
                .map(|s| RecordNodeView { parent: s.parent, position: s.step.into(), comment: s.comment })
                .collect(),
        }
    }
}

/// A game of an uploaded file that was not kept, and why.
#[derive(Serialize, ToSchema)]
pub struct RefusedGameView {
    /// Its place in the file, from 1.
    pub number: u32,
    pub red: String,
    pub black: String,
    pub problem: ImportProblem,
    /// The move refused: its number (ply, from 1), its number as the record
    /// writes it (`2.` for Red's second move, `2...` for Black's) and its text.
    pub ply: Option<u32>,
    pub move_number: Option<String>,
    pub text: Option<String>,
    /// Why the move is illegal, where the rules said.
    pub why: Option<Illegality>,
    /// The moves before the refused one were kept, as a game in `kept`.
    pub cut: bool,
    /// The reason in English.
    pub detail: String,
}

impl From<&Refused> for RefusedGameView {
    fn from(r: &Refused) -> Self {
        RefusedGameView {
            number: r.number,
            red: r.red.clone(),
            black: r.black.clone(),
            problem: r.problem,
            ply: r.ply,
            move_number: r.label.clone(),
            text: r.text.clone(),
            why: r.why,
            cut: r.cut,
            detail: r.detail.clone(),
        }
    }
}

/// What came of an upload: the file's format, the games kept and those refused.
#[derive(Serialize, ToSchema)]
pub struct ImportAnswer {
    /// The format the file was read as, told by its content.
    pub format: RecordFormat,
    /// The encoding a text file was read in; null for a binary format.
    pub encoding: Option<TextEncoding>,
    pub kept: Vec<ImportedGameView>,
    /// Records of the file already in my collection: not kept or counted again.
    pub duplicates: u32,
    pub refused: Vec<RefusedGameView>,
}

impl From<&ImportReport> for ImportAnswer {
    fn from(r: &ImportReport) -> Self {
        ImportAnswer {
            format: r.format.into(),
            encoding: r.encoding.map(TextEncoding::from),
            kept: r.kept.iter().map(ImportedGameView::from).collect(),
            duplicates: r.duplicates,
            refused: r.refused.iter().map(RefusedGameView::from).collect(),
        }
    }
}

/// How far the reading of an upload has come.
#[derive(Serialize, ToSchema)]
pub struct ImportProgress {
    /// Records replayed so far.
    pub checked: u32,
    /// Records in the file; 0 while the file itself is being read.
    pub total: u32,
}

/// A line of an import answered as it goes (`?progress=true`): progress lines,
/// then the answer or the refusal.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImportEvent {
    Progress(ImportProgress),
    Answer(ImportAnswer),
    Error(crate::error::ErrorBody),
}

/// How many imported games were deleted.
#[derive(Serialize, ToSchema)]
pub struct ImportsDeleted {
    pub deleted: u64,
}

super::page::listings! {
    /// Finished games found in the database, the most recently ended first.
    FoundGamesPage = FoundGames of GameSummary as "games": "Finished games found in the database, the most recently ended first.";
    /// My imported games, the most recently imported first.
    ImportedPage = Imported of ImportedGameView as "games": "My imported games, the most recently imported first.";
}
