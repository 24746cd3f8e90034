// Game status: my games, split into my turn, their turn and finished. The lists
// follow the server: a new game, a move or an end shows without a reload.

import * as api from "../api.js";
import { card, listOr, page, swapKeepingFocus } from "../components/layout.js";
import { h } from "../dom.js";
import { clockText, colorName, outcomeText, rulesName } from "../format.js";
import { t, tn } from "../i18n.js";
import { onLobby, onNotice } from "../live.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").GameLists} GameLists */

/**
 * One game as a row: the opponent, my colour, the terms and whose move it is.
 * @param {Game} g
 * @param {string} me
 */
function gameRow(g, me) {
  const color = g.red === me ? "red" : "black";
  const opponent = color === "red" ? g.black : g.red;
  const state = g.outcome ? outcomeText(g.outcome) : g.turn === color ? t("status.yourMove") : t("status.theirMove", { name: opponent });
  return h("li", { class: "game-row", "data-key": g.id },
    h("a", { href: `#/game/${encodeURIComponent(g.id)}` }, t("status.versus", { name: opponent })),
    h("span", { class: `side ${color}` }, colorName(color)),
    h("span", { class: "muted" }, t("status.summary", { rules: rulesName(g.rules), clock: clockText(g.clock), moves: tn("moves.count", g.ply) })),
    h("span", {}, state));
}

/** @param {GameLists} games */
function lists(games) {
  const me = currentUser()?.name ?? "";
  /** @param {Game[]} items @param {string} empty */
  const list = (items, empty) => listOr("games", items, (g) => gameRow(g, me), empty);
  return h("div", { class: "lists" },
    card(t("status.myTurn", { count: games.my_turn.length }), list(games.my_turn, t("status.noneMine"))),
    card(t("status.theirTurn", { count: games.their_turn.length }), list(games.their_turn, t("status.none"))),
    card(t("status.finished", { count: games.finished.length }), list(games.finished, t("status.noneFinished"))));
}

/** @param {HTMLElement} view */
export async function statusPage(view) {
  /** @type {GameLists} */
  const games = await api.call("GET", "/games");
  let shown = lists(games);
  page(view, t("status.title"), shown);
  let asked = 0;
  const update = async () => {
    const mine = ++asked;
    const fresh = /** @type {GameLists} */ (await api.call("GET", "/games").catch(() => null));
    if (!fresh || mine !== asked || !shown.isConnected) return;
    const next = lists(fresh);
    swapKeepingFocus(shown, next);
    shown = next;
  };
  const stopLobby = onLobby(update);
  const stopNotices = onNotice(update);
  return () => {
    stopLobby();
    stopNotices();
  };
}
