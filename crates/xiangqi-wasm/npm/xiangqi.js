// The xiangqi rules and engine, compiled to WebAssembly, for browsers and
// Node.js. The module takes one request at a time as JSON and answers in
// JSON; this file writes the request into the module's memory, calls it, and
// reads the answer back. A search blocks the thread it runs on: in a page,
// run it in a worker (see `startWorker`).

/**
 * A refusal from the module: `reason` is stable (`illegal_move`,
 * `bad_position`, ...), the message is in English.
 */
export class XiangqiError extends Error {
  /**
   * @param {string} reason
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.name = "XiangqiError";
    this.reason = reason;
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The module file beside this one. */
const defaultSource = () => new URL("./xiangqi_wasm.wasm", import.meta.url);

/**
 * Reads the module's bytes: from a URL (fetched; a file: URL is read from
 * disk under Node.js), a Response, or the bytes themselves.
 * @param {URL | string | Response | BufferSource} source
 * @returns {Promise<BufferSource>}
 */
async function bytesOf(source) {
  if (source instanceof Response) return source.arrayBuffer();
  if (typeof source === "string" || source instanceof URL) {
    const url = new URL(source, typeof location === "undefined" ? import.meta.url : location.href);
    if (url.protocol === "file:") {
      const { readFile } = await import("node:fs/promises");
      return readFile(url);
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
    return response.arrayBuffer();
  }
  return source;
}

/**
 * Loads the module. Each loaded module has its own engine (and its own
 * transposition table, which one search leaves to the next).
 * @param {URL | string | Response | BufferSource} [source]  the module file; the one beside this file by default
 */
export async function load(source = defaultSource()) {
  /** @type {(text: string) => void} */
  let onInfo = () => {};
  /** @type {WebAssembly.Memory | null} */
  let memory = null;
  const env = {
    now_ms: () => performance.now(),
    /** @param {number} ptr @param {number} len */
    info: (ptr, len) => {
      if (memory) onInfo(decoder.decode(new Uint8Array(memory.buffer, ptr, len)));
    },
  };
  const { instance } = await WebAssembly.instantiate(await bytesOf(source), { env });
  const exports = /** @type {any} */ (instance.exports);
  memory = exports.memory;

  /**
   * Sends a request, answers its answer; a refusal is thrown.
   * @param {object} request
   * @param {(info: any) => void} [info]  told each engine report
   */
  function ask(request, info) {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = exports.buffer(bytes.length);
    new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
    onInfo = info ? (text) => info(JSON.parse(text)) : () => {};
    let len;
    try {
      len = exports.call(bytes.length);
    } finally {
      onInfo = () => {};
    }
    const answer = JSON.parse(decoder.decode(new Uint8Array(exports.memory.buffer, exports.output(), len)));
    if (answer && typeof answer === "object" && "error" in answer && !Array.isArray(answer)) {
      throw new XiangqiError(answer.error.reason, answer.error.message);
    }
    return answer;
  }

  return {
    ask,
    /** Every position from a start after some moves (any notation). @param {any} [spec] */
    line: (spec = {}) => ask({ op: "line", ...spec }),
    /** The legal moves (ICCS) of a position. @param {any} [spec] */
    legalMoves: (spec = {}) => {
      const positions = ask({ op: "line", ...spec }).positions;
      return positions[positions.length - 1].legal;
    },
    /** Leaf nodes `depth` moves deep. @param {any} spec */
    perft: (spec) => ask({ op: "perft", ...spec }).nodes,
    /**
     * The engine thinks (blocking): give `depth`, `nodes` or `time` (ms), and
     * `lines` for MultiPV; `info` is told each depth of each line.
     * @param {any} spec
     * @param {(info: any) => void} [info]
     */
    search: (spec, info) => ask({ op: "search", ...spec }, info),
    /** The engine's benchmark (its node count is the search's signature). @param {number} [depth] */
    bench: (depth) => ask(depth === undefined ? { op: "bench" } : { op: "bench", depth }),
    /** The games of a PGN text. @param {string} text */
    readPgn: (text) => ask({ op: "pgn_read", text }),
    /** A game as PGN. @param {any} spec */
    writePgn: (spec) => ask({ op: "pgn_write", ...spec }).text,
    /** Forgets what the engine learnt. */
    newGame: () => ask({ op: "new_game" }),
  };
}

/**
 * An engine in a Web Worker, so that a page never freezes while it thinks.
 * `search` streams the engine's reports to `info` and resolves with its
 * answer; `stop` ends the search under way at once (the worker is replaced,
 * so the next search starts with an empty table).
 * @param {URL | string} [workerUrl]  `worker.js` of this package
 * @param {URL | string} [wasmUrl]  the module file
 */
export function startWorker(workerUrl = new URL("./worker.js", import.meta.url), wasmUrl = defaultSource()) {
  /** @type {Worker} */
  let worker;
  let next = 1;
  /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void, info?: (i: any) => void }>} */
  const waiting = new Map();

  function spawn() {
    worker = new Worker(workerUrl, { type: "module" });
    worker.postMessage({ wasm: String(wasmUrl) });
    worker.onmessage = (e) => {
      const { id, info, answer, error } = e.data;
      const job = waiting.get(id);
      if (!job) return;
      if (info) job.info?.(info);
      else {
        waiting.delete(id);
        if (error) job.reject(new XiangqiError(error.reason, error.message));
        else job.resolve(answer);
      }
    };
  }
  spawn();

  return {
    /**
     * @param {object} request  as `ask` takes it
     * @param {(info: any) => void} [info]
     */
    ask(request, info) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, info });
        worker.postMessage({ id, request });
      });
    },
    /** Ends what the worker is doing; whatever waited is refused with `stopped`. */
    stop() {
      worker.terminate();
      for (const job of waiting.values()) job.reject(new XiangqiError("stopped", "stopped"));
      waiting.clear();
      spawn();
    },
    /** Ends the worker for good. */
    close() {
      worker.terminate();
      waiting.clear();
    },
  };
}
