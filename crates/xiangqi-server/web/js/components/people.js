// People as rows: online or not, buddy or not, rating, and the games they are
// playing now (click to watch). Who is here, the buddy list and the game
// status page draw them the same way.

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { currentUser } from "../state.js";
import { listOr, userLink } from "./layout.js";
import { challengeButton, sendLink, setRelation } from "./user-actions.js";

/** @typedef {import("../models.js").Person} Person */
/** @typedef {import("../models.js").GameSummary} GameSummary */
/** @typedef {import("../router.js").Page} Page */

/**
 * When someone was last seen, in words.
 * @param {number} ms
 */
export function seenText(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  if (minutes < 1) return t("people.seenNow");
  if (minutes < 60) return t("people.seenMinutes", { count: minutes });
  return t("people.seenAt", { date: new Date(ms).toLocaleString(document.documentElement.lang) });
}

/**
 * A link to watch a game someone plays.
 * @param {GameSummary} g
 * @param {string} name  the player whose game it is
 */
export function gameLink(g, name) {
  const opponent = g.red === name ? g.black : g.red;
  return h("a", { class: "watch", href: `#/game/${encodeURIComponent(g.id)}` }, t("people.watch", { name: opponent }));
}

/**
 * One person as a list item; `changed` redraws after a list changed.
 * @param {Person} p
 * @param {() => void} changed
 * @param {{ remove?: boolean }} [options]
 */
export function personRow(p, changed, options = {}) {
  const me = currentUser()?.name;
  const self = p.name === me;
  return h("li", { class: `person${p.buddy ? " is-buddy" : ""}`, "data-user": p.name },
    h("span", { class: `presence${p.online ? " online" : ""}`, title: p.online ? t("people.onlineNow") : seenText(p.seen) }),
    h("span", { class: "who" }, userLink(p.name), p.buddy ? h("span", { class: "star", title: t("people.buddy") }, " ★") : null,
      h("span", { class: "muted small" }, ` ${p.rating}`)),
    h("span", { class: "doing small" },
      p.games.length ? p.games.flatMap((g, i) => [i ? ", " : "", gameLink(g, p.name)]) : h("span", { class: "muted" }, p.online ? t("people.idle") : seenText(p.seen))),
    self || !me ? null : h("span", { class: "row-actions" },
      p.buddy ? challengeButton(p.name) : null,
      p.buddy ? h("a", { class: "button-link", href: sendLink(p.name) }, t("people.message")) : null,
      !p.buddy ? h("button", { type: "button", class: "buddy", onclick: async () => { if (await setRelation("buddies", p.name, true)) changed(); } }, t("people.addBuddy")) : null,
      p.buddy && options.remove ? h("button", { type: "button", class: "unbuddy", onclick: async () => { if (await setRelation("buddies", p.name, false)) changed(); } }, t("people.removeBuddy")) : null));
}

/**
 * A list of people, or a sentence when there is nobody.
 * @param {Person[]} people
 * @param {() => void} changed
 * @param {string} empty
 * @param {{ remove?: boolean }} [options]
 */
export function peopleList(people, changed, empty, options = {}) {
  return listOr("people-list", people, (p) => personRow(p, changed, options), empty);
}

/** A card of my buddies, online ones first, with their games; it redraws itself. */
export async function buddiesCard() {
  const box = h("section", { class: "card buddies", id: "buddies" });
  const draw = async () => {
    /** @type {{ users: Person[] }} */
    const r = await api.call("GET", "/me/buddies");
    box.replaceChildren(h("h2", {}, t("buddies.title")),
      peopleList(r.users, () => draw(), t("buddies.none")),
      h("p", { class: "small" }, h("a", { href: "#/buddies" }, t("buddies.edit"))));
  };
  await draw();
  return box;
}

/**
 * A page with my buddies below it (for the game status page).
 * @param {Page} page
 * @returns {Page}
 */
export function withBuddies(page) {
  return async (view, args) => {
    const done = await page(view, args);
    const buddies = await buddiesCard().catch(() => null);
    if (buddies && view.isConnected) view.append(buddies);
    return done;
  };
}
