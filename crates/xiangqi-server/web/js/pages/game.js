// A game: the board, the players and their clocks, the moves, and the actions
// (submit or take back the pending move, draw offers, abort or resign, claim on
// time; a rematch or a new game once it is over). A move is chosen on the board
// (mouse, touch or keyboard) then submitted, or typed in a box in ICCS, WXF or
// Chinese; the live socket brings the opponent's moves.
//
// The page is built once; a new state of the game updates its parts in place, so
// a half-typed move and the keyboard focus survive the opponent's moves.

import * as api from "../api.js";
import { ApiError } from "../api.js";
import { Board } from "../components/board.js";
import { gameChat } from "../components/chat.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { clockFace, outOfTime, tick } from "../components/clock.js";
import { formError } from "../components/form.js";
import { button, swapKeepingFocus, userLink } from "../components/layout.js";
import { moveList } from "../components/movelist.js";
import { reviewPanel } from "../components/review.js";
import { noticeText } from "../components/notice.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { splitMove } from "../fen.js";
import { clockText, colorName, computerLevel, moveNumber, outcomeText, playerName, plySide, rulesName } from "../format.js";
import { t } from "../i18n.js";
import { onLobby, onNotice, watchComputer, watchGame } from "../live.js";
import { moveText, otherText } from "../notation.js";
import { onPrefsChange, prefs } from "../prefs.js";
import { moveSound } from "../sound.js";
import { say, sayNext } from "../notify.js";
import { go } from "../router.js";
import { currentUser } from "../state.js";
import { gameAnalysisLink } from "./analysis.js";

/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../models.js").Color} Color */
/** @typedef {import("../models.js").Challenge} Challenge */
/** @typedef {import("../models.js").ChallengeLists} ChallengeLists */
/** @typedef {import("../models.js").LinePosition} LinePosition */
/** @typedef {import("../models.js").MoveClass} MoveClass */

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

/** A move in ICCS: two cell names. */
const ICCS = /^[a-i](?:[0-9]|1[01])[a-i](?:[0-9]|1[01])$/;

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the game id
 */
export async function gamePage(view, [id = ""]) {
  let game = await api.game("GET", api.gamePath(id));
  /** The state last drawn: actions replace `game` before drawing it, so a new move is told from this. */
  let shown = game;
  /** @type {string | null} */
  let pending = null;
  /** What the computer last said about its move here. @type {import("../models.js").ComputerEvent | null} */
  let computer = null;
  let flipped = myColor(game) === "black";
  /** Resign asked once: the buttons ask to confirm. */
  let confirming = false;
  /** A word for the player next to the buttons (a declined draw offer), until the next change. */
  let note = "";
  /** The rematch challenges about this game: one from the opponent, one of mine. */
  /** @type {{ theirs: Challenge | null, mine: Challenge | null }} */
  let rematch = { theirs: null, mine: null };

  const top = h("div", { class: "player player-top" });
  const bottom = h("div", { class: "player player-bottom" });
  const boardBox = h("div", { class: "board-box" });
  const status = h("p", { class: "status", id: "status" });
  const lastMove = h("p", { class: "last-move", id: "last-move" });
  // While an earlier position is shown: the way back to the game as it stands.
  const toLive = h("button", { type: "button", id: "back-to-live", class: "back-to-live", hidden: true, onclick: () => { showMove(Infinity); board.focus(); } },
    t("game.backToLive"));
  const statusBox = h("div", { class: "status-box", role: "status", "aria-live": "polite" }, status, lastMove, toLive);
  let actions = h("div", { class: "buttons", id: "actions" });
  const entryInput = h("input", {
    name: "move", id: "move-text", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    placeholder: t(game.variant === "hex" ? "game.typePlaceholderHex" : "game.typePlaceholder"),
  });
  const entry = h("form", { class: "move-entry", id: "move-entry" },
    h("label", { for: "move-text" }, t("game.typeMove")), entryInput, h("button", { type: "submit" }, t("game.play")));
  const moves = h("div", { class: "moves-box" });
  const info = h("p", { class: "muted small game-info" });
  const reviewSlot = h("div", { class: "review-slot" });
  // The computer neither chats nor reads messages: no conversation in its games.
  const againstComputer = computerLevel(game.red) !== null || computerLevel(game.black) !== null;
  view.replaceChildren(h("div", { class: "game" }, top, boardBox, statusBox, actions, entry, bottom, moves, info, reviewSlot,
    againstComputer ? null : gameChat(game)));
  /** The move shown (null: the position now, the only one moves are made on), every position of the game, a review's marks. */
  /** @type {number | null} */
  let viewing = null;
  /** @type {LinePosition[] | null} */
  let line = null;
  /** @type {Map<number, MoveClass>} */
  let marks = new Map();
  /** The review's better move (ICCS) in place of each marked move, by ply: an arrow on the board after it. @type {Map<number, string>} */
  let better = new Map();
  /** @type {ReturnType<typeof reviewPanel> | null} */
  let review = null;

  /**
   * Shows the position after `ply` half-moves; the last one is the game as it stands.
   * @param {number} ply
   */
  async function showMove(ply) {
    const played = (game.moves ?? []).length;
    if (ply >= played) {
      viewing = null;
      show(game);
      review?.redraw();
      return;
    }
    // The positions are read again once the game has gone on since they were.
    if (!line || line.length !== played + 1) {
      /** @type {{ positions: LinePosition[] }} */
      const answer = await api.call("POST", "/positions", {
        variant: game.variant, rules: game.rules, fen: game.start_fen, moves: (game.moves ?? []).map((m) => m.iccs),
      });
      line = answer.positions;
    }
    viewing = ply >= (game.moves ?? []).length ? null : ply;
    show(game);
    review?.redraw();
  }

  const geometry = game.rules === "hex" ? hex : standard;
  /** A live game whose player sends a move as soon as it is made (no Submit). */
  const instant = () => game.clock.kind === "live" && prefs().live_submit === "instant";
  const board = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"), (move) => {
    pending = move;
    show(game);
    board.announce(t("game.moved", { move }));
    if (instant()) send(move);
  });

  /**
   * The state an answer brings, unless the socket has already brought a later
   * one: the computer (or a quick opponent) may reply, and the socket say so,
   * before the answer to my own move arrives; that answer must not put the
   * position before the reply back on the board.
   * @param {Game} next
   */
  const newest = (next) => (next.version >= game.version ? next : game);

  /**
   * Runs a request about this game: its error shows next to the buttons.
   * @param {() => Promise<unknown>} action
   */
  async function act(action) {
    say("");
    note = "";
    try {
      await action();
    } catch (err) {
      note = errorText(err);
      if (err instanceof ApiError && err.status === 409) {
        pending = null;
        game = newest(await api.game("GET", api.gamePath(game.id)).catch(() => game));
      }
    }
    show(game);
  }

  /**
   * @param {string} what  the action's path under the game
   * @param {object} [body]
   */
  const post = (what, body) => act(async () => {
    game = newest(await api.game("POST", `${api.gamePath(game.id)}/${what}`, body));
  });

  /**
   * Sends a move; the focus goes back to the board when it came from there.
   * @param {string} move
   */
  async function send(move) {
    const fromKeys = actions.contains(document.activeElement);
    await act(async () => {
      game = newest(await api.game("POST", `${api.gamePath(game.id)}/moves`, { ply: game.ply, move }));
      pending = null;
    });
    if (fromKeys) board.focus();
  }

  /** @param {Color} color @param {boolean} myTurn */
  function playingButtons(color, myTurn) {
    const list = [];
    if (myTurn && pending && !instant()) {
      const move = pending;
      list.push(button(t("game.submit"), () => send(move), { class: "primary", id: "submit", "data-action": "submit" }),
        button(t("game.takeBack"), () => { pending = null; show(game); board.focus(); }, { id: "takeback", "data-action": "takeback" }));
    }
    const opponent = game[other(color)];
    if (game.draw_offer === other(color)) {
      list.push(h("span", { class: "offer", id: "draw-offer" }, t("game.drawOfferedBy", { name: opponent })),
        button(t("game.acceptDraw"), () => post("draw", { action: "accept" }), { id: "accept-draw", "data-action": "accept-draw" }),
        button(t("game.declineDraw"), () => post("draw", { action: "decline" }), { id: "decline-draw", "data-action": "decline-draw" }));
    } else if (game.draw_offer === color) {
      list.push(h("span", { class: "offer", id: "draw-offer" }, t("game.drawOfferMine", { name: opponent })));
    } else {
      list.push(button(t("game.offerDraw"), () => post("draw", { action: "offer" }), { id: "offer-draw", "data-action": "offer-draw" }));
    }
    if (game.ply < 2) {
      list.push(button(t("game.abort"), () => post("abort"), { id: "abort", "data-action": "abort" }));
    } else if (confirming) {
      list.push(h("span", { class: "offer" }, t("game.confirmResign")),
        button(t("game.resignYes"), () => { confirming = false; post("resign"); }, { class: "danger", id: "resign-yes", "data-action": "resign-yes" }),
        button(t("game.resignNo"), () => { confirming = false; show(game); }, { id: "resign-no", "data-action": "resign-no" }));
    } else {
      list.push(button(t("game.resign"), () => {
        confirming = true;
        show(game);
        actions.querySelector("#resign-yes")?.closest("button")?.focus();
      }, { class: "danger", id: "resign", "data-action": "resign" }));
    }
    if (game.turn !== color && outOfTime(game)) list.push(button(t("game.claim"), () => post("claim"), { id: "claim", "data-action": "claim" }));
    return list;
  }

  /** @param {Color} color */
  function overButtons(color) {
    const opponent = game[other(color)];
    const list = [];
    if (rematch.theirs) {
      const c = rematch.theirs;
      list.push(h("span", { class: "offer" }, t("game.rematchOffered", { name: opponent })),
        button(t("game.acceptRematch"), () => act(async () => {
          const next = await api.game("POST", `/challenges/${encodeURIComponent(c.id)}/accept`);
          go(`#/game/${encodeURIComponent(next.id)}`);
        }), { class: "primary", id: "rematch", "data-action": "rematch" }));
    } else if (rematch.mine) {
      list.push(h("span", { class: "offer", id: "rematch-sent" }, t("game.rematchSent", { name: opponent })));
    } else {
      list.push(button(t("game.rematch"), () => act(async () => {
        /** @type {{ game?: Game, challenge?: Challenge }} */
        const r = await api.call("POST", `${api.gamePath(game.id)}/rematch`);
        if (r.game) go(`#/game/${encodeURIComponent(r.game.id)}`);
        else if (r.challenge) rematch = { ...rematch, mine: r.challenge };
      }), { class: "primary", id: "rematch", "data-action": "rematch" }));
    }
    list.push(button(t("game.newGame"), () => go(`#/new/${encodeURIComponent(opponent)}`), { id: "new-game", "data-action": "new-game" }));
    return list;
  }

  /**
   * @param {boolean} myTurn
   * @param {boolean} [back]  an earlier position is shown
   */
  function statusText(myTurn, back = false) {
    if (game.status === "aborted") return t("game.aborted");
    if (game.outcome) return outcomeText(game.outcome);
    if (myTurn && back) return t("game.yourMoveBack");
    if (myTurn && pending) return instant() ? t("game.sending") : t("game.pending");
    if (myTurn) return game.check ? t("game.yourMoveCheck") : t("game.yourMove");
    if (computerLevel(game[game.turn]) !== null && game.status === "active") {
      const waiting = computer && computer.state === "queued" && computer.ahead > 0;
      return waiting ? t("computer.queued", { ahead: computer?.ahead ?? 1 }) : t("computer.thinking");
    }
    const params = { color: colorName(game.turn, true), name: playerName(game[game.turn]) };
    return game.check ? t("game.toMoveCheck", params) : t("game.toMove", params);
  }

  /** The last move in words, for everyone and for screen readers. */
  function lastMoveText() {
    const played = game.moves ?? [];
    const last = played[played.length - 1];
    if (!last) return t("game.noMoves");
    const by = colorName(plySide(played.length), true);
    return t("game.lastMove", { number: moveNumber(played.length), color: by, wxf: moveText(last, played.length - 1), iccs: otherText(last) });
  }

  /**
   * @param {HTMLElement} box
   * @param {Color} c
   */
  function fillPlayer(box, c) {
    box.className = `player ${box === top ? "player-top" : "player-bottom"} ${c}${game.turn === c && game.status === "active" ? " to-move" : ""}`;
    box.replaceChildren(h("span", { class: `dot ${c}`, "aria-hidden": "true" }), h("span", { class: "sr-only" }, colorName(c, true)),
      userLink(game[c]), clockFace(c));
  }

  /** @param {Game} next */
  function show(next) {
    if (next.ply > shown.ply) moveSound();
    if (next.ply !== shown.ply || next.status !== shown.status) {
      pending = null;
      confirming = false;
      if (next.ply !== shown.ply) note = "";
    }
    game = next;
    shown = next;
    const color = myColor(game);
    const active = game.status === "active";
    const past = viewing !== null && line ? line[viewing] : undefined;
    // Moves are made on the position as it stands, never on an earlier one.
    const myTurn = active && color === game.turn && !past;
    // Checkmate leaves a ring round the loser's general in the final position.
    const mated = game.outcome?.reason === "checkmate" && game.outcome.winner ? other(game.outcome.winner) : null;
    const preferred = active ? undefined : better.get(viewing ?? (game.moves ?? []).length);
    const arrows = preferred ? [{ move: preferred, kind: /** @type {const} */ ("better") }] : [];
    if (past) {
      board.show({ fen: past.fen, flipped, last: past.played?.iccs ?? null, check: past.check ? past.turn : null, arrows });
    } else {
      board.show({
        fen: game.fen, legal: myTurn ? game.legal ?? [] : [], flipped, last: game.last_move,
        mine: myTurn ? color : null, pending, check: active && game.check ? game.turn : null, mated, arrows,
      });
    }
    fillPlayer(top, flipped ? "red" : "black");
    fillPlayer(bottom, flipped ? "black" : "red");
    status.textContent = statusText(active && color === game.turn, Boolean(past));
    status.classList.toggle("check", active && game.check);
    lastMove.textContent = past && viewing !== null
      ? t("game.viewing", { number: moveNumber(viewing), color: colorName(plySide(viewing), true), total: moveNumber((game.moves ?? []).length) })
      : lastMoveText();
    toLive.hidden = !past;
    const list = !color ? [] : active ? playingButtons(color, myTurn) : overButtons(color);
    const fresh = h("div", { class: "buttons", id: "actions" }, list,
      note ? h("p", { class: "note", id: "game-note", role: "alert" }, note) : null);
    swapKeepingFocus(actions, fresh);
    actions = fresh;
    entry.hidden = !(color && active) || Boolean(past);
    const stepping = { current: viewing, marks, onPick: (/** @type {number} */ ply) => { showMove(ply); } };
    moves.replaceChildren(moveList(game.moves ?? [], stepping));
    const scroller = moves.querySelector(".moves");
    const here = moves.querySelector(".step.current");
    if (viewing !== null && here) here.scrollIntoView?.({ block: "nearest" });
    else if (scroller) scroller.scrollTop = scroller.scrollHeight;
    const flip = h("a", { href: "#", onclick: (e) => { e.preventDefault(); flipped = !flipped; show(game); } }, t("game.flip"));
    const terms = [t("game.terms", { rules: rulesName(game.rules), clock: clockText(game.clock) })];
    terms.push(game.status === "aborted" ? t("game.notRated") : t(game.rated ? "ratings.rated" : "ratings.casual"));
    const analyse = h("a", { href: gameAnalysisLink(game.id, viewing ?? game.ply), id: "analyse-link" }, t("game.analyse"));
    const event = game.tournament
      ? [h("a", { href: `#/tournament/${encodeURIComponent(game.tournament.id)}`, "data-action": "tournament" }, t("game.tournamentRound", { round: game.tournament.round })), " · "]
      : [];
    info.replaceChildren(...event, terms.join(" · "), " · ",
      h("a", { href: `/api/v1${api.gamePath(game.id)}/pgn` }, t("game.pgn")), " · ", analyse, " · ", flip);
    if (game.status === "finished" && !review) {
      review = reviewPanel(game, {
        shown: () => viewing ?? (game.moves ?? []).length,
        onPick: (ply) => { showMove(ply); },
        onMarks: (found, preferred) => {
          if (found.size === marks.size && preferred.size === better.size) return;
          marks = found;
          better = preferred;
          show(game);
        },
      });
      reviewSlot.replaceChildren(review.element);
    }
    tick(view, game);
  }

  // A typed move is sent as it is: the server reads ICCS, WXF and Chinese. ICCS
  // is checked here against the legal moves, so a slip shows at once.
  entry.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = entryInput.value.trim();
    formError(entry, "");
    if (!text) return;
    const color = myColor(game);
    if (game.status !== "active" || color !== game.turn) {
      formError(entry, t("game.notYourMove"));
      return;
    }
    const lower = text.toLowerCase();
    if (ICCS.test(lower) && splitMove(lower) && !(game.legal ?? []).includes(lower)) {
      formError(entry, t("game.illegal", { move: lower }));
      return;
    }
    const move = ICCS.test(lower) ? lower : text;
    (async () => {
      try {
        game = newest(await api.game("POST", `${api.gamePath(game.id)}/moves`, { ply: game.ply, move }));
        entryInput.value = "";
        pending = null;
        show(game);
      } catch (err) {
        formError(entry, errorText(err));
        if (err instanceof ApiError && err.status === 409) show(newest(await api.game("GET", api.gamePath(game.id))));
      }
    })();
  });

  /** Fetches the rematch offers about this game once it is over. */
  async function loadRematch() {
    if (game.status === "active" || !myColor(game)) return;
    const lobby = /** @type {ChallengeLists | null} */ (await api.call("GET", "/challenges").catch(() => null));
    if (!lobby) return;
    const about = (/** @type {Challenge} */ c) => c.rematch_of === game.id;
    rematch = { theirs: lobby.incoming.find(about) ?? null, mine: lobby.outgoing.find(about) ?? null };
    show(game);
  }

  show(game);
  loadRematch();
  const unwatch = watchGame(game.id, (next) => {
    if (next.version < game.version) return;
    const ended = next.status !== "active" && game.status === "active";
    if (next.ply !== game.ply) computer = null;
    show(next);
    if (ended) loadRematch();
  });
  const stopLobby = onLobby(loadRematch);
  const stopComputer = watchComputer(game.id, (e) => {
    computer = e;
    show(game);
  });
  const stopNotices = onNotice((n) => {
    if (n.kind === "accepted" && n.game && rematch.mine) {
      // The opponent took up my rematch: the new game is where I want to be.
      sayNext(noticeText(n));
      go(`#/game/${encodeURIComponent(n.game)}`);
    } else if (n.kind === "draw_declined" && n.game === game.id) {
      note = noticeText(n);
      show(game);
    }
  });
  const timer = setInterval(() => tick(view, game), 250);
  const stopPrefs = onPrefsChange(() => {
    show(game);
    review?.redraw();
  });
  return () => {
    review?.stop();
    stopPrefs();
    unwatch();
    stopLobby();
    stopComputer();
    stopNotices();
    clearInterval(timer);
  };
}
