// Private messages as list items (who, when, the text, and deleting it) and the
// form that sends one: shared by my messages and a conversation with one person.
// A message's text is always shown as text.

import { refreshCounts } from "../../components/badges.js";
import { userLink } from "../../components/layout.js";
import { conversationLink, refused } from "../../components/user-actions.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { say } from "../../notify.js";
import { deleteMessage, send } from "./endpoints.js";

/** @typedef {import("../../models.js").Message} Message */

export const MAX_MESSAGE = 2000;

/** @param {number} ms */
export const stamp = (ms) => new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });

/**
 * Deletes a message for me, then runs `done`.
 * @param {Message} m
 * @param {() => void} done
 */
export function deleteButton(m, done) {
  return h("button", { type: "button", class: "delete small-button", title: t("messages.deleteTitle"), onclick: async () => {
    if (!confirm(t("messages.confirmDelete"))) return;
    try {
      await deleteMessage(m.id);
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
      await send({ to: recipient, body: body.value });
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
