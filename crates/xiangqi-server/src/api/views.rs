//! Answers: users, challenges and games as clients see them.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;
use xiangqi::{Color, Outcome, Reason, RuleSet, Variant};

use crate::domain::wire;
use crate::{
    domain::{
        analysis,
        clock::ClockSpec,
        games::Loaded,
        glance::Glance,
        model::{
            ChallengeStatus, GameStatus, MoveClass, PairingResult, PlayerResult, Relation, ReviewStatus,
            SideChoice, TieBreak, TournamentFormat, TournamentStatus,
        },
        ratings::Category,
        review,
        tournaments::Table,
    },
    store::{
        ChallengeRow, ChatRow, Conversation, InvitationRow, MessageRow, ReviewPositionRow, ReviewRow,
        RuleSetRecord, TournamentRow, UserRow,
    },
};

impl From<analysis::Eval> for ScoreView {
    fn from(e: analysis::Eval) -> Self {
        use analysis::Eval;
        match e {
            Eval::Cp(value) => ScoreView::Cp { value },
            Eval::Mate(value) => ScoreView::Mate { value },
            Eval::Won => ScoreView::Won,
            Eval::Lost => ScoreView::Lost,
            Eval::Drawn => ScoreView::Drawn,
        }
    }
}

impl From<crate::domain::board::MoveNames> for MoveNamesView {
    fn from(n: crate::domain::board::MoveNames) -> Self {
        MoveNamesView { iccs: n.iccs, wxf: n.wxf, chinese: n.chinese }
    }
}

impl From<analysis::DepthReport> for AnalysisInfo {
    fn from(r: analysis::DepthReport) -> Self {
        AnalysisInfo {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score.into(),
            red: r.red.into(),
            nodes: r.nodes,
            nps: r.nps,
            time: r.time_ms,
            pv: r.pv.into_iter().map(MoveNamesView::from).collect(),
        }
    }
}

/// Finished games won, lost and drawn.
#[derive(Serialize, ToSchema)]
pub struct RecordView {
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

/// A player as everyone may see them.
#[derive(Serialize, ToSchema)]
pub struct UserView {
    pub name: String,
    /// As the user typed it; show it as text.
    pub bio: String,
    /// When the account was made.
    pub joined: i64,
    /// The rating of the category the user shows (`shown_category`), rounded.
    pub rating: i64,
    pub shown_category: Category,
    pub record: RecordView,
    /// When the user was last seen on the site (to the minute).
    pub seen: i64,
    pub location: String,
    /// Languages the user reads.
    pub languages: Vec<String>,
    /// The rule set the user prefers to play, if they said.
    #[serde(with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<RuleSet>)]
    pub preferred_rules: Option<RuleSet>,
    /// The time control the user prefers, if they said.
    pub preferred_clock: Option<ClockSpec>,
    /// An administrator of the site (writes news).
    pub admin: bool,
    /// The level this player plays at, when the player is the computer.
    pub computer: Option<u8>,
}

impl From<&UserRow> for UserView {
    fn from(u: &UserRow) -> Self {
        UserView {
            name: u.name.clone(),
            bio: u.bio.clone(),
            joined: u.created_ms,
            rating: u.rating,
            shown_category: u.shown_category,
            record: RecordView { wins: u.wins, losses: u.losses, draws: u.draws },
            seen: u.seen_ms,
            location: u.location.clone(),
            languages: u.languages.clone(),
            preferred_rules: u.preferred_rules,
            preferred_clock: u.preferred_clock,
            admin: u.admin,
            computer: u.computer,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct UserAnswer {
    pub user: UserView,
}

/// A new session: the user, and the token a client without cookies sends as
/// `Authorization: Bearer <token>`.
#[derive(Serialize, ToSchema)]
pub struct SessionAnswer {
    pub user: UserView,
    pub token: String,
}

/// A page of players by name, and who is here now.
#[derive(Serialize, ToSchema)]
pub struct UsersPage {
    pub users: Vec<UserView>,
    /// Which of this page's players were seen in the last 5 minutes (who is
    /// here, all of them, is `GET /users/online`).
    pub online: Vec<String>,
    /// Pass as `after` for the next page; null on the last.
    pub next: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    pub creator: String,
    /// The one challenged; null for the waiting room.
    pub opponent: Option<String>,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The creator's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
    /// An auto-match request waiting for a partner.
    pub auto: bool,
    pub created: i64,
    pub status: ChallengeStatus,
    /// The game it started, once accepted.
    pub game: Option<String>,
    /// The game it offers a rematch of, if it is a rematch.
    pub rematch_of: Option<String>,
    /// Whether its game will be rated.
    pub rated: bool,
    /// The ladder it climbs, for a ladder challenge.
    pub ladder: Option<Category>,
}

impl From<&ChallengeRow> for ChallengeView {
    fn from(c: &ChallengeRow) -> Self {
        ChallengeView {
            id: c.id.clone(),
            creator: c.creator.clone(),
            opponent: c.opponent.clone(),
            rules: c.rules,
            color: c.color,
            clock: c.clock,
            auto: c.auto,
            created: c.created_ms,
            status: c.status,
            game: c.game_id.clone(),
            rematch_of: c.rematch_of.clone(),
            rated: c.rated,
            ladder: c.ladder,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ChallengeAnswer {
    pub challenge: ChallengeView,
}

/// A user's lobby: open challenges, oldest first: a page of the waiting room,
/// and at most 100 to and from me.
#[derive(Serialize, ToSchema)]
pub struct LobbyView {
    /// Others' challenges to anyone: the waiting room, a page at a time.
    pub open: Vec<ChallengeView>,
    /// The `after` of the waiting room's next page; null on the last.
    pub next: Option<String>,
    /// Challenges to me, oldest first: the first page (`GET /challenges/incoming` walks on).
    pub incoming: Vec<ChallengeView>,
    /// The `after` of the next page of challenges to me; null on the last.
    pub incoming_next: Option<String>,
    /// Mine, auto-match requests included (one holds at most as many open
    /// challenges as the server allows).
    pub outgoing: Vec<ChallengeView>,
}

/// A page of challenges.
#[derive(Serialize, ToSchema)]
pub struct ChallengePage {
    pub challenges: Vec<ChallengeView>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

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

/// A game in full.
#[derive(Serialize, ToSchema)]
pub struct GameView {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The moves the side to move may play now (ICCS, sorted); empty once it is over.
    pub legal: Vec<String>,
    pub moves: Vec<MoveView>,
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
        GameView { summary: GameSummary::from(g), legal, moves }
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
    pub game: GameView,
}

/// My games: those waiting for my move, those waiting for my opponent's (at most
/// 200 each, most recently changed first), and a page of finished ones, newest first.
#[derive(Serialize, ToSchema)]
pub struct MyGames {
    /// Of the first page of games being played (the 100 most recently
    /// changed), those waiting for my move.
    pub my_turn: Vec<GameSummary>,
    /// Of the same page, those waiting for my opponents.
    pub their_turn: Vec<GameSummary>,
    /// The `after` of the next page of games being played (`GET /games/playing`); null on the last.
    pub playing_next: Option<String>,
    pub finished: Vec<GameSummary>,
    /// Pass as `after` for the next page of finished games; null on the last.
    pub next: Option<String>,
}

/// A page of my games being played, the most recently changed first, split by
/// whose move it is.
#[derive(Serialize, ToSchema)]
pub struct PlayingPage {
    pub my_turn: Vec<GameSummary>,
    pub their_turn: Vec<GameSummary>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// A profile page: the user, their results per rule set, their latest games,
/// and how the one asking regards them.
#[derive(Serialize, ToSchema)]
pub struct ProfileAnswer {
    pub user: UserView,
    /// Finished games per rule set.
    pub records: Vec<RuleSetRecordView>,
    /// The latest games that are over, newest first (at most 10).
    pub recent: Vec<GameSummary>,
    /// How many users this user keeps as buddies.
    pub buddies: i64,
    /// The user's rating in each category they have played rated games in.
    pub ratings: Vec<RatingView>,
    /// Whether the user has been seen in the last 5 minutes.
    pub online: bool,
    /// How the logged-in user regards this one: on their buddy list, ignored, or
    /// neither (null; always null for visitors).
    pub relation: Option<Relation>,
}

#[derive(Serialize, ToSchema)]
pub struct RuleSetRecordView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl From<&RuleSetRecord> for RuleSetRecordView {
    fn from(r: &RuleSetRecord) -> Self {
        RuleSetRecordView { rules: r.rules, wins: r.wins, losses: r.losses, draws: r.draws }
    }
}

/// A private message. `body` is the text as typed: show it as text.
#[derive(Serialize, ToSchema)]
pub struct MessageView {
    pub id: String,
    pub from: String,
    pub to: String,
    pub body: String,
    pub sent: i64,
    /// When the recipient read it; null while unread.
    pub read: Option<i64>,
}

impl From<&MessageRow> for MessageView {
    fn from(m: &MessageRow) -> Self {
        MessageView {
            id: m.id.clone(),
            from: m.sender.clone(),
            to: m.recipient.clone(),
            body: m.body.clone(),
            sent: m.created_ms,
            read: m.read_ms,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct MessageAnswer {
    pub message: MessageView,
}

/// A page of messages, newest first.
#[derive(Serialize, ToSchema)]
pub struct MessagesPage {
    pub messages: Vec<MessageView>,
    /// Pass as `after` for the next page; null on the last.
    pub next: Option<String>,
}

/// The messages with one person: the latest, and how many of theirs are unread.
#[derive(Serialize, ToSchema)]
pub struct ConversationView {
    pub with: String,
    pub last: MessageView,
    pub unread: i64,
}

impl From<&Conversation> for ConversationView {
    fn from(c: &Conversation) -> Self {
        ConversationView { with: c.with.clone(), last: MessageView::from(&c.last), unread: c.unread }
    }
}

/// Conversations, the latest first.
#[derive(Serialize, ToSchema)]
pub struct ConversationsPage {
    pub conversations: Vec<ConversationView>,
    pub next: Option<String>,
}

/// What waits for the logged-in user: for the page header and the tab title.
#[derive(Serialize, ToSchema)]
pub struct Counts {
    /// Games waiting for my move.
    pub my_turn: i64,
    pub unread_messages: i64,
}

/// A line of a game's chat. `body` is the text as typed: show it as text.
#[derive(Serialize, ToSchema)]
pub struct ChatLine {
    /// 1, 2, 3, ... within the game.
    pub seq: i64,
    pub author: String,
    pub body: String,
    pub at: i64,
}

impl From<&ChatRow> for ChatLine {
    fn from(c: &ChatRow) -> Self {
        ChatLine { seq: c.seq, author: c.author.clone(), body: c.body.clone(), at: c.created_ms }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ChatAnswer {
    /// Oldest first.
    pub lines: Vec<ChatLine>,
}

#[derive(Serialize, ToSchema)]
pub struct ChatLineAnswer {
    pub line: ChatLine,
}

/// Someone on a list or on the site, with what they are doing now.
#[derive(Serialize, ToSchema)]
pub struct PersonView {
    pub name: String,
    pub rating: i64,
    /// Seen in the last 5 minutes.
    pub online: bool,
    pub seen: i64,
    /// On the asking user's buddy list.
    pub buddy: bool,
    /// Games they are playing now (at most 10), to watch.
    pub games: Vec<GameSummary>,
}

/// A page of my buddies by name, those online first within it.
#[derive(Serialize, ToSchema)]
pub struct PeopleAnswer {
    pub users: Vec<PersonView>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// Who is here, a page at a time: the most recently seen first, my buddies
/// first within the page.
#[derive(Serialize, ToSchema)]
pub struct HerePage {
    pub users: Vec<PersonView>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// A page of the names on my ignore list, by name.
#[derive(Serialize, ToSchema)]
pub struct IgnoredAnswer {
    pub users: Vec<String>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// A page of search results, by name.
#[derive(Serialize, ToSchema)]
pub struct SearchPage {
    pub users: Vec<UserView>,
    pub next: Option<String>,
}

/// An invitation to hand to a friend.
#[derive(Serialize, ToSchema)]
pub struct InvitationView {
    pub code: String,
    /// The address to share, relative to the site (`/#/join/{code}`).
    pub link: String,
    /// The challenge waiting for whoever registers through it, if any.
    pub challenge: Option<InvitedGameView>,
    pub created: i64,
    /// How many have registered through it.
    pub uses: i64,
}

#[derive(Serialize, ToSchema)]
pub struct InvitedGameView {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The inviter's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
}

impl From<&InvitationRow> for InvitationView {
    fn from(i: &InvitationRow) -> Self {
        InvitationView {
            code: i.code.clone(),
            link: format!("/#/join/{}", i.code),
            challenge: i.game.map(|g| InvitedGameView { rules: g.rules, color: g.color, clock: g.clock }),
            created: i.created_ms,
            uses: i.uses,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct InvitationAnswer {
    pub invitation: InvitationView,
}

#[derive(Serialize, ToSchema)]
pub struct InvitationsAnswer {
    /// Newest first.
    pub invitations: Vec<InvitationView>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// What an invitation link shows before registering: who invites.
#[derive(Serialize, ToSchema)]
pub struct InvitationPreview {
    pub inviter: String,
    pub challenge: Option<InvitedGameView>,
}

/// A piece of site news. Title and body are text as written: show them as text.
#[derive(Serialize, ToSchema)]
pub struct NewsItem {
    pub id: String,
    pub title: String,
    pub body: String,
    pub author: String,
    pub posted: i64,
}

impl From<&crate::store::NewsRow> for NewsItem {
    fn from(n: &crate::store::NewsRow) -> Self {
        NewsItem {
            id: n.id.clone(),
            title: n.title.clone(),
            body: n.body.clone(),
            author: n.author.clone(),
            posted: n.created_ms,
        }
    }
}

/// News, newest first.
#[derive(Serialize, ToSchema)]
pub struct NewsPage {
    pub news: Vec<NewsItem>,
    pub next: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct NewsAnswer {
    pub news: NewsItem,
}

#[derive(Serialize, ToSchema)]
pub struct PreferencesAnswer {
    pub preferences: crate::domain::preferences::Preferences,
}

/// Games being played, the most recently moved first.
#[derive(Serialize, ToSchema)]
pub struct LiveGames {
    pub games: Vec<GameSummary>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// A Glicko-2 rating in one category.
#[derive(Serialize, ToSchema)]
pub struct RatingView {
    pub category: Category,
    /// Rounded to a whole number.
    pub rating: i64,
    /// The rating deviation, rounded: how uncertain the rating is.
    pub deviation: i64,
    /// The deviation is above 110: too few games to trust the rating.
    pub provisional: bool,
    /// Rated games played in the category.
    pub games: i64,
}

impl From<&crate::store::RatingRow> for RatingView {
    fn from(r: &crate::store::RatingRow) -> Self {
        RatingView {
            category: r.category,
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            provisional: r.rating.provisional(),
            games: r.rating.games,
        }
    }
}

/// A leaderboard row.
#[derive(Serialize, ToSchema)]
pub struct LeaderView {
    pub name: String,
    pub rating: i64,
    pub deviation: i64,
    pub games: i64,
}

/// The best established ratings of a category, highest first.
#[derive(Serialize, ToSchema)]
pub struct LeadersPage {
    pub category: Category,
    pub leaders: Vec<LeaderView>,
    pub next: Option<String>,
}

/// A player's rating after a rated game.
#[derive(Serialize, ToSchema)]
pub struct HistoryPointView {
    pub at: i64,
    pub rating: i64,
    pub deviation: i64,
    pub game: String,
}

/// A player's rating history in a category, oldest first (the latest 500 games).
#[derive(Serialize, ToSchema)]
pub struct HistoryAnswer {
    pub category: Category,
    pub points: Vec<HistoryPointView>,
}

/// A place on a ladder.
#[derive(Serialize, ToSchema)]
pub struct RungView {
    /// 1 is the top.
    pub position: i64,
    pub name: String,
    pub joined: i64,
}

/// A ladder result: a game, or a challenge the defender let lapse.
#[derive(Serialize, ToSchema)]
pub struct LadderResultView {
    pub challenger: String,
    pub defender: String,
    /// The challenger won (and took the defender's place).
    pub challenger_won: bool,
    /// The game; null when the challenge lapsed.
    pub game: Option<String>,
    pub at: i64,
}

/// A ladder: a page of places from the top, its open challenges, its latest results.
#[derive(Serialize, ToSchema)]
pub struct LadderView {
    pub category: Category,
    pub rungs: Vec<RungView>,
    /// Pass as `after` for the next page of places; null on the last.
    pub next: Option<String>,
    /// Open ladder challenges, oldest first, the first page
    /// (`GET /ladders/{category}/challenges` walks on); each lapses at `expires`.
    pub challenges: Vec<LadderChallengeView>,
    /// The `after` of the next page of challenges; null on the last.
    pub challenges_next: Option<String>,
    /// The latest 20 results, newest first.
    pub results: Vec<LadderResultView>,
}

/// A page of a ladder's open challenges.
#[derive(Serialize, ToSchema)]
pub struct LadderChallengePage {
    pub challenges: Vec<LadderChallengeView>,
    /// The `after` of the next page; null on the last.
    pub next: Option<String>,
}

/// An open ladder challenge.
#[derive(Serialize, ToSchema)]
pub struct LadderChallengeView {
    pub challenge: ChallengeView,
    /// When it counts as lost by the one challenged if not accepted.
    pub expires: i64,
}

/// The place a player took on joining.
#[derive(Serialize, ToSchema)]
pub struct JoinedLadder {
    pub position: i64,
}

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

impl From<&TournamentRow> for TournamentSummary {
    fn from(t: &TournamentRow) -> Self {
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

/// A move's written forms.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveNamesView {
    /// The two cells (`h2e2`; `e4e5` on the hex board).
    pub iccs: String,
    /// WXF (`C2=5`); on the hex board, the piece's letter and the cells (`Pe4-e5`).
    pub wxf: String,
    /// In Chinese (`炮二平五`); on the hex board, the glyph and the cells (`兵e4-e5`).
    pub chinese: String,
}

/// An evaluation from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScoreView {
    /// Centipawns: positive when this side is better (a soldier is worth about 100).
    Cp { value: i32 },
    /// A forced mate in `value` moves: positive when this side gives it, negative when it suffers it.
    Mate { value: i32 },
    /// The game is over here and this side has won.
    Won,
    /// The game is over here and this side has lost (checkmated, stalemated or by a rule).
    Lost,
    /// The game is over here, drawn.
    Drawn,
}

/// One position along a line.
#[derive(Serialize, ToSchema)]
pub struct LinePosition {
    /// The move that led here; null for the first position.
    pub played: Option<MoveNamesView>,
    pub fen: String,
    /// The side to move.
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The moves the side to move may play (ICCS, sorted); empty when the game is over.
    pub legal: Vec<String>,
    /// How the game ended here, if it did (checkmate, stalemate, a repetition rule...).
    pub outcome: Option<OutcomeView>,
}

/// Every position of a line, from the one it starts at.
#[derive(Serialize, ToSchema)]
pub struct LineAnswer {
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The start and then one per move: one more than the moves.
    pub positions: Vec<LinePosition>,
}

/// What the engine found at one depth.
#[derive(Serialize, ToSchema)]
pub struct AnalysisInfo {
    /// The depth completed.
    pub depth: i32,
    /// The deepest ply any line reached.
    pub seldepth: i32,
    /// From the side to move's view.
    pub score: ScoreView,
    /// The same from Red's view.
    pub red: ScoreView,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes searched per second.
    pub nps: u64,
    /// Milliseconds thought so far.
    pub time: u64,
    /// The principal variation: the best line found, from the side to move.
    pub pv: Vec<MoveNamesView>,
}

/// One evaluated position of a review.
#[derive(Serialize, ToSchema)]
pub struct ReviewedPosition {
    /// The position after this many moves (0 is the start).
    pub ply: i64,
    /// From the side to move's view.
    pub score: ScoreView,
    /// The same from Red's view.
    pub red: ScoreView,
    /// Red's view in centipawns clamped to ±1000 (a mate or a won game is the
    /// limit): what the evaluation graph draws.
    pub red_cp: i32,
    /// The engine's move here; null when the game is over here.
    pub best: Option<MoveNamesView>,
    /// How deep the search went.
    pub depth: i64,
}

/// A move of a reviewed game, judged.
#[derive(Serialize, ToSchema)]
pub struct ReviewedMove {
    /// Its number in the game, from 1: it leads from position `ply - 1` to `ply`.
    pub ply: i64,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Color>)]
    pub color: Color,
    pub played: MoveNamesView,
    pub class: MoveClass,
    /// Percentage points of expected score (Win%, from the engine's
    /// centipawns) its mover gave up against the engine's move searched to the
    /// same depth (0 for the engine's own move).
    pub loss: i32,
    /// The engine's move in its place.
    pub best: Option<MoveNamesView>,
}

/// How many moves of each class a side played.
#[derive(Serialize, ToSchema, Default)]
pub struct ClassCounts {
    pub good: i64,
    pub inaccuracy: i64,
    pub mistake: i64,
    pub blunder: i64,
}

impl ClassCounts {
    fn add(&mut self, class: MoveClass) {
        match class {
            MoveClass::Good => self.good += 1,
            MoveClass::Inaccuracy => self.inaccuracy += 1,
            MoveClass::Mistake => self.mistake += 1,
            MoveClass::Blunder => self.blunder += 1,
        }
    }
}

/// A page of tournaments, newest first.
#[derive(Serialize, ToSchema)]
pub struct TournamentsPage {
    pub tournaments: Vec<TournamentSummary>,
    /// Pass as `after` for the next page; null on the last.
    pub next: Option<String>,
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

/// The thresholds the moves were judged by: the least loss of expected score,
/// in percentage points, of an inaccuracy, a mistake and a blunder.
#[derive(Serialize, ToSchema)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
}

/// A game's review: every position evaluated once at a fixed node budget, and
/// each move judged by the expected score it gave up against the engine's move.
#[derive(Serialize, ToSchema)]
pub struct ReviewView {
    pub game: String,
    pub status: ReviewStatus,
    pub requested_by: String,
    /// Positions evaluated so far, of `total` (one more than the moves).
    pub done: i64,
    pub total: i64,
    /// Nodes searched per position.
    pub nodes: i64,
    pub positions: Vec<ReviewedPosition>,
    /// The moves whose positions before and after are both evaluated.
    pub moves: Vec<ReviewedMove>,
    pub red: ClassCounts,
    pub black: ClassCounts,
    pub thresholds: Thresholds,
}

/// A game's review, or null if none has been asked for.
#[derive(Serialize, ToSchema)]
pub struct ReviewAnswer {
    pub review: Option<ReviewView>,
}

impl ReviewView {
    pub fn new(g: &Loaded, row: &ReviewRow, stored: &[ReviewPositionRow]) -> ReviewView {
        let played: Vec<String> = g.moves.iter().map(|m| m.iccs.clone()).collect();
        let names = &g.names;
        let by_ply: HashMap<i64, &ReviewPositionRow> = stored.iter().map(|p| (p.ply, p)).collect();
        // Along the game once: each position's side to move and the names of
        // the engine's move there.
        let mut board = g.game.prefix(0);
        let first = board.turn();
        let mut positions = Vec::with_capacity(stored.len());
        let mut best_at: HashMap<i64, MoveNamesView> = HashMap::new();
        for ply in 0..=played.len() {
            if let Some(p) = by_ply.get(&(ply as i64)) {
                let best =
                    p.best.as_deref().and_then(|b| board.parse_legal(b).ok()).map(|m| board.names(m).into());
                if let Some(b) = &best {
                    best_at.insert(p.ply, MoveNamesView::clone(b));
                }
                let red = p.eval.for_red(board.turn());
                positions.push(ReviewedPosition {
                    ply: p.ply,
                    score: p.eval.into(),
                    red: red.into(),
                    red_cp: red.clamped(),
                    best,
                    depth: p.depth,
                });
            }
            if ply == played.len() || board.play_name(&played[ply]).is_err() {
                break;
            }
        }
        let (mut red, mut black) = (ClassCounts::default(), ClassCounts::default());
        let moves = review::judge(first, &played, stored)
            .into_iter()
            .map(|j| {
                match j.mover {
                    Color::Red => red.add(j.class),
                    Color::Black => black.add(j.class),
                }
                let text = &played[j.ply - 1];
                ReviewedMove {
                    ply: j.ply as i64,
                    color: j.mover,
                    played: names.get(j.ply - 1).cloned().map_or_else(
                        || MoveNamesView { iccs: text.clone(), wxf: text.clone(), chinese: text.clone() },
                        MoveNamesView::from,
                    ),
                    class: j.class,
                    loss: j.loss,
                    best: best_at.get(&(j.ply as i64 - 1)).cloned(),
                }
            })
            .collect();
        ReviewView {
            game: g.row.id.clone(),
            status: row.status,
            requested_by: row.requested_by.clone(),
            done: stored.len() as i64,
            total: row.total,
            nodes: row.nodes,
            positions,
            moves,
            red,
            black,
            thresholds: Thresholds {
                inaccuracy: analysis::INACCURACY_PCT,
                mistake: analysis::MISTAKE_PCT,
                blunder: analysis::BLUNDER_PCT,
            },
        }
    }
}
