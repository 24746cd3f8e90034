// Every call the first screen and the game status make to the server.

import * as api from "../../api.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../models.js").GameLists} GameLists */
/** @typedef {import("../../models.js").PlayingPage} PlayingPage */
/** @typedef {import("../../models.js").Challenge} Challenge */
/** @typedef {import("../../models.js").ChallengeLists} ChallengeLists */
/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */

/** @returns {Promise<PuzzleView>} */
export const dailyPuzzle = () => api.call("GET", "/puzzles/daily");

/** The games being played now, open to watch. @returns {Promise<{ games: Game[] }>} */
export const liveGames = () => api.call("GET", "/games/live?limit=10");

/** My games: the first page of each list. @returns {Promise<GameLists>} */
export const myGames = () => api.call("GET", "/games");

/** More of the games I am playing. @param {string} after @returns {Promise<PlayingPage>} */
export const morePlaying = (after) => api.call("GET", `/games/playing?after=${encodeURIComponent(after)}`);

/** More of my finished games. @param {string} after @returns {Promise<GameLists>} */
export const moreFinished = (after) => api.call("GET", `/games?after=${encodeURIComponent(after)}`);

/**
 * Challenges to me and mine, the first pages (of the waiting room, which the
 * same answer carries, one challenge only: Game status does not show it).
 * @returns {Promise<ChallengeLists>}
 */
export const myChallenges = () => api.call("GET", "/challenges?limit=1");

/** More challenges made to me. @param {string} after @returns {Promise<{ challenges: Challenge[], next?: string | null }>} */
export const moreIncoming = (after) => api.call("GET", `/challenges/incoming?after=${encodeURIComponent(after)}`);
