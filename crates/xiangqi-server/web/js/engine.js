// Engine analysis as a stream of events: from the engine in the page (the
// WebAssembly module, in a worker) where it runs, which costs the server
// nothing and works offline; else from the server's engines as they stream
// (`GET /api/v1/analysis`, Server-Sent Events), read with fetch rather than
// EventSource, so that a refusal (too many analyses, a position the rules
// refuse) shows its reason. Both send the same events. Stopping ends the
// worker's search at once, or aborts the request (the server stops the
// search when it sees the stream closed).

import { ApiError } from "./api.js";
import { localEngine, localRules } from "./local.js";

/** What an analysis thinks unless it is stopped first: the server's own limits. */
const THINK_MS = 20_000;
const THINK_NODES = 60_000_000;

/** @typedef {import("./models.js").AnalysisEvent} AnalysisEvent */

/**
 * Splits Server-Sent Events text into complete events; answers the events and
 * what is left over (an event not yet complete).
 * @param {string} text
 * @returns {[AnalysisEvent[], string]}
 */
export function parseEvents(text) {
  /** @type {AnalysisEvent[]} */
  const events = [];
  const blocks = text.split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
    if (data) events.push(JSON.parse(data));
  }
  return [events, rest];
}

/**
 * Starts an analysis of the position after `moves` from `fen`; calls `onEvent`
 * for each event until the stream ends. Rejects with an ApiError when the
 * server refuses (then nothing runs). Answers a function that stops it.
 * @param {{ variant: string, rules: string, fen: string, moves: string[], lines: number }} what
 *   `lines`: how many lines of distinct first moves, best first
 * @param {(e: AnalysisEvent) => void} onEvent
 * @param {() => void} onEnd  after the last event, or when the connection drops
 */
export async function analyse(what, onEvent, onEnd) {
  const engine = await localEngine();
  const rules = await localRules();
  if (engine && rules) {
    try {
      const { variant, rules: ruleSet, fen, moves } = what;
      const turn = rules.line({ variant, rules: ruleSet, fen, moves }).positions.at(-1)?.turn ?? "red";
      return analyseHere(engine, what, turn, onEvent, onEnd);
    } catch {
      // A position the page's rules refuse: the server says why below.
    }
  }
  const query = new URLSearchParams({ variant: what.variant, rules: what.rules, fen: what.fen });
  if (what.moves.length) query.set("moves", what.moves.join(" "));
  if (what.lines > 1) query.set("lines", String(what.lines));
  const abort = new AbortController();
  const res = await fetch(`/api/v1/analysis?${query}`, {
    credentials: "same-origin", signal: abort.signal, headers: { Accept: "text/event-stream" },
  });
  if (!res.ok || !res.body) {
    const data = await res.json().catch(() => ({}));
    throw new ApiError(data.message || res.statusText, res.status, data.error, data.reason, data.params);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const [events, rest] = parseEvents(buffer + decoder.decode(value, { stream: true }));
        buffer = rest;
        for (const e of events) onEvent(e);
      }
    } catch {
      // Aborted, or the connection dropped: either way it has ended.
    }
    onEnd();
  })();
  return () => abort.abort();
}

/**
 * A score from the side to move's view, from Red's.
 * @param {import("./api-types.js").ScoreView} score
 * @param {"red" | "black"} turn
 * @returns {import("./api-types.js").ScoreView}
 */
function fromRed(score, turn) {
  if (turn === "red" || !("value" in score)) return score;
  return { ...score, value: -score.value };
}

/**
 * The analysis on the page's engine.
 * @param {import("./local.js").LocalEngine} engine
 * @param {{ variant: string, rules: string, fen: string, moves: string[], lines: number }} what
 * @param {"red" | "black"} turn  the side to move where the engine thinks
 * @param {(e: AnalysisEvent) => void} onEvent
 * @param {() => void} onEnd
 */
function analyseHere(engine, what, turn, onEvent, onEnd) {
  let live = true;
  const request = { op: "search", ...what, time: THINK_MS, nodes: THINK_NODES, lines: what.lines };
  engine.ask(request, (info) => {
    if (live) onEvent({ type: "info", ...info, red: fromRed(info.score, turn) });
  }).then((answer) => {
    const best = answer.lines[0];
    if (live) onEvent({ type: "done", best: best?.pv[0] ?? null, depth: best?.depth ?? 0, nodes: answer.nodes, reason: "limit" });
  }).catch(() => {
    // Stopped: the caller asked for it and knows.
  }).finally(() => {
    if (live) onEnd();
  });
  return () => {
    live = false;
    engine.stop();
  };
}
