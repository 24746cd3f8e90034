// What waits for me, in the header and the tab title: games at my move and
// challenges to me (one badge, to Game status, where both are answered), and
// unread messages. Fetched again on a notice, on a game or challenge that
// changed, on a new page and on a login, so it stays live. Challenges that
// arrived while I was away are said once, when I come back (a page load or a
// login), since no notice reached me for them.

import * as api from "../api.js";
import { $, h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { onEvent, onLobby } from "../live.js";
import { say } from "../notify.js";
import { currentUser, onUserChange } from "../state.js";
import { notifyBrowser } from "./alerts.js";

/** @typedef {import("../models.js").Counts} Counts */

const turn = h("a", { id: "badge-turn", class: "badge turn", href: "#/status", hidden: true });
const unread = h("a", { id: "badge-unread", class: "badge unread", href: "#/messages", hidden: true });
/** @type {Counts} */
let counts = { my_turn: 0, challenges: 0, unread_messages: 0 };
/** Whether the next counts are the first since the page opened or the user changed. */
let arriving = true;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let soon;
let asked = 0;

/** Draws the badges and the tab title from `counts`. */
function paint() {
  const me = currentUser();
  const games = me ? counts.my_turn : 0;
  const challenges = me ? counts.challenges : 0;
  const waiting = games + challenges;
  const messages = me ? counts.unread_messages : 0;
  turn.hidden = waiting === 0;
  turn.textContent = String(waiting);
  turn.title = games && challenges
    ? t("badges.waiting", { games: tn("badges.turn", games), challenges: tn("badges.challenges", challenges) })
    : challenges ? tn("badges.challenges", challenges) : tn("badges.turn", games);
  turn.setAttribute("aria-label", turn.title);
  unread.hidden = messages === 0;
  unread.textContent = String(messages);
  unread.title = tn("badges.unread", messages);
  unread.setAttribute("aria-label", unread.title);
  document.title = waiting ? t("badges.title", { count: waiting, title: t("app.title") }) : t("app.title");
}

/** On arrival, says that challenges wait (unless Game status, which lists them, is open). */
function greet() {
  if (counts.challenges === 0 || location.hash.startsWith("#/status")) return;
  say([tn("notice.challengesWaiting", counts.challenges), " ",
    h("a", { href: "#/status" }, t("notice.toStatus"))]);
}

/** Fetches the counts now; an older answer never overwrites a newer one. */
export async function refreshCounts() {
  clearTimeout(soon);
  if (!currentUser()) {
    counts = { my_turn: 0, challenges: 0, unread_messages: 0 };
    paint();
    return;
  }
  const mine = ++asked;
  try {
    /** @type {Counts} */
    const next = await api.call("GET", "/me/counts");
    if (mine === asked) {
      counts = next;
      if (arriving) greet();
      arriving = false;
    }
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
  onUserChange(() => {
    arriving = true;
    refreshCounts();
  });
  window.addEventListener("hashchange", later);
  onLobby(later);
  onEvent((msg) => {
    if (msg.type === "game" || msg.type === "chat") later();
    if (msg.type === "notice" && "kind" in msg) {
      later();
      if (msg.kind === "your_move" || msg.kind === "message") notifyBrowser(msg);
    }
  });
  refreshCounts();
}
