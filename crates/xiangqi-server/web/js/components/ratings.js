// Ratings: the names of the categories, a rating with its provisional mark, and
// a player's rating history as a chart (a line through the ratings after each
// rated game, the deviation shaded around it) with the numbers as a table.

import * as api from "../api.js";
import { h, svg } from "../dom.js";
import { errorText } from "../errors.js";
import { date, isTextKey, t, tn } from "../i18n.js";

/** @typedef {import("../models.js").Category} Category */
/** @typedef {import("../models.js").RatingView} RatingView */
/** @typedef {import("../models.js").HistoryPoint} HistoryPoint */
/** @typedef {import("../models.js").HistoryAnswer} HistoryAnswer */
/** @typedef {import("../models.js").Game} Game */

/** @type {Category[]} */
export const CATEGORIES = ["standard_correspondence", "standard_live", "hex_correspondence", "hex_live"];

/**
 * Whether a name the address carries is a category.
 * @param {string} name
 * @returns {name is Category}
 */
export const isCategory = (name) => CATEGORIES.some((c) => c === name);

/**
 * A category's name in the user's language.
 * @param {string} category
 */
export function categoryName(category) {
  const key = `category.${category}`;
  return isTextKey(key) ? t(key) : category;
}

/**
 * The category a game is rated in: its board and its pace.
 * @param {Game} game
 * @returns {Category}
 */
export function gameCategory(game) {
  const board = game.variant === "hex" || game.rules === "hex" ? "hex" : "standard";
  return game.clock.kind === "live" ? `${board}_live` : `${board}_correspondence`;
}

/**
 * A rating, with a "?" after it while it is provisional (its meaning in a
 * tooltip, and in words for a screen reader).
 * @param {number} rating
 * @param {boolean} provisional
 */
export function ratingMark(rating, provisional) {
  return h("span", { class: provisional ? "rating is-provisional" : "rating" }, String(rating),
    provisional ? h("abbr", { class: "provisional", title: t("ratings.provisionalTitle"), "aria-hidden": "true" }, "?") : null,
    provisional ? h("span", { class: "sr-only" }, t("ratings.provisionalSr")) : null);
}

/**
 * A table of a player's ratings, one row per category.
 * @param {RatingView[]} ratings
 */
export function ratingsTable(ratings) {
  return h("table", { class: "ratings-table" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("ratings.category")), h("th", { scope: "col", class: "num" }, t("ratings.rating")),
      h("th", { scope: "col", class: "num" }, t("ratings.games")))),
    h("tbody", {}, ratings.map((r) => h("tr", { "data-category": r.category },
      h("th", { scope: "row" }, categoryName(r.category)),
      h("td", { class: "num" }, ratingMark(r.rating, r.provisional),
        h("span", { class: "deviation muted small", title: t("ratings.deviation") }, t("ratings.plusMinus", { deviation: r.deviation }))),
      h("td", { class: "num" }, r.games)))));
}

/** A step between rating ticks that gives at most five of them. */
const STEPS = [25, 50, 100, 200, 250, 500, 1000];

/**
 * Up to `count` indexes spread over `n` points, first and last included.
 * @param {number} n
 * @param {number} count
 */
function spread(n, count) {
  if (n <= 1) return [0];
  const out = new Set();
  for (let k = 0; k < count; k++) out.add(Math.round((k * (n - 1)) / (count - 1)));
  return [...out];
}

/**
 * Draws the chart into `box`, as wide as the box is now: the text keeps its
 * size on a phone and on a wide screen alike.
 * @param {HTMLElement} box
 * @param {HistoryPoint[]} points  oldest first, at least one
 * @param {string} label  what the chart shows (its title)
 */
function drawChart(box, points, label) {
  const width = Math.max(260, Math.round(box.clientWidth || 600));
  const narrow = width < 480;
  const height = narrow ? 210 : 250;
  const pad = { left: 46, right: narrow ? 12 : 20, top: 12, bottom: 30 };
  const n = points.length;
  const highs = points.map((p) => p.rating + p.deviation);
  const lows = points.map((p) => p.rating - p.deviation);
  let hi = Math.max(...highs);
  let lo = Math.min(...lows);
  const step = STEPS.find((s) => (hi - lo) / s <= 4) ?? 2000;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi <= lo) hi = lo + step;
  const inner = width - pad.left - pad.right;
  /** @param {number} i */
  const x = (i) => (n === 1 ? pad.left + inner / 2 : pad.left + (i * inner) / (n - 1));
  /** @param {number} r */
  const y = (r) => pad.top + ((hi - r) * (height - pad.top - pad.bottom)) / (hi - lo);
  const f = (/** @type {number} */ v) => v.toFixed(1);

  const first = points[0];
  const last = points[n - 1];
  if (!first || !last) return;
  const id = `chart-${Math.random().toString(36).slice(2, 8)}`;
  const root = svg("svg", {
    class: "rating-chart", width, height, viewBox: `0 0 ${width} ${height}`,
    role: "img", "aria-labelledby": `${id}-t ${id}-d`,
  });
  svg("title", { id: `${id}-t` }, root).textContent = label;
  const desc = tn("ratings.chartDesc", n, {
    first: first.rating, last: last.rating,
    low: Math.min(...points.map((p) => p.rating)), high: Math.max(...points.map((p) => p.rating)),
  });
  svg("desc", { id: `${id}-d` }, root).textContent = `${desc} ${t("ratings.chartBand")}`;

  // Rating ticks: a grid line and its number at the left.
  const grid = svg("g", { class: "grid" }, root);
  for (let r = lo; r <= hi; r += step) {
    svg("line", { x1: pad.left, x2: width - pad.right, y1: f(y(r)), y2: f(y(r)) }, grid);
    const tick = svg("text", { x: pad.left - 6, y: f(y(r) + 4), class: "tick rating-tick" }, grid);
    tick.textContent = String(r);
  }
  // Dates under a few of the games.
  const axis = svg("g", { class: "axis" }, root);
  svg("line", { x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom }, axis);
  let lastLabel = "";
  for (const i of spread(n, narrow ? 3 : 5)) {
    const p = points[i];
    const text = p ? date(p.at) : "";
    if (!p || text === lastLabel) continue;
    lastLabel = text;
    const anchor = n === 1 ? "middle" : i === 0 ? "start" : i === n - 1 ? "end" : "middle";
    const label = svg("text", { x: f(x(i)), y: height - pad.bottom + 18, class: `tick date-tick anchor-${anchor}` }, axis);
    label.textContent = text;
  }

  // The deviation band, then the line and a dot for each game.
  if (n === 1) {
    svg("rect", { class: "band", x: f(x(0) - 10), width: 20, y: f(y(first.rating + first.deviation)), height: f(y(first.rating - first.deviation) - y(first.rating + first.deviation)), rx: 4 }, root);
  } else {
    const upper = points.map((p, i) => `${f(x(i))},${f(y(p.rating + p.deviation))}`);
    const lower = points.map((p, i) => `${f(x(i))},${f(y(p.rating - p.deviation))}`).reverse();
    svg("path", { class: "band", d: `M${upper.join("L")}L${lower.join("L")}Z` }, root);
    svg("polyline", { class: "line", points: points.map((p, i) => `${f(x(i))},${f(y(p.rating))}`).join(" ") }, root);
  }
  const dots = svg("g", { class: "dots" }, root);
  points.forEach((p, i) => {
    const dot = svg("circle", { class: i === n - 1 ? "dot latest" : "dot", cx: f(x(i)), cy: f(y(p.rating)), r: i === n - 1 || n < 40 ? 4 : 2.5 }, dots);
    svg("title", {}, dot).textContent = t("ratings.pointTitle", { date: date(p.at), rating: p.rating, deviation: p.deviation });
  });
  box.replaceChildren(root);
}

/**
 * The chart of a history, redrawn when its box changes width.
 * @param {HistoryPoint[]} points
 * @param {string} label
 */
export function ratingChart(points, label) {
  const box = h("div", { class: "chart-box" });
  let drawn = 0;
  const redraw = () => {
    const w = Math.round(box.clientWidth);
    if (!box.isConnected || w === drawn) return;
    drawn = w;
    drawChart(box, points, label);
  };
  new ResizeObserver(redraw).observe(box);
  return box;
}

/**
 * The numbers behind a chart, newest first, for a screen reader or a closer look.
 * @param {HistoryPoint[]} points
 */
export function historyTable(points) {
  return h("details", { class: "history-numbers" }, h("summary", {}, t("ratings.numbers")),
    h("table", { class: "ratings-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("ratings.date")), h("th", { scope: "col", class: "num" }, t("ratings.rating")),
        h("th", { scope: "col", class: "num" }, t("ratings.deviation")), h("th", { scope: "col" }, t("ratings.game")))),
      h("tbody", {}, [...points].reverse().map((p) => h("tr", {},
        h("td", {}, date(p.at)), h("td", { class: "num" }, p.rating), h("td", { class: "num muted" }, t("ratings.plusMinus", { deviation: p.deviation })),
        h("td", {}, h("a", { href: `#/game/${encodeURIComponent(p.game)}` }, t("ratings.open"))))))));
}

/**
 * A player's ratings card: each category's rating, and the history of one
 * category at a time as a chart.
 * @param {string} name
 * @param {RatingView[]} ratings
 * @param {Category} shown  the category the player shows next to their name
 * @param {boolean} own  the logged-in user's own profile
 */
export function ratingsCard(name, ratings, shown, own) {
  const links = h("p", { class: "small card-links" },
    own ? h("a", { href: "#/ratings" }, t("ratings.edit")) : null, own ? " · " : null,
    h("a", { href: `#/leaders/${ratings.some((r) => r.category === shown) ? shown : ratings[0]?.category ?? shown}` }, t("leaders.title")));
  const card = h("section", { class: "card ratings", id: "ratings" }, h("h2", {}, t("ratings.title")));
  if (!ratings.length) {
    card.append(h("p", { class: "muted" }, t("ratings.none")), links);
    return card;
  }
  const chartArea = h("div", { class: "history", "aria-live": "polite" });
  /** @type {HTMLButtonElement[]} */
  const tabs = [];
  /** @param {Category} category */
  async function show(category) {
    for (const b of tabs) b.setAttribute("aria-pressed", String(b.dataset["category"] === category));
    chartArea.replaceChildren(h("p", { class: "muted small" }, t("ratings.loading")));
    try {
      /** @type {HistoryAnswer} */
      const answer = await api.call("GET", `${api.userPath(name)}/ratings/${category}`);
      const label = t("ratings.chartTitle", { name, category: categoryName(category) });
      chartArea.replaceChildren(...(answer.points.length
        ? [ratingChart(answer.points, label), historyTable(answer.points)]
        : [h("p", { class: "muted" }, t("ratings.none"))]));
      chartArea.dataset["category"] = category;
    } catch (err) {
      chartArea.replaceChildren(h("p", { class: "form-error", role: "alert" }, errorText(err)));
    }
  }
  for (const r of ratings) {
    tabs.push(h("button", { type: "button", class: "tab", "data-category": r.category, "aria-pressed": "false", onclick: () => show(r.category) },
      categoryName(r.category)));
  }
  const start = ratings.find((r) => r.category === shown)?.category ?? ratings[0]?.category ?? shown;
  card.append(h("div", { class: "ratings-body" }, ratingsTable(ratings),
    ratings.some((r) => r.provisional) ? h("p", { class: "muted small" }, t("ratings.legend")) : null,
    h("h3", {}, t("ratings.history")),
    ratings.length > 1 ? h("div", { class: "tabs chart-tabs", role: "group", "aria-label": t("ratings.category") }, tabs) : null,
    chartArea, links));
  show(start);
  return card;
}
