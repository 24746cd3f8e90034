// A puzzle attempt's state and its talk with the server. The opponent's move
// that sets the puzzle is played first; the player finds the solver's moves one
// at a time, and the server says whether each is right and answers with the
// opponent's next move. A wrong move ends the attempt and shows the solution;
// a hint marks the piece to move. A streak hands out puzzles against a clock.

import { errorText } from "../../errors.js";
import { colorName } from "../../format.js";
import { t, tn } from "../../i18n.js";
import { analysisLink } from "../../links.js";
import { moveText } from "../../notation.js";
import { prefs } from "../../prefs.js";
import { currentUser } from "../../state.js";
import * as endpoints from "./endpoints.js";

/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */
/** @typedef {import("../../api-types.js").PuzzleStepView} PuzzleStepView */
/** @typedef {import("../../api-types.js").StreakView} StreakView */
/** @typedef {import("../../api-types.js").LinePosition} LinePosition */
/** @typedef {import("./modes.js").Mode} Mode */
/** @typedef {import("./view.js").PuzzleViewApi} PuzzleViewApi */

/**
 * @param {Mode} mode
 * @param {PuzzleViewApi} ui
 */
export function puzzleController(mode, ui) {
  /** @type {PuzzleView | null} */
  let puzzle = null;
  /** The solver's moves so far. @type {string[]} */
  let played = [];
  /** The opponent's answers so far, in order. @type {string[]} */
  let replies = [];
  /** The position now, from the server. @type {LinePosition | null} */
  let at = null;
  let last = /** @type {string | null} */ (null);
  let busy = false;
  let ended = false;
  let hinted = /** @type {string | null} */ (null);
  /** @type {StreakView | null} */
  let streak = null;
  let timer = 0;

  function draw() {
    ui.draw(puzzle && at ? { puzzle, at, last, hinted, ended, busy } : null);
  }

  /** The setup, then the solver's moves with the opponent's answers between them. */
  const fullLine = () => [puzzle?.setup ?? "", ...played.flatMap((m, i) => (i < replies.length ? [m, replies[i] ?? ""] : [m]))];

  /** Shows the position after the setup move and the solver's moves so far (and a reply). @param {string[]} moves */
  async function showLine(moves) {
    if (!puzzle) return;
    const answer = await endpoints.line(puzzle.variant, puzzle.fen, moves);
    at = answer.positions[answer.positions.length - 1] ?? null;
    last = moves[moves.length - 1] ?? null;
    draw();
    return answer;
  }

  /** @param {PuzzleView} p */
  async function start(p) {
    puzzle = p;
    played = [];
    replies = [];
    ended = false;
    hinted = null;
    ui.newBoard(p, choose);
    ui.info(p);
    ui.controls(() => void hint(), () => void next());
    // The position before the opponent's move, then the move itself.
    at = (await endpoints.line(p.variant, p.fen, [])).positions[0] ?? null;
    last = null;
    draw();
    await new Promise((r) => setTimeout(r, prefs().animation === false ? 0 : 400));
    await showLine([p.setup]);
    ui.say(t("puzzle.find", { side: colorName(p.solver, true), moves: tn("puzzle.movesToFind", p.moves) }));
    ui.focusBoard();
  }

  /** The player chose `move` on the board. @param {string} move */
  async function choose(move) {
    if (!puzzle || busy || ended) return;
    busy = true;
    hinted = null;
    const sent = [...played, move];
    /** @type {PuzzleStepView} */
    let step;
    try {
      step = await endpoints.tryMoves(puzzle.id, { moves: sent, streak: streak?.id ?? null });
    } catch (err) {
      busy = false;
      ui.say(errorText(err), "error");
      draw();
      return;
    }
    busy = false;
    played = sent;
    if (step.step === "right" && step.reply) {
      await showLine(fullLine());
      replies.push(step.reply);
      ui.say(t("puzzle.right"), "success");
      await new Promise((r) => setTimeout(r, 300));
      await showLine(fullLine());
      return;
    }
    ended = true;
    if (step.step === "solved") {
      await showLine(fullLine());
      ui.say(t("puzzle.solved"), "success");
    } else {
      ui.say(t("puzzle.wrong"), "error");
      await showLine(step.solution ?? fullLine());
    }
    await showSolution(step);
    if (step.streak) streakStep(step);
  }

  /** After the attempt: the solution in the chosen notation, the rating change, what next. @param {PuzzleStepView} step */
  async function showSolution(step) {
    if (!puzzle) return;
    const shown = puzzle;
    const solution = step.solution ?? [];
    const named = await endpoints.line(shown.variant, shown.fen, solution).catch(() => null);
    // The solver's line, after the opponent's move that set the puzzle.
    const words = (named?.positions ?? []).slice(2).map((p, i) => (p.played ? moveText(p.played, i + (shown.solver === "red" ? 0 : 1)) : ""));
    // Why not rated, as the server says: a hint, a puzzle opened rather than
    // handed out, one tried from this address without logging in, a repeat.
    const change = step.rating
      ? t("puzzle.ratingChange", { before: step.rating.before, after: step.rating.after })
      : step.unrated ? t(`puzzle.unrated.${step.unrated}`)
      : currentUser() ? t("puzzle.unrated") : t("puzzle.visitor");
    const before = named?.positions[1]?.fen ?? shown.fen;
    ui.clearControls();
    // The puzzle's rating and tries, now with this attempt.
    endpoints.readPuzzle(shown.id).then(ui.info).catch(() => {});
    ui.solution({
      words, change: step.streak ? null : change, next: step.streak ? null : () => void next(),
      analysis: analysisLink(shown.variant, before),
    });
  }

  async function hint() {
    if (!puzzle || ended || busy) return;
    try {
      const r = await endpoints.hint(puzzle.id, { moves: played, streak: streak?.id ?? null });
      hinted = r.cell;
      ui.say(t("puzzle.hintShown"), "info");
      draw();
      ui.focusBoard();
    } catch (err) {
      ui.say(errorText(err), "error");
    }
  }

  /** The next puzzle of this mode. */
  async function next() {
    try {
      return await start(await endpoints.nextPuzzle(mode.variant, mode.kind === "theme" ? mode.theme : undefined));
    } catch (err) {
      ui.say(errorText(err), "error");
    }
  }

  /** A streak's puzzle has ended. @param {PuzzleStepView} step */
  function streakStep(step) {
    const s = step.streak;
    if (!s) return;
    ui.streakSolved(s.solved);
    if (s.over || !s.next) {
      stopTimer();
      ui.say(t("puzzle.streakOver", { count: s.solved }), step.step === "solved" ? "success" : "error");
      streak = null;
      ui.streakAgain(() => void startStreak());
      return;
    }
    const nextPuzzle = s.next;
    setTimeout(() => void start(nextPuzzle), 600);
  }

  function stopTimer() {
    if (timer) clearInterval(timer);
    timer = 0;
  }

  async function startStreak() {
    if (!currentUser()) {
      ui.say(t("puzzle.loginForStreak"), "info");
      return;
    }
    try {
      streak = await endpoints.startStreak(mode.variant);
    } catch (err) {
      ui.say(errorText(err), "error");
      return;
    }
    const s = streak;
    ui.streakSolved(0);
    const setClock = ui.streakClock();
    stopTimer();
    const tick = () => {
      const left = Math.max(0, Math.round((s.ends - Date.now()) / 1000));
      setClock(left);
      if (left === 0) stopTimer();
    };
    tick();
    timer = window.setInterval(tick, 1000);
    await start(s.puzzle);
  }

  /** The first puzzle the address asks for. */
  async function begin() {
    try {
      if (mode.kind === "daily") await start(await endpoints.dailyPuzzle());
      else if (mode.kind === "id") await start(await endpoints.readPuzzle(mode.id ?? ""));
      else if (mode.kind === "streak") {
        if (currentUser()) ui.streakStart(() => void startStreak());
        else ui.say(t("puzzle.loginForStreak"), "info");
      } else await next();
    } catch (err) {
      ui.say(errorText(err), "error");
    }
  }

  return { begin, draw, stop: stopTimer };
}
