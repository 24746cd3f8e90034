// A game: the board, the players and their clocks, the moves, and the actions
// (submit or take back the pending move, draw offers, resign, claim on time).
// A move is chosen on the board, then submitted; the live socket brings the
// opponent's moves.

import * as api from "../api.js";
import { Board } from "../components/board.js";
import { gameChat } from "../components/chat.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { clockFace, outOfTime, tick } from "../components/clock.js";
import { button, userLink } from "../components/layout.js";
import { moveList } from "../components/movelist.js";
import { h } from "../dom.js";
import { clockText, colorName, outcomeText, rulesName } from "../format.js";
import { t } from "../i18n.js";
import { attempt, sayError } from "../notify.js";
import { ApiError } from "../api.js";
import { watchGame } from "../live.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").Color} Color */

/**
 * The colour the logged-in user plays in a game, if any.
 * @param {Game} game
 * @returns {Color | null}
 */
function myColor(game) {
  const me = currentUser();
  if (!me) return null;
  return game.red === me.name ? "red" : game.black === me.name ? "black" : null;
}

/** @param {Color} c */
const other = (c) => (c === "red" ? "black" : "red");

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the game id
 */
export async function gamePage(view, [id = ""]) {
  let game = await api.game("GET", api.gamePath(id));
  /** @type {string | null} */
  let pending = null;
  let flipped = myColor(game) === "black";
  const boardBox = h("div", { class: "board-box" });
  const side = h("aside", { class: "game-side" });
  view.replaceChildren(h("div", { class: "game" }, boardBox, side));
  view.firstElementChild?.append(gameChat(game));
  const geometry = game.rules === "hex" ? hex : standard;
  const board = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"), (move) => {
    pending = move;
    show(game);
  });

  /** @param {string} what @param {object} body */
  const act = (what, body) => attempt(async () => show(await api.game("POST", `${api.gamePath(game.id)}/${what}`, body)));

  async function submit() {
    try {
      const next = await api.game("POST", `${api.gamePath(game.id)}/moves`, { ply: game.ply, move: pending });
      pending = null;
      show(next);
    } catch (err) {
      sayError(err);
      if (err instanceof ApiError && err.status === 409) {
        pending = null;
        show(await api.game("GET", api.gamePath(game.id)));
      }
    }
  }

  /** @param {Color} color @param {boolean} myTurn */
  function buttons(color, myTurn) {
    const list = [];
    if (myTurn && pending) {
      list.push(button(t("game.submit"), submit, { class: "primary", id: "submit" }),
        button(t("game.takeBack"), () => { pending = null; show(game); }, { id: "takeback" }));
    }
    if (game.draw_offer === other(color)) {
      list.push(button(t("game.acceptDraw"), () => act("draw", { action: "accept" })),
        button(t("game.declineDraw"), () => act("draw", { action: "decline" })));
    } else if (!game.draw_offer) {
      list.push(button(t("game.offerDraw"), () => act("draw", { action: "offer" })));
    }
    list.push(button(t("game.resign"), () => confirm(t("game.confirmResign")) && act("resign", {}), { class: "danger" }));
    if (game.turn !== color && outOfTime(game)) list.push(button(t("game.claim"), () => act("claim", {})));
    return list;
  }

  /** @param {boolean} myTurn */
  function statusText(myTurn) {
    if (game.outcome) return outcomeText(game.outcome);
    if (myTurn) return pending ? t("game.pending") : t("game.yourMove");
    const params = { color: colorName(game.turn, true), name: game[game.turn] };
    return game.check ? t("game.toMoveCheck", params) : t("game.toMove", params);
  }

  /** @param {Color} c */
  const player = (c) => h("div", { class: `player ${c}${game.turn === c && game.status === "active" ? " to-move" : ""}` },
    h("span", { class: `dot ${c}` }), userLink(game[c]), clockFace(c));

  /** @param {Game} next */
  function show(next) {
    if (next.ply !== game.ply) pending = null;
    game = next;
    const color = myColor(game);
    const myTurn = game.status === "active" && color === game.turn;
    board.show({ fen: game.fen, legal: myTurn ? game.legal ?? [] : [], flipped, last: game.last_move, mine: myTurn ? color : null, pending });
    const flip = h("a", { href: "#", onclick: (e) => { e.preventDefault(); flipped = !flipped; show(game); } }, t("game.flip"));
    const terms = [t("game.terms", { rules: rulesName(game.rules), clock: clockText(game.clock) })];
    if (game.draw_offer) terms.push(t("game.drawOffered", { color: colorName(game.draw_offer) }));
    side.replaceChildren(
      player(flipped ? "red" : "black"),
      h("div", { class: "status", id: "status" }, statusText(myTurn)),
      h("div", { class: "buttons" }, color && game.status === "active" ? buttons(color, myTurn) : []),
      moveList(game.moves ?? []),
      player(flipped ? "black" : "red"),
      h("p", { class: "muted small" }, terms.join(" · "), " · ",
        h("a", { href: `/api/v1${api.gamePath(game.id)}/pgn` }, t("game.pgn")), " · ", flip));
    const moves = side.querySelector(".moves");
    if (moves) moves.scrollTop = moves.scrollHeight;
    tick(side, game);
  }

  show(game);
  const unwatch = watchGame(game.id, (next) => {
    if (next.version >= game.version) show(next);
  });
  const timer = setInterval(() => tick(side, game), 250);
  return () => {
    unwatch();
    clearInterval(timer);
  };
}
