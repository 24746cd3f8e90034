// The server's engine analysis, read as it streams (`GET /api/v1/analysis`,
// Server-Sent Events). Read with fetch rather than EventSource, so that a
// refusal (too many analyses, a position the rules refuse) shows its reason.
// Stopping aborts the request; the server stops the search when it sees the
// stream closed.

import { ApiError } from "./api.js";

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
