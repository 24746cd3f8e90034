// A challenge as a row of a list, with the answers to it (accept, decline,
// cancel): the same row wherever challenges are listed (the waiting room, Game
// status), so it reads and acts the same everywhere.

import * as api from "../api.js";
import { h } from "../dom.js";
import { clockText, colorName, rulesName } from "../format.js";
import { t } from "../i18n.js";
import { attempt } from "../notify.js";
import { go } from "../router.js";
import { setQueued } from "../state.js";
import { button } from "./layout.js";

/** @typedef {import("../models.js").Challenge} Challenge */

/**
 * A challenge: who, on what terms, and the answers given.
 * @param {Challenge} c
 * @param {HTMLElement[]} actions
 */
export function challengeItem(c, actions) {
  const who = c.auto ? t("room.auto") : c.opponent ? t("room.direct", { from: c.creator, to: c.opponent }) : c.creator;
  const color = c.color === "red" || c.color === "black" ? colorName(c.color) : t("new.color.random");
  return h("li", { class: "challenge", "data-challenge": c.id, "data-key": c.id },
    h("span", {}, who),
    h("span", { class: "muted" }, t("room.terms", { rules: rulesName(c.rules), clock: clockText(c.clock), color })),
    h("span", { class: c.rated ? "tag rated" : "tag casual" }, t(c.rated ? "ratings.rated" : "ratings.casual")),
    c.rematch_of ? h("a", { href: `#/game/${encodeURIComponent(c.rematch_of)}` }, t("room.rematchOf")) : null,
    ...actions);
}

/**
 * Accepts the challenge and goes to its game.
 * @param {Challenge} c
 */
export const acceptButton = (c) => button(t("room.accept"), () => attempt(async () => {
  /** @type {{ id: string }} */
  const game = await api.game("POST", `${api.challengePath(c.id)}/accept`);
  go(`#/game/${encodeURIComponent(game.id)}`);
}), { "data-action": "accept" });

/**
 * Declines a challenge to me, or cancels mine (`label` says which), then `done`.
 * @param {Challenge} c
 * @param {string} label
 * @param {() => void} done
 */
export const closeButton = (c, label, done) => button(label, () => attempt(async () => {
  await api.call("DELETE", api.challengePath(c.id));
  if (c.auto) setQueued(false);
  done();
}), { "data-action": "close" });
