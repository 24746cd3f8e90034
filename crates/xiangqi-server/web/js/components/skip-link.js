// The first thing on every page, before the header, so that a screen reader
// meets it first: a link to the screen-reader mode's setting that says
// whether the mode is on. It shows only while it has the keyboard focus, as
// such links do, so the page looks the same to everyone else.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { onPrefsChange, prefs } from "../prefs.js";

/** @type {HTMLAnchorElement | null} */
let link = null;

function label() {
  if (link) link.textContent = t(prefs().screen_reader ? "a11y.link.on" : "a11y.link.off");
}

/** Puts the link at the top of the page once; later calls only update its words. */
export function screenReaderLink() {
  if (!link) {
    link = /** @type {HTMLAnchorElement} */ (h("a", { id: "screen-reader-link", class: "skip-link", href: "#/settings/screen-reader" }));
    document.body.prepend(link);
    onPrefsChange(label);
  }
  label();
}
