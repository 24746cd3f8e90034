// A tournament's tables: the crosstable and each round's boards.

import { userLink } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { gameLink } from "../../links.js";
import { pointsText, resultMark } from "./words.js";

/** @typedef {import("../../dom.js").Child} Child */
/** @typedef {import("../../models.js").Pairing} Pairing */
/** @typedef {import("../../models.js").Round} Round */
/** @typedef {import("../../models.js").CrossCell} Cell */
/** @typedef {import("../../models.js").Tournament} Tournament */

/**
 * The crosstable: a round-robin as a grid of everyone against everyone, a
 * Swiss as each player's rounds (result and opponent's rank).
 * @param {Tournament} tour
 * @param {string | null} me
 */
export function crosstable(tour, me) {
  const rank = new Map(tour.standings.map((s) => [s.name, s.rank]));
  /** @param {Cell} c */
  const title = (c) => c.opponent
    ? t("tournament.cellTitle", { round: c.round, opponent: c.opponent, color: t(c.color === "red" ? "color.red" : "color.black"), result: resultMark(c.result) })
    : t("tournament.byeTitle", { round: c.round });
  /** @param {Cell | undefined} c @param {Child} text */
  const cell = (c, text) => {
    if (!c) return h("td", { class: "cross empty" });
    const content = c.game ? h("a", { href: gameLink(c.game) }, text) : text;
    return h("td", { class: `cross ${c.color ?? "bye"} ${c.result ?? "pending"}`, title: title(c) }, content);
  };
  const roundRobin = tour.format === "round_robin";
  const columns = roundRobin ? tour.standings.map((s) => String(s.rank)) : tour.schedule.map((r) => String(r.round));
  const head = h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, t("leaders.player")),
    columns.map((c) => h("th", { scope: "col", class: "num" }, roundRobin ? c : t("tournament.roundShort", { round: c }))),
    h("th", { scope: "col", class: "num" }, t("tournament.points")));
  const rows = tour.standings.map((s) => h("tr", { class: s.name === me ? "me" : "", "data-user": s.name },
    h("td", { class: "num" }, String(s.rank)), h("th", { scope: "row" }, s.name),
    roundRobin
      ? tour.standings.map((o) => o.name === s.name ? h("td", { class: "cross self" }, "■")
        : cell(s.results.find((c) => c.opponent === o.name), resultMark(s.results.find((c) => c.opponent === o.name)?.result ?? null)))
      : tour.schedule.map((r) => {
        const c = s.results.find((x) => x.round === r.round);
        return cell(c, c ? `${resultMark(c.result)}${c.opponent ? ` ${rank.get(c.opponent) ?? ""}` : ""}` : "");
      }),
    h("td", { class: "num strong" }, pointsText(s.points))));
  return h("div", { class: "table-scroll" }, h("table", { class: "crosstable", "data-format": tour.format },
    h("caption", { class: "sr-only" }, t("tournament.crosstable")), h("thead", {}, head), h("tbody", {}, rows)));
}

/**
 * A round's boards: the players, the result, the game.
 * @param {Round} r
 * @param {Tournament} tour
 * @param {string | null} me
 */
export function roundBlock(r, tour, me) {
  /** @param {Pairing} p */
  const board = (p) => {
    const result = p.result === null ? (p.game ? t("tournament.playing") : t("tournament.notYet"))
      : p.result === "bye" ? t("tournament.bye")
      : p.result === "draw" ? "½–½"
      : p.result === "red" ? "1–0"
      : p.result === "black" ? "0–1"
      : p.result === "red_by_forfeit" ? "+/−" : "−/+";
    const mineClass = p.red === me || p.black === me ? " mine" : "";
    return h("li", { class: `board${mineClass}`, "data-board": p.board, "data-key": `${r.round}-${p.board}` },
      h("span", { class: "players" }, h("span", { class: "red-side" }, userLink(p.red)),
        p.black ? [" – ", h("span", { class: "black-side" }, userLink(p.black))] : null),
      h("span", { class: "score" }, result),
      p.game ? h("a", { href: gameLink(p.game), "data-action": "game" }, t(p.result === null && mineClass ? "tournament.play" : "tournament.game")) : null);
  };
  const current = tour.status === "running" && r.round === tour.round;
  return h("section", { class: `round${current ? " current" : ""}`, "data-round": r.round },
    h("h3", {}, t("tournament.round", { round: r.round }), current ? h("span", { class: "muted small" }, " · ", t("tournament.now")) : null),
    h("ul", { class: "boards" }, r.pairings.map(board)),
    r.sitting_out.length ? h("p", { class: "muted small" }, t("tournament.sittingOut", { names: r.sitting_out.join(", ") })) : null);
}
