// Conditional moves, made on the analysis board of one's own correspondence
// game while the opponent is to move: the player plays a line on the board
// from the game's position (the opponent's move, then the answer, and on if
// they like) and adds it. The server keeps the lines privately and, the
// moment the opponent's move begins one, plays its answer in the same write;
// any other move drops them all. What the server kept is shown as it kept it.

import { button } from "../../components/layout.js";
import { h } from "../../dom.js";
import { errorText } from "../../errors.js";
import { t } from "../../i18n.js";
import { moveText } from "../../notation.js";
import { myColor } from "../../state.js";
import { readConditionals, saveConditionals } from "./endpoints.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../api-types.js").MoveNamesView} MoveNames */

/**
 * Whether the panel belongs on a game's analysis board: my correspondence
 * game, still being played.
 * @param {Game} game
 */
export const takesConditionals = (game) =>
  game.status === "active" && game.speed === "correspondence" && myColor(game) !== null;

/**
 * @param {object} o
 * @param {Game} o.game  as it was when the board opened
 * @param {() => string[]} o.path  the moves from the game's start to the position shown (ICCS)
 */
export function conditionalsPanel({ game, path }) {
  const color = myColor(game);
  const waiting = color !== null && game.turn !== color;
  /** @type {MoveNames[][]} */
  let lines = [];
  const list = h("ol", { class: "conditional-lines", id: "conditional-lines" });
  const status = h("p", { class: "status", id: "conditional-status", role: "status" });
  const problem = h("p", { class: "message error", id: "conditional-error", role: "alert", hidden: true });
  const add = button(t("conditional.add"), () => save([...lines.map((l) => l.map((m) => m.iccs)), lineShown() ?? []]),
    { id: "conditional-add" });
  const clear = button(t("conditional.clear"), () => save([]), { id: "conditional-clear" });
  const element = h("section", { class: "card conditionals", id: "conditionals", "aria-labelledby": "conditionals-title" },
    h("h2", { id: "conditionals-title" }, t("conditional.title")),
    h("p", { class: "muted" }, waiting ? t("conditional.how") : t("conditional.yourMove")),
    list, status, h("div", { class: "buttons" }, add, clear), problem);

  /** The line from the game's position to the one shown, if the board is there. */
  function lineShown() {
    const moves = path();
    const played = game.moves.map((m) => m.iccs);
    if (moves.length < played.length || played.some((m, i) => moves[i] !== m)) return null;
    return moves.slice(played.length);
  }

  /** @param {string[][]} sent */
  async function save(sent) {
    problem.hidden = true;
    try {
      lines = (await saveConditionals(game.id, game.ply, sent)).lines;
      draw();
    } catch (err) {
      problem.textContent = errorText(err);
      problem.hidden = false;
    }
  }

  function draw() {
    const firstPly = game.ply;
    list.replaceChildren(...lines.map((line, i) => h("li", { "data-line": i },
      h("span", { class: "conditional-moves" }, line.map((m, j) => moveText(m, firstPly + j)).join(" ")), " ",
      button(t("conditional.remove"), () => save(lines.filter((_, k) => k !== i).map((l) => l.map((m) => m.iccs))),
        { class: "link-button", "aria-label": t("conditional.removeLine", { number: i + 1 }) }))));
    list.hidden = lines.length === 0;
    clear.hidden = lines.length === 0;
    follow();
  }

  /** Says whether the position shown can be added, and why not. */
  function follow() {
    if (!waiting) {
      add.hidden = true;
      clear.hidden = true;
      status.textContent = "";
      return;
    }
    const line = lineShown();
    const ready = line !== null && line.length > 0 && line.length % 2 === 0;
    add.hidden = false;
    add.toggleAttribute("disabled", !ready);
    status.textContent = line === null ? t("conditional.fromGame")
      : line.length === 0 ? t("conditional.start")
      : line.length % 2 === 1 ? t("conditional.endWithAnswer")
      : t("conditional.ready", { count: line.length });
  }

  return {
    element,
    /** Reads what is kept now. */
    async load() {
      if (!waiting) return follow();
      try {
        lines = (await readConditionals(game.id)).lines;
      } catch (err) {
        problem.textContent = errorText(err);
        problem.hidden = false;
      }
      draw();
    },
    /** The board shows another position. */
    follow,
    /** The notation changed. */
    redraw: draw,
  };
}
