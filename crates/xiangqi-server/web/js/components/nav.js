// The header: site navigation for the session, and the language choice.

import * as api from "../api.js";
import { $, h } from "../dom.js";
import { LANGUAGES, lang, t } from "../i18n.js";
import { setPrefs } from "../prefs.js";
import { go } from "../router.js";
import { currentUser, setUser } from "../state.js";
import { peopleMenu } from "./menu.js";
import { categoryName } from "./ratings.js";
import { screenReaderLink } from "./skip-link.js";

async function logout() {
  await api.call("DELETE", "/session").catch(() => null);
  setUser(null);
  go("#/");
}

function languageChoice() {
  const select = h("select", { class: "language", "aria-label": t("app.language") },
    Object.entries(LANGUAGES).map(([code, l]) => h("option", { value: code, selected: code === lang }, l.name)));
  // Kept with the other preferences (on the server too, when logged in); the page reloads in it.
  select.addEventListener("change", () => setPrefs({ language: LANGUAGES[select.value]?.pref ?? "en" }));
  return select;
}

/**
 * The button that opens the navigation on a narrow screen, where the header is
 * one row: made once, put before the navigation it controls.
 */
function navToggle() {
  const found = document.getElementById("nav-toggle");
  if (found) return found;
  const nav = $("#nav");
  const top = /** @type {HTMLElement} */ (nav.closest(".top") ?? nav);
  const toggle = h("button", { type: "button", id: "nav-toggle", class: "nav-toggle", "aria-controls": "nav", "aria-expanded": "false" },
    h("span", { class: "nav-toggle-icon", "aria-hidden": "true" }), h("span", { class: "nav-toggle-label" }, t("nav.menu")));
  /** @param {boolean} open */
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    top.classList.toggle("nav-open", open);
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  // A page opened from the menu closes it; so does Escape, which gives the focus back to the button.
  window.addEventListener("hashchange", () => setOpen(false));
  top.addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key !== "Escape" || toggle.getAttribute("aria-expanded") !== "true") return;
    setOpen(false);
    toggle.focus();
  });
  nav.before(toggle);
  return toggle;
}

/** Draws the navigation for whoever is logged in now. */
export function renderNav() {
  screenReaderLink();
  navToggle();
  const me = currentUser();
  const links = me
    ? [
      h("a", { href: "#/status" }, t("nav.status")),
      h("a", { href: "#/new" }, t("nav.new")),
      h("a", { href: "#/room" }, t("nav.room")),
      h("a", { href: "#/people" }, t("nav.people")),
      h("a", { href: "#/puzzles" }, t("nav.puzzles")),
      peopleMenu(),
      // The rating of the category the player shows, named, so that it is
      // never read as the rating of another pace or board. The words are the
      // link's content rather than a label over it: a label that leaves out
      // the short form on show confuses those who speak to their browser.
      h("a", { href: `#/user/${encodeURIComponent(me.name)}`, class: "me", title: categoryName(me.shown_category) },
        h("span", { class: "sr-only" }, t("nav.myRating", { name: me.name, category: categoryName(me.shown_category), rating: me.rating })),
        h("span", { "aria-hidden": "true" }, me.name, h("span", { class: "nav-rating" },
          h("span", { class: "nav-category" }, t(`category.short.${me.shown_category}`)), " ", String(me.rating)))),
      h("a", { href: "#/settings" }, t("nav.settings")),
      h("a", { href: "#/help" }, t("nav.help")),
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); logout(); } }, t("nav.logout")),
    ]
    : [
      h("a", { href: "#/" }, t("nav.login")),
      h("a", { href: "#/room" }, t("nav.room")),
      h("a", { href: "#/people" }, t("nav.people")),
      h("a", { href: "#/puzzles" }, t("nav.puzzles")),
      h("a", { href: "#/tournaments" }, t("menu.tournaments")),
      h("a", { href: "#/studies" }, t("menu.studies")),
      h("a", { href: "#/ladder" }, t("menu.ladders")),
      h("a", { href: "#/leaders" }, t("nav.leaders")),
      h("a", { href: "#/rules" }, t("nav.rules")),
      h("a", { href: "#/help" }, t("nav.help")),
      h("a", { href: "#/settings" }, t("nav.settings")),
    ];
  $("#nav").replaceChildren(...links, languageChoice());
}
