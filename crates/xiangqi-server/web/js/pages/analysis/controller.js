// The analysis board's state and what it asks the server: the board and rules
// analysed under, the tree of moves and the position shown in it, which way up
// the board is, and whether a position is being set up. Every position comes
// from the server (`POST /positions`), which applies the rules. The views read
// `state` and call the functions here; each change is told to `onChange`'s
// listener, with `moved` when another position is shown (the engine follows it).

import * as api from "../../api.js";
import { hex } from "../../components/board-hex.js";
import { standard } from "../../components/board-standard.js";
import { errorText } from "../../errors.js";
import { MoveTree } from "../../components/move-tree.js";

/** @typedef {import("../../components/geometry.js").Geometry} Geometry */
/** @typedef {import("../../models.js").LineAnswer} LineAnswer */
/** @typedef {import("../../api-types.js").LineRequest} LineRequest */
/** @typedef {import("../../components/move-tree.js").Node} Node */
/** @typedef {import("../../models.js").Game["variant"]} Variant */
/** @typedef {import("../../models.js").Game["rules"]} Rules */

/** @type {Record<Variant, Geometry>} */
export const BOARDS = { standard, hex };
/** The rules each board is analysed under unless a game says otherwise. @type {Record<Variant, Rules>} */
export const RULES = { standard: "asian", hex: "hex" };

/**
 * Whether a name (from the address or a menu) is a board's.
 * @param {string | undefined} name
 * @returns {name is Variant}
 */
export const isVariant = (name) => name === "standard" || name === "hex";

/**
 * @typedef {object} AnalysisState
 * @property {Variant} variant  the board
 * @property {Rules} rules
 * @property {Geometry} geometry  the board's
 * @property {MoveTree | null} tree  null until the first line is read
 * @property {boolean} flipped  Black at the bottom
 * @property {boolean} editing  a position is being set up: the moves stand still
 */

/** @typedef {ReturnType<typeof analysisController>} AnalysisController */

/**
 * @param {Variant} variant  the board first analysed
 * @param {Rules} rules
 */
export function analysisController(variant, rules) {
  /** @type {AnalysisState} */
  const state = { variant, rules, geometry: BOARDS[variant], tree: null, flipped: false, editing: false };
  /** @type {(moved: boolean) => void} */
  let onChange = () => {};

  /**
   * A line from the server: every position from `fen` after `moves`.
   * @param {string} fen
   * @param {string[]} moves
   * @returns {Promise<LineAnswer>}
   */
  function line(fen, moves) {
    /** @type {LineRequest} */
    const body = { variant: state.variant, rules: state.rules, fen, moves };
    return api.line(body);
  }

  /**
   * Makes the tree anew from a line, showing the position after `ply` moves.
   * @param {LineAnswer} answer
   * @param {number} ply
   */
  function plant(answer, ply) {
    const tree = MoveTree.of(answer.positions, ply);
    if (!tree) return;
    state.tree = tree;
    onChange(true);
  }

  /**
   * Makes the tree anew from a record's tree of positions.
   * @param {import("../../components/move-tree.js").RecordNode[]} nodes
   */
  function plantRecord(nodes) {
    const tree = MoveTree.ofRecord(nodes);
    if (!tree) return;
    state.tree = tree;
    onChange(true);
  }

  /** @param {Node} node */
  function goTo(node) {
    if (state.editing || !state.tree) return;
    state.tree.current = node;
    onChange(true);
  }

  return {
    state,
    line,
    plant,
    plantRecord,
    goTo,
    /** @param {(moved: boolean) => void} fn  told of every change from now on */
    onChange(fn) {
      onChange = fn;
    },
    /**
     * Loads a position on a board, with its rules. Answers what is wrong with
     * it, or "" (the board and rules stay as they were when it is refused).
     * @param {Variant} name
     * @param {Rules} withRules
     * @param {string} fen
     */
    async loadFen(name, withRules, fen) {
      const before = { variant: state.variant, rules: state.rules, geometry: state.geometry };
      state.variant = name;
      state.rules = withRules;
      state.geometry = BOARDS[name];
      try {
        plant(await line(fen, []), 0);
        return "";
      } catch (err) {
        Object.assign(state, before);
        return errorText(err);
      }
    },
    /**
     * Another board to set a position up on, under its usual rules.
     * @param {Variant} name
     */
    setBoard(name) {
      state.geometry = BOARDS[name];
      state.variant = name;
      state.rules = RULES[name];
    },
    /**
     * Plays a move from the position shown: the same move as a move already
     * there goes to it; another starts a variation. Answers what is wrong
     * with it, or "".
     * @param {string} move
     */
    async play(move) {
      const tree = state.tree;
      if (!tree) return "";
      const from = tree.current;
      const known = tree.find(from, move);
      if (known) {
        goTo(known);
        return "";
      }
      try {
        const at = (await line(from.at.fen, [move])).positions[1];
        if (at) goTo(tree.add(from, at));
        return "";
      } catch (err) {
        return errorText(err);
      }
    },
    back() {
      const parent = state.tree?.current.parent;
      if (parent) goTo(parent);
    },
    forward() {
      const next = state.tree?.current.children[0];
      if (next) goTo(next);
    },
    first() {
      if (state.tree) goTo(state.tree.root);
    },
    last() {
      if (state.tree) goTo(state.tree.mainEnd(state.tree.current));
    },
    flip() {
      state.flipped = !state.flipped;
      onChange(false);
    },
    /** @param {boolean} editing */
    edit(editing) {
      state.editing = editing;
    },
  };
}
