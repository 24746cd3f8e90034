// How game terms read: time controls, rule sets, colours, outcomes.

import { isTextKey, t, tn } from "./i18n.js";

/** @typedef {import("./models.js").ClockSpec} ClockSpec */
/** @typedef {import("./models.js").Color} Color */
/** @typedef {import("./models.js").Outcome} Outcome */

/**
 * A time control: "10+5", "3 days/move" or "28 hours/move" (whole days as days).
 * @param {ClockSpec | null | undefined} clock
 */
export function clockText(clock) {
  if (!clock) return "";
  if (clock.kind === "live") {
    return t("clock.live", { minutes: Math.round(clock.base / 60000), seconds: Math.round(clock.increment / 1000) });
  }
  return clock.hours % 24 === 0 ? tn("clock.days", clock.hours / 24) : tn("clock.hours", clock.hours);
}

/**
 * Milliseconds as h:mm:ss or m:ss.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/**
 * A rule set's name; unknown names read as the server sent them.
 * @param {string} rules
 */
export function rulesName(rules) {
  const key = `rules.${rules}`;
  return isTextKey(key) ? t(key) : rules;
}

/**
 * "red" or "black", optionally capitalised.
 * @param {Color} color
 * @param {boolean} [capital]
 */
export function colorName(color, capital = false) {
  return t(capital ? (color === "red" ? "color.Red" : "color.Black") : color === "red" ? "color.red" : "color.black");
}

/**
 * The end of a game in the user's language, else as the server wrote it.
 * @param {Outcome} outcome
 */
export function outcomeText(outcome) {
  const key = `reason.${outcome.reason}`;
  if (!isTextKey(key)) return outcome.text;
  const reason = t(key);
  return outcome.winner ? t("game.wins", { color: colorName(outcome.winner, true), reason }) : t("game.draw", { reason });
}

/**
 * The level a player plays at when the player is the computer (its accounts
 * are `computer.1` to `computer.8`), else null.
 * @param {string} name
 * @returns {number | null}
 */
export function computerLevel(name) {
  const level = /^computer\.([1-8])$/.exec(name)?.[1];
  return level ? Number(level) : null;
}

/**
 * A player's name as shown: the computer by its level.
 * @param {string} name
 */
export function playerName(name) {
  const level = computerLevel(name);
  return level ? t("computer.name", { level }) : name;
}

/**
 * The move a half-move (ply, from 1) belongs to: Red's move and Black's reply
 * make one move, as every language counts them.
 * @param {number} ply
 */
export const moveNumber = (ply) => Math.ceil(ply / 2);

/**
 * Who made a half-move (ply, from 1): Red moves first.
 * @param {number} ply
 * @returns {import("./models.js").Color}
 */
export const plySide = (ply) => (ply % 2 === 1 ? "red" : "black");

/**
 * A game's length in moves, from its half-moves.
 * @param {number} plies
 */
export const movesText = (plies) => tn("moves.count", moveNumber(plies));
