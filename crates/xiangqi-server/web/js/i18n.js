// UI text: every sentence the user reads comes from a catalogue in messages/.
// `en` defines the keys; each other catalogue must have exactly those keys
// (its type is `Catalogue`), so a missing translation or a key a page uses
// that no catalogue has fails the type check.

import { en } from "./messages/en.js";
import { vi } from "./messages/vi.js";
import { zh } from "./messages/zh.js";
import { zhHant } from "./messages/zh-Hant.js";

/**
 * Plural forms by Intl.PluralRules category; `other` is always present.
 * @typedef {{ other: string, zero?: string, one?: string, two?: string, few?: string, many?: string }} Plural
 */
/** @typedef {string | Plural} Message */
/** @typedef {keyof typeof en} MessageKey */
/** @typedef {Record<MessageKey, Message>} Catalogue */
/** Keys of plain messages. @typedef {{ [K in MessageKey]: (typeof en)[K] extends string ? K : never }[MessageKey]} TextKey */
/** Keys of messages with plural forms. @typedef {Exclude<MessageKey, TextKey>} PluralKey */
/** @typedef {Record<string, string | number>} Params */

/**
 * The UI's languages by code ("zh" is Simplified Chinese), each named in itself;
 * `pref` is how the preferences (and the server) name it.
 * @type {Record<string, { name: string, pref: "en" | "zh-Hans" | "zh-Hant" | "vi", messages: Catalogue }>}
 */
export const LANGUAGES = {
  en: { name: "English", pref: "en", messages: en },
  zh: { name: "中文（简体）", pref: "zh-Hans", messages: zh },
  "zh-Hant": { name: "中文（繁體）", pref: "zh-Hant", messages: zhHant },
  vi: { name: "Tiếng Việt", pref: "vi", messages: vi },
};

/** Chinese written in traditional characters: Taiwan, Hong Kong, Macau, or said outright. */
const TRADITIONAL = /^zh-(hant|tw|hk|mo)\b/;

const STORAGE_KEY = "xiangqi.lang";

/** The language the user chose here before, else the browser's, else English. */
function chooseLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage may be off (private mode); the browser's language still applies.
  }
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lower = tag.toLowerCase();
    if (TRADITIONAL.test(lower)) return "zh-Hant";
    const base = lower.split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export const lang = chooseLanguage();
const messages = LANGUAGES[lang].messages;
const plurals = new Intl.PluralRules(lang);

/**
 * Remembers a language (null: the browser's) and reloads the page in it.
 * @param {string | null} code
 */
export function switchLanguage(code) {
  try {
    if (code === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Without storage the choice lasts only until this reload.
  }
  location.reload();
}

/**
 * Fills `{name}` placeholders.
 * @param {string} text
 * @param {Params} params
 */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A plain message.
 * @param {TextKey} key
 * @param {Params} [params]
 */
export function t(key, params = {}) {
  const m = messages[key];
  return fill(typeof m === "string" ? m : m.other, params);
}

/**
 * A message with plural forms, chosen by `count` (also available as `{count}`).
 * @param {PluralKey} key
 * @param {number} count
 * @param {Params} [params]
 */
export function tn(key, count, params = {}) {
  const m = messages[key];
  const forms = typeof m === "string" ? { other: m } : m;
  const text = forms[plurals.select(count)] ?? forms.other;
  return fill(text, { count: count.toLocaleString(lang), ...params });
}

/**
 * A date as the user's language writes it.
 * @param {number} ms
 */
export function date(ms) {
  return new Date(ms).toLocaleDateString(lang);
}

/**
 * Whether a key built at run time (from a name the server sends) is a plain message.
 * @param {string} key
 * @returns {key is TextKey}
 */
export function isTextKey(key) {
  return Object.hasOwn(messages, key) && typeof (/** @type {Record<string, Message>} */ (messages))[key] === "string";
}
