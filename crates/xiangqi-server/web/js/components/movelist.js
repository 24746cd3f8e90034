// The moves of a game, two to a row (Red, Black), in the notation the player
// chose (WXF, Chinese or ICCS); it follows a change of that choice by itself.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { moveText } from "../notation.js";
import { onPrefsChange } from "../prefs.js";

/** @typedef {import("../models.js").PlayedMove} PlayedMove */

/** @param {PlayedMove[]} moves */
function table(moves) {
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const red = moves[i], black = moves[i + 1];
    rows.push(h("tr", {},
      h("td", { class: "num" }, i / 2 + 1),
      h("td", { "data-ply": i + 1 }, red ? moveText(red, i) : ""),
      h("td", { "data-ply": i + 2 }, black ? moveText(black, i + 1) : "")));
  }
  const head = h("tr", {}, h("th", {}, t("game.moveNumber")), h("th", {}, t("color.Red")), h("th", {}, t("color.Black")));
  return h("table", {}, h("caption", { class: "sr-only" }, t("game.moves")), head, rows);
}

/** @param {PlayedMove[]} moves */
export function moveList(moves) {
  const box = h("div", { class: "moves" }, table(moves));
  // A list no longer on the page (the game page draws a new one for each change) lets go.
  const stop = onPrefsChange(() => {
    if (box.isConnected) box.replaceChildren(table(moves));
    else stop();
  });
  return box;
}
