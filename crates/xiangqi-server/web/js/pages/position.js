// A position by link, on either board: `#/position/{standard|hex}/{FEN}` with the
// FEN URL-encoded (the variant's start position when it is left out). Read-only:
// no moves are offered. Open without logging in, so a position can be shared.

import { Board } from "../components/board.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { page } from "../components/layout.js";
import { onSubmit } from "../components/form.js";
import { h } from "../dom.js";
import { parseFen, sideToMove } from "../fen.js";
import { colorName } from "../format.js";
import { t } from "../i18n.js";
import { go } from "../router.js";
import { analysisLink } from "../links.js";

/** @typedef {import("../components/geometry.js").Geometry} Geometry */

/** @type {Record<string, Geometry>} */
const BOARDS = { standard, hex };

/**
 * The address of a position.
 * @param {Geometry} geometry
 * @param {string} fen
 */
export const positionLink = (geometry, fen) => `#/position/${geometry.name}/${encodeURIComponent(fen.trim())}`;

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the board's name, then the FEN (its `/` may arrive unencoded)
 */
export function positionPage(view, [name = "standard", ...rest]) {
  const geometry = BOARDS[name];
  if (!geometry) {
    page(view, t("position.title"), h("p", { class: "message error" }, t("position.unknownBoard", { name })));
    return;
  }
  const fen = rest.join("/").trim() || geometry.startFen;
  const title = t(geometry === hex ? "position.hex" : "position.standard");
  let problem = "";
  try {
    parseFen(geometry.rows, fen);
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  const input = h("input", { name: "fen", value: fen, spellcheck: "false", autocomplete: "off" });
  const fenForm = onSubmit(h("form", { class: "fen-form" },
    h("label", {}, t("position.fen"), input),
    h("button", { type: "submit" }, t("position.show")),
    h("a", { href: positionLink(geometry, geometry.startFen) }, t("position.start"))), async (d) => go(positionLink(geometry, d["fen"] ?? "")));
  if (problem) {
    page(view, title, h("p", { class: "message error" }, t("position.badFen", { problem })), fenForm);
    return;
  }
  const boardBox = h("div", { class: "board-box" });
  let flipped = false;
  const flip = h("a", { href: "#", onclick: (e) => { e.preventDefault(); flipped = !flipped; draw(); } }, t("game.flip"));
  const side = h("aside", { class: "game-side" },
    h("div", { class: "status", id: "status" }, t("position.toMove", { color: colorName(sideToMove(fen), true) })),
    fenForm,
    h("p", { class: "muted small" }, flip, " · ", h("a", { href: analysisLink(geometry.name, fen), id: "analyse-link" }, t("game.analyse"))));
  page(view, title, h("div", { class: "game position" }, boardBox, side));
  const board = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"));
  const draw = () => board.show({ fen, flipped });
  draw();
}
