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
 * A link to what the notice is about: its game or study, Game status for a
 * challenge to me, the waiting room for an answer to mine, the conversation
 * for a message.
 * @param {Notice} notice
 */
export function noticeLink(notice) {
  if (notice.study) {
    return h("a", { href: `#/study/${encodeURIComponent(notice.study)}` }, t("notice.toStudy"));
  }
  if (notice.game && notice.kind !== "challenge") {
    return h("a", { href: `#/game/${encodeURIComponent(notice.game)}` }, t("notice.toGame"));
  }
  // A challenge to me is answered on Game status, with everything else that
  // waits on me; there already, the page shows it.
  if (notice.kind === "challenge" || notice.kind === "rematch") {
    return location.hash.startsWith("#/status") ? null : h("a", { href: "#/status" }, t("notice.toStatus"));
  }
  if (["declined", "accepted"].includes(notice.kind)) {
    return h("a", { href: "#/room" }, t("notice.toRoom"));
  }
  if (notice.kind === "message") {
    return h("a", { href: `#/with/${encodeURIComponent(notice.from ?? "")}` }, t("notice.toMessages"));
  }
  return null;
}
