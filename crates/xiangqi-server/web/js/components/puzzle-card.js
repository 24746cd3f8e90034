// A player's puzzle ratings, rating chart and latest attempts, as a card for
// their profile; and the name of a puzzle board, which the puzzle pages share.

import * as api from "../api.js";
import { card } from "./layout.js";
import { ratingChart } from "./ratings.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { puzzleLink } from "../links.js";

/** @typedef {import("../api-types.js").PuzzleStandingView} PuzzleStandingView */
/** @typedef {import("../api-types.js").PuzzleView["variant"]} Variant */

/** @param {Variant} variant */
export const boardName = (variant) => t(variant === "hex" ? "rules.hex" : "puzzle.standard");

/**
 * A player's puzzle ratings, rating chart and latest attempts, for their profile.
 * @param {string} name
 */
export async function puzzleCard(name) {
  /** @type {PuzzleStandingView} */
  const s = await api.call("GET", `${api.userPath(name)}/puzzles?limit=100`);
  const points = s.attempts.filter((a) => typeof a.rating === "number").reverse()
    .map((a) => ({ at: a.at, rating: /** @type {number} */ (a.rating), deviation: 0, game: a.puzzle }));
  return card(t("puzzle.profile"),
    s.ratings.length === 0 ? h("p", { class: "muted" }, t("puzzle.noneTried")) : h("ul", { class: "puzzle-ratings" },
      s.ratings.map((r) => h("li", {}, boardName(r.variant), ": ", h("strong", {}, String(r.rating)),
        r.provisional ? "?" : "", " · ", t("puzzle.tally", { solved: r.solved, attempts: r.attempts, streak: r.best_streak })))),
    points.length > 1 ? ratingChart(points, t("puzzle.chart")) : null,
    s.attempts.length === 0 ? null : h("ul", { class: "puzzle-history" }, s.attempts.slice(0, 10).map((a) =>
      h("li", {}, h("a", { href: puzzleLink(a.puzzle) }, t(a.result === "solved" ? "puzzle.result.solved" : "puzzle.result.failed")),
        " · ", t("puzzle.rating", { rating: a.puzzle_rating }),
        a.rating !== null && a.rating !== undefined ? [" · ", t("puzzle.after", { rating: a.rating })] : null))));
}
