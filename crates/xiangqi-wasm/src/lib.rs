//! The rules and the engine as one WebAssembly module, for browsers (in a Web
//! Worker) and Node.js. Its interface is one call: a request in JSON, an
//! answer in JSON (see [`Request`] and the answer types below), so the
//! JavaScript side is a few lines over the module's memory and needs no
//! generated glue. The engine's lines while it thinks go out as JSON through
//! the one function the module imports, `env.info`; its clock is `env.now_ms`.
//!
//! The answers have the shapes of the play server's API where both say the
//! same thing (a line of positions, an engine's depth report), so a page can
//! ask either and read the answer the same way.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use xiangqi::{AnyGame, Color, Move, Outcome, RuleSet, Variant, notation::pgn::Format};
use xiangqi_engine::{Control, Engine, Info, Level, Limits, Options, Root, Score};

#[cfg(target_arch = "wasm32")]
mod ffi;

/// The most moves one line request may play: the server's limit.
pub const MAX_LINE: usize = 1000;
/// The deepest search a request may ask for.
pub const MAX_DEPTH: i32 = 60;
/// The most lines (MultiPV) a search may show.
pub const MAX_LINES: usize = 5;
/// The transposition table of the module's engine, in MiB: a browser tab's share.
pub const HASH_MB: usize = 32;

/// What may be asked.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Every position from a start (the board's own unless `fen`) after
    /// `moves` in any notation: the server's `POST /positions`.
    Line {
        #[serde(flatten)]
        board: BoardSpec,
        #[serde(default)]
        moves: Vec<String>,
    },
    /// The leaf nodes `depth` moves deep from a position.
    Perft {
        #[serde(flatten)]
        board: BoardSpec,
        depth: u32,
    },
    /// The engine thinks about the position after `moves`, to the limits
    /// given (at least one), sending a report per depth and line to `env.info`.
    Search {
        #[serde(flatten)]
        board: BoardSpec,
        #[serde(default)]
        moves: Vec<String>,
        depth: Option<i32>,
        nodes: Option<u64>,
        /// Milliseconds.
        time: Option<u64>,
        /// Lines of distinct first moves (MultiPV), 1 unless asked.
        lines: Option<usize>,
    },
    /// The computer's move at a level (1 to 8, as the play site's computer
    /// plays them) in the position after `moves`; the same seed, position and
    /// level give the same move.
    ComputerMove {
        #[serde(flatten)]
        board: BoardSpec,
        #[serde(default)]
        moves: Vec<String>,
        level: u8,
        #[serde(default)]
        seed: u64,
    },
    /// The engine's benchmark: its node count is the search's signature,
    /// the same in every build.
    Bench { depth: Option<i32> },
    /// The games of a PGN text.
    PgnRead { text: String },
    /// A game as PGN: from a start, the moves, and tags.
    PgnWrite {
        #[serde(flatten)]
        board: BoardSpec,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default)]
        tags: Vec<(String, String)>,
        /// `iccs` (the default), `wxf` or `chinese`.
        #[serde(default)]
        notation: Notation,
    },
    /// Forgets what the engine learnt (a new game).
    NewGame {},
}

/// A board, its rules and a position on it; each part optional: the board
/// follows from the rules and the rules from the board, and the position is
/// the board's start unless given.
#[derive(Debug, Default, Deserialize)]
pub struct BoardSpec {
    pub variant: Option<String>,
    pub rules: Option<String>,
    pub fen: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notation {
    #[default]
    Iccs,
    Wxf,
    Chinese,
}

/// A refusal: a stable reason, and what is wrong in English.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Refusal {
    pub reason: &'static str,
    pub message: String,
}

fn refuse(reason: &'static str, message: impl Into<String>) -> Refusal {
    Refusal { reason, message: message.into() }
}

/// A move's written forms.
#[derive(Debug, Serialize)]
pub struct MoveNames {
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
}

#[derive(Debug, Serialize)]
pub struct OutcomeView {
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    pub text: String,
}

impl From<Outcome> for OutcomeView {
    fn from(o: Outcome) -> Self {
        OutcomeView { winner: o.winner.map(Color::name), reason: o.reason.name(), text: o.to_string() }
    }
}

/// One position along a line.
#[derive(Debug, Serialize)]
pub struct LinePosition {
    pub played: Option<MoveNames>,
    pub fen: String,
    pub turn: &'static str,
    pub check: bool,
    /// ICCS, sorted; empty when the game is over.
    pub legal: Vec<String>,
    pub outcome: Option<OutcomeView>,
}

#[derive(Debug, Serialize)]
pub struct LineAnswer {
    pub variant: &'static str,
    pub rules: &'static str,
    pub positions: Vec<LinePosition>,
}

/// A score from the side to move's view, as the server writes it.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScoreView {
    Cp { value: i32 },
    Mate { value: i32 },
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> Self {
        match s {
            Score::Cp(value) => ScoreView::Cp { value },
            Score::Mate(value) => ScoreView::Mate { value },
        }
    }
}

/// One depth of one line while the engine thinks.
#[derive(Debug, Serialize)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// Which line, from 1.
    pub line: usize,
    pub score: ScoreView,
    pub nodes: u64,
    pub nps: u64,
    /// Milliseconds.
    pub time: u64,
    pub pv: Vec<MoveNames>,
}

#[derive(Debug, Serialize)]
pub struct SearchLine {
    pub depth: i32,
    pub score: ScoreView,
    pub pv: Vec<MoveNames>,
}

#[derive(Debug, Serialize)]
pub struct SearchAnswer {
    /// ICCS; none when the side to move has no move.
    pub best: Option<String>,
    pub lines: Vec<SearchLine>,
    pub nodes: u64,
    /// Milliseconds.
    pub time: u64,
}

#[derive(Debug, Serialize)]
pub struct BenchAnswer {
    pub depth: i32,
    /// The signature: the nodes of every position, summed.
    pub nodes: u64,
    pub per_position: Vec<u64>,
    pub nps: u64,
    /// The net's kernel (`Simd128` in a build with WebAssembly SIMD).
    pub kernel: String,
}

#[derive(Debug, Serialize)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub start_fen: String,
    pub moves: Vec<MoveNames>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum PgnEntry {
    Game(PgnGame),
    Error { error: String },
}

/// What the module keeps between calls: one engine, so that a search builds
/// on what the ones before it learnt.
pub struct Session {
    engine: Engine,
    /// The computer's engine, set as its level wants, and that level.
    computer: Option<(Level, Engine)>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            engine: Engine::new(Options { hash_mb: HASH_MB, ..Options::default() }.with_embedded_net()),
            computer: None,
        }
    }
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Answers a request (JSON) with its answer, or `{"error": refusal}`; an
/// engine's reports go to `info` as they come. The engine is made at its first use.
pub fn handle(request: &str, info: &mut dyn FnMut(&str)) -> String {
    let answer = match serde_json::from_str::<Request>(request) {
        Ok(r) => SESSION.with(|s| {
            let mut s = s.borrow_mut();
            answer(s.get_or_insert_with(Session::default), r, info)
        }),
        Err(e) => Err(refuse("malformed", e.to_string())),
    };
    match answer {
        Ok(value) => value.to_string(),
        Err(refusal) => serde_json::json!({ "error": refusal }).to_string(),
    }
}

fn json(value: impl Serialize) -> Result<serde_json::Value, Refusal> {
    serde_json::to_value(value).map_err(|e| refuse("internal", e.to_string()))
}

fn answer(
    session: &mut Session,
    request: Request,
    info: &mut dyn FnMut(&str),
) -> Result<serde_json::Value, Refusal> {
    match request {
        Request::Line { board, moves } => json(line(&board, &moves)?),
        Request::Perft { board, depth } => {
            if depth > 6 {
                return Err(refuse("depth", "perft goes at most 6 moves deep here"));
            }
            let game = game(&board)?;
            let nodes = xiangqi::with_game!(&game, g => g.position().perft(depth));
            Ok(serde_json::json!({ "nodes": nodes }))
        }
        Request::Search { board, moves, depth, nodes, time, lines } => {
            let game = played(game(&board)?, &moves)?.0;
            json(search(&mut session.engine, &game, depth, nodes, time, lines, info)?)
        }
        Request::ComputerMove { board, moves, level, seed } => {
            let level = Level::new(level)
                .map_err(|_| refuse("level", format!("levels go from {} to {}", Level::MIN, Level::MAX)))?;
            let game = played(game(&board)?, &moves)?.0;
            if game.outcome().is_some() {
                return Err(refuse("game_over", "the game is over"));
            }
            if session.computer.as_ref().is_some_and(|(at, _)| *at != level) {
                session.computer = None;
            }
            let (_, engine) =
                session.computer.get_or_insert_with(|| (level, Engine::new(level.engine_options())));
            let chosen = xiangqi::with_game!(&game, g => level.choose_move(engine, &Root::from_game(g), &Control::new(), seed));
            Ok(serde_json::json!({ "move": chosen.map(|m| names(&game, m)) }))
        }
        Request::Bench { depth } => json(bench(depth.unwrap_or(xiangqi_engine::bench::DEFAULT_DEPTH))?),
        Request::PgnRead { text } => json(pgn_read(&text)),
        Request::PgnWrite { board, moves, tags, notation } => {
            let game = played(game(&board)?, &moves)?.0;
            let tags: Vec<(&str, String)> = tags.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            let format = match notation {
                Notation::Iccs => Format::Iccs,
                Notation::Wxf => Format::Wxf,
                Notation::Chinese => Format::Chinese,
            };
            Ok(serde_json::json!({ "text": game.pgn(&tags, format) }))
        }
        Request::NewGame {} => {
            session.engine.clear();
            if let Some((_, engine)) = session.computer.as_mut() {
                engine.clear();
            }
            Ok(serde_json::json!({}))
        }
    }
}

/// The game a spec names, at its start.
fn game(spec: &BoardSpec) -> Result<AnyGame, Refusal> {
    let variant: Option<Variant> = match &spec.variant {
        Some(v) => Some(v.parse().map_err(|_| refuse("bad_variant", format!("no board {v:?}")))?),
        None => None,
    };
    let rules: Option<RuleSet> = match &spec.rules {
        Some(r) => Some(r.parse().map_err(|_| refuse("bad_rules", format!("no rule set {r:?}")))?),
        None => None,
    };
    let (variant, rules) = match (variant, rules) {
        (Some(v), Some(r)) if r.variant() != v => {
            return Err(refuse("rules_mismatch", format!("the {v} board is not played under the {r} rules")));
        }
        (Some(v), Some(r)) => (v, r),
        (Some(v), None) => (v, v.default_rules()),
        (None, Some(r)) => (r.variant(), r),
        (None, None) => (Variant::Standard, Variant::Standard.default_rules()),
    };
    match &spec.fen {
        Some(fen) => AnyGame::new(variant, fen, rules).map_err(|e| refuse("bad_position", e.to_string())),
        None => Ok(AnyGame::startpos(variant, rules)),
    }
}

fn names(game: &AnyGame, m: Move) -> MoveNames {
    MoveNames {
        iccs: game.write_move(m, Format::Iccs),
        wxf: game.write_move(m, Format::Wxf),
        chinese: game.write_move(m, Format::Chinese),
    }
}

fn position(game: &AnyGame, played: Option<MoveNames>) -> LinePosition {
    LinePosition {
        played,
        fen: game.fen(),
        turn: game.turn().name(),
        check: game.is_check(),
        legal: game.legal_names(),
        outcome: game.outcome().map(Into::into),
    }
}

/// Plays `moves` (any notation) on: the game, and every position on the way.
fn played(mut game: AnyGame, moves: &[String]) -> Result<(AnyGame, Vec<LinePosition>), Refusal> {
    if moves.len() > MAX_LINE {
        return Err(refuse("line_length", format!("a line holds at most {MAX_LINE} moves")));
    }
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(position(&game, None));
    for (i, text) in moves.iter().enumerate() {
        let illegal = |why: String| refuse("illegal_move", format!("move {} ({text}): {why}", i + 1));
        let m = game.parse_any(text).map_err(|e| illegal(e.to_string()))?;
        let checked = game.check(m).map_err(|e| illegal(e.to_string()))?;
        let written = names(&game, m);
        game.play_checked(checked);
        positions.push(position(&game, Some(written)));
    }
    Ok((game, positions))
}

fn line(board: &BoardSpec, moves: &[String]) -> Result<LineAnswer, Refusal> {
    let game = game(board)?;
    let (variant, rules) = (game.variant().name(), game.rule_set().name());
    Ok(LineAnswer { variant, rules, positions: played(game, moves)?.1 })
}

/// A line's moves written out from the position it starts at.
fn pv_names(game: &AnyGame, pv: &[Move]) -> Vec<MoveNames> {
    let mut at = game.clone();
    pv.iter()
        .map_while(|&m| {
            let written = names(&at, m);
            at.play(m).ok()?;
            Some(written)
        })
        .collect()
}

fn search(
    engine: &mut Engine,
    game: &AnyGame,
    depth: Option<i32>,
    nodes: Option<u64>,
    time: Option<u64>,
    lines: Option<usize>,
    info: &mut dyn FnMut(&str),
) -> Result<SearchAnswer, Refusal> {
    if depth.is_none() && nodes.is_none() && time.is_none() {
        return Err(refuse("no_limit", "give a depth, nodes or time to search to"));
    }
    if depth.is_some_and(|d| !(1..=MAX_DEPTH).contains(&d)) {
        return Err(refuse("depth", format!("the depth goes from 1 to {MAX_DEPTH}")));
    }
    let multi_pv = lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&multi_pv) {
        return Err(refuse("lines", format!("from 1 to {MAX_LINES} lines")));
    }
    let limits = Limits {
        depth,
        nodes,
        move_time: time.map(std::time::Duration::from_millis),
        multi_pv,
        ..Limits::default()
    };
    let mut report = |i: &Info| {
        let view = SearchInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            line: i.multipv,
            score: i.score.into(),
            nodes: i.nodes,
            nps: i.nps,
            time: i.time.as_millis() as u64,
            pv: pv_names(game, &i.pv),
        };
        if let Ok(text) = serde_json::to_string(&view) {
            info(&text);
        }
    };
    let analysis = xiangqi::with_game!(game, g => engine.search(&Root::from_game(g), &limits, &Control::new(), &mut report));
    Ok(SearchAnswer {
        best: analysis.best.map(|m| game.write_move(m, Format::Iccs)),
        lines: analysis
            .lines
            .iter()
            .map(|l| SearchLine { depth: l.depth, score: l.score.into(), pv: pv_names(game, &l.moves) })
            .collect(),
        nodes: analysis.nodes,
        time: analysis.time.as_millis() as u64,
    })
}

fn bench(depth: i32) -> Result<BenchAnswer, Refusal> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(refuse("depth", format!("the depth goes from 1 to {MAX_DEPTH}")));
    }
    let mut per_position = Vec::new();
    let nets = xiangqi_engine::nnue::Nets::embedded();
    let report = xiangqi_engine::bench::run(depth, 16, 1, nets, &mut |_, _, n| per_position.push(n))
        .map_err(|e| refuse("internal", e))?;
    let kernel = format!("{:?}", xiangqi_engine::nnue::Network::embedded().kernel());
    Ok(BenchAnswer { depth, nodes: report.nodes, per_position, nps: report.nps(), kernel })
}

fn pgn_read(text: &str) -> Vec<PgnEntry> {
    xiangqi::notation::pgn::read_all(text)
        .into_iter()
        .map(|r| match r {
            Ok(record) => {
                let game = AnyGame::Standard(xiangqi::Game::new(record.start.clone(), RuleSet::Asian));
                let start_fen = game.fen();
                PgnEntry::Game(PgnGame {
                    tags: record.tags.clone(),
                    start_fen,
                    moves: pv_names(&game, &record.moves),
                })
            }
            Err(e) => PgnEntry::Error { error: e.to_string() },
        })
        .collect()
}

#[cfg(test)]
mod tests;
