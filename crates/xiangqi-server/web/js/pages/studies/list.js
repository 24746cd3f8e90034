// The list of studies (`#/studies`): public studies and mine, a page at a time,
// the form that starts one and the form that makes one from a record file.

import { card, listOr, moreButton, page } from "../../components/layout.js";
import { form } from "../../components/form.js";
import { h } from "../../dom.js";
import { errorText } from "../../errors.js";
import { t } from "../../i18n.js";
import { studyLink } from "../../links.js";
import { go } from "../../router.js";
import { currentUser } from "../../state.js";
import { createStudy, importStudy, shelfPage } from "./endpoints.js";

/** @typedef {import("../../api-types.js").StudySummary} StudySummary */

/**
 * One line of a list of studies.
 * @param {StudySummary} s
 */
function studyRow(s) {
  return h("li", { class: "study-row" },
    h("a", { href: studyLink(s.id) }, s.title), " ",
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
    const got = await shelfPage(shelf, after);
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
    const made = await createStudy({ title, visibility });
    go(studyLink(made.study.id));
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
      const made = await importStudy(name, chosen);
      go(studyLink(made.study.id));
    } catch (err) {
      status.replaceChildren(h("span", { class: "message error", role: "alert" }, errorText(err)));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  return element;
}
