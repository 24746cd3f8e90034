// The service worker: the app opens and reads offline. Everything goes to the
// network first, so a new server's UI shows at once; only when the network
// fails does an answer come from the caches:
//   - the shell (the page, its modules, stylesheet and icons), one cache per
//     version of the UI, filled when this worker installs: the rules and the
//     help are drawn by those modules, so they read offline too;
//   - the logged-in user's own recent games (their list and the games they
//     played that they opened), in a cache of that user's alone, which goes
//     when the session ends. Every other API answer is left to the network,
//     under its `no-store`.

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

// The server writes the UI's version and its files in place of this as it
// serves the script: a new UI is a new script, which the browser installs.
const BUILD = /** @type {{ version: string, files: string[] }} */ ({ version: "", files: [] });

const SHELL_PREFIX = "xiangqi-shell-";
const SHELL = `${SHELL_PREFIX}${BUILD.version}`;
const USER_PREFIX = "xiangqi-user-";
const API = "/api/v1";
/** How many of a user's games are kept: the ones opened most recently. */
const KEPT_GAMES = 30;
/** What an answer from the caches carries, so that the page can say it is offline. */
const OFFLINE_HEADER = "X-Xiangqi-Offline";

sw.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    await cache.addAll(["/", ...BUILD.files].map((path) => new Request(path, { cache: "no-cache" })));
    await sw.skipWaiting();
  })());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(SHELL_PREFIX) && name !== SHELL) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  const path = url.pathname;
  if (path === `${API}/session` && request.method !== "GET") {
    event.respondWith(sessionChange(request));
  } else if (request.method !== "GET") {
    return;
  } else if (path === `${API}/session`) {
    event.respondWith(session(request));
  } else if (path === `${API}/games` && url.search === "") {
    event.respondWith(ownGames(request));
  } else if (/^\/api\/v1\/games\/[^/]+$/.test(path) && url.search === "") {
    event.respondWith(ownGame(request));
  } else if (path.startsWith(`${API}/`)) {
    return;
  } else if (path === "/" || BUILD.files.includes(path)) {
    event.respondWith(shell(request, path));
  }
});

/**
 * The shell from the network, kept for later; from the cache when the network
 * fails. The page is the one at `/` (its pages are in the address's fragment):
 * a document opened at any other address is not the app's and is not kept.
 * @param {Request} request
 * @param {string} key
 */
async function shell(request, key) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(key, answer.clone());
    return answer;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

/** The name of the cache of the user whose session this browser holds, if any. */
async function userCache() {
  return (await caches.keys()).find((name) => name.startsWith(USER_PREFIX)) ?? null;
}

async function forgetUsers() {
  for (const name of await caches.keys()) {
    if (name.startsWith(USER_PREFIX)) await caches.delete(name);
  }
}

/**
 * A kept answer, marked as one.
 * @param {Response} kept
 */
function offline(kept) {
  const headers = new Headers(kept.headers);
  headers.set(OFFLINE_HEADER, "1");
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}

/**
 * The user's cache's copy of a request, when the network failed.
 * @param {Request} request
 * @param {unknown} err
 */
async function fromUserCache(request, err) {
  const name = await userCache();
  const kept = name ? await (await caches.open(name)).match(request) : undefined;
  if (kept) return offline(kept);
  throw err;
}

/**
 * Who is logged in: a user's answer opens that user's cache (and drops any
 * other's); no session drops them all.
 * @param {Request} request
 */
async function session(request) {
  let answer;
  try {
    answer = await fetch(request);
  } catch (err) {
    return fromUserCache(request, err);
  }
  if (answer.status === 401) {
    await forgetUsers();
  } else if (answer.ok) {
    const body = /** @type {{ user?: { name?: string } }} */ (await answer.clone().json().catch(() => ({})));
    const name = body.user?.name;
    if (name) {
      const own = USER_PREFIX + encodeURIComponent(name);
      for (const other of await caches.keys()) {
        if (other.startsWith(USER_PREFIX) && other !== own) await caches.delete(other);
      }
      await (await caches.open(own)).put(request, answer.clone());
    }
  }
  return answer;
}

/**
 * A log-in or log-out: either way the session's cache is no longer its user's.
 * @param {Request} request
 */
async function sessionChange(request) {
  const answer = await fetch(request);
  if (answer.ok) await forgetUsers();
  return answer;
}

/**
 * Where a user's answer is kept, when a user's cache is open.
 * @param {Request} request
 * @param {(answer: Response, user: string) => Promise<boolean>} mine  whether it is the user's own
 */
async function keptForUser(request, mine) {
  let answer;
  try {
    answer = await fetch(request);
  } catch (err) {
    return fromUserCache(request, err);
  }
  const name = await userCache();
  if (answer.ok && name && await mine(answer.clone(), decodeURIComponent(name.slice(USER_PREFIX.length)))) {
    const cache = await caches.open(name);
    // Put last, so the keys' order is the order they were opened in.
    await cache.delete(request);
    await cache.put(request, answer.clone());
    const games = (await cache.keys()).filter((r) => /\/games\/[^/]+$/.test(new URL(r.url).pathname));
    for (const old of games.slice(0, Math.max(0, games.length - KEPT_GAMES))) await cache.delete(old);
  }
  return answer;
}

/**
 * The user's lists of games (the first page of each): the user's own.
 * @param {Request} request
 */
function ownGames(request) {
  return keptForUser(request, async () => true);
}

/**
 * A game: kept only when the user played in it.
 * @param {Request} request
 */
function ownGame(request) {
  return keptForUser(request, async (answer, user) => {
    const body = /** @type {{ game?: { red?: string, black?: string } }} */ (await answer.json().catch(() => ({})));
    return body.game?.red === user || body.game?.black === user;
  });
}
