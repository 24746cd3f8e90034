// Refusals from the server in the user's language. The server sends a stable
// code (`illegal_move`, `conflict`), a reason (`name_taken`) with its
// particulars, and an English sentence. Every reason is worded in every
// catalogue; a particular that is itself a name (the act a limit counts, why a
// move is illegal) is worded too; English readers get a `detail` the server
// sends in the server's words. Only a refusal from something other than
// this server (a proxy's page, say) falls back: to its sentence for English
// readers, to its code's meaning for others (never English inside another
// language).

import { ApiError } from "./api.js";
import { isTextKey, lang, t } from "./i18n.js";

/**
 * What went wrong, in words for the user.
 * @param {unknown} err
 */
export function errorText(err) {
  const text = err instanceof Error ? err.message : String(err);
  if (!(err instanceof ApiError)) return text;
  const reason = `refusal.${err.reason}`;
  // A refusal with a `detail` (the server's own account of a malformed request
  // or position) reads best in the server's words where they are the reader's.
  if (lang === "en" && err.params?.detail) return text.charAt(0).toUpperCase() + text.slice(1);
  if (err.reason && isTextKey(reason)) return t(reason, worded(err.params));
  if (lang === "en" || !err.code) return text;
  const key = `error.${err.code}`;
  return isTextKey(key) ? t(key) : text;
}

/**
 * A refusal's particulars, with those that are names in the reader's words.
 * @param {Record<string, unknown> | undefined} params
 * @returns {Record<string, string | number>}
 */
function worded(params) {
  /** @type {Record<string, string | number>} */
  const out = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    const key = `refusal.${name}.${value}`;
    out[name] = typeof value === "string" && isTextKey(key) ? t(key) : typeof value === "number" ? value : String(value);
  }
  return out;
}
