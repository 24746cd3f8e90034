// The JSON the server's API (/api/v1) and WebSocket send, as JSDoc types.
// Types only: this module exports nothing at run time.

/** @typedef {"red" | "black"} Color */

/**
 * @typedef {object} User
 * @property {string} name
 * @property {string} bio
 * @property {number} joined  milliseconds since the epoch
 * @property {number} rating
 * @property {boolean} [admin]  may post and delete site news
 * @property {{ wins: number, losses: number, draws: number }} [record]
 */

/**
 * @typedef {{ kind: "live", base: number, increment: number } | { kind: "correspondence", days: number }} ClockSpec
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
 */

/**
 * @typedef {object} GameLists
 * @property {Game[]} my_turn
 * @property {Game[]} their_turn
 * @property {Game[]} finished
 */

/**
 * @typedef {object} ChallengeLists
 * @property {Challenge[]} open
 * @property {Challenge[]} incoming
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
 * @property {string} kind  challenge, accepted, declined, your_move, draw_declined, rematch
 * @property {string | null} [from]
 * @property {string | null} [game]
 * @property {string} text
 */

/**
 * What the WebSocket pushes.
 * @typedef {{ type: "game", game: Game } | Notice | { type: "lobby" }} LiveMessage
 */

export {};
