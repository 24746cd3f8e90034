// Studies: shared analysis in chapters. `#/studies` lists public studies and
// mine (and starts one); `#/study/{id}` shows a study: the chapter's board and
// its tree of moves with variations, a comment, arrows and marked points on
// each position, the chapters, the members (the owner invites and removes
// them) and the PGN export. Every edit names the version of the study it was
// made on; the server refuses a stale one, and everyone looking at the study
// gets each edit live over the WebSocket, so the page always shows the study
// as it is. Arrows are drawn by dragging with the right mouse button, or in
// the drawing mode (a button, for the keyboard and for phones): choose the
// first point, then the second (the same point twice marks it).

import * as api from "../api.js";
import { Board } from "../components/board.js";
import { hex } from "../components/board-hex.js";
import { standard } from "../components/board-standard.js";
import { downloadLink } from "../components/download.js";
import { button, card, listOr, moreButton, page, userLink } from "../components/layout.js";
import { form, onSubmit } from "../components/form.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { openingLabel } from "../components/openings.js";
import { colorName, outcomeText } from "../format.js";
import { t } from "../i18n.js";
import { watchStudy } from "../live.js";
import { moveText } from "../notation.js";
import { attempt, say } from "../notify.js";
import { onPrefsChange } from "../prefs.js";
import { go } from "../router.js";
import { currentUser } from "../state.js";
import { enginePanel } from "../components/engine-panel.js";

/** @typedef {import("../api-types.js").StudyView} StudyView */
/** @typedef {import("../api-types.js").StudySummary} StudySummary */
/** @typedef {import("../api-types.js").StudiesPage} StudiesPage */
/** @typedef {import("../api-types.js").ChapterView} ChapterView */
/** @typedef {import("../api-types.js").StudyNode} StudyNode */
/** @typedef {import("../api-types.js").StudyAnswer} StudyAnswer */
/** @typedef {import("../api-types.js").LineAnswer} LineAnswer */
/** @typedef {import("../api-types.js").LinePosition} LinePosition */
/** @typedef {"green" | "red" | "blue" | "yellow"} Brush */

const BRUSHES = /** @type {const} */ (["green", "red", "blue", "yellow"]);

/** @param {string} id */
const studyPath = (id) => `/studies/${encodeURIComponent(id)}`;

/**
 * One line of a list of studies.
 * @param {StudySummary} s
 */
function studyRow(s) {
  return h("li", { class: "study-row" },
    h("a", { href: `#/study/${encodeURIComponent(s.id)}` }, s.title), " ",
    h("span", { class: "muted small" }, t("study.by", { name: s.owner }), " · ",
      t(s.visibility === "public" ? "study.public" : "study.private")));
}

/**
 * A list of studies read a page at a time.
 * @param {string} shelf
 * @param {string} empty
 */
async function shelfList(shelf, empty) {
  const box = h("div", { class: `studies-${shelf}` });
  /** @type {StudySummary[]} */
  const items = [];
  /** @param {string | null} after */
  async function load(after) {
    const query = new URLSearchParams({ shelf });
    if (after) query.set("after", after);
    /** @type {StudiesPage} */
    const got = await api.call("GET", `/studies?${query}`);
    items.push(...got.studies);
    box.replaceChildren(listOr("studies", items, studyRow, empty),
      moreButton(got.next, load, `more-${shelf}`) ?? "");
  }
  await load(null);
  return box;
}

/**
 * The list of studies, and a form to start one.
 * @param {HTMLElement} view
 */
export async function studiesPage(view) {
  const me = currentUser();
  const start = form([
    { name: "title", label: t("study.titleField"), attrs: { required: "", maxlength: "80" } },
  ], t("study.create"), async ({ title }) => {
    const visibility = start.querySelector("select")?.value === "public" ? "public" : "private";
    /** @type {StudyAnswer} */
    const made = await api.call("POST", "/studies", { title, visibility });
    go(`#/study/${encodeURIComponent(made.study.id)}`);
  });
  start.id = "new-study";
  start.prepend(h("h2", {}, t("study.new")));
  start.querySelector("button")?.before(h("label", {}, t("study.visibility"),
    h("select", { name: "visibility" },
      h("option", { value: "private" }, t("study.private")), h("option", { value: "public" }, t("study.public")))));
  const mine = me ? await shelfList("mine", t("study.noMine")) : null;
  const open = await shelfList("public", t("study.noPublic"));
  page(view, t("study.listTitle"),
    h("p", { class: "lead" }, t("study.lead")),
    me ? start : h("p", { class: "muted" }, t("study.visitor")),
    me ? importForm() : null,
    mine ? card(t("study.mine"), mine) : null,
    card(t("study.publicList"), open));
}

/**
 * A new study from a record file: a chapter per game, each with its
 * variations and comments (PGN of any dialect, XQF, DhtmlXQ, CCBridge).
 */
function importForm() {
  const file = h("input", { type: "file", name: "file", id: "study-import-file", required: "",
    accept: ".pgn,.txt,.xqf,.cbf,.cbr,.cbl,text/plain,application/octet-stream" });
  const title = h("input", { name: "title", id: "study-import-title", required: "", maxlength: "80" });
  const status = h("p", { "aria-live": "polite" });
  const submit = h("button", { type: "submit" }, t("study.importSubmit"));
  const element = h("form", { class: "card form", id: "study-import" },
    h("h2", {}, t("study.import")), h("p", { class: "muted" }, t("study.importLead")),
    h("label", {}, t("import.file"), file), h("label", {}, t("study.titleField"), title), submit, status);
  element.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = file instanceof HTMLInputElement ? file.files?.[0] : undefined;
    const name = title instanceof HTMLInputElement ? title.value.trim() : "";
    if (!chosen || !name) return;
    submit.setAttribute("disabled", "");
    try {
      /** @type {StudyAnswer} */
      const made = await sendFile(`/studies/import?title=${encodeURIComponent(name)}`, chosen);
      go(`#/study/${encodeURIComponent(made.study.id)}`);
    } catch (err) {
      status.replaceChildren(h("span", { class: "message error", role: "alert" }, errorText(err)));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return element;
}

/**
 * Posts a file's bytes to an API path, the answer as JSON or an ApiError.
 * @param {string} path
 * @param {Blob} body
 */
async function sendFile(path, body) {
  const res = await fetch(`/api/v1${path}`, {
    method: "POST", credentials: "same-origin", body,
    headers: { "X-Xiangqi": "1", "Content-Type": "application/octet-stream" },
  });
  /** @type {any} */
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new api.ApiError(data.message || res.statusText, res.status, data.error, data.reason, data.params);
  return data;
}

/**
 * The label of a move in the tree: its number before Red's moves and before
 * a line that starts with Black's.
 * @param {StudyNode} n
 * @param {{ number: number, red: boolean }} place
 * @param {boolean} numbered
 */
function moveLabel(n, place, numbered) {
  const names = n.move ?? { iccs: "", wxf: "", chinese: "" };
  const text = moveText({ ...names, at: 0 }, place.red ? 0 : 1);
  return place.red ? `${place.number}. ${text}` : numbered ? `${place.number}… ${text}` : text;
}

/**
 * A study.
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function studyPage(view, args) {
  const id = args[0] ?? "";
  /** @type {StudyAnswer} */
  const first = await api.call("GET", studyPath(id));
  let study = first.study;
  let chapterId = study.chapters[0]?.id ?? "";
  let nodeId = 0;
  let flipped = false;
  /** The chapter and node whose comment the comment box holds. */
  let commentFor = "";
  /** The point chosen first in the drawing mode, and the brush. */
  let drawing = false;
  /** @type {string | null} */
  let drawFrom = null;
  /** @type {Brush} */
  let brush = "green";
  /** Positions read from the server, by board and FEN: their legal moves. @type {Map<string, LinePosition>} */
  const positions = new Map();
  const me = currentUser()?.name ?? null;
  /** The position shown, as the server read it (its outcome, if over). @type {LinePosition | null} */
  let shownAt = null;
  /** The chapter, node and position the engine was last asked about. */
  let engineOn = "";

  const title = h("h1", {});
  const meta = h("p", { class: "muted study-meta" });
  const boardBox = h("div", { class: "board-box" });
  const status = h("p", { class: "status", id: "study-status", role: "status" });
  const tree = h("div", { class: "tree", id: "study-tree", "aria-label": t("analysis.moves") });
  const nav = h("div", { class: "buttons tree-nav" },
    button("«", () => goTo(0), { id: "nav-first", "aria-label": t("analysis.first") }),
    button("‹", () => goTo(node()?.parent ?? 0), { id: "nav-back", "aria-label": t("analysis.back") }),
    button("›", () => goTo(node()?.children[0] ?? nodeId), { id: "nav-forward", "aria-label": t("analysis.forward") }),
    button("»", () => goTo(lastOfLine()), { id: "nav-last", "aria-label": t("analysis.last") }),
    button(t("game.flip"), () => { flipped = !flipped; render(); }, { id: "flip" }));
  const mainLine = button(t("study.mainLine"), () => attempt(() => edit("POST", `${chapterPath()}/nodes/${nodeId}/main`, {})),
    { id: "main-line" });
  mainLine.hidden = true;
  const comment = h("textarea", { id: "study-comment", rows: "3", maxlength: "2000", "aria-label": t("study.comment") });
  const commentShown = h("p", { class: "study-comment-text", id: "study-comment-text" });
  const commentForm = onSubmit(h("form", { class: "study-comment-form", id: "comment-form" },
    h("label", { for: "study-comment" }, t("study.comment")), comment,
    h("button", { type: "submit" }, t("study.saveComment"))), async () => {
    await edit("POST", `${chapterPath()}/nodes/${nodeId}`, { comment: comment.value });
    say(t("study.commentSaved"));
  });
  const drawButton = button(t("study.draw"), () => {
    drawing = !drawing;
    drawFrom = null;
    render();
    if (drawing) board.focus();
  }, { id: "draw-mode", "aria-pressed": "false" });
  const brushChoice = h("select", { id: "brush", "aria-label": t("study.brush") },
    BRUSHES.map((b) => h("option", { value: b }, t(`study.brush.${b}`))));
  brushChoice.addEventListener("change", () => {
    const chosen = BRUSHES.find((b) => b === brushChoice.value);
    if (chosen) brush = chosen;
  });
  const shapes = h("div", { class: "buttons study-shapes" }, drawButton, brushChoice,
    button(t("study.clearShapes"), () => attempt(() => edit("POST", `${chapterPath()}/nodes/${nodeId}`, { arrows: [], marks: [] })),
      { id: "clear-shapes" }));
  const drawHelp = h("p", { class: "muted small", id: "draw-help" }, t("study.drawHelp"));
  const chapters = h("div", { class: "study-chapters", id: "chapters" });
  const members = h("div", { class: "study-members", id: "members" });
  const exportLink = downloadLink({ id: "export", label: t("study.export"), path: `${studyPath(id)}/pgn` });
  // The engine follows the node shown; its line is drawn over the study's own arrows.
  const engine = enginePanel({
    position: () => {
      const c = chapter();
      const blackFirst = c?.start_fen.trim().split(/\s+/)[1] === "b";
      return {
        variant: c?.variant ?? "standard", rules: c?.rules ?? "", fen: c?.start_fen ?? "", moves: pathTo(nodeId),
        over: shownAt?.outcome ?? null, half: (blackFirst ? 1 : 0) + (node()?.ply ?? 0),
      };
    },
    arrows: (lines) => board.setArrows([...lines, ...studyArrows()]),
  });
  const side = h("aside", { class: "analysis-side study-side" },
    engine.element, status, nav, tree, mainLine, commentShown, commentForm, shapes, drawHelp, chapters, members, h("p", {}, exportLink));
  view.replaceChildren(title, meta, h("div", { class: "analysis study" }, h("div", { class: "analysis-board" }, engine.bar, boardBox), side));

  /** @type {Board} */
  let board = makeBoard();

  function chapter() {
    return study.chapters.find((c) => c.id === chapterId) ?? study.chapters[0];
  }
  function chapterPath() {
    return `${studyPath(id)}/chapters/${encodeURIComponent(chapter()?.id ?? "")}`;
  }
  /** @param {number} [at] */
  function node(at = nodeId) {
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
  /** The arrows drawn in the study at the node shown. */
  function studyArrows() {
    return (node()?.arrows ?? []).map((a) => ({ move: a.from + a.to, kind: a.brush }));
  }
  function lastOfLine() {
    let n = node();
    while (n && n.children[0] !== undefined) n = node(n.children[0]);
    return n?.id ?? nodeId;
  }
  function mayEdit() {
    if (!me) return false;
    return study.owner === me || study.members.some((m) => m.name === me && m.role === "edit");
  }

  function makeBoard() {
    const geometry = chapter()?.variant === "hex" ? hex : standard;
    boardBox.replaceChildren();
    const made = new Board(boardBox, geometry, t(geometry === hex ? "board.labelHex" : "board.label"),
      (move) => attempt(() => playMove(move)));
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
      if (to) attempt(() => toggleShape(start, to));
    }, { capture: true });
    return made;
  }

  /**
   * Adds the arrow (or mark, from a point to itself) or takes it away.
   * @param {string} from
   * @param {string} to
   */
  async function toggleShape(from, to) {
    const n = node();
    if (!n || !mayEdit()) return;
    let arrows = n.arrows.map((a) => ({ ...a }));
    let marks = n.marks.map((m) => ({ ...m }));
    if (from === to) {
      const had = marks.some((m) => m.at === to);
      marks = had ? marks.filter((m) => m.at !== to) : [...marks, { at: to, brush }];
      board.announce(t(had ? "study.unmarked" : "study.marked", { cell: to }));
    } else {
      const had = arrows.some((a) => a.from === from && a.to === to);
      arrows = had ? arrows.filter((a) => !(a.from === from && a.to === to)) : [...arrows, { from, to, brush }];
      board.announce(t(had ? "study.arrowRemoved" : "study.arrowAdded", { from, to }));
    }
    await edit("POST", `${chapterPath()}/nodes/${n.id}`, { arrows, marks });
  }

  /**
   * One edit on the version shown; the study as the answer has it.
   * @param {"POST" | "DELETE"} method
   * @param {string} path
   * @param {Record<string, unknown>} [body]
   */
  async function edit(method, path, body) {
    const version = study.version;
    /** @type {StudyAnswer} */
    const answer = method === "DELETE"
      ? await api.call(method, `${path}${path.includes("?") ? "&" : "?"}version=${version}`)
      : await api.call(method, path, { version, ...body });
    show(answer.study);
    return answer.study;
  }

  /** @param {string} move */
  async function playMove(move) {
    const before = node();
    const after = await edit("POST", `${chapterPath()}/moves`, { node: nodeId, move });
    const c = after.chapters.find((x) => x.id === chapterId);
    const child = c?.nodes.find((n) => n.parent === before?.id && n.move?.iccs === move);
    if (child) goTo(child.id);
  }

  /**
   * A new state of the study (an answer, or an edit by anyone).
   * @param {StudyView} fresh
   */
  function show(fresh) {
    // Not drawn again when already shown (the watch's first answer): a press begun on the old copy would be lost.
    if (fresh.version <= study.version) return;
    const oldVariant = chapter()?.variant;
    study = fresh;
    if (!study.chapters.some((c) => c.id === chapterId)) {
      chapterId = study.chapters[0]?.id ?? "";
      nodeId = 0;
    }
    if (!node()) nodeId = 0;
    if (chapter()?.variant !== oldVariant) board = makeBoard();
    render();
  }

  /** @param {number} to */
  function goTo(to) {
    if (!node(to)) return;
    nodeId = to;
    drawFrom = null;
    render();
  }

  /** The position's legal moves, from the server (once per position). @param {string} fen */
  async function position(fen) {
    const c = chapter();
    if (!c) return null;
    const key = `${c.variant} ${c.rules} ${fen}`;
    const known = positions.get(key);
    if (known) return known;
    /** @type {LineAnswer} */
    const answer = await api.call("POST", "/positions", { variant: c.variant, rules: c.rules, fen, moves: [] });
    const at = answer.positions[0];
    if (at) positions.set(key, at);
    return at ?? null;
  }

  /** Where each node's move stands: its number and whether Red made it. */
  function places() {
    const c = chapter();
    /** @type {Map<number, { number: number, red: boolean }>} */
    const out = new Map();
    if (!c) return out;
    const fields = c.start_fen.trim().split(/\s+/);
    const blackFirst = fields[1] === "b";
    const firstNumber = Number(fields[5] ?? "1") || 1;
    for (const n of c.nodes) {
      if (!n.ply) continue;
      const half = n.ply - 1 + (blackFirst ? 1 : 0);
      out.set(n.id, { number: firstNumber + Math.floor(half / 2), red: half % 2 === 0 });
    }
    return out;
  }

  function drawTree() {
    const c = chapter();
    if (!c) return;
    const byId = new Map(c.nodes.map((n) => [n.id, n]));
    const place = places();
    /** @param {StudyNode} n @param {boolean} numbered */
    const moveButton = (n, numbered) => h("button", {
      type: "button", class: `node${n.id === nodeId ? " current" : ""}${n.comment ? " commented" : ""}`, "data-node": n.id,
      "data-move": n.move?.iccs ?? "", "aria-current": n.id === nodeId ? "true" : null, onclick: () => goTo(n.id),
    }, moveLabel(n, place.get(n.id) ?? { number: 1, red: true }, numbered));
    /**
     * A line from its first move: main moves in order, each move's alternatives in brackets after it.
     * @param {StudyNode} start
     * @returns {HTMLElement[]}
     */
    const lineOf = (start) => {
      /** @type {HTMLElement[]} */
      const out = [];
      let numbered = true;
      for (let n = /** @type {StudyNode | undefined} */ (start); n; n = byId.get(n.children[0] ?? -1)) {
        out.push(moveButton(n, numbered));
        numbered = false;
        const parent = byId.get(n.parent ?? -1);
        if (parent && parent.children[0] === n.id && parent.children.length > 1) {
          for (const alt of parent.children.slice(1)) {
            const a = byId.get(alt);
            if (a) out.push(h("span", { class: "variation" }, lineOf(a)));
          }
          numbered = true;
        }
      }
      return out;
    };
    const root = byId.get(0);
    const startButton = h("button", {
      type: "button", class: `node start${nodeId === 0 ? " current" : ""}`, id: "tree-start",
      "aria-current": nodeId === 0 ? "true" : null, onclick: () => goTo(0),
    }, t("analysis.startPosition"));
    const hadFocus = tree.contains(document.activeElement);
    const main = byId.get(root?.children[0] ?? -1);
    const moves = main ? lineOf(main) : [];
    tree.replaceChildren(startButton, ...moves);
    if (!moves.length) tree.append(h("span", { class: "muted small" }, t("analysis.noMoves")));
    const here = tree.querySelector(".node.current");
    if (here instanceof HTMLElement && hadFocus) here.focus();
  }

  /** Moves a chapter to a place in the list. @param {string} chapter @param {number} place */
  async function placeChapter(chapter, place) {
    await edit("POST", `${studyPath(id)}/chapters/${encodeURIComponent(chapter)}/place`, { place });
    const moved = chapters.querySelector(`button.chapter[data-chapter="${CSS.escape(chapter)}"]`);
    if (moved instanceof HTMLElement) moved.focus();
  }

  /** Whether a node is on the chapter's main line. @param {number} at */
  function onMainLine(at) {
    for (let n = node(at); n && n.parent !== null && n.parent !== undefined; n = node(n.parent)) {
      if (node(n.parent)?.children[0] !== n.id) return false;
    }
    return true;
  }

  function drawChapters() {
    const editable = mayEdit();
    const list = h("ol", { class: "chapter-list" }, study.chapters.map((c, i) => h("li", {},
      h("button", {
        type: "button", class: `chapter${c.id === chapterId ? " current" : ""}`, "data-chapter": c.id,
        "aria-current": c.id === chapterId ? "true" : null,
        onclick: () => {
          const variant = chapter()?.variant;
          chapterId = c.id;
          nodeId = 0;
          if (c.variant !== variant) board = makeBoard();
          render();
        },
      }, c.title),
      editable && c.id === chapterId
        ? button(t("study.renameChapter"), () => attempt(async () => {
          const title = prompt(t("study.chapterNewTitle"), c.title);
          if (!title?.trim()) return;
          await edit("POST", `${studyPath(id)}/chapters/${encodeURIComponent(c.id)}`, { title: title.trim() });
        }), { class: "small", "data-action": "rename-chapter" })
        : "",
      editable && c.id === chapterId && i > 0
        ? button("↑", () => attempt(() => placeChapter(c.id, i - 1)),
          { class: "small", "data-action": "chapter-up", "aria-label": t("study.chapterUp", { title: c.title }) })
        : "",
      editable && c.id === chapterId && i < study.chapters.length - 1
        ? button("↓", () => attempt(() => placeChapter(c.id, i + 1)),
          { class: "small", "data-action": "chapter-down", "aria-label": t("study.chapterDown", { title: c.title }) })
        : "",
      editable && study.chapters.length > 1 && c.id === chapterId
        ? button(t("study.deleteChapter"), () => attempt(async () => {
          if (!confirm(t("study.confirmDeleteChapter", { title: c.title }))) return;
          await edit("DELETE", `${studyPath(id)}/chapters/${encodeURIComponent(c.id)}`);
        }), { class: "small", "data-action": "delete-chapter" })
        : "")));
    /** @type {HTMLElement | string} */
    let adding = "";
    if (editable) {
      const kind = h("select", { name: "kind", id: "chapter-kind", "aria-label": t("study.chapterFrom") },
        h("option", { value: "start" }, t("study.fromStart")),
        h("option", { value: "hex" }, t("study.fromHex")),
        h("option", { value: "fen" }, t("study.fromFen")),
        h("option", { value: "pgn" }, t("study.fromPgn")));
      const text = h("textarea", { name: "text", id: "chapter-text", rows: "3", "aria-label": t("study.chapterText"), hidden: true });
      kind.addEventListener("change", () => { text.hidden = kind.value !== "fen" && kind.value !== "pgn"; });
      adding = onSubmit(h("form", { class: "study-add-chapter", id: "add-chapter" },
        h("label", {}, t("study.chapterTitle"), h("input", { name: "title", maxlength: "80" })), kind, text,
        h("button", { type: "submit" }, t("study.addChapter"))), async (v) => {
        /** @type {Record<string, unknown>} */
        const body = {};
        if (v["title"]?.trim()) body["title"] = v["title"].trim();
        if (v["kind"] === "hex") body["variant"] = "hex";
        if (v["kind"] === "fen") body["fen"] = v["text"] ?? "";
        if (v["kind"] === "pgn") body["pgn"] = v["text"] ?? "";
        const after = await edit("POST", `${studyPath(id)}/chapters`, body);
        const added = after.chapters[after.chapters.length - 1];
        if (added) {
          const variant = chapter()?.variant;
          chapterId = added.id;
          nodeId = 0;
          if (added.variant !== variant) board = makeBoard();
          render();
        }
      }, { reset: true });
    }
    chapters.replaceChildren(h("h2", {}, t("study.chapters")), list, adding);
  }

  function drawMembers() {
    const owner = me === study.owner;
    const rows = [h("li", {}, userLink(study.owner), " ", h("span", { class: "muted small" }, t("study.owner")))];
    for (const m of study.members) {
      rows.push(h("li", { "data-member": m.name }, userLink(m.name), " ",
        h("span", { class: "muted small" }, t(m.role === "edit" ? "study.roleEdit" : "study.roleView")), " ",
        owner || m.name === me
          ? button(t(m.name === me ? "study.leave" : "study.remove"), () => attempt(async () => {
            await edit("DELETE", `${studyPath(id)}/members/${encodeURIComponent(m.name)}`);
            if (m.name === me && study.visibility === "private") go("#/studies");
          }), { class: "small", "data-action": "remove-member" })
          : ""));
    }
    /** @type {(HTMLElement | string)[]} */
    const tools = [];
    if (owner) {
      const invite = onSubmit(h("form", { class: "study-invite", id: "invite" },
        h("label", {}, t("study.inviteName"), h("input", { name: "name", required: "", autocomplete: "off" })),
        h("select", { name: "role", "aria-label": t("study.role") },
          h("option", { value: "view" }, t("study.roleView")), h("option", { value: "edit" }, t("study.roleEdit"))),
        h("button", { type: "submit" }, t("study.invite"))), async (v) => {
        await edit("POST", `${studyPath(id)}/members`, { name: (v["name"] ?? "").trim(), role: v["role"] === "edit" ? "edit" : "view" });
      }, { reset: true });
      const visibility = button(t(study.visibility === "public" ? "study.makePrivate" : "study.makePublic"),
        () => attempt(() => edit("POST", `${studyPath(id)}/settings`, { visibility: study.visibility === "public" ? "private" : "public" })),
        { id: "visibility" });
      const rename = onSubmit(h("form", { class: "study-rename", id: "rename" },
        h("label", {}, t("study.titleField"), h("input", { name: "title", required: "", maxlength: "80", value: study.title })),
        h("button", { type: "submit" }, t("study.rename"))), async (v) => {
        await edit("POST", `${studyPath(id)}/settings`, { title: v["title"] ?? "" });
      });
      const remove = button(t("study.deleteStudy"), () => attempt(async () => {
        if (!confirm(t("study.confirmDeleteStudy", { title: study.title }))) return;
        await api.call("DELETE", `${studyPath(id)}?version=${study.version}`);
        go("#/studies");
      }), { id: "delete-study", class: "danger" });
      tools.push(invite, h("div", { class: "buttons" }, visibility, remove), rename);
    }
    members.replaceChildren(h("h2", {}, t("study.members")), h("ul", { class: "member-list" }, rows), ...tools);
  }

  async function render() {
    const c = chapter();
    const n = node();
    if (!c || !n) return;
    title.textContent = study.title;
    meta.replaceChildren(t("study.by", { name: study.owner }), " · ",
      t(study.visibility === "public" ? "study.public" : "study.private"), " · ",
      h("span", { id: "study-version" }, t("study.version", { version: study.version })), " · ", c.title,
      ...(c.opening ? [" · ", openingLabel(c.opening)] : []));
    const editable = mayEdit();
    const arrows = studyArrows();
    const marks = n.marks.map((m) => ({ cell: m.at, kind: m.brush }));
    const fields = n.fen.split(/\s+/);
    const turn = fields[1] === "b" ? "black" : "red";
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
    mainLine.hidden = !editable || onMainLine(n.id);
    brushChoice.hidden = !editable;
    shapes.hidden = !editable;
    drawHelp.hidden = !editable;
    commentForm.hidden = !editable;
    // A comment being written is not overwritten by someone else's edit elsewhere.
    if (commentFor !== `${c.id}/${n.id}` || document.activeElement !== comment) comment.value = n.comment;
    commentFor = `${c.id}/${n.id}`;
    commentShown.textContent = n.comment;
    commentShown.hidden = editable || !n.comment;
    drawTree();
    drawChapters();
    drawMembers();
    status.textContent = "";
    const shown = nodeId;
    const at = await position(n.fen).catch(() => null);
    if (shown !== nodeId || chapter() !== c || !at) return;
    shownAt = at;
    status.textContent = at.outcome ? outcomeText(at.outcome)
      : t(at.check ? "analysis.toMoveCheck" : "analysis.toMove", { color: colorName(turn, true) });
    if (editable && !drawing) {
      board.show({ fen: n.fen, flipped, last: n.move?.iccs ?? null, arrows, circles: marks, legal: at.legal, mine: at.outcome ? null : at.turn });
    }
    engine.draw();
  }

  /** The drawing mode's point: the first chosen, or the arrow (or mark) it ends. @param {string} cell */
  function drawCell(cell) {
    if (!drawFrom) {
      drawFrom = cell;
      board.announce(t("study.drawFrom", { cell }));
      return;
    }
    const from = drawFrom;
    drawFrom = null;
    attempt(() => toggleShape(from, cell));
  }

  /** @param {KeyboardEvent} e */
  function keys(e) {
    const target = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target instanceof SVGElement) return;
    const n = node();
    const act = {
      ArrowLeft: () => goTo(n?.parent ?? 0), ArrowRight: () => goTo(n?.children[0] ?? nodeId),
      Home: () => goTo(0), End: () => goTo(lastOfLine()),
    }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  }
  document.addEventListener("keydown", keys);
  const stopWatching = watchStudy(id, show);
  const stopPrefs = onPrefsChange(() => render());
  await render();
  return () => {
    document.removeEventListener("keydown", keys);
    engine.stop();
    stopWatching();
    stopPrefs();
  };
}
