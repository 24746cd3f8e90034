// Refusals from the server in the user's language. The server sends a stable
// code (`illegal_move`, `conflict`) and an English sentence: English readers get
// the sentence, which says the most; others get the code's meaning in their
// language, with the server's sentence after it as the detail.

import { ApiError } from "./api.js";
import { isTextKey, lang, t } from "./i18n.js";

/**
 * What went wrong, in words for the user.
 * @param {unknown} err
 */
export function errorText(err) {
  const text = err instanceof Error ? err.message : String(err);
  if (!(err instanceof ApiError) || lang === "en" || !err.code) return text;
  const key = `error.${err.code}`;
  if (!isTextKey(key)) return text;
  return text ? t("error.withDetail", { text: t(key), detail: text }) : t(key);
}
