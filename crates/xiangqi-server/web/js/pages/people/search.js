// Search user profiles: by name (its start or any part), rating range and
// whether online now; the results by name, a page at a time.

import { search } from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { page, userLink } from "../../components/layout.js";
import { seenText } from "../../components/people.js";
import { h } from "../../dom.js";
import { date, t } from "../../i18n.js";
import { pagedList } from "../../components/paged-list.js";


/** @param {HTMLElement} view */
export function searchPage(view) {
  const results = h("section", { class: "card", id: "results" }, h("p", { class: "muted" }, t("search.hint")));
  const form = onSubmit(h("form", { class: "card form search-form" },
    h("div", { class: "search-name" },
      h("label", {}, t("search.name"), h("input", { name: "name", maxlength: 20, autocomplete: "off" })),
      h("label", {}, t("search.match"), h("select", { name: "match" },
        h("option", { value: "prefix" }, t("search.prefix")), h("option", { value: "contains" }, t("search.contains"))))),
    h("div", { class: "search-rating" },
      h("label", {}, t("search.min"), h("input", { name: "min", type: "number", min: 0, max: 4000, step: 1, inputmode: "numeric" })),
      h("label", {}, t("search.max"), h("input", { name: "max", type: "number", min: 0, max: 4000, step: 1, inputmode: "numeric" }))),
    h("label", { class: "check" }, h("input", { name: "online", type: "checkbox", value: "true" }), t("search.online")),
    h("button", { type: "submit", class: "primary" }, t("search.submit"))), async (d) => {
    const q = new URLSearchParams();
    const name = (d["name"] ?? "").trim();
    if (name) q.set(d["match"] === "contains" ? "contains" : "name", name);
    if (d["min"]) q.set("min_rating", d["min"]);
    if (d["max"]) q.set("max_rating", d["max"]);
    if (d["online"]) q.set("online", "true");
    q.set("limit", "20");
    const list = await pagedList(async (after) => {
      if (after) q.set("after", after);
      const p = await search(q);
      return { items: p.users, next: p.next ?? null };
    }, (u) => h("li", { class: "result", "data-user": u.name },
      h("span", { class: "who" }, userLink(u.name)),
      h("span", {}, t("search.rating", { rating: u.rating })),
      h("span", { class: "muted small" }, u.location),
      h("span", { class: "muted small" }, seenText(u.seen)),
      h("span", { class: "muted small" }, t("search.joined", { date: date(u.joined) }))), "results", t("search.none"));
    results.replaceChildren(list);
  });
  page(view, t("search.title"), form, results);
}
