// Game Rules: the object of the game, the board, every piece with a diagram of
// its moves, the generals' special rule, how a game ends, and each rule set this
// site offers, with diagrams drawn by the board component. Open to visitors.

import { diagram } from "../components/diagram.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { helpNav } from "../components/help-nav.js";

/** @typedef {import("../i18n.js").TextKey} TextKey */
/** @typedef {import("../components/diagram.js").DiagramSpec} DiagramSpec */

/**
 * A section: a heading, paragraphs, and diagrams.
 * @param {string} id
 * @param {TextKey} title
 * @param {TextKey[]} paragraphs
 * @param {DiagramSpec[]} [diagrams]
 */
function part(id, title, paragraphs, diagrams = []) {
  return h("section", { id: `rules-${id}` },
    h("h2", {}, t(title)),
    paragraphs.map((key) => h("p", {}, t(key))),
    diagrams.length ? h("div", { class: "diagrams" }, diagrams.map(diagram)) : null);
}

/** @param {HTMLElement} view */
export function rulesPage(view) {
  const sections = [
    part("object", "rules.object.title", ["rules.object.text", "rules.object.first"]),
    part("board", "rules.board.title", ["rules.board.text", "rules.board.hex"], [
      { fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", caption: t("rules.board.start") },
    ]),
    part("general", "rules.general.title", ["rules.general.text"], [
      { fen: "3k5/9/9/9/9/9/9/9/4K4/9", dots: ["e0", "e2", "d1", "f1"], caption: t("rules.general.dia") },
    ]),
    part("facing", "rules.facing.title", ["rules.facing.text"], [
      { fen: "4k4/9/9/9/9/9/9/9/3K5/9", dots: ["d0", "d2"], caption: t("rules.facing.dia") },
    ]),
    part("advisor", "rules.advisor.title", ["rules.advisor.text"], [
      { fen: "3k5/9/9/9/9/9/9/9/4A4/4K4", dots: ["d0", "f0", "d2", "f2"], caption: t("rules.advisor.dia") },
    ]),
    part("elephant", "rules.elephant.title", ["rules.elephant.text"], [
      { fen: "3k5/9/9/9/9/9/5n3/4B4/9/4K4", dots: ["c0", "g0", "c4"], caption: t("rules.elephant.dia") },
    ]),
    part("horse", "rules.horse.title", ["rules.horse.text"], [
      { fen: "3k5/9/9/9/9/4Np3/9/9/9/4K4", dots: ["d6", "f6", "d2", "f2", "c5", "c3"], caption: t("rules.horse.dia") },
    ]),
    part("chariot", "rules.chariot.title", ["rules.chariot.text"], [
      {
        fen: "3k5/9/4c4/9/9/2P1R4/9/9/9/5K3",
        dots: ["e5", "e6", "e7", "e3", "e2", "e1", "e0", "d4", "f4", "g4", "h4", "i4"],
        caption: t("rules.chariot.dia"),
      },
    ]),
    part("cannon", "rules.cannon.title", ["rules.cannon.text"], [
      {
        fen: "3k5/9/4n4/9/4p4/9/9/4C4/9/5K3",
        dots: ["e3", "e4", "e7", "e1", "e0", "a2", "b2", "c2", "d2", "f2", "g2", "h2", "i2"],
        caption: t("rules.cannon.dia"),
      },
    ]),
    part("soldier", "rules.soldier.title", ["rules.soldier.text"], [
      { fen: "3k5/9/9/6P2/9/9/2P6/9/9/5K3", dots: ["c4", "g7", "f6", "h6"], caption: t("rules.soldier.dia") },
    ]),
    part("end", "rules.end.title", ["rules.end.check", "rules.end.mate", "rules.end.stalemate", "rules.end.draw"], [
      { fen: "R2k5/8R/9/9/9/9/9/9/9/4K4", check: "black", last: "a0a9", caption: t("rules.end.mateDia") },
      { fen: "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3K5", caption: t("rules.end.drawDia") },
    ]),
    part("sets", "rules.sets.title", ["rules.sets.text"]),
    part("asian", "rules.asian.title", ["rules.asian.text", "rules.asian.chase"], [
      { fen: "3k5/9/9/R1n6/9/9/9/9/9/4K4", last: "a4a6", caption: t("rules.asian.dia") },
    ]),
    part("itsyourturn", "rules.iyt.title", ["rules.iyt.text", "rules.iyt.chase"], [
      { fen: "4k4/9/9/9/4R4/9/9/9/9/3K5", check: "black", last: "d5e5", caption: t("rules.iyt.dia") },
    ]),
    part("casual", "rules.casual.title", ["rules.casual.text"]),
    part("hex", "rules.hex.title", ["rules.hex.text", "rules.hex.moves", "rules.hex.end"], [
      {
        hexBoard: true, fen: "rnbak/pc3a/2p3b/4p2n/6pcr/P7p/RCP6/-N2P4/--B3P2/---A3CP/----KABNR",
        dots: ["e2", "f2", "g2", "h3", "h4", "h5", "h6", "h8"], caption: t("rules.hex.dia"),
      },
    ]),
  ];
  const toc = h("ul", { class: "toc" }, sections.map((s) => {
    const heading = s.querySelector("h2");
    return h("li", {}, h("a", { href: `#${s.id}`, onclick: (e) => { e.preventDefault(); s.scrollIntoView(); } }, heading?.textContent ?? ""));
  }));
  view.replaceChildren(h("div", { class: "help rules" }, helpNav("rules"), h("h1", {}, t("rules.title")), h("p", { class: "lead" }, t("rules.lead")), toc, sections));
}
