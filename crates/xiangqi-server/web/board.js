// The board as SVG: lines, palaces, river, pieces with Chinese glyphs, the last
// move outlined, the selected piece and its legal targets. The server says which
// moves are legal; the board only draws and reports the player's choice.

const NS = "http://www.w3.org/2000/svg";
const STEP = 60;
const MARGIN = 60;
const WIDTH = 8 * STEP + 2 * MARGIN;
const HEIGHT = 9 * STEP + 2 * MARGIN;
const GLYPHS = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
const FILES = "abcdefghi";

/** Pieces of a FEN board as a map from ICCS cell ("e0") to letter. */
export function parseFen(fen) {
  const pieces = new Map();
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "9") file += Number(ch);
      else pieces.set(FILES[file++] + rank, ch);
    }
  });
  return pieces;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const isRed = (letter) => letter === letter.toUpperCase();

export class Board {
  /** `onChoose(move)` is called when the player picks a legal move (click-click or drag). */
  constructor(container, onChoose) {
    this.onChoose = onChoose;
    this.svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "img", "aria-label": "Xiangqi board" });
    container.replaceChildren(this.svg);
    this.state = { fen: "", legal: [], flipped: false, last: null, mine: null, pending: null };
    this.selected = null;
    this.drag = null;
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
  }

  /** Redraws. `mine` is "red", "black" or null (watching, or not my turn). */
  show({ fen, legal = [], flipped = false, last = null, mine = null, pending = null }) {
    this.state = { fen, legal, flipped, last, mine, pending };
    if (!mine || pending) this.selected = null;
    this.draw();
  }

  xy(cell) {
    const file = FILES.indexOf(cell[0]);
    const rank = Number(cell.slice(1));
    const col = this.state.flipped ? 8 - file : file;
    const row = this.state.flipped ? rank : 9 - rank;
    return [MARGIN + col * STEP, MARGIN + row * STEP];
  }

  cellAt(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const x = ((clientX - box.left) / box.width) * WIDTH;
    const y = ((clientY - box.top) / box.height) * HEIGHT;
    const col = Math.round((x - MARGIN) / STEP);
    const row = Math.round((y - MARGIN) / STEP);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    const file = this.state.flipped ? 8 - col : col;
    const rank = this.state.flipped ? row : 9 - row;
    return FILES[file] + rank;
  }

  pieces() {
    const pieces = parseFen(this.state.fen);
    const p = this.state.pending;
    if (p) {
      const from = p.slice(0, 2), to = p.slice(2, 4);
      pieces.set(to, pieces.get(from));
      pieces.delete(from);
    }
    return pieces;
  }

  targets(from) {
    return this.state.legal.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4));
  }

  ownPiece(cell) {
    const letter = this.pieces().get(cell);
    if (!letter || !this.state.mine || this.state.pending) return false;
    return isRed(letter) === (this.state.mine === "red");
  }

  choose(cell) {
    if (this.ownPiece(cell)) {
      this.selected = this.selected === cell ? null : cell;
      this.draw();
      return;
    }
    if (this.selected && this.targets(this.selected).includes(cell)) {
      const move = this.selected + cell;
      this.selected = null;
      this.onChoose(move);
    }
  }

  pointerDown(e) {
    const cell = this.cellAt(e.clientX, e.clientY);
    if (!cell) return;
    if (this.ownPiece(cell)) {
      this.drag = { from: cell, x: e.clientX, y: e.clientY, moved: false };
      this.svg.setPointerCapture?.(e.pointerId);
    }
  }

  pointerMove(e) {
    if (!this.drag) return;
    if (Math.hypot(e.clientX - this.drag.x, e.clientY - this.drag.y) > 6) {
      this.drag.moved = true;
      const ghost = this.svg.querySelector(`[data-cell="${this.drag.from}"]`);
      if (ghost) {
        const box = this.svg.getBoundingClientRect();
        const dx = ((e.clientX - this.drag.x) / box.width) * WIDTH;
        const dy = ((e.clientY - this.drag.y) / box.height) * HEIGHT;
        ghost.setAttribute("transform", `translate(${dx} ${dy})`);
        if (this.selected !== this.drag.from) {
          this.selected = this.drag.from;
          this.drawMarks();
        }
      }
    }
  }

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
    const svg = this.svg;
    svg.replaceChildren();
    el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: "wood" }, svg);
    const lines = el("g", { class: "lines" }, svg);
    const x0 = MARGIN, y0 = MARGIN, x1 = MARGIN + 8 * STEP, y1 = MARGIN + 9 * STEP;
    el("rect", { x: x0 - 6, y: y0 - 6, width: x1 - x0 + 12, height: y1 - y0 + 12, class: "frame" }, lines);
    for (let r = 0; r < 10; r++) el("line", { x1: x0, y1: y0 + r * STEP, x2: x1, y2: y0 + r * STEP }, lines);
    for (let f = 0; f < 9; f++) {
      const x = x0 + f * STEP;
      if (f === 0 || f === 8) el("line", { x1: x, y1: y0, x2: x, y2: y1 }, lines);
      else {
        el("line", { x1: x, y1: y0, x2: x, y2: y0 + 4 * STEP }, lines);
        el("line", { x1: x, y1: y0 + 5 * STEP, x2: x, y2: y1 }, lines);
      }
    }
    for (const top of [0, 7]) {
      const ya = y0 + top * STEP, yb = ya + 2 * STEP;
      el("line", { x1: x0 + 3 * STEP, y1: ya, x2: x0 + 5 * STEP, y2: yb }, lines);
      el("line", { x1: x0 + 5 * STEP, y1: ya, x2: x0 + 3 * STEP, y2: yb }, lines);
    }
    const riverY = y0 + 4.5 * STEP;
    const [left, right] = this.state.flipped ? ["漢 界", "楚 河"] : ["楚 河", "漢 界"];
    el("text", { x: x0 + 2 * STEP, y: riverY, class: "river" }, svg).textContent = left;
    el("text", { x: x0 + 6 * STEP, y: riverY, class: "river" }, svg).textContent = right;
    const coords = el("g", { class: "coords" }, svg);
    for (let f = 0; f < 9; f++) {
      const file = this.state.flipped ? 8 - f : f;
      el("text", { x: x0 + f * STEP, y: HEIGHT - 16 }, coords).textContent = FILES[file];
    }
    for (let r = 0; r < 10; r++) {
      const rank = this.state.flipped ? r : 9 - r;
      el("text", { x: 20, y: y0 + r * STEP + 5 }, coords).textContent = rank;
    }
    this.marks = el("g", { class: "marks" }, svg);
    this.piecesLayer = el("g", { class: "pieces" }, svg);
    for (const [cell, letter] of this.pieces()) {
      const [x, y] = this.xy(cell);
      const g = el("g", { class: `piece ${isRed(letter) ? "red" : "black"}`, "data-cell": cell, "data-piece": letter }, this.piecesLayer);
      el("circle", { cx: x, cy: y, r: 26, class: "disc" }, g);
      el("circle", { cx: x, cy: y, r: 21.5, class: "ring" }, g);
      el("text", { x, y: y + 1, class: "glyph" }, g).textContent = GLYPHS[letter] ?? letter;
      if (this.ownPiece(cell)) g.classList.add("movable");
    }
    this.drawMarks();
  }

  drawMarks() {
    const marks = this.marks;
    marks.replaceChildren();
    const outline = (cell, cls) => {
      const [x, y] = this.xy(cell);
      el("rect", { x: x - 29, y: y - 29, width: 58, height: 58, rx: 8, class: cls, "data-mark": cls, "data-cell": cell }, marks);
    };
    if (this.state.last) {
      outline(this.state.last.slice(0, 2), "last");
      outline(this.state.last.slice(2, 4), "last");
    }
    if (this.state.pending) {
      outline(this.state.pending.slice(0, 2), "pending");
      outline(this.state.pending.slice(2, 4), "pending");
    }
    if (this.selected) {
      outline(this.selected, "selected");
      const occupied = this.pieces();
      for (const t of this.targets(this.selected)) {
        const [x, y] = this.xy(t);
        if (occupied.has(t)) el("circle", { cx: x, cy: y, r: 29, class: "target capture", "data-target": t }, marks);
        else el("circle", { cx: x, cy: y, r: 9, class: "target", "data-target": t }, marks);
      }
    }
  }
}
