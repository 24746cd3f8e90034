// A study's state and its talk with the server: the study as last seen, the
// chapter and node shown, which way up, the drawing mode and its brush. Every
// edit goes out on the version shown and the answer (or anyone's edit, arriving
// live) replaces the study; the view is told after each change.

import * as api from "../../api.js";
import * as endpoints from "./endpoints.js";

/** @typedef {import("../../api-types.js").StudyView} StudyView */
/** @typedef {import("../../api-types.js").LinePosition} LinePosition */
/** @typedef {import("./endpoints.js").Edit} Edit */
/** @typedef {"green" | "red" | "blue" | "yellow"} Brush */

export const BRUSHES = /** @type {const} */ (["green", "red", "blue", "yellow"]);

/**
 * @typedef {object} StudyState
 * @property {StudyView} study
 * @property {string} chapterId
 * @property {number} nodeId
 * @property {boolean} flipped
 * @property {boolean} drawing  the drawing mode: points chosen by click or key
 * @property {string | null} drawFrom  the point chosen first in the drawing mode
 * @property {Brush} brush
 */

/**
 * @param {StudyView} first
 * @param {string | null} me  the user looking, if logged in
 */
export function studyController(first, me) {
  const id = first.id;
  /** @type {StudyState} */
  const state = { study: first, chapterId: first.chapters[0]?.id ?? "", nodeId: 0, flipped: false, drawing: false, drawFrom: null, brush: "green" };
  /** Positions read from the server, by board and FEN: their legal moves. @type {Map<string, LinePosition>} */
  const positions = new Map();
  let changed = () => {};

  function chapter() {
    return state.study.chapters.find((c) => c.id === state.chapterId) ?? state.study.chapters[0];
  }
  const chapterId = () => chapter()?.id ?? "";
  /** @param {number} [at] */
  function node(at = state.nodeId) {
    return chapter()?.nodes.find((n) => n.id === at);
  }
  /** The moves (ICCS) from the chapter's start to a node. @param {number} to */
  function pathTo(to) {
    /** @type {string[]} */
    const moves = [];
    for (let n = node(to); n && n.move; n = n.parent === null || n.parent === undefined ? undefined : node(n.parent)) {
      moves.unshift(n.move.iccs);
    }
    return moves;
  }
  function lastOfLine() {
    let n = node();
    while (n && n.children[0] !== undefined) n = node(n.children[0]);
    return n?.id ?? state.nodeId;
  }
  function mayEdit() {
    if (!me) return false;
    return state.study.owner === me || state.study.members.some((m) => m.name === me && m.role === "edit");
  }
  /** Whether a node is on the chapter's main line. @param {number} at */
  function onMainLine(at) {
    for (let n = node(at); n && n.parent !== null && n.parent !== undefined; n = node(n.parent)) {
      if (node(n.parent)?.children[0] !== n.id) return false;
    }
    return true;
  }

  /**
   * A new state of the study (an answer, or an edit by anyone).
   * @param {StudyView} fresh
   */
  function show(fresh) {
    // Not drawn again when already shown (the watch's first answer): a press begun on the old copy would be lost.
    if (fresh.version <= state.study.version) return;
    state.study = fresh;
    if (!state.study.chapters.some((c) => c.id === state.chapterId)) {
      state.chapterId = state.study.chapters[0]?.id ?? "";
      state.nodeId = 0;
    }
    if (!node()) state.nodeId = 0;
    changed();
  }

  /** One edit on the version shown; the study as the answer has it. @param {Edit} request */
  async function edit(request) {
    const answer = await request(state.study.version);
    show(answer.study);
    return answer.study;
  }

  /** @param {number} to */
  function goTo(to) {
    if (!node(to)) return;
    state.nodeId = to;
    state.drawFrom = null;
    changed();
  }

  /** @param {string} chapter */
  function openChapter(chapter) {
    state.chapterId = chapter;
    state.nodeId = 0;
    changed();
  }

  /** @param {string} move */
  async function playMove(move) {
    const before = node();
    const after = await edit(endpoints.playMove(id, chapterId(), state.nodeId, move));
    const c = after.chapters.find((x) => x.id === state.chapterId);
    const child = c?.nodes.find((n) => n.parent === before?.id && n.move?.iccs === move);
    if (child) goTo(child.id);
  }

  /**
   * Adds the arrow (or mark, from a point to itself) or takes it away; says
   * which through `announce` before the server has it.
   * @param {string} from
   * @param {string} to
   * @param {(done: { key: "study.marked" | "study.unmarked" | "study.arrowAdded" | "study.arrowRemoved", from: string, to: string }) => void} announce
   */
  async function toggleShape(from, to, announce) {
    const n = node();
    if (!n || !mayEdit()) return;
    let arrows = n.arrows.map((a) => ({ ...a }));
    let marks = n.marks.map((m) => ({ ...m }));
    const brush = state.brush;
    if (from === to) {
      const had = marks.some((m) => m.at === to);
      marks = had ? marks.filter((m) => m.at !== to) : [...marks, { at: to, brush }];
      announce({ key: had ? "study.unmarked" : "study.marked", from, to });
    } else {
      const had = arrows.some((a) => a.from === from && a.to === to);
      arrows = had ? arrows.filter((a) => !(a.from === from && a.to === to)) : [...arrows, { from, to, brush }];
      announce({ key: had ? "study.arrowRemoved" : "study.arrowAdded", from, to });
    }
    await edit(endpoints.annotate(id, chapterId(), n.id, { arrows, marks }));
  }

  /** Moves a chapter to a place in the list. @param {string} chapter @param {number} place */
  const placeChapter = (chapter, place) => edit(endpoints.placeChapter(id, chapter, place));

  /** The position's legal moves, from the server (once per position). @param {string} fen */
  async function position(fen) {
    const c = chapter();
    if (!c) return null;
    const key = `${c.variant} ${c.rules} ${fen}`;
    const known = positions.get(key);
    if (known) return known;
    const answer = await api.line({ variant: c.variant, rules: c.rules, fen, moves: [] });
    const at = answer.positions[0];
    if (at) positions.set(key, at);
    return at ?? null;
  }

  return {
    id, me, state, chapter, node, pathTo, lastOfLine, mayEdit, onMainLine, show, edit, goTo, openChapter, playMove,
    toggleShape, placeChapter, position,
    /** The id of the chapter shown. */
    chapterId,
    /** Calls `f` after each change of the state. @param {() => void} f */
    onChange(f) { changed = f; },
  };
}

/** @typedef {ReturnType<typeof studyController>} StudyController */
