// Importing games: record files (several at once, chosen or dropped, in any
// format the server reads by content: PGN in any dialect and encoding, XQF,
// DhtmlXQ, CCBridge) or text pasted go to the server as their bytes, one file
// at a time with its progress shown; the server replays every game and keeps
// it as the history it is. The report says per file what was kept, what was
// there already and what was left out and why. My imported games below, a
// page at a time, each opening on the analysis board (whose explorer can show
// my collection).

import { page } from "../../components/layout.js";
import { h } from "../../dom.js";
import { errorText } from "../../errors.js";
import { date, t, tn } from "../../i18n.js";
import { rulesName } from "../../format.js";
import { refused } from "../../components/user-actions.js";
import { say } from "../../notify.js";
import { pagedList } from "../../components/paged-list.js";
import { importedLink } from "../../links.js";
import { currentUser } from "../../state.js";
import { openingLabel } from "../../components/openings.js";
import { deleteAllImported, deleteImported, importRecords, importedGames } from "./endpoints.js";

/** @typedef {import("../../api-types.js").ImportAnswer} ImportAnswer */
/** @typedef {import("../../api-types.js").ImportedGameView} ImportedGameView */
/** @typedef {import("../../api-types.js").RefusedGameView} RefusedGameView */
/** @typedef {import("../../i18n.js").TextKey} TextKey */

/**
 * Why a game was left out, in words.
 * @param {RefusedGameView} r
 */
function problemText(r) {
  if (r.problem === "move" && r.move_number && r.text) {
    const why = r.why ? t(/** @type {TextKey} */ (`refusal.why.${r.why}`)) : r.detail;
    const words = t("import.problem.move", { number: r.move_number, text: r.text, why });
    return r.cut ? `${words} ${t("import.cutKept")}` : words;
  }
  return t(/** @type {TextKey} */ (`import.problem.${r.problem === "move" ? "moveBare" : r.problem}`));
}

/** The encodings a text file may be read in, the guess first. */
export const ENCODINGS = ["", "utf-8", "gb18030", "big5", "utf-16le", "utf-16be"];

/**
 * What came of one file, in words.
 * @param {string} name
 * @param {ImportAnswer} answer
 */
export function fileReport(name, answer) {
  const parts = [h("p", { class: "message info", role: "status" },
    t("import.fileKept", { file: name, format: answer.format.toUpperCase(), kept: tn("import.kept", answer.kept.length) }))];
  if (answer.duplicates) parts.push(h("p", { class: "muted" }, tn("import.duplicates", answer.duplicates)));
  if (answer.refused.length) {
    parts.push(h("div", { class: "refused" }, h("h3", {}, t("import.refusedTitle")),
      h("ul", { class: "refused-games" }, answer.refused.map((r) => h("li", { "data-number": r.number },
        t("import.refused", { number: r.number, red: r.red, black: r.black, problem: problemText(r) }))))));
  }
  return parts;
}

/**
 * An imported game in my list, with a button that deletes it.
 * @param {ImportedGameView} g
 */
function importedRow(g) {
  const name = `${g.red} – ${g.black}`;
  const li = h("li", { class: "game-row imported-game", "data-game": g.id },
    h("a", { href: importedLink(g.id) }, name),
    h("span", {}, g.result),
    h("span", { class: "muted small" }, [g.event, g.date].filter((x) => x && x !== "?").join(", ")),
    h("span", { class: "muted small" }, `${rulesName(g.rules)}, ${tn("import.plies", g.ply)}`),
    g.opening ? h("span", { class: "muted small" }, openingLabel(g.opening)) : null,
    h("span", { class: "muted small" }, t("import.when", { date: date(g.imported) })));
  li.append(h("button", {
    type: "button", class: "delete small-button", "aria-label": t("import.deleteOne", { game: name }),
    onclick: async () => {
      if (!confirm(t("import.confirmDelete", { game: name }))) return;
      try {
        await deleteImported(g.id);
      } catch (err) {
        return refused(t("import.delete"), err);
      }
      say(t("import.deleted"));
      li.remove();
    },
  }, t("import.delete")));
  return li;
}

/** @param {HTMLElement} view */
export async function importPage(view) {
  const file = h("input", { type: "file", name: "file", id: "import-file", multiple: true,
    accept: ".pgn,.txt,.xqf,.cbf,.cbr,.cbl,.htm,.html,text/plain,application/x-chess-pgn,application/octet-stream" });
  const text = h("textarea", { name: "text", id: "import-text", rows: 6, spellcheck: "false" });
  const encoding = h("select", { name: "encoding", id: "import-encoding" },
    ENCODINGS.map((e) => h("option", { value: e }, e ? e.toUpperCase() : t("import.encodingGuess"))));
  const report = h("div", { id: "import-report", "aria-live": "polite" });
  // An administrator may load the files into the site's Masters collection instead.
  const masters = currentUser()?.admin ? h("input", { type: "checkbox", name: "masters", id: "import-masters" }) : null;
  /** @returns {"imports" | "masters"} */
  const into = () => (masters instanceof HTMLInputElement && masters.checked ? "masters" : "imports");
  const submit = h("button", { type: "submit", class: "primary" }, t("import.submit"));
  const form = h("form", { class: "card form import-form", id: "import-form" },
    h("p", { class: "muted" }, t("import.lead")),
    h("label", {}, t("import.file"), file),
    h("label", {}, t("import.paste"), text),
    h("label", {}, t("import.encoding"), encoding),
    masters ? h("label", { class: "check" }, masters, t("import.toMasters")) : null,
    submit, report);
  const mine = h("section", { class: "card", id: "imported" });
  /** Files dropped on the form, sent instead of those chosen. @type {File[]} */
  let dropped = [];
  form.addEventListener("dragover", (e) => { e.preventDefault(); form.classList.add("dropping"); });
  form.addEventListener("dragleave", () => form.classList.remove("dropping"));
  form.addEventListener("drop", (e) => {
    e.preventDefault();
    form.classList.remove("dropping");
    dropped = [...(e.dataTransfer?.files ?? [])];
    report.replaceChildren(h("p", { class: "muted" }, tn("import.droppedFiles", dropped.length)));
  });

  async function showMine() {
    const list = await pagedList(async (after) => {
      const p = await importedGames(after);
      return { items: p.games, next: p.next ?? null };
    }, importedRow, "games imported-games", t("import.none"));
    const clear = h("button", { type: "button", class: "delete", id: "imports-delete-all", onclick: async () => {
      if (!confirm(t("import.confirmDeleteAll"))) return;
      try {
        const done = await deleteAllImported();
        say(tn("import.deletedAll", done.deleted));
      } catch (err) {
        return refused(t("import.deleteAll"), err);
      }
      await showMine();
    } }, t("import.deleteAll"));
    const empty = list.querySelector(".imported-games > li") === null;
    mine.replaceChildren(h("h2", {}, t("import.mine")), list, ...(empty ? [] : [clear]));
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = dropped.length ? dropped : file instanceof HTMLInputElement ? [...(file.files ?? [])] : [];
    const pasted = text instanceof HTMLTextAreaElement ? text.value : "";
    /** @type {{ name: string, body: Blob }[]} */
    const files = chosen.length ? chosen.map((f) => ({ name: f.name, body: f }))
      : pasted.trim() ? [{ name: t("import.pasted"), body: new Blob([pasted], { type: "text/plain" }) }] : [];
    if (!files.length) {
      report.replaceChildren(h("p", { class: "message error", role: "alert" }, t("import.empty")));
      return;
    }
    const chosenEncoding = encoding instanceof HTMLSelectElement ? encoding.value : "";
    submit.setAttribute("disabled", "");
    report.replaceChildren();
    for (const f of files) {
      const bar = h("progress", { max: 100, value: 0, class: "import-progress" });
      const status = h("span", { class: "muted" }, t("import.sending"));
      const entry = h("section", { class: "import-file", "data-file": f.name },
        h("h3", {}, f.name), h("p", {}, bar, " ", status));
      report.append(entry);
      try {
        const to = into();
        const answer = await importRecords(to, f.body, chosenEncoding, (share) => {
          bar.setAttribute("value", String(Math.round(share * 50)));
          status.textContent = share < 1 ? t("import.sent", { percent: Math.round(share * 100) }) : t("import.reading");
        }, to === "imports" ? (checked, total) => {
          if (!total) return;
          bar.setAttribute("value", String(50 + Math.round((50 * checked) / total)));
          status.textContent = t("import.replayed", { checked, total });
        } : undefined);
        bar.setAttribute("value", "100");
        entry.replaceChildren(h("h3", {}, f.name), ...fileReport(f.name, answer));
      } catch (err) {
        entry.replaceChildren(h("h3", {}, f.name), h("p", { class: "message error", role: "alert" }, errorText(err)));
      }
    }
    dropped = [];
    submit.removeAttribute("disabled");
    await showMine();
  });
  page(view, t("import.title"), form, mine);
  await showMine();
}
