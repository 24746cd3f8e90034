// Every call the pages that start games make to the server: challenges (made
// and listed; the answers to one are in components/challenges.js), the
// automatch and games against the computer.

import * as api from "../../api.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../models.js").Challenge} Challenge */
/** @typedef {import("../../models.js").ChallengeLists} ChallengeLists */
/** @typedef {import("../../models.js").RatingSettings} RatingSettings */
/** @typedef {import("../../models.js").ComputerLevel} ComputerLevel */

/** @returns {Promise<RatingSettings>} */
export const ratingSettings = () => api.call("GET", "/me/rating-settings");

/** A challenge to one player, or open to all. @param {Record<string, unknown>} terms @returns {Promise<unknown>} */
export const challenge = (terms) => api.call("POST", "/challenges", terms);

/** @param {Record<string, unknown>} terms @returns {Promise<{ game?: Game }>} */
export const automatch = (terms) => api.call("POST", "/automatch", terms);

/** @returns {Promise<{ levels: ComputerLevel[] }>} */
export const computerLevels = () => api.call("GET", "/computer/levels");

/** @param {Record<string, unknown>} terms @returns {Promise<{ game: Game }>} */
export const computerGame = (terms) => api.call("POST", "/computer-games", terms);

/** Challenges open to all, made to me and made by me: the first pages. @returns {Promise<ChallengeLists>} */
export const challenges = () => api.call("GET", "/challenges");

/** More challenges open to all. @param {string} after @returns {Promise<ChallengeLists>} */
export const moreOpen = (after) => api.call("GET", `/challenges?after=${encodeURIComponent(after)}`);

/** More challenges made to me. @param {string} after @returns {Promise<{ challenges: Challenge[], next?: string | null }>} */
export const moreIncoming = (after) => api.call("GET", `/challenges/incoming?after=${encodeURIComponent(after)}`);
