// Pieces every page uses: the page title, cards, lists with an empty text, links to people.

import { playerName } from "../format.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { attempt } from "../notify.js";

/** @typedef {import("../dom.js").Child} Child */

/**
 * Fills a page's view with a title and content.
 * @param {HTMLElement} view
 * @param {string} title
 * @param {...(Child | Child[])} content
 */
export function page(view, title, ...content) {
  view.replaceChildren(h("h1", {}, title), ...content.flat().filter((c) => c instanceof Node));
}

/**
 * A card with a heading.
 * @param {string} title
 * @param {...(Child | Child[])} content
 */
export function card(title, ...content) {
  return h("section", { class: "card" }, h("h2", {}, title), ...content);
}

/**
 * A list, or a muted sentence when there is nothing to list.
 * @template T
 * @param {string} cls
 * @param {T[]} items
 * @param {(item: T) => HTMLElement} row
 * @param {string} empty
 */
export function listOr(cls, items, row, empty) {
  return items.length ? h("ul", { class: cls }, items.map(row)) : h("p", { class: "muted" }, empty);
}

/** @param {string} name */
export function userLink(name) {
  return h("a", { href: `#/user/${encodeURIComponent(name)}` }, playerName(name));
}

/**
 * A button that runs an action.
 * @param {string} label
 * @param {() => unknown} action
 * @param {Record<string, string>} [attrs]
 */
export function button(label, action, attrs = {}) {
  return h("button", { type: "button", ...attrs, onclick: () => action() }, label);
}

/**
 * The "More" button under a list that is read a page at a time, or nothing
 * on the last page. `action` names it, so a list drawn again keeps its focus.
 * @param {string | null | undefined} next  the key of the next page
 * @param {(after: string) => Promise<unknown>} load
 * @param {string} action
 * @param {string} [label]
 */
export function moreButton(next, load, action, label = t("paging.more")) {
  if (!next) return null;
  return button(label, () => attempt(() => load(next)), { class: "more", "data-action": action });
}

/**
 * Replaces a part of a page with a new copy, keeping the keyboard focus on the
 * same control when the copy has it: the same `data-key` on the control or an
 * element around it, and the same `data-action`.
 * @param {Element} old
 * @param {Element} fresh
 */
export function swapKeepingFocus(old, fresh) {
  const focused = document.activeElement;
  let selector = null;
  if (focused instanceof HTMLElement && old.contains(focused)) {
    const keyed = focused.closest("[data-key]");
    const key = keyed instanceof HTMLElement ? keyed.dataset["key"] : undefined;
    const action = focused.dataset["action"];
    const inKey = key !== undefined ? `[data-key="${CSS.escape(key)}"]` : "";
    const named = action ? `[data-action="${CSS.escape(action)}"]` : "";
    if (inKey || named) selector = inKey && named ? `${inKey} ${named}` : inKey || named;
  }
  old.replaceWith(fresh);
  if (!selector) return;
  const again = fresh.querySelector(selector) ?? (fresh.matches(selector) ? fresh : null);
  if (again instanceof HTMLElement) again.focus();
}
