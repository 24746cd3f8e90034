// The players' clocks on the game page: live time counting down, or the hours
// left of a correspondence move.

import { duration } from "../format.js";
import { t, tn } from "../i18n.js";
import { h } from "../dom.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").Color} Color */

/**
 * An empty clock for a side; `tick` fills it.
 * @param {Color} color
 */
export function clockFace(color) {
  return h("span", { class: "clock", "data-clock": color });
}

/**
 * Updates every clock under `root` to the time now.
 * @param {ParentNode} root
 * @param {Game} game
 */
export function tick(root, game) {
  for (const node of root.querySelectorAll("[data-clock]")) {
    if (!(node instanceof HTMLElement)) continue;
    const color = node.dataset["clock"] === "black" ? "black" : "red";
    const clocks = game.clocks;
    if (clocks) {
      const running = clocks.running === color;
      node.textContent = duration(clocks[color] - (running ? Date.now() - clocks.since : 0));
      node.classList.toggle("running", running);
    } else if (game.deadline && game.turn === color) {
      const left = game.deadline - Date.now();
      node.textContent = left > 0 ? tn("clock.hoursLeft", Math.floor(left / 3600000)) : t("clock.deadlinePassed");
    } else {
      node.textContent = "";
    }
  }
}

/**
 * Whether the side to move has run out of time.
 * @param {Game} game
 */
export function outOfTime(game) {
  const now = Date.now();
  if (game.clocks) return game.clocks[game.turn] - (now - game.clocks.since) <= 0;
  // Absent (or null) outside correspondence.
  return game.deadline != null && now > game.deadline;
}
