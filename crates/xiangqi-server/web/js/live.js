// The one WebSocket of the page: pages subscribe to games and to notices here,
// never to the socket itself. The server ties a socket to the session cookie it
// was opened with, so a login or logout calls `reconnect()`; every subscription
// is sent again whenever a socket opens, and the server then answers each watch
// with the game's current state, so a page that was offline catches up.

/** @typedef {import("./models.js").Game} Game */
/** @typedef {import("./models.js").Notice} Notice */
/** @typedef {import("./models.js").LiveEvent} LiveEvent */
/** @typedef {import("./models.js").LiveEventType} LiveEventType */
/** @typedef {import("./models.js").ComputerEvent} ComputerEvent */
/** @typedef {import("./models.js").ChatLine} ChatLine */
/**
 * @template {LiveEventType} K
 * @typedef {import("./models.js").LiveEventOf<K>} LiveEventOf
 */

/** @type {WebSocket | null} */
let socket = null;
let delay = 500;
/** Sockets opened so far: a later one may have missed changes. */
let opened = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retry;
/** @type {Map<string, Set<(game: Game) => void>>} */
const games = new Map();
/** @type {Set<(notice: Notice) => void>} */
const notices = new Set();
/** @type {Set<() => void>} */
const lobbies = new Set();
/** @type {Set<(id: string | null) => void>} */
const tournaments = new Set();
/** @type {Set<(msg: LiveEvent) => void>} */
const everything = new Set();
/** @type {Map<string, Set<(line: ChatLine) => void>>} */
const chats = new Map();
/** @type {Map<string, Set<(event: ComputerEvent) => void>>} */
const computers = new Map();
/** @type {Map<string, Set<(study: import("./api-types.js").StudyView) => void>>} */
const studies = new Map();
/** @type {Set<() => void>} */
const openings = new Set();

/**
 * Calls each subscriber; a copy of the set, so that one which unsubscribes (or
 * subscribes another) while called does not disturb the others.
 * @template {unknown[]} A
 * @param {Iterable<(...args: A) => void> | undefined} fns
 * @param {A} args
 */
function each(fns, ...args) {
  for (const fn of [...(fns ?? [])]) fn(...args);
}

/**
 * Where each type of message the server pushes goes. The type check asks for
 * one entry per type of the server's `Event`, so a new type cannot go unrouted.
 * @type {{ [K in LiveEventType]: (msg: LiveEventOf<K>) => void }}
 */
const routes = {
  game: (msg) => each(games.get(msg.game.id), msg.game),
  notice: (msg) => each(notices, msg),
  lobby: () => each(lobbies),
  tournament: (msg) => each(tournaments, msg.id),
  chat: (msg) => each(chats.get(msg.game), msg.line),
  computer: (msg) => each(computers.get(msg.game), msg),
  study: (msg) => each(studies.get(msg.study.id), msg.study),
};

/** @param {import("./models.js").ClientMessage} msg */
function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

/** @param {MessageEvent} e */
function receive(e) {
  /** @type {LiveEvent} */
  const msg = JSON.parse(e.data);
  each(everything, msg);
  // A type this page does not know (a newer server's) is for `onEvent` alone.
  if (!Object.hasOwn(routes, msg.type)) return;
  const route = /** @type {(msg: LiveEvent) => void} */ (routes[msg.type]);
  route(msg);
}

function open() {
  clearTimeout(retry);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/v1/ws`);
  socket = ws;
  ws.addEventListener("open", () => {
    delay = 500;
    opened += 1;
    for (const id of games.keys()) send({ watch: id });
    for (const id of studies.keys()) send({ watch_study: id });
    if (opened > 1) {
      each(lobbies);
      each(tournaments, null);
    }
    each(openings);
  });
  ws.addEventListener("message", receive);
  ws.addEventListener("close", () => {
    if (socket !== ws) return; // replaced on purpose by reconnect()
    socket = null;
    retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, 10000);
  });
}

/** Opens the socket if none is open. */
export function start() {
  if (!socket) open();
}

/** Replaces the socket at once: the session it speaks for has changed. */
export function reconnect() {
  const old = socket;
  socket = null;
  old?.close();
  delay = 500;
  open();
}

/**
 * Tries at once when the socket is closed and waits to try again: the network
 * is back, and the backoff may have grown to seconds.
 */
export function retryNow() {
  if (socket) return;
  delay = 500;
  open();
}

/**
 * Called whenever a socket opens: the server is reachable.
 * @param {() => void} fn
 * @returns {() => void}
 */
export function onOpen(fn) {
  openings.add(fn);
  return () => openings.delete(fn);
}

/**
 * Receives every new state of a game until the returned function is called.
 * @param {string} id
 * @param {(game: Game) => void} fn
 * @returns {() => void}
 */
export function watchGame(id, fn) {
  let set = games.get(id);
  if (!set) {
    set = new Set();
    games.set(id, set);
    send({ watch: id });
  }
  set.add(fn);
  return () => {
    const s = games.get(id);
    if (!s) return;
    s.delete(fn);
    if (s.size === 0) {
      games.delete(id);
      send({ unwatch: id });
    }
  };
}

/**
 * Receives every new state of a study (one its user may see) until the
 * returned function is called; the current state comes at once.
 * @param {string} id
 * @param {(study: import("./api-types.js").StudyView) => void} fn
 * @returns {() => void}
 */
export function watchStudy(id, fn) {
  let set = studies.get(id);
  if (!set) {
    set = new Set();
    studies.set(id, set);
    send({ watch_study: id });
  }
  set.add(fn);
  return () => {
    const s = studies.get(id);
    if (!s) return;
    s.delete(fn);
    if (s.size === 0) {
      studies.delete(id);
      send({ unwatch_study: id });
    }
  };
}

/**
 * Receives the notices the server sends the logged-in user (a challenge, a move).
 * @param {(notice: Notice) => void} fn
 * @returns {() => void}
 */
export function onNotice(fn) {
  notices.add(fn);
  return () => notices.delete(fn);
}

/**
 * Called whenever challenges come or go (the lists of them are stale), and when
 * a socket opens (what changed while it was closed is unknown).
 * @param {() => void} fn
 * @returns {() => void}
 */
export function onLobby(fn) {
  lobbies.add(fn);
  return () => lobbies.delete(fn);
}

/**
 * Called with a tournament's id whenever it changes (an entry, a withdrawal, a
 * round, its end), and with null when a socket opens (anything may have).
 * @param {(id: string | null) => void} fn
 * @returns {() => void}
 */
export function onTournament(fn) {
  tournaments.add(fn);
  return () => tournaments.delete(fn);
}

/**
 * Receives everything the socket pushes (notices with their kind, game states,
 * chat lines) until the returned function is called.
 * @param {(msg: LiveEvent) => void} fn
 * @returns {() => void}
 */
export function onEvent(fn) {
  everything.add(fn);
  return () => everything.delete(fn);
}

/**
 * Receives the computer's progress on its move in a game until the returned
 * function is called (the server sends it to the sockets that watch the game).
 * @param {string} id
 * @param {(event: ComputerEvent) => void} fn
 * @returns {() => void}
 */
export function watchComputer(id, fn) {
  const unwatch = watchGame(id, () => {});
  let set = computers.get(id);
  if (!set) computers.set(id, (set = new Set()));
  set.add(fn);
  return () => {
    unwatch();
    computers.get(id)?.delete(fn);
    if (computers.get(id)?.size === 0) computers.delete(id);
  };
}

/**
 * Receives the new lines of a game's chat until the returned function is called
 * (the server sends them to the sockets that watch the game).
 * @param {string} id
 * @param {(line: ChatLine) => void} fn
 * @returns {() => void}
 */
export function watchChat(id, fn) {
  const unwatch = watchGame(id, () => {});
  let set = chats.get(id);
  if (!set) chats.set(id, (set = new Set()));
  set.add(fn);
  return () => {
    unwatch();
    chats.get(id)?.delete(fn);
    if (chats.get(id)?.size === 0) chats.delete(id);
  };
}
