//! Why the site says no. Every refusal is one [`Refusal`]: a reason with its
//! particulars, typed, so that a client (or a translation) can act on it and
//! no refusal goes out without one. The HTTP edge maps each to a status once
//! (`crate::error`); the domain knows nothing of statuses.

use serde::Serialize;
use utoipa::ToSchema;
use xiangqi::{
    GameError, IllegalReason, MoveError, RuleSet, Variant,
    notation::{limits::Limit, pgn::PgnError},
};

use crate::model::{
    clock::{ClockSpec, MAX_HOURS, Pace},
    preferences::Preferences,
    wire, {Named, named_enum},
};

named_enum! {
    /// What kind of refusal an error is; `reason` says which, `message` says it in words.
    "an error code" ErrorCode {
        BadRequest = "bad_request",
        Unauthorized = "unauthorized",
        Forbidden = "forbidden",
        NotFound = "not_found",
        Conflict = "conflict",
        IllegalMove = "illegal_move",
        TooManyRequests = "too_many_requests",
        PayloadTooLarge = "payload_too_large",
        Internal = "internal",
        Unavailable = "unavailable",
    }
}

named_enum! {
    /// An act whose number in a window of time is limited.
    "a limited act" Act {
        /// New accounts from one network address.
        Signups = "signups",
        /// Failed log-ins from one network address.
        FailedLogins = "failed_logins",
        /// New challenges.
        Challenges = "challenges",
        /// Private messages.
        Messages = "messages",
        /// Lines of game chat.
        ChatLines = "chat_lines",
        /// New tournaments.
        Tournaments = "tournaments",
        /// Analyses started (engine time is shared by everyone).
        Analyses = "analyses",
        /// Game reviews started (engine time is shared by everyone).
        Reviews = "reviews",
        /// Edits of studies.
        StudyEdits = "study_edits",
        /// Timed puzzle streaks started.
        Streaks = "streaks",
        /// Puzzle moves and hints without logging in, from one network address.
        PuzzleMoves = "puzzle_moves",
    }
}

named_enum! {
    /// The window of time a limit counts in.
    "a window of time" Window {
        Minute = "minute",
        QuarterHour = "quarter_hour",
        Hour = "hour",
        Day = "day",
    }
}

named_enum! {
    /// A text a person writes, whose length is bounded.
    "a text field" TextField {
        Title = "title",
        News = "news",
        Bio = "bio",
        Location = "location",
        Message = "message",
        ChatLine = "chat_line",
        TournamentName = "tournament_name",
        Search = "search",
        StudyTitle = "study_title",
        ChapterTitle = "chapter_title",
        Comment = "comment",
    }
}

named_enum! {
    /// Why a move was not played.
    "why a move is illegal" Illegality {
        /// The text is no move in any notation the board reads.
        Unreadable = "unreadable",
        /// The text could mean more than one move.
        Ambiguous = "ambiguous",
        OffBoard = "off_board",
        NoPiece = "no_piece",
        NotYourPiece = "not_your_piece",
        OwnPiece = "own_piece",
        /// The piece does not move that way.
        NotAMove = "not_a_move",
        GeneralsFace = "generals_face",
        LeavesGeneralInCheck = "leaves_general_in_check",
        /// The rule set forbids it (a perpetual check or chase).
        Forbidden = "forbidden",
        NoSuchMove = "no_such_move",
        /// The game on the board is over.
        Over = "over",
    }
}

named_enum! {
    /// A limit on game records (the rules crate's table of record limits).
    "a record limit" RecordLimit {
        RequestBytes = "request_bytes",
        FileBytes = "file_bytes",
        GamesPerFile = "games_per_file",
        /// Moves in one line from the start, the main line or a variation.
        PliesPerLine = "plies_per_line",
        /// Variations opened inside variations.
        VariationDepth = "variation_depth",
        /// Positions in one tree of moves.
        NodesPerTree = "nodes_per_tree",
        /// Moves in one file, over its games and variations.
        NodesPerFile = "nodes_per_file",
    }
}

impl From<Limit> for RecordLimit {
    fn from(l: Limit) -> Self {
        match l {
            Limit::RequestBytes => RecordLimit::RequestBytes,
            Limit::FileBytes => RecordLimit::FileBytes,
            Limit::GamesPerFile => RecordLimit::GamesPerFile,
            Limit::PliesPerLine => RecordLimit::PliesPerLine,
            Limit::VariationDepth => RecordLimit::VariationDepth,
            Limit::NodesPerTree => RecordLimit::NodesPerTree,
            Limit::NodesPerFile => RecordLimit::NodesPerFile,
        }
    }
}

impl From<IllegalReason> for Illegality {
    fn from(r: IllegalReason) -> Self {
        match r {
            IllegalReason::OffBoard => Illegality::OffBoard,
            IllegalReason::NoPiece => Illegality::NoPiece,
            IllegalReason::NotYourPiece => Illegality::NotYourPiece,
            IllegalReason::OwnPiece => Illegality::OwnPiece,
            IllegalReason::NotAMove(_) => Illegality::NotAMove,
            IllegalReason::GeneralsFace => Illegality::GeneralsFace,
            IllegalReason::LeavesGeneralInCheck => Illegality::LeavesGeneralInCheck,
            IllegalReason::Forbidden(_) => Illegality::Forbidden,
            IllegalReason::NoSuchMove => Illegality::NoSuchMove,
        }
    }
}

impl From<&MoveError> for Illegality {
    fn from(e: &MoveError) -> Self {
        match e {
            MoveError::Syntax(_) => Illegality::Unreadable,
            MoveError::Ambiguous { .. } => Illegality::Ambiguous,
            MoveError::Illegal(i) => i.reason.into(),
        }
    }
}

impl From<&GameError> for Illegality {
    fn from(e: &GameError) -> Self {
        match e {
            GameError::Over(_) => Illegality::Over,
            GameError::Illegal(i) => i.reason.into(),
            GameError::Notation(n) => n.into(),
        }
    }
}

/// Why a request was refused, with its particulars (`params` on the wire).
/// The English `message` beside it on the wire is this type's `Display`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema, thiserror::Error)]
#[serde(tag = "reason", content = "params", rename_all = "snake_case")]
pub enum Refusal {
    // ---- Requests the server cannot read ----
    /// The body or query string is not what the endpoint takes.
    #[error("{detail}")]
    Malformed { detail: String },
    #[error("a NUL character (U+0000) is not allowed in a path, query or text")]
    NulCharacter {},
    #[error("the body is larger than {max_kib} KiB")]
    BodyTooLarge { max_kib: u32 },
    #[error(
        "writes made with the session cookie need the X-Xiangqi header (cross-site requests are refused)"
    )]
    CrossSite {},
    #[error("a WebSocket from another site")]
    ForeignOrigin {},
    #[error("no such API endpoint")]
    NoEndpoint {},
    #[error("log in first")]
    LogInFirst {},
    #[error("your session has ended; log in again")]
    SessionEnded {},

    // ---- Limits ----
    /// At most `allowed` of `act` per `per`; `seconds` until one more is allowed.
    #[error("you may make at most {allowed} {} {}{}; try again in {seconds} s", act.words(), per.words(), act.note())]
    TooOften { act: Act, allowed: u32, per: Window, seconds: u64 },
    /// Failed log-ins for this user id wait `seconds` before another try.
    #[error("too many failed log-ins for this user id; try again in {seconds} s")]
    LogInWait { seconds: u64 },
    #[error("you have {open} open challenges (at most {allowed}); cancel one or wait until one is answered")]
    OpenChallenges { open: i64, allowed: u32 },
    #[error("you are playing {allowed} games against the computer already: finish one to start another")]
    ComputerGames { allowed: u32 },
    #[error("you have made {allowed} invitations already")]
    Invitations { allowed: u32 },
    #[error("a list holds at most {allowed} users")]
    ListFull { allowed: u32 },
    /// The server reads as many records at once as it can (or as many of
    /// this client's as it takes): try again in `seconds`.
    #[error("the server is busy reading other records; try again in {seconds} s")]
    Busy { seconds: u64 },
    /// The server writes as many exports at once as it can (or as many of
    /// this client's as it takes): try again in `seconds`.
    #[error(
        "the server is writing as many downloads as it can, or as many of yours as it takes; try again in {seconds} s"
    )]
    ExportsBusy { seconds: u64 },

    // ---- Accounts and people ----
    #[error("a user id is {min} to {max} letters, digits, '_' or '-'")]
    NameShape { min: u32, max: u32 },
    #[error("the user id {name:?} is taken")]
    NameTaken { name: String },
    #[error("a password is {min} to {max} characters")]
    PasswordLength { min: u32, max: u32 },
    #[error("the old password is wrong")]
    OldPasswordWrong {},
    #[error("wrong user id or password")]
    WrongCredentials {},
    #[error("no user {name:?}")]
    NoUser { name: String },
    #[error("no invitation {code:?}")]
    NoInvitation { code: String },
    /// `field` is `min` to `max` characters long.
    #[error("the {} is {min} to {max} characters", field.words())]
    TextLength { field: TextField, min: u32, max: u32 },
    #[error("languages are at most {most} names of 1 to {longest} characters, without commas")]
    Languages { most: u32, longest: u32 },
    #[error("piece_size is {min} to {max} (percent)")]
    PieceSize { min: u32, max: u32 },
    /// `name` does not accept this from the requester.
    #[error("{name} does not accept this from you")]
    Ignored { name: String },
    /// Neutral words for a challenge between a player and one who ignores them.
    #[error("you cannot challenge this user")]
    CannotChallenge {},
    #[error("that is you")]
    Yourself {},
    #[error("{name} is not on that list")]
    NotOnList { name: String },
    #[error("no message {id:?}")]
    NoMessage { id: String },
    #[error("only the two players write in a game's chat; others read it")]
    PlayersChatOnly {},
    #[error("the chat is busy; send the line again")]
    ChatBusy {},
    #[error("only administrators write news")]
    AdministratorsOnly {},
    #[error("no news {id:?}")]
    NoNews { id: String },
    #[error("no rating category {name:?}")]
    NoCategory { name: String },

    // ---- Challenges ----
    /// The board `variant` is not played under `rules`.
    #[error(
        "variant {variant} is not played under the {rules} rules: the hex board takes the hex rules, the standard board asian, itsyourturn or casual"
    )]
    RulesMismatch {
        #[serde(with = "wire::named")]
        #[schema(schema_with = wire::schema::<Variant>)]
        variant: Variant,
        #[serde(with = "wire::named")]
        #[schema(schema_with = wire::schema::<RuleSet>)]
        rules: RuleSet,
    },
    #[error("correspondence hours per move are {min} to {max}")]
    CorrespondenceHours { min: u32, max: u32 },
    #[error("a live clock is {min_s} s to {max_s} s, with an increment of 0 to {max_increment_s} s")]
    LiveClock { min_s: u32, max_s: u32, max_increment_s: u32 },
    #[error("the computer takes no challenges: start a game against it with POST /computer-games")]
    ComputerTakesNoChallenges {},
    #[error("the computer's level is {min} to {max}")]
    ComputerLevel { min: u8, max: u8 },
    #[error("you already have an open challenge with these settings")]
    DuplicateChallenge {},
    #[error("no challenge {id:?}")]
    NoChallenge { id: String },
    #[error("you cannot accept your own challenge")]
    OwnChallenge {},
    #[error("this challenge is for someone else")]
    NotYourChallenge {},
    #[error("the challenge is no longer open")]
    ChallengeClosed {},

    // ---- Games ----
    #[error("no game {id:?}")]
    NoGame { id: String },
    #[error("you are not playing in this game")]
    NotPlaying {},
    #[error("the game is over")]
    GameOver {},
    #[error("the game is still being played")]
    GameNotOver {},
    #[error("the game was aborted")]
    GameAborted {},
    #[error("it is not your turn")]
    NotYourTurn {},
    /// A premove is queued while the opponent is to move; on one's own move, one moves.
    #[error("it is your move: play it rather than queue it")]
    PremoveOnYourTurn {},
    /// Correspondence games take no premoves.
    #[error("premoves are for live games")]
    PremoveLiveOnly {},
    #[error("{text:?} is no premove: give two points, the first holding one of your pieces (h2e2)")]
    BadPremove { text: String },
    /// Live games take premoves instead.
    #[error("conditional moves are for correspondence games")]
    ConditionalsCorrespondenceOnly {},
    /// Conditional moves answer the opponent's next move; on one's own move, one moves.
    #[error("it is your move: play it; conditional moves answer your opponent's next move")]
    ConditionalsOnYourTurn {},
    /// A line of conditional moves (counted from 1) is empty or ends with the
    /// opponent's move.
    #[error("line {line} must end with your answer to your opponent's move")]
    ConditionalEndsWithTheirs { line: u32 },
    /// The `number`-th move of a line of conditional moves cannot be played.
    #[error("line {line}: {}", illegal_words(text, *why, Some(*number)))]
    ConditionalIllegal { line: u32, number: u32, text: String, why: Illegality },
    /// Two lines answer the same move of the opponent's (after the moves
    /// `after`) differently: each move has one answer.
    #[error("after {after} you answer both {first} and {second}: keep one")]
    ConditionalTwoAnswers { after: String, first: String, second: String },
    #[error("the game was aborted: the first move was not made in time")]
    NotStarted {},
    /// The game is past the ply the move was made for.
    #[error("the move was made already; reload the game")]
    MovedAlready {},
    #[error("the game changed meanwhile; reload it")]
    GameChanged {},
    #[error("your time ran out")]
    TimeRanOut {},
    /// The move `text` (the `number`-th of a line, where one was sent) is not legal.
    #[error("{}", illegal_words(text, *why, *number))]
    IllegalMove {
        text: String,
        why: Illegality,
        #[serde(skip_serializing_if = "Option::is_none")]
        number: Option<u32>,
    },
    #[error("a tournament game cannot be aborted; resign to give up the point")]
    TournamentAbort {},
    #[error("both sides have moved: the game can no longer be aborted")]
    BothMoved {},
    #[error("you have already offered a draw")]
    DrawOffered {},
    #[error("there is no draw offer from your opponent")]
    NoDrawOffer {},
    #[error("your opponent still has time")]
    OpponentHasTime {},

    // ---- Puzzles ----
    #[error("no puzzle {id:?}")]
    NoPuzzle { id: String },
    /// Every puzzle that fits has been tried, or none has been found yet.
    #[error("there is no puzzle left to try here; come back when more have been found")]
    NoPuzzleLeft {},
    /// More moves were sent than the puzzle's line has for the solver.
    #[error("the puzzle is solved in {moves} moves")]
    PuzzleLine { moves: u32 },
    #[error("no streak {id:?}")]
    NoStreak { id: String },
    /// The streak ended (a puzzle failed or the time ran out), or this is not its puzzle now.
    #[error("this streak is over or has moved to another puzzle")]
    StreakOver {},
    /// A running streak stands on this puzzle: it is answered through that streak alone.
    #[error("this puzzle is in a timed streak now; try it again in a few minutes")]
    PuzzleInStreak {},

    // ---- Analysis ----
    #[error("a line holds at most {max} moves")]
    LineLength { max: u32 },
    #[error("this position cannot be played: {detail}")]
    BadPosition { detail: String },
    #[error("an upload is at most {max_kib} KiB and {max_games} games")]
    ImportTooLarge { max_kib: u32, max_games: u32 },
    #[error("you may keep at most {allowed} imported games, and have {stored}")]
    ImportsFull { allowed: u32, stored: i64 },
    #[error("the file holds no game record (it is read as {format})")]
    NoRecords { format: String },
    #[error("depth is {min} to {max}")]
    Depth { min: u32, max: u32 },
    #[error("thinking time is {min_ms} to {max_ms} milliseconds")]
    ThinkingTime { min_ms: u32, max_ms: u32 },
    #[error("an analysis shows {min} to {max} lines")]
    AnalysisLines { min: u32, max: u32 },

    // ---- Ladders ----
    #[error("you are on this ladder already")]
    OnLadder {},
    #[error("join the ladder first")]
    JoinLadderFirst {},
    #[error("{name} is not on this ladder")]
    NotOnLadder { name: String },
    #[error("a ladder challenge goes to someone above you")]
    LadderUpward {},
    #[error("you may challenge at most {reach} places above you")]
    LadderReach { reach: i64 },
    #[error("{name} is in {allowed} open challenges of this ladder already")]
    LadderBusy { name: String, allowed: i64 },

    // ---- Tournaments ----
    #[error("a {} time control does not fit the category", pace.name())]
    PaceMismatch { pace: Pace },
    #[error("players: at least {min}, at most {max}, the least no more than the most")]
    PlayerCount { min: u32, max: u32 },
    #[error("a round-robin's rounds follow from its players: leave rounds out")]
    RoundRobinRounds {},
    #[error("a Swiss has 1 round or more, and fewer rounds than its least number of players")]
    SwissRounds {},
    #[error("the start is in the future, at most {days} days ahead")]
    TournamentStart { days: u32 },
    #[error("no tournament {id:?}")]
    NoTournament { id: String },
    #[error("the tournament is no longer taking entries")]
    EntriesClosed {},
    #[error("the tournament is full")]
    TournamentFull {},
    #[error("you are signed up already")]
    SignedUp {},
    #[error("you are not in this tournament")]
    NotEntered {},
    #[error("the tournament has just started; withdraw again")]
    TournamentStarting {},
    #[error("you have withdrawn already")]
    Withdrawn {},
    #[error("the tournament moved on meanwhile; try again")]
    TournamentMovedOn {},
    #[error("the tournament is over")]
    TournamentOver {},

    // ---- Studies ----
    #[error("no study {id:?}")]
    NoStudy { id: String },
    #[error("no chapter {id:?} in this study")]
    NoChapter { id: String },
    #[error("no node {id} in this chapter")]
    NoNode { id: u32 },
    /// The study is at `version` now, not at the version the edit was made on.
    #[error("the study changed meanwhile (it is at version {version} now); look again and redo the change")]
    StudyStale { version: i64 },
    #[error("you may view this study but not edit it")]
    StudyReadOnly {},
    #[error("only the study's owner does this")]
    StudyOwnerOnly {},
    #[error("you own {allowed} studies already: delete one to start another")]
    StudiesOwned { allowed: u32 },
    #[error("a study holds at most {allowed} chapters")]
    StudyChapters { allowed: u32 },
    #[error("a chapter holds at most {allowed} positions")]
    StudyNodes { allowed: u32 },
    #[error("a study has at most {allowed} members")]
    StudyMembers { allowed: u32 },
    #[error("a position holds at most {allowed} arrows and marks")]
    StudyShapes { allowed: u32 },
    #[error("a study keeps at least one chapter")]
    LastChapter {},
    #[error("the game record cannot be read: {detail}")]
    BadPgn { detail: String },
    /// XQF was asked for where it cannot hold the export: a file of several
    /// games, or a game on the hex board.
    #[error("an XQF file holds one game of the standard board: choose a PGN format for this download")]
    XqfOneGame {},
    /// A record passes one of the record limits.
    #[error("a game record is over the limit of {allowed} {}", limit.name().replace('_', " "))]
    RecordLimit { limit: RecordLimit, allowed: u64 },

    // ---- The server itself ----
    #[error("the server is stopping; connect again in a moment")]
    Stopping {},
    #[error("the database does not answer; nothing was changed, try again in a moment")]
    DatabaseAway {},
    /// A fault of the server's, logged there; nothing was changed.
    #[error("the server failed; nothing was changed")]
    Internal {},
}

impl Refusal {
    /// A record the reader refused: over a limit, or unreadable.
    pub fn from_pgn(e: PgnError) -> Refusal {
        match e {
            PgnError::OverLimit { limit, allowed, .. } => {
                Refusal::RecordLimit { limit: limit.into(), allowed: allowed as u64 }
            }
            other => Refusal::BadPgn { detail: other.to_string() },
        }
    }

    /// The kind of refusal, which the HTTP edge maps to a status.
    pub fn code(&self) -> ErrorCode {
        use Refusal::*;
        match self {
            Malformed { .. }
            | NulCharacter {}
            | NoRecords { .. }
            | NameShape { .. }
            | PasswordLength { .. }
            | TextLength { .. } => ErrorCode::BadRequest,
            Languages { .. } | PieceSize { .. } | Yourself {} | NoInvitation { .. } | NoCategory { .. } => {
                ErrorCode::BadRequest
            }
            RulesMismatch { .. } | CorrespondenceHours { .. } | LiveClock { .. } => ErrorCode::BadRequest,
            ComputerTakesNoChallenges {} | ComputerLevel { .. } | LineLength { .. } | BadPosition { .. } => {
                ErrorCode::BadRequest
            }
            Depth { .. }
            | ThinkingTime { .. }
            | AnalysisLines { .. }
            | NotOnLadder { .. }
            | LadderUpward {}
            | LadderReach { .. } => ErrorCode::BadRequest,
            PaceMismatch { .. } | PlayerCount { .. } | RoundRobinRounds {} | SwissRounds {} => {
                ErrorCode::BadRequest
            }
            TournamentStart { .. } | BadPgn { .. } | XqfOneGame {} => ErrorCode::BadRequest,
            NoStudy { .. } | NoChapter { .. } | NoNode { .. } => ErrorCode::NotFound,
            StudyReadOnly {} | StudyOwnerOnly {} => ErrorCode::Forbidden,
            StudyStale { .. } | StudiesOwned { .. } | StudyChapters { .. } | StudyNodes { .. } => {
                ErrorCode::Conflict
            }
            StudyMembers { .. } | StudyShapes { .. } | LastChapter {} => ErrorCode::Conflict,
            BodyTooLarge { .. } | ImportTooLarge { .. } | RecordLimit { .. } => ErrorCode::PayloadTooLarge,
            ImportsFull { .. } => ErrorCode::Conflict,
            LogInFirst {} | SessionEnded {} | WrongCredentials {} | OldPasswordWrong {} => {
                ErrorCode::Unauthorized
            }
            CrossSite {}
            | ForeignOrigin {}
            | CannotChallenge {}
            | Ignored { .. }
            | PlayersChatOnly {}
            | AdministratorsOnly {}
            | OwnChallenge {} => ErrorCode::Forbidden,
            NotYourChallenge {} | NotPlaying {} | NotYourTurn {} => ErrorCode::Forbidden,
            PremoveOnYourTurn {}
            | PremoveLiveOnly {}
            | ConditionalsCorrespondenceOnly {}
            | ConditionalsOnYourTurn {} => ErrorCode::Conflict,
            BadPremove { .. }
            | ConditionalEndsWithTheirs { .. }
            | ConditionalIllegal { .. }
            | ConditionalTwoAnswers { .. } => ErrorCode::BadRequest,
            NoEndpoint {} | NoUser { .. } | NotOnList { .. } | NoMessage { .. } | NoNews { .. } => {
                ErrorCode::NotFound
            }
            NoChallenge { .. } | NoGame { .. } | NoTournament { .. } => ErrorCode::NotFound,
            NoPuzzle { .. } | NoPuzzleLeft {} | NoStreak { .. } => ErrorCode::NotFound,
            PuzzleLine { .. } => ErrorCode::BadRequest,
            StreakOver {} | PuzzleInStreak {} => ErrorCode::Conflict,
            TooOften { .. } | LogInWait { .. } | ComputerGames { .. } | Busy { .. } | ExportsBusy { .. } => {
                ErrorCode::TooManyRequests
            }
            OpenChallenges { .. } | Invitations { .. } | ListFull { .. } | NameTaken { .. } | ChatBusy {} => {
                ErrorCode::Conflict
            }
            DuplicateChallenge {} | ChallengeClosed {} | GameOver {} | GameNotOver {} | GameAborted {} => {
                ErrorCode::Conflict
            }
            NotStarted {} | MovedAlready {} | GameChanged {} | TimeRanOut {} | TournamentAbort {} => {
                ErrorCode::Conflict
            }
            BothMoved {} | DrawOffered {} | NoDrawOffer {} | OpponentHasTime {} | OnLadder {} => {
                ErrorCode::Conflict
            }
            JoinLadderFirst {} | LadderBusy { .. } | EntriesClosed {} | TournamentFull {} | SignedUp {} => {
                ErrorCode::Conflict
            }
            NotEntered {}
            | TournamentStarting {}
            | Withdrawn {}
            | TournamentMovedOn {}
            | TournamentOver {} => ErrorCode::Conflict,
            IllegalMove { .. } => ErrorCode::IllegalMove,
            Stopping {} | DatabaseAway {} => ErrorCode::Unavailable,
            Internal {} => ErrorCode::Internal,
        }
    }

    /// Seconds until the same request may succeed, where that is known.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            Refusal::TooOften { seconds, .. }
            | Refusal::LogInWait { seconds }
            | Refusal::Busy { seconds }
            | Refusal::ExportsBusy { seconds } => Some((*seconds).max(1)),
            Refusal::DatabaseAway {} => Some(DATABASE_RETRY_S),
            _ => None,
        }
    }

    /// The refusal of a move `text` that the board or the rules do not allow.
    pub fn illegal(text: &str, why: impl Into<Illegality>) -> Self {
        Refusal::IllegalMove { text: text.to_string(), why: why.into(), number: None }
    }
}

/// How long a client is asked to wait while the database does not answer.
const DATABASE_RETRY_S: u64 = 5;

impl Act {
    fn words(self) -> &'static str {
        match self {
            Act::Signups => "new accounts from your network address",
            Act::FailedLogins => "failed log-ins from your network address",
            Act::Challenges => "new challenges",
            Act::Messages => "messages",
            Act::ChatLines => "chat lines",
            Act::Tournaments => "new tournaments",
            Act::Analyses => "analyses",
            Act::Reviews => "reviews",
            Act::StudyEdits => "study edits",
            Act::Streaks => "puzzle streaks",
            Act::PuzzleMoves => "puzzle moves without logging in from your network address",
        }
    }

    fn note(self) -> &'static str {
        match self {
            Act::Analyses | Act::Reviews => ": engine time is shared by everyone here",
            _ => "",
        }
    }
}

/// A refused move in words: with its number where it was one of a line.
fn illegal_words(text: &str, why: Illegality, number: Option<u32>) -> String {
    match number {
        Some(n) => format!("move {n} ({text}): {}", why.words()),
        None => format!("{text} is illegal: {}", why.words()),
    }
}

impl Window {
    fn words(self) -> &'static str {
        match self {
            Window::Minute => "a minute",
            Window::QuarterHour => "in a quarter of an hour",
            Window::Hour => "an hour",
            Window::Day => "a day",
        }
    }
}

impl Window {
    /// How long the window is, in milliseconds.
    pub fn ms(self) -> i64 {
        const MINUTE_MS: i64 = 60 * 1000;
        match self {
            Window::Minute => MINUTE_MS,
            Window::QuarterHour => 15 * MINUTE_MS,
            Window::Hour => 60 * MINUTE_MS,
            Window::Day => 24 * 60 * MINUTE_MS,
        }
    }
}

impl TextField {
    fn words(self) -> &'static str {
        match self {
            TextField::Title => "title",
            TextField::News => "news",
            TextField::Bio => "bio",
            TextField::Location => "location",
            TextField::Message => "message",
            TextField::ChatLine => "chat line",
            TextField::TournamentName => "tournament's name",
            TextField::Search => "name to search for",
            TextField::StudyTitle => "study's title",
            TextField::ChapterTitle => "chapter's title",
            TextField::Comment => "comment",
        }
    }
}

impl std::fmt::Display for Illegality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}

impl Illegality {
    fn words(self) -> &'static str {
        match self {
            Illegality::Unreadable => "not a move in any notation the board reads",
            Illegality::Ambiguous => "it could mean more than one move",
            Illegality::OffBoard => "a cell is off the board",
            Illegality::NoPiece => "there is no piece on the starting point",
            Illegality::NotYourPiece => "that piece belongs to the other side",
            Illegality::OwnPiece => "the target holds one of your own pieces",
            Illegality::NotAMove => "the piece cannot move that way",
            Illegality::GeneralsFace => "it would leave the two generals facing each other",
            Illegality::LeavesGeneralInCheck => "it would leave your general in check",
            Illegality::Forbidden => "the rule set forbids it (a perpetual check or chase)",
            Illegality::NoSuchMove => "no piece of the side to move can make that move",
            Illegality::Over => "the game is already over",
        }
    }
}

/// What the domain's services answer when they do not do what was asked: a
/// refusal (the request was wrong or not allowed now), the store failing, or a
/// fault of the server's own (which is logged, and refused as [`Refusal::Internal`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("database: {0}")]
    Store(#[from] sqlx::Error),
    #[error("{0}")]
    Broken(String),
}

/// The result of a service.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A fault of the server's own: an invariant it keeps was found broken.
    pub fn broken(what: impl Into<String>) -> Self {
        Error::Broken(what.into())
    }

    /// The kind of refusal this is answered with.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Refused(r) => r.code(),
            Error::Store(e) if crate::store::unreachable(e) => ErrorCode::Unavailable,
            Error::Store(_) | Error::Broken(_) => ErrorCode::Internal,
        }
    }

    /// The refusal the requester is told of; faults are logged here, once.
    pub fn refusal(self) -> Refusal {
        match self {
            Error::Refused(r) => r,
            Error::Store(e) if crate::store::unreachable(&e) => {
                tracing::warn!("database: {e}");
                Refusal::DatabaseAway {}
            }
            Error::Store(e) => {
                tracing::error!("database: {e}");
                Refusal::Internal {}
            }
            Error::Broken(what) => {
                tracing::error!("{what}");
                Refusal::Internal {}
            }
        }
    }
}

// The checks of the vocabulary types live with the refusals they give, so that
// those types (which the store uses too) depend on nothing of the domain's.

/// A time control the site runs, or why not.
impl ClockSpec {
    pub fn check(self) -> Result<Self, Refusal> {
        const LIVE_BASE_S: std::ops::RangeInclusive<i64> = 10..=3 * 3600;
        const MAX_INCREMENT_S: i64 = 600;
        match self {
            ClockSpec::Correspondence { hours } if (1..=MAX_HOURS).contains(&hours) => Ok(self),
            ClockSpec::Correspondence { .. } => {
                Err(Refusal::CorrespondenceHours { min: 1, max: MAX_HOURS as u32 })
            }
            ClockSpec::Live { base, increment }
                if (LIVE_BASE_S.start() * 1000..=LIVE_BASE_S.end() * 1000).contains(&base)
                    && (0..=MAX_INCREMENT_S * 1000).contains(&increment) =>
            {
                Ok(self)
            }
            ClockSpec::Live { .. } => Err(Refusal::LiveClock {
                min_s: *LIVE_BASE_S.start() as u32,
                max_s: *LIVE_BASE_S.end() as u32,
                max_increment_s: MAX_INCREMENT_S as u32,
            }),
        }
    }

    pub fn pace(self) -> Pace {
        match self {
            ClockSpec::Correspondence { .. } => Pace::Correspondence,
            ClockSpec::Live { .. } => Pace::Live,
        }
    }
}

/// Preferences within their bounds, or why not.
impl Preferences {
    pub fn check(self) -> Result<Self, Refusal> {
        if !(80..=120).contains(&self.piece_size) {
            return Err(Refusal::PieceSize { min: 80, max: 120 });
        }
        Ok(self)
    }
}
