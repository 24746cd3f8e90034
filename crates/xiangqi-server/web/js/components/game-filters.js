// The choices a search of games offers, shared by the games database and the
// analysis board's explorer: paces, rule sets, and a select of them.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../i18n.js").TextKey} TextKey */

export const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"];
export const RULE_SETS = ["asian", "itsyourturn", "casual", "hex"];

/**
 * A select of `values`, each worded by `word`, with "any" first.
 * @param {string} name
 * @param {string[]} values
 * @param {(v: string) => string} word
 */
export function choice(name, values, word) {
  return h("select", { name }, h("option", { value: "" }, t("db.any")), values.map((v) => h("option", { value: v }, word(v))));
}

/** @param {string} speed */
export const speedName = (speed) => t(/** @type {TextKey} */ (`speed.${speed}`));
