// The tournaments (`#/tournaments`): those taking entries, running and over,
// each list a page at a time, with the form to create one. The lists follow
// the server live: a tournament's change redraws them.

import { card, listOr, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { tournamentLink } from "../../links.js";
import { onTournament } from "../../live.js";
import { attempt, sayError } from "../../notify.js";
import { currentUser } from "../../state.js";
import { createForm } from "./create-form.js";
import { shelfPage } from "./endpoints.js";
import { formatText, statusText } from "./words.js";

/** @typedef {import("../../models.js").TournamentSummary} Summary */
/** @typedef {import("../../i18n.js").TextKey} TextKey */

/** @param {HTMLElement} view */
export async function tournamentsPage(view) {
  const me = currentUser();
  /** @type {[string, TextKey, TextKey][]} */
  const shelves = [["upcoming", "tournament.upcoming", "tournament.noUpcoming"], ["running", "tournament.running", "tournament.noRunning"],
    ["finished", "tournament.finished", "tournament.noFinished"]];

  /** @param {Summary} s */
  const row = (s) => h("li", { class: "tournament-item", "data-tournament": s.id, "data-key": s.id },
    h("a", { href: tournamentLink(s.id), class: "name" }, s.name),
    h("span", { class: "muted small" }, [formatText(s), clockText(s.clock), rulesName(s.rules)].join(" · ")),
    h("span", { class: "small" }, t("tournament.playersOf", { players: s.players, max: s.max_players }), " · ", statusText(s)));

  /**
   * One list with its "more" button.
   * @param {string} shelf
   * @param {TextKey} title
   * @param {TextKey} empty
   */
  async function list(shelf, title, empty) {
    const first = await shelfPage(shelf, null);
    const items = first.tournaments;
    let next = first.next ?? null;
    const box = card(t(title));
    box.dataset["shelf"] = shelf;
    const draw = () => {
      const more = next
        ? h("button", { type: "button", class: "more", "data-action": "more", onclick: () => attempt(async () => {
          const page = await shelfPage(shelf, next ?? "");
          items.push(...page.tournaments);
          next = page.next ?? null;
          draw();
        }) }, t("paging.more"))
        : null;
      box.replaceChildren(h("h2", {}, t(title)), listOr("tournament-list", items, row, t(empty)));
      if (more) box.append(more);
    };
    draw();
    return box;
  }

  const create = me ? createForm() : h("p", { class: "muted" }, h("a", { href: "#/" }, t("tournament.visitor")));
  let lists = h("div", { class: "tournament-lists" }, ...(await Promise.all(shelves.map(([s, title, empty]) => list(s, title, empty)))));
  page(view, t("tournament.title"), h("p", { class: "lead" }, t("tournament.lead")), lists, create);

  let asked = 0;
  return onTournament(async () => {
    const mine = ++asked;
    try {
      const fresh = h("div", { class: "tournament-lists" }, ...(await Promise.all(shelves.map(([s, title, empty]) => list(s, title, empty)))));
      if (mine !== asked || !lists.isConnected) return;
      swapKeepingFocus(lists, fresh);
      lists = fresh;
    } catch (err) {
      sayError(err);
    }
  });
}
