// A form whose submit runs an action with the fields' values. Its error shows in
// the form itself, next to what the user just did, and goes on the next try.

import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { say } from "../notify.js";

/**
 * @typedef {object} Field
 * @property {string} name
 * @property {string} label
 * @property {"text" | "password" | "textarea"} [type]
 * @property {Record<string, string | boolean>} [attrs]
 */

/**
 * The values of a form's fields, by name.
 * @param {HTMLFormElement} form
 * @returns {Record<string, string>}
 */
export function values(form) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of new FormData(form)) out[k] = typeof v === "string" ? v : "";
  return out;
}

/**
 * Shows an error in a form (an empty text clears it).
 * @param {HTMLFormElement} form
 * @param {string} text
 */
export function formError(form, text) {
  let box = form.querySelector(".form-error");
  if (!box) {
    box = h("p", { class: "form-error", role: "alert" });
    form.append(box);
  }
  box.textContent = text;
  if (box instanceof HTMLElement) box.hidden = !text;
}

/**
 * Calls `action` with the form's values on submit; `reset` empties the fields
 * once it succeeds (passwords).
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, string>) => Promise<unknown>} action
 * @param {{ reset?: boolean }} [options]
 */
export function onSubmit(form, action, options = {}) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say("");
    formError(form, "");
    const submit = form.querySelector("button[type=submit]");
    if (submit instanceof HTMLButtonElement) submit.disabled = true;
    try {
      await action(values(form));
      if (options.reset) form.reset();
    } catch (err) {
      formError(form, errorText(err));
    } finally {
      if (submit instanceof HTMLButtonElement) submit.disabled = false;
    }
  });
  return form;
}

/**
 * A card form of labelled inputs and one submit button.
 * @param {Field[]} fields
 * @param {string} submitText
 * @param {(values: Record<string, string>) => Promise<unknown>} action
 * @param {{ reset?: boolean }} [options]
 */
export function form(fields, submitText, action, options = {}) {
  const inputs = fields.map(({ name, label, type = "text", attrs = {} }) =>
    h("label", {}, label, type === "textarea" ? h("textarea", { name, ...attrs }) : h("input", { name, type, ...attrs })));
  return onSubmit(h("form", { class: "card form" }, inputs, h("button", { type: "submit" }, submitText)), action, options);
}
