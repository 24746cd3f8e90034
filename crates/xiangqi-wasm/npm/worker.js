// The module in a Web Worker: the first message names the module file; each
// later one is `{ id, request }`, answered by `{ id, info }` for each engine
// report and then `{ id, answer }` or `{ id, error }`. Requests are answered
// one at a time, in order.

import { XiangqiError, load } from "./xiangqi.js";

/** @type {Promise<Awaited<ReturnType<typeof load>>> | null} */
let module = null;

self.onmessage = async (e) => {
  const data = e.data;
  if (data.wasm) {
    module = load(data.wasm);
    return;
  }
  const { id, request } = data;
  try {
    if (!module) module = load();
    const xq = await module;
    const answer = xq.ask(request, (info) => self.postMessage({ id, info }));
    self.postMessage({ id, answer });
  } catch (err) {
    const error = err instanceof XiangqiError
      ? { reason: err.reason, message: err.message }
      : { reason: "failed", message: String(err) };
    self.postMessage({ id, error });
  }
};
