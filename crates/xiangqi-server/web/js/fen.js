// Positions as the server writes them: FEN over a board's rows of slots, and
// moves as two cell names ("h2e2", "e10e11" on the hex board).

/** @typedef {import("./models.js").Color} Color */

/**
 * The FEN layout of a board: rows from Black's end, each a list of slots that
 * hold a cell name, or null where the row has no cell (the hex board's `-`).
 * @typedef {(string | null)[][]} FenRows
 */

const LETTERS = "KABNRCP";
/** Letters some sources use for the elephant and the horse. */
const ALIASES = /** @type {Record<string, string>} */ ({ E: "B", H: "N", e: "b", h: "n" });

/**
 * The pieces of a FEN as a map from cell name to letter (upper case Red).
 * Throws an Error saying what is wrong when the board part is malformed.
 * @param {FenRows} layout
 * @param {string} fen
 * @returns {Map<string, string>}
 */
export function parseFen(layout, fen) {
  const pieces = new Map();
  const rows = (fen.trim().split(/\s+/)[0] ?? "").split("/");
  if (rows.length !== layout.length) throw new Error(`${rows.length} rows; this board has ${layout.length}`);
  rows.forEach((text, i) => {
    const slots = /** @type {(string | null)[]} */ (layout[i]);
    let at = 0;
    for (const ch of text) {
      if (ch >= "1" && ch <= "9") {
        at += Number(ch);
        continue;
      }
      const cell = slots[at];
      if (ch === "-" && cell === null) {
        at++;
        continue;
      }
      const letter = ALIASES[ch] ?? ch;
      if (!cell || !LETTERS.includes(letter.toUpperCase())) throw new Error(`row ${i + 1}: unexpected ${ch}`);
      pieces.set(cell, letter);
      at++;
    }
    if (at > slots.length) throw new Error(`row ${i + 1} is too long`);
  });
  return pieces;
}

/**
 * The side to move of a FEN (Red when the field is missing).
 * @param {string} fen
 * @returns {Color}
 */
export function sideToMove(fen) {
  return fen.trim().split(/\s+/)[1]?.toLowerCase() === "b" ? "black" : "red";
}

/**
 * The from and to cells of a move, or null if it is not two cell names.
 * @param {string} move
 * @returns {[string, string] | null}
 */
export function splitMove(move) {
  const m = /^([a-z]\d{1,2})([a-z]\d{1,2})$/.exec(move);
  return m ? [/** @type {string} */ (m[1]), /** @type {string} */ (m[2])] : null;
}

/** @param {string} letter */
export const isRed = (letter) => letter === letter.toUpperCase();

/** Chinese glyphs; the two sides' general, advisor, elephant, horse, chariot and cannon differ. */
export const GLYPHS = /** @type {Record<string, string>} */ ({
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
});

/**
 * A FEN from pieces by cell: rows from Black's end, runs of empty cells as
 * digits, `-` for a slot the row has no cell in (before its last cell), then
 * the side to move and move counters.
 * @param {FenRows} layout
 * @param {Map<string, string>} pieces
 * @param {Color} turn
 */
export function writeFen(layout, pieces, turn) {
  const rows = layout.map((slots) => {
    let last = slots.length - 1;
    while (last >= 0 && slots[last] === null) last--;
    let text = "", empty = 0;
    for (const cell of slots.slice(0, last + 1)) {
      const letter = cell === null ? "-" : pieces.get(cell);
      if (!letter) {
        empty++;
        continue;
      }
      if (empty) text += String(empty);
      empty = 0;
      text += letter;
    }
    return empty ? text + String(empty) : text;
  });
  return `${rows.join("/")} ${turn === "black" ? "b" : "w"} - - 0 1`;
}
