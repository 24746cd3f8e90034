// The analysis board's opening explorer: the moves played from the position
// shown, the most played first, with how many games, how they went (Red wins,
// draws, Black wins) and the players' average rating; from the site's finished
// games or from my imported ones, filtered by rule set, pace and rating. A
// move plays it on the board. It follows the position as the user moves about,
// once the position has stayed a moment; "Games with this position" opens the
// games database on it.

import { explore } from "./endpoints.js";
import { h } from "../../dom.js";
import { errorText } from "../../errors.js";
import { rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { moveText } from "../../notation.js";
import { currentUser } from "../../state.js";
import { openingLabel } from "../../components/openings.js";
import { RULE_SETS, SPEEDS, choice, speedName } from "../../components/game-filters.js";

/** @typedef {import("../../api-types.js").ExplorerAnswer} ExplorerAnswer */
/** @typedef {import("../../api-types.js").ExplorerMoveView} ExplorerMove */

/** How long the position must stay before the explorer asks about it. */
const SETTLE_MS = 250;

/**
 * @typedef {object} ExplorerPosition
 * @property {string} variant
 * @property {string} fen  the position shown
 * @property {string} turn  the side to move there
 */

/**
 * @param {{ position: () => ExplorerPosition | null, play: (iccs: string) => void }} hooks
 */
export function explorerPanel(hooks) {
  const source = h("select", { name: "source", id: "explorer-source", "aria-label": t("explorer.source") },
    h("option", { value: "site" }, t("explorer.site")),
    h("option", { value: "masters" }, t("explorer.masters")),
    currentUser() ? h("option", { value: "mine" }, t("explorer.mine")) : null);
  const rules = choice("rules", RULE_SETS, rulesName);
  rules.setAttribute("aria-label", t("db.rules"));
  const speed = choice("speed", SPEEDS, speedName);
  speed.setAttribute("aria-label", t("db.speed"));
  const min = h("input", { name: "min_rating", type: "number", min: 0, max: 4000, step: 100, inputmode: "numeric", placeholder: t("explorer.minRating"), "aria-label": t("explorer.minRating") });
  const max = h("input", { name: "max_rating", type: "number", min: 0, max: 4000, step: 100, inputmode: "numeric", placeholder: t("explorer.maxRating"), "aria-label": t("explorer.maxRating") });
  const body = h("div", { class: "explorer-body", id: "explorer-moves", "aria-live": "polite" });
  const findGames = h("a", { id: "explorer-games", href: "#/database" }, t("explorer.findGames"));
  const element = h("details", { class: "explorer", id: "explorer", open: true },
    h("summary", {}, t("explorer.title")),
    h("div", { class: "explorer-filters" }, source, rules, speed, min, max),
    body,
    h("p", { class: "muted small" }, t("explorer.note", { plies: 40 }), " ", findGames));
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let asked = 0;

  async function load() {
    const at = hooks.position();
    if (!at || !element.open) return;
    const mine = ++asked;
    const q = new URLSearchParams({ variant: at.variant, fen: at.fen });
    for (const input of [source, rules, speed, min, max]) {
      if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
      if (input.value && !(input.name === "source" && input.value === "site")) q.set(input.name, input.value);
    }
    findGames.setAttribute("href", `#/database/${at.variant}/${encodeURIComponent(at.fen)}`);
    try {
      const answer = await explore(q);
      if (mine !== asked) return;
      body.replaceChildren(
        answer.opening ? h("p", { class: "explorer-opening", id: "explorer-opening" }, openingLabel(answer.opening)) : "",
        answer.moves.length ? table(answer.moves, at.turn) : h("p", { class: "muted" }, t("explorer.none")));
    } catch (err) {
      if (mine === asked) body.replaceChildren(h("p", { class: "message error" }, errorText(err)));
    }
  }

  /**
   * One part of a move's results bar, as wide as its share (set through the
   * style object: the page's policy allows no inline style attribute).
   * @param {string} cls
   * @param {number} percent
   */
  function share(cls, percent) {
    const part = h("span", { class: cls }, percent >= 12 ? `${percent}%` : "");
    part.style.width = `${percent}%`;
    return part;
  }

  /**
   * @param {ExplorerMove[]} moves
   * @param {string} turn
   */
  function table(moves, turn) {
    const index = turn === "red" ? 0 : 1;
    return h("table", { class: "explorer-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("explorer.move")), h("th", { scope: "col" }, t("explorer.games")),
        h("th", { scope: "col" }, t("explorer.results")), h("th", { scope: "col" }, t("explorer.rating")))),
      h("tbody", {}, moves.map((m) => {
        const pct = (/** @type {number} */ n) => Math.round((100 * n) / Math.max(1, m.games));
        const [r, d, b] = [pct(m.red_wins), pct(m.draws), pct(m.black_wins)];
        const words = t("explorer.share", { red: r, draw: d, black: b });
        const name = moveText(m, index);
        return h("tr", { "data-move": m.iccs },
          h("td", {}, h("button", { type: "button", class: "link-button explorer-move", title: t("explorer.play", { move: name }),
            onclick: () => hooks.play(m.iccs) }, name)),
          h("td", { class: "num" }, String(m.games)),
          h("td", {}, h("div", { class: "wdl", role: "img", "aria-label": words, title: words },
            share("wdl-red", r), share("wdl-draw", d), share("wdl-black", b))),
          h("td", { class: "num" }, m.average_rating === null || m.average_rating === undefined ? "—" : String(m.average_rating)));
      })));
  }

  /** Asks again once the position has stayed a moment. */
  function follow() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      load();
    }, SETTLE_MS);
  }

  for (const input of [source, rules, speed, min, max]) input.addEventListener("change", () => load());
  element.addEventListener("toggle", () => load());
  return {
    element,
    follow,
    stop() {
      if (timer) clearTimeout(timer);
      asked++;
    },
  };
}
