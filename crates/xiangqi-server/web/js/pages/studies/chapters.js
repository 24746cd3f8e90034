// A study's chapters: the list (a click opens one) and, for those who may edit,
// renaming, moving, deleting and the form that adds a chapter (from the start
// of either board, a FEN or a PGN).

import { button } from "../../components/layout.js";
import { onSubmit } from "../../components/form.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { attempt } from "../../notify.js";
import * as endpoints from "./endpoints.js";

/** @typedef {import("./controller.js").StudyController} StudyController */

/**
 * Draws the chapters in `box`.
 * @param {HTMLElement} box
 * @param {StudyController} ctl
 */
export function drawChapters(box, ctl) {
  const { study, chapterId } = ctl.state;
  const editable = ctl.mayEdit();
  /** Moves a chapter, keeping the focus on it. @param {string} chapter @param {number} place */
  async function place(chapter, place) {
    await ctl.placeChapter(chapter, place);
    const moved = box.querySelector(`button.chapter[data-chapter="${CSS.escape(chapter)}"]`);
    if (moved instanceof HTMLElement) moved.focus();
  }
  const list = h("ol", { class: "chapter-list" }, study.chapters.map((c, i) => h("li", {},
    h("button", {
      type: "button", class: `chapter${c.id === chapterId ? " current" : ""}`, "data-chapter": c.id,
      "aria-current": c.id === chapterId ? "true" : null,
      onclick: () => ctl.openChapter(c.id),
    }, c.title),
    editable && c.id === chapterId
      ? button(t("study.renameChapter"), () => attempt(async () => {
        const title = prompt(t("study.chapterNewTitle"), c.title);
        if (!title?.trim()) return;
        await ctl.edit(endpoints.renameChapter(ctl.id, c.id, title.trim()));
      }), { class: "small", "data-action": "rename-chapter" })
      : "",
    editable && c.id === chapterId && i > 0
      ? button("↑", () => attempt(() => place(c.id, i - 1)),
        { class: "small", "data-action": "chapter-up", "aria-label": t("study.chapterUp", { title: c.title }) })
      : "",
    editable && c.id === chapterId && i < study.chapters.length - 1
      ? button("↓", () => attempt(() => place(c.id, i + 1)),
        { class: "small", "data-action": "chapter-down", "aria-label": t("study.chapterDown", { title: c.title }) })
      : "",
    editable && study.chapters.length > 1 && c.id === chapterId
      ? button(t("study.deleteChapter"), () => attempt(async () => {
        if (!confirm(t("study.confirmDeleteChapter", { title: c.title }))) return;
        await ctl.edit(endpoints.deleteChapter(ctl.id, c.id));
      }), { class: "small", "data-action": "delete-chapter" })
      : "")));
  box.replaceChildren(h("h2", {}, t("study.chapters")), list, editable ? addForm(ctl) : "");
}

/** The form that adds a chapter and opens it. @param {StudyController} ctl */
function addForm(ctl) {
  const kind = h("select", { name: "kind", id: "chapter-kind", "aria-label": t("study.chapterFrom") },
    h("option", { value: "start" }, t("study.fromStart")),
    h("option", { value: "hex" }, t("study.fromHex")),
    h("option", { value: "fen" }, t("study.fromFen")),
    h("option", { value: "pgn" }, t("study.fromPgn")));
  const text = h("textarea", { name: "text", id: "chapter-text", rows: "3", "aria-label": t("study.chapterText"), hidden: true });
  kind.addEventListener("change", () => { text.hidden = kind.value !== "fen" && kind.value !== "pgn"; });
  return onSubmit(h("form", { class: "study-add-chapter", id: "add-chapter" },
    h("label", {}, t("study.chapterTitle"), h("input", { name: "title", maxlength: "80" })), kind, text,
    h("button", { type: "submit" }, t("study.addChapter"))), async (v) => {
    /** @type {Omit<import("../../api-types.js").NewChapter, "version">} */
    const body = {};
    if (v["title"]?.trim()) body.title = v["title"].trim();
    if (v["kind"] === "hex") body.variant = "hex";
    if (v["kind"] === "fen") body.fen = v["text"] ?? "";
    if (v["kind"] === "pgn") body.pgn = v["text"] ?? "";
    const after = await ctl.edit(endpoints.addChapter(ctl.id, body));
    const added = after.chapters[after.chapters.length - 1];
    if (added) ctl.openChapter(added.id);
  }, { reset: true });
}
