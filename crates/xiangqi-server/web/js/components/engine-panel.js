// The analysis board's engine: the button that starts and stops it, the
// evaluation (as a score and as the bar beside the board), its depth and speed,
// and its best line, in words and as arrows on the board, with the next best
// lines below it when the user asks for several. The server's engine
// streams what it finds; the panel follows the position as the user moves
// about, once the position has stayed a moment.

import { clamped, evalBar, scoreText, scoreWords } from "./evaluation.js";
import { h } from "../dom.js";
import { analyse } from "../engine.js";
import { errorText } from "../errors.js";
import { lang, t } from "../i18n.js";
import { moveText } from "../notation.js";
import { localRules } from "../local.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").AnalysisEvent} AnalysisEvent */
/** @typedef {import("../models.js").AnalysisInfo} AnalysisInfo */
/** @typedef {import("../models.js").Outcome} Outcome */
/** @typedef {import("./board.js").Arrow} Arrow */

/** How long the position must stay before the engine starts on it (stepping through moves). */
const SETTLE_MS = 300;
/** The numbers of lines the user may ask for (the server shows at most 5). */
const LINE_CHOICES = [1, 2, 3, 5];

/**
 * The position the engine is asked about, and what the panel needs to show it.
 * @typedef {object} EnginePosition
 * @property {string} variant
 * @property {string} rules
 * @property {string} fen  the first position of the line
 * @property {string[]} moves  played from it to the position shown
 * @property {Outcome | null | undefined} over  how the game ended there, if it did
 * @property {number} half  half-moves before the position shown, for the line's move numbers
 */

/**
 * @param {{ position: () => EnginePosition, arrows: (arrows: Arrow[]) => void }} hooks
 *   `position`: the position shown now; `arrows`: draws the engine's line on the board
 */
export function enginePanel(hooks) {
  const bar = evalBar();
  const evalText = h("p", { class: "eval-score", id: "eval", "aria-live": "off" }, "—");
  const status = h("p", { class: "engine-status muted small", id: "engine-status", role: "status" });
  const pvBox = h("p", { class: "pv", id: "pv" });
  const moreBox = h("ol", { class: "engine-lines", id: "engine-lines", start: "2", "aria-label": t("analysis.otherLines") });
  const linesChoice = h("select", { id: "engine-lines-choice" },
    ...LINE_CHOICES.map((n) => h("option", { value: String(n) }, String(n))));
  const linesLabel = h("label", { class: "engine-lines-choice small" }, t("analysis.lines"), " ", linesChoice);
  const errorBox = h("p", { class: "message error", id: "engine-error", role: "alert", hidden: true });
  const toggle = h("button", { type: "button", class: "primary", id: "engine-toggle", "data-action": "engine" }, t("analysis.start"));
  const where = h("p", { class: "muted small", id: "engine-where", hidden: true }, t("analysis.inBrowser"));
  const element = h("section", { class: "engine card", "aria-label": t("analysis.engine") },
    h("div", { class: "engine-head" }, evalText, linesLabel, toggle), status, pvBox, moreBox, errorBox, where);
  /** Whether the engine runs in this page (then no account is needed to use it). */
  let inPage = false;
  localRules().then((rules) => {
    inPage = rules !== null;
    where.hidden = !inPage;
    draw();
  });
  const number = new Intl.NumberFormat(lang);

  /** Whether the user wants it on, how to stop the stream, what it said last. */
  const engine = {
    on: false,
    /** @type {(() => void) | null} */
    stop: null,
    /** Counts starts, so that a late event of an old stream is ignored. */
    run: 0,
    /** The best line of the latest depth. @type {AnalysisInfo | null} */
    info: null,
    /** Every line of the latest depth, best first (the best is `info`). @type {AnalysisInfo[]} */
    lines: /** @type {AnalysisInfo[]} */ ([]),
    /** How many lines to ask for. */
    wanted: 1,
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    timer: undefined,
  };

  function draw() {
    const me = currentUser() !== null || inPage;
    toggle.disabled = !me;
    toggle.textContent = !me ? t("analysis.logIn") : engine.on ? t("analysis.stop") : t("analysis.start");
    toggle.setAttribute("aria-pressed", String(engine.on));
    const info = engine.info;
    const position = hooks.position();
    const over = position.over;
    // The engine's line as arrows: its first three moves, the first strongest.
    hooks.arrows(over || !info ? [] : info.pv.slice(0, 3).map((m, i) => ({ move: m.iccs, kind: i === 0 ? "best" : "line" })));
    if (over || !info) {
      delete evalText.dataset["cp"];
      delete evalText.dataset["depth"];
    }
    if (over) {
      evalText.textContent = scoreText(over.winner === "red" ? { kind: "won" } : over.winner === "black" ? { kind: "lost" } : { kind: "drawn" });
      bar.set(over.winner === "red" ? { kind: "won" } : over.winner === "black" ? { kind: "lost" } : { kind: "drawn" });
      pvBox.replaceChildren();
      moreBox.replaceChildren();
      return;
    }
    if (!info) {
      evalText.textContent = "—";
      evalText.removeAttribute("title");
      bar.set(null);
      pvBox.replaceChildren();
      moreBox.replaceChildren();
      return;
    }
    evalText.textContent = scoreText(info.red);
    evalText.title = scoreWords(info.red);
    evalText.dataset["cp"] = String(clamped(info.red));
    evalText.dataset["depth"] = String(info.depth);
    bar.set(info.red);
    pvBox.replaceChildren(h("span", { class: "sr-only" }, t("analysis.pv")), ...lineMoves(info, position.half));
    moreBox.replaceChildren(...engine.lines.slice(1).map((line) =>
      h("li", { class: "engine-line", "data-line": String(line.line) },
        h("span", { class: "engine-line-score", title: scoreWords(line.red) }, scoreText(line.red)),
        h("span", { class: "pv" }, ...lineMoves(line, position.half)))));
  }

  /**
   * A line's moves in the user's notation.
   * @param {AnalysisInfo} line
   * @param {number} half  half-moves before the position the line starts from
   */
  function lineMoves(line, half) {
    return line.pv.map((m, i) => h("span", { class: "pv-move" }, moveText(m, (half + i) % 2)));
  }

  /** @param {string} text */
  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  function halt() {
    clearTimeout(engine.timer);
    engine.stop?.();
    engine.stop = null;
    engine.run++;
  }

  /** Starts the engine on the position shown (the old search, if any, stops). */
  async function start() {
    halt();
    const run = engine.run;
    engine.info = null;
    engine.lines = [];
    showError("");
    draw();
    const { variant, rules, fen, moves, over } = hooks.position();
    if (over) {
      status.textContent = t("analysis.over");
      return;
    }
    status.textContent = t("analysis.starting");
    try {
      const stop = await analyse({ variant, rules, fen, moves, lines: engine.wanted }, (e) => {
        if (run === engine.run) receive(e);
      }, () => {
        if (run === engine.run) engine.stop = null;
      });
      if (run === engine.run) engine.stop = stop;
      else stop();
    } catch (err) {
      if (run !== engine.run) return;
      engine.on = false;
      status.textContent = "";
      showError(errorText(err));
      draw();
    }
  }

  /** @param {AnalysisEvent} e */
  function receive(e) {
    if (e.type === "queued") {
      status.textContent = t("analysis.queued", { waiting: e.waiting });
    } else if (e.type === "info") {
      // A depth sends its lines best first: the best begins the depth's set.
      if (e.line <= 1) {
        engine.info = e;
        engine.lines = [e];
      } else {
        engine.lines[e.line - 1] = e;
      }
      status.textContent = t("analysis.depth", { depth: e.depth, nodes: number.format(e.nodes), nps: number.format(Math.round(e.nps / 1000)) });
      draw();
    } else if (e.type === "done") {
      if (e.reason === "replaced") return;
      engine.on = false;
      engine.stop = null;
      status.textContent = e.reason === "over" ? t("analysis.over") : t("analysis.finished", { depth: e.depth, nodes: number.format(e.nodes) });
      draw();
    } else if (e.type === "error") {
      engine.on = false;
      showError(e.message);
      draw();
    }
  }

  linesChoice.addEventListener("change", () => {
    engine.wanted = Number(linesChoice.value) || 1;
    if (engine.on) start();
  });

  toggle.addEventListener("click", () => {
    if (engine.on) {
      engine.on = false;
      halt();
      status.textContent = t("analysis.stopped");
      draw();
    } else {
      engine.on = true;
      start();
    }
  });

  return {
    element,
    /** The evaluation as a bar, which stands beside the board. */
    bar: bar.element,
    /** Shows what the engine said last, on the board too (after the board was drawn anew). */
    draw,
    /** After a move: the engine, if on, starts on the new position once it has stayed a moment. */
    follow() {
      if (!engine.on) {
        engine.info = null;
        draw();
        return;
      }
      halt();
      engine.info = null;
      draw();
      status.textContent = t("analysis.starting");
      engine.timer = setTimeout(() => start(), SETTLE_MS);
    },
    /** Turns it off and forgets what it said (a position is being set up). */
    clear() {
      engine.on = false;
      halt();
      status.textContent = "";
      engine.info = null;
      engine.lines = [];
    },
    /** Turns it off for good (the page is left). */
    stop() {
      engine.on = false;
      halt();
    },
  };
}
