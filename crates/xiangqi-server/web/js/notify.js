// The message line under the header. A message belongs to the page it was said
// on: the router clears it when the user goes to another page, and any new
// action clears the one before. Confirmations fade; errors stay until then, or
// until the user dismisses them. A confirmation meant for the next page (a
// challenge posted, then the waiting room) is said with `sayNext`.

import { $, h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

/** @typedef {import("./dom.js").Child} Child */

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
/** @type {{ content: Child[], kind: "info" | "error" } | null} */
let next = null;

/**
 * Shows a message (text, or text with links); an empty text hides the line.
 * @param {string | Child[]} content
 * @param {"info" | "error"} [kind]
 */
export function say(content, kind = "info") {
  const box = $("#message");
  const parts = typeof content === "string" ? [content] : content;
  clearTimeout(timer);
  if (!parts.some((p) => p !== "" && p !== null && p !== undefined && p !== false)) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const close = h("button", { type: "button", class: "dismiss", "aria-label": t("message.dismiss"), onclick: () => say("") }, "×");
  box.replaceChildren(h("span", {}, ...parts), close);
  box.className = `message ${kind}`;
  box.hidden = false;
  if (kind !== "error") timer = setTimeout(() => say(""), 8000);
}

/**
 * Shows a message on the page the user goes to next.
 * @param {string} text
 */
export function sayNext(text) {
  next = { content: [text], kind: "info" };
}

/** A new page: the last page's message goes, and one said for this page shows. */
export function pageChanged() {
  const waiting = next;
  next = null;
  if (waiting) say(waiting.content, waiting.kind);
  else say("");
}

/**
 * Shows an error's message.
 * @param {unknown} err
 */
export function sayError(err) {
  say(errorText(err), "error");
}

/**
 * Runs an action, clearing the last message first and showing its error if it fails.
 * @param {() => Promise<unknown> | unknown} action
 */
export async function attempt(action) {
  say("");
  try {
    await action();
  } catch (err) {
    sayError(err);
  }
}
