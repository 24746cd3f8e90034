// Every call the message pages make to the server.

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").MessagesPage} MessagesPage */
/** @typedef {import("../../api-types.js").ConversationsPage} ConversationsPage */
/** @typedef {import("../../api-types.js").NewMessage} NewMessage */

/** @param {string} name */
const withPath = (name) => `/messages/with/${encodeURIComponent(name)}`;

/** `&after=` for a page after the first. @param {string | null} after */
const afterParam = (after) => (after ? `&after=${encodeURIComponent(after)}` : "");

/** My conversations, the latest first. @param {string | null} after @returns {Promise<ConversationsPage>} */
export const conversations = (after) => api.call("GET", `/messages/conversations?limit=20${afterParam(after)}`);

/** My inbox or sent box. @param {string} box @param {string | null} after @returns {Promise<MessagesPage>} */
export const box = (box, after) => api.call("GET", `/messages?box=${box}&limit=20${afterParam(after)}`);

/** My messages with one person. @param {string} name @param {string | null} after @returns {Promise<MessagesPage>} */
export const withPerson = (name, after) => api.call("GET", `${withPath(name)}?limit=20${afterParam(after)}`);

/** Marks what one person sent me as read. @param {string} name @returns {Promise<unknown>} */
export const markRead = (name) => api.call("POST", `${withPath(name)}/read`);

/** Deletes a message for me. @param {string} id @returns {Promise<unknown>} */
export const deleteMessage = (id) => api.call("DELETE", `/messages/${encodeURIComponent(id)}`);

/** @param {NewMessage} message @returns {Promise<unknown>} */
export const send = (message) => api.call("POST", "/messages", message);
