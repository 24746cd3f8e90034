// The game page as drawn: the players and their clocks round the board, where
// the game stands (in words too, for screen readers), the buttons, a box to
// type a move in, the moves, the terms and links, a finished game's review and
// the chat. The page is built once; `render` updates its parts in place, so a
// half-typed move and the keyboard focus survive the opponent's moves.

import { pgnUrl } from "./endpoints.js";
import { Board } from "../../components/board.js";
import { hex } from "../../components/board-hex.js";
import { standard } from "../../components/board-standard.js";
import { gameChat } from "../../components/chat.js";
import { clockFace, tick } from "../../components/clock.js";
import { formError } from "../../components/form.js";
import { swapKeepingFocus, userLink } from "../../components/layout.js";
import { moveList } from "../../components/movelist.js";
import { reviewPanel } from "../../components/review.js";
import { h } from "../../dom.js";
import { openingLabel } from "../../components/openings.js";
import { clockText, colorName, computerLevel, moveNumber, outcomeText, playerName, plySide, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { isRed, parseFen } from "../../fen.js";
import { moveText, otherText } from "../../notation.js";
import { gameAnalysisLink } from "../../links.js";
import { overButtons, playingButtons } from "./buttons.js";
import { other } from "./controller.js";

/** The longest move anyone types: a Chinese move is 4 characters, a hex one 6; the rest is a slip. */
const MOVE_TEXT_MAX = 16;

/** @typedef {import("./controller.js").GameController} GameController */
/** @typedef {import("../../models.js").Color} Color */

/**
 * Where the game stands, in words.
 * @param {GameController} ctl
 * @param {boolean} myTurn
 * @param {boolean} back  an earlier position is shown
 */
function statusText(ctl, myTurn, back) {
  const { game, pending, computer } = ctl.state;
  if (game.status === "aborted") return t("game.aborted");
  if (game.outcome) return outcomeText(game.outcome);
  if (myTurn && back) return t("game.yourMoveBack");
  if (myTurn && pending) return ctl.instant() ? t("game.sending") : t("game.pending");
  if (myTurn) return game.check ? t("game.yourMoveCheck") : t("game.yourMove");
  if (computerLevel(game[game.turn]) !== null && game.status === "active") {
    const waiting = computer && computer.state === "queued" && computer.ahead > 0;
    return waiting ? t("computer.queued", { ahead: computer?.ahead ?? 1 }) : t("computer.thinking");
  }
  const params = { color: colorName(game.turn, true), name: playerName(game[game.turn]) };
  return game.check ? t("game.toMoveCheck", params) : t("game.toMove", params);
}

/**
 * The last move in words, for everyone and for screen readers.
 * @param {GameController} ctl
 */
function lastMoveText(ctl) {
  const played = ctl.state.game.moves;
  const last = played[played.length - 1];
  if (!last) return t("game.noMoves");
  const by = colorName(plySide(played.length), true);
  return t("game.lastMove", { number: moveNumber(played.length), color: by, wxf: moveText(last, played.length - 1), iccs: otherText(last) });
}

/**
 * Builds the page in `view` and answers how to draw the state anew and how to
 * stop what it runs (the clocks, the review's polling).
 * @param {HTMLElement} view
 * @param {GameController} ctl
 */
export function gameView(view, ctl) {
  const first = ctl.state.game;
  const top = h("div", { class: "player player-top" });
  const bottom = h("div", { class: "player player-bottom" });
  const boardBox = h("div", { class: "board-box" });
  const status = h("p", { class: "status", id: "status" });
  const lastMove = h("p", { class: "last-move", id: "last-move" });
  // While an earlier position is shown: the way back to the game as it stands.
  const toLive = h("button", { type: "button", id: "back-to-live", class: "back-to-live", hidden: true, onclick: () => { ctl.showMove(Infinity); board.focus(); } },
    t("game.backToLive"));
  const statusBox = h("div", { class: "status-box", role: "status", "aria-live": "polite" }, status, lastMove, toLive);
  let actions = h("div", { class: "buttons", id: "actions" });
  const entryInput = h("input", {
    name: "move", id: "move-text", autocomplete: "off", autocapitalize: "off", spellcheck: "false", maxlength: String(MOVE_TEXT_MAX),
    placeholder: t(first.variant === "hex" ? "game.typePlaceholderHex" : "game.typePlaceholder"),
  });
  const entry = h("form", { class: "move-entry", id: "move-entry" },
    h("label", { for: "move-text" }, t("game.typeMove")), entryInput, h("button", { type: "submit" }, t("game.play")));
  const moves = h("div", { class: "moves-box" });
  const info = h("p", { class: "muted small game-info" });
  const reviewSlot = h("div", { class: "review-slot" });
  // The computer neither chats nor reads messages: no conversation in its games.
  const againstComputer = computerLevel(first.red) !== null || computerLevel(first.black) !== null;
  view.replaceChildren(h("div", { class: "game" }, top, boardBox, statusBox, actions, entry, bottom, moves, info, reviewSlot,
    againstComputer ? null : gameChat(first)));
  /** @type {ReturnType<typeof reviewPanel> | null} */
  let review = null;

  const geometry = first.rules === "hex" ? hex : standard;
  const board = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"), (move) => {
    if (ctl.canPremove()) {
      board.announce(t("game.premove", { move }));
      void ctl.queuePremove(move);
      return;
    }
    ctl.choose(move);
    board.announce(t("game.moved", { move }));
    if (ctl.instant()) submit(move);
  });

  /**
   * Sends a move; the focus goes back to the board when it came from there.
   * @param {string} move
   */
  async function submit(move) {
    const fromKeys = actions.contains(document.activeElement);
    await ctl.submit(move);
    if (fromKeys) board.focus();
  }

  /** @type {import("./buttons.js").ButtonHooks} */
  const hooks = {
    submit,
    askResign() {
      ctl.askResign();
      actions.querySelector("#resign-yes")?.closest("button")?.focus();
    },
    takeBack() {
      ctl.takeBack();
      board.focus();
    },
  };

  /**
   * @param {HTMLElement} box
   * @param {Color} c
   */
  function fillPlayer(box, c) {
    const game = ctl.state.game;
    box.className = `player ${box === top ? "player-top" : "player-bottom"} ${c}${game.turn === c && game.status === "active" ? " to-move" : ""}`;
    box.replaceChildren(h("span", { class: `dot ${c}`, "aria-hidden": "true" }), h("span", { class: "sr-only" }, colorName(c, true)),
      userLink(game[c]), clockFace(c));
  }

  /**
   * Every move of one of `color`'s pieces to a point not holding another of them.
   * @param {string} fen
   * @param {Color} color
   */
  function premoveTargets(fen, color) {
    const pieces = parseFen(geometry.rows, fen);
    const mine = (/** @type {string | undefined} */ letter) => letter !== undefined && isRed(letter) === (color === "red");
    return [...pieces].filter(([, letter]) => mine(letter))
      .flatMap(([from]) => geometry.cells.filter((to) => !mine(pieces.get(to))).map((to) => `${from}${to}`));
  }

  /** @param {boolean} [stepped]  another position is shown: the review follows */
  function render(stepped = false) {
    const { game, pending, flipped, note, viewing, line, marks, better } = ctl.state;
    const color = ctl.mine();
    const active = game.status === "active";
    const past = viewing !== null && line ? line[viewing] : undefined;
    // Moves are made on the position as it stands, never on an earlier one.
    const myTurn = active && color === game.turn && !past;
    // Checkmate leaves a ring round the loser's general in the final position.
    const mated = game.outcome?.reason === "checkmate" && game.outcome.winner ? other(game.outcome.winner) : null;
    const preferred = active ? undefined : better.get(viewing ?? game.moves.length);
    const arrows = preferred ? [{ move: preferred, kind: /** @type {const} */ ("better") }] : [];
    if (past) {
      board.show({ fen: past.fen, flipped, last: past.played?.iccs ?? null, check: past.check ? past.turn : null, arrows });
    } else if (color && ctl.canPremove()) {
      // The opponent to move: my pieces may go anywhere but onto my own, as a
      // premove; the server judges it once the opponent has moved.
      const queued = ctl.state.premove;
      board.show({
        fen: game.fen, legal: premoveTargets(game.fen, color), flipped, last: game.last_move ?? null, mine: color,
        check: game.check ? game.turn : null, arrows: queued ? [{ move: queued, kind: /** @type {const} */ ("premove") }] : [],
      });
    } else {
      board.show({
        fen: game.fen, legal: myTurn ? game.legal : [], flipped, last: game.last_move ?? null,
        mine: myTurn ? color : null, pending, check: active && game.check ? game.turn : null, mated, arrows,
      });
    }
    fillPlayer(top, flipped ? "red" : "black");
    fillPlayer(bottom, flipped ? "black" : "red");
    status.textContent = statusText(ctl, active && color === game.turn, Boolean(past));
    status.classList.toggle("check", active && game.check);
    lastMove.textContent = past && viewing !== null
      ? t("game.viewing", { number: moveNumber(viewing), color: colorName(plySide(viewing), true), total: moveNumber(game.moves.length) })
      : lastMoveText(ctl);
    toLive.hidden = !past;
    const list = !color ? [] : active ? playingButtons(ctl, hooks, color, myTurn) : overButtons(ctl, color);
    const fresh = h("div", { class: "buttons", id: "actions" }, list,
      note ? h("p", { class: `note ${note.kind}`, id: "game-note", role: note.kind === "error" ? "alert" : "status" }, note.text) : null);
    swapKeepingFocus(actions, fresh);
    actions = fresh;
    entry.hidden = !(color && active) || Boolean(past);
    const stepping = { current: viewing, marks, onPick: (/** @type {number} */ ply) => { ctl.showMove(ply); } };
    moves.replaceChildren(moveList(game.moves, stepping));
    const scroller = moves.querySelector(".moves");
    const here = moves.querySelector(".step.current");
    if (viewing !== null && here) here.scrollIntoView?.({ block: "nearest" });
    else if (scroller) scroller.scrollTop = scroller.scrollHeight;
    const flip = h("a", { href: "#", onclick: (e) => { e.preventDefault(); ctl.flip(); } }, t("game.flip"));
    const terms = [t("game.terms", { rules: rulesName(game.rules), clock: clockText(game.clock) })];
    terms.push(game.status === "aborted" ? t("game.notRated") : t(game.rated ? "ratings.rated" : "ratings.casual"));
    const analyse = h("a", { href: gameAnalysisLink(game.id, viewing ?? game.ply), id: "analyse-link" }, t("game.analyse"));
    // Conditional moves are made on the analysis board, at the game's position.
    const prepare = active && game.speed === "correspondence" && color && color !== game.turn
      ? [" · ", h("a", { href: gameAnalysisLink(game.id, game.ply), id: "conditionals-link" }, t("game.conditionals"))]
      : [];
    const event = game.tournament
      ? [h("a", { href: `#/tournament/${encodeURIComponent(game.tournament.id)}`, "data-action": "tournament" }, t("game.tournamentRound", { round: game.tournament.round })), " · "]
      : [];
    const opening = game.opening ? [openingLabel(game.opening), " · "] : [];
    info.replaceChildren(...event, ...opening, terms.join(" · "), " · ",
      h("a", { href: pgnUrl(game.id) }, t("game.pgn")), " · ", analyse, ...prepare, " · ", flip);
    if (game.status === "finished" && !review) {
      review = reviewPanel(game, {
        shown: () => ctl.state.viewing ?? ctl.state.game.moves.length,
        onPick: (ply) => { ctl.showMove(ply); },
        onMarks: ctl.review,
      });
      reviewSlot.replaceChildren(review.element);
    } else if (stepped) {
      review?.redraw();
    }
    tick(view, game);
  }

  entry.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = entryInput.value.trim();
    formError(entry, "");
    if (!text) return;
    if (await ctl.playTyped(text, (problem) => formError(entry, problem))) entryInput.value = "";
  });

  const timer = setInterval(() => tick(view, ctl.state.game), 250);
  return {
    render,
    /** Draws everything again (the preferences changed: pieces, notation). */
    redraw() {
      render();
      review?.redraw();
    },
    stop() {
      review?.stop();
      clearInterval(timer);
    },
  };
}
