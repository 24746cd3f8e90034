//! Tournaments: lists, entrants, pairings, rounds, crosstables and standings.

use super::*;
use crate::model::tournaments::TournamentRecord;

/// A tournament as lists show it.
#[derive(Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub creator: String,
    pub category: Category,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub format: TournamentFormat,
    /// A Swiss's rounds as planned; a round-robin's from its start (0 before).
    pub rounds: i64,
    pub min_players: i64,
    pub max_players: i64,
    /// When it starts; null: as soon as it is full.
    pub starts: Option<i64>,
    pub status: TournamentStatus,
    /// The round being played (0 before the start; the last once finished).
    pub round: i64,
    /// Signed up (withdrawn players included).
    pub players: i64,
    /// What breaks ties on points.
    pub tiebreak: TieBreak,
    pub created: i64,
    pub started: Option<i64>,
    /// When it finished or was cancelled.
    pub finished: Option<i64>,
}

impl From<&TournamentRecord> for TournamentSummary {
    fn from(t: &TournamentRecord) -> Self {
        TournamentSummary {
            id: t.id.clone(),
            name: t.name.clone(),
            creator: t.creator.clone(),
            category: t.category,
            rules: t.rules,
            clock: t.clock,
            format: t.format,
            rounds: t.rounds,
            min_players: t.min_players,
            max_players: t.max_players,
            starts: t.starts_ms,
            status: t.status,
            round: t.round,
            players: t.players,
            tiebreak: t.format.tiebreak(),
            created: t.created_ms,
            started: t.started_ms,
            finished: t.finished_ms,
        }
    }
}

/// A player signed up.
#[derive(Serialize, ToSchema)]
pub struct EntrantView {
    pub name: String,
    /// 1 is the highest rated at the start; null before it.
    pub seed: Option<i64>,
    /// The rating in the tournament's category at the start; null before it.
    pub rating: Option<i64>,
    pub joined: i64,
    /// The round in which the player withdrew, if they did after the start.
    pub withdrawn_round: Option<i64>,
}

/// A board of a round: a game, a forfeit, or (no `black`) a bye.
#[derive(Serialize, ToSchema)]
pub struct PairingView {
    pub board: i64,
    pub red: String,
    /// Null for a bye.
    pub black: Option<String>,
    /// The game, once its round has begun; null for byes and forfeits.
    pub game: Option<String>,
    /// Null while the game is played (or its round has not begun).
    pub result: Option<PairingResult>,
}

/// A round's pairings.
#[derive(Serialize, ToSchema)]
pub struct RoundView {
    pub round: i64,
    pub pairings: Vec<PairingView>,
    /// Players with no board this round: a round-robin's rest, or withdrawn.
    pub sitting_out: Vec<String>,
}

/// One round of one player's tournament: the crosstable's cell.
#[derive(Serialize, ToSchema)]
pub struct CrossCell {
    pub round: i64,
    /// Null for a bye.
    pub opponent: Option<String>,
    /// The colour played; null for a bye.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Color>)]
    pub color: Option<Color>,
    /// Null while the game is played (or its round has not begun).
    pub result: Option<PlayerResult>,
    pub game: Option<String>,
}

/// A line of the standings, with the player's results round by round.
#[derive(Serialize, ToSchema)]
pub struct StandingView {
    /// 1 is first.
    pub rank: i64,
    pub name: String,
    pub seed: i64,
    /// Wins 1, draws 0.5, a bye or a forfeit won 1.
    pub points: f64,
    /// The tournament's tie-break (`tiebreak`), in points.
    pub tiebreak: f64,
    pub wins: i64,
    pub withdrawn_round: Option<i64>,
    /// Every pairing of the player so far, by round.
    pub results: Vec<CrossCell>,
}

/// A tournament in full: entrants, rounds and standings (with the crosstable).
#[derive(Serialize, ToSchema)]
pub struct TournamentView {
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// By seed once started, else in the order they signed up.
    pub entrants: Vec<EntrantView>,
    /// The rounds drawn so far, first first (a round-robin's whole schedule
    /// from the start; a Swiss's as each round is paired).
    pub schedule: Vec<RoundView>,
    /// Best first, by points, then the tie-break, then wins, then seed; empty
    /// before the start. Kept once the tournament is over.
    pub standings: Vec<StandingView>,
}

#[derive(Serialize, ToSchema)]
pub struct TournamentAnswer {
    pub tournament: TournamentView,
}

impl From<&Table> for TournamentView {
    fn from(table: &Table) -> Self {
        let t = &table.tournament;
        let started = t.status != TournamentStatus::Signup && t.status != TournamentStatus::Cancelled;
        let entrants = table
            .entrants
            .iter()
            .map(|e| EntrantView {
                name: e.user.clone(),
                seed: started.then_some(e.seed),
                rating: started.then_some(e.rating),
                joined: e.joined_ms,
                withdrawn_round: e.withdrawn_round,
            })
            .collect();
        let mut rounds: Vec<RoundView> = Vec::new();
        for p in &table.pairings {
            if rounds.last().is_none_or(|r| r.round != p.round) {
                rounds.push(RoundView { round: p.round, pairings: Vec::new(), sitting_out: Vec::new() });
            }
            if let Some(r) = rounds.last_mut() {
                r.pairings.push(PairingView {
                    board: p.board,
                    red: p.red.clone(),
                    black: p.black.clone(),
                    game: p.game_id.clone(),
                    result: p.result,
                });
            }
        }
        for r in &mut rounds {
            let seated =
                |name: &str| r.pairings.iter().any(|p| p.red == name || p.black.as_deref() == Some(name));
            r.sitting_out =
                table.entrants.iter().filter(|e| !seated(&e.user)).map(|e| e.user.clone()).collect();
        }
        let standings = table
            .standings()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let e = &table.entrants[s.player];
                let results = table
                    .pairings
                    .iter()
                    .filter_map(|p| {
                        let side = if p.red == e.user {
                            Color::Red
                        } else if p.black.as_deref() == Some(e.user.as_str()) {
                            Color::Black
                        } else {
                            return None;
                        };
                        let opponent = if side == Color::Red { p.black.clone() } else { Some(p.red.clone()) };
                        Some(CrossCell {
                            round: p.round,
                            color: opponent.is_some().then_some(side),
                            opponent,
                            result: p.result.map(|r| r.for_side(side)),
                            game: p.game_id.clone(),
                        })
                    })
                    .collect();
                StandingView {
                    rank: i as i64 + 1,
                    name: e.user.clone(),
                    seed: e.seed,
                    points: s.points as f64 / 2.0,
                    tiebreak: s.tiebreak as f64 / 4.0,
                    wins: s.wins,
                    withdrawn_round: e.withdrawn_round,
                    results,
                }
            })
            .collect();
        TournamentView { summary: TournamentSummary::from(t), entrants, schedule: rounds, standings }
    }
}

super::page::listings! {
    /// A page of tournaments, newest first.
    TournamentsPage = Tournaments of TournamentSummary as "tournaments": "A page of tournaments, newest first.";
}
