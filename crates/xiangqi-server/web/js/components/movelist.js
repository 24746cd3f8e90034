// The moves of a game, two to a row (Red, Black), in WXF and ICCS.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../models.js").PlayedMove} PlayedMove */

/** @param {PlayedMove[]} moves */
export function moveList(moves) {
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const red = moves[i], black = moves[i + 1];
    rows.push(h("tr", {},
      h("td", { class: "num" }, i / 2 + 1),
      h("td", {}, red?.wxf), h("td", { class: "muted" }, red?.iccs),
      h("td", {}, black?.wxf), h("td", { class: "muted" }, black?.iccs)));
  }
  const head = h("tr", {}, h("th", {}, t("game.moveNumber")), h("th", { colspan: 2 }, t("color.Red")), h("th", { colspan: 2 }, t("color.Black")));
  return h("div", { class: "moves" }, h("table", {}, h("caption", { class: "sr-only" }, t("game.moves")), head, rows));
}
