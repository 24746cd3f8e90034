// Settings: pieces, board theme and piece size, coordinates, move notation,
// animation, sound, live moves with or without Submit, the language, and the
// screen-reader mode (reached from the link at the top of every page). Each
// change applies at once, to the board beside the choices and to every other
// board; it is kept in this browser, and on the server for a logged-in user.
// A logged-in user also chooses whether the site may find puzzles in their
// imported games: that choice is the account's alone, kept on the server and
// never in this browser, so that nobody else who logs in here inherits it.

import * as endpoints from "./endpoints.js";
import { Board } from "../../components/board.js";
import { standard } from "../../components/board-standard.js";
import { page } from "../../components/layout.js";
import { h } from "../../dom.js";
import { LANGUAGES, t } from "../../i18n.js";
import { chineseFromWxf } from "../../notation.js";
import { sayError } from "../../notify.js";
import { CHOICES, SIZE_MAX, SIZE_MIN, SPEEDS, onPrefsChange, prefs, setPrefs } from "../../prefs.js";
import { currentUser } from "../../state.js";

/** @typedef {import("../../prefs.js").Prefs} Prefs */
/** @typedef {import("../../i18n.js").TextKey} TextKey */

/** A position after 1. C2=5 H8+7 2. H2+3, to show pieces, coordinates and the last move. */
const PREVIEW = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2";

/**
 * Saves a change; a refusal shows on the message line.
 * @param {Partial<Prefs>} change
 */
const save = (change) => setPrefs(change).catch(sayError);

/**
 * A group of radio buttons for one preference.
 * @template {"pieces" | "theme" | "coordinates" | "notation"} K
 * @param {K} key
 * @param {TextKey} legend
 * @param {(value: (typeof CHOICES)[K][number]) => string} label
 * @param {TextKey} [note]
 */
function radios(key, legend, label, note) {
  const current = prefs()[key];
  const values = /** @type {readonly (typeof CHOICES)[K][number][]} */ (CHOICES[key]);
  return h("fieldset", { "data-pref": key },
    h("legend", {}, t(legend)),
    values.map((value) => h("label", { class: "choice" },
      h("input", {
        type: "radio", name: key, value, checked: value === current,
        onchange: () => save(/** @type {Partial<Prefs>} */ ({ [key]: value })),
      }),
      label(value))),
    note ? h("p", { class: "hint-text" }, t(note)) : null);
}

/**
 * A checkbox for an on/off preference.
 * @param {"animation" | "sound" | "screen_reader"} key
 * @param {TextKey} text
 */
function toggle(key, text) {
  const box = h("input", { type: "checkbox", name: key, id: `pref-${key}`, checked: prefs()[key] });
  box.addEventListener("change", () => save({ [key]: box.checked }));
  return h("label", { class: "choice" }, box, t(text));
}

/** Which paces' moves wait for Submit: a box for each. */
function confirmations() {
  const boxes = SPEEDS.map((speed) => {
    const box = h("input", { type: "checkbox", name: "confirm_moves", value: speed, checked: prefs().confirm_moves[speed] });
    box.addEventListener("change", () => save({ confirm_moves: { ...prefs().confirm_moves, [speed]: box.checked } }));
    return h("label", { class: "choice" }, box, t(`speed.${speed}`));
  });
  return h("fieldset", { "data-pref": "confirm_moves" },
    h("legend", {}, t("settings.confirmMoves")), boxes,
    h("p", { class: "hint-text" }, t("settings.confirmMoves.note")));
}

/**
 * Whether the site may find puzzles in the user's imported games: read from
 * the server, and written there at each change (a refusal puts the box back).
 */
function puzzleSharing() {
  const box = h("input", { type: "checkbox", name: "puzzle_sharing", disabled: true });
  /** @param {boolean} on */
  const put = (on) => endpoints.sharePuzzles(on);
  endpoints.puzzleSharing()
    .then((s) => { box.checked = s.imports; box.disabled = false; })
    .catch(sayError);
  box.addEventListener("change", () => {
    const wanted = box.checked;
    box.disabled = true;
    put(wanted)
      .then((s) => { box.checked = s.imports; })
      .catch((err) => { box.checked = !wanted; sayError(err); })
      .finally(() => { box.disabled = false; });
  });
  return h("fieldset", { "data-pref": "puzzle_sharing" },
    h("legend", {}, t("settings.sharing")),
    h("label", { class: "choice" }, box, t("settings.sharing.puzzles")),
    h("p", { class: "hint-text" }, t("settings.sharing.note")));
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args  `screen-reader`: come from the link at the top of the page, which lands on that setting
 */
export function settingsPage(view, [focus = ""] = []) {
  const p = prefs();
  const size = h("input", { type: "range", name: "piece_size", min: SIZE_MIN, max: SIZE_MAX, step: 5, value: p.piece_size, "aria-label": t("settings.size") });
  const sizeShown = h("output", { for: "piece-size" }, `${p.piece_size}%`);
  size.id = "piece-size";
  size.addEventListener("input", () => { sizeShown.textContent = `${size.value}%`; });
  size.addEventListener("change", () => save({ piece_size: Number(size.value) }));

  // Each language is named in itself, as in the header's chooser.
  const language = h("select", { name: "language", "aria-label": t("app.language") },
    h("option", { value: "", selected: p.language === null }, t("settings.language.browser")),
    Object.values(LANGUAGES).map((l) => h("option", { value: l.pref, selected: p.language === l.pref }, l.name)));
  language.addEventListener("change", () => {
    const chosen = Object.values(LANGUAGES).find((l) => l.pref === language.value);
    save({ language: chosen ? chosen.pref : null });
  });

  const examples = { wxf: "C2=5", iccs: "h2e2", chinese: chineseFromWxf("C2=5", true) ?? "" };
  const form = h("form", { class: "settings-form", onsubmit: (e) => e.preventDefault() },
    radios("pieces", "settings.pieces", (v) => t(`settings.pieces.${v}`)),
    radios("theme", "settings.theme", (v) => t(`settings.theme.${v}`)),
    h("fieldset", { "data-pref": "piece_size" }, h("legend", {}, t("settings.size")),
      h("label", { class: "choice" }, size, sizeShown)),
    radios("coordinates", "settings.coordinates", (v) => t(`settings.coordinates.${v}`)),
    radios("notation", "settings.notation", (v) => t("settings.notation.example", { name: t(`settings.notation.${v}`), example: examples[v] })),
    h("fieldset", { "data-pref": "moves" }, h("legend", {}, t("settings.moves")),
      toggle("animation", "settings.animation"), toggle("sound", "settings.sound")),
    confirmations(),
    h("fieldset", { "data-pref": "language" }, h("legend", {}, t("app.language")), language),
    h("fieldset", { "data-pref": "screen_reader" }, h("legend", {}, t("settings.screenReader")),
      toggle("screen_reader", "settings.screenReader.on"), h("p", { class: "hint-text" }, t("settings.screenReader.note"))),
    currentUser() ? puzzleSharing() : null);

  const boardBox = h("div", { class: "board-box" });
  const preview = h("aside", { class: "preview" }, boardBox, h("p", { class: "muted small" }, t("settings.preview")));
  page(view, t("settings.title"),
    h("p", { class: "muted" }, t(currentUser() ? "settings.savedServer" : "settings.savedBrowser")),
    currentUser() ? h("p", {}, h("a", { class: "button-link", href: "#/ratings" }, t("ratings.edit"))) : null,
    h("div", { class: "settings" }, form, preview));
  const board = new Board(boardBox, standard, t("board.label"));
  board.show({ fen: PREVIEW, last: "h0g2" });
  if (focus === "screen-reader") /** @type {HTMLInputElement | null} */ (form.querySelector("#pref-screen_reader"))?.focus();
  // Another tab or the log-in may change the preferences: the form follows.
  const stop = onPrefsChange((next) => {
    for (const input of form.querySelectorAll("input")) {
      if (!(input.name in next)) continue; // the account's own choice, not a preference
      const key = /** @type {keyof Prefs} */ (input.name);
      if (key === "confirm_moves") input.checked = next.confirm_moves[/** @type {keyof Prefs["confirm_moves"]} */ (input.value)];
      else if (input.type === "radio") input.checked = String(next[key]) === input.value;
      else if (input.type === "checkbox") input.checked = Boolean(next[key]);
      else if (input.type === "range") input.value = String(next.piece_size);
    }
    sizeShown.textContent = `${next.piece_size}%`;
  });
  return stop;
}
