// The waiting room: open challenges, challenges to me, and mine.

import * as api from "../api.js";
import { button, card, listOr, page } from "../components/layout.js";
import { h } from "../dom.js";
import { clockText, colorName, rulesName } from "../format.js";
import { t } from "../i18n.js";
import { attempt } from "../notify.js";
import { go, refresh } from "../router.js";

/** @typedef {import("../models.js").Challenge} Challenge */
/** @typedef {import("../models.js").ChallengeLists} ChallengeLists */
/** @typedef {import("../models.js").Game} Game */

/**
 * @param {Challenge} c
 * @param {HTMLElement[]} actions
 */
function challengeItem(c, actions) {
  const who = c.auto ? t("room.auto") : c.opponent ? t("room.direct", { from: c.creator, to: c.opponent }) : c.creator;
  const color = c.color === "red" || c.color === "black" ? colorName(c.color) : t("new.color.random");
  return h("li", { class: "challenge", "data-challenge": c.id },
    h("span", {}, who),
    h("span", { class: "muted" }, t("room.terms", { rules: rulesName(c.rules), clock: clockText(c.clock), color })),
    ...actions);
}

/** @param {Challenge} c */
const accept = (c) => button(t("room.accept"), () => attempt(async () => {
  const game = await api.game("POST", `/challenges/${encodeURIComponent(c.id)}/accept`);
  go(`#/game/${encodeURIComponent(game.id)}`);
}));

/**
 * @param {Challenge} c
 * @param {string} label
 */
const close = (c, label) => button(label, () => attempt(async () => {
  await api.call("DELETE", `/challenges/${encodeURIComponent(c.id)}`);
  refresh();
}));

/** @param {HTMLElement} view */
export async function roomPage(view) {
  /** @type {ChallengeLists} */
  const c = await api.call("GET", "/challenges");
  page(view, t("room.title"),
    card(t("room.open"), listOr("challenges", c.open, (ch) => challengeItem(ch, [accept(ch)]), t("room.noneOpen"))),
    card(t("room.incoming"), listOr("challenges", c.incoming, (ch) => challengeItem(ch, [accept(ch), close(ch, t("room.decline"))]), t("room.none"))),
    card(t("room.outgoing"), listOr("challenges", c.outgoing, (ch) => challengeItem(ch, [close(ch, t("room.cancel"))]), t("room.none"))));
}
