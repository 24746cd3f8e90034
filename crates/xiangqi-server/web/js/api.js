// The one way to call the JSON API: same-origin cookies, the header the server's
// CSRF guard asks for, and errors as exceptions carrying the HTTP status. Each
// answer, or its failure, tells whether the server is reachable.

import { noteAnswer, noteFailure } from "./offline.js";

import { localRules } from "./local.js";

/** @typedef {import("./models.js").User} User */
/** @typedef {import("./models.js").Game} Game */
/** @typedef {import("./models.js").Challenge} Challenge */

/** An API answer other than 2xx, with the server's message, reason and its particulars. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {string | undefined} code
   * @param {string} [reason]
   * @param {Record<string, string | number>} [params]
   */
  constructor(message, status, code, reason, params) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.params = params ?? {};
  }
}

/**
 * Fetches, noting whether the server answered.
 * @param {string} url
 * @param {RequestInit} init
 */
async function reach(url, init) {
  try {
    const res = await fetch(url, init);
    noteAnswer(res);
    return res;
  } catch (err) {
    noteFailure(err);
    throw err;
  }
}

/**
 * Calls `/api/v1{path}`; resolves to the parsed answer (`null` for 204).
 * The caller names the answer's type, which the server's API documents.
 * @template T
 * @param {"GET" | "POST" | "PUT" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { "X-Xiangqi": "1" };
  /** @type {RequestInit} */
  const init = { method, credentials: "same-origin", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await reach(`/api/v1${path}`, init);
  if (res.status === 204) return /** @type {T} */ (null);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(data.message || res.statusText, res.status, data.error, data.reason, data.params);
  return data;
}

/**
 * Posts a file's bytes to `/api/v1{path}`; resolves to the parsed answer.
 * @template T
 * @param {string} path
 * @param {Blob} body
 * @returns {Promise<T>}
 */
export async function sendBytes(path, body) {
  const res = await reach(`/api/v1${path}`, {
    method: "POST", credentials: "same-origin", body,
    headers: { "X-Xiangqi": "1", "Content-Type": "application/octet-stream" },
  });
  /** @type {any} */
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(data.message || res.statusText, res.status, data.error, data.reason, data.params);
  return data;
}

/** The address of an API path, for a link or a download. @param {string} path */
export const apiUrl = (path) => `/api/v1${path}`;

/**
 * Every position of a line, as the rules read it: in the page where the
 * WebAssembly rules run, from the server (`POST /positions`) elsewhere. A line
 * the page's rules refuse is asked of the server too, whose refusal names
 * the fault in the reader's language.
 * @param {import("./api-types.js").LineRequest} request
 * @returns {Promise<import("./api-types.js").LineAnswer>}
 */
export async function line(request) {
  const local = await localRules();
  if (local) {
    try {
      return local.line(request);
    } catch {
      // Worded by the server below.
    }
  }
  return call("POST", "/positions", request);
}

/** @param {string} name */
export const userPath = (name) => `/users/${encodeURIComponent(name)}`;

/** @param {string} id */
export const gamePath = (id) => `/games/${encodeURIComponent(id)}`;

/** @param {string} id */
export const challengePath = (id) => `/challenges/${encodeURIComponent(id)}`;

/**
 * The server's `{ user }` answer.
 * @param {"GET" | "POST" | "PUT"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<User>}
 */
export async function user(method, path, body) {
  const answer = /** @type {{ user: User }} */ (await call(method, path, body));
  return answer.user;
}

/**
 * The server's `{ game }` answer.
 * @param {"GET" | "POST"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Game>}
 */
export async function game(method, path, body) {
  const answer = /** @type {{ game: Game }} */ (await call(method, path, body));
  return answer.game;
}
