// Moves as a tree, for the analysis board and a study's chapter: a position,
// the moves played from it (the first being the main line, the others
// variations), and the position shown. Positions come from the server, which
// applies the rules; this only keeps them in order and numbers the moves.

/** @typedef {import("../models.js").LinePosition} LinePosition */

/**
 * A position in the tree: the move that led there (none at the root) and the
 * moves played from it, the first being the main line.
 * @typedef {object} Node
 * @property {number} id
 * @property {LinePosition} at
 * @property {Node | null} parent
 * @property {Node[]} children
 * @property {number} depth  moves from the root
 * @property {string} [comment]  a record's words after the move (at the root, before the first)
 */

/** @typedef {import("../api-types.js").RecordNodeView} RecordNode */
/** @typedef {import("../api-types.js").StudyNode} StudyNode */

export class MoveTree {
  /**
   * A tree of one line: every position of it, standing on the one after `ply`
   * moves (the last when there are fewer).
   * @param {LinePosition} first
   * @param {LinePosition[]} rest
   * @param {number} ply
   */
  constructor(first, rest, ply) {
    this.nextId = 0;
    /** @type {Node} */
    this.root = { id: this.nextId++, at: first, parent: null, children: [], depth: 0 };
    let node = this.root;
    const along = [node];
    for (const at of rest) {
      node = this.add(node, at);
      along.push(node);
    }
    /** The position shown. */
    this.current = along[ply] ?? node;
    const fields = first.fen.trim().split(/\s+/);
    /** The full-move number of the root position. */
    this.fullmove = Math.max(1, Number(fields[5]) || 1);
  }

  /**
   * A tree of a line from the server, or null for an empty one.
   * @param {LinePosition[]} positions
   * @param {number} ply
   */
  static of(positions, ply) {
    const [first, ...rest] = positions;
    return first ? new MoveTree(first, rest, ply) : null;
  }

  /**
   * A tree of a record's positions, each after its parent (the main line
   * before its variations), standing at the end of the main line; null for
   * an empty record.
   * @param {RecordNode[]} nodes
   */
  static ofRecord(nodes) {
    const [first, ...rest] = nodes;
    if (!first) return null;
    const tree = new MoveTree(first.position, [], 0);
    tree.root.comment = first.comment;
    /** The node each record position became, by its place. @type {Node[]} */
    const placed = [tree.root];
    for (const n of rest) {
      const parent = placed[n.parent ?? 0] ?? tree.root;
      const node = tree.add(parent, n.position);
      node.comment = n.comment;
      placed.push(node);
    }
    tree.current = tree.mainEnd(tree.root);
    return tree;
  }

  /**
   * A tree of a study chapter's nodes, keeping the server's ids, standing on
   * the node `current` (the start when it is not there); null without a start.
   * The tree is drawn and walked, never played on, so its positions carry no
   * legal moves.
   * @param {StudyNode[]} nodes
   * @param {number} current
   */
  static ofChapter(nodes, current) {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const start = byId.get(0);
    if (!start) return null;
    /** @param {StudyNode} n @returns {LinePosition} */
    const at = (n) => ({ fen: n.fen, turn: n.fen.trim().split(/\s+/)[1] === "b" ? "black" : "red", check: false, legal: [], played: n.move ?? null });
    const tree = new MoveTree(at(start), [], 0);
    tree.root.id = start.id;
    tree.root.comment = start.comment;
    /** @type {[Node, StudyNode][]} */
    const pending = [[tree.root, start]];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [node, n] = next;
      for (const id of n.children) {
        const c = byId.get(id);
        if (!c) continue;
        const child = tree.add(node, at(c));
        child.id = c.id;
        child.comment = c.comment;
        if (c.id === current) tree.current = child;
        pending.push([child, c]);
      }
    }
    return tree;
  }

  /**
   * Adds a move played from `from`: a new variation unless it is the first.
   * @param {Node} from
   * @param {LinePosition} at  the position after it
   */
  add(from, at) {
    /** @type {Node} */
    const child = { id: this.nextId++, at, parent: from, children: [], depth: from.depth + 1 };
    from.children.push(child);
    return child;
  }

  /**
   * The move already played from `from` as `move` (ICCS), if any.
   * @param {Node} from
   * @param {string} move
   */
  find(from, move) {
    return from.children.find((c) => c.at.played?.iccs === move);
  }

  /** @param {Node} node  the end of the main line from a node */
  mainEnd(node) {
    let n = node;
    while (n.children[0]) n = n.children[0];
    return n;
  }

  /** @param {Node} node  the moves from the root to a node, in ICCS */
  path(node) {
    const moves = [];
    for (let n = node; n.parent; n = n.parent) moves.push(n.at.played?.iccs ?? "");
    return moves.reverse();
  }

  /**
   * Half-moves from the start of the game to a node, counting Black's first
   * move as the second when the root has Black to move.
   * @param {Node} node
   */
  half(node) {
    return (this.root.at.turn === "black" ? 1 : 0) + node.depth;
  }

  /**
   * The number of the move that led to a node, and whether Red played it.
   * @param {Node} node  not the root
   */
  moveNumber(node) {
    const half = this.half(node) - 1;
    return { number: this.fullmove + Math.floor(half / 2), red: half % 2 === 0 };
  }
}
