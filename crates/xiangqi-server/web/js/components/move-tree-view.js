// Moves as buttons, on the analysis board and in a study: the main line in
// order, each move's alternatives in brackets after it, a record's comments
// after their moves (or, where the page shows comments beside the tree, a mark
// on the moves that have one), the position shown marked.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { moveText } from "../notation.js";

/** @typedef {import("./move-tree.js").MoveTree} MoveTree */
/** @typedef {import("./move-tree.js").Node} Node */

/**
 * The label of a move: its number before Red's moves and before a line that
 * starts with Black's, then the move in the chosen notation.
 * @param {MoveTree} tree
 * @param {Node} n
 * @param {boolean} numbered
 */
function moveLabel(tree, n, numbered) {
  const { number, red } = tree.moveNumber(n);
  const names = n.at.played ?? { iccs: "", wxf: "", chinese: "" };
  const text = moveText(names, red ? 0 : 1);
  return red ? `${number}. ${text}` : numbered ? `${number}… ${text}` : text;
}

/**
 * How the tree is drawn: `commentsAside` for a page that shows the comment of
 * the move shown beside the tree (a study), which marks the moves with one
 * instead of writing them out and leaves the page's scrolling alone.
 * @typedef {object} TreeLook
 * @property {boolean} [commentsAside]
 */

/**
 * Draws the tree in `box`; a click on a move calls `goTo`.
 * @param {HTMLElement} box
 * @param {MoveTree} tree
 * @param {(node: Node) => void} goTo
 * @param {TreeLook} [look]
 */
export function drawTree(box, tree, goTo, look = {}) {
  const { root, current } = tree;
  const aside = look.commentsAside === true;

  /**
   * @param {Node} n
   * @param {boolean} numbered
   */
  const moveButton = (n, numbered) => h("button", {
    type: "button", class: `node${n === current ? " current" : ""}${aside && n.comment ? " commented" : ""}`, "data-node": n.id,
    "data-move": n.at.played?.iccs ?? "", "aria-current": n === current ? "true" : null,
    onclick: () => goTo(n),
  }, moveLabel(tree, n, numbered));

  /** @param {Node} n  its comment, if it has one */
  const commentOf = (n) => n.comment && !aside ? [h("span", { class: "comment" }, n.comment)] : [];

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
      out.push(moveButton(n, numbered), ...commentOf(n));
      numbered = commentOf(n).length > 0;
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

  const start = h("button", {
    type: "button", class: `node start${current === root ? " current" : ""}`, id: "tree-start",
    "aria-current": current === root ? "true" : null, onclick: () => goTo(root),
  }, t("analysis.startPosition"));
  const hadFocus = box.contains(document.activeElement);
  /** @type {HTMLElement[]} */
  const moves = [];
  const main = root.children[0];
  if (main) moves.push(...lineOf(main));
  box.replaceChildren(start, ...commentOf(root), ...moves);
  if (!moves.length) box.append(h("span", { class: "muted small" }, t("analysis.noMoves")));
  // The move shown is in view, and keeps the focus when a move in the tree had it.
  const here = box.querySelector(".node.current");
  if (here instanceof HTMLElement && hadFocus) here.focus();
  else if (here instanceof HTMLElement && !aside) here.scrollIntoView?.({ block: "nearest" });
}
