// Building DOM nodes without markup strings: the page must run under a
// Content-Security-Policy that forbids inline script and style.

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs */

/**
 * Appends children, skipping empty ones, text as text nodes.
 * @param {Element} node
 * @param {(Child | Child[])[]} children
 */
function appendAll(node, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * Sets attributes; `on...` keys become event listeners (never handler attributes).
 * @param {Element} node
 * @param {Attrs} attrs
 */
function setAll(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : String(v));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAll(node, attrs);
  appendAll(node, children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element, appended to `parent` when one is given.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {Element | null} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  setAll(node, attrs);
  if (parent) parent.append(node);
  return node;
}

/**
 * The element a selector names; throws if the page lacks it (a programming error).
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(selector, root = document) {
  const node = root.querySelector(selector);
  if (!(node instanceof HTMLElement)) throw new Error(`missing ${selector}`);
  return node;
}
