// The puzzle modes an address names (the next puzzle near one's rating, of any
// theme or one, the day's puzzle, a puzzle by its id, a timed streak, the
// leaders; on either board) and the bar of links and choosers between them.

import { boardName } from "../../components/puzzle-card.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { puzzlesLink } from "../../links.js";

/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */
/** @typedef {PuzzleView["variant"]} Variant */
/** @typedef {PuzzleView["themes"][number]} Theme */

/** Every theme, in the order the menu offers them. @type {Theme[]} */
export const THEMES = [
  "mate_in1", "mate_in2", "mate_in3", "long_mate", "capture", "fork", "pin", "discovered_attack",
  "cannon_screen", "horse_leg", "flying_general", "defensive_move", "opening", "middlegame", "endgame",
];

/** @param {string | undefined} name @returns {name is Theme} */
const isTheme = (name) => THEMES.some((x) => x === name);

/** A theme in words. @param {Theme} theme */
export const themeName = (theme) => t(`theme.${theme}`);

/**
 * The mode the address names.
 * @param {string[]} args
 */
export function modeOf(args) {
  const [kind = "", a, b] = args;
  /** @param {string | undefined} s @returns {Variant} */
  const board = (s) => (s === "hex" ? "hex" : "standard");
  if (kind === "daily") return { kind: "daily", variant: /** @type {Variant} */ ("standard") };
  if (kind === "streak") return { kind: "streak", variant: board(a) };
  if (kind === "p" && a) return { kind: "id", id: a, variant: /** @type {Variant} */ ("standard") };
  if (kind === "theme" && isTheme(a)) return { kind: "theme", theme: a, variant: board(b) };
  if (kind === "leaders") return { kind: "leaders", variant: board(a) };
  return { kind: "next", variant: board(kind) };
}

/** @typedef {ReturnType<typeof modeOf>} Mode */

/**
 * The links between the modes, with the board and theme choosers.
 * @param {{ kind: string, variant: Variant, theme?: Theme }} mode
 */
export function modeBar(mode) {
  const boardSelect = h("select", { "aria-label": t("puzzle.board"), onchange: (/** @type {Event} */ e) => {
    const v = /** @type {HTMLSelectElement} */ (e.target).value;
    location.hash = puzzlesLink(mode.kind === "theme" ? "theme" : "next", v, mode.theme);
  } }, ["standard", "hex"].map((v) => h("option", { value: v, selected: v === mode.variant }, boardName(/** @type {Variant} */ (v)))));
  const themeSelect = h("select", { "aria-label": t("puzzle.theme"), onchange: (/** @type {Event} */ e) => {
    const v = /** @type {HTMLSelectElement} */ (e.target).value;
    location.hash = puzzlesLink(v ? "theme" : "next", mode.variant, v);
  } }, h("option", { value: "" }, t("puzzle.anyTheme")),
  THEMES.map((x) => h("option", { value: x, selected: mode.theme === x }, themeName(x))));
  /** @param {string} kind */
  const current = (kind) => (mode.kind === kind ? { "aria-current": "page" } : {});
  return h("nav", { class: "puzzle-modes", "aria-label": t("puzzle.modes") },
    h("a", { href: puzzlesLink("next", mode.variant), ...current("next") }, t("puzzle.rated")),
    h("a", { href: "#/puzzles/daily", ...current("daily") }, t("puzzle.daily")),
    h("a", { href: puzzlesLink("streak", mode.variant), ...current("streak") }, t("puzzle.streak")),
    h("a", { href: puzzlesLink("leaders", mode.variant) }, t("puzzle.leaders")),
    h("label", {}, t("puzzle.board"), " ", boardSelect),
    h("label", {}, t("puzzle.theme"), " ", themeSelect));
}
