// Every call the tournament pages make to the server.

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").TournamentsPage} TournamentsPage */
/** @typedef {import("../../api-types.js").TournamentAnswer} TournamentAnswer */
/** @typedef {import("../../api-types.js").NewTournament} NewTournament */

/** @param {string} id */
const tournamentPath = (id) => `/tournaments/${encodeURIComponent(id)}`;

/**
 * A page of the tournaments taking entries (`upcoming`), running or over.
 * @param {string} shelf
 * @param {string | null} after
 * @returns {Promise<TournamentsPage>}
 */
export const shelfPage = (shelf, after) =>
  api.call("GET", after === null ? `/tournaments?status=${shelf}&limit=20` : `/tournaments?status=${shelf}&limit=20&after=${encodeURIComponent(after)}`);

/** @param {NewTournament} body @returns {Promise<TournamentAnswer>} */
export const createTournament = (body) => api.call("POST", "/tournaments", body);

/** @param {string} id */
export const readTournament = async (id) => (/** @type {TournamentAnswer} */ (await api.call("GET", tournamentPath(id)))).tournament;

/** @param {string} id @returns {Promise<unknown>} */
export const join = (id) => api.call("POST", `${tournamentPath(id)}/join`);

/** @param {string} id @returns {Promise<unknown>} */
export const withdraw = (id) => api.call("POST", `${tournamentPath(id)}/withdraw`);
