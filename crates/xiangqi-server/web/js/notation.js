// Moves as the player chose to read them: WXF (`C2=5`), ICCS (`h2e2`) or Chinese
// (`炮二平五`). The server sends ICCS and WXF, and Chinese when it has it; else
// the Chinese is written here from the WXF: piece letter to its character by
// side, files to Chinese numerals for Red and digits for Black (as the server), and
// `+ - =` to 进 退 平 (`+`/`-` in place of the file: 前/后, front and rear).

import { prefs } from "./prefs.js";

/** @typedef {import("./models.js").PlayedMove} PlayedMove */

const RED_PIECES = /** @type {Record<string, string>} */ ({ K: "帅", A: "仕", E: "相", B: "相", H: "马", N: "马", R: "车", C: "炮", P: "兵" });
const BLACK_PIECES = /** @type {Record<string, string>} */ ({ K: "将", A: "士", E: "象", B: "象", H: "马", N: "马", R: "车", C: "炮", P: "卒" });
const RED_NUMBERS = "一二三四五六七八九";
const BLACK_NUMBERS = "123456789";
const ACTIONS = /** @type {Record<string, string>} */ ({ "+": "进", "-": "退", "=": "平", ".": "平" });

/**
 * A WXF move in Chinese, or null when it cannot be read (then WXF shows).
 * @param {string} wxf
 * @param {boolean} red  whether Red made it
 */
export function chineseFromWxf(wxf, red) {
  const m = /^([KAEBHNRCP])([1-9+-])([+\-=.])([1-9])$/i.exec(wxf.trim());
  const tandem = /^([+-])([KAEBHNRCP])([+\-=.])([1-9])$/i.exec(wxf.trim());
  const pieces = red ? RED_PIECES : BLACK_PIECES;
  /** @param {string} d */
  const num = (d) => (red ? RED_NUMBERS : BLACK_NUMBERS).charAt(Number(d) - 1);
  if (m) {
    const [, letter = "", file = "", op = "", to = ""] = m;
    const piece = pieces[letter.toUpperCase()];
    if (!piece) return null;
    const head = file === "+" ? `前${piece}` : file === "-" ? `后${piece}` : piece + num(file);
    return head + ACTIONS[op] + num(to);
  }
  if (tandem) {
    const [, where = "", letter = "", op = "", to = ""] = tandem;
    const piece = pieces[letter.toUpperCase()];
    if (!piece) return null;
    return (where === "+" ? "前" : "后") + piece + ACTIONS[op] + num(to);
  }
  return null;
}

/**
 * A played move in the chosen notation.
 * @param {Pick<PlayedMove, "iccs" | "wxf" | "chinese">} move
 * @param {number} index  its place in the game from 0 (even: Red's)
 */
export function moveText(move, index) {
  const notation = prefs().notation;
  if (notation === "iccs") return move.iccs;
  if (notation === "chinese") return move.chinese ?? chineseFromWxf(move.wxf, index % 2 === 0) ?? move.wxf;
  return move.wxf;
}

/**
 * The same move in a second notation, for a note beside it: ICCS, or WXF when
 * ICCS is the chosen one.
 * @param {PlayedMove} move
 */
export function otherText(move) {
  return prefs().notation === "iccs" ? move.wxf : move.iccs;
}
