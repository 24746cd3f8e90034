// Reads the UI's modules and reports how they hang together: imports from one page
// to another, import circles, API paths written inline in page code and the longest
// functions. With --check it fails when any of the first three is present, so
// `npm run check` keeps pages apart and every API path in its family's endpoints
// module.
//
//   node tools/imports.mjs            figures and the offenders
//   node tools/imports.mjs --check    the same, exit status 1 on a finding

import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../js");
const LONGEST_SHOWN = 5;

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

/** The page a module belongs to (`pages/x.js` and `pages/x/...` are page x), or null. */
function pageOf(/** @type {string} */ file) {
  const match = /^pages\/([^/.]+)/.exec(file);
  return match ? match[1] : null;
}

// An endpoints module is where a page family's API paths belong.
const isEndpoints = (/** @type {string} */ file) => /(^|\/)endpoints\.js$/.test(file);

// An API path is text that starts at the root with a word: "/studies/", `/games/${id}`.
// Hash links ("#/analysis") and the server's own files are not calls to the API.
const API_PATH = /^\/(?!js\/|style\.css|favicon)[a-z]/;

/** @param {string} file @param {string} text */
function readModule(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  /** @type {string[]} */
  const imports = [];
  /** @type {{ line: number, text: string }[]} */
  const apiPaths = [];
  /** @type {{ name: string, line: number, lines: number }[]} */
  const functions = [];
  const lineOf = (/** @type {number} */ pos) => source.getLineAndCharacterOfPosition(pos).line + 1;

  /** @param {ts.Node} node */
  function visit(node) {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const spec = /** @type {ts.StringLiteral} */ (node.moduleSpecifier).text;
      if (spec.startsWith(".")) imports.push(relative(ROOT, resolve(dirname(join(ROOT, file)), spec)));
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      if (API_PATH.test(node.text)) apiPaths.push({ line: lineOf(node.getStart()), text: node.text });
    }
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      functions.push({ name: functionName(node), line: lineOf(node.getStart()), lines: lineOf(node.end) - lineOf(node.getStart()) + 1 });
    }
    ts.forEachChild(node, visit);
  }
  visit(source);
  return { imports, apiPaths, functions };
}

/** @param {ts.Node} node */
function functionName(node) {
  const named = /** @type {{ name?: ts.Node }} */ (node).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return "(anonymous)";
}

/** Strongly connected groups of more than one module, or one importing itself (Tarjan). */
function circles(/** @type {Map<string, string[]>} */ graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const found = [];
  /** @param {string} v */
  function connect(v) {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    /** @type {string[]} */
    const group = [];
    let w;
    do {
      w = /** @type {string} */ (stack.pop());
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
  }
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

const files = jsFiles(ROOT).map((path) => relative(ROOT, path)).sort();
/** @type {Map<string, string[]>} */
const graph = new Map();
/** @type {string[]} */
const pageImports = [];
/** @type {string[]} */
const inlinePaths = [];
/** @type {{ where: string, lines: number }[]} */
const longest = [];
for (const file of files) {
  const module = readModule(file, readFileSync(join(ROOT, file), "utf8"));
  graph.set(file, module.imports);
  const page = pageOf(file);
  for (const target of module.imports) {
    const other = pageOf(target);
    if (page && other && other !== page) pageImports.push(`${file} -> ${target}`);
  }
  if (page && !isEndpoints(file)) {
    for (const { line, text } of module.apiPaths) inlinePaths.push(`${file}:${line} ${JSON.stringify(text)}`);
  }
  for (const f of module.functions) longest.push({ where: `${file}:${f.line} ${f.name}`, lines: f.lines });
}
const loops = circles(graph);
longest.sort((a, b) => b.lines - a.lines);

const list = (/** @type {string[]} */ items) => items.map((item) => `  ${item}\n`).join("");
process.stdout.write(
  `modules: ${files.length}\n` +
    `page-to-page imports: ${pageImports.length}\n${list(pageImports)}` +
    `import circles: ${loops.length}\n${list(loops.map((group) => group.join(" <-> ")))}` +
    `inline API paths in page code: ${inlinePaths.length}\n${list(inlinePaths)}` +
    `longest functions (lines):\n${list(longest.slice(0, LONGEST_SHOWN).map((f) => `${f.lines} ${f.where}`))}`,
);
if (process.argv.includes("--check") && (pageImports.length || loops.length || inlinePaths.length)) {
  process.stderr.write("imports: pages must not import pages, modules must not import in a circle, API paths belong in endpoints modules\n");
  process.exit(1);
}
