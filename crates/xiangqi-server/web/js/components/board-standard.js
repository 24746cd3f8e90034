// The standard board: 9 files by 10 ranks of points, palaces with diagonals,
// the river between ranks 4 and 5. Cells are ICCS names, a0 at Red's left.

import { svg } from "../dom.js";

/** @typedef {import("./geometry.js").Geometry} Geometry */

const STEP = 60;
const MARGIN = 60;
const FILES = "abcdefghi";
/** A board inscription, written the same in every language. */
const RIVER = ["楚河", "漢界"];

/** @type {(string | null)[][]} */
const rows = [];
for (let rank = 9; rank >= 0; rank--) rows.push([...FILES].map((f) => f + rank));

/**
 * Screen column and row of a cell.
 * @param {string} cell
 * @param {boolean} flipped
 */
function colRow(cell, flipped) {
  const file = FILES.indexOf(cell.charAt(0));
  const rank = Number(cell.slice(1));
  return flipped ? [8 - file, rank] : [file, 9 - rank];
}

/**
 * @param {SVGGElement} layer
 * @param {boolean} flipped
 * @param {import("./geometry.js").Coordinates} mode
 */
function drawGround(layer, flipped, mode) {
  const x0 = MARGIN, y0 = MARGIN, x1 = MARGIN + 8 * STEP, y1 = MARGIN + 9 * STEP;
  const lines = svg("g", { class: "lines" }, layer);
  svg("rect", { x: x0 - 6, y: y0 - 6, width: x1 - x0 + 12, height: y1 - y0 + 12, class: "frame" }, lines);
  for (let r = 0; r < 10; r++) svg("line", { x1: x0, y1: y0 + r * STEP, x2: x1, y2: y0 + r * STEP }, lines);
  for (let f = 0; f < 9; f++) {
    const x = x0 + f * STEP;
    if (f === 0 || f === 8) {
      svg("line", { x1: x, y1: y0, x2: x, y2: y1 }, lines);
    } else {
      svg("line", { x1: x, y1: y0, x2: x, y2: y0 + 4 * STEP }, lines);
      svg("line", { x1: x, y1: y0 + 5 * STEP, x2: x, y2: y1 }, lines);
    }
  }
  for (const top of [0, 7]) {
    const ya = y0 + top * STEP, yb = ya + 2 * STEP;
    svg("line", { x1: x0 + 3 * STEP, y1: ya, x2: x0 + 5 * STEP, y2: yb }, lines);
    svg("line", { x1: x0 + 5 * STEP, y1: ya, x2: x0 + 3 * STEP, y2: yb }, lines);
  }
  // Each glyph sits in the middle of a square of the river, between four
  // points: a piece on a bank (a pawn crossing, say) never covers it.
  const riverY = y0 + 4.5 * STEP;
  const [left, right] = flipped ? [RIVER[1], RIVER[0]] : RIVER;
  [...(left ?? "")].forEach((glyph, i) => {
    svg("text", { x: x0 + (1.5 + i) * STEP, y: riverY, class: "river" }, layer).textContent = glyph;
  });
  [...(right ?? "")].forEach((glyph, i) => {
    svg("text", { x: x0 + (5.5 + i) * STEP, y: riverY, class: "river" }, layer).textContent = glyph;
  });
  const coords = svg("g", { class: `coords ${mode}` }, layer);
  if (mode === "iccs") {
    for (let f = 0; f < 9; f++) {
      const file = flipped ? 8 - f : f;
      svg("text", { x: x0 + f * STEP, y: y1 + 44 }, coords).textContent = FILES.charAt(file);
    }
    for (let r = 0; r < 10; r++) {
      svg("text", { x: 20, y: y0 + r * STEP + 5 }, coords).textContent = String(flipped ? r : 9 - r);
    }
  } else if (mode === "wxf") {
    // Each side counts its files from its own right: the bottom side from the
    // screen's right, the top side (facing it) from the screen's left.
    for (let c = 0; c < 9; c++) {
      svg("text", { x: x0 + c * STEP, y: y1 + 44, class: "near" }, coords).textContent = String(9 - c);
      svg("text", { x: x0 + c * STEP, y: y0 - 34, class: "far" }, coords).textContent = String(c + 1);
    }
  }
}

/** @type {Geometry} */
export const standard = {
  name: "standard",
  startFen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
  rows,
  cells: /** @type {string[]} */ (rows.flat()),
  width: 8 * STEP + 2 * MARGIN,
  height: 9 * STEP + 2 * MARGIN,
  hit: STEP * 0.72,
  center(cell, flipped) {
    const [col, row] = colRow(cell, flipped);
    return [MARGIN + col * STEP, MARGIN + row * STEP];
  },
  drawGround,
  outline(layer, cell, cls, flipped) {
    const [x, y] = this.center(cell, flipped);
    svg("rect", { x: x - 29, y: y - 29, width: 58, height: 58, rx: 8, class: cls, "data-mark": cls, "data-cell": cell }, layer);
  },
};
