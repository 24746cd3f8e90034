// Refusals from the server in the user's language. The server sends a stable
// code (`illegal_move`, `conflict`), a reason (`name_taken`) with its
// particulars, and an English sentence. A reason the catalogue words is shown in
// those words, in every language; a refusal without one is shown to English
// readers as the server's sentence, and to others as its code's meaning alone
// (never the English sentence inside another language).

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
  if (err.reason && err.reason !== "other" && isTextKey(reason)) return t(reason, err.params);
  if (lang === "en" || !err.code) return text;
  const key = `error.${err.code}`;
  return isTextKey(key) ? t(key) : text;
}
