// A tournament in words: its time controls, format and status, points and
// tie-breaks as the tables write them, and a player's result.

import { lang, t, tn } from "../../i18n.js";

/** @typedef {import("../../models.js").ClockSpec} ClockSpec */
/** @typedef {import("../../models.js").TournamentSummary} Summary */
/** @typedef {import("../../models.js").PlayerResult} PlayerResult */
/** @typedef {import("../../i18n.js").TextKey} TextKey */

/**
 * Time controls a tournament is offered with: the seed's two correspondence
 * kinds first, then days, then live clocks (value: `c{hours}` or `l{min}+{sec}`).
 * @type {[string, TextKey | null][]}
 */
export const TIMES = [["c48", "tournament.kind.main"], ["c28", "tournament.kind.fast"], ["c72", null], ["c24", null],
  ["l10+5", null], ["l5+3", null], ["l30+20", null]];

/** @param {string} value */
export function clockOf(value) {
  if (value.startsWith("c")) return /** @type {ClockSpec} */ ({ kind: "correspondence", hours: Number(value.slice(1)) });
  const [base = 0, inc = 0] = value.slice(1).split("+").map(Number);
  return /** @type {ClockSpec} */ ({ kind: "live", base: base * 60000, increment: inc * 1000 });
}

/** @param {number} ms */
const dateTime = (ms) => new Date(ms).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

/** Points as the crosstable writes them: 2½, ½, 3. @param {number} p */
export function pointsText(p) {
  const whole = Math.floor(p);
  const half = p - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** A tie-break to two places at most. @param {number} x */
export const tiebreakText = (x) => String(Math.round(x * 100) / 100);

/** @param {Summary} s */
export function formatText(s) {
  return s.format === "swiss" ? tn("tournament.swissRounds", s.rounds) : t("tournament.roundRobin");
}

/** @param {Summary} s */
export function statusText(s) {
  if (s.status === "signup") return s.starts ? t("tournament.startsAt", { date: dateTime(s.starts) }) : t("tournament.startsFull");
  if (s.status === "running") return t("tournament.roundOf", { round: s.round, rounds: s.rounds });
  if (s.status === "cancelled") return t("tournament.cancelled");
  return t("tournament.finishedAt", { date: dateTime(s.finished ?? s.created) });
}

/**
 * One player's result as the crosstable writes it.
 * @param {PlayerResult | null | undefined} r  none while the game is played
 */
export function resultMark(r) {
  switch (r) {
    case "win": return "1";
    case "draw": return "½";
    case "loss": return "0";
    case "bye": return "1";
    case "forfeit_win": return "+";
    case "forfeit_loss": return "−";
    default: return "…";
  }
}
