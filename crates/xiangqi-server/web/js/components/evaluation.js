// The engine's evaluations as the site shows them: a score in words (from
// Red's view: +1.20 means Red is better by about a soldier and a fifth, #3 a
// mate in 3 for Red, #-3 for Black), a bar that fills with Red's share, and a
// game review's graph over the moves.

import { svg } from "../dom.js";
import { colorName, moveNumber, plySide } from "../format.js";
import { t } from "../i18n.js";

/** @typedef {import("../models.js").Score} Score */
/** @typedef {import("../models.js").ReviewedPosition} ReviewedPosition */
/** @typedef {import("../models.js").MoveClass} MoveClass */

/** Beyond this many centipawns a side is winning: the bar and the graph stop there. */
export const CLAMP = 1000;

/**
 * A score from Red's view, short: "+0.35", "-1.20", "#3", "#-2", "1-0".
 * @param {Score} s
 */
export function scoreText(s) {
  switch (s.kind) {
    case "cp": return `${s.value > 0 ? "+" : s.value < 0 ? "−" : ""}${(Math.abs(s.value) / 100).toFixed(2)}`;
    case "mate": return s.value > 0 ? `#${s.value}` : `#−${-s.value}`;
    case "won": return "1-0";
    case "lost": return "0-1";
    default: return "½-½";
  }
}

/**
 * A score from Red's view in words, for screen readers and titles.
 * @param {Score} s
 */
export function scoreWords(s) {
  switch (s.kind) {
    case "cp": return t("eval.cp", { value: scoreText(s) });
    case "mate": return t(s.value > 0 ? "eval.redMates" : "eval.blackMates", { moves: Math.abs(s.value) });
    case "won": return t("eval.redWon");
    case "lost": return t("eval.blackWon");
    default: return t("eval.drawn");
  }
}

/**
 * Red's view clamped to ±CLAMP centipawns, a mate or a result at the limit.
 * @param {Score} s
 */
export function clamped(s) {
  switch (s.kind) {
    case "cp": return Math.max(-CLAMP, Math.min(CLAMP, s.value));
    case "mate": return s.value > 0 ? CLAMP : -CLAMP;
    case "won": return CLAMP;
    case "lost": return -CLAMP;
    default: return 0;
  }
}

/** A bar across the board's top whose red part, from the left, is Red's share. */
export function evalBar() {
  const bar = svg("svg", { viewBox: "0 0 1000 20", preserveAspectRatio: "none", class: "eval-bar", id: "eval-bar",
    role: "meter", "aria-label": t("eval.bar"), "aria-valuemin": -CLAMP / 100, "aria-valuemax": CLAMP / 100, "aria-valuenow": 0 });
  svg("rect", { x: 0, y: 0, width: 1000, height: 20, class: "eval-black" }, bar);
  const red = svg("rect", { x: 0, y: 0, width: 500, height: 20, class: "eval-red" }, bar);
  svg("line", { x1: 500, x2: 500, y1: 0, y2: 20, class: "eval-middle" }, bar);
  return {
    element: bar,
    /** @param {Score | null} s  from Red's view; null: unknown */
    set(s) {
      const cp = s ? clamped(s) : 0;
      red.setAttribute("width", String(500 + (cp / CLAMP) * 500));
      bar.setAttribute("aria-valuenow", String(cp / 100));
      bar.setAttribute("aria-valuetext", s ? scoreWords(s) : t("eval.none"));
      bar.classList.toggle("unknown", !s);
    },
  };
}

/** Marks of the move classes, as annotators write them. @type {Record<MoveClass, string>} */
export const MARKS = { good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };

const W = 600, H = 180, PAD = 8;

/**
 * A review's evaluation graph: Red's clamped evaluation after each move, above
 * the middle line when Red is better. Each point is a control (click, Enter or
 * Space) that calls `onPick` with its ply; points of marked moves are coloured.
 * @param {ReviewedPosition[]} positions
 * @param {Map<number, MoveClass>} classes  by ply
 * @param {number | null} current  the ply shown now
 * @param {(ply: number) => void} onPick
 */
export function evalGraph(positions, classes, current, onPick) {
  const last = Math.max(1, positions.length - 1);
  const x = (/** @type {number} */ ply) => PAD + (ply / last) * (W - 2 * PAD);
  const y = (/** @type {number} */ cp) => H / 2 - (cp / CLAMP) * (H / 2 - PAD);
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", id: "eval-graph", role: "group", "aria-label": t("review.graph") });
  svg("rect", { x: 0, y: 0, width: W, height: H, class: "graph-ground" }, graph);
  for (const cp of [500, -500]) svg("line", { x1: 0, x2: W, y1: y(cp), y2: y(cp), class: "graph-grid" }, graph);
  svg("line", { x1: 0, x2: W, y1: y(0), y2: y(0), class: "graph-middle" }, graph);
  const points = positions.map((p) => `${x(p.ply).toFixed(1)},${y(p.red_cp).toFixed(1)}`);
  if (positions.length) {
    const first = positions[0], end = positions[positions.length - 1];
    if (first && end) {
      svg("polygon", { points: `${x(first.ply)},${y(0)} ${points.join(" ")} ${x(end.ply)},${y(0)}`, class: "graph-area" }, graph);
    }
    svg("polyline", { points: points.join(" "), class: "graph-line" }, graph);
  }
  for (const label of [["+10", y(CLAMP) + 12], ["0", y(0) - 4], ["−10", y(-CLAMP) - 4]]) {
    svg("text", { x: 4, y: label[1] ?? 0, class: "graph-label" }, graph).textContent = String(label[0]);
  }
  for (const p of positions) {
    const cls = classes.get(p.ply) ?? "good";
    const dot = svg("circle", {
      cx: x(p.ply), cy: y(p.red_cp), r: cls === "good" ? 4 : 6, tabindex: 0, role: "button",
      class: `graph-point ${cls}${p.ply === current ? " current" : ""}`, "data-ply": p.ply,
      "aria-label": (p.ply === 0 ? t("review.pointStart", { score: scoreWords(p.red) })
        : t("review.point", { number: moveNumber(p.ply), color: colorName(plySide(p.ply), true), score: scoreWords(p.red) })) + (MARKS[cls] ? ` ${MARKS[cls]}` : ""),
    }, graph);
    svg("title", {}, dot).textContent = `${moveNumber(p.ply)}${p.ply % 2 ? "." : "…"} ${scoreText(p.red)}${MARKS[cls] ? ` ${MARKS[cls]}` : ""}`;
    dot.addEventListener("click", () => onPick(p.ply));
    dot.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onPick(p.ply);
      }
    });
  }
  return graph;
}
