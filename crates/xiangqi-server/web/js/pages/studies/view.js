// A study drawn: the chapter's board (arrows by dragging with the right mouse
// button, or in the drawing mode: choose the first point, then the second, the
// same point twice marking it), the engine, the tree of moves (the analysis
// board's), the comment, the chapters, the members and the PGN export. Drawn
// anew from the controller's state after each change.

import { Board } from "../../components/board.js";
import { hex } from "../../components/board-hex.js";
import { standard } from "../../components/board-standard.js";
import { downloadLink } from "../../components/download.js";
import { enginePanel } from "../../components/engine-panel.js";
import { button } from "../../components/layout.js";
import { onSubmit } from "../../components/form.js";
import { MoveTree } from "../../components/move-tree.js";
import { drawTree } from "../../components/move-tree-view.js";
import { openingLabel } from "../../components/openings.js";
import { h } from "../../dom.js";
import { colorName, outcomeText } from "../../format.js";
import { t } from "../../i18n.js";
import { attempt, say } from "../../notify.js";
import { drawChapters } from "./chapters.js";
import { BRUSHES } from "./controller.js";
import { annotate, exportPath, promote } from "./endpoints.js";
import { drawMembers } from "./members.js";

/** @typedef {import("./controller.js").StudyController} StudyController */
/** @typedef {import("../../api-types.js").LinePosition} LinePosition */

/**
 * Draws the study in `view`; `render` draws it again from the state.
 * @param {HTMLElement} view
 * @param {StudyController} ctl
 */
export function studyView(view, ctl) {
  const { state } = ctl;
  /** The chapter and node whose comment the comment box holds. */
  let commentFor = "";
  /** The position shown, as the server read it (its outcome, if over). @type {LinePosition | null} */
  let shownAt = null;
  /** The chapter, node and position the engine was last asked about. */
  let engineOn = "";
  const nodeId = () => state.nodeId;
  const annotateShown = (/** @type {Omit<import("../../api-types.js").NodeAnnotation, "version">} */ change) =>
    ctl.edit(annotate(ctl.id, ctl.chapterId(), nodeId(), change));

  const title = h("h1", {});
  const meta = h("p", { class: "muted study-meta" });
  const boardBox = h("div", { class: "board-box" });
  const status = h("p", { class: "status", id: "study-status", role: "status" });
  const tree = h("div", { class: "tree", id: "study-tree", "aria-label": t("analysis.moves") });
  const nav = h("div", { class: "buttons tree-nav" },
    button("«", () => ctl.goTo(0), { id: "nav-first", "aria-label": t("analysis.first") }),
    button("‹", () => ctl.goTo(ctl.node()?.parent ?? 0), { id: "nav-back", "aria-label": t("analysis.back") }),
    button("›", () => ctl.goTo(ctl.node()?.children[0] ?? nodeId()), { id: "nav-forward", "aria-label": t("analysis.forward") }),
    button("»", () => ctl.goTo(ctl.lastOfLine()), { id: "nav-last", "aria-label": t("analysis.last") }),
    button(t("game.flip"), () => { state.flipped = !state.flipped; render(); }, { id: "flip" }));
  const mainLine = button(t("study.mainLine"), () => attempt(() => ctl.edit(promote(ctl.id, ctl.chapterId(), nodeId()))),
    { id: "main-line" });
  mainLine.hidden = true;
  const comment = h("textarea", { id: "study-comment", rows: "3", maxlength: "2000", "aria-label": t("study.comment") });
  const commentShown = h("p", { class: "study-comment-text", id: "study-comment-text" });
  const commentForm = onSubmit(h("form", { class: "study-comment-form", id: "comment-form" },
    h("label", { for: "study-comment" }, t("study.comment")), comment,
    h("button", { type: "submit" }, t("study.saveComment"))), async () => {
    await annotateShown({ comment: comment.value });
    say(t("study.commentSaved"));
  });
  const drawButton = button(t("study.draw"), () => {
    state.drawing = !state.drawing;
    state.drawFrom = null;
    render();
    if (state.drawing) board.focus();
  }, { id: "draw-mode", "aria-pressed": "false" });
  const brushChoice = h("select", { id: "brush", "aria-label": t("study.brush") },
    BRUSHES.map((b) => h("option", { value: b }, t(`study.brush.${b}`))));
  brushChoice.addEventListener("change", () => {
    const chosen = BRUSHES.find((b) => b === brushChoice.value);
    if (chosen) state.brush = chosen;
  });
  const shapes = h("div", { class: "buttons study-shapes" }, drawButton, brushChoice,
    button(t("study.clearShapes"), () => attempt(() => annotateShown({ arrows: [], marks: [] })),
      { id: "clear-shapes" }));
  const drawHelp = h("p", { class: "muted small", id: "draw-help" }, t("study.drawHelp"));
  const chapters = h("div", { class: "study-chapters", id: "chapters" });
  const members = h("div", { class: "study-members", id: "members" });
  const exportLink = downloadLink({ id: "export", label: t("study.export"), path: exportPath(ctl.id) });
  // The engine follows the node shown; its line is drawn over the study's own arrows.
  const engine = enginePanel({
    position: () => {
      const c = ctl.chapter();
      const blackFirst = c?.start_fen.trim().split(/\s+/)[1] === "b";
      return {
        variant: c?.variant ?? "standard", rules: c?.rules ?? "", fen: c?.start_fen ?? "", moves: ctl.pathTo(nodeId()),
        over: shownAt?.outcome ?? null, half: (blackFirst ? 1 : 0) + (ctl.node()?.ply ?? 0),
      };
    },
    arrows: (lines) => board.setArrows([...lines, ...studyArrows()]),
  });
  const side = h("aside", { class: "analysis-side study-side" },
    engine.element, status, nav, tree, mainLine, commentShown, commentForm, shapes, drawHelp, chapters, members, h("p", {}, exportLink));
  view.replaceChildren(title, meta, h("div", { class: "analysis study" }, h("div", { class: "analysis-board" }, engine.bar, boardBox), side));

  /** The board, made anew when the chapter shown is on the other board. */
  let boardVariant = ctl.chapter()?.variant;
  /** @type {Board} */
  let board = makeBoard();

  /** The arrows drawn in the study at the node shown. */
  function studyArrows() {
    return (ctl.node()?.arrows ?? []).map((a) => ({ move: a.from + a.to, kind: a.brush }));
  }

  /** @param {{ key: "study.marked" | "study.unmarked" | "study.arrowAdded" | "study.arrowRemoved", from: string, to: string }} done */
  function announce({ key, from, to }) {
    board.announce(key === "study.marked" || key === "study.unmarked" ? t(key, { cell: to }) : t(key, { from, to }));
  }

  function makeBoard() {
    const geometry = ctl.chapter()?.variant === "hex" ? hex : standard;
    boardBox.replaceChildren();
    const made = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"),
      (move) => attempt(() => ctl.playMove(move)));
    // Arrows by dragging with the right mouse button; a click with it marks a point.
    /** @type {string | null} */
    let from = null;
    made.svg.addEventListener("contextmenu", (e) => e.preventDefault());
    made.svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 2) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      from = made.cellAt(e.clientX, e.clientY);
    }, { capture: true });
    made.svg.addEventListener("pointerup", (e) => {
      if (e.button !== 2 || !from) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      const to = made.cellAt(e.clientX, e.clientY);
      const start = from;
      from = null;
      if (to) attempt(() => ctl.toggleShape(start, to, announce));
    }, { capture: true });
    return made;
  }

  /** The drawing mode's point: the first chosen, or the arrow (or mark) it ends. @param {string} cell */
  function drawCell(cell) {
    if (!state.drawFrom) {
      state.drawFrom = cell;
      board.announce(t("study.drawFrom", { cell }));
      return;
    }
    const from = state.drawFrom;
    state.drawFrom = null;
    attempt(() => ctl.toggleShape(from, cell, announce));
  }

  async function render() {
    const c = ctl.chapter();
    const n = ctl.node();
    if (!c || !n) return;
    if (c.variant !== boardVariant) {
      boardVariant = c.variant;
      board = makeBoard();
    }
    title.textContent = state.study.title;
    meta.replaceChildren(t("study.by", { name: state.study.owner }), " · ",
      t(state.study.visibility === "public" ? "study.public" : "study.private"), " · ",
      h("span", { id: "study-version" }, t("study.version", { version: state.study.version })), " · ", c.title,
      ...(c.opening ? [" · ", openingLabel(c.opening)] : []));
    const editable = ctl.mayEdit();
    const arrows = studyArrows();
    const marks = n.marks.map((m) => ({ cell: m.at, kind: m.brush }));
    const fields = n.fen.split(/\s+/);
    const turn = fields[1] === "b" ? "black" : "red";
    const { flipped, drawing } = state;
    board.onCell = drawing && editable ? drawCell : null;
    board.show({ fen: n.fen, flipped, last: n.move?.iccs ?? null, arrows, circles: marks, legal: [], mine: null });
    const asked = `${c.id}/${n.id}/${n.fen}`;
    if (asked !== engineOn) {
      engineOn = asked;
      shownAt = null;
      engine.follow();
    } else {
      engine.draw();
    }
    drawButton.setAttribute("aria-pressed", String(drawing));
    drawButton.hidden = !editable;
    mainLine.hidden = !editable || ctl.onMainLine(n.id);
    brushChoice.hidden = !editable;
    shapes.hidden = !editable;
    drawHelp.hidden = !editable;
    commentForm.hidden = !editable;
    // A comment being written is not overwritten by someone else's edit elsewhere.
    if (commentFor !== `${c.id}/${n.id}` || document.activeElement !== comment) comment.value = n.comment;
    commentFor = `${c.id}/${n.id}`;
    commentShown.textContent = n.comment;
    commentShown.hidden = editable || !n.comment;
    const moves = MoveTree.ofChapter(c.nodes, n.id);
    if (moves) drawTree(tree, moves, (at) => ctl.goTo(at.id), { commentsAside: true });
    drawChapters(chapters, ctl);
    drawMembers(members, ctl);
    status.textContent = "";
    const shown = state.nodeId;
    const at = await ctl.position(n.fen).catch(() => null);
    if (shown !== state.nodeId || ctl.chapter() !== c || !at) return;
    shownAt = at;
    status.textContent = at.outcome ? outcomeText(at.outcome)
      : t(at.check ? "analysis.toMoveCheck" : "analysis.toMove", { color: colorName(turn, true) });
    if (editable && !drawing) {
      board.show({ fen: n.fen, flipped, last: n.move?.iccs ?? null, arrows, circles: marks, legal: at.legal, mine: at.outcome ? null : at.turn });
    }
    engine.draw();
  }

  return { render, stopEngine: () => engine.stop() };
}
