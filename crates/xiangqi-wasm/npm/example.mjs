// The README's examples, run as the package's test (`npm test`).

import assert from "node:assert/strict";
import { XiangqiError, load } from "./xiangqi.js";

const xq = await load();

// Legal moves.
const start = xq.legalMoves();
assert.equal(start.length, 44);
assert.ok(start.includes("h2e2"));

// A game under a rule set, moves in any notation.
const line = xq.line({ rules: "asian", moves: ["h2e2", "H8+7", "马二进三"] });
const last = line.positions.at(-1);
assert.equal(last.played.wxf, "H2+3");
assert.equal(last.turn, "black");
assert.throws(() => xq.line({ moves: ["h2h8"] }), (e) => e instanceof XiangqiError && e.reason === "illegal_move");

// Mate is an outcome.
const mate = xq.line({ fen: "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", moves: ["a0a9"] }).positions.at(-1);
assert.equal(mate.outcome.reason, "checkmate");
assert.equal(mate.outcome.winner, "red");

// PGN, written and read back.
const pgn = xq.writePgn({ moves: ["h2e2", "h9g7"], tags: [["Red", "Hu"]], notation: "chinese" });
assert.match(pgn, /炮二平五/);
assert.deepEqual(xq.readPgn(pgn)[0].moves.map((m) => m.iccs), ["h2e2", "h9g7"]);

// The engine: a depth report per line, then the answer.
const reports = [];
const found = xq.search({ fen: "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", depth: 4, lines: 2 }, (i) => reports.push(i));
assert.equal(found.best, "a0a9");
assert.deepEqual(found.lines[0].score, { kind: "mate", value: 1 });
assert.ok(reports.some((r) => r.line === 2));

// Xiang Hex.
assert.equal(xq.perft({ variant: "hex", depth: 2 }), 874);

console.log("ok: legal moves, rule sets, notation, PGN, the engine and Xiang Hex");
