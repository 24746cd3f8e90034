// The analysis board: any position (a game at any move, a FEN, or one set up
// piece by piece, which the server's rules check and say what is wrong with),
// moves and variations as a tree (a different move from an earlier position
// starts a variation; any move can be gone back to), and the server's engine
// thinking about the position shown, its evaluation, depth and best line
// arriving live. The engine follows the position as the user moves about.
//
// Addresses: `#/analysis` (the standard start), `#/analysis/{standard|hex}/{FEN}`,
// `#/analysis/game/{id}/{ply}` (a game's moves, at move `ply`).

import * as api from "../api.js";
import { Board, pieceName } from "../components/board.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { clamped, evalBar, scoreText, scoreWords } from "../components/evaluation.js";
import { button, page } from "../components/layout.js";
import { drawPiece } from "../components/pieces.js";
import { h, svg } from "../dom.js";
import { analyse } from "../engine.js";
import { errorText } from "../errors.js";
import { parseFen, writeFen } from "../fen.js";
import { colorName, outcomeText } from "../format.js";
import { lang, t } from "../i18n.js";
import { moveText } from "../notation.js";
import { onPrefsChange, prefs } from "../prefs.js";
import { currentUser } from "../state.js";

/** @typedef {import("../components/geometry.js").Geometry} Geometry */
/** @typedef {import("../models.js").LinePosition} LinePosition */
/** @typedef {import("../models.js").LineAnswer} LineAnswer */
/** @typedef {import("../models.js").AnalysisEvent} AnalysisEvent */
/** @typedef {import("../models.js").AnalysisInfo} AnalysisInfo */
/** @typedef {import("../models.js").Color} Color */
/** @typedef {import("../models.js").Game} Game */

/** @type {Record<string, Geometry>} */
const BOARDS = { standard, hex };
/** The rules each board is analysed under unless a game says otherwise. */
const RULES = { standard: "asian", hex: "hex" };
/** The pieces a position is set up with, Red's then Black's. */
const PALETTE = ["K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p"];
/** How long the position must stay before the engine starts on it (stepping through moves). */
const SETTLE_MS = 300;

/**
 * A position in the tree: the move that led there (none at the root) and the
 * moves played from it, the first being the main line.
 * @typedef {object} Node
 * @property {number} id
 * @property {LinePosition} at
 * @property {Node | null} parent
 * @property {Node[]} children
 * @property {number} depth  moves from the root
 */

/**
 * The address of a position on the analysis board.
 * @param {string} board  standard or hex
 * @param {string} fen
 */
export const analysisLink = (board, fen) => `#/analysis/${board}/${encodeURIComponent(fen.trim())}`;

/**
 * The analysis board at a game's move.
 * @param {string} id
 * @param {number} ply
 */
export const gameAnalysisLink = (id, ply) => `#/analysis/game/${encodeURIComponent(id)}/${ply}`;

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function analysisPage(view, args) {
  /** What to load first: a board, its rules, a FEN, moves, and which of them to show. */
  let start = { board: "standard", rules: "asian", fen: standard.startFen, moves: /** @type {string[]} */ ([]), ply: 0 };
  if (args[0] === "game") {
    const game = await api.game("GET", api.gamePath(args[1] ?? ""));
    const board = game.variant ?? (game.rules === "hex" ? "hex" : "standard");
    const moves = (game.moves ?? []).map((m) => m.iccs);
    const ply = Math.max(0, Math.min(moves.length, Number(args[2] ?? moves.length) || 0));
    start = { board, rules: game.rules, fen: game.start_fen ?? (BOARDS[board] ?? standard).startFen, moves, ply };
  } else if (args[0] && BOARDS[args[0]]) {
    const board = args[0];
    const geometry = BOARDS[board] ?? standard;
    start = { board, rules: board === "hex" ? RULES.hex : RULES.standard, fen: args.slice(1).join("/").trim() || geometry.startFen, moves: [], ply: 0 };
  } else if (args[0]) {
    page(view, t("analysis.title"), h("p", { class: "message error" }, t("position.unknownBoard", { name: args[0] })));
    return;
  }

  let variant = start.board;
  let rules = start.rules;
  let geometry = BOARDS[variant] ?? standard;
  let nextId = 0;
  /** @type {Node} */
  let root = { id: nextId++, at: { played: null, fen: start.fen, turn: "red", check: false, legal: [], outcome: null }, parent: null, children: [], depth: 0 };
  let current = root;
  let flipped = false;
  /** The move numbering of the root: its full-move number and side to move. */
  let fullmove = 1;

  /** The engine: whether the user wants it on, how to stop the stream, what it said last. */
  const engine = {
    on: false,
    /** @type {(() => void) | null} */
    stop: null,
    /** Counts starts, so that a late event of an old stream is ignored. */
    run: 0,
    /** @type {AnalysisInfo | null} */
    info: null,
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    timer: undefined,
  };
  /**
   * Setting up a position: the pieces by cell, the side to move, and the piece
   * a click puts down ("" takes one away).
   * @type {{ pieces: Map<string, string>, turn: Color, tool: string } | null}
   */
  let setup = null;

  // ---- The page ----
  const bar = evalBar();
  const boardBox = h("div", { class: "board-box" });
  const evalText = h("p", { class: "eval-score", id: "eval", "aria-live": "off" }, "—");
  const engineStatus = h("p", { class: "engine-status muted small", id: "engine-status", role: "status" });
  const pvBox = h("p", { class: "pv", id: "pv" });
  const engineError = h("p", { class: "message error", id: "engine-error", role: "alert", hidden: true });
  const engineButton = h("button", { type: "button", class: "primary", id: "engine-toggle", "data-action": "engine" }, t("analysis.start"));
  const engineBox = h("section", { class: "engine card", "aria-label": t("analysis.engine") },
    h("div", { class: "engine-head" }, evalText, engineButton), engineStatus, pvBox, engineError);
  const positionStatus = h("p", { class: "status", id: "position-status", role: "status" });
  const tree = h("div", { class: "tree", id: "tree", "aria-label": t("analysis.moves") });
  const navButtons = h("div", { class: "buttons tree-nav" },
    button("«", () => goTo(root), { id: "nav-first", "aria-label": t("analysis.first") }),
    button("‹", () => back(), { id: "nav-back", "aria-label": t("analysis.back") }),
    button("›", () => forward(), { id: "nav-forward", "aria-label": t("analysis.forward") }),
    button("»", () => goTo(mainEnd(current)), { id: "nav-last", "aria-label": t("analysis.last") }),
    button(t("game.flip"), () => { flipped = !flipped; draw(); }, { id: "flip" }));
  const fenInput = h("input", { name: "fen", id: "fen", spellcheck: "false", autocomplete: "off" });
  const boardChoice = h("select", { id: "board-choice", "aria-label": t("analysis.board") },
    h("option", { value: "standard" }, t("position.standard")), h("option", { value: "hex" }, t("position.hex")));
  const fenError = h("p", { class: "message error", id: "fen-error", role: "alert", hidden: true });
  const fenForm = h("form", { class: "fen-form", id: "fen-form" },
    h("label", {}, t("position.fen"), fenInput),
    boardChoice,
    h("button", { type: "submit" }, t("analysis.load")),
    button(t("analysis.setUp"), () => enterSetup(), { id: "setup-start" }),
    fenError);
  const setupBox = h("section", { class: "setup card", id: "setup", hidden: true, "aria-label": t("analysis.setUpTitle") });
  const side = h("aside", { class: "analysis-side" }, engineBox, positionStatus, navButtons, tree, fenForm, setupBox);
  page(view, t("analysis.title"), h("div", { class: "analysis" }, h("div", { class: "analysis-board" }, bar.element, boardBox), side));

  /** @type {Board} */
  let board = makeBoard();

  function makeBoard() {
    return new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"), (move) => play(move));
  }

  // ---- Loading ----

  /**
   * A line from the server: every position from `fen` after `moves`.
   * @param {string} fen
   * @param {string[]} moves
   * @returns {Promise<LineAnswer>}
   */
  const line = (fen, moves) => api.call("POST", "/positions", { variant, rules, fen, moves });

  /**
   * Makes the tree anew from a line, showing the position after `ply` moves.
   * @param {LineAnswer} answer
   * @param {number} ply
   */
  function plant(answer, ply) {
    const [first, ...rest] = answer.positions;
    if (!first) return;
    root = { id: nextId++, at: first, parent: null, children: [], depth: 0 };
    let node = root;
    const along = [root];
    for (const at of rest) {
      const child = { id: nextId++, at, parent: node, children: [], depth: node.depth + 1 };
      node.children.push(child);
      node = child;
      along.push(child);
    }
    const fields = first.fen.trim().split(/\s+/);
    fullmove = Math.max(1, Number(fields[5]) || 1);
    current = along[ply] ?? node;
    draw();
    follow();
  }

  /**
   * Loads a position on a board (another board makes a new board component).
   * Answers what is wrong with it, or "".
   * @param {string} name  standard or hex
   * @param {string} withRules
   * @param {string} fen
   */
  async function loadFen(name, withRules, fen) {
    const before = { variant, rules, geometry };
    variant = name;
    rules = withRules;
    geometry = BOARDS[name] ?? standard;
    try {
      const answer = await line(fen, []);
      boardInstance();
      plant(answer, 0);
      return "";
    } catch (err) {
      ({ variant, rules, geometry } = before);
      boardChoice.value = variant;
      return errorText(err);
    }
  }

  /** Makes the board component for the board now chosen, if it changed. */
  function boardInstance() {
    if (board.geometry !== geometry) board = makeBoard();
  }

  // ---- Moving about ----

  /**
   * Plays a move from the position shown: the same move as a move already
   * there goes to it; another starts a variation.
   * @param {string} move
   */
  async function play(move) {
    const from = current;
    const known = from.children.find((c) => c.at.played?.iccs === move);
    if (known) return goTo(known);
    try {
      const answer = await line(from.at.fen, [move]);
      const at = answer.positions[1];
      if (!at) return;
      const child = { id: nextId++, at, parent: from, children: [], depth: from.depth + 1 };
      from.children.push(child);
      goTo(child);
    } catch (err) {
      positionStatus.textContent = errorText(err);
    }
  }

  /** @param {Node} node */
  function goTo(node) {
    if (setup) return;
    current = node;
    draw();
    follow();
  }

  function back() {
    if (current.parent) goTo(current.parent);
  }

  function forward() {
    const next = current.children[0];
    if (next) goTo(next);
  }

  /** @param {Node} node  the end of the main line from a node */
  function mainEnd(node) {
    let n = node;
    while (n.children[0]) n = n.children[0];
    return n;
  }

  /** @param {Node} node  the moves from the root to a node, in ICCS */
  function path(node) {
    const moves = [];
    for (let n = node; n.parent; n = n.parent) moves.push(n.at.played?.iccs ?? "");
    return moves.reverse();
  }

  // ---- Drawing ----

  function draw() {
    const at = current.at;
    if (setup) {
      board.show({ fen: writeFen(geometry.rows, setup.pieces, setup.turn), flipped });
      fenInput.value = writeFen(geometry.rows, setup.pieces, setup.turn);
      return;
    }
    board.show({
      fen: at.fen, legal: at.legal, flipped, last: at.played?.iccs ?? null,
      mine: at.outcome ? null : at.turn, check: at.check ? at.turn : null,
    });
    fenInput.value = at.fen;
    boardChoice.value = variant;
    positionStatus.textContent = at.outcome
      ? outcomeText(at.outcome)
      : t(at.check ? "analysis.toMoveCheck" : "analysis.toMove", { color: colorName(at.turn, true) });
    positionStatus.classList.toggle("check", at.check && !at.outcome);
    drawTree();
    drawEngine();
  }

  /**
   * The label of a move: its number before Red's moves and before a line that
   * starts with Black's, then the move in the chosen notation.
   * @param {Node} n
   * @param {boolean} numbered
   */
  function moveLabel(n, numbered) {
    const rootBlack = root.at.turn === "black" ? 1 : 0;
    const half = rootBlack + n.depth - 1;
    const number = fullmove + Math.floor(half / 2);
    const red = half % 2 === 0;
    const names = n.at.played ?? { iccs: "", wxf: "", chinese: "" };
    const text = moveText({ ...names, at: 0 }, red ? 0 : 1);
    return red ? `${number}. ${text}` : numbered ? `${number}… ${text}` : text;
  }

  /**
   * @param {Node} n
   * @param {boolean} numbered
   */
  function moveButton(n, numbered) {
    return h("button", {
      type: "button", class: `node${n === current ? " current" : ""}`, "data-node": n.id,
      "data-move": n.at.played?.iccs ?? "", "aria-current": n === current ? "true" : null,
      onclick: () => goTo(n),
    }, moveLabel(n, numbered));
  }

  /**
   * A line from its first move: the main moves in order, each move's
   * alternatives in brackets after it.
   * @param {Node} first
   * @returns {HTMLElement[]}
   */
  function lineOf(first) {
    /** @type {HTMLElement[]} */
    const out = [];
    let numbered = true;
    for (let n = /** @type {Node | undefined} */ (first); n; n = n.children[0]) {
      out.push(moveButton(n, numbered));
      numbered = false;
      const parent = n.parent;
      if (parent && parent.children[0] === n && parent.children.length > 1) {
        for (const alt of parent.children.slice(1)) {
          out.push(h("span", { class: "variation" }, lineOf(alt)));
        }
        numbered = true;
      }
    }
    return out;
  }

  function drawTree() {
    const start = h("button", {
      type: "button", class: `node start${current === root ? " current" : ""}`, id: "tree-start",
      "aria-current": current === root ? "true" : null, onclick: () => goTo(root),
    }, t("analysis.startPosition"));
    const hadFocus = tree.contains(document.activeElement);
    /** @type {HTMLElement[]} */
    const moves = [];
    const main = root.children[0];
    if (main) moves.push(...lineOf(main));
    tree.replaceChildren(start, ...moves);
    if (!moves.length) tree.append(h("span", { class: "muted small" }, t("analysis.noMoves")));
    // The move shown is in view, and keeps the focus when a move in the tree had it.
    const here = tree.querySelector(".node.current");
    if (here instanceof HTMLElement && hadFocus) here.focus();
    else if (here instanceof HTMLElement) here.scrollIntoView?.({ block: "nearest" });
  }

  // ---- The engine ----

  const number = new Intl.NumberFormat(lang);

  function drawEngine() {
    const me = currentUser();
    engineButton.disabled = !me;
    engineButton.textContent = !me ? t("analysis.logIn") : engine.on ? t("analysis.stop") : t("analysis.start");
    engineButton.setAttribute("aria-pressed", String(engine.on));
    const info = engine.info;
    const over = current.at.outcome;
    // The engine's line as arrows: its first three moves, the first strongest.
    board.setArrows(over || !info ? [] : info.pv.slice(0, 3).map((m, i) => ({ move: m.iccs, kind: i === 0 ? "best" : "line" })));
    if (over || !info) {
      delete evalText.dataset["cp"];
      delete evalText.dataset["depth"];
    }
    if (over) {
      evalText.textContent = scoreText(over.winner === "red" ? { kind: "won" } : over.winner === "black" ? { kind: "lost" } : { kind: "drawn" });
      bar.set(over.winner === "red" ? { kind: "won" } : over.winner === "black" ? { kind: "lost" } : { kind: "drawn" });
      pvBox.replaceChildren();
      return;
    }
    if (!info) {
      evalText.textContent = "—";
      evalText.removeAttribute("title");
      bar.set(null);
      pvBox.replaceChildren();
      return;
    }
    evalText.textContent = scoreText(info.red);
    evalText.title = scoreWords(info.red);
    evalText.dataset["cp"] = String(clamped(info.red));
    evalText.dataset["depth"] = String(info.depth);
    bar.set(info.red);
    const half = (root.at.turn === "black" ? 1 : 0) + current.depth;
    pvBox.replaceChildren(h("span", { class: "sr-only" }, t("analysis.pv")),
      ...info.pv.map((m, i) => h("span", { class: "pv-move" }, moveText({ ...m, at: 0 }, (half + i) % 2))));
  }

  /** @param {string} text */
  function showEngineError(text) {
    engineError.textContent = text;
    engineError.hidden = !text;
  }

  function stopEngine() {
    clearTimeout(engine.timer);
    engine.stop?.();
    engine.stop = null;
    engine.run++;
  }

  /** Starts the engine on the position shown (the old search, if any, stops). */
  async function startEngine() {
    stopEngine();
    const run = engine.run;
    engine.info = null;
    showEngineError("");
    drawEngine();
    if (current.at.outcome) {
      engineStatus.textContent = t("analysis.over");
      return;
    }
    engineStatus.textContent = t("analysis.starting");
    try {
      const stop = await analyse({ variant, rules, fen: root.at.fen, moves: path(current) }, (e) => {
        if (run === engine.run) onEngine(e);
      }, () => {
        if (run === engine.run) engine.stop = null;
      });
      if (run === engine.run) engine.stop = stop;
      else stop();
    } catch (err) {
      if (run !== engine.run) return;
      engine.on = false;
      engineStatus.textContent = "";
      showEngineError(errorText(err));
      drawEngine();
    }
  }

  /** @param {AnalysisEvent} e */
  function onEngine(e) {
    if (e.type === "queued") {
      engineStatus.textContent = t("analysis.queued", { waiting: e.waiting });
    } else if (e.type === "info") {
      engine.info = e;
      engineStatus.textContent = t("analysis.depth", { depth: e.depth, nodes: number.format(e.nodes), nps: number.format(Math.round(e.nps / 1000)) });
      drawEngine();
    } else if (e.type === "done") {
      if (e.reason === "replaced") return;
      engine.on = false;
      engine.stop = null;
      engineStatus.textContent = e.reason === "over" ? t("analysis.over") : t("analysis.finished", { depth: e.depth, nodes: number.format(e.nodes) });
      drawEngine();
    } else if (e.type === "error") {
      engine.on = false;
      showEngineError(e.message);
      drawEngine();
    }
  }

  /** After a move: the engine, if on, starts on the new position once it has stayed a moment. */
  function follow() {
    if (!engine.on) {
      engine.info = null;
      drawEngine();
      return;
    }
    stopEngine();
    engine.info = null;
    drawEngine();
    engineStatus.textContent = t("analysis.starting");
    engine.timer = setTimeout(() => startEngine(), SETTLE_MS);
  }

  engineButton.addEventListener("click", () => {
    if (engine.on) {
      engine.on = false;
      stopEngine();
      engineStatus.textContent = t("analysis.stopped");
      drawEngine();
    } else {
      engine.on = true;
      startEngine();
    }
  });

  // ---- A FEN, another board ----

  fenForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = boardChoice.value === "hex" ? "hex" : "standard";
    const problem = await loadFen(chosen, chosen === variant ? rules : RULES[chosen], fenInput.value);
    fenError.textContent = problem;
    fenError.hidden = !problem;
  });
  boardChoice.addEventListener("change", async () => {
    const chosen = boardChoice.value === "hex" ? "hex" : "standard";
    if (chosen === variant) return;
    const fresh = BOARDS[chosen] ?? standard;
    if (setup) {
      geometry = fresh;
      variant = chosen;
      rules = RULES[chosen];
      boardInstance();
      board.onCell = place;
      setup.pieces = new Map();
      draw();
      return;
    }
    const problem = await loadFen(chosen, RULES[chosen], fresh.startFen);
    fenError.textContent = problem;
    fenError.hidden = !problem;
  });

  // ---- Setting up a position ----

  /** @param {string} cell */
  function place(cell) {
    if (!setup) return;
    const had = setup.pieces.get(cell);
    if (!setup.tool || had === setup.tool) setup.pieces.delete(cell);
    else setup.pieces.set(cell, setup.tool);
    draw();
    const now = setup.pieces.get(cell);
    board.announce(now ? t("analysis.placed", { piece: pieceName(now), cell }) : t("analysis.cleared", { cell }));
  }

  function drawSetup() {
    if (!setup) return;
    const s = setup;
    const tool = (/** @type {string} */ letter, /** @type {string} */ label) => {
      const icon = svg("svg", { viewBox: "0 0 60 60", class: "palette-icon", "aria-hidden": "true" });
      if (letter) drawPiece(svg("g", { class: `piece ${letter === letter.toUpperCase() ? "red" : "black"}` }, icon), 30, 30, letter, { set: prefs().pieces, scale: 1, up: true });
      else svg("text", { x: 30, y: 38, class: "eraser" }, icon).textContent = "✕";
      return h("button", {
        type: "button", class: "tool", "data-piece": letter || "none", "aria-pressed": String(s.tool === letter), "aria-label": label,
        onclick: () => { s.tool = letter; drawSetup(); },
      }, icon);
    };
    const turn = (/** @type {Color} */ c) => h("label", {},
      h("input", { type: "radio", name: "setup-turn", value: c, checked: s.turn === c, onchange: () => { s.turn = c; draw(); } }),
      t("analysis.toMove", { color: colorName(c, true) }));
    const error = h("p", { class: "message error", id: "setup-error", role: "alert", hidden: true });
    setupBox.replaceChildren(
      h("h2", {}, t("analysis.setUpTitle")),
      h("p", { class: "muted small" }, t("analysis.setUpHelp")),
      h("div", { class: "palette", id: "palette", role: "group", "aria-label": t("analysis.palette") },
        PALETTE.map((l) => tool(l, pieceName(l))), tool("", t("analysis.eraser"))),
      h("div", { class: "setup-turn", role: "radiogroup", "aria-label": t("analysis.sideToMove") }, turn("red"), turn("black")),
      h("div", { class: "buttons" },
        button(t("analysis.done"), async () => {
          const fen = writeFen(geometry.rows, s.pieces, s.turn);
          try {
            const answer = await line(fen, []);
            leaveSetup();
            plant(answer, 0);
          } catch (err) {
            error.textContent = errorText(err);
            error.hidden = false;
          }
        }, { class: "primary", id: "setup-done" }),
        button(t("analysis.clear"), () => { s.pieces = new Map(); draw(); }, { id: "setup-clear" }),
        button(t("position.start"), () => { s.pieces = parseFen(geometry.rows, geometry.startFen); s.turn = "red"; drawSetup(); draw(); }, { id: "setup-initial" }),
        button(t("analysis.cancel"), () => { leaveSetup(); draw(); }, { id: "setup-cancel" })),
      error);
  }

  function enterSetup() {
    engine.on = false;
    stopEngine();
    engineStatus.textContent = "";
    engine.info = null;
    setup = { pieces: parseFen(geometry.rows, current.at.fen), turn: current.at.turn, tool: "R" };
    board.onCell = place;
    setupBox.hidden = false;
    for (const part of [engineBox, navButtons, tree, positionStatus]) part.hidden = true;
    drawSetup();
    draw();
    setupBox.querySelector("button.tool")?.closest("button")?.focus();
  }

  function leaveSetup() {
    setup = null;
    board.onCell = null;
    setupBox.hidden = true;
    for (const part of [engineBox, navButtons, tree, positionStatus]) part.hidden = false;
  }

  // ---- Keys: the arrows step through the moves unless something else takes them ----

  /** @param {KeyboardEvent} e */
  function keys(e) {
    const target = e.target;
    if (setup || e.altKey || e.ctrlKey || e.metaKey) return;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof SVGElement) return;
    const act = { ArrowLeft: back, ArrowRight: forward, Home: () => goTo(root), End: () => goTo(mainEnd(current)) }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  }

  const first = await line(start.fen, start.moves).catch((err) => {
    page(view, t("analysis.title"), h("p", { class: "message error", role: "alert" }, t("position.badFen", { problem: errorText(err) })),
      h("p", {}, h("a", { href: "#/analysis" }, t("analysis.fresh"))));
    return null;
  });
  if (!first) return;
  plant(first, start.ply);
  document.addEventListener("keydown", keys);
  const stopPrefs = onPrefsChange(() => {
    if (setup) drawSetup();
    else {
      drawTree();
      drawEngine();
    }
  });
  return () => {
    document.removeEventListener("keydown", keys);
    stopPrefs();
    engine.on = false;
    stopEngine();
  };
}
