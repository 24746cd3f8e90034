// Who is here: everyone seen in the last minutes, my buddies first, with their
// rating and the games they are playing (click to watch).

import * as api from "../api.js";
import { page } from "../components/layout.js";
import { peopleList } from "../components/people.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { refresh } from "../router.js";

/** @typedef {import("../models.js").Person} Person */

/** @param {HTMLElement} view */
export async function peoplePage(view) {
  /** @type {{ users: Person[] }} */
  const r = await api.call("GET", "/users/online");
  const buddies = r.users.filter((p) => p.buddy);
  const others = r.users.filter((p) => !p.buddy);
  page(view, t("here.title"),
    h("p", { class: "muted" }, t("here.lead"), " ", h("a", { href: "#/search" }, t("here.search"))),
    h("section", { class: "card", id: "here-buddies" }, h("h2", {}, t("here.buddies", { count: buddies.length })),
      peopleList(buddies, refresh, t("here.noBuddies"))),
    h("section", { class: "card", id: "here-others" }, h("h2", {}, t("here.others", { count: others.length })),
      peopleList(others, refresh, t("here.nobody"))));
}
