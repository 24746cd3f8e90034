// The JSON the server's API (/api/v1) and WebSocket send, under the names the UI
// uses. The types themselves are generated from the server's OpenAPI document
// (api-types.d.ts), so the type check compares every page with what the server
// really sends; this module only names them, and picks out parts of them.
// Types only: this module exports nothing at run time.

/** @typedef {import("./api-types.js").GameView} Game */
/** A game without its moves, as lists carry it. @typedef {import("./api-types.js").GameSummary} GameSummary */
/** @typedef {Game["turn"]} Color */
/** @typedef {import("./api-types.js").Category} Category */
/** @typedef {import("./api-types.js").RatingView} RatingView */
/** @typedef {import("./api-types.js").HistoryPointView} HistoryPoint */
/** @typedef {import("./api-types.js").HistoryAnswer} HistoryAnswer */
/** @typedef {import("./api-types.js").LeaderView} Leader */
/** @typedef {import("./api-types.js").LeadersPage} LeadersPage */
/** @typedef {import("./api-types.js").RatingSettings} RatingSettings */
/** @typedef {import("./api-types.js").UserView} User */
/** @typedef {import("./api-types.js").UserView} UserView */
/** @typedef {import("./api-types.js").ClockSpec} ClockSpec */
/** @typedef {import("./api-types.js").ChallengeView} Challenge */
/** @typedef {import("./api-types.js").OutcomeView} Outcome */
/** @typedef {import("./api-types.js").ClocksView} Clocks */
/** @typedef {import("./api-types.js").MoveView} PlayedMove */
/** @typedef {import("./api-types.js").MyGames} GameLists */
/** @typedef {import("./api-types.js").PlayingPage} PlayingPage */
/** @typedef {import("./api-types.js").LobbyView} ChallengeLists */
/** @typedef {import("./api-types.js").MessageView} Message */
/** @typedef {import("./api-types.js").MessagesPage} MessagesPage */
/** @typedef {import("./api-types.js").ConversationView} Conversation */
/** @typedef {import("./api-types.js").ConversationsPage} ConversationsPage */
/** @typedef {import("./api-types.js").Counts} Counts */
/** @typedef {import("./api-types.js").ChatLine} ChatLine */
/** @typedef {import("./api-types.js").PersonView} Person */
/** @typedef {import("./api-types.js").ProfileAnswer} Profile */
/** @typedef {import("./api-types.js").InvitedGameView} InvitedGame */
/** @typedef {import("./api-types.js").InvitationView} Invitation */
/** @typedef {import("./api-types.js").InvitationPreview} InvitationPreview */
/** @typedef {import("./api-types.js").ComputerLevel} ComputerLevel */
/**
 * A user's preferences, every one of them (the server fills in a default for
 * each; `language` null: the browser's).
 * @typedef {Required<import("./api-types.js").Preferences>} Prefs
 */
/** @typedef {import("./api-types.js").NewsItem} NewsItem */

// Ladders and tournaments.

/** @typedef {import("./api-types.js").RungView} Rung */
/** @typedef {import("./api-types.js").LadderChallengeView} LadderChallenge */
/** @typedef {import("./api-types.js").LadderResultView} LadderResult */
/** @typedef {import("./api-types.js").LadderView} Ladder */
/** A tournament as lists show it. @typedef {import("./api-types.js").TournamentSummary} TournamentSummary */
/** A tournament in full. @typedef {import("./api-types.js").TournamentView} Tournament */
/** @typedef {import("./api-types.js").EntrantView} Entrant */
/** @typedef {import("./api-types.js").PairingResult} PairingResult */
/** @typedef {import("./api-types.js").PairingView} Pairing */
/** @typedef {import("./api-types.js").RoundView} Round */
/** @typedef {import("./api-types.js").PlayerResult} PlayerResult */
/** A player's game in one round, a cell of the crosstable. @typedef {import("./api-types.js").CrossCell} CrossCell */
/** @typedef {import("./api-types.js").StandingView} Standing */

// What the WebSocket pushes.

/** Every message the WebSocket pushes. @typedef {import("./api-types.js").Event} LiveEvent */
/** What the page sends the WebSocket: a game to start or stop watching. @typedef {import("./api-types.js").ClientMessage} ClientMessage */
/** The type of a socket message. @typedef {LiveEvent["type"]} LiveEventType */
/**
 * The socket message of one type.
 * @template {LiveEventType} K
 * @typedef {Extract<LiveEvent, { type: K }>} LiveEventOf
 */
/**
 * A notice to the logged-in user: `kind` says what it is about (the UI words it
 * in the user's language), `text` is the server's English for kinds it does not know.
 * @typedef {LiveEventOf<"notice">} Notice
 */
/** The computer's progress on its move: searching, or waiting for a free engine. @typedef {LiveEventOf<"computer">} ComputerEvent */

// Analysis: positions along a line, the engine's stream, game reviews.

/** @typedef {import("./api-types.js").MoveNamesView} MoveNames */
/** @typedef {import("./api-types.js").ScoreView} Score */
/** @typedef {import("./api-types.js").LinePosition} LinePosition */
/** @typedef {import("./api-types.js").LineAnswer} LineAnswer */
/** @typedef {import("./api-types.js").AnalysisInfo} AnalysisInfo */
/** @typedef {import("./api-types.js").AnalysisEvent} AnalysisEvent */
/** @typedef {import("./api-types.js").MoveClass} MoveClass */
/** @typedef {import("./api-types.js").ReviewedPosition} ReviewedPosition */
/** @typedef {import("./api-types.js").ReviewedMove} ReviewedMove */
/** @typedef {import("./api-types.js").ClassCounts} ClassCounts */
/** @typedef {import("./api-types.js").ReviewView} Review */

export {};
