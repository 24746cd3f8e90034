// Game status: my games, split into my turn, their turn and finished, each read
// a page at a time. The lists follow the server: a new game, a move or an end
// shows without a reload.

import * as endpoints from "./endpoints.js";
import { card, listOr, moreButton, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, colorName, movesText, outcomeText, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { onLobby, onNotice } from "../../live.js";
import { currentUser } from "../../state.js";

/** @typedef {import("../../models.js").GameSummary} GameSummary */
/** @typedef {import("../../models.js").GameLists} GameLists */

/**
 * One game as a row: the opponent, my colour, the terms and whose move it is.
 * @param {GameSummary} g
 * @param {string} me
 */
function gameRow(g, me) {
  const color = g.red === me ? "red" : "black";
  const opponent = color === "red" ? g.black : g.red;
  // A game over has a result or was aborted: nobody is to move in it any more.
  const state = g.outcome ? outcomeText(g.outcome)
    : g.status === "aborted" ? t("status.aborted")
      : g.status !== "active" ? ""
        : g.turn === color ? t("status.yourMove") : t("status.theirMove", { name: opponent });
  return h("li", { class: "game-row", "data-key": g.id },
    h("a", { href: `#/game/${encodeURIComponent(g.id)}` }, t("status.versus", { name: opponent })),
    h("span", { class: `side ${color}` }, colorName(color)),
    h("span", { class: "muted" }, t("status.summary", { rules: rulesName(g.rules), clock: clockText(g.clock), moves: movesText(g.ply) })),
    h("span", {}, state));
}

/**
 * The three lists, each with a "More" button while the server has more.
 * @param {GameLists} games
 * @param {(after: string) => Promise<void>} morePlaying
 * @param {(after: string) => Promise<void>} moreFinished
 */
function lists(games, morePlaying, moreFinished) {
  const me = currentUser()?.name ?? "";
  /** @param {GameSummary[]} items @param {string} empty */
  const list = (items, empty) => listOr("games", items, (g) => gameRow(g, me), empty);
  return h("div", { class: "lists" },
    card(t("status.myTurn", { count: games.my_turn.length }), list(games.my_turn, t("status.noneMine"))),
    card(t("status.theirTurn", { count: games.their_turn.length }), list(games.their_turn, t("status.none"))),
    games.playing_next ? h("p", { class: "more-row" }, moreButton(games.playing_next, morePlaying, "more-playing", t("status.morePlaying"))) : null,
    card(t("status.finished", { count: games.finished.length }), list(games.finished, t("status.noneFinished")),
      moreButton(games.next, moreFinished, "more-finished")));
}

/** @param {HTMLElement} view */
export async function statusPage(view) {
  let games = await endpoints.myGames();
  let shown = draw();
  page(view, t("status.title"), shown);

  function draw() {
    return lists(games, morePlaying, moreFinished);
  }
  function redraw() {
    const next = draw();
    swapKeepingFocus(shown, next);
    shown = next;
  }
  /** @param {string} after */
  async function morePlaying(after) {
    const p = await endpoints.morePlaying(after);
    games = { ...games, my_turn: [...games.my_turn, ...p.my_turn], their_turn: [...games.their_turn, ...p.their_turn], playing_next: p.next ?? null };
    redraw();
  }
  /** @param {string} after */
  async function moreFinished(after) {
    const p = await endpoints.moreFinished(after);
    games = { ...games, finished: [...games.finished, ...p.finished], next: p.next ?? null };
    redraw();
  }

  // A change reads the first pages again.
  let asked = 0;
  const update = async () => {
    const mine = ++asked;
    const fresh = await endpoints.myGames().catch(() => null);
    if (!fresh || mine !== asked || !shown.isConnected) return;
    games = fresh;
    redraw();
  };
  const stopLobby = onLobby(update);
  const stopNotices = onNotice(update);
  return () => {
    stopLobby();
    stopNotices();
  };
}
