// Opening names: the ECCO classification's table, fetched once per page load,
// each code named in the reader's language (simplified or traditional
// Chinese; English or Vietnamese where a published name exists, else the
// Chinese name beside the code).

import * as api from "../api.js";
import { h } from "../dom.js";
import { lang } from "../i18n.js";

/** @typedef {import("../api-types.js").OpeningView} OpeningView */

/** @type {Promise<Map<string, OpeningView>> | null} */
let table = null;

/** The table by code. */
export function openingTable() {
  table ??= api.call("GET", "/openings")
    .then((/** @type {import("../api-types.js").OpeningsAnswer} */ a) => new Map(a.openings.map((o) => [o.code, o])))
    .catch(() => {
      table = null;
      return new Map();
    });
  return table;
}

/**
 * An opening's name in the reader's language.
 * @param {OpeningView} o
 */
export function openingName(o) {
  if (lang === "zh") return o.simplified;
  if (lang === "zh-Hant") return o.traditional;
  if (lang === "vi") return o.vietnamese ?? o.simplified;
  return o.english ?? o.simplified;
}

/**
 * An element naming an opening by its code, filled in once the table is here.
 * @param {string | null | undefined} code
 */
export function openingLabel(code) {
  const span = h("span", { class: "opening", "data-opening": code ?? "" }, code ?? "");
  if (!code) return span;
  openingTable().then((t) => {
    const o = t.get(code);
    if (o) span.textContent = `${code} ${openingName(o)}`;
  });
  return span;
}
