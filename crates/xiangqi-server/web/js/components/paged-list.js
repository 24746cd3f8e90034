// A list read from the server a page at a time: a "more" button fetches the
// next page, and an empty list says so.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { refused } from "./user-actions.js";

/**
 * A list filled a page at a time: a "more" button fetches the next page.
 * @template T
 * @param {(after: string | null) => Promise<{ items: T[], next: string | null }>} fetchPage
 * @param {(item: T) => HTMLElement} row
 * @param {string} cls
 * @param {string} empty
 */
export async function pagedList(fetchPage, row, cls, empty) {
  const list = h("ul", { class: cls });
  const more = h("button", { type: "button", class: "more" }, t("paging.more"));
  const box = h("div", { class: "paged" }, list, more);
  /** @param {string | null} after */
  async function load(after) {
    const p = await fetchPage(after);
    list.append(...p.items.map(row));
    more.hidden = !p.next;
    more.onclick = () => load(p.next).catch((err) => refused(t("paging.more"), err));
    if (!after && p.items.length === 0) box.replaceChildren(h("p", { class: "muted" }, empty));
  }
  await load(null);
  return box;
}
