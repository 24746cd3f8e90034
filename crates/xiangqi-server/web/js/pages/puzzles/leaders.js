// The best puzzle solvers on a board (`#/puzzles/leaders[/hex]`).

import { card, listOr, page, userLink } from "../../components/layout.js";
import { boardName } from "../../components/puzzle-card.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { leaders } from "./endpoints.js";
import { modeBar } from "./modes.js";

/**
 * @param {HTMLElement} view
 * @param {import("./modes.js").Variant} variant
 */
export async function leadersPage(view, variant) {
  const r = await leaders(variant);
  page(view, t("puzzle.leaders"), modeBar({ kind: "leaders", variant }),
    card(boardName(variant),
      h("p", { class: "muted" }, t("puzzle.leadersNote")),
      listOr("leaders", r.leaders, (l) => h("li", {}, userLink(l.name), " ", h("span", { class: "num" }, String(l.rating)),
        " ", h("span", { class: "muted" }, tn("puzzle.attempts", l.attempts))), t("puzzle.noLeaders"))));
}
