// Every call the puzzle pages make to the server. An attempt's moves go to the
// server, which answers right or wrong (the solution stays there until the
// attempt ends).

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */
/** @typedef {import("../../api-types.js").PuzzleStepView} PuzzleStepView */
/** @typedef {import("../../api-types.js").StreakView} StreakView */
/** @typedef {import("../../api-types.js").LineAnswer} LineAnswer */
/** @typedef {import("../../api-types.js").PuzzleLeadersView} PuzzleLeadersView */
/** @typedef {import("../../api-types.js").PuzzleMoves} PuzzleMoves */
/** @typedef {import("../../api-types.js").PuzzleHint} PuzzleHint */
/** @typedef {PuzzleView["variant"]} Variant */

/** @param {string} id */
const puzzlePath = (id) => `/puzzles/${encodeURIComponent(id)}`;

/**
 * Every position of a line from the server, which applies the rules.
 * @param {Variant} variant
 * @param {string} fen
 * @param {string[]} moves
 * @returns {Promise<LineAnswer>}
 */
export const line = (variant, fen, moves) =>
  api.line({ variant, rules: variant === "hex" ? "hex" : "asian", fen, moves });

/**
 * The next puzzle near my rating, of a theme if one is named.
 * @param {Variant} variant
 * @param {string} [theme]
 * @returns {Promise<PuzzleView>}
 */
export const nextPuzzle = (variant, theme) =>
  api.call("GET", theme ? `/puzzles/next?variant=${variant}&theme=${theme}` : `/puzzles/next?variant=${variant}`);

/** @returns {Promise<PuzzleView>} */
export const dailyPuzzle = () => api.call("GET", "/puzzles/daily");

/** @param {string} id @returns {Promise<PuzzleView>} */
export const readPuzzle = (id) => api.call("GET", puzzlePath(id));

/**
 * The solver's moves so far, in a streak or not.
 * @param {string} id
 * @param {PuzzleMoves} attempt
 * @returns {Promise<PuzzleStepView>}
 */
export const tryMoves = (id, attempt) => api.call("POST", `${puzzlePath(id)}/moves`, attempt);

/**
 * The point of the piece to move next.
 * @param {string} id
 * @param {PuzzleMoves} attempt
 * @returns {Promise<PuzzleHint>}
 */
export const hint = (id, attempt) => api.call("POST", `${puzzlePath(id)}/hint`, attempt);

/** @param {Variant} variant @returns {Promise<StreakView>} */
export const startStreak = (variant) => api.call("POST", "/puzzles/streaks", { variant });

/** @param {Variant} variant @returns {Promise<PuzzleLeadersView>} */
export const leaders = (variant) => api.call("GET", `/puzzles/leaders?variant=${variant}`);
