//! What the site keeps of a game: the game, its moves, its rule set's record and its chat.

use xiangqi::{Color, Outcome, RuleSet, Variant};

use super::{GameStatus, clock::ClockSpec, ratings::Category};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub red: String,
    pub black: String,
    pub variant: Variant,
    pub rules: RuleSet,
    pub start_fen: String,
    pub clock: ClockSpec,
    /// Moves played.
    pub ply: i64,
    /// Grows by one with every change of the row.
    pub version: i64,
    pub fen: String,
    pub status: GameStatus,
    pub outcome: Option<Outcome>,
    /// Live clocks: each side's time left when the running clock started.
    pub red_ms: i64,
    pub black_ms: i64,
    /// When the side to move began its turn.
    pub turn_started_ms: i64,
    pub draw_offer: Option<Color>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The ladder a ladder game climbs, and who challenged.
    pub ladder: Option<(Category, String)>,
    /// The tournament a tournament game is played in, and its round.
    pub tournament: Option<(String, i64)>,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Each side's premove (ICCS, or a hex move's cells): queued while the
    /// other side is to move, played with that side's move if still legal.
    /// Only its player sees it.
    pub premoves: [Option<String>; 2],
    /// Each side's conditional moves in a correspondence game: kept while the
    /// other side is to move, answered from when that side moves. Only its
    /// player sees them.
    pub conditionals: [Conditionals; 2],
}

impl GameRecord {
    /// A side's premove.
    pub fn premove(&self, side: Color) -> Option<&str> {
        self.premoves[side.index()].as_deref()
    }
}

/// A correspondence player's prepared answers: lines of moves, each beginning
/// with the opponent's next move and then alternating, mine last. Lines that
/// begin alike share their beginning, so together they are a tree in which
/// every move of the opponent's has one answer. The moves are written as the
/// board writes stored moves (ICCS, or a hex move's cells), so one is matched
/// against the move played by its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditionals {
    lines: Vec<Vec<String>>,
}

impl Conditionals {
    /// Lines already checked against the game: legal, ending with an answer,
    /// one answer to each move (see `domain::conditionals`).
    pub fn checked(lines: Vec<Vec<String>>) -> Self {
        Conditionals { lines }
    }

    pub fn lines(&self) -> &[Vec<String>] {
        &self.lines
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The opponent has played `theirs`: my answer, if a line begins with it,
    /// and the lines that go on beyond that answer. A move no line begins with
    /// leaves nothing: the tree is dropped at the first mismatch.
    pub fn answer(&self, theirs: &str) -> (Option<String>, Conditionals) {
        let mut answer = None;
        let mut rest = Vec::new();
        for line in &self.lines {
            if let [first, mine, more @ ..] = line.as_slice()
                && first == theirs
            {
                answer.get_or_insert_with(|| mine.clone());
                if !more.is_empty() {
                    rest.push(more.to_vec());
                }
            }
        }
        (answer, Conditionals { lines: rest })
    }

    /// As stored: a line per row of text, its moves apart by spaces (moves
    /// hold neither); none when there is none.
    pub fn to_stored(&self) -> Option<String> {
        (!self.is_empty()).then(|| self.lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n"))
    }

    pub fn from_stored(text: Option<&str>) -> Self {
        let lines = text
            .unwrap_or("")
            .lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|l| !l.is_empty())
            .collect();
        Conditionals { lines }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub game_id: String,
    pub ply: i64,
    pub iccs: String,
    pub wxf: String,
    pub at_ms: i64,
}

/// A player's results under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetRecord {
    pub rules: RuleSet,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    pub game_id: String,
    /// 1, 2, 3, ... within the game.
    pub seq: i64,
    pub author: String,
    pub body: String,
    pub created_ms: i64,
}
