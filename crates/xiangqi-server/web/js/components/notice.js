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
 * A link to what the notice is about: its game, or the waiting room for a
 * challenge; none for others (a private message: this UI has no inbox yet).
 * @param {Notice} notice
 */
export function noticeLink(notice) {
  if (notice.game && notice.kind !== "challenge") {
    return h("a", { href: `#/game/${encodeURIComponent(notice.game)}` }, t("notice.toGame"));
  }
  if (["challenge", "declined", "accepted", "rematch"].includes(notice.kind)) {
    return h("a", { href: "#/room" }, t("notice.toRoom"));
  }
  return null;
}
