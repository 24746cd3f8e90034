// The message line under the header: confirmations fade, errors stay.

import { $ } from "./dom.js";

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/**
 * Shows a message; an empty text hides the line.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function say(text, kind = "info") {
  const box = $("#message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
  clearTimeout(timer);
  if (text && kind !== "error") timer = setTimeout(() => (box.hidden = true), 5000);
}

/**
 * Shows an error's message.
 * @param {unknown} err
 */
export function sayError(err) {
  say(err instanceof Error ? err.message : String(err), "error");
}

/**
 * Runs an action, showing its error if it fails.
 * @param {() => Promise<unknown> | unknown} action
 */
export async function attempt(action) {
  try {
    await action();
  } catch (err) {
    sayError(err);
  }
}
