// Notices from the server in the user's language, by kind; a kind this UI does
// not know reads as the server's English.

import { h } from "../dom.js";
import { isTextKey, t } from "../i18n.js";

/** @typedef {import("../models.js").Notice} Notice */

/**
 * The notice in words.
 * @param {Notice} notice
 */
export function noticeText(notice) {
  const key = `notice.${notice.kind}`;
  return isTextKey(key) ? t(key, { from: notice.from ?? "" }) : notice.text;
}

/**
 * A link to what the notice is about: its game or study, the waiting room for
 * a challenge, the conversation for a message.
 * @param {Notice} notice
 */
export function noticeLink(notice) {
  if (notice.study) {
    return h("a", { href: `#/study/${encodeURIComponent(notice.study)}` }, t("notice.toStudy"));
  }
  if (notice.game && notice.kind !== "challenge") {
    return h("a", { href: `#/game/${encodeURIComponent(notice.game)}` }, t("notice.toGame"));
  }
  if (["challenge", "declined", "accepted", "rematch"].includes(notice.kind)) {
    return h("a", { href: "#/room" }, t("notice.toRoom"));
  }
  if (notice.kind === "message") {
    return h("a", { href: `#/with/${encodeURIComponent(notice.from ?? "")}` }, t("notice.toMessages"));
  }
  return null;
}
