// A game against the computer played on this device alone: the rules and the
// computer (any of its eight levels, on either board) are the WebAssembly
// module's, so the game costs the server nothing, is not rated, and goes on
// with the network gone. The game is kept in this browser, so a reload (or a
// visit days later) finds it where it was.

import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { Board } from "../components/board.js";
import { button, page } from "../components/layout.js";
import { h } from "../dom.js";
import { colorName, outcomeText } from "../format.js";
import { t } from "../i18n.js";
import { localEngine, localRules } from "../local.js";
import { moveText } from "../notation.js";

/** @typedef {import("../models.js").Color} Color */
/** @typedef {import("../models.js").LineAnswer} LineAnswer */

/**
 * The game as kept: its board, the player's colour, the computer's level, the
 * moves (ICCS) and the seed that makes the computer's choices its own.
 * @typedef {{ variant: "standard" | "hex", color: Color, level: number, moves: string[], seed: number, resigned?: boolean }} LocalGame
 */

const KEPT = "xiangqi.localGame";
const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

/** @returns {LocalGame | null} */
function kept() {
  try {
    const g = JSON.parse(localStorage.getItem(KEPT) ?? "null");
    const fits = g && (g.variant === "standard" || g.variant === "hex") && (g.color === "red" || g.color === "black")
      && LEVELS.includes(g.level) && Array.isArray(g.moves) && g.moves.every((/** @type {unknown} */ m) => typeof m === "string");
    return fits ? { ...g, seed: Number(g.seed) || 1 } : null;
  } catch {
    return null;
  }
}

/** @param {LocalGame} game */
function keep(game) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(game));
  } catch {
    // A full or refused storage loses only the resumption.
  }
}

/** @param {HTMLElement} view */
export async function localGamePage(view) {
  const rules = await localRules();
  const worker = await localEngine();
  if (!rules || !worker) {
    page(view, t("local.title"), h("p", { class: "message error", role: "alert" }, t("local.unavailable")),
      h("p", {}, h("a", { href: "#/new" }, t("local.toServer"))));
    return;
  }
  const engine = worker;
  /** @type {LocalGame} */
  let game = kept() ?? { variant: "standard", color: "red", level: 1, moves: [], seed: 1 };
  let thinking = false;
  let alive = true;
  /** Counts the computer's searches, so that one overtaken by a new game is let go. */
  let runs = 0;

  const level = h("select", { name: "level", id: "local-level" },
    LEVELS.map((n) => h("option", { value: String(n) }, t("local.level", { level: n }))));
  const color = h("select", { name: "color", id: "local-color" },
    h("option", { value: "red" }, colorName("red", true)), h("option", { value: "black" }, colorName("black", true)));
  const board = h("select", { name: "variant", id: "local-board" },
    h("option", { value: "standard" }, t("position.standard")), h("option", { value: "hex" }, t("position.hex")));
  const form = h("form", { class: "local-new", id: "local-new" },
    h("label", {}, t("local.levelLabel"), level),
    h("label", {}, t("local.colorLabel"), color),
    h("label", {}, t("local.boardLabel"), board),
    h("button", { type: "submit" }, t("local.newGame")));
  const status = h("p", { class: "status", id: "local-status", role: "status", "aria-live": "polite" });
  const moves = h("p", { class: "local-moves", id: "local-moves" });
  const box = h("div", { class: "board-box" });
  page(view, t("local.title"),
    h("p", { class: "message info", id: "local-note" }, t("local.note")),
    h("div", { class: "local-game" }, box, h("div", { class: "local-side" }, status, moves,
      button(t("local.resign"), () => resign(), { id: "local-resign" }), form)));

  /** @type {Board | null} */
  let drawn = null;

  /** The game's positions, read by the page's rules. @returns {LineAnswer} */
  const line = () => rules.line({ variant: game.variant, rules: game.variant === "hex" ? "hex" : "asian", moves: game.moves });

  function render() {
    const geometry = game.variant === "hex" ? hex : standard;
    if (!drawn || drawn.geometry !== geometry) {
      drawn = new Board(box, geometry, t(geometry === hex ? "board.labelHex" : "board.label"), play);
    }
    const positions = line().positions;
    const at = positions[positions.length - 1];
    if (!at) return;
    const mine = !thinking && !at.outcome && !game.resigned && at.turn === game.color;
    drawn.show({
      fen: at.fen, legal: mine ? at.legal : [], flipped: game.color === "black", mine: mine ? game.color : null,
      last: at.played?.iccs ?? null, check: at.check && !at.outcome ? at.turn : null,
    });
    status.textContent = at.outcome ? outcomeText(at.outcome)
      : game.resigned ? t("local.resigned")
      : thinking ? t("local.thinking", { level: game.level })
      : mine ? t(at.check ? "local.yourMoveCheck" : "local.yourMove")
      : "";
    moves.textContent = positions.slice(1).map((p, i) => (p.played ? moveText(p.played, i) : "")).join(" ");
    level.value = String(game.level);
    color.value = game.color;
    board.value = game.variant;
    return at;
  }

  /** The computer moves if it is its turn. */
  async function answer() {
    const at = render();
    if (!at || at.outcome || game.resigned || at.turn === game.color || thinking) return;
    thinking = true;
    const run = ++runs;
    render();
    const asked = game;
    try {
      const found = await engine.ask({
        op: "computer_move", variant: asked.variant, rules: asked.variant === "hex" ? "hex" : "asian",
        moves: asked.moves, level: asked.level, seed: asked.seed,
      });
      if (run === runs && found.move) {
        game = { ...game, moves: [...game.moves, found.move.iccs] };
        keep(game);
      }
    } catch {
      // Stopped: a new game began meanwhile, or the page was left.
    }
    if (run !== runs || !alive) return;
    thinking = false;
    render();
  }

  /** Ends the computer's search under way, if any. */
  function halt() {
    if (thinking) engine.stop();
    thinking = false;
    runs++;
  }

  /** @param {string} move */
  function play(move) {
    if (thinking || game.resigned) return;
    game = { ...game, moves: [...game.moves, move] };
    keep(game);
    answer();
  }

  function resign() {
    halt();
    game = { ...game, resigned: true };
    keep(game);
    render();
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    halt();
    const variant = board.value === "hex" ? "hex" : "standard";
    game = {
      variant, color: color.value === "black" ? "black" : "red", level: Number(level.value) || 1, moves: [],
      seed: Math.floor(Math.random() * 2 ** 31) + 1,
    };
    keep(game);
    answer();
  });

  answer();
  return () => {
    alive = false;
    halt();
  };
}
