// My messages: conversations grouped by person (the latest first), the inbox
// and the sent box, a page at a time; and the form that sends one. A message's
// text is always shown as text.

import * as api from "../api.js";
import { refreshCounts } from "../components/badges.js";
import { page, userLink } from "../components/layout.js";
import { conversationLink, refused, sendLink } from "../components/user-actions.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { onEvent } from "../live.js";
import { say } from "../notify.js";
import { go } from "../router.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").Message} Message */
/** @typedef {import("../models.js").MessagesPage} MessagesPage */
/** @typedef {import("../models.js").Conversation} Conversation */
/** @typedef {import("../models.js").ConversationsPage} ConversationsPage */

export const MAX_MESSAGE = 2000;

/** @param {number} ms */
export const stamp = (ms) => new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });

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

/**
 * Deletes a message for me, then runs `done`.
 * @param {Message} m
 * @param {() => void} done
 */
export function deleteButton(m, done) {
  return h("button", { type: "button", class: "delete small-button", title: t("messages.deleteTitle"), onclick: async () => {
    if (!confirm(t("messages.confirmDelete"))) return;
    try {
      await api.call("DELETE", `/messages/${encodeURIComponent(m.id)}`);
    } catch (err) {
      return refused(t("messages.delete"), err);
    }
    say(t("messages.deleted"));
    done();
    refreshCounts();
  } }, t("messages.delete"));
}

/**
 * A message as a list item: who, when, the text, and what to do with it.
 * @param {Message} m
 * @param {string} me
 * @param {() => void} changed
 * @param {boolean} [inThread]  shown in the conversation it belongs to
 */
export function messageItem(m, me, changed, inThread = false) {
  const mine = m.from === me;
  const other = mine ? m.to : m.from;
  const unread = !mine && !m.read;
  const li = h("li", { class: `message-item${mine ? " mine" : ""}${unread ? " unread" : ""}`, "data-id": m.id },
    h("div", { class: "message-head" },
      h("span", {}, mine ? t("messages.toLabel") : t("messages.fromLabel"), userLink(other)),
      unread ? h("span", { class: "new" }, t("messages.new")) : null,
      h("time", { class: "muted small" }, stamp(m.sent)),
      mine && m.read ? h("span", { class: "muted small" }, t("messages.readAt", { date: stamp(m.read) })) : null),
    h("p", { class: "message-body" }, m.body),
    h("div", { class: "row-actions" },
      inThread ? null : h("a", { class: "button-link", href: conversationLink(other) }, t("messages.open")),
      deleteButton(m, () => { li.remove(); changed(); })));
  return li;
}

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
          await api.call("POST", `/messages/with/${encodeURIComponent(c.with)}/read`);
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
      /** @type {ConversationsPage} */
      const p = await api.call("GET", `/messages/conversations?limit=20${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      return { items: p.conversations, next: p.next ?? null };
    }, (c) => conversationItem(c, me, redraw), "conversations", t("messages.none"))
    : await pagedList(async (after) => {
      /** @type {MessagesPage} */
      const p = await api.call("GET", `/messages?box=${box}&limit=20${after ? `&after=${encodeURIComponent(after)}` : ""}`);
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
 * A message form: the text, with what is left of its length.
 * @param {string} to  empty to ask for the recipient
 * @param {(to: string) => void} sent
 */
export function messageForm(to, sent) {
  const name = h("input", { name: "to", value: to, required: true, autocomplete: "off", maxlength: 20 });
  const body = h("textarea", { name: "body", required: true, maxlength: MAX_MESSAGE, rows: 5 });
  const left = h("span", { class: "muted small" }, t("messages.left", { count: MAX_MESSAGE }));
  body.addEventListener("input", () => (left.textContent = t("messages.left", { count: MAX_MESSAGE - body.value.length })));
  const button = h("button", { type: "submit", class: "primary" }, t("messages.send"));
  const form = h("form", { class: "card form message-form" },
    to ? h("input", { type: "hidden", name: "to", value: to }) : h("label", {}, t("messages.recipient"), name),
    h("label", {}, t("messages.text"), body), h("div", { class: "chat-send" }, left, button));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const recipient = (to || name.value).trim();
    button.disabled = true;
    try {
      await api.call("POST", "/messages", { to: recipient, body: body.value });
      body.value = "";
      left.textContent = t("messages.left", { count: MAX_MESSAGE });
      say(t("messages.sentTo", { name: recipient }));
      sent(recipient);
    } catch (err) {
      refused(t("messages.notSent", { name: recipient }), err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
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
