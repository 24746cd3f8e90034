// The games database: the site's finished games searched by player, opponent,
// result, how they ended, rule set, board, pace, rated or not, when they ended
// and a position reached (moves from the start, or a FEN), the most recently
// ended first, a page at a time; each opens on the analysis board.
//
// Addresses: `#/database`, `#/database/{standard|hex}/{FEN}` (the games that
// reached a position, as the analysis board's explorer links to them).

import { findGames, foundGamesPgn } from "./endpoints.js";
import { downloadLink } from "../../components/download.js";
import { onSubmit } from "../../components/form.js";
import { RULE_SETS, SPEEDS, choice, speedName } from "../../components/game-filters.js";
import { page, userLink } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, outcomeText, rulesName } from "../../format.js";
import { date, t } from "../../i18n.js";
import { gameAnalysisLink } from "../../links.js";
import { pagedList } from "../../components/paged-list.js";

/** @typedef {import("../../models.js").GameSummary} GameSummary */
/** @typedef {import("../../i18n.js").TextKey} TextKey */

const REASONS = ["checkmate", "stalemate", "perpetual_check", "perpetual_chase", "repetition", "no_attackers",
  "move_limit", "resignation", "time_forfeit", "agreement"];
/**
 * A game found, with links to it.
 * @param {GameSummary} g
 */
function foundGame(g) {
  return h("li", { class: "game-row found-game", "data-game": g.id },
    h("span", { class: "who" }, userLink(g.red), " – ", userLink(g.black)),
    h("span", {}, g.outcome ? outcomeText(g.outcome) : ""),
    h("span", { class: "muted small" }, `${rulesName(g.rules)}, ${clockText(g.clock)}${g.rated ? "" : `, ${t("db.casualOnly")}`}`),
    h("span", { class: "muted small" }, t("db.ended", { date: date(g.updated), plies: g.ply })),
    h("span", { class: "links" },
      h("a", { href: gameAnalysisLink(g.id, g.ply) }, t("db.open")), " ",
      h("a", { href: `#/game/${encodeURIComponent(g.id)}` }, t("db.gamePage"))));
}

/**
 * Milliseconds at the start of a day given as `yyyy-mm-dd` (local time), or at its end.
 * @param {string} day
 * @param {boolean} end
 */
function dayMs(day, end) {
  const at = new Date(`${day}T00:00:00`).getTime();
  return Number.isNaN(at) ? null : end ? at + 86_400_000 - 1 : at;
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function databasePage(view, args) {
  const [board = "", ...rest] = args;
  const fen = board === "standard" || board === "hex" ? rest.join("/") : "";
  const results = h("section", { class: "card", id: "db-results", "aria-live": "polite" }, h("p", { class: "muted" }, t("db.hint")));
  const field = (/** @type {string} */ label, /** @type {HTMLElement} */ input) => h("label", {}, label, input);
  const form = onSubmit(h("form", { class: "card form db-form", id: "db-form" },
    h("div", { class: "db-fields" },
      field(t("db.player"), h("input", { name: "player", maxlength: 20, autocomplete: "off" })),
      field(t("db.opponent"), h("input", { name: "opponent", maxlength: 20, autocomplete: "off" })),
      field(t("db.result"), h("select", { name: "result" }, h("option", { value: "" }, t("db.any")),
        h("option", { value: "red" }, t("db.redWon")), h("option", { value: "black" }, t("db.blackWon")),
        h("option", { value: "draw" }, t("db.drawn")))),
      field(t("db.reason"), choice("reason", REASONS, (r) => t(/** @type {TextKey} */ (`reason.${r}`)))),
      field(t("db.rules"), choice("rules", RULE_SETS, rulesName)),
      field(t("db.board"), choice("variant", ["standard", "hex"], (v) => t(v === "hex" ? "position.hex" : "position.standard"))),
      field(t("db.speed"), choice("speed", SPEEDS, speedName)),
      field(t("db.rated"), h("select", { name: "rated" }, h("option", { value: "" }, t("db.any")),
        h("option", { value: "true" }, t("db.ratedOnly")), h("option", { value: "false" }, t("db.casualOnly")))),
      field(t("db.since"), h("input", { name: "since", type: "date" })),
      field(t("db.until"), h("input", { name: "until", type: "date" })),
      field(t("db.opening"), h("input", { name: "opening", maxlength: 60, autocomplete: "off", placeholder: t("db.openingHint") }))),
    h("div", { class: "db-position" },
      field(t("db.moves"), h("input", { name: "moves", placeholder: t("db.movesHint"), autocomplete: "off", spellcheck: "false" })),
      field(t("position.fen"), h("input", { name: "fen", value: fen, autocomplete: "off", spellcheck: "false" }))),
    h("button", { type: "submit", class: "primary" }, t("db.search"))), async (d) => {
    const q = new URLSearchParams();
    for (const k of ["player", "opponent", "result", "reason", "rules", "variant", "speed", "rated", "moves", "fen", "opening"]) {
      const v = (d[k] ?? "").trim();
      if (v) q.set(k, v);
    }
    if (fen && (d["fen"] ?? "").trim() && !q.has("variant")) q.set("variant", board);
    const since = d["since"] ? dayMs(d["since"], false) : null;
    const until = d["until"] ? dayMs(d["until"], true) : null;
    if (since !== null) q.set("since", String(since));
    if (until !== null) q.set("until", String(until));
    // The download takes the search as it is, not the list's pages.
    const download = h("div", { class: "db-download", id: "db-download" },
      downloadLink({ id: "db-download-link", label: t("db.download"), path: foundGamesPgn(q) }),
      h("p", { class: "muted small" }, t("db.downloadNote")));
    q.set("limit", "20");
    let found = false;
    const list = await pagedList(async (after) => {
      if (after) q.set("after", after);
      const p = await findGames(q);
      found ||= p.games.length > 0;
      return { items: p.games, next: p.next ?? null };
    }, foundGame, "games found-games", t("db.none"));
    results.replaceChildren(...(found ? [download] : []), list);
    // On a phone the form fills the screen: the results come into view.
    if (results.getBoundingClientRect().top > innerHeight * 0.6) results.scrollIntoView({ block: "start" });
  });
  page(view, t("db.title"), h("p", { class: "db-links" }, h("a", { href: "#/import" }, t("menu.import")), " · ",
    h("a", { href: "#/masters", id: "db-masters" }, t("masters.title"))), form, results);
  if (fen) form.requestSubmit();
}
