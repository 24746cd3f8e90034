// The game page's state and everything it asks the server: the game as last
// told, the move chosen but not sent, the position looked at, the rematch
// offers; the requests (a move, a draw offer, resigning...) and the live
// socket's news of the game. The views read `state` and call the functions
// here; each change is told to `onChange`'s listener once the state is whole.
//
// A new state of the game comes in one way, `adopt`: from the answer to a
// request, from the socket, or from `refetch` when a request finds the game
// changed under it (409).

import * as api from "../../api.js";
import * as endpoints from "./endpoints.js";
import { ApiError } from "../../api.js";
import { noticeText } from "../../components/notice.js";
import { errorText } from "../../errors.js";
import { splitMove } from "../../fen.js";
import { t } from "../../i18n.js";
import { onLobby, onNotice, watchComputer, watchGame } from "../../live.js";
import { say, sayNext } from "../../notify.js";
import { prefs } from "../../prefs.js";
import { go } from "../../router.js";
import { moveSound } from "../../sound.js";
import { myColor } from "../../state.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../models.js").Color} Color */
/** @typedef {import("../../models.js").Challenge} Challenge */
/** @typedef {import("../../models.js").ChallengeLists} ChallengeLists */
/** @typedef {import("../../models.js").ComputerEvent} ComputerEvent */
/** @typedef {import("../../models.js").LineAnswer} LineAnswer */
/** @typedef {import("../../models.js").LinePosition} LinePosition */
/** @typedef {import("../../models.js").MoveClass} MoveClass */
/** @typedef {import("../../api-types.js").Submit} Submit */
/** @typedef {import("../../api-types.js").LineRequest} LineRequest */

/**
 * @typedef {object} GameState
 * @property {Game} game  the newest state of the game the page knows
 * @property {string | null} pending  the move chosen on the board and not yet sent
 * @property {string | null} premove  my move queued on the server while the opponent is to move (live games)
 * @property {ComputerEvent | null} computer  what the computer last said about its move here
 * @property {boolean} flipped  Black at the bottom
 * @property {boolean} confirming  resign asked once: the buttons ask to confirm
 * @property {{ text: string, kind: "info" | "error" } | null} note  a word for the player by the buttons, until
 *   its cause is gone (the next move, or the game's end): a refusal is an error, a declined draw offer news
 * @property {{ theirs: Challenge | null, mine: Challenge | null }} rematch  the rematch challenges about this game
 * @property {number | null} viewing  the move shown; null: the position now, the only one moves are made on
 * @property {LinePosition[] | null} line  every position of the game, read once an earlier one is shown
 * @property {Map<number, MoveClass>} marks  the review's class of each move, by ply
 * @property {Map<number, string>} better  the review's better move (ICCS) in place of each marked move, by ply
 */

/** A move in ICCS: two cell names. */
const ICCS = /^[a-i](?:[0-9]|1[01])[a-i](?:[0-9]|1[01])$/;

/** @param {Color} c */
export const other = (c) => (c === "red" ? "black" : "red");

/** @typedef {ReturnType<typeof gameController>} GameController */

/**
 * @param {Game} first  the game as the page found it
 */
export function gameController(first) {
  /** @type {GameState} */
  const state = {
    game: first,
    pending: null,
    premove: null,
    computer: null,
    flipped: myColor(first) === "black",
    confirming: false,
    note: null,
    rematch: { theirs: null, mine: null },
    viewing: null,
    line: null,
    marks: new Map(),
    better: new Map(),
  };
  const id = first.id;
  /** Told of each change; `stepped`: another position is shown. @type {(stepped: boolean) => void} */
  let onChange = () => {};
  const changed = () => onChange(false);

  /** Whether a move is played on the click or drop: unless the player's setting for this pace asks for Submit. */
  const instant = () => state.game.speed !== "other" && !prefs().confirm_moves[state.game.speed];

  /**
   * Takes a new state of the game, unless the page already has it or a later
   * one; answers whether it did. The computer (or a quick opponent) may reply,
   * and the socket say so, before the answer to my own move arrives; that
   * answer must not put the position before the reply back on the board. The
   * same state comes twice when the socket's answer to a watch crosses the
   * news of a change: drawing it again would swap the buttons under a press
   * already begun, and the press would be lost. A new move drops what belonged
   * to the position before it (the move chosen, a question, a note).
   * @param {Game} next
   */
  function adopt(next) {
    const before = state.game;
    if (next.version <= before.version) return false;
    if (next.ply > before.ply) moveSound();
    if (next.ply !== before.ply || next.status !== before.status) {
      state.pending = null;
      state.confirming = false;
      state.note = null;
      if (next.ply !== before.ply) {
        state.computer = null;
        // The opponent's move took my premove: played with it, or dropped.
        state.premove = null;
      }
    }
    state.game = next;
    if (before.status === "active" && next.status !== "active") loadRematch();
    return true;
  }

  /** Reads the game as it stands now: the one place the page asks for it again. */
  async function refetch() {
    const next = await endpoints.readGame(id).catch(() => null);
    if (next) adopt(next);
  }

  /**
   * Runs a request about the game; answers whether it went through. A refusal
   * goes to `report` in words; a conflict (409: the game changed under the
   * request) also brings the game as it now stands, whose new move then clears
   * what was about the old position.
   * @param {() => Promise<void>} action
   * @param {(problem: string) => void} report
   */
  async function request(action, report) {
    try {
      await action();
      return true;
    } catch (err) {
      report(errorText(err));
      if (err instanceof ApiError && err.status === 409) {
        state.pending = null;
        await refetch();
      }
      return false;
    }
  }

  /**
   * Plays a move on the position as it stands: the one request that sends one.
   * @param {string} move  ICCS from the board; WXF or Chinese as typed
   */
  async function sendMove(move) {
    /** @type {Submit} */
    const body = { ply: state.game.ply, move };
    adopt(await endpoints.gameAction(id, "moves", body));
    state.pending = null;
  }

  /**
   * Runs a request from the buttons: its refusal shows next to them.
   * @param {() => Promise<void>} action
   */
  async function act(action) {
    say("");
    state.note = null;
    await request(action, (problem) => {
      state.note = { text: problem, kind: "error" };
    });
    changed();
  }

  /**
   * @param {string} what  the action's path under the game
   * @param {object} [body]
   */
  const post = (what, body) => act(async () => {
    adopt(await endpoints.gameAction(id, what, body));
  });

  /** Fetches the rematch offers about this game once it is over. */
  async function loadRematch() {
    if (state.game.status === "active" || !myColor(state.game)) return;
    const lobby = await endpoints.challenges().catch(() => null);
    if (!lobby) return;
    const about = (/** @type {Challenge} */ c) => c.rematch_of === id;
    state.rematch = { theirs: lobby.incoming.find(about) ?? null, mine: lobby.outgoing.find(about) ?? null };
    changed();
  }

  /**
   * Shows the position after `ply` half-moves; the last one is the game as it stands.
   * @param {number} ply
   */
  async function showMove(ply) {
    const played = state.game.moves.length;
    if (ply < played && (!state.line || state.line.length !== played + 1)) {
      // The positions are read again once the game has gone on since they were.
      const { variant, rules, start_fen: fen, moves } = state.game;
      /** @type {LineRequest} */
      const body = { variant, rules, fen, moves: moves.map((m) => m.iccs) };
      /** @type {LineAnswer} */
      const answer = await api.line(body);
      state.line = answer.positions;
    }
    state.viewing = ply >= state.game.moves.length ? null : ply;
    onChange(true);
  }

  /**
   * Checks a typed move and sends it as it is (the server reads ICCS, WXF and
   * Chinese); ICCS is checked here against the legal moves, so a slip shows at
   * once. Answers whether it was played; what went wrong goes to `report`.
   * @param {string} text
   * @param {(problem: string) => void} report
   */
  async function playTyped(text, report) {
    const game = state.game;
    if (game.status !== "active" || myColor(game) !== game.turn) {
      report(t("game.notYourMove"));
      return false;
    }
    const lower = text.toLowerCase();
    if (ICCS.test(lower) && splitMove(lower) && !game.legal.includes(lower)) {
      report(t("game.illegal", { move: lower }));
      return false;
    }
    const played = await request(() => sendMove(ICCS.test(lower) ? lower : text), report);
    changed();
    return played;
  }

  /** Whether I may queue a premove now: a live game, the opponent to move. */
  const canPremove = () => {
    const color = myColor(state.game);
    return state.game.status === "active" && state.game.clock.kind === "live" && color !== null && state.game.turn !== color;
  };

  /** Follows the game live until the returned function is called. */
  function follow() {
    loadRematch();
    if (canPremove()) {
      endpoints.premove(id, "GET").then((p) => {
        state.premove = p.premove ?? null;
        changed();
      }).catch(() => {});
    }
    const stops = [
      watchGame(id, (next) => {
        if (adopt(next)) changed();
      }),
      onLobby(loadRematch),
      watchComputer(id, (e) => {
        state.computer = e;
        changed();
      }),
      onNotice((n) => {
        if (n.kind === "accepted" && n.game && state.rematch.mine) {
          // The opponent took up my rematch: the new game is where I want to be.
          sayNext(noticeText(n));
          go(`#/game/${encodeURIComponent(n.game)}`);
        } else if (n.kind === "draw_declined" && n.game === id) {
          state.note = { text: noticeText(n), kind: "info" };
          changed();
        }
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  return {
    state,
    /** @param {(stepped: boolean) => void} fn  told of every change from now on */
    onChange(fn) {
      onChange = fn;
    },
    instant,
    follow,
    showMove,
    playTyped,
    /** The colour the logged-in user plays here, if any. */
    mine: () => myColor(state.game),
    /** @param {string} move  chosen on the board, to submit or take back */
    choose(move) {
      state.pending = move;
      changed();
    },
    takeBack() {
      state.pending = null;
      changed();
    },
    /** @param {string} move */
    submit: (move) => act(() => sendMove(move)),
    canPremove,
    /** @param {string} move  queued for when the opponent has moved */
    queuePremove: (move) => act(async () => {
      const kept = await endpoints.premove(id, "PUT", { ply: state.game.ply, move });
      state.premove = kept.premove ?? null;
    }),
    cancelPremove: () => act(async () => {
      await endpoints.premove(id, "DELETE");
      state.premove = null;
    }),
    offerDraw: () => post("draw", { action: "offer" }),
    acceptDraw: () => post("draw", { action: "accept" }),
    declineDraw: () => post("draw", { action: "decline" }),
    abort: () => post("abort"),
    claim: () => post("claim"),
    askResign() {
      state.confirming = true;
      changed();
    },
    resign() {
      state.confirming = false;
      return post("resign");
    },
    keepPlaying() {
      state.confirming = false;
      changed();
    },
    /** @param {Challenge} c  the opponent's rematch challenge */
    acceptRematch: (c) => act(async () => {
      const next = await endpoints.accept(c.id);
      go(`#/game/${encodeURIComponent(next.id)}`);
    }),
    rematch: () => act(async () => {
      const r = await endpoints.rematch(id);
      if (r.game) go(`#/game/${encodeURIComponent(r.game.id)}`);
      else if (r.challenge) state.rematch = { ...state.rematch, mine: r.challenge };
    }),
    flip() {
      state.flipped = !state.flipped;
      changed();
    },
    /**
     * The review's marks on the moves and its better moves, when they change.
     * @param {Map<number, MoveClass>} found
     * @param {Map<number, string>} preferred
     */
    review(found, preferred) {
      if (found.size === state.marks.size && preferred.size === state.better.size) return;
      state.marks = found;
      state.better = preferred;
      changed();
    },
  };
}
