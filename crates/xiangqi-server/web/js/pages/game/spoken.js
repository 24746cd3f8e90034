// The game page in the screen-reader mode (a preference): the position in
// words, side by side and piece by piece; the legal moves as a list to pick
// from (the box below the board still takes a move typed in any notation);
// and a live region that announces the moves, a check, a running-out clock
// and the result as they come, so that nobody has to look for them. The board
// itself already speaks each point the arrow keys reach.
//
// Moves and points follow the notation chosen in the settings: cell names for
// ICCS, each side's own file numbers for WXF and Chinese.

import { hex } from "../../components/board-hex.js";
import { standard } from "../../components/board-standard.js";
import { h } from "../../dom.js";
import { isRed, parseFen, sideToMove, splitMove } from "../../fen.js";
import { colorName, duration, outcomeText } from "../../format.js";
import { t } from "../../i18n.js";
import { chineseFromWxf, moveText } from "../../notation.js";
import { prefs } from "../../prefs.js";

/** @typedef {import("./controller.js").GameController} GameController */
/** @typedef {import("../../models.js").Color} Color */
/** @typedef {import("../../models.js").Game} Game */

/** The pieces in the order a side's list names them, strongest first. */
const ORDER = "krcnbap";
/** A piece's name by lower-case letter. */
const NAMES = /** @type {const} */ ({ k: "piece.k", a: "piece.a", b: "piece.b", n: "piece.n", r: "piece.r", c: "piece.c", p: "piece.p" });
const FILES = "abcdefghi";
const RED_NUMBERS = "一二三四五六七八九";
/** Clock warnings, once each as the player's own time runs down past them (ms). */
const WARNINGS = [60_000, 20_000, 10_000];
/** How many announcements the log keeps: older ones have been heard. */
const KEPT = 30;

/** @param {string} letter */
const pieceWord = (letter) => {
  const lower = letter.toLowerCase();
  return t(lower in NAMES ? NAMES[/** @type {keyof typeof NAMES} */ (lower)] : NAMES.p);
};

/**
 * A file as `color` counts it in WXF (1-9 from that side's right), for a cell
 * of the standard board.
 * @param {string} cell
 * @param {Color} color
 */
const fileOf = (cell, color) => {
  const index = FILES.indexOf(cell.charAt(0));
  return color === "red" ? 9 - index : index + 1;
};

/**
 * A point in the chosen notation: its ICCS name, or for WXF and Chinese the
 * file as the piece's side counts it, with the ICCS name for a precise place.
 * @param {string} cell
 * @param {Color} color
 * @param {boolean} hexBoard
 */
function pointText(cell, color, hexBoard) {
  const notation = prefs().notation;
  if (hexBoard || notation === "iccs") return cell;
  const file = fileOf(cell, color);
  const shown = notation === "chinese" && color === "red" ? RED_NUMBERS.charAt(file - 1) : String(file);
  return t("spoken.file", { file: shown, cell });
}

/**
 * A legal move of the standard board in WXF, written from the position; null
 * where it takes more than a front and rear piece to tell it apart (then its
 * ICCS name stands).
 * @param {Map<string, string>} pieces
 * @param {string} iccs
 */
export function wxfOf(pieces, iccs) {
  const cells = splitMove(iccs);
  if (!cells) return null;
  const [from, to] = cells;
  const letter = pieces.get(from);
  if (!letter) return null;
  const color = isRed(letter) ? "red" : "black";
  const lower = letter.toLowerCase();
  const wxfLetter = ({ b: "E", n: "H" })[lower] ?? lower.toUpperCase();
  const rank = (/** @type {string} */ c) => Number(c.slice(1));
  const ahead = (color === "red" ? 1 : -1) * (rank(to) - rank(from));
  const twins = [...pieces].filter(([cell, l]) => l === letter && cell.charAt(0) === from.charAt(0));
  let head = `${wxfLetter}${fileOf(from, color)}`;
  if (twins.length > 2) return null;
  if (twins.length === 2) {
    const other = twins.find(([cell]) => cell !== from)?.[0] ?? from;
    const front = (color === "red" ? 1 : -1) * (rank(from) - rank(other)) > 0;
    head = `${wxfLetter}${front ? "+" : "-"}`;
  }
  const op = ahead > 0 ? "+" : ahead < 0 ? "-" : "=";
  // Pieces that move along lines count the ranks they go forward or back;
  // the others, and any sideways move, name the file they arrive on.
  const straight = "krcp".includes(lower) && op !== "=";
  return `${head}${op}${straight ? Math.abs(ahead) : fileOf(to, color)}`;
}

/**
 * A legal move as the list shows it: in the chosen notation, with its ICCS
 * name beside it where that is not the one chosen.
 * @param {Map<string, string>} pieces
 * @param {string} iccs
 * @param {boolean} hexBoard
 */
function legalText(pieces, iccs, hexBoard) {
  const notation = prefs().notation;
  if (hexBoard || notation === "iccs") return iccs;
  const wxf = wxfOf(pieces, iccs);
  if (!wxf) return iccs;
  const red = isRed(pieces.get(iccs.slice(0, 2)) ?? "");
  const shown = notation === "chinese" ? chineseFromWxf(wxf, red) ?? wxf : wxf;
  return `${shown} · ${iccs}`;
}

/**
 * The time left on `color`'s clock now, in ms, or null while it does not run.
 * @param {Game} game
 * @param {Color} color
 */
function timeLeft(game, color) {
  if (game.status !== "active" || game.turn !== color) return null;
  // A live clock that does not run yet (before each side's first move) is no cause for alarm.
  if (game.clocks) return game.clocks.running === color ? game.clocks[color] - (Date.now() - game.clocks.since) : null;
  return game.deadline != null ? game.deadline - Date.now() : null;
}

/**
 * Puts the screen-reader panel at the top of the game page (shown while the
 * mode is on) and answers how to bring it up to date after each change.
 * @param {HTMLElement} view
 * @param {GameController} ctl
 */
export function spokenGame(view, ctl) {
  const hexBoard = ctl.state.game.rules === "hex";
  const geometry = hexBoard ? hex : standard;
  const log = h("div", { class: "spoken-log", id: "spoken-log", role: "log", "aria-live": "polite", "aria-label": t("spoken.log") });
  const toMove = h("p", { id: "spoken-turn" });
  const sides = h("ul", { class: "spoken-sides", id: "spoken-position" });
  const choice = h("select", { id: "spoken-moves", name: "legal" });
  const play = h("button", { type: "submit" }, t("spoken.play"));
  const picker = h("form", { class: "spoken-picker" }, h("label", { for: "spoken-moves" }, t("spoken.moves")), choice, play);
  const panel = h("section", { class: "spoken card", "aria-labelledby": "spoken-title" },
    h("h2", { id: "spoken-title" }, t("spoken.title")),
    h("p", { class: "hint-text" }, t("spoken.help")),
    log,
    h("h3", {}, t("spoken.position")), toMove, sides,
    picker);
  // Before the game's grid, not in it: first to be read, and the layout untouched.
  view.prepend(panel);

  /** What was last heard, to announce only what changed. */
  let heard = { ply: ctl.state.game.ply, status: ctl.state.game.status, check: ctl.state.game.check };
  /** @type {Set<number>} */
  let warned = new Set();

  /** @param {string} text */
  function announce(text) {
    log.append(h("p", {}, text));
    while (log.childElementCount > KEPT) log.firstElementChild?.remove();
  }

  function drawPosition() {
    const game = ctl.state.game;
    const pieces = parseFen(geometry.rows, game.fen);
    toMove.textContent = game.status === "active"
      ? t(game.check ? "spoken.toMoveCheck" : "spoken.toMove", { color: colorName(game.turn, true) })
      : game.outcome ? outcomeText(game.outcome) : t("game.aborted");
    sides.replaceChildren(...(/** @type {Color[]} */ (["red", "black"])).map((color) => {
      const mine = [...pieces].filter(([, letter]) => isRed(letter) === (color === "red"))
        .sort(([a, x], [b, y]) => ORDER.indexOf(x.toLowerCase()) - ORDER.indexOf(y.toLowerCase()) || a.localeCompare(b));
      const list = mine.map(([cell, letter]) => t("spoken.piece", { piece: pieceWord(letter), point: pointText(cell, color, hexBoard) }));
      return h("li", {}, t("spoken.side", { color: colorName(color, true), count: String(mine.length), pieces: list.join(", ") }));
    }));
    const mineToMove = game.status === "active" && ctl.mine() === game.turn && ctl.state.viewing === null;
    const legal = mineToMove ? game.legal : [];
    // The page redraws on any news (a note, a draw offer): the move being looked at stays chosen.
    const kept = choice.value;
    choice.replaceChildren(...(legal.length
      ? legal.map((iccs) => h("option", { value: iccs }, legalText(pieces, iccs, hexBoard)))
      : [h("option", { value: "" }, t("spoken.noMoves"))]));
    if (legal.includes(kept)) choice.value = kept;
    choice.toggleAttribute("disabled", !legal.length);
    play.toggleAttribute("disabled", !legal.length);
  }

  /** Announces what happened since the last update: moves, a check, the end. */
  function update() {
    const game = ctl.state.game;
    if (game.ply > heard.ply) {
      // A set-up position may have Black move first: sides alternate from there.
      const shift = sideToMove(game.start_fen) === "black" ? 1 : 0;
      for (let i = heard.ply; i < game.moves.length; i++) {
        const move = game.moves[i];
        if (!move) continue;
        const by = (i + shift) % 2 === 0 ? "red" : "black";
        const who = by === ctl.mine() ? "spoken.youPlayed" : "spoken.played";
        announce(t(who, { color: colorName(by, true), move: moveText(move, i + shift) }));
      }
      warned = new Set();
    }
    if (game.status === "active" && game.check && (game.ply !== heard.ply || !heard.check)) {
      announce(t(game.turn === ctl.mine() ? "spoken.checkYou" : "spoken.check", { color: colorName(game.turn, true) }));
    }
    if (heard.status === "active" && game.status !== "active") {
      announce(game.outcome ? outcomeText(game.outcome) : t("game.aborted"));
    }
    heard = { ply: game.ply, status: game.status, check: game.check };
    drawPosition();
  }

  /** Warns once at each threshold while the player's own time runs down. */
  function watchClock() {
    const color = ctl.mine();
    if (!color || panel.hidden) return;
    const left = timeLeft(ctl.state.game, color);
    if (left === null || left <= 0) return;
    const live = Boolean(ctl.state.game.clocks);
    // A correspondence move is warned of an hour before its deadline.
    const marks = live ? WARNINGS : [3_600_000];
    const crossed = marks.filter((mark) => left <= mark && !warned.has(mark));
    if (!crossed.length) return;
    for (const mark of crossed) warned.add(mark);
    announce(t("spoken.clock", { time: duration(left) }));
  }

  picker.addEventListener("submit", async (e) => {
    e.preventDefault();
    const move = choice.value;
    if (!move) return;
    await ctl.playTyped(move, (problem) => announce(problem));
  });

  /** Shows or hides the panel as the preference says. */
  function follow() {
    panel.hidden = !prefs().screen_reader;
  }

  follow();
  drawPosition();
  const timer = setInterval(watchClock, 1000);
  return {
    update,
    /** The preferences changed: the mode, the notation or the language of the words. */
    redraw() {
      follow();
      drawPosition();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
