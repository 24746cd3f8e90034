// A form whose submit runs an action with the fields' values and shows its error.

import { h } from "../dom.js";
import { attempt } from "../notify.js";

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
 * Calls `action` with the form's values on submit.
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, string>) => Promise<unknown>} action
 */
export function onSubmit(form, action) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    attempt(() => action(values(form)));
  });
  return form;
}

/**
 * A card form of labelled inputs and one submit button.
 * @param {Field[]} fields
 * @param {string} submitText
 * @param {(values: Record<string, string>) => Promise<unknown>} action
 */
export function form(fields, submitText, action) {
  const inputs = fields.map(({ name, label, type = "text", attrs = {} }) =>
    h("label", {}, label, type === "textarea" ? h("textarea", { name, ...attrs }) : h("input", { name, type, ...attrs })));
  return onSubmit(h("form", { class: "card form" }, inputs, h("button", { type: "submit" }, submitText)), action);
}
