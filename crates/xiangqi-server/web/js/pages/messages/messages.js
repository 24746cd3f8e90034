// My messages: conversations grouped by person (the latest first), the inbox
// and the sent box, a page at a time; and the page that sends one.

import { refreshCounts } from "../../components/badges.js";
import { page } from "../../components/layout.js";
import { MAX_MESSAGE, messageForm, messageItem, stamp } from "./items.js";
import { pagedList } from "../../components/paged-list.js";
import { conversationLink, refused, sendLink } from "../../components/user-actions.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { onEvent } from "../../live.js";
import { go } from "../../router.js";
import { currentUser } from "../../state.js";
import * as endpoints from "./endpoints.js";

/** @typedef {import("../../models.js").Conversation} Conversation */

/**
 * A conversation as a list item.
 * @param {Conversation} c
 * @param {string} me
 * @param {() => void} changed
 */
function conversationItem(c, me, changed) {
  const mine = c.last.from === me;
  return h("li", { class: `conversation${c.unread ? " unread" : ""}`, "data-with": c.with },
    h("div", { class: "message-head" },
      h("a", { class: "with", href: conversationLink(c.with) }, c.with),
      c.unread ? h("span", { class: "new" }, t("messages.unread", { count: c.unread })) : null,
      h("time", { class: "muted small" }, stamp(c.last.sent))),
    h("p", { class: "message-body snippet" }, mine ? t("messages.you") : "", c.last.body),
    h("div", { class: "row-actions" },
      h("a", { class: "button-link", href: conversationLink(c.with) }, t("messages.open")),
      c.unread ? h("button", { type: "button", class: "mark-read", onclick: async () => {
        try {
          await endpoints.markRead(c.with);
        } catch (err) {
          return refused(t("messages.markRead"), err);
        }
        changed();
        refreshCounts();
      } }, t("messages.markRead")) : null,
      h("a", { class: "button-link", href: sendLink(c.with) }, t("messages.reply"))));
}

const BOXES = ["conversations", "inbox", "sent"];

/**
 * My messages.
 * @param {HTMLElement} view
 * @param {string[]} args  `inbox`, `sent`, or nothing for conversations
 */
export async function messagesPage(view, [box = "conversations"]) {
  if (!BOXES.includes(box)) box = "conversations";
  const me = currentUser()?.name ?? "";
  const redraw = () => messagesPage(view, [box]).catch((err) => refused(t("messages.title"), err));
  const tabs = h("nav", { class: "tabs" }, BOXES.map((b) =>
    h("a", { href: b === "conversations" ? "#/messages" : `#/messages/${b}`, class: b === box ? "tab active" : "tab", "aria-current": b === box ? "page" : null },
      t(b === "conversations" ? "messages.conversations" : b === "inbox" ? "messages.inbox" : "messages.sent"))));
  const list = box === "conversations"
    ? await pagedList(async (after) => {
      const p = await endpoints.conversations(after);
      return { items: p.conversations, next: p.next ?? null };
    }, (c) => conversationItem(c, me, redraw), "conversations", t("messages.none"))
    : await pagedList(async (after) => {
      const p = await endpoints.box(box, after);
      return { items: p.messages, next: p.next ?? null };
    }, (m) => messageItem(m, me, () => {}), "messages", t("messages.none"));
  page(view, t("messages.title"),
    h("div", { class: "toolbar" }, tabs, h("a", { class: "button-link primary", href: "#/send" }, t("messages.write"))),
    h("section", { class: "card" }, list));
  // A new message redraws the list it belongs in.
  return onEvent((msg) => {
    if (msg.type === "notice" && "kind" in msg && msg.kind === "message" && box !== "sent" && view.isConnected) redraw();
  });
}

/**
 * Send message: to the user named in the address, or to one typed in.
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export function sendPage(view, [to = ""]) {
  page(view, to ? t("messages.sendTo", { name: to }) : t("messages.sendTitle"),
    h("p", { class: "muted" }, t("messages.limits", { count: MAX_MESSAGE })),
    messageForm(to, (name) => go(conversationLink(name))));
}
