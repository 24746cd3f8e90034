// Who is here: everyone seen in the last minutes, the most recent first and a
// page at a time (my buddies in their own card), with their rating and the
// games they are playing (click to watch).

import { online } from "./endpoints.js";
import { moreButton, page } from "../../components/layout.js";
import { peopleList } from "../../components/people.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { refresh } from "../../router.js";
import { currentUser } from "../../state.js";

/** @typedef {import("../../models.js").Person} Person */

/** @param {HTMLElement} view */
export async function peoplePage(view) {
  /** @type {Person[]} */
  let buddies = [];
  /** @type {Person[]} */
  let others = [];
  /** @type {string | null} */
  let next = null;
  /** @param {string | null} after */
  async function load(after) {
    const r = await online(after);
    buddies = [...buddies, ...r.users.filter((p) => p.buddy)];
    others = [...others, ...r.users.filter((p) => !p.buddy)];
    next = r.next ?? null;
  }
  function draw() {
    const me = currentUser();
    page(view, t("here.title"),
      me
        ? h("p", { class: "muted" }, t("here.lead"), " ", h("a", { href: "#/search" }, t("here.search")))
        : h("p", { class: "muted", id: "here-visitor" }, t("here.visitorLead"), " ", t("here.visitor"), " ", h("a", { href: "#/" }, t("nav.login"))),
      me
        ? h("section", { class: "card", id: "here-buddies" }, h("h2", {}, t("here.buddies", { count: buddies.length })),
          peopleList(buddies, refresh, t("here.noBuddies")))
        : null,
      h("section", { class: "card", id: "here-others" }, h("h2", {}, t("here.others", { count: others.length })),
        peopleList(others, refresh, t("here.nobody")),
        moreButton(next, async (after) => {
          await load(after);
          draw();
          /** @type {HTMLElement | null} */ (view.querySelector("[data-action=more-here]"))?.focus();
        }, "more-here")));
  }
  await load(null);
  draw();
}
