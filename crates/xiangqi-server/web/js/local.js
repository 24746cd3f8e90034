// The rules and the engine in the page: the WebAssembly module the server
// sends under /wasm/, so that a position's legal moves and an analysis cost
// the server nothing, answer without a round trip, and go on working with
// the network gone. The rules run in the page (a line of moves takes well
// under a millisecond); the engine runs in a worker, so the page never
// freezes while it thinks. Where WebAssembly is missing, or the server was
// built without the module, both answer null and the callers ask the server.

// Variables, not literals: these are the server's files, not modules the
// type check could read.
/** @type {string} */
let loaderUrl = "/wasm/xiangqi.js";
const WORKER = "/wasm/worker.js";
/** The module's path, named by its content (the page says it; empty when the server has none). */
const MODULE = document.querySelector("meta[name=xiangqi-wasm]")?.getAttribute("content") ?? "";

/**
 * The parts of the module's interface the UI uses (its own types are in the
 * package's xiangqi.d.ts).
 * @typedef {{ line: (request: object) => import("./models.js").LineAnswer }} LocalRules
 * @typedef {{ ask: (request: object, info?: (info: any) => void) => Promise<any>, stop: () => void }} LocalEngine
 */

/** @type {Promise<any> | null} */
let loader = null;
/** @type {Promise<LocalRules | null> | null} */
let rules = null;
/** @type {LocalEngine | null} */
let engine = null;

function loaderModule() {
  if (typeof WebAssembly !== "object" || !MODULE) return Promise.resolve(null);
  return (loader ??= import(loaderUrl).catch(() => null));
}

/** The rules in the page, once loaded; null where they cannot run. */
export function localRules() {
  return (rules ??= loaderModule().then((m) => (m ? m.load(MODULE) : null)).catch(() => null));
}

/**
 * The engine in a worker; null where the module cannot run here.
 * @returns {Promise<LocalEngine | null>}
 */
export async function localEngine() {
  if (!(await localRules())) return null;
  const m = await loaderModule();
  return (engine ??= m.startWorker(WORKER, MODULE));
}
