// Every call the game database pages make to the server: the search of
// finished games, my imports and the Masters collection.

import * as api from "../../api.js";
import { t } from "../../i18n.js";

/** @typedef {import("../../api-types.js").ImportAnswer} ImportAnswer */
/** @typedef {import("../../api-types.js").ImportedPage} ImportedPage */
/** @typedef {import("../../api-types.js").ImportsDeleted} ImportsDeleted */
/** @typedef {import("../../api-types.js").FoundGamesPage} FoundGamesPage */

/** The API path of the games a search finds, as one PGN download. @param {URLSearchParams} q */
export const foundGamesPgn = (q) => `/database/games.pgn?${q}`;

/** A page of the games a search finds. @param {URLSearchParams} q @returns {Promise<FoundGamesPage>} */
export const findGames = (q) => api.call("GET", `/database/games?${q}`);

/** A page of the Masters collection. @param {URLSearchParams} q @returns {Promise<ImportedPage>} */
export const mastersGames = (q) => api.call("GET", `/masters?${q}`);

/** A page of my imported games. @param {string | null} after @returns {Promise<ImportedPage>} */
export const importedGames = (after) => api.call("GET", `/imports?limit=20${after ? `&after=${encodeURIComponent(after)}` : ""}`);

/** @param {string} id @returns {Promise<unknown>} */
export const deleteImported = (id) => api.call("DELETE", `/imports/${encodeURIComponent(id)}`);

/** @returns {Promise<ImportsDeleted>} */
export const deleteAllImported = () => api.call("DELETE", "/imports");

/** The HTTP status of each kind of refusal, for one that comes inside a streamed answer. @type {Record<string, number>} */
const STATUS = { bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409,
  payload_too_large: 413, too_many_requests: 429, internal: 500, unavailable: 503 };

/**
 * Sends one file's bytes to my imports or the Masters collection, calling
 * `progress` with the share of the bytes sent (0 to 1) and then, for my
 * imports, which answer as they go, with the records replayed of those the
 * file holds.
 * @param {"imports" | "masters"} into
 * @param {Blob} body
 * @param {string} encoding  empty for the server's guess
 * @param {(share: number) => void} progress
 * @param {(checked: number, total: number) => void} [records]
 * @returns {Promise<ImportAnswer>}
 */
export function importRecords(into, body, encoding, progress, records) {
  const q = new URLSearchParams();
  if (encoding) q.set("encoding", encoding);
  const streamed = Boolean(records);
  if (streamed) q.set("progress", "true");
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", api.apiUrl(`/${into}${q.size ? `?${q}` : ""}`));
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-Xiangqi", "1");
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) progress(e.loaded / e.total); };
    xhr.onerror = () => reject(new api.ApiError(t("import.network"), 0, undefined));
    /** @param {any} data @param {number} status */
    const refuse = (data, status) =>
      reject(new api.ApiError(data.message || xhr.statusText, status, data.error, data.reason, data.params));
    // A streamed answer is lines of JSON: progress, then the answer or the refusal.
    let seen = 0;
    const lines = () => {
      const text = xhr.responseText;
      const end = text.lastIndexOf("\n");
      if (end < seen) return [];
      const fresh = text.slice(seen, end).split("\n").filter((l) => l.trim());
      seen = end + 1;
      return fresh.map((l) => { try { return JSON.parse(l); } catch { return {}; } });
    };
    xhr.onprogress = () => {
      if (!streamed || xhr.status >= 300) return;
      for (const event of lines()) {
        if (event.progress && records) records(event.progress.checked, event.progress.total);
        else if (event.answer) resolve(event.answer);
        else if (event.error) refuse(event.error, STATUS[event.error.error] ?? 400);
      }
    };
    xhr.onload = () => {
      if (streamed && xhr.status >= 200 && xhr.status < 300) {
        xhr.onprogress?.(new ProgressEvent("progress"));
        return;
      }
      /** @type {any} */
      let data = {};
      try { data = JSON.parse(xhr.responseText); } catch { /* not JSON: the status says enough */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(/** @type {ImportAnswer} */ (data));
      else refuse(data, xhr.status);
    };
    xhr.send(body);
  });
}
