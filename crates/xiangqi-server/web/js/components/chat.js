// A game's chat, beside the board: the two players write, anyone reads (the
// server's rule, said here so spectators know). Lines come live over the socket;
// in a correspondence game the chat reads as a dated conversation. It stops
// listening by itself once the page it is on goes away.

import * as api from "../api.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { watchChat, watchGame } from "../live.js";
import { currentUser } from "../state.js";
import { sendLink } from "./user-actions.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").ChatLine} ChatLine */

const MAX = 500;

/**
 * @param {number} at
 * @param {boolean} dated
 */
function when(at, dated) {
  const d = new Date(at);
  const time = d.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  return dated ? `${d.toLocaleDateString(document.documentElement.lang)} ${time}` : time;
}

/**
 * The chat of a game, as an element to put beside the board.
 * @param {Game} game
 */
export function gameChat(game) {
  const me = currentUser()?.name ?? null;
  const player = me === game.red || me === game.black;
  const opponent = me === game.red ? game.black : game.red;
  const dated = game.clock.kind === "correspondence";
  const lines = h("ol", { class: "chat-lines", "aria-live": "polite" });
  const empty = h("p", { class: "muted small chat-empty" }, t("chat.empty"));
  const problem = h("p", { class: "chat-error", role: "alert", hidden: true });
  let last = 0;

  /** @param {ChatLine} line */
  function add(line) {
    if (line.seq <= last) return;
    last = line.seq;
    empty.hidden = true;
    lines.append(h("li", { class: line.author === me ? "chat-line mine" : "chat-line", "data-seq": line.seq },
      h("span", { class: "chat-meta" }, h("b", {}, line.author), " ", h("time", {}, when(line.at, dated))),
      h("span", { class: "chat-body" }, line.body)));
    lines.scrollTop = lines.scrollHeight;
  }

  async function catchUp() {
    /** @type {{ lines: ChatLine[] }} */
    const r = await api.call("GET", `${api.gamePath(game.id)}/chat${last ? `?after=${last}` : ""}`);
    r.lines.forEach(add);
  }

  /** @type {HTMLElement} */
  let writer;
  if (player) {
    const input = h("textarea", { name: "body", maxlength: MAX, rows: 2, required: true, "aria-label": t("chat.write"), placeholder: t("chat.write") });
    const left = h("span", { class: "muted small" }, t("chat.left", { count: MAX }));
    input.addEventListener("input", () => (left.textContent = t("chat.left", { count: MAX - input.value.length })));
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey) {
        e.preventDefault();
        writer.dispatchEvent(new Event("submit", { cancelable: true }));
      }
    });
    writer = h("form", { class: "chat-form" }, input,
      h("div", { class: "chat-send" }, left, h("button", { type: "submit" }, t("chat.send"))));
    writer.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = input.value.trim();
      if (!body) return;
      problem.hidden = true;
      try {
        /** @type {{ line: ChatLine }} */
        const r = await api.call("POST", `${api.gamePath(game.id)}/chat`, { body });
        add(r.line);
        input.value = "";
        left.textContent = t("chat.left", { count: MAX });
      } catch (err) {
        problem.textContent = t("chat.refused", { reason: errorText(err) });
        problem.hidden = false;
      }
    });
  } else {
    writer = h("p", { class: "muted small chat-readonly" }, t("chat.readOnly"));
  }

  const box = h("section", { class: "card chat", id: "chat" },
    h("h2", {}, dated ? t("chat.conversation") : t("chat.title")),
    empty, lines, problem, writer,
    player && me ? h("p", { class: "small" }, h("a", { href: sendLink(opponent) }, t("chat.private", { name: opponent }))) : null);

  const stopChat = watchChat(game.id, add);
  // The socket pushes only lines written while it is open: fetch what came
  // before, and again whenever the game's state arrives (as after a reconnect).
  const stopGame = watchGame(game.id, () => catchUp().catch(() => null));
  const stop = () => { stopChat(); stopGame(); };
  catchUp().catch(() => null);
  const main = document.getElementById("main") ?? document.body;
  const watcher = new MutationObserver(() => {
    if (!box.isConnected) {
      stop();
      watcher.disconnect();
    }
  });
  watcher.observe(main, { childList: true });
  return box;
}
