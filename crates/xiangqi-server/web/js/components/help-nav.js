// The row of links shared by the help pages and Game Rules.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../i18n.js").TextKey} TextKey */

/**
 * Links between the help pages; the current one is marked.
 * @param {"rules" | "help" | "tips"} here
 */
export function helpNav(here) {
  /** @type {[string, TextKey][]} */
  const pages = [["rules", "nav.rules"], ["help", "nav.help"], ["tips", "nav.tips"]];
  return h("nav", { class: "subnav", "aria-label": t("help.pages") },
    pages.map(([name, key]) => h("a", { href: `#/${name}`, "aria-current": name === here ? "page" : null }, t(key))));
}
