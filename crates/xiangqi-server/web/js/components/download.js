// A download with a choice of the file's format beside it: PGN with its moves
// in ICCS, WXF or Chinese, or XQF where the file holds one game. The link
// itself is a plain `download` link to the API, so the browser saves the file
// as the server streams it; choosing a format changes where it points.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** What the server writes a download as (`?format=` of every download). @typedef {"pgn" | "pgn-wxf" | "pgn-chinese" | "xqf"} ExportFormat */

/** The formats of a file of many games. @type {ExportFormat[]} */
export const MANY = ["pgn-wxf", "pgn", "pgn-chinese"];
/** The formats of one game's file. @type {ExportFormat[]} */
export const ONE = [...MANY, "xqf"];

/** @type {Record<ExportFormat, import("../i18n.js").TextKey>} */
const WORDS = { pgn: "download.iccs", "pgn-wxf": "download.wxf", "pgn-chinese": "download.chinese", xqf: "download.xqf" };

/** The format chosen last on this page load, which the next download offers first. @type {ExportFormat} */
let chosen = "pgn-wxf";

/**
 * The address of a download in a format: `?format=` added to `path` (an API
 * path that may have a query already).
 * @param {string} path  from `/api/v1`
 * @param {ExportFormat} format
 */
export function downloadUrl(path, format) {
  return `/api/v1${path}${path.includes("?") ? "&" : "?"}format=${format}`;
}

/**
 * A link that downloads `path` in the format chosen beside it.
 * @param {object} o
 * @param {string} o.id  the link's id; the choice's is `${id}-format`
 * @param {string} o.label  the link's words
 * @param {string} o.path  the API path (and query) of the download
 * @param {ExportFormat[]} [o.formats]  those offered, the file's own first
 */
export function downloadLink({ id, label, path, formats = MANY }) {
  const first = formats.includes(chosen) ? chosen : formats[0] ?? "pgn-wxf";
  const link = h("a", { id, class: "download-link", href: downloadUrl(path, first), download: "" }, label);
  const choice = h("select", { id: `${id}-format`, "aria-label": t("download.format") },
    formats.map((f) => h("option", { value: f, selected: f === first }, t(WORDS[f]))));
  choice.addEventListener("change", () => {
    const f = formats.find((x) => x === choice.value);
    if (!f) return;
    chosen = f;
    link.href = downloadUrl(path, f);
  });
  return h("span", { class: "download" }, link, " ", choice);
}
