// The puzzle page drawn: the mode bar, the board, and beside it the streak,
// what to do now, the hint and skip buttons, the solution after the attempt
// and the puzzle's facts. The controller says what to show.

import { Board } from "../../components/board.js";
import { hex } from "../../components/board-hex.js";
import { standard } from "../../components/board-standard.js";
import { button, page } from "../../components/layout.js";
import { boardName } from "../../components/puzzle-card.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { gameLink, mastersLink, puzzleLink, puzzlesLink } from "../../links.js";
import { modeBar, themeName } from "./modes.js";

/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */
/** @typedef {import("../../api-types.js").LinePosition} LinePosition */
/** @typedef {import("./modes.js").Mode} Mode */

/**
 * What the board shows: the position, the solver's side, the last move, the
 * hinted point, and whether the solver may move now.
 * @typedef {object} Shown
 * @property {PuzzleView} puzzle
 * @property {LinePosition} at
 * @property {string | null} last
 * @property {string | null} hinted
 * @property {boolean} ended
 * @property {boolean} busy
 */

/**
 * @param {HTMLElement} view
 * @param {Mode} mode
 */
export function puzzleView(view, mode) {
  const status = h("p", { class: "message info puzzle-status", role: "status", "aria-live": "polite" });
  const info = h("div", { class: "puzzle-info" });
  const controls = h("div", { class: "puzzle-controls" });
  const after = h("div", { class: "puzzle-after" });
  const boardBox = h("div", { class: "board-box puzzle-board" });
  const streakBox = h("p", { class: "puzzle-streak", "aria-live": "polite" });
  page(view, t(mode.kind === "daily" ? "puzzle.daily" : mode.kind === "streak" ? "puzzle.streak" : "puzzle.title"),
    modeBar(mode),
    h("div", { class: "puzzle-layout" }, boardBox,
      h("div", { class: "puzzle-side" }, streakBox, status, controls, after, info)));

  /** @type {Board | null} */
  let board = null;

  return {
    /** What to do now, or what happened. @param {string} text @param {string} [kind] */
    say(text, kind = "info") {
      status.className = `message ${kind} puzzle-status`;
      status.textContent = text;
    },

    /** A fresh board for a puzzle. @param {PuzzleView} p @param {(move: string) => void} choose */
    newBoard(p, choose) {
      after.replaceChildren();
      board = new Board(boardBox, p.variant === "hex" ? hex : standard, t("puzzle.boardLabel"), choose);
    },

    /** @param {Shown | null} s */
    draw(s) {
      if (!board || !s) return;
      const { at, puzzle, ended, busy, hinted, last } = s;
      board.show({
        fen: at.fen, legal: ended || busy ? [] : at.legal, flipped: puzzle.solver === "black", last,
        mine: ended ? null : puzzle.solver, check: at.check ? at.turn : null, dots: hinted ? [hinted] : [],
        mated: at.outcome?.reason === "checkmate" ? at.turn : null,
      });
    },

    focusBoard() {
      board?.focus();
    },

    /** The hint button, and skip where the mode hands out puzzles. @param {() => void} hint @param {() => void} skip */
    controls(hint, skip) {
      controls.replaceChildren(
        button(t("puzzle.hint"), hint, { class: "secondary" }),
        ...(mode.kind === "next" || mode.kind === "theme" ? [button(t("puzzle.skip"), skip, { class: "secondary" })] : []));
    },

    /** The puzzle's facts. @param {PuzzleView} p */
    info(p) {
      info.replaceChildren(
        h("dl", { class: "puzzle-facts" },
          h("dt", {}, t("puzzle.difficulty")), h("dd", {}, t("puzzle.rating", { rating: p.rating })),
          h("dt", {}, t("puzzle.board")), h("dd", {}, boardName(p.variant)),
          h("dt", {}, t("puzzle.played")), h("dd", {}, p.solved_percent === null || p.solved_percent === undefined
            ? tn("puzzle.plays", p.plays)
            : t("puzzle.playsSolved", { plays: tn("puzzle.plays", p.plays), percent: p.solved_percent })),
          h("dt", {}, t("puzzle.themes")), h("dd", { class: "puzzle-themes" },
            p.themes.map((x) => h("a", { class: "tag", href: puzzlesLink("theme", p.variant, x) }, themeName(x))))),
        ...(p.game ? [h("p", {}, h("a", { href: gameLink(p.game) }, t("puzzle.fromGame")))] : []),
        ...(p.masters_game ? [h("p", {}, h("a", { href: mastersLink(p.masters_game) }, t("puzzle.fromMasters")))] : []),
        h("p", { class: "muted" }, h("a", { href: puzzleLink(p.id) }, t("puzzle.link"))));
    },

    /** The attempt is over: no more hints. */
    clearControls() {
      controls.replaceChildren();
    },

    /**
     * After the attempt: the solution, the rating change (not in a streak),
     * the next puzzle and the position on the analysis board.
     * @param {{ words: string[], change: string | null, next: (() => void) | null, analysis: string }} done
     */
    solution({ words, change, next, analysis }) {
      after.replaceChildren(
        h("p", { class: "puzzle-solution" }, h("strong", {}, t("puzzle.solution")), " ", words.join(" ")),
        ...(change === null ? [] : [h("p", { class: "muted" }, change)]),
        h("div", { class: "actions" },
          next ? [button(t("puzzle.next"), next)] : [],
          h("a", { class: "button-link", href: analysis }, t("puzzle.analysis"))));
      after.querySelector("button")?.focus();
    },

    /** @param {number} count  puzzles solved in the streak */
    streakSolved(count) {
      streakBox.textContent = t("puzzle.streakSolved", { count });
    },

    /**
     * Before a streak: what it is, and the button that starts it (its clock,
     * and the count of streaks an hour allows, start there, not on arrival).
     * @param {() => void} go
     */
    streakStart(go) {
      const start = button(t("puzzle.streakStart"), () => {
        after.replaceChildren();
        go();
      }, { id: "streak-start" });
      after.replaceChildren(h("p", { class: "muted" }, t("puzzle.streakIntro")),
        h("div", { class: "actions" }, start));
      start.focus();
    },

    /** The streak is over: a button to start another. @param {() => void} again */
    streakAgain(again) {
      after.append(h("div", { class: "actions" }, button(t("puzzle.streakAgain"), again)));
    },

    /** A streak's clock after its count; answers a function that sets the seconds left. */
    streakClock() {
      const clock = h("span", { class: "puzzle-clock", role: "timer" });
      streakBox.after(clock);
      return (/** @type {number} */ seconds) => { clock.textContent = t("puzzle.streakLeft", { seconds }); };
    },
  };
}

/** @typedef {ReturnType<typeof puzzleView>} PuzzleViewApi */
