// Addresses of pages, for links from one page to another: a page links to
// another by its address, never by importing it.

/**
 * The address of a position on the analysis board.
 * @param {string} board  standard or hex
 * @param {string} fen
 */
export const analysisLink = (board, fen) => `#/analysis/${board}/${encodeURIComponent(fen.trim())}`;

/**
 * The analysis board at a game's move.
 * @param {string} id
 * @param {number} ply
 */
export const gameAnalysisLink = (id, ply) => `#/analysis/game/${encodeURIComponent(id)}/${ply}`;

/** The address of an imported game on the analysis board. @param {string} id */
export const importedLink = (id) => `#/analysis/imported/${encodeURIComponent(id)}`;

/** The address of a Masters game on the analysis board. @param {string} id */
export const mastersLink = (id) => `#/analysis/masters/${encodeURIComponent(id)}`;

/** A study's page. @param {string} id */
export const studyLink = (id) => `#/study/${encodeURIComponent(id)}`;

/**
 * The address of a puzzle mode on a board: the next puzzle (of a theme when
 * one is named), a streak or the leaders.
 * @param {"next" | "theme" | "streak" | "leaders"} kind
 * @param {string} variant  standard or hex
 * @param {string} [theme]
 */
export function puzzlesLink(kind, variant, theme) {
  const board = variant === "hex" ? "/hex" : "";
  if (kind === "theme" && theme) return `#/puzzles/theme/${theme}${board}`;
  return kind === "next" || kind === "theme" ? `#/puzzles${board}` : `#/puzzles/${kind}${board}`;
}

/** One puzzle's address. @param {string} id */
export const puzzleLink = (id) => `#/puzzles/p/${encodeURIComponent(id)}`;

/** A game's page. @param {string} id */
export const gameLink = (id) => `#/game/${encodeURIComponent(id)}`;

/** A tournament's page. @param {string} id */
export const tournamentLink = (id) => `#/tournament/${encodeURIComponent(id)}`;
