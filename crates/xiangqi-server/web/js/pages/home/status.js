// Game status: everything waiting on me or on others: challenges to me and mine
// (answered in place), then my games, split into my turn, their turn and
// finished, each read a page at a time. The lists follow the server: a new
// challenge, a new game, a move or an end shows without a reload.

import * as endpoints from "./endpoints.js";
import { acceptButton, challengeItem, closeButton } from "../../components/challenges.js";
import { card, listOr, moreButton, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, colorName, movesText, outcomeText, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { onLobby, onNotice } from "../../live.js";
import { currentUser } from "../../state.js";

/** @typedef {import("../../models.js").GameSummary} GameSummary */
/** @typedef {import("../../models.js").GameLists} GameLists */
/** @typedef {import("../../models.js").ChallengeLists} ChallengeLists */

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
 * Challenges to me (accept or decline) and mine (cancel); a list is shown only
 * while it holds one.
 * @param {ChallengeLists} c
 * @param {(after: string) => Promise<void>} moreIncoming
 * @param {() => void} answered
 */
function challengeCards(c, moreIncoming, answered) {
  return [
    c.incoming.length ? card(t("status.challengesToMe", { count: c.incoming.length }),
      listOr("challenges", c.incoming, (ch) => challengeItem(ch, [acceptButton(ch), closeButton(ch, t("room.decline"), answered)]), ""),
      moreButton(c.incoming_next, moreIncoming, "more-incoming")) : null,
    c.outgoing.length ? card(t("status.myChallenges", { count: c.outgoing.length }),
      listOr("challenges", c.outgoing, (ch) => challengeItem(ch, [closeButton(ch, t("room.cancel"), answered)]), "")) : null,
  ];
}

/**
 * The challenges, then the three lists of games, each with a "More" button
 * while the server has more.
 * @param {ChallengeLists} challenges
 * @param {GameLists} games
 * @param {{ incoming: (after: string) => Promise<void>, playing: (after: string) => Promise<void>, finished: (after: string) => Promise<void>, answered: () => void }} more
 */
function lists(challenges, games, more) {
  const me = currentUser()?.name ?? "";
  /** @param {GameSummary[]} items @param {string} empty */
  const list = (items, empty) => listOr("games", items, (g) => gameRow(g, me), empty);
  return h("div", { class: "lists" },
    ...challengeCards(challenges, more.incoming, more.answered),
    card(t("status.myTurn", { count: games.my_turn.length }), list(games.my_turn, t("status.noneMine"))),
    card(t("status.theirTurn", { count: games.their_turn.length }), list(games.their_turn, t("status.none"))),
    games.playing_next ? h("p", { class: "more-row" }, moreButton(games.playing_next, more.playing, "more-playing", t("status.morePlaying"))) : null,
    card(t("status.finished", { count: games.finished.length }), list(games.finished, t("status.noneFinished")),
      moreButton(games.next, more.finished, "more-finished")));
}

/** @param {HTMLElement} view */
export async function statusPage(view) {
  // Offline, the games may be kept (the service worker keeps a user's own) but
  // the challenges are not: the page shows the games without them.
  const unreachable = (/** @type {unknown} */ err) => {
    if (err instanceof TypeError) return { incoming: [], outgoing: [], open: [] };
    throw err;
  };
  let [games, challenges] = await Promise.all([endpoints.myGames(), endpoints.myChallenges().catch(unreachable)]);
  let shown = draw();
  page(view, t("status.title"), shown);

  function draw() {
    return lists(challenges, games, { incoming: moreIncoming, playing: morePlaying, finished: moreFinished, answered: update });
  }
  function redraw() {
    const next = draw();
    swapKeepingFocus(shown, next);
    shown = next;
  }
  /** @param {string} after */
  async function moreIncoming(after) {
    const p = await endpoints.moreIncoming(after);
    challenges = { ...challenges, incoming: [...challenges.incoming, ...p.challenges], incoming_next: p.next ?? null };
    redraw();
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
  async function update() {
    const mine = ++asked;
    const fresh = await Promise.all([endpoints.myGames(), endpoints.myChallenges()]).catch(() => null);
    if (!fresh || mine !== asked || !shown.isConnected) return;
    [games, challenges] = fresh;
    redraw();
  }
  const stopLobby = onLobby(update);
  const stopNotices = onNotice(update);
  return () => {
    stopLobby();
    stopNotices();
  };
}
