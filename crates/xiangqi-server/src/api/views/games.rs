//! Games: their state in full, in lists, and the computer's levels.

use super::*;

/// Live clocks: time left when the running clock started at `since`; a client
/// subtracts the time passed since then from the running side.
#[derive(Serialize, ToSchema)]
pub struct ClocksView {
    pub red: i64,
    pub black: i64,
    /// The side whose clock runs; null once the game is over, and until both
    /// sides have made their first move (the first moves are not timed).
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Color>)]
    pub running: Option<Color>,
    pub since: i64,
}

#[derive(Serialize, ToSchema)]
pub struct OutcomeView {
    /// Null for a draw.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Color>)]
    pub winner: Option<Color>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Reason>)]
    pub reason: Reason,
    /// In words, e.g. "Red wins: checkmate".
    pub text: String,
}

impl From<Outcome> for OutcomeView {
    fn from(o: Outcome) -> Self {
        OutcomeView { winner: o.winner, reason: o.reason, text: o.to_string() }
    }
}

/// A game without its moves: what lists show.
#[derive(Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    /// Grows by one with every change; a client that sees a gap reloads.
    pub version: i64,
    pub red: String,
    pub black: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub start_fen: String,
    pub fen: String,
    /// The side to move.
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub turn: Color,
    /// Moves played.
    pub ply: i64,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Live games' clocks; null for correspondence.
    pub clocks: Option<ClocksView>,
    /// Correspondence: when the side to move must have moved; else null.
    pub deadline: Option<i64>,
    /// The side that offered a draw, while the offer stands.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Color>)]
    pub draw_offer: Option<Color>,
    pub status: GameStatus,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// How it ended; null while it is played.
    pub outcome: Option<OutcomeView>,
    /// When it last changed.
    pub updated: i64,
    /// The last move in ICCS, to outline on the board.
    pub last_move: Option<String>,
    /// The tournament round it is played in, if any.
    pub tournament: Option<TournamentGameRef>,
}

/// A tournament game's tournament and round.
#[derive(Serialize, ToSchema)]
pub struct TournamentGameRef {
    pub id: String,
    pub round: i64,
}

/// A move played, in three notations.
#[derive(Serialize, ToSchema)]
pub struct MoveView {
    /// The two cells (`h2e2`; `e4e5` on the hex board).
    pub iccs: String,
    /// WXF (`C2=5`); on the hex board, the piece's letter and the cells (`Pe4-e5`).
    pub wxf: String,
    /// In Chinese (`炮二平五`); on the hex board, the glyph and the cells (`兵e4-e5`).
    pub chinese: String,
    /// When it was played.
    pub at: i64,
}

/// My premove in a game: none, or the move queued (`h2e2`).
#[derive(Serialize, ToSchema)]
pub struct PremoveAnswer {
    pub premove: Option<String>,
}

/// My conditional moves in a game: each line from the opponent's next move,
/// mine last, every move in every notation; a line that another continues is
/// given once, as the longer.
#[derive(Serialize, ToSchema)]
pub struct ConditionalsAnswer {
    pub lines: Vec<Vec<MoveNamesView>>,
}

impl From<Vec<Vec<crate::domain::board::MoveNames>>> for ConditionalsAnswer {
    fn from(lines: Vec<Vec<crate::domain::board::MoveNames>>) -> Self {
        ConditionalsAnswer {
            lines: lines.into_iter().map(|l| l.into_iter().map(Into::into).collect()).collect(),
        }
    }
}

/// A game in full.
#[derive(Serialize, ToSchema)]
pub struct GameView {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The moves the side to move may play now (ICCS, sorted); empty once it is over.
    pub legal: Vec<String>,
    pub moves: Vec<MoveView>,
    /// The game's opening: its ECCO code (`C45`; names in every language from
    /// `GET /openings`), or null when it has none (a set-up start, the hex
    /// board, no move yet).
    pub opening: Option<String>,
    /// Its pace, from its clock (what a player's move confirmations go by).
    pub speed: crate::model::explorer::Speed,
}

impl From<&Loaded> for GameSummary {
    fn from(g: &Loaded) -> Self {
        GameSummary::from(&Glance::from(g))
    }
}

impl From<&Glance> for GameSummary {
    fn from(g: &Glance) -> Self {
        let r = &g.row;
        let active = g.is_active();
        GameSummary {
            id: r.id.clone(),
            version: r.version,
            red: r.red.clone(),
            black: r.black.clone(),
            variant: r.variant,
            rules: r.rules,
            clock: r.clock,
            start_fen: r.start_fen.clone(),
            fen: r.fen.clone(),
            turn: g.turn,
            ply: r.ply,
            check: g.check,
            clocks: r.clock.is_live().then(|| ClocksView {
                red: r.red_ms,
                black: r.black_ms,
                running: (active && r.ply >= 2).then_some(g.turn),
                since: r.turn_started_ms,
            }),
            deadline: g.deadline(),
            draw_offer: r.draw_offer,
            status: r.status,
            rated: r.rated,
            outcome: r.outcome.map(OutcomeView::from),
            updated: r.updated_ms,
            last_move: g.last_move.clone(),
            tournament: r
                .tournament
                .as_ref()
                .map(|(id, round)| TournamentGameRef { id: id.clone(), round: *round }),
        }
    }
}

impl From<&Loaded> for GameView {
    fn from(g: &Loaded) -> Self {
        let legal = if g.is_active() { g.game.legal_names() } else { Vec::new() };
        let moves = g
            .moves
            .iter()
            .zip(g.names.iter())
            .map(|(m, names)| MoveView {
                iccs: m.iccs.clone(),
                wxf: names.wxf.clone(),
                chinese: names.chinese.clone(),
                at: m.at_ms,
            })
            .collect();
        let line: Vec<&str> = g.moves.iter().map(|m| m.iccs.as_str()).collect();
        let code = crate::domain::openings::code_of(g.row.variant, &g.row.start_fen, &line.join(" "));
        let speed = crate::model::explorer::Speed::of(g.row.clock);
        GameView {
            summary: GameSummary::from(g),
            legal,
            moves,
            opening: (!code.is_empty()).then_some(code),
            speed,
        }
    }
}

/// One of the computer's levels.
#[derive(Serialize, ToSchema)]
pub struct ComputerLevel {
    pub level: u8,
    /// The account that plays at this level (`computer.3`).
    pub player: String,
    /// Its strength in Elo above level 1, measured by matches between neighbouring levels.
    pub elo: i32,
}

#[derive(Serialize, ToSchema)]
pub struct ComputerLevels {
    pub levels: Vec<ComputerLevel>,
    /// Games one person may play against the computer at once.
    pub max_games: i64,
}

#[derive(Serialize, ToSchema)]
pub struct GameAnswer {
    #[schema(value_type = GameView)]
    pub game: std::sync::Arc<GameView>,
}

/// Beside my finished games: the first page of those being played.
#[derive(Serialize, ToSchema)]
pub struct BeingPlayed {
    /// Of the first page of games being played (the 100 most recently
    /// changed), those waiting for my move.
    pub my_turn: Vec<GameSummary>,
    /// Of the same page, those waiting for my opponents.
    pub their_turn: Vec<GameSummary>,
    /// The `after` of the next page of games being played (`GET /games/playing`); null on the last.
    pub playing_next: Option<String>,
}

/// Of a page of games being played, those waiting for my opponents (the page's
/// items are those waiting for me).
#[derive(Serialize, ToSchema)]
pub struct TheirTurn {
    pub their_turn: Vec<GameSummary>,
}

super::page::listings! {
    /// My games: those waiting for my move, those waiting for my opponent's (at most
    /// 200 each, most recently changed first), and a page of finished ones, newest first.
    MyGames = FinishedGames of GameSummary as "finished" with BeingPlayed,
        next "Pass as `after` for the next page of finished games; null on the last.":
        "My games: those waiting for my move, those waiting for my opponent's (at most\n200 each, most recently changed first), and a page of finished ones, newest first.";
    /// A page of my games being played, the most recently changed first, split by
    /// whose move it is.
    PlayingPage = MyTurn of GameSummary as "my_turn" with TheirTurn:
        "A page of my games being played, the most recently changed first, split by\nwhose move it is.";
}
