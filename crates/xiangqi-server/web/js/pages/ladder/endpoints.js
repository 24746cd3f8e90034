// Every call the ladder pages make to the server.

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").LadderView} LadderView */
/** @typedef {import("../../api-types.js").LadderChallengePage} LadderChallengePage */
/** @typedef {import("../../api-types.js").JoinedLadder} JoinedLadder */
/** @typedef {import("../../api-types.js").NewLadderChallenge} NewLadderChallenge */

/** @param {string} category */
const ladderPath = (category) => `/ladders/${encodeURIComponent(category)}`;

/**
 * A page of a ladder's places (with its challenges and results).
 * @param {string} category
 * @param {number} limit
 * @param {string | null} after
 * @returns {Promise<LadderView>}
 */
export const readLadder = (category, limit, after) =>
  api.call("GET", after === null ? `${ladderPath(category)}?limit=${limit}` : `${ladderPath(category)}?limit=${limit}&after=${encodeURIComponent(after)}`);

/** @param {string} category @param {string} after @returns {Promise<LadderChallengePage>} */
export const challengesPage = (category, after) => api.call("GET", `${ladderPath(category)}/challenges?after=${encodeURIComponent(after)}`);

/** @param {string} category @param {string} opponent @returns {Promise<unknown>} */
export const challenge = (category, opponent) =>
  api.call("POST", `${ladderPath(category)}/challenges`, /** @type {NewLadderChallenge} */ ({ opponent }));

/** @param {string} category @returns {Promise<JoinedLadder>} */
export const join = (category) => api.call("POST", `${ladderPath(category)}/join`);

/** A ladder challenge made to me, accepted: its game. @param {string} id */
export const accept = (id) => api.game("POST", `${api.challengePath(id)}/accept`);
