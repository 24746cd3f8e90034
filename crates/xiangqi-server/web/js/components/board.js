// The board as SVG, on either geometry: pieces in the player's chosen set, theme,
// size and coordinates (redrawn at once when a preference changes), the last move
// outlined, the pending move, the selected piece and its legal targets, and the
// general in check, and arrows for moves an engine suggests (its best line,
// the first move strongest; or the better move at a mistake). The server says which moves are legal; the board only draws
// and reports the player's choice, made by clicking a piece then a cell, by
// dragging, or with the keyboard: the board takes the focus, the arrows move a
// cursor from point to point (as the board is shown, flipped or not), Enter or
// Space picks a piece up and puts it down, Escape lets it go. What the cursor
// is on and what happens is said in a live region for screen readers.

import { h, svg } from "../dom.js";
import { isRed, parseFen, splitMove } from "../fen.js";
import { t, tn } from "../i18n.js";
import { onPrefsChange, prefs } from "../prefs.js";
import { drawPiece } from "./pieces.js";

/** @typedef {import("./geometry.js").Geometry} Geometry */
/** @typedef {import("../models.js").Color} Color */

/** Boards made so far, for unique ids. */
let boards = 0;

/**
 * What the board shows.
 * @typedef {object} BoardState
 * @property {string} fen
 * @property {string[]} [legal]     moves the player may choose from
 * @property {boolean} [flipped]    Black at the bottom
 * @property {string | null} [last] the last move played
 * @property {Color | null} [mine]  whose pieces the player may move now, if anyone's
 * @property {string | null} [pending] a chosen move not yet submitted
 * @property {Color | null} [check]   the side whose general is in check
 * @property {string[]} [dots]        cells to mark with a dot (a diagram's moves)
 * @property {Color | null} [mated]   the side whose general is checkmated (a ring round it)
 * @property {Arrow[]} [arrows]       moves drawn as arrows, in order (the first on top)
 * @property {{ cell: string, kind: string }[]} [circles]  points marked with a coloured ring (a study's)
 */

/**
 * A move drawn as an arrow: `best` the engine's move (prominent), `line` a move
 * further along its line, `better` the move the engine preferred to one played;
 * or a study's arrow in its brush's colour.
 * @typedef {{ move: string, kind: "best" | "line" | "better" | "premove" | "green" | "red" | "blue" | "yellow" }} Arrow
 */

/** Screen directions of the arrow keys. @type {Record<string, [number, number]>} */
const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** The names of the pieces, by lower-case letter. */
const PIECES = /** @type {const} */ ({
  k: "piece.k", a: "piece.a", b: "piece.b", n: "piece.n", r: "piece.r", c: "piece.c", p: "piece.p",
});

/**
 * A piece in words: "Red cannon".
 * @param {string} letter
 */
export function pieceName(letter) {
  const lower = letter.toLowerCase();
  const key = lower in PIECES ? PIECES[/** @type {keyof typeof PIECES} */ (lower)] : PIECES.p;
  return t(isRed(letter) ? "board.redPiece" : "board.blackPiece", { piece: t(key) });
}

export class Board {
  /**
   * @param {HTMLElement} container
   * @param {Geometry} geometry
   * @param {string} label  for screen readers
   * @param {(move: string) => void} [onChoose]  called with a legal move the player picked
   */
  constructor(container, geometry, label, onChoose = () => {}) {
    this.geometry = geometry;
    this.onChoose = onChoose;
    const { width, height } = geometry;
    const help = h("p", { class: "sr-only", id: `board-help-${++boards}` }, t("board.keys"));
    this.svg = svg("svg", {
      viewBox: `0 0 ${width} ${height}`, class: `board ${geometry.name}`, role: "application",
      "aria-label": label, "aria-describedby": help.id, tabindex: 0,
    });
    /** Where screen readers hear what the keyboard does. */
    this.live = h("p", { class: "sr-only", "aria-live": "polite" });
    container.replaceChildren(this.svg, help, this.live);
    /** @type {Required<BoardState>} */
    this.state = { fen: geometry.startFen, legal: [], flipped: false, last: null, mine: null, pending: null, check: null, dots: [], mated: null, arrows: [], circles: [] };
    /** @type {string | null} the point the keyboard is on */
    this.cursor = null;
    /** @type {Map<string, string>} the pieces as drawn, by cell */
    this.placed = new Map();
    /** @type {string | null} */
    this.selected = null;
    /** @type {{ from: string, x: number, y: number, moved: boolean } | null} */
    this.drag = null;
    /**
     * While set (setting up a position), a click or Enter on any point calls it
     * with the point instead of picking pieces up.
     * @type {((cell: string) => void) | null}
     */
    this.onCell = null;
    this.marks = svg("g", { class: "marks" });
    /** Marks drawn over the pieces (the mated general's ring). */
    this.rings = svg("g", { class: "rings" });
    this.arrows = svg("g", { class: "arrows" });
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focus", () => {
      if (!this.cursor) this.cursor = this.selected ?? this.home();
      this.drawMarks();
      this.announce(this.describe(this.cursor));
    });
    this.svg.addEventListener("blur", () => this.drawMarks());
    /** Whether the board has been on the page: once it has left, it stops following the preferences. */
    this.shown = false;
    const stop = onPrefsChange(() => {
      if (this.svg.isConnected) this.draw();
      else if (this.shown) stop();
    });
  }

  /** Gives the board the keyboard focus. */
  focus() {
    this.svg.focus();
  }

  /**
   * Says something to screen readers.
   * @param {string} text
   */
  announce(text) {
    // A new node each time, so that saying the same words twice is heard twice.
    this.live.replaceChildren(h("span", {}, text));
  }

  /** Where the keyboard cursor starts: the general at the bottom of the board. */
  home() {
    const wanted = this.state.mine === "black" || (!this.state.mine && this.state.flipped) ? "k" : "K";
    for (const [cell, letter] of this.placed) if (letter === wanted) return cell;
    return this.geometry.cells[0] ?? "";
  }

  /**
   * A point in words: "h2, Red cannon" or "e5, empty".
   * @param {string} cell
   */
  describe(cell) {
    const letter = this.placed.get(cell);
    const what = letter ? pieceName(letter) : t("board.empty");
    const target = this.selected && this.targets(this.selected).includes(cell) ? t("board.target") : "";
    return t("board.point", { cell, what }) + target;
  }

  /**
   * The nearest point from `from` in a screen direction, if any: straight ahead
   * first, then the closest slanting one (the hex board's diagonal files).
   * @param {string} from
   * @param {[number, number]} dir
   */
  step(from, [dx, dy]) {
    const flipped = this.state.flipped;
    const [x, y] = this.geometry.center(from, flipped);
    let best = null, bestScore = Infinity;
    for (const cell of this.geometry.cells) {
      const [cx, cy] = this.geometry.center(cell, flipped);
      const along = (cx - x) * dx + (cy - y) * dy;
      const side = (cx - x) * dy - (cy - y) * dx;
      const across = Math.abs(side);
      if (along <= 1 || across > along * 1.8) continue;
      // Of two slanting cells equally near, turn the same way (clockwise) every
      // time, so that Right then Left comes back where it started.
      const score = Math.hypot(cx - x, cy - y) + across + side * 0.001;
      if (score < bestScore) [best, bestScore] = [cell, score];
    }
    return best;
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const cursor = this.cursor ?? this.home();
    const dir = ARROWS[e.key];
    if (dir) {
      e.preventDefault();
      this.cursor = this.step(cursor, dir) ?? cursor;
      this.drawMarks();
      this.announce(this.describe(this.cursor));
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.cursor = cursor;
      const before = this.selected;
      const picked = this.choose(cursor);
      if (picked) return;
      if (this.selected && this.selected !== before) {
        const letter = this.placed.get(this.selected) ?? "";
        this.announce(tn("board.selected", this.targets(this.selected).length, { piece: pieceName(letter), cell: this.selected }));
      } else if (before && !this.selected) {
        this.announce(t("board.dropped"));
      } else if (before) {
        this.announce(t("board.notTarget", { cell: cursor }));
      } else {
        this.announce(t("board.cannotPick", { cell: cursor }));
      }
    } else if (e.key === "Escape" && this.selected) {
      e.preventDefault();
      this.selected = null;
      this.drawMarks();
      this.announce(t("board.dropped"));
    }
  }

  /**
   * Redraws with a new state.
   * @param {BoardState} state
   */
  show({ fen, legal = [], flipped = false, last = null, mine = null, pending = null, check = null, dots = [], mated = null, arrows = [], circles = [] }) {
    const before = this.placed;
    const lastBefore = this.state.last;
    this.state = { fen, legal, flipped, last, mine, pending, check, dots, mated, arrows, circles };
    this.placed = this.pieces();
    if (!mine || pending) this.selected = null;
    this.draw();
    // A move that has just been played glides from its point (not one the player
    // already put there, nor the first drawing of a position).
    const move = last && last !== lastBefore && before.size ? splitMove(last) : null;
    if (move && prefs().animation && before.has(move[0]) && before.get(move[0]) === this.placed.get(move[1])) this.glide(move[0], move[1]);
  }

  /**
   * Slides the piece now on `to` from `from`.
   * @param {string} from
   * @param {string} to
   */
  glide(from, to) {
    const piece = this.svg.querySelector(`g.piece[data-cell="${to}"]`);
    if (!(piece instanceof SVGGElement) || typeof piece.animate !== "function") return;
    const [x0, y0] = this.geometry.center(from, this.state.flipped);
    const [x1, y1] = this.geometry.center(to, this.state.flipped);
    piece.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: 240, easing: "ease-out" });
    this.svg.dataset["animated"] = from + to;
  }

  /**
   * The cell under a pointer, if any.
   * @param {number} clientX
   * @param {number} clientY
   */
  cellAt(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const x = ((clientX - box.left) / box.width) * this.geometry.width;
    const y = ((clientY - box.top) / box.height) * this.geometry.height;
    let best = null, bestDistance = this.geometry.hit;
    for (const cell of this.geometry.cells) {
      const [cx, cy] = this.geometry.center(cell, this.state.flipped);
      const d = Math.hypot(cx - x, cy - y);
      if (d < bestDistance) [best, bestDistance] = [cell, d];
    }
    return best;
  }

  /** The pieces as shown: the position with the pending move made. */
  pieces() {
    const pieces = parseFen(this.geometry.rows, this.state.fen);
    const move = this.state.pending ? splitMove(this.state.pending) : null;
    if (move) {
      const letter = pieces.get(move[0]);
      pieces.delete(move[0]);
      if (letter) pieces.set(move[1], letter);
    }
    return pieces;
  }

  /**
   * The cells the piece on `from` may move to.
   * @param {string} from
   */
  targets(from) {
    return this.state.legal.map(splitMove).flatMap((m) => (m && m[0] === from ? [m[1]] : []));
  }

  /**
   * Whether the player may move the piece on a cell now.
   * @param {string} cell
   */
  ownPiece(cell) {
    const letter = this.placed.get(cell);
    if (!letter || !this.state.mine || this.state.pending) return false;
    return isRed(letter) === (this.state.mine === "red");
  }

  /**
   * A click or Enter on a point: picks up or lets go of one's own piece, or puts
   * the piece picked up there. Answers whether a move was chosen.
   * @param {string} cell
   */
  choose(cell) {
    if (this.onCell) {
      this.onCell(cell);
      return true;
    }
    if (this.ownPiece(cell)) {
      this.selected = this.selected === cell ? null : cell;
      this.draw();
      return false;
    }
    if (this.selected && this.targets(this.selected).includes(cell)) {
      const move = this.selected + cell;
      this.selected = null;
      this.onChoose(move);
      return true;
    }
    return false;
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    const cell = this.cellAt(e.clientX, e.clientY);
    if (cell && this.ownPiece(cell)) {
      this.drag = { from: cell, x: e.clientX, y: e.clientY, moved: false };
      this.svg.setPointerCapture?.(e.pointerId);
    }
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const drag = this.drag;
    if (!drag || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) <= 6) return;
    drag.moved = true;
    const ghost = this.svg.querySelector(`g.piece[data-cell="${drag.from}"]`);
    if (!ghost) return;
    const box = this.svg.getBoundingClientRect();
    const dx = ((e.clientX - drag.x) / box.width) * this.geometry.width;
    const dy = ((e.clientY - drag.y) / box.height) * this.geometry.height;
    ghost.setAttribute("transform", `translate(${dx} ${dy})`);
    if (this.selected !== drag.from) {
      this.selected = drag.from;
      this.drawMarks();
    }
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    const cell = this.cellAt(e.clientX, e.clientY);
    if (drag && drag.moved) {
      this.selected = drag.from;
      if (cell && this.targets(drag.from).includes(cell)) {
        this.selected = null;
        this.onChoose(drag.from + cell);
      } else {
        this.draw();
      }
      return;
    }
    if (cell) this.choose(cell);
  }

  draw() {
    const { geometry, state } = this;
    const p = prefs();
    if (this.svg.isConnected) this.shown = true;
    this.svg.replaceChildren();
    this.svg.dataset["pieces"] = p.pieces;
    this.svg.dataset["coordinates"] = p.coordinates;
    svg("rect", { x: 0, y: 0, width: geometry.width, height: geometry.height, rx: 14, class: "wood" }, this.svg);
    geometry.drawGround(svg("g", { class: "ground" }, this.svg), state.flipped, p.coordinates);
    this.marks = svg("g", { class: "marks" }, this.svg);
    const layer = svg("g", { class: "pieces" }, this.svg);
    this.rings = svg("g", { class: "rings" }, this.svg);
    this.arrows = svg("g", { class: "arrows", "aria-hidden": "true" }, this.svg);
    // Points on the standard board are 60 apart: past 114% neighbouring pieces would overlap.
    const scale = Math.min(p.piece_size / 100, geometry.name === "standard" ? 1.14 : 1.2);
    for (const [cell, letter] of this.placed) {
      const [x, y] = geometry.center(cell, state.flipped);
      const g = svg("g", { class: `piece ${isRed(letter) ? "red" : "black"}`, "data-cell": cell, "data-piece": letter }, layer);
      drawPiece(g, x, y, letter, { set: p.pieces, scale, up: isRed(letter) !== state.flipped });
      if (this.ownPiece(cell)) g.classList.add("movable");
    }
    this.drawMarks();
  }

  /**
   * Draws these arrows instead of those shown (the engine's line changes while
   * the position stays).
   * @param {Arrow[]} arrows
   */
  setArrows(arrows) {
    this.state = { ...this.state, arrows };
    this.drawArrows();
  }

  /** Each arrow from the centre of its move's first point to the second's, the first drawn last (on top). */
  drawArrows() {
    const { geometry, state } = this;
    this.arrows.replaceChildren();
    for (const { move, kind } of [...state.arrows].reverse()) {
      const cells = splitMove(move);
      if (!cells) continue;
      const [x1, y1] = geometry.center(cells[0], state.flipped);
      const [x2, y2] = geometry.center(cells[1], state.flipped);
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (!length) continue;
      const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
      const head = kind === "line" ? 18 : 24;
      const half = kind === "line" ? 10 : 14;
      // The shaft stops where the head begins; the head's tip stops short of the centre.
      const tip = [x2 - ux * 8, y2 - uy * 8];
      const base = [tip[0] - ux * head, tip[1] - uy * head];
      const g = svg("g", { class: `arrow ${kind}`, "data-arrow": move }, this.arrows);
      svg("line", { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: base[0], y2: base[1] }, g);
      const points = [tip, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
      svg("polygon", { points: points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") }, g);
    }
  }

  drawMarks() {
    this.drawArrows();
    const { geometry, state, marks } = this;
    marks.replaceChildren();
    this.rings.replaceChildren();
    /** @param {string | null} move @param {string} cls */
    const outlineMove = (move, cls) => {
      for (const cell of (move && splitMove(move)) || []) geometry.outline(marks, cell, cls, state.flipped);
    };
    outlineMove(state.last, "last");
    outlineMove(state.pending, "pending");
    if (state.check || state.mated) {
      const general = (state.mated ?? state.check) === "red" ? "K" : "k";
      for (const [cell, letter] of parseFen(geometry.rows, state.fen)) {
        if (letter !== general) continue;
        geometry.outline(marks, cell, "check", state.flipped);
        if (!state.mated) continue;
        // The mated general: a ring round the piece, above the pieces' layer so no piece hides it.
        const [x, y] = geometry.center(cell, state.flipped);
        svg("circle", { cx: x, cy: y, r: 31, class: "mated", "data-mated": cell }, this.rings);
      }
    }
    for (const { cell, kind } of state.circles) {
      const [x, y] = geometry.center(cell, state.flipped);
      svg("circle", { cx: x, cy: y, r: 27, class: `ring ${kind}`, "data-ring": cell }, this.rings);
    }
    for (const cell of state.dots) {
      const [x, y] = geometry.center(cell, state.flipped);
      svg("circle", { cx: x, cy: y, r: this.placed.has(cell) ? 29 : 9, class: this.placed.has(cell) ? "hint capture" : "hint", "data-dot": cell }, marks);
    }
    if (this.cursor && document.activeElement === this.svg) geometry.outline(marks, this.cursor, "cursor", state.flipped);
    if (!this.selected) return;
    geometry.outline(marks, this.selected, "selected", state.flipped);
    const occupied = this.placed;
    for (const t of this.targets(this.selected)) {
      const [x, y] = geometry.center(t, state.flipped);
      const capture = occupied.has(t);
      svg("circle", { cx: x, cy: y, r: capture ? 29 : 9, class: capture ? "target capture" : "target", "data-target": t }, marks);
    }
  }
}
