// A finished game's review on its page: the button that asks for it, its
// progress while the server's engines evaluate each position, then the
// evaluation graph (click a point to see that move), each side's count of
// inaccuracies, mistakes and blunders with a legend, and the marks the move
// list shows beside each move.

import * as api from "../api.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { moveText } from "../notation.js";
import { currentUser } from "../state.js";
import { MARKS, evalGraph, scoreText } from "./evaluation.js";
import { button } from "./layout.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").Review} Review */
/** @typedef {import("../models.js").MoveClass} MoveClass */
/** @typedef {import("../models.js").ClassCounts} ClassCounts */

/** How often a pending review is asked after. */
const POLL_MS = 1000;

/**
 * The review part of a finished game's page.
 * @param {Game} game
 * @param {{ shown: () => number | null, onPick: (ply: number) => void, onMarks: (marks: Map<number, MoveClass>, better: Map<number, string>) => void }} hooks
 *   `shown`: the move the page shows; `onPick`: show a move; `onMarks`: the move classes by ply, for the move
 *   list, and the engine's move (ICCS) in place of each inaccuracy, mistake and blunder, for the board's arrow
 */
export function reviewPanel(game, hooks) {
  const box = h("section", { class: "review card", id: "review", "aria-label": t("review.title") });
  /** @type {Review | null} */
  let review = null;
  let error = "";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let gone = false;

  async function ask() {
    if (gone) return;
    error = "";
    try {
      const answer = /** @type {{ review: Review | null }} */ (await api.call("POST", `${api.gamePath(game.id)}/review`));
      review = answer.review;
    } catch (err) {
      error = errorText(err);
    }
    draw();
    poll();
  }

  async function load() {
    try {
      const answer = /** @type {{ review: Review | null }} */ (await api.call("GET", `${api.gamePath(game.id)}/review`));
      review = answer.review;
    } catch (err) {
      error = errorText(err);
    }
    if (gone) return;
    draw();
    poll();
  }

  /**
   * While it is pending, asks again; a logged-in user asks with POST, which
   * also resumes a review whose server stopped (a live one is left alone).
   */
  function poll() {
    clearTimeout(timer);
    if (!gone && review?.status === "pending") timer = setTimeout(currentUser() ? ask : load, POLL_MS);
  }

  /** @param {string} side  "red" or "black" @param {ClassCounts} c */
  const countRow = (side, c) => h("tr", { "data-side": side },
    h("th", { scope: "row" }, t(side === "red" ? "color.Red" : "color.Black")),
    h("td", { "data-class": "inaccuracy" }, c.inaccuracy), h("td", { "data-class": "mistake" }, c.mistake), h("td", { "data-class": "blunder" }, c.blunder));

  function draw() {
    if (gone) return;
    /** @type {Element[]} */
    const parts = [h("h2", {}, t("review.title"))];
    if (!review) {
      parts.push(currentUser()
        ? button(t("review.request"), () => ask(), { class: "primary", id: "review-request", "data-action": "review" })
        : h("p", { class: "muted" }, t("review.logIn")));
    } else if (review.status === "pending") {
      parts.push(h("p", { class: "muted", id: "review-progress", role: "status" }, t("review.pending", { done: review.done, total: review.total })));
    }
    if (review && review.positions.length) {
      /** @type {Map<number, MoveClass>} */
      const classes = new Map(review.moves.map((m) => [m.ply, m.class]));
      /** @type {Map<number, string>} */
      const better = new Map();
      for (const m of review.moves) if (m.class !== "good" && m.best) better.set(m.ply, m.best.iccs);
      hooks.onMarks(classes, better);
      parts.push(evalGraph(review.positions, classes, hooks.shown(), (ply) => hooks.onPick(ply)));
      const th = review.thresholds;
      parts.push(h("table", { class: "review-counts", id: "review-counts" },
        h("caption", { class: "sr-only" }, t("review.counts")),
        h("tr", {}, h("th", {}, ""),
          h("th", { scope: "col", title: t("review.inaccuracyMeans", { points: th.inaccuracy }) }, h("span", { class: "mark" }, "?!"), t("review.inaccuracy")),
          h("th", { scope: "col", title: t("review.mistakeMeans", { points: th.mistake }) }, h("span", { class: "mark" }, "?"), t("review.mistake")),
          h("th", { scope: "col", title: t("review.blunderMeans", { points: th.blunder }) }, h("span", { class: "mark" }, "??"), t("review.blunder"))),
        countRow("red", review.red), countRow("black", review.black)));
      parts.push(h("p", { class: "muted small review-legend", id: "review-legend" },
        t("review.legend", { inaccuracy: th.inaccuracy, mistake: th.mistake, blunder: th.blunder })));
      const shown = hooks.shown();
      const judged = review.moves.find((m) => m.ply === shown);
      const at = review.positions.find((p) => p.ply === shown);
      if (judged && at) {
        const played = moveText(judged.played, judged.ply - 1);
        const best = judged.best ? moveText(judged.best, judged.ply - 1) : "";
        parts.push(h("p", { class: `review-move ${judged.class}`, id: "review-move", role: "status" },
          t("review.moveSays", { move: `${Math.ceil(judged.ply / 2)}${judged.ply % 2 ? "." : "…"} ${played}${MARKS[judged.class]}`, score: scoreText(at.red) }),
          judged.class !== "good" && best ? ` ${t("review.best", { move: best })}` : ""));
      }
    }
    if (error) parts.push(h("p", { class: "message error", id: "review-error", role: "alert" }, error));
    // A point picked with the keyboard keeps the focus through the redraw.
    const focused = document.activeElement;
    const ply = focused instanceof SVGElement && box.contains(focused) ? focused.dataset["ply"] : undefined;
    box.replaceChildren(...parts);
    if (ply !== undefined) {
      const again = box.querySelector(`.graph-point[data-ply="${ply}"]`);
      if (again instanceof SVGElement) again.focus();
    }
  }

  draw();
  load();
  return {
    element: box,
    /** Draws again (the page shows another move, the notation changed). */
    redraw: draw,
    stop() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
