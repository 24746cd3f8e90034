// The help pages: how to start and play a game here, and features and tips.
// With Game Rules (rules.js) they share a row of links. Open to visitors.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { helpNav } from "../components/help-nav.js";

/** @typedef {import("../i18n.js").TextKey} TextKey */

/**
 * A section of headed paragraphs.
 * @param {TextKey} title
 * @param {TextKey[]} paragraphs
 */
const part = (title, paragraphs) => h("section", {}, h("h2", {}, t(title)), paragraphs.map((key) => h("p", {}, t(key))));

/** How to start and play a game on this site. @param {HTMLElement} view */
export function helpPage(view) {
  view.replaceChildren(h("div", { class: "help" }, helpNav("help"),
    h("h1", {}, t("help.title")),
    h("p", { class: "lead" }, t("help.lead")),
    part("help.account.title", ["help.account.text"]),
    part("help.start.title", ["help.start.challenge", "help.start.room", "help.start.auto", "help.start.terms"]),
    part("help.move.title", ["help.move.click", "help.move.submit", "help.move.live", "help.move.keys", "help.move.screenReader", "help.move.type"]),
    part("help.status.title", ["help.status.text"]),
    part("help.end.title", ["help.end.text", "help.end.rematch"])));
}

/** Features and tips. @param {HTMLElement} view */
export function tipsPage(view) {
  view.replaceChildren(h("div", { class: "help" }, helpNav("tips"),
    h("h1", {}, t("tips.title")),
    part("tips.settings.title", ["tips.settings.text", "tips.settings.beginner", "tips.settings.contrast"]),
    part("tips.notation.title", ["tips.notation.text"]),
    part("tips.watch.title", ["tips.watch.text"]),
    part("tips.position.title", ["tips.position.text"]),
    part("tips.language.title", ["tips.language.text"]),
    part("tips.better.title", ["tips.better.text"])));
}
