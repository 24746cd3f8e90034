// Puzzles: a position from a real game where one move wins. The opponent's
// move that sets it is played first; the player finds the solver's moves one
// at a time, and the server says whether each is right and answers with the
// opponent's next move (the solution stays on the server until the attempt
// ends). A wrong move ends the attempt and shows the solution; a hint marks
// the piece to move. Modes: the next puzzle near one's rating (either board,
// any theme or one), the day's puzzle, a puzzle by its id, and a timed streak.
//
// Addresses: #/puzzles[/hex], #/puzzles/theme/<theme>[/hex], #/puzzles/daily,
// #/puzzles/streak[/hex], #/puzzles/p/<id>, #/puzzles/leaders[/hex].

import * as api from "../api.js";
import { Board } from "../components/board.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { button, card, listOr, page, userLink } from "../components/layout.js";
import { boardName } from "../components/puzzle-card.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { colorName } from "../format.js";
import { t, tn } from "../i18n.js";
import { moveText } from "../notation.js";
import { onPrefsChange, prefs } from "../prefs.js";
import { currentUser } from "../state.js";
import { analysisLink, mastersLink } from "../links.js";

/** @typedef {import("../api-types.js").PuzzleView} PuzzleView */
/** @typedef {import("../api-types.js").PuzzleStepView} PuzzleStepView */
/** @typedef {import("../api-types.js").StreakView} StreakView */
/** @typedef {import("../api-types.js").LineAnswer} LineAnswer */
/** @typedef {import("../api-types.js").LinePosition} LinePosition */
/** @typedef {import("../api-types.js").PuzzleLeadersView} PuzzleLeadersView */
/** @typedef {PuzzleView["variant"]} Variant */
/** @typedef {PuzzleView["themes"][number]} Theme */
/** @typedef {NonNullable<LinePosition["played"]>} MoveNames */

/** Every theme, in the order the menu offers them. @type {Theme[]} */
export const THEMES = [
  "mate_in1", "mate_in2", "mate_in3", "long_mate", "capture", "fork", "pin", "discovered_attack",
  "cannon_screen", "horse_leg", "flying_general", "defensive_move", "opening", "middlegame", "endgame",
];

/** @param {string | undefined} name @returns {name is Theme} */
const isTheme = (name) => THEMES.some((x) => x === name);

/** A theme in words. @param {Theme} theme */
export const themeName = (theme) => t(`theme.${theme}`);

/**
 * Every position of a line from the server, which applies the rules.
 * @param {Variant} variant
 * @param {string} fen
 * @param {string[]} moves
 * @returns {Promise<LineAnswer>}
 */
const line = (variant, fen, moves) =>
  api.line({ variant, rules: variant === "hex" ? "hex" : "asian", fen, moves });

/**
 * The mode the address names.
 * @param {string[]} args
 */
function modeOf(args) {
  const [kind = "", a, b] = args;
  /** @param {string | undefined} s @returns {Variant} */
  const board = (s) => (s === "hex" ? "hex" : "standard");
  if (kind === "daily") return { kind: "daily", variant: /** @type {Variant} */ ("standard") };
  if (kind === "streak") return { kind: "streak", variant: board(a) };
  if (kind === "p" && a) return { kind: "id", id: a, variant: /** @type {Variant} */ ("standard") };
  if (kind === "theme" && isTheme(a)) return { kind: "theme", theme: a, variant: board(b) };
  if (kind === "leaders") return { kind: "leaders", variant: board(a) };
  return { kind: "next", variant: board(kind) };
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function puzzlesPage(view, args) {
  const mode = modeOf(args);
  if (mode.kind === "leaders") return leadersPage(view, mode.variant);
  const status = h("p", { class: "message info puzzle-status", role: "status", "aria-live": "polite" });
  const info = h("div", { class: "puzzle-info" });
  const controls = h("div", { class: "puzzle-controls" });
  const after = h("div", { class: "puzzle-after" });
  const boardBox = h("div", { class: "board-box puzzle-board" });
  const streakBox = h("p", { class: "puzzle-streak", "aria-live": "polite" });
  page(view, t(mode.kind === "daily" ? "puzzle.daily" : mode.kind === "streak" ? "puzzle.streak" : "puzzle.title"),
    modeBar(mode),
    h("div", { class: "puzzle-layout" }, boardBox,
      h("div", { class: "puzzle-side" }, streakBox, status, controls, after, info)));

  /** @type {Board | null} */
  let board = null;
  /** @type {PuzzleView | null} */
  let puzzle = null;
  /** The solver's moves so far. @type {string[]} */
  let played = [];
  /** The position now, from the server. @type {LinePosition | null} */
  let at = null;
  let last = /** @type {string | null} */ (null);
  let busy = false;
  let ended = false;
  let hinted = /** @type {string | null} */ (null);
  /** @type {StreakView | null} */
  let streak = null;
  let timer = 0;

  const say = (/** @type {string} */ text, kind = "info") => {
    status.className = `message ${kind} puzzle-status`;
    status.textContent = text;
  };

  function draw() {
    if (!board || !at || !puzzle) return;
    board.show({
      fen: at.fen, legal: ended || busy ? [] : at.legal, flipped: puzzle.solver === "black", last,
      mine: ended ? null : puzzle.solver, check: at.check ? at.turn : null, dots: hinted ? [hinted] : [],
      mated: at.outcome?.reason === "checkmate" ? at.turn : null,
    });
  }

  /** Shows the position after the setup move and the solver's moves so far (and a reply). */
  async function showLine(/** @type {string[]} */ moves) {
    if (!puzzle) return;
    const answer = await line(puzzle.variant, puzzle.fen, moves);
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
    after.replaceChildren();
    const geometry = p.variant === "hex" ? hex : standard;
    board = new Board(boardBox, geometry, t("puzzle.boardLabel"), choose);
    renderInfo(p);
    renderControls();
    // The position before the opponent's move, then the move itself.
    at = (await line(p.variant, p.fen, [])).positions[0] ?? null;
    last = null;
    draw();
    await new Promise((r) => setTimeout(r, prefs().animation === false ? 0 : 400));
    await showLine([p.setup]);
    say(t("puzzle.find", { side: colorName(p.solver, true), moves: tn("puzzle.movesToFind", p.moves) }));
    board.focus();
  }

  /** The player chose `move` on the board. @param {string} move */
  async function choose(move) {
    if (!puzzle || busy || ended) return;
    busy = true;
    hinted = null;
    const sent = [...played, move];
    if (!puzzle) return;
    /** @type {PuzzleStepView} */
    let step;
    try {
      step = await api.call("POST", `/puzzles/${encodeURIComponent(puzzle.id)}/moves`, { moves: sent, streak: streak?.id ?? null });
    } catch (err) {
      busy = false;
      say(errorText(err), "error");
      draw();
      return;
    }
    busy = false;
    played = sent;
    if (step.step === "right" && step.reply) {
      await showLine(fullLine());
      replies.push(step.reply);
      say(t("puzzle.right"), "success");
      await new Promise((r) => setTimeout(r, 300));
      await showLine(fullLine());
      return;
    }
    ended = true;
    if (step.step === "solved") {
      await showLine(fullLine());
      say(t("puzzle.solved"), "success");
    } else {
      say(t("puzzle.wrong"), "error");
      await showLine(step.solution ?? fullLine());
    }
    await showSolution(step);
    if (step.streak) streakStep(step);
  }

  /** The opponent's answers so far, in order. @type {string[]} */
  let replies = [];
  /** The setup, then the solver's moves with the opponent's answers between them. */
  const fullLine = () => [puzzle?.setup ?? "", ...played.flatMap((m, i) => (i < replies.length ? [m, replies[i] ?? ""] : [m]))];

  /** After the attempt: the solution in the chosen notation, the rating change, what next. @param {PuzzleStepView} step */
  async function showSolution(step) {
    if (!puzzle) return;
    const solution = step.solution ?? [];
    const named = await line(puzzle.variant, puzzle.fen, solution).catch(() => null);
    // The solver's line, after the opponent's move that set the puzzle.
    const words = (named?.positions ?? []).slice(2).map((p, i) => (p.played ? moveText({ ...p.played, at: 0 }, i + (puzzle?.solver === "red" ? 0 : 1)) : ""));
    // Why not rated, as the server says: a hint, a puzzle opened rather than
    // handed out, one tried from this address without logging in, a repeat.
    const change = step.rating
      ? t("puzzle.ratingChange", { before: step.rating.before, after: step.rating.after })
      : step.unrated ? t(`puzzle.unrated.${step.unrated}`)
      : currentUser() ? t("puzzle.unrated") : t("puzzle.visitor");
    const before = named?.positions[1]?.fen ?? puzzle.fen;
    controls.replaceChildren();
    // The puzzle's rating and tries, now with this attempt.
    api.call("GET", `/puzzles/${encodeURIComponent(puzzle.id)}`).then(renderInfo).catch(() => {});
    after.replaceChildren(
      h("p", { class: "puzzle-solution" }, h("strong", {}, t("puzzle.solution")), " ", words.join(" ")),
      ...(step.streak ? [] : [h("p", { class: "muted" }, change)]),
      h("div", { class: "actions" },
        step.streak ? [] : [button(t("puzzle.next"), () => void next())],
        h("a", { class: "button-link", href: analysisLink(puzzle.variant, before) }, t("puzzle.analysis"))));
    after.querySelector("button")?.focus();
  }

  async function hint() {
    if (!puzzle || ended || busy) return;
    try {
      const r = await api.call("POST", `/puzzles/${encodeURIComponent(puzzle.id)}/hint`, { moves: played, streak: streak?.id ?? null });
      hinted = r.cell;
      say(t("puzzle.hintShown"), "info");
      draw();
      board?.focus();
    } catch (err) {
      say(errorText(err), "error");
    }
  }

  function renderControls() {
    controls.replaceChildren(
      button(t("puzzle.hint"), () => void hint(), { class: "secondary" }),
      ...(mode.kind === "next" || mode.kind === "theme" ? [button(t("puzzle.skip"), () => void next(), { class: "secondary" })] : []));
  }

  /** @param {PuzzleView} p */
  function renderInfo(p) {
    info.replaceChildren(
      h("dl", { class: "puzzle-facts" },
        h("dt", {}, t("puzzle.difficulty")), h("dd", {}, t("puzzle.rating", { rating: p.rating })),
        h("dt", {}, t("puzzle.board")), h("dd", {}, boardName(p.variant)),
        h("dt", {}, t("puzzle.played")), h("dd", {}, p.solved_percent === null || p.solved_percent === undefined
          ? tn("puzzle.plays", p.plays)
          : t("puzzle.playsSolved", { plays: tn("puzzle.plays", p.plays), percent: p.solved_percent })),
        h("dt", {}, t("puzzle.themes")), h("dd", { class: "puzzle-themes" },
          p.themes.map((x) => h("a", { class: "tag", href: `#/puzzles/theme/${x}${p.variant === "hex" ? "/hex" : ""}` }, themeName(x))))),
      ...(p.game ? [h("p", {}, h("a", { href: `#/game/${encodeURIComponent(p.game)}` }, t("puzzle.fromGame")))] : []),
      ...(p.masters_game ? [h("p", {}, h("a", { href: mastersLink(p.masters_game) }, t("puzzle.fromMasters")))] : []),
      h("p", { class: "muted" }, h("a", { href: `#/puzzles/p/${encodeURIComponent(p.id)}` }, t("puzzle.link"))));
  }

  /** The next puzzle of this mode. */
  async function next() {
    try {
      if (mode.kind === "theme") return await start(await api.call("GET", `/puzzles/next?variant=${mode.variant}&theme=${mode.theme}`));
      return await start(await api.call("GET", `/puzzles/next?variant=${mode.variant}`));
    } catch (err) {
      say(errorText(err), "error");
    }
  }

  /** A streak's puzzle has ended. @param {PuzzleStepView} step */
  function streakStep(step) {
    const s = step.streak;
    if (!s) return;
    streakBox.textContent = t("puzzle.streakSolved", { count: s.solved });
    if (s.over || !s.next) {
      stopTimer();
      say(t("puzzle.streakOver", { count: s.solved }), step.step === "solved" ? "success" : "error");
      streak = null;
      after.append(h("div", { class: "actions" }, button(t("puzzle.streakAgain"), () => void startStreak())));
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
      say(t("puzzle.loginForStreak"), "info");
      return;
    }
    try {
      streak = await api.call("POST", "/puzzles/streaks", { variant: mode.variant });
    } catch (err) {
      say(errorText(err), "error");
      return;
    }
    const s = /** @type {StreakView} */ (streak);
    streakBox.textContent = t("puzzle.streakSolved", { count: 0 });
    const clock = h("span", { class: "puzzle-clock", role: "timer" });
    streakBox.after(clock);
    stopTimer();
    const tick = () => {
      const left = Math.max(0, Math.round((s.ends - Date.now()) / 1000));
      clock.textContent = t("puzzle.streakLeft", { seconds: left });
      if (left === 0) stopTimer();
    };
    tick();
    timer = window.setInterval(tick, 1000);
    await start(s.puzzle);
  }

  const stopPrefs = onPrefsChange(draw);
  try {
    if (mode.kind === "daily") await start(await api.call("GET", "/puzzles/daily"));
    else if (mode.kind === "id") await start(await api.call("GET", `/puzzles/${encodeURIComponent(mode.id ?? "")}`));
    else if (mode.kind === "streak") {
      if (currentUser()) await startStreak();
      else say(t("puzzle.loginForStreak"), "info");
    } else await next();
  } catch (err) {
    say(errorText(err), "error");
  }
  return () => {
    stopTimer();
    stopPrefs();
  };
}

/**
 * The links between the modes, with the board and theme choosers.
 * @param {{ kind: string, variant: Variant, theme?: Theme }} mode
 */
function modeBar(mode) {
  const suffix = mode.variant === "hex" ? "/hex" : "";
  const boardSelect = h("select", { "aria-label": t("puzzle.board"), onchange: (/** @type {Event} */ e) => {
    const v = /** @type {HTMLSelectElement} */ (e.target).value;
    location.hash = mode.kind === "theme" ? `#/puzzles/theme/${mode.theme}${v === "hex" ? "/hex" : ""}` : `#/puzzles${v === "hex" ? "/hex" : ""}`;
  } }, ["standard", "hex"].map((v) => h("option", { value: v, selected: v === mode.variant }, boardName(/** @type {Variant} */ (v)))));
  const themeSelect = h("select", { "aria-label": t("puzzle.theme"), onchange: (/** @type {Event} */ e) => {
    const v = /** @type {HTMLSelectElement} */ (e.target).value;
    location.hash = v ? `#/puzzles/theme/${v}${suffix}` : `#/puzzles${suffix}`;
  } }, h("option", { value: "" }, t("puzzle.anyTheme")),
  THEMES.map((x) => h("option", { value: x, selected: mode.theme === x }, themeName(x))));
  /** @param {string} kind */
  const current = (kind) => (mode.kind === kind ? { "aria-current": "page" } : {});
  return h("nav", { class: "puzzle-modes", "aria-label": t("puzzle.modes") },
    h("a", { href: `#/puzzles${suffix}`, ...current("next") }, t("puzzle.rated")),
    h("a", { href: "#/puzzles/daily", ...current("daily") }, t("puzzle.daily")),
    h("a", { href: `#/puzzles/streak${suffix}`, ...current("streak") }, t("puzzle.streak")),
    h("a", { href: `#/puzzles/leaders${suffix}` }, t("puzzle.leaders")),
    h("label", {}, t("puzzle.board"), " ", boardSelect),
    h("label", {}, t("puzzle.theme"), " ", themeSelect));
}

/**
 * The best puzzle solvers on a board.
 * @param {HTMLElement} view
 * @param {Variant} variant
 */
async function leadersPage(view, variant) {
  /** @type {PuzzleLeadersView} */
  const r = await api.call("GET", `/puzzles/leaders?variant=${variant}`);
  page(view, t("puzzle.leaders"), modeBar({ kind: "leaders", variant }),
    card(boardName(variant),
      h("p", { class: "muted" }, t("puzzle.leadersNote")),
      listOr("leaders", r.leaders, (l) => h("li", {}, userLink(l.name), " ", h("span", { class: "num" }, String(l.rating)),
        " ", h("span", { class: "muted" }, tn("puzzle.attempts", l.attempts))), t("puzzle.noLeaders"))));
}

