// The game page's buttons: while it is played, Submit and Take back for a move
// chosen on the board, the draw offer and its answers, abort or resign (asked
// twice), a claim on time; once it is over, a rematch and a new game.

import { outOfTime } from "../../components/clock.js";
import { button } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { go } from "../../router.js";
import { other } from "./controller.js";

/** @typedef {import("./controller.js").GameController} GameController */
/** @typedef {import("../../models.js").Color} Color */

/**
 * What the view adds to a button's press: the focus.
 * @typedef {object} ButtonHooks
 * @property {(move: string) => void} submit  sends the move chosen
 * @property {() => void} askResign  asks to confirm resigning
 * @property {() => void} takeBack  forgets the move chosen
 */

/**
 * @param {GameController} ctl
 * @param {ButtonHooks} hooks
 * @param {Color} color  mine
 * @param {boolean} myTurn
 */
export function playingButtons(ctl, hooks, color, myTurn) {
  const { game, pending, confirming } = ctl.state;
  const list = [];
  if (myTurn && pending && !ctl.instant()) {
    const move = pending;
    list.push(button(t("game.submit"), () => hooks.submit(move), { class: "primary", id: "submit", "data-action": "submit" }),
      button(t("game.takeBack"), hooks.takeBack, { id: "takeback", "data-action": "takeback" }));
  }
  if (!myTurn && ctl.state.premove) {
    list.push(h("span", { class: "offer", id: "premove" }, t("game.premove", { move: ctl.state.premove })),
      button(t("game.cancelPremove"), ctl.cancelPremove, { id: "cancel-premove", "data-action": "cancel-premove" }));
  }
  const opponent = game[other(color)];
  if (game.draw_offer === other(color)) {
    list.push(h("span", { class: "offer", id: "draw-offer" }, t("game.drawOfferedBy", { name: opponent })),
      button(t("game.acceptDraw"), ctl.acceptDraw, { id: "accept-draw", "data-action": "accept-draw" }),
      button(t("game.declineDraw"), ctl.declineDraw, { id: "decline-draw", "data-action": "decline-draw" }));
  } else if (game.draw_offer === color) {
    list.push(h("span", { class: "offer", id: "draw-offer" }, t("game.drawOfferMine", { name: opponent })));
  } else {
    list.push(button(t("game.offerDraw"), ctl.offerDraw, { id: "offer-draw", "data-action": "offer-draw" }));
  }
  if (game.ply < 2) {
    list.push(button(t("game.abort"), ctl.abort, { id: "abort", "data-action": "abort" }));
  } else if (confirming) {
    list.push(h("span", { class: "offer" }, t("game.confirmResign")),
      button(t("game.resignYes"), ctl.resign, { class: "danger", id: "resign-yes", "data-action": "resign-yes" }),
      button(t("game.resignNo"), ctl.keepPlaying, { id: "resign-no", "data-action": "resign-no" }));
  } else {
    list.push(button(t("game.resign"), hooks.askResign, { class: "danger", id: "resign", "data-action": "resign" }));
  }
  if (game.turn !== color && outOfTime(game)) list.push(button(t("game.claim"), ctl.claim, { id: "claim", "data-action": "claim" }));
  return list;
}

/**
 * @param {GameController} ctl
 * @param {Color} color  mine
 */
export function overButtons(ctl, color) {
  const { game, rematch } = ctl.state;
  const opponent = game[other(color)];
  const list = [];
  if (rematch.theirs) {
    const c = rematch.theirs;
    list.push(h("span", { class: "offer" }, t("game.rematchOffered", { name: opponent })),
      button(t("game.acceptRematch"), () => ctl.acceptRematch(c), { class: "primary", id: "rematch", "data-action": "rematch" }));
  } else if (rematch.mine) {
    list.push(h("span", { class: "offer", id: "rematch-sent" }, t("game.rematchSent", { name: opponent })));
  } else {
    list.push(button(t("game.rematch"), ctl.rematch, { class: "primary", id: "rematch", "data-action": "rematch" }));
  }
  list.push(button(t("game.newGame"), () => go(`#/new/${encodeURIComponent(opponent)}`), { id: "new-game", "data-action": "new-game" }));
  return list;
}
