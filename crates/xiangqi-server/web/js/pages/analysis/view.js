// The analysis board as drawn: the board with the evaluation bar beside it;
// at the side the engine panel, where the position stands, the buttons that
// step through the moves, the tree of moves, a FEN to load (and the board it is
// on), and the position editor in place of all that while a position is set up.
// The arrow keys step through the moves unless something else takes them.
// The state, and what is asked of the server, are analysis/controller.js's.

import { Board } from "../../components/board.js";
import { hex } from "../../components/board-hex.js";
import { button, page } from "../../components/layout.js";
import { h } from "../../dom.js";
import { colorName, outcomeText } from "../../format.js";
import { t } from "../../i18n.js";
import { enginePanel } from "../../components/engine-panel.js";
import { explorerPanel } from "./explorer-panel.js";
import { BOARDS, RULES } from "./controller.js";
import { positionEditor } from "./position-editor.js";
import { drawTree } from "../../components/move-tree-view.js";

/** @typedef {import("./controller.js").AnalysisController} AnalysisController */

/**
 * Builds the page in `view`; answers how to draw it anew and how to stop what
 * it runs (the engine, the keys).
 * @param {HTMLElement} view
 * @param {AnalysisController} ctl
 */
export function analysisView(view, ctl) {
  const { state } = ctl;
  const boardBox = h("div", { class: "board-box" });
  const engine = enginePanel({
    position: () => {
      const tree = state.tree;
      const current = tree?.current;
      return {
        variant: state.variant, rules: state.rules, fen: tree?.root.at.fen ?? "", moves: tree && current ? tree.path(current) : [],
        over: current?.at.outcome, half: tree && current ? tree.half(current) : 0,
      };
    },
    arrows: (arrows) => board.setArrows(arrows),
  });
  const positionStatus = h("p", { class: "status", id: "position-status", role: "status" });
  const explorer = explorerPanel({
    position: () => {
      const at = state.tree?.current.at;
      return at ? { variant: state.variant, fen: at.fen, turn: at.turn } : null;
    },
    play: async (iccs) => {
      const problem = await ctl.play(iccs);
      if (problem) positionStatus.textContent = problem;
    },
  });
  const tree = h("div", { class: "tree", id: "tree", "aria-label": t("analysis.moves") });
  const navButtons = h("div", { class: "buttons tree-nav" },
    button("«", ctl.first, { id: "nav-first", "aria-label": t("analysis.first") }),
    button("‹", ctl.back, { id: "nav-back", "aria-label": t("analysis.back") }),
    button("›", ctl.forward, { id: "nav-forward", "aria-label": t("analysis.forward") }),
    button("»", ctl.last, { id: "nav-last", "aria-label": t("analysis.last") }),
    button(t("game.flip"), ctl.flip, { id: "flip" }));
  const fenInput = h("input", { name: "fen", id: "fen", spellcheck: "false", autocomplete: "off" });
  const boardChoice = h("select", { id: "board-choice", "aria-label": t("analysis.board") },
    h("option", { value: "standard" }, t("position.standard")), h("option", { value: "hex" }, t("position.hex")));
  const fenError = h("p", { class: "message error", id: "fen-error", role: "alert", hidden: true });
  const fenForm = h("form", { class: "fen-form", id: "fen-form" },
    h("label", {}, t("position.fen"), fenInput),
    boardChoice,
    h("button", { type: "submit" }, t("analysis.load")),
    button(t("analysis.setUp"), () => enterSetup(), { id: "setup-start" }),
    fenError);
  const editor = positionEditor({
    geometry: () => state.geometry,
    changed: () => render(),
    announce: (text) => board.announce(text),
    async done(fen) {
      const answer = await ctl.line(fen, []);
      leaveSetup();
      ctl.plant(answer, 0);
    },
    cancel() {
      leaveSetup();
      render();
    },
  });
  const side = h("aside", { class: "analysis-side" }, engine.element, positionStatus, navButtons, tree, explorer.element, fenForm, editor.element);
  page(view, t("analysis.title"), h("div", { class: "analysis" }, h("div", { class: "analysis-board" }, engine.bar, boardBox), side));

  /** @type {Board} */
  let board = makeBoard();

  function makeBoard() {
    return new Board(boardBox, state.geometry, t(state.geometry === hex ? "board.labelHex" : "board.label"), async (move) => {
      const problem = await ctl.play(move);
      if (problem) positionStatus.textContent = problem;
    });
  }

  /** Makes the board component for the board now chosen, if it changed. */
  function boardInstance() {
    if (board.geometry === state.geometry) return;
    board = makeBoard();
    if (editor.active()) board.onCell = editor.place;
  }

  function render() {
    boardInstance();
    if (editor.active()) {
      const fen = editor.fen();
      board.show({ fen, flipped: state.flipped });
      fenInput.value = fen;
      return;
    }
    const current = state.tree?.current;
    if (!state.tree || !current) return;
    const at = current.at;
    board.show({
      fen: at.fen, legal: at.legal, flipped: state.flipped, last: at.played?.iccs ?? null,
      mine: at.outcome ? null : at.turn, check: at.check ? at.turn : null,
    });
    fenInput.value = at.fen;
    boardChoice.value = state.variant;
    positionStatus.textContent = at.outcome
      ? outcomeText(at.outcome)
      : t(at.check ? "analysis.toMoveCheck" : "analysis.toMove", { color: colorName(at.turn, true) });
    positionStatus.classList.toggle("check", at.check && !at.outcome);
    drawTree(tree, state.tree, ctl.goTo);
    engine.draw();
    explorer.follow();
  }

  /** The parts that step through the moves, hidden while a position is set up. */
  const moving = [engine.element, navButtons, tree, positionStatus, explorer.element];

  function enterSetup() {
    engine.clear();
    const at = state.tree?.current.at;
    if (!at) return;
    ctl.edit(true);
    editor.enter(at.fen, at.turn);
    board.onCell = editor.place;
    for (const part of moving) part.hidden = true;
    render();
    editor.focus();
  }

  function leaveSetup() {
    ctl.edit(false);
    editor.leave();
    board.onCell = null;
    for (const part of moving) part.hidden = false;
  }

  fenForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = boardChoice.value === "hex" ? "hex" : "standard";
    const problem = await ctl.loadFen(chosen, chosen === state.variant ? state.rules : RULES[chosen], fenInput.value);
    if (problem) boardChoice.value = state.variant;
    fenError.textContent = problem;
    fenError.hidden = !problem;
  });
  boardChoice.addEventListener("change", async () => {
    const chosen = boardChoice.value === "hex" ? "hex" : "standard";
    if (chosen === state.variant) return;
    if (editor.active()) {
      ctl.setBoard(chosen);
      editor.clear();
      render();
      return;
    }
    const problem = await ctl.loadFen(chosen, RULES[chosen], BOARDS[chosen].startFen);
    if (problem) boardChoice.value = state.variant;
    fenError.textContent = problem;
    fenError.hidden = !problem;
  });

  /** @param {KeyboardEvent} e */
  function keys(e) {
    const target = e.target;
    if (state.editing || e.altKey || e.ctrlKey || e.metaKey) return;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof SVGElement) return;
    const act = { ArrowLeft: ctl.back, ArrowRight: ctl.forward, Home: ctl.first, End: ctl.last }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  }

  return {
    /** @param {boolean} moved  another position is shown: the engine follows it */
    render(moved) {
      render();
      if (moved) engine.follow();
    },
    /** Starts taking the keys (once there are moves to step through). */
    listen() {
      document.addEventListener("keydown", keys);
    },
    /** Draws the words and pieces anew (the preferences changed). */
    redraw() {
      if (editor.active()) editor.draw();
      else if (state.tree) {
        drawTree(tree, state.tree, ctl.goTo);
        engine.draw();
      }
    },
    stop() {
      document.removeEventListener("keydown", keys);
      engine.stop();
      explorer.stop();
    },
  };
}
