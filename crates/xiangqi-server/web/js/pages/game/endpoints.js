// Every call the game page makes to the server: the game, its moves and
// actions, the rematch and the PGN to download.

import * as api from "../../api.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../models.js").Challenge} Challenge */
/** @typedef {import("../../models.js").ChallengeLists} ChallengeLists */

/** @param {string} id */
export const readGame = (id) => api.game("GET", api.gamePath(id));

/**
 * An action on the game under its path (`moves`, `resign`, `draw`...), the
 * game as it stands after it.
 * @param {string} id
 * @param {string} what
 * @param {unknown} [body]
 */
export const gameAction = (id, what, body) => api.game("POST", `${api.gamePath(id)}/${what}`, body);

/**
 * My premove in a live game: queued (`move`), read, or taken back (null);
 * answers the premove kept.
 * @param {string} id
 * @param {"GET" | "PUT" | "DELETE"} method
 * @param {{ ply: number, move: string }} [body]
 * @returns {Promise<{ premove?: string | null }>}
 */
export const premove = (id, method, body) => api.call(method, `${api.gamePath(id)}/premove`, body);

/** My challenges, made and received: where a rematch offer is. @returns {Promise<ChallengeLists>} */
export const challenges = () => api.call("GET", "/challenges");

/** A challenge made to me, accepted: its game. @param {string} id */
export const accept = (id) => api.game("POST", `${api.challengePath(id)}/accept`);

/** A rematch: its game at once, or the challenge it made. @param {string} id @returns {Promise<{ game?: Game, challenge?: Challenge }>} */
export const rematch = (id) => api.call("POST", `${api.gamePath(id)}/rematch`);

/** The address of a game's PGN. @param {string} id */
export const pgnUrl = (id) => api.apiUrl(`${api.gamePath(id)}/pgn`);
