// The site's Masters collection: real games an administrator loaded, apart
// from the games played here. Searched by player, a page at a time, each
// opening on the analysis board (whose explorer has a Masters source too).

import { mastersGames } from "./endpoints.js";
import { page } from "../../components/layout.js";
import { h } from "../../dom.js";
import { onSubmit } from "../../components/form.js";
import { t, tn } from "../../i18n.js";
import { mastersLink } from "../../links.js";
import { openingLabel } from "../../components/openings.js";
import { pagedList } from "../../components/paged-list.js";

/** @typedef {import("../../api-types.js").ImportedGameView} ImportedGameView */

/**
 * A game of the collection in the list.
 * @param {ImportedGameView} g
 */
function mastersRow(g) {
  return h("li", { class: "game-row masters-game", "data-game": g.id },
    h("a", { href: mastersLink(g.id) }, `${g.red} – ${g.black}`),
    h("span", {}, g.result),
    h("span", { class: "muted small" }, [g.event, g.date].filter((x) => x && x !== "?").join(", ")),
    h("span", { class: "muted small" }, tn("import.plies", g.ply)),
    g.opening ? h("span", { class: "muted small" }, openingLabel(g.opening)) : null);
}

/** @param {HTMLElement} view */
export async function mastersPage(view) {
  const results = h("section", { class: "card", id: "masters-results", "aria-live": "polite" });
  /** @param {string} player */
  async function show(player) {
    const q = new URLSearchParams({ limit: "20" });
    if (player.trim()) q.set("player", player.trim());
    const list = await pagedList(async (after) => {
      if (after) q.set("after", after);
      const p = await mastersGames(q);
      return { items: p.games, next: p.next ?? null };
    }, mastersRow, "games masters-games", t("masters.none"));
    results.replaceChildren(list);
  }
  const form = onSubmit(h("form", { class: "card form", id: "masters-form" },
    h("p", { class: "muted" }, t("masters.lead")),
    h("label", {}, t("db.player"), h("input", { name: "player", maxlength: 100, autocomplete: "off" })),
    h("button", { type: "submit", class: "primary" }, t("db.search"))), async (d) => show(d["player"] ?? ""));
  page(view, t("masters.title"), form, results);
  await show("");
}
