// How a piece is drawn, in the three sets a player may choose: the traditional
// glyphs, the simplified glyphs, and a beginner's set that shows how each piece
// moves (lines and dots around a letter), for those who do not read the glyphs.

import { svg } from "../dom.js";
import { GLYPHS } from "../fen.js";

/** Simplified characters: the two sides differ in the general, elephant and soldier. */
const SIMPLIFIED = /** @type {Record<string, string>} */ ({
  K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
  k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒",
});

/** The beginner set's letters: K A E H R C P, the same for both sides. */
export const LETTERS = /** @type {Record<string, string>} */ ({ k: "K", a: "A", b: "E", n: "H", r: "R", c: "C", p: "P" });

/** @typedef {"traditional" | "simplified" | "beginner"} PieceSet */

/**
 * The text on a piece in a set.
 * @param {string} letter  a FEN letter
 * @param {PieceSet} set
 */
export function pieceText(letter, set) {
  if (set === "beginner") return LETTERS[letter.toLowerCase()] ?? letter;
  return (set === "simplified" ? SIMPLIFIED : GLYPHS)[letter] ?? letter;
}

const ORTHOGONAL = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const DIAGONAL = [[1, -1], [1, 1], [-1, 1], [-1, -1]];

/**
 * The beginner set's sign of how a piece moves, drawn around the centre (0, 0):
 * short strokes for one step, long ones for a slide, a bar on the cannon's lines
 * for the piece it jumps, dots where the horse and the elephant land.
 * @param {SVGGElement} g
 * @param {string} kind  lower-case letter
 * @param {number} forward  -1 when the piece's forward is up the screen, else 1
 */
function moveSign(g, kind, forward) {
  const sign = svg("g", { class: "sign" }, g);
  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 */
  const line = (x1, y1, x2, y2) => svg("line", { x1, y1, x2, y2 }, sign);
  /** @param {number} cx @param {number} cy @param {number} r */
  const dot = (cx, cy, r = 2.6) => svg("circle", { cx, cy, r, class: "sign-dot" }, sign);
  switch (kind) {
    case "k":
      for (const [dx = 0, dy = 0] of ORTHOGONAL) line(dx * 13, dy * 13, dx * 19, dy * 19);
      break;
    case "a":
      for (const [dx = 0, dy = 0] of DIAGONAL) line(dx * 9, dy * 9, dx * 14, dy * 14);
      break;
    case "b":
      for (const [dx = 0, dy = 0] of DIAGONAL) {
        line(dx * 9, dy * 9, dx * 13.5, dy * 13.5);
        dot(dx * 15.5, dy * 15.5);
      }
      break;
    case "n":
      for (const [a, b] of [[1, 2], [2, 1]]) {
        for (const [sx, sy] of DIAGONAL) dot((sx ?? 0) * a * 7.6, (sy ?? 0) * b * 7.6, 2.3);
      }
      break;
    case "r":
      for (const [dx = 0, dy = 0] of ORTHOGONAL) line(dx * 12, dy * 12, dx * 21, dy * 21);
      break;
    case "c":
      for (const [dx = 0, dy = 0] of ORTHOGONAL) {
        line(dx * 12, dy * 12, dx * 21, dy * 21);
        line(dx * 16.5 - dy * 3.5, dy * 16.5 - dx * 3.5, dx * 16.5 + dy * 3.5, dy * 16.5 + dx * 3.5);
      }
      break;
    default:
      // The soldier: forward always; sideways once it has crossed the river (dashed).
      line(0, forward * 12, 0, forward * 20);
      line(-3.5, forward * 16.5, 0, forward * 20.5);
      line(3.5, forward * 16.5, 0, forward * 20.5);
      for (const side of [-1, 1]) svg("line", { x1: side * 12, y1: 0, x2: side * 18, y2: 0, class: "sign-later" }, sign);
  }
}

/**
 * Draws a piece centred on (x, y), its size `scale` times the standard one.
 * @param {SVGGElement} g  the piece's group
 * @param {number} x
 * @param {number} y
 * @param {string} letter  a FEN letter
 * @param {{ set: PieceSet, scale: number, up: boolean }} how  `up`: the piece moves up the screen
 */
export function drawPiece(g, x, y, letter, { set, scale, up }) {
  const body = svg("g", { transform: `translate(${x} ${y}) scale(${scale}) translate(${-x} ${-y})` }, g);
  svg("circle", { cx: x, cy: y, r: 26, class: "disc" }, body);
  svg("circle", { cx: x, cy: y, r: 21.5, class: "ring" }, body);
  if (set === "beginner") {
    const sign = svg("g", { transform: `translate(${x} ${y})` }, body);
    moveSign(sign, letter.toLowerCase(), up ? -1 : 1);
    svg("text", { x, y: y + 1, class: "glyph letter" }, body).textContent = pieceText(letter, set);
  } else {
    svg("text", { x, y: y + 1, class: "glyph" }, body).textContent = pieceText(letter, set);
  }
  return body;
}
