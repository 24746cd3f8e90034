// The Xiang Hex board: 79 flat-topped hexagons on nine files of 7 to 11 cells,
// named per file from Red's end (a1..a7, e1..e11). Axial coordinates follow the
// rules library: q = file - 4; r = 6 - q - n for q >= 0, else 6 - n. A cell is on
// the board when |q|, |r| and |q + r| are at most 4, 5 and 5; q + 2r = 0 is the
// river (a4, c5, e6, g5, i4). FEN rows are the Game Courier layout: global rank
// 11 down to 1 (rank = n - q for q < 0, else n), `-` for a slot off the board.

import { svg } from "../dom.js";

/** @typedef {import("./geometry.js").Geometry} Geometry */

/** Centre to corner; a piece (radius 26) fits inside the inner radius (31.2). */
const SIZE = 36;
const INNER = (Math.sqrt(3) / 2) * SIZE;
const MARGIN = 34;
const HALF_W = 1.5 * SIZE * 4 + SIZE;
const HALF_H = 5 * 2 * INNER + INNER;
const FILES = "abcdefghi";
/** The river inscription, read left to right across the four outer river cells. */
const RIVER = ["楚", "河", "漢", "界"];
const RED_PALACE = ["e1", "e2", "e3", "d1", "d2", "f1", "f2"];

/**
 * @param {number} q
 * @param {number} r
 */
const onBoard = (q, r) => Math.abs(q) <= 4 && Math.abs(r) <= 5 && Math.abs(q + r) <= 5;

/**
 * @param {number} q
 * @param {number} r
 */
function name(q, r) {
  const n = q >= 0 ? 6 - q - r : 6 - r;
  return FILES.charAt(q + 4) + n;
}

/** @param {string} cell */
function axial(cell) {
  const q = FILES.indexOf(cell.charAt(0)) - 4;
  const n = Number(cell.slice(1));
  return [q, q >= 0 ? 6 - q - n : 6 - n];
}

/** @type {(string | null)[][]} */
const rows = [];
for (let rank = 11; rank >= 1; rank--) {
  /** @type {(string | null)[]} */
  const row = [];
  for (let q = -4; q <= 4; q++) {
    const r = 6 - q - rank;
    row.push(onBoard(q, r) ? name(q, r) : null);
  }
  rows.push(row);
}
const cells = /** @type {string[]} */ (rows.flat().filter((c) => c !== null));

/** Black's palace is Red's turned half a circle about the centre. */
const palace = new Set([
  ...RED_PALACE,
  ...RED_PALACE.map((c) => {
    const [q, r] = axial(c);
    return name(-(q ?? 0), -(r ?? 0));
  }),
]);

/**
 * @param {string} cell
 * @param {boolean} flipped
 * @returns {[number, number]}
 */
function center(cell, flipped) {
  const [q = 0, r = 0] = axial(cell);
  const x = 1.5 * SIZE * q;
  const y = 2 * INNER * (r + q / 2);
  return flipped ? [MARGIN + HALF_W - x, MARGIN + HALF_H - y] : [MARGIN + HALF_W + x, MARGIN + HALF_H + y];
}

/**
 * The corners of a flat-topped hexagon, as SVG points.
 * @param {number} x
 * @param {number} y
 * @param {number} radius
 */
function corners(x, y, radius) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    points.push(`${(x + radius * Math.cos(a)).toFixed(2)},${(y + radius * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(" ");
}

/** @param {string} cell */
function isRiver(cell) {
  const [q = 0, r = 0] = axial(cell);
  return q + 2 * r === 0;
}

/**
 * The palaces' outlines: every edge of a palace cell whose neighbour across it is
 * not in the palace.
 * @param {SVGGElement} layer
 * @param {boolean} flipped
 */
function drawPalaces(layer, flipped) {
  const centres = [...palace].map((c) => center(c, flipped));
  for (const [x, y] of centres) {
    for (let k = 0; k < 6; k++) {
      const normal = (Math.PI / 3) * k + Math.PI / 6;
      const nx = x + 2 * INNER * Math.cos(normal), ny = y + 2 * INNER * Math.sin(normal);
      if (centres.some(([px, py]) => Math.hypot(px - nx, py - ny) < 1)) continue;
      const a = (Math.PI / 3) * k, b = a + Math.PI / 3;
      svg("line", {
        x1: x + SIZE * Math.cos(a), y1: y + SIZE * Math.sin(a),
        x2: x + SIZE * Math.cos(b), y2: y + SIZE * Math.sin(b),
        class: "palace-edge",
      }, layer);
    }
  }
}

/**
 * @param {SVGGElement} layer
 * @param {boolean} flipped
 * @param {import("./geometry.js").Coordinates} mode
 */
function drawGround(layer, flipped, mode) {
  const grid = svg("g", { class: "hexes" }, layer);
  for (const cell of cells) {
    const [x, y] = center(cell, flipped);
    const kind = palace.has(cell) ? " palace" : isRiver(cell) ? " river" : "";
    svg("polygon", { points: corners(x, y, SIZE), class: `hex${kind}`, "data-hex": cell }, grid);
  }
  drawPalaces(svg("g", { class: "palaces" }, layer), flipped);
  const river = cells.filter((c) => isRiver(c) && !c.startsWith("e")).map((c) => center(c, flipped));
  river.sort((a, b) => a[0] - b[0]);
  river.forEach(([x, y], i) => {
    svg("text", { x, y, class: "river-glyph" }, layer).textContent = RIVER[i] ?? "";
  });
  const coords = svg("g", { class: `coords ${mode}` }, layer);
  if (mode === "off") return;
  // Files from left to right as shown; WXF counts each side's from its own right.
  const files = [...FILES].map((file) => cells.filter((c) => c.charAt(0) === file).map((c) => center(c, flipped)));
  files.sort((a, b) => (a[0]?.[0] ?? 0) - (b[0]?.[0] ?? 0));
  files.forEach((ends, column) => {
    const [x, y] = ends.reduce((low, p) => (p[1] > low[1] ? p : low));
    const label = mode === "wxf" ? String(9 - column) : FILES.charAt(flipped ? 8 - column : column);
    svg("text", { x, y: y + INNER + 20, class: "near" }, coords).textContent = label;
    if (mode !== "wxf") return;
    const [tx, ty] = ends.reduce((high, p) => (p[1] < high[1] ? p : high));
    svg("text", { x: tx, y: ty - INNER - 10, class: "far" }, coords).textContent = String(column + 1);
  });
}

/** @type {Geometry} */
export const hex = {
  name: "hex",
  startFen: "rnbak/pc3a/2p3b/4p2n/6pcr/P7p/RCP6/-N2P4/--B3P2/---A3CP/----KABNR w - - 0 1",
  rows,
  cells,
  width: 2 * (HALF_W + MARGIN),
  height: 2 * (HALF_H + MARGIN),
  hit: INNER,
  center,
  drawGround,
  outline(layer, cell, cls, flipped) {
    const [x, y] = center(cell, flipped);
    svg("polygon", { points: corners(x, y, SIZE - 3), class: cls, "data-mark": cls, "data-cell": cell }, layer);
  },
};
