// Leaderboards: the best established ratings of each category, highest first,
// a page at a time. Open to visitors.

import { leaders } from "./endpoints.js";
import { page, userLink } from "../../components/layout.js";
import { CATEGORIES, categoryName, isCategory } from "../../components/ratings.js";
import { refused } from "../../components/user-actions.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { currentUser } from "../../state.js";

/** @typedef {import("../../models.js").Leader} Leader */

const PAGE = 50;

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the category; the user's shown one (or standard correspondence) if none
 */
export async function leadersPage(view, [arg = ""]) {
  const me = currentUser();
  const category = isCategory(arg) ? arg : me?.shown_category ?? "standard_correspondence";
  const tabs = h("nav", { class: "tabs", "aria-label": t("ratings.category") }, CATEGORIES.map((c) =>
    h("a", { href: `#/leaders/${c}`, class: c === category ? "tab active" : "tab", "aria-current": c === category ? "page" : null },
      categoryName(c))));
  const body = h("tbody", {});
  const table = h("table", { class: "leaders", "data-category": category },
    h("caption", { class: "sr-only" }, `${t("leaders.title")}: ${categoryName(category)}`),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, t("leaders.rank")), h("th", { scope: "col" }, t("leaders.player")),
      h("th", { scope: "col", class: "num" }, t("ratings.rating")), h("th", { scope: "col", class: "num" }, t("ratings.deviation")),
      h("th", { scope: "col", class: "num" }, t("ratings.games")))),
    body);
  const more = h("button", { type: "button", class: "more" }, t("paging.more"));
  const box = h("div", { class: "paged leaders-box" }, table, more);
  let rank = 0;

  /** @param {Leader} l */
  const row = (l) => h("tr", { class: l.name === me?.name ? "me" : "", "data-user": l.name },
    h("td", { class: "num muted" }, ++rank), h("th", { scope: "row" }, userLink(l.name)),
    h("td", { class: "num strong" }, l.rating), h("td", { class: "num muted" }, t("ratings.plusMinus", { deviation: l.deviation })),
    h("td", { class: "num" }, l.games));

  /** @param {string | null} after */
  async function load(after) {
    const p = await leaders(category, PAGE, after);
    body.append(...p.leaders.map(row));
    more.hidden = !p.next;
    const next = p.next ?? null;
    more.onclick = () => load(next).catch((err) => refused(t("paging.more"), err));
    if (!after && p.leaders.length === 0) box.replaceChildren(h("p", { class: "muted" }, t("leaders.none")));
  }
  await load(null);
  page(view, t("leaders.title"),
    h("div", { class: "toolbar" }, tabs),
    h("p", { class: "muted small" }, t("leaders.lead")),
    h("section", { class: "card" }, h("h2", {}, categoryName(category)), box));
}
