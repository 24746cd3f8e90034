// Hash routes: `#/name/arg/...`. Each page renders into a fresh container and may
// return a cleanup (stop watching a game, stop a timer) that runs when the user
// leaves it. A page answered 401 means the session ended: the login page shows.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { pageChanged } from "./notify.js";
import { currentUser, setUser } from "./state.js";

/** @typedef {() => void} Cleanup */
/**
 * @typedef {(view: HTMLElement, args: string[]) => Promise<Cleanup | void> | Cleanup | void} Page
 */
/**
 * @typedef {object} Route
 * @property {Page} page
 * @property {boolean} [open]  shown without logging in
 */

/** @type {Record<string, Route>} */
let routes = {};
/** @type {Route} */
let fallback;
/** @type {Page} */
let login;
/** @type {HTMLElement} */
let main;
/** @type {Cleanup | null} */
let cleanup = null;
let generation = 0;
/** The address last rendered: a message lasts while the user stays on it. */
let shown = "";

/** The current route's name and decoded arguments. */
export function current() {
  const [, name = "", ...args] = location.hash.split("/");
  return { name, args: args.map((a) => decodeURIComponent(a)) };
}

/** Renders the page the address names (again). */
export async function refresh() {
  cleanup?.();
  cleanup = null;
  const mine = ++generation;
  const { name, args } = current();
  const route = routes[name] ?? fallback;
  if (location.hash !== shown) {
    shown = location.hash;
    pageChanged();
  }
  const view = h("div", { class: "view" }, h("p", { class: "muted loading" }, t("app.loading")));
  main.replaceChildren(view);
  const page = currentUser() || route.open ? route.page : login;
  try {
    const done = await page(view, args);
    if (mine !== generation) done?.();
    else cleanup = done ?? null;
  } catch (err) {
    if (mine !== generation) return;
    if (err instanceof ApiError && err.status === 401) {
      setUser(null);
      await login(view, []);
      return;
    }
    failed(view, name, args[0] ?? "", err);
  }
}

/**
 * A page that could not be shown says why, in place of the page: never an
 * endless "Loading…".
 * @param {HTMLElement} view
 * @param {string} name  the route's name
 * @param {string} arg   its first argument
 * @param {unknown} err
 */
function failed(view, name, arg, err) {
  const notFound = err instanceof ApiError && err.status === 404;
  let text = errorText(err);
  if (notFound && name === "game") text = t("app.noGame", { id: arg });
  if (notFound && name === "user") text = t("app.noUser", { name: arg });
  view.replaceChildren(
    h("h1", {}, notFound ? t("app.notFound") : t("app.failed")),
    h("p", { class: "message error", role: "alert" }, text),
    h("p", {}, h("a", { href: "#/status" }, t("app.home"))));
}

/**
 * Goes to an address; renders again when it is the current one.
 * @param {string} hash
 */
export function go(hash) {
  if (location.hash === hash) refresh();
  else location.hash = hash;
}

/**
 * Starts routing.
 * @param {HTMLElement} container
 * @param {Record<string, Route>} table
 * @param {Route} otherwise  for an empty or unknown name
 * @param {Page} loginPage   for a page that needs a session when there is none
 */
export function startRouter(container, table, otherwise, loginPage) {
  main = container;
  routes = table;
  fallback = otherwise;
  login = loginPage;
  window.addEventListener("hashchange", refresh);
  refresh();
}
