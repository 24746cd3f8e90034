// Who is logged in: the one copy of the session every page reads, and the
// place that tells the rest of the UI (navigation, live updates) when it changes.

/** @typedef {import("./models.js").User} User */

/** @type {User | null} */
let me = null;

/** @type {Set<(user: User | null, before: User | null) => void>} */
const listeners = new Set();

/** The logged-in user, or null. */
export function currentUser() {
  return me;
}

/**
 * The colour the logged-in user plays in a game, if any.
 * @param {import("./models.js").GameSummary} game
 * @returns {import("./models.js").Color | null}
 */
export function myColor(game) {
  if (!me) return null;
  return game.red === me.name ? "red" : game.black === me.name ? "black" : null;
}

/**
 * Records a login, a logout (null) or a new copy of the user (after a profile edit).
 * @param {User | null} user
 */
export function setUser(user) {
  const before = me;
  me = user;
  if (user?.name !== before?.name) queued = false;
  for (const fn of listeners) fn(user, before);
}

/**
 * Calls `fn` on every change of the session.
 * @param {(user: User | null, before: User | null) => void} fn
 * @returns {() => void} unsubscribes
 */
export function onUserChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether the user waits in the auto-match queue (this page asked, no game yet). */
let queued = false;

/** @param {boolean} waiting */
export function setQueued(waiting) {
  queued = waiting;
}

export function isQueued() {
  return queued;
}
