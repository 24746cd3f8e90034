// Setting up a position on the analysis board: a palette of pieces (and an
// eraser) that a click on the board puts down, the side to move, and Done,
// Clear, the start position or Cancel. The server's rules judge the position
// when it is done, and say what is wrong with it.

import { pieceName } from "../../components/board.js";
import { button } from "../../components/layout.js";
import { drawPiece } from "../../components/pieces.js";
import { h, svg } from "../../dom.js";
import { errorText } from "../../errors.js";
import { parseFen, writeFen } from "../../fen.js";
import { colorName } from "../../format.js";
import { t } from "../../i18n.js";
import { prefs } from "../../prefs.js";

/** @typedef {import("../../components/geometry.js").Geometry} Geometry */
/** @typedef {import("../../models.js").Color} Color */

/** The pieces a position is set up with, Red's then Black's. */
const PALETTE = ["K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p"];

/**
 * What the editor asks of the page.
 * @typedef {object} EditorHooks
 * @property {() => Geometry} geometry  the board set up on
 * @property {() => void} changed  the position changed: draw the board
 * @property {(text: string) => void} announce  says what a click did, for screen readers
 * @property {(fen: string) => Promise<void>} done  analyses the position; rejects when the server refuses it
 * @property {() => void} cancel  leaves without it
 */

/** @param {EditorHooks} hooks */
export function positionEditor(hooks) {
  const element = h("section", { class: "setup card", id: "setup", hidden: true, "aria-label": t("analysis.setUpTitle") });
  /**
   * The pieces by cell, the side to move, and the piece a click puts down ("" takes one away).
   * @type {{ pieces: Map<string, string>, turn: Color, tool: string } | null}
   */
  let setup = null;

  /** @param {string} cell */
  function place(cell) {
    if (!setup) return;
    const had = setup.pieces.get(cell);
    if (!setup.tool || had === setup.tool) setup.pieces.delete(cell);
    else setup.pieces.set(cell, setup.tool);
    hooks.changed();
    const now = setup.pieces.get(cell);
    hooks.announce(now ? t("analysis.placed", { piece: pieceName(now), cell }) : t("analysis.cleared", { cell }));
  }

  function draw() {
    if (!setup) return;
    const s = setup;
    const geometry = hooks.geometry();
    const tool = (/** @type {string} */ letter, /** @type {string} */ label) => {
      const icon = svg("svg", { viewBox: "0 0 60 60", class: "palette-icon", "aria-hidden": "true" });
      if (letter) drawPiece(svg("g", { class: `piece ${letter === letter.toUpperCase() ? "red" : "black"}` }, icon), 30, 30, letter, { set: prefs().pieces, scale: 1, up: true });
      else svg("text", { x: 30, y: 38, class: "eraser" }, icon).textContent = "✕";
      return h("button", {
        type: "button", class: "tool", "data-piece": letter || "none", "aria-pressed": String(s.tool === letter), "aria-label": label,
        onclick: () => { s.tool = letter; draw(); },
      }, icon);
    };
    const turn = (/** @type {Color} */ c) => h("label", {},
      h("input", { type: "radio", name: "setup-turn", value: c, checked: s.turn === c, onchange: () => { s.turn = c; hooks.changed(); } }),
      t("analysis.toMove", { color: colorName(c, true) }));
    const error = h("p", { class: "message error", id: "setup-error", role: "alert", hidden: true });
    element.replaceChildren(
      h("h2", {}, t("analysis.setUpTitle")),
      h("p", { class: "muted small" }, t("analysis.setUpHelp")),
      h("div", { class: "palette", id: "palette", role: "group", "aria-label": t("analysis.palette") },
        PALETTE.map((l) => tool(l, pieceName(l))), tool("", t("analysis.eraser"))),
      h("div", { class: "setup-turn", role: "radiogroup", "aria-label": t("analysis.sideToMove") }, turn("red"), turn("black")),
      h("div", { class: "buttons" },
        button(t("analysis.done"), async () => {
          try {
            await hooks.done(writeFen(geometry.rows, s.pieces, s.turn));
          } catch (err) {
            error.textContent = errorText(err);
            error.hidden = false;
          }
        }, { class: "primary", id: "setup-done" }),
        button(t("analysis.clear"), () => { s.pieces = new Map(); hooks.changed(); }, { id: "setup-clear" }),
        button(t("position.start"), () => { s.pieces = parseFen(geometry.rows, geometry.startFen); s.turn = "red"; draw(); hooks.changed(); }, { id: "setup-initial" }),
        button(t("analysis.cancel"), hooks.cancel, { id: "setup-cancel" })),
      error);
  }

  return {
    element,
    place,
    draw,
    /** Whether a position is being set up. */
    active: () => setup !== null,
    /**
     * Starts from a position.
     * @param {string} fen
     * @param {Color} turn
     */
    enter(fen, turn) {
      setup = { pieces: parseFen(hooks.geometry().rows, fen), turn, tool: "R" };
      element.hidden = false;
      draw();
    },
    leave() {
      setup = null;
      element.hidden = true;
    },
    /** Empties the board (another board was chosen). */
    clear() {
      if (setup) setup.pieces = new Map();
    },
    /** The position set up, as FEN. */
    fen() {
      return setup ? writeFen(hooks.geometry().rows, setup.pieces, setup.turn) : "";
    },
    /** Puts the focus on the palette. */
    focus() {
      element.querySelector("button.tool")?.closest("button")?.focus();
    },
  };
}
