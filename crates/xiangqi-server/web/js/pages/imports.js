// Importing games: a PGN file (or text pasted) goes to the server, which checks
// every game move by move; the games kept join my collection, those left out
// are named with the move and why. My imported games below, a page at a time,
// each opening on the analysis board (whose explorer can show my collection).

import * as api from "../api.js";
import { page } from "../components/layout.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { date, t, tn } from "../i18n.js";
import { rulesName } from "../format.js";
import { refused } from "../components/user-actions.js";
import { say } from "../notify.js";
import { pagedList } from "./messages.js";

/** @typedef {import("../api-types.js").ImportAnswer} ImportAnswer */
/** @typedef {import("../api-types.js").ImportedPage} ImportedPage */
/** @typedef {import("../api-types.js").ImportedGameView} ImportedGameView */
/** @typedef {import("../api-types.js").ImportsDeleted} ImportsDeleted */
/** @typedef {import("../api-types.js").RefusedGameView} RefusedGameView */
/** @typedef {import("../i18n.js").TextKey} TextKey */

/** The address of an imported game on the analysis board. @param {string} id */
export const importedLink = (id) => `#/analysis/imported/${encodeURIComponent(id)}`;

/**
 * Why a game was left out, in words.
 * @param {RefusedGameView} r
 */
function problemText(r) {
  if (r.problem === "move" && r.move_number && r.text) {
    const why = r.why ? t(/** @type {TextKey} */ (`refusal.why.${r.why}`)) : r.detail;
    return t("import.problem.move", { number: r.move_number, text: r.text, why });
  }
  return t(/** @type {TextKey} */ (`import.problem.${r.problem === "move" ? "moveBare" : r.problem}`));
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
    h("span", { class: "muted small" }, t("import.when", { date: date(g.imported) })));
  li.append(h("button", {
    type: "button", class: "delete small-button", "aria-label": t("import.deleteOne", { game: name }),
    onclick: async () => {
      if (!confirm(t("import.confirmDelete", { game: name }))) return;
      try {
        await api.call("DELETE", `/imports/${encodeURIComponent(g.id)}`);
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
  const file = h("input", { type: "file", name: "file", id: "import-file", accept: ".pgn,.txt,text/plain,application/x-chess-pgn" });
  const text = h("textarea", { name: "text", id: "import-text", rows: 6, spellcheck: "false" });
  const report = h("div", { id: "import-report", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "primary" }, t("import.submit"));
  const form = h("form", { class: "card form import-form", id: "import-form" },
    h("p", { class: "muted" }, t("import.lead")),
    h("label", {}, t("import.file"), file),
    h("label", {}, t("import.paste"), text),
    submit, report);
  const mine = h("section", { class: "card", id: "imported" });

  async function showMine() {
    const list = await pagedList(async (after) => {
      /** @type {ImportedPage} */
      const p = await api.call("GET", `/imports?limit=20${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      return { items: p.games, next: p.next ?? null };
    }, importedRow, "games imported-games", t("import.none"));
    const clear = h("button", { type: "button", class: "delete", id: "imports-delete-all", onclick: async () => {
      if (!confirm(t("import.confirmDeleteAll"))) return;
      try {
        /** @type {ImportsDeleted} */
        const done = await api.call("DELETE", "/imports");
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
    const chosen = file instanceof HTMLInputElement ? file.files?.[0] : undefined;
    const body = chosen ? await chosen.text() : text instanceof HTMLTextAreaElement ? text.value : "";
    if (!body.trim()) {
      report.replaceChildren(h("p", { class: "message error", role: "alert" }, t("import.empty")));
      return;
    }
    submit.setAttribute("disabled", "");
    try {
      const res = await fetch("/api/v1/imports", {
        method: "POST", credentials: "same-origin", body,
        headers: { "X-Xiangqi": "1", "Content-Type": "application/x-chess-pgn" },
      });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) throw new api.ApiError(data.message || res.statusText, res.status, data.error, data.reason, data.params);
      /** @type {ImportAnswer} */
      const answer = data;
      const kept = h("p", { class: "message info", role: "status" }, tn("import.kept", answer.kept.length));
      report.replaceChildren(kept);
      if (answer.refused.length) {
        report.append(h("div", { class: "refused" }, h("h3", {}, t("import.refusedTitle")),
          h("ul", { class: "refused-games" }, answer.refused.map((r) => h("li", { "data-number": r.number },
            t("import.refused", { number: r.number, red: r.red, black: r.black, problem: problemText(r) }))))));
      }
      await showMine();
    } catch (err) {
      report.replaceChildren(h("p", { class: "message error", role: "alert" }, errorText(err)));
    } finally {
      submit.removeAttribute("disabled");
    }
  });
  page(view, t("import.title"), form, mine);
  await showMine();
}
