// Board and piece preferences: how pieces look, the board's theme and the size
// of its pieces, coordinates, the notation of moves, animation, a sound, which
// paces' moves wait for Submit, the language, and the screen-reader mode. A visitor keeps them in this
// browser; a logged-in user on the server (`/me/preferences`), so they follow
// the user to every browser. A change applies at once to every board on the page.
//
// On log-in the server's copy wins, except once: when the server still has the
// defaults and this browser holds changes made before logging in, those changes
// are sent up (the visitor who set things up, then registered, keeps them). A
// language chosen before logging in is kept the same way by an account that
// never chose one, whatever else it changed.

import * as api from "./api.js";
import { LANGUAGES, lang, switchLanguage } from "./i18n.js";
import { currentUser, onUserChange } from "./state.js";

/** @typedef {import("./models.js").Prefs} Prefs */

/** The paces a game is played at, in the order the settings page lists them. */
export const SPEEDS = /** @type {const} */ (["bullet", "blitz", "rapid", "classical", "correspondence"]);

/** By default only correspondence moves wait for Submit. @type {Prefs["confirm_moves"]} */
const CONFIRM_DEFAULTS = { bullet: false, blitz: false, rapid: false, classical: false, correspondence: true };

/** @type {Readonly<Prefs>} */
export const DEFAULTS = Object.freeze({
  pieces: "traditional", theme: "wood", piece_size: 100, coordinates: "iccs", notation: "wxf",
  animation: true, sound: false, confirm_moves: Object.freeze(CONFIRM_DEFAULTS), language: null,
  screen_reader: false,
});

/** The values each choice offers, in the order the settings page lists them. */
export const CHOICES = /** @type {const} */ ({
  pieces: ["traditional", "simplified", "beginner"],
  theme: ["wood", "paper", "contrast"],
  coordinates: ["off", "iccs", "wxf"],
  notation: ["wxf", "chinese", "iccs"],
  language: ["en", "zh-Hans", "zh-Hant", "vi"],
});

export const SIZE_MIN = 80;
export const SIZE_MAX = 120;

const STORAGE_KEY = "xiangqi.prefs";

/**
 * A full, valid copy of whatever came in: unknown fields dropped, bad values
 * replaced by the defaults.
 * @param {unknown} raw
 * @returns {Prefs}
 */
export function normalise(raw) {
  const r = /** @type {Record<string, unknown>} */ (raw && typeof raw === "object" ? raw : {});
  /** @type {Prefs} */
  const p = { ...DEFAULTS };
  /**
   * @template {keyof typeof CHOICES} K
   * @param {K} key
   */
  const pick = (key) => {
    const v = r[key];
    const allowed = /** @type {readonly unknown[]} */ (CHOICES[key]);
    return allowed.includes(v) ? /** @type {Prefs[K]} */ (v) : DEFAULTS[key];
  };
  p.pieces = pick("pieces");
  p.theme = pick("theme");
  p.coordinates = pick("coordinates");
  p.notation = pick("notation");
  const confirm = /** @type {Record<string, unknown>} */ (r["confirm_moves"] && typeof r["confirm_moves"] === "object" ? r["confirm_moves"] : {});
  p.confirm_moves = { ...CONFIRM_DEFAULTS };
  for (const speed of SPEEDS) {
    if (typeof confirm[speed] === "boolean") p.confirm_moves[speed] = /** @type {boolean} */ (confirm[speed]);
  }
  p.language = pick("language");
  const size = Number(r["piece_size"]);
  p.piece_size = Number.isFinite(size) ? Math.min(SIZE_MAX, Math.max(SIZE_MIN, Math.round(size))) : DEFAULTS.piece_size;
  for (const key of /** @type {const} */ (["animation", "sound", "screen_reader"])) {
    if (typeof r[key] === "boolean") p[key] = r[key];
  }
  return p;
}

/** @param {Prefs} a @param {Prefs} b */
const same = (a, b) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));

/** What this browser saved, and whether it saved anything. */
function loadLocal() {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    return { prefs: normalise(text ? JSON.parse(text) : null), saved: text !== null };
  } catch {
    return { prefs: { ...DEFAULTS }, saved: false };
  }
}

/** @param {Prefs} p */
function saveLocal(p) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(p));
  } catch {
    // Without storage the choice lasts for this page only.
  }
}

let current = loadLocal().prefs;

/** @type {Set<(p: Prefs) => void>} */
const listeners = new Set();

/** The preferences in force now. */
export function prefs() {
  return current;
}

/**
 * Calls `fn` with the new preferences after every change.
 * @param {(p: Prefs) => void} fn
 * @returns {() => void} unsubscribes
 */
export function onPrefsChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The UI language a preference stands for ("zh" is the Simplified catalogue). @param {Prefs["language"]} l */
export const uiLanguage = (l) => (l === null ? null : Object.keys(LANGUAGES).find((code) => LANGUAGES[code]?.pref === l) ?? "en");

/** Puts the theme on the page, where the stylesheet picks it up. */
function apply() {
  document.documentElement.dataset["theme"] = current.theme;
  document.documentElement.dataset["pieces"] = current.pieces;
}

/** @param {Prefs} next */
function adopt(next) {
  const before = current;
  current = next;
  saveLocal(next);
  apply();
  for (const fn of [...listeners]) fn(next);
  // The page reads in one language from its start: a new one loads it again.
  const wanted = uiLanguage(next.language);
  if (next.language !== before.language || (wanted !== null && wanted !== lang)) switchLanguage(wanted);
}

/**
 * Changes some preferences: at once on the page, then in this browser, and on the
 * server for a logged-in user. Rejects with the server's refusal (the page keeps
 * the change).
 * @param {Partial<Prefs>} change
 */
export async function setPrefs(change) {
  const next = normalise({ ...current, ...change });
  if (currentUser()) {
    const answer = /** @type {{ preferences: Prefs }} */ (await api.call("PUT", "/me/preferences", next).catch((err) => {
      // A server without preferences (404) leaves them in this browser.
      if (err instanceof api.ApiError && err.status === 404) return { preferences: next };
      throw err;
    }));
    adopt(normalise(answer.preferences));
  } else {
    adopt(next);
  }
}

/** After a log-in: the server's copy, or this browser's changes sent up once. */
async function sync() {
  let server;
  try {
    server = normalise((/** @type {{ preferences: Prefs }} */ (await api.call("GET", "/me/preferences"))).preferences);
  } catch {
    return; // No preferences on the server (or it is away): this browser's stay.
  }
  const local = loadLocal();
  if (same(server, DEFAULTS) && local.saved && !same(local.prefs, DEFAULTS)) {
    const pushed = await api.call("PUT", "/me/preferences", local.prefs).catch(() => null);
    if (pushed) return adopt(normalise((/** @type {{ preferences: Prefs }} */ (pushed)).preferences));
    return;
  }
  if (server.language === null && local.saved && local.prefs.language !== null) {
    const kept = { ...server, language: local.prefs.language };
    const pushed = await api.call("PUT", "/me/preferences", kept).catch(() => null);
    server = pushed ? normalise((/** @type {{ preferences: Prefs }} */ (pushed)).preferences) : kept;
  }
  if (!same(server, current) || (server.language !== null && uiLanguage(server.language) !== lang)) adopt(server);
}

/** Applies the preferences to the page and follows log-ins. */
export function startPrefs() {
  apply();
  onUserChange((user, before) => {
    if (user && user.name !== before?.name) sync();
  });
}
