// The header: site navigation for the session, and the language choice.

import * as api from "../api.js";
import { $, h } from "../dom.js";
import { LANGUAGES, lang, t } from "../i18n.js";
import { setPrefs } from "../prefs.js";
import { go } from "../router.js";
import { currentUser, setUser } from "../state.js";
import { peopleMenu } from "./menu.js";

async function logout() {
  await api.call("DELETE", "/session").catch(() => null);
  setUser(null);
  go("#/");
}

function languageChoice() {
  const select = h("select", { class: "language", "aria-label": t("app.language") },
    Object.entries(LANGUAGES).map(([code, l]) => h("option", { value: code, selected: code === lang }, l.name)));
  // Kept with the other preferences (on the server too, when logged in); the page reloads in it.
  select.addEventListener("change", () => setPrefs({ language: select.value === "en" ? "en" : "zh-Hans" }));
  return select;
}

/** Draws the navigation for whoever is logged in now. */
export function renderNav() {
  const me = currentUser();
  const links = me
    ? [
      h("a", { href: "#/status" }, t("nav.status")),
      h("a", { href: "#/new" }, t("nav.new")),
      h("a", { href: "#/room" }, t("nav.room")),
      h("a", { href: "#/people" }, t("nav.people")),
      peopleMenu(),
      h("a", { href: `#/user/${encodeURIComponent(me.name)}`, class: "me", "aria-label": t("nav.myRating", { name: me.name, rating: me.rating }) },
        me.name, h("span", { class: "nav-rating", "aria-hidden": "true" }, String(me.rating))),
      h("a", { href: "#/settings" }, t("nav.settings")),
      h("a", { href: "#/help" }, t("nav.help")),
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); logout(); } }, t("nav.logout")),
    ]
    : [
      h("a", { href: "#/" }, t("nav.login")),
      h("a", { href: "#/rules" }, t("nav.rules")),
      h("a", { href: "#/analysis" }, t("menu.analysis")),
      h("a", { href: "#/leaders" }, t("nav.leaders")),
      h("a", { href: "#/help" }, t("nav.help")),
      h("a", { href: "#/settings" }, t("nav.settings")),
    ];
  $("#nav").replaceChildren(...links, languageChoice());
}
