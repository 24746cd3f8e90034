// My messages with one person, newest first, a page at a time, with a reply
// form. Opening it marks what they sent me as read; a new message from them
// appears while it is open.

import { refreshCounts } from "../../components/badges.js";
import { page, userLink } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { onEvent } from "../../live.js";
import { currentUser } from "../../state.js";
import { messageForm, messageItem } from "./items.js";
import { pagedList } from "../../components/paged-list.js";
import { markRead, withPerson } from "./endpoints.js";

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the other person's name
 */
export async function conversationPage(view, [name = ""]) {
  const me = currentUser()?.name ?? "";
  const holder = h("section", { class: "card" });
  async function draw() {
    const list = await pagedList(async (after) => {
      const p = await withPerson(name, after);
      return { items: p.messages, next: p.next ?? null };
    }, (m) => messageItem(m, me, () => {}, true), "messages thread", t("messages.noneWith", { name }));
    holder.replaceChildren(list);
    await markRead(name);
    refreshCounts();
  }
  await draw();
  page(view, t("messages.with", { name }),
    h("p", {}, userLink(name), " · ", h("a", { href: "#/messages" }, t("messages.back"))),
    messageForm(name, () => draw()),
    holder);
  return onEvent((msg) => {
    if (msg.type === "notice" && "kind" in msg && msg.kind === "message" && msg.from?.toLowerCase() === name.toLowerCase()) draw();
  });
}
