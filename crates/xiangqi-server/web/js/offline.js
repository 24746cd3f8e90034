// Working offline: the service worker (sw.js) keeps the app and the user's
// recent games; this module registers it, tells the user when what they see
// comes from it rather than the server, and brings the live socket back as
// soon as the server answers again, without a reload.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import * as live from "./live.js";
import { onUserChange } from "./state.js";

/** The header a service worker's kept answer carries (see sw.js). */
const KEPT = "X-Xiangqi-Offline";
/** The caches that hold one user's games (see sw.js). */
const USER_CACHES = "xiangqi-user-";

let offline = false;

/** @param {boolean} now */
function show(now) {
  const box = $("#offline");
  box.textContent = t("app.offline");
  box.hidden = !now;
  document.documentElement.classList.toggle("is-offline", now);
}

/** The server could not be reached, or answered from the worker's caches. */
export function wentOffline() {
  if (offline) return;
  offline = true;
  show(true);
}

/** The server answered. */
export function backOnline() {
  if (!offline) return;
  offline = false;
  show(false);
  live.retryNow();
}

/**
 * Reads an API answer for whether it came from the server.
 * @param {Response} res
 */
export function noteAnswer(res) {
  if (res.headers.get(KEPT)) wentOffline();
  else backOnline();
}

/**
 * Reads a failed request: a network error (not a refusal) means offline.
 * @param {unknown} err
 */
export function noteFailure(err) {
  if (err instanceof TypeError) wentOffline();
}

/** Drops the games kept for the user who just logged out (or whose session ended). */
async function forgetUser() {
  if (!("caches" in window)) return;
  for (const name of await caches.keys()) {
    if (name.startsWith(USER_CACHES)) await caches.delete(name);
  }
}

/** Registers the worker and starts following the connection. */
export function startOffline() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  if (!navigator.onLine) wentOffline();
  addEventListener("offline", wentOffline);
  // The browser's word that a network is back: worth asking the server now
  // (past the worker, which would answer from its caches) rather than waiting
  // for the socket's backoff or the user's next click.
  addEventListener("online", () => {
    fetch("/healthz", { cache: "no-store" }).then((res) => { if (res.ok) backOnline(); }, () => {});
    live.retryNow();
  });
  live.onOpen(backOnline);
  // At start there is no one before: a session that could not be read
  // offline is not a log-out, and what was kept stays.
  onUserChange((user, before) => {
    if (before && user?.name !== before.name) forgetUser();
  });
}
