// The analysis board: any position (a game at any move, a FEN, or one set up
// piece by piece, which the server's rules check and say what is wrong with),
// moves and variations as a tree (a different move from an earlier position
// starts a variation; any move can be gone back to), and the server's engine
// thinking about the position shown, its evaluation, depth and best line
// arriving live. The engine follows the position as the user moves about.
//
// Addresses: `#/analysis` (the standard start), `#/analysis/{standard|hex}/{FEN}`,
// `#/analysis/game/{id}/{ply}` (a game's moves, at move `ply`; on my own
// correspondence game, with my conditional moves),
// `#/analysis/imported/{id}` (one of my imported games, at its end),
// `#/analysis/masters/{id}` (a game of the site's Masters collection).
//
// analysis/controller.js holds the state and asks the server, the tree of moves
// being components/move-tree.js; analysis/view.js draws the page with the engine
// panel (components/engine-panel.js), the tree (components/move-tree-view.js,
// which studies share) and the position editor (analysis/position-editor.js).

import { standard } from "../components/board-standard.js";
import { MANY, ONE, downloadLink } from "../components/download.js";
import { page } from "../components/layout.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { onPrefsChange } from "../prefs.js";
import { BOARDS, RULES, analysisController, isVariant } from "./analysis/controller.js";
import { analysisView } from "./analysis/view.js";
import { gameRecordPath, importedRecordPath, readGame, readImported } from "./analysis/endpoints.js";
import { openingLabel } from "../components/openings.js";
import { conditionalsPanel, takesConditionals } from "./analysis/conditionals-panel.js";

/** @typedef {import("./analysis/controller.js").Variant} Variant */
/** @typedef {import("./analysis/controller.js").Rules} Rules */

/**
 * A game's record to download, in any format that holds it.
 * @param {string} path  the API path of the game's record
 * @param {boolean} xqf  whether XQF holds it (a game of the standard board)
 */
function recordDownload(path, xqf) {
  return h("p", { class: "record-download" },
    downloadLink({ id: "record-download", label: t("download.game"), path, formats: xqf ? ONE : MANY }));
}

/**
 * An imported game's record (its tree is on the board; here its file and
 * its text as PGN) and what its rule set would have judged on the way,
 * which the players played on from.
 * @param {import("../api-types.js").ImportedGameAnswer} imported
 * @param {string} path  the API path of its record file
 */
function importedRecord(imported, path) {
  const noted = imported.judged.map((j) => h("li", { "data-ply": j.ply },
    t("import.noted", {
      ply: j.ply,
      verdict: j.outcome ? j.outcome.text : t(/** @type {import("../i18n.js").TextKey} */ (`import.judgement.${j.judgement}`)),
    })));
  return h("section", { class: "card imported-record", id: "imported-record" },
    h("h2", {}, t("import.record")),
    recordDownload(path, true),
    imported.game.opening ? h("p", { id: "record-opening" }, openingLabel(imported.game.opening)) : null,
    imported.tree_cut ? h("p", { class: "message info", id: "record-cut" }, t("import.treeCut", { shown: imported.tree.length })) : null,
    noted.length ? h("ul", { class: "noted" }, noted) : h("p", { class: "muted" }, t("import.noVerdicts")),
    h("details", { class: "record-pgn" },
      h("summary", {}, t("import.recordText")),
      h("pre", { class: "record-text", tabindex: 0 }, imported.record)));
}

/**
 * What to load first: a board, its rules, a FEN, moves, and which of them to
 * show; or a record's tree of positions, placed by the server.
 * @typedef {{ board: Variant, rules: Rules, fen: string, moves: string[], ply: number,
 *   tree?: import("../api-types.js").RecordNodeView[] }} Start
 */

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function analysisPage(view, args) {
  /** A game's record (an imported game's whole), shown under the board. @type {HTMLElement | null} */
  let record = null;
  /** My conditional moves, on my own correspondence game's board. @type {ReturnType<typeof conditionalsPanel> | null} */
  let conditionals = null;
  /** @type {Start} */
  let start = { board: "standard", rules: "asian", fen: standard.startFen, moves: [], ply: 0 };
  const [kind] = args;
  if (kind === "game") {
    const game = await readGame(args[1] ?? "");
    const moves = game.moves.map((m) => m.iccs);
    const ply = Math.max(0, Math.min(moves.length, Number(args[2] ?? moves.length) || 0));
    start = { board: game.variant, rules: game.rules, fen: game.start_fen, moves, ply };
    record = h("section", { class: "card game-record", id: "game-record" },
      recordDownload(gameRecordPath(game.id), game.variant === "standard"));
    if (takesConditionals(game)) {
      conditionals = conditionalsPanel({ game, path: () => ctl.state.tree?.path(ctl.state.tree.current) ?? [] });
    }
  } else if (kind === "imported" || kind === "masters") {
    const id = args[1] ?? "";
    const imported = await readImported(kind, id);
    const moves = imported.moves;
    const rules = imported.game.rules === "hex" ? "asian" : imported.game.rules;
    start = { board: "standard", rules, fen: imported.game.start_fen, moves, ply: moves.length, tree: imported.tree };
    record = importedRecord(imported, importedRecordPath(kind, id));
  } else if (isVariant(kind)) {
    start = { board: kind, rules: RULES[kind], fen: args.slice(1).join("/").trim() || BOARDS[kind].startFen, moves: [], ply: 0 };
  } else if (kind) {
    page(view, t("analysis.title"), h("p", { class: "message error" }, t("position.unknownBoard", { name: kind })));
    return;
  }

  const ctl = analysisController(start.board, start.rules);
  const drawn = analysisView(view, ctl);
  ctl.onChange((moved) => {
    drawn.render(moved);
    conditionals?.follow();
  });
  if (start.tree?.length) {
    ctl.plantRecord(start.tree);
  } else {
    const first = await ctl.line(start.fen, start.moves).catch((err) => {
      page(view, t("analysis.title"), h("p", { class: "message error", role: "alert" }, t("position.badFen", { problem: errorText(err) })),
        h("p", {}, h("a", { href: "#/analysis" }, t("analysis.fresh"))));
      return null;
    });
    if (!first) return;
    ctl.plant(first, start.ply);
  }
  drawn.listen();
  if (conditionals) {
    // Beside the tree of moves the lines are played in, not below the page.
    const tree = view.querySelector("#tree");
    if (tree) tree.after(conditionals.element);
    else view.append(conditionals.element);
    await conditionals.load();
  }
  if (record) view.append(record);
  const stopPrefs = onPrefsChange(() => {
    drawn.redraw();
    conditionals?.redraw();
  });
  return () => {
    drawn.stop();
    stopPrefs();
  };
}
