#!/usr/bin/env node
// Answers requests from standard input, one JSON object a line, with one
// answer a line on standard output: `{"answer": ...}`, `{"error": ...}`, and
// `{"info": ...}` lines before a search's answer. For tests and scripts:
//   echo '{"op":"perft","depth":3}' | node stdio.mjs [module.wasm]

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { XiangqiError, load } from "./xiangqi.js";

const source = process.argv[2] ? pathToFileURL(process.argv[2]) : undefined;
const xq = await load(source);
const out = (value) => process.stdout.write(JSON.stringify(value) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  try {
    out({ answer: xq.ask(JSON.parse(line), (info) => out({ info })) });
  } catch (err) {
    out({ error: err instanceof XiangqiError ? { reason: err.reason, message: err.message } : { reason: "failed", message: String(err) } });
  }
}
