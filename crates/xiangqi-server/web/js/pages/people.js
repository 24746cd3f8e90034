// Who is here: who is online now, and every player with rating and join date.

import * as api from "../api.js";
import { card, page, userLink } from "../components/layout.js";
import { h } from "../dom.js";
import { date, t } from "../i18n.js";

/** @typedef {import("../models.js").People} People */

/** @param {HTMLElement} view */
export async function peoplePage(view) {
  /** @type {People} */
  const r = await api.call("GET", "/users");
  const online = new Set(r.online);
  const head = h("tr", {}, h("th", {}, t("people.player")), h("th", {}, t("people.rating")), h("th", {}, t("people.joined")));
  const rows = r.users.map((u) => h("tr", {},
    h("td", {}, userLink(u.name), online.has(u.name) ? " ●" : ""),
    h("td", {}, u.rating),
    h("td", {}, date(u.joined))));
  page(view, t("people.title"),
    card(t("people.online", { count: r.online.length }), h("p", {}, r.online.flatMap((n, i) => [i ? ", " : "", userLink(n)]))),
    card(t("people.all"), h("table", { class: "people" }, head, rows)));
}
