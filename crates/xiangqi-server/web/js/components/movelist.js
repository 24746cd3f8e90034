// The moves of a game, two to a row (Red, Black), in the notation the player
// chose (WXF, Chinese or ICCS); it follows a change of that choice by itself.
// A game, over or still being played, can be stepped through: each move is then a
// button that shows the position after it, and a review's marks (?!, ?, ??) follow
// the moves.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { moveText } from "../notation.js";
import { onPrefsChange } from "../prefs.js";
import { MARKS } from "./evaluation.js";

/** @typedef {import("../models.js").PlayedMove} PlayedMove */
/** @typedef {import("../models.js").MoveClass} MoveClass */

/**
 * @typedef {object} Stepping
 * @property {number | null} current  the move shown (its ply, from 1), null for the last
 * @property {Map<number, MoveClass>} marks  a review's classes by ply
 * @property {(ply: number) => void} onPick
 */

/**
 * @param {PlayedMove[]} moves
 * @param {Stepping | undefined} stepping
 */
function table(moves, stepping) {
  /** @param {PlayedMove | undefined} move @param {number} i */
  const cell = (move, i) => {
    if (!move) return h("td", {});
    const text = moveText(move, i);
    if (!stepping) return h("td", { "data-ply": i + 1 }, text);
    const mark = MARKS[stepping.marks.get(i + 1) ?? "good"];
    const shown = (stepping.current ?? moves.length) === i + 1;
    return h("td", { "data-ply": i + 1, class: mark ? `marked ${stepping.marks.get(i + 1)}` : "" },
      h("button", { type: "button", class: `step${shown ? " current" : ""}`, "aria-current": shown ? "true" : null, onclick: () => stepping.onPick(i + 1) },
        text, mark ? h("span", { class: "mark" }, mark) : null));
  };
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    rows.push(h("tr", {}, h("td", { class: "num" }, i / 2 + 1), cell(moves[i], i), cell(moves[i + 1], i + 1)));
  }
  const head = h("tr", {}, h("th", {}, t("game.moveNumber")), h("th", {}, t("color.Red")), h("th", {}, t("color.Black")));
  return h("table", {}, h("caption", { class: "sr-only" }, t("game.moves")), head, rows);
}

/**
 * @param {PlayedMove[]} moves
 * @param {Stepping} [stepping]  to step through the game
 */
export function moveList(moves, stepping) {
  const box = h("div", { class: "moves" }, table(moves, stepping));
  // A list no longer on the page (the game page draws a new one for each change) lets go.
  const stop = onPrefsChange(() => {
    if (box.isConnected) box.replaceChildren(table(moves, stepping));
    else stop();
  });
  return box;
}
