// What waits for me, in the header and the tab title: games at my move and
// unread messages. Fetched again on a `your_move` or `message` notice, on a game
// that changed, on a new page and on a login, so it stays live.

import * as api from "../api.js";
import { $, h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { onEvent } from "../live.js";
import { currentUser, onUserChange } from "../state.js";
import { notifyBrowser } from "./alerts.js";

/** @typedef {import("../models.js").Counts} Counts */

const turn = h("a", { id: "badge-turn", class: "badge turn", href: "#/status", hidden: true });
const unread = h("a", { id: "badge-unread", class: "badge unread", href: "#/messages", hidden: true });
/** @type {Counts} */
let counts = { my_turn: 0, unread_messages: 0 };
/** @type {ReturnType<typeof setTimeout> | undefined} */
let soon;
let asked = 0;

/** Draws the badges and the tab title from `counts`. */
function paint() {
  const me = currentUser();
  const games = me ? counts.my_turn : 0;
  const messages = me ? counts.unread_messages : 0;
  turn.hidden = games === 0;
  turn.textContent = String(games);
  turn.title = tn("badges.turn", games);
  turn.setAttribute("aria-label", turn.title);
  unread.hidden = messages === 0;
  unread.textContent = String(messages);
  unread.title = tn("badges.unread", messages);
  unread.setAttribute("aria-label", unread.title);
  document.title = games ? t("badges.title", { count: games, title: t("app.title") }) : t("app.title");
}

/** Fetches the counts now; an older answer never overwrites a newer one. */
export async function refreshCounts() {
  clearTimeout(soon);
  if (!currentUser()) {
    counts = { my_turn: 0, unread_messages: 0 };
    paint();
    return;
  }
  const mine = ++asked;
  try {
    /** @type {Counts} */
    const next = await api.call("GET", "/me/counts");
    if (mine === asked) counts = next;
  } catch {
    // Logged out meanwhile, or offline: the next event tries again.
  }
  paint();
}

/** Fetches the counts shortly (several events in a burst make one request). */
function later() {
  clearTimeout(soon);
  soon = setTimeout(refreshCounts, 150);
}

/** Puts the badges in the header and keeps them current. */
export function startBadges() {
  $(".top .brand").after(h("div", { class: "badges" }, turn, unread));
  onUserChange(() => refreshCounts());
  window.addEventListener("hashchange", later);
  onEvent((msg) => {
    if (msg.type === "game" || msg.type === "chat") later();
    if (msg.type === "notice" && "kind" in msg) {
      later();
      if (msg.kind === "your_move" || msg.kind === "message") notifyBrowser(msg);
    }
  });
  refreshCounts();
}
