// The JSON the server's API (/api/v1) and WebSocket send, as JSDoc types.
// Types only: this module exports nothing at run time.

/** @typedef {"red" | "black"} Color */

/**
 * What a rating measures: one board at one pace.
 * @typedef {"standard_correspondence" | "standard_live" | "hex_correspondence" | "hex_live"} Category
 */

/**
 * A Glicko-2 rating in one category (`RatingView`).
 * @typedef {object} RatingView
 * @property {Category} category
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {boolean} provisional  the deviation is above 110
 */

/** @typedef {{ at: number, rating: number, deviation: number, game: string }} HistoryPoint */
/** @typedef {{ category: Category, points: HistoryPoint[] }} HistoryAnswer */
/** @typedef {{ name: string, rating: number, deviation: number, games: number }} Leader */
/** @typedef {{ category: Category, leaders: Leader[], next?: string | null }} LeadersPage */
/** @typedef {{ shown: Category, rated_by_default: boolean }} RatingSettings */

/**
 * @typedef {object} User
 * @property {string} name
 * @property {string} bio
 * @property {number} joined  milliseconds since the epoch
 * @property {number} rating  in the category the user shows
 * @property {Category} [shown_category]
 * @property {boolean} [admin]  may post and delete site news
 * @property {{ wins: number, losses: number, draws: number }} [record]
 */

/**
 * @typedef {{ kind: "live", base: number, increment: number } | { kind: "correspondence", hours: number }} ClockSpec
 */

/**
 * @typedef {object} Challenge
 * @property {string} id
 * @property {string} creator
 * @property {string | null} opponent
 * @property {string} rules
 * @property {string} color
 * @property {ClockSpec} clock
 * @property {boolean} auto
 * @property {boolean} rated  whether its game will change ratings
 * @property {string | null} [game]        the game it started, once accepted
 * @property {string | null} [rematch_of]  the game it offers a rematch of
 */

/**
 * @typedef {object} Outcome
 * @property {Color | null} winner
 * @property {string} reason  a stable name such as "checkmate"
 * @property {string} text    the server's English sentence
 */

/**
 * @typedef {object} Clocks
 * @property {number} red      milliseconds left at `since`
 * @property {number} black
 * @property {Color | null} running
 * @property {number} since
 */

/**
 * @typedef {object} PlayedMove
 * @property {string} iccs
 * @property {string} wxf
 * @property {string} [chinese]  the move in Chinese, when the server writes it
 * @property {number} at
 */

/**
 * @typedef {object} Game
 * @property {string} id
 * @property {number} version
 * @property {string} red
 * @property {string} black
 * @property {string} rules
 * @property {"standard" | "hex"} [variant]
 * @property {string} [start_fen]
 * @property {boolean} rated  whether the result changes the players' ratings
 * @property {ClockSpec} clock
 * @property {string} fen
 * @property {Color} turn
 * @property {number} ply
 * @property {boolean} check
 * @property {Clocks | null} clocks
 * @property {number | null} deadline
 * @property {Color | null} draw_offer
 * @property {string} status
 * @property {Outcome | null} outcome
 * @property {string | null} last_move
 * @property {string[]} [legal]
 * @property {PlayedMove[]} [moves]
 * @property {{ id: string, round: number } | null} [tournament]  the tournament round it is played in
 */

/**
 * @typedef {object} GameLists
 * @property {Game[]} my_turn
 * @property {Game[]} their_turn
 * @property {string | null} [playing_next]
 * @property {Game[]} finished
 * @property {string | null} [next]
 */

/**
 * @typedef {object} PlayingPage
 * @property {Game[]} my_turn
 * @property {Game[]} their_turn
 * @property {string | null} [next]
 */

/**
 * @typedef {object} ChallengeLists
 * @property {Challenge[]} open
 * @property {string | null} [next]
 * @property {Challenge[]} incoming
 * @property {string | null} [incoming_next]
 * @property {Challenge[]} outgoing
 */

/**
 * @typedef {object} People
 * @property {User[]} users
 * @property {string[]} online
 */

/**
 * A notice to the logged-in user: `kind` says what it is about (the UI words it
 * in the user's language), `text` is the server's English for kinds it does not know.
 * @typedef {object} Notice
 * @property {"notice"} type
 * @property {string} kind  challenge, accepted, declined, your_move, draw_declined, rematch, message, tournament_game
 * @property {string | null} [from]
 * @property {string | null} [game]
 * @property {string} text
 */

/**
 * What the WebSocket pushes.
 * @typedef {{ type: "game", game: Game } | Notice | { type: "lobby" } | { type: "tournament", id: string }} LiveMessage
 */

// People: messages, game chat, lists, who is here, profiles, invitations.

/**
 * A player as everyone may see them, in full (`UserView`).
 * @typedef {User & { location: string, languages: string[], seen: number,
 *   preferred_rules?: string | null, preferred_clock?: ClockSpec | null }} UserView
 */

/**
 * A private message; `body` is the text as typed.
 * @typedef {object} Message
 * @property {string} id
 * @property {string} from
 * @property {string} to
 * @property {string} body
 * @property {number} sent
 * @property {number | null} [read]
 */

/** @typedef {{ messages: Message[], next?: string | null }} MessagesPage */
/** @typedef {{ with: string, last: Message, unread: number }} Conversation */
/** @typedef {{ conversations: Conversation[], next?: string | null }} ConversationsPage */
/** @typedef {{ my_turn: number, unread_messages: number }} Counts */
/** @typedef {{ seq: number, author: string, body: string, at: number }} ChatLine */

/**
 * Someone on a list or on the site, with the games they are playing now.
 * @typedef {object} Person
 * @property {string} name
 * @property {number} rating
 * @property {boolean} online
 * @property {boolean} buddy
 * @property {number} seen
 * @property {Game[]} games
 */

/**
 * A profile page's answer.
 * @typedef {object} Profile
 * @property {UserView} user
 * @property {boolean} online
 * @property {number} buddies
 * @property {{ rules: string, wins: number, losses: number, draws: number }[]} records
 * @property {Game[]} recent
 * @property {RatingView[]} ratings  one per category with rated games
 * @property {"buddy" | "ignore" | null} [relation]
 */

/** @typedef {{ rules: string, color: string, clock: ClockSpec }} InvitedGame */
/** @typedef {{ code: string, created: number, link: string, uses: number, challenge?: InvitedGame | null }} Invitation */
/** @typedef {{ inviter: string, challenge?: InvitedGame | null }} InvitationPreview */

/**
 * Every message the WebSocket pushes, chat lines included.
 * @typedef {LiveMessage | Notice | { type: "chat", game: string, line: ChatLine } | { type: "lobby" }
 *   | ComputerEvent} LiveEvent
 */

/**
 * The computer's progress on its move: searching, or waiting for a free engine.
 * @typedef {{ type: "computer", game: string, state: "thinking" | "queued", ahead: number }} ComputerEvent
 */

/**
 * One of the computer's levels, with its measured strength.
 * @typedef {{ level: number, player: string, elo: number }} ComputerLevel
 */

// Analysis: positions along a line, the engine's stream, game reviews.

/** @typedef {{ iccs: string, wxf: string, chinese: string }} MoveNames */

/**
 * An evaluation from one side's view: centipawns, a mate in moves (negative:
 * suffered), or a game over.
 * @typedef {{ kind: "cp", value: number } | { kind: "mate", value: number } | { kind: "won" | "lost" | "drawn" }} Score
 */

/**
 * One position along a line (`LinePosition`).
 * @typedef {object} LinePosition
 * @property {MoveNames | null} played  the move that led here
 * @property {string} fen
 * @property {Color} turn
 * @property {boolean} check
 * @property {string[]} legal
 * @property {Outcome | null} outcome
 */

/** @typedef {{ variant: "standard" | "hex", rules: string, positions: LinePosition[] }} LineAnswer */

/**
 * What the engine found at one depth.
 * @typedef {object} AnalysisInfo
 * @property {"info"} type
 * @property {number} depth
 * @property {number} seldepth
 * @property {Score} score  the side to move's view
 * @property {Score} red    Red's view
 * @property {number} nodes
 * @property {number} nps
 * @property {number} time
 * @property {MoveNames[]} pv
 */

/**
 * An event of the analysis stream.
 * @typedef {{ type: "queued", waiting: number } | AnalysisInfo
 *   | { type: "done", reason: "limit" | "replaced" | "over", best: MoveNames | null, depth: number, nodes: number }
 *   | { type: "error", message: string }} AnalysisEvent
 */

/** @typedef {"good" | "inaccuracy" | "mistake" | "blunder"} MoveClass */

/**
 * @typedef {object} ReviewedPosition
 * @property {number} ply
 * @property {Score} score
 * @property {Score} red
 * @property {number} red_cp  Red's view clamped to ±1000
 * @property {MoveNames | null} best
 * @property {number} depth
 */

/**
 * @typedef {object} ReviewedMove
 * @property {number} ply  from 1
 * @property {Color} color
 * @property {MoveNames} played
 * @property {MoveClass} class
 * @property {number} loss
 * @property {MoveNames | null} best
 */

/** @typedef {{ good: number, inaccuracy: number, mistake: number, blunder: number }} ClassCounts */

/**
 * A game's review (`ReviewView`).
 * @typedef {object} Review
 * @property {string} game
 * @property {"pending" | "done"} status
 * @property {string} requested_by
 * @property {number} done
 * @property {number} total
 * @property {number} nodes
 * @property {ReviewedPosition[]} positions
 * @property {ReviewedMove[]} moves
 * @property {ClassCounts} red
 * @property {ClassCounts} black
 * @property {{ inaccuracy: number, mistake: number, blunder: number }} thresholds
 */

export {};
