// Every call the analysis board makes to the server, besides the lines of
// positions every board reads (`api.line`): the game, imported or Masters game
// it opens on, their records to download, my conditional moves in my own
// game, and the explorer.

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").ImportedGameAnswer} ImportedGameAnswer */
/** @typedef {import("../../api-types.js").ExplorerAnswer} ExplorerAnswer */
/** @typedef {import("../../api-types.js").ConditionalsAnswer} ConditionalsAnswer */

/** @param {string} id */
export const readGame = (id) => api.game("GET", api.gamePath(id));

/** My conditional moves in a game. @param {string} id @returns {Promise<ConditionalsAnswer>} */
export const readConditionals = (id) => api.call("GET", `${api.gamePath(id)}/conditionals`);

/**
 * Keeps my conditional moves in a game in place of those kept before.
 * @param {string} id
 * @param {number} ply  the moves played now
 * @param {string[][]} lines
 * @returns {Promise<ConditionalsAnswer>}
 */
export const saveConditionals = (id, ply, lines) => {
  /** @type {import("../../api-types.js").ConditionalsRequest} */
  const body = { ply, lines };
  return api.call("PUT", `${api.gamePath(id)}/conditionals`, body);
};

/** The API path of a game's record, for its download links. @param {string} id */
export const gameRecordPath = (id) => `${api.gamePath(id)}/record`;

/** @param {"imported" | "masters"} kind @param {string} id */
const importedPath = (kind, id) => `/${kind === "masters" ? "masters" : "imports"}/${encodeURIComponent(id)}`;

/** One of my imported games, or a Masters game. @param {"imported" | "masters"} kind @param {string} id @returns {Promise<ImportedGameAnswer>} */
export const readImported = (kind, id) => api.call("GET", importedPath(kind, id));

/** The API path of an imported or Masters game's record. @param {"imported" | "masters"} kind @param {string} id */
export const importedRecordPath = (kind, id) => `${importedPath(kind, id)}/record`;

/** The moves played from a position, counted. @param {URLSearchParams} q @returns {Promise<ExplorerAnswer>} */
export const explore = (q) => api.call("GET", `/explorer?${q}`);
