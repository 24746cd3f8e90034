// A small board for the help pages: a position, the moves of one piece marked
// with dots, a caption. It is the board component itself, so it shows the
// player's piece set, theme and coordinates like every other board.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { Board } from "./board.js";
import { hex } from "./board-hex.js";
import { standard } from "./board-standard.js";

/**
 * @typedef {object} DiagramSpec
 * @property {string} fen
 * @property {string} caption
 * @property {string[]} [dots]
 * @property {string | null} [last]
 * @property {"red" | "black" | null} [check]
 * @property {boolean} [hexBoard]
 */

/**
 * A captioned diagram.
 * @param {DiagramSpec} spec
 */
export function diagram({ fen, caption, dots = [], last = null, check = null, hexBoard = false }) {
  const box = h("div", { class: "board-box" });
  const geometry = hexBoard ? hex : standard;
  const board = new Board(box, geometry, caption || t(hexBoard ? "board.labelHex" : "board.label"));
  board.show({ fen: fen.includes(" ") ? fen : `${fen} w - - 0 1`, dots, last, check });
  return h("figure", { class: `diagram${hexBoard ? " wide" : ""}` }, box, h("figcaption", {}, caption));
}
