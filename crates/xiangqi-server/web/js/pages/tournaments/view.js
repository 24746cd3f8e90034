// A tournament drawn: its terms, signing up or withdrawing, the standings with
// the tie-break, the entrants, the crosstable and the rounds with their games.

import { button, card, listOr, userLink } from "../../components/layout.js";
import { categoryName } from "../../components/ratings.js";
import { h } from "../../dom.js";
import { clockText, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { gameLink } from "../../links.js";
import { crosstable, roundBlock } from "./tables.js";
import { formatText, pointsText, statusText, tiebreakText } from "./words.js";

/** @typedef {import("../../dom.js").Child} Child */
/** @typedef {import("../../models.js").Entrant} Entrant */
/** @typedef {import("../../models.js").Tournament} Tournament */

/**
 * The tournament: its terms, what I may do now, the standings and entrants,
 * the crosstable and the rounds.
 * @param {Tournament} tour
 * @param {string | null} me
 * @param {{ join: () => void, leave: () => void, withdraw: () => void }} act
 */
export function tournamentBody(tour, me, act) {
  const mine = tour.entrants.find((e) => e.name === me) ?? null;
  const tiebreakName = t(tour.tiebreak === "buchholz" ? "tournament.buchholz" : "tournament.sonnebornBerger");
  const facts = h("dl", { class: "tournament-facts" },
    [[t("tournament.format"), formatText(tour)], [t("new.time"), clockText(tour.clock)],
      [t("ratings.category"), categoryName(tour.category)], [t("new.rules"), rulesName(tour.rules)],
      [t("tournament.players"), t("tournament.playersRange", { players: tour.players, min: tour.min_players, max: tour.max_players })],
      [t("tournament.status"), statusText(tour)], [t("tournament.tiebreak"), tiebreakName],
      [t("tournament.creator"), userLink(tour.creator)]]
      .map(([k, v]) => h("div", {}, h("dt", {}, k ?? ""), h("dd", {}, v ?? ""))));

  /** @type {Child} */
  let standing = null;
  if (!me) {
    standing = tour.status === "signup" ? h("p", { class: "muted" }, h("a", { href: "#/" }, t("tournament.visitor"))) : null;
  } else if (tour.status === "signup") {
    standing = mine
      ? h("p", { class: "tournament-standing" }, t("tournament.signedUp"),
        button(t("tournament.leave"), act.leave, { "data-action": "withdraw" }))
      : h("p", { class: "tournament-standing" },
        button(t("tournament.join"), act.join, { "data-action": "join", class: "primary" }),
        h("span", { class: "muted" }, t("tournament.joinHint")));
  } else if (tour.status === "running" && mine && mine.withdrawn_round === null) {
    const current = tour.schedule.find((r) => r.round === tour.round);
    const board = current?.pairings.find((p) => p.red === me || p.black === me);
    const now = board?.game && board.result === null
      ? h("a", { href: gameLink(board.game), class: "button-link primary", "data-action": "play" }, t("tournament.play"))
      : h("span", {}, t(board ? "tournament.waiting" : "tournament.resting"));
    standing = h("p", { class: "tournament-standing" }, now,
      button(t("tournament.withdraw"), act.withdraw, { "data-action": "withdraw" }));
  } else if (mine?.withdrawn_round) {
    standing = h("p", { class: "tournament-standing muted" }, t("tournament.youWithdrew", { round: mine.withdrawn_round }));
  }

  /** @param {Entrant} e */
  const entrantRow = (e) => h("li", { class: `entrant${e.name === me ? " mine" : ""}`, "data-user": e.name },
    e.seed ? h("span", { class: "place" }, String(e.seed)) : null,
    h("span", { class: "who" }, userLink(e.name)),
    e.rating ? h("span", { class: "muted small" }, String(e.rating)) : null,
    e.withdrawn_round ? h("span", { class: "muted small" }, t("tournament.withdrewIn", { round: e.withdrawn_round })) : null);

  const standings = tour.standings.length
    ? h("div", { class: "table-scroll" }, h("table", { class: "standings" },
      h("caption", { class: "sr-only" }, t("tournament.standings")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, t("leaders.rank")), h("th", { scope: "col" }, t("leaders.player")),
        h("th", { scope: "col", class: "num" }, t("tournament.points")), h("th", { scope: "col", class: "num", title: tiebreakName }, t(tour.tiebreak === "buchholz" ? "tournament.bhShort" : "tournament.sbShort")),
        h("th", { scope: "col", class: "num" }, t("tournament.wins")))),
      h("tbody", {}, tour.standings.map((s) => h("tr", { class: s.name === me ? "me" : "", "data-user": s.name },
        h("td", { class: "num" }, String(s.rank)),
        h("th", { scope: "row" }, userLink(s.name), s.withdrawn_round ? h("span", { class: "muted small" }, " · ", t("tournament.withdrawnShort")) : null),
        h("td", { class: "num strong" }, pointsText(s.points)), h("td", { class: "num" }, tiebreakText(s.tiebreak)),
        h("td", { class: "num" }, String(s.wins)))))))
    : h("p", { class: "muted" }, t("tournament.noStandings"));

  return h("div", { class: "tournament" },
    facts, standing,
    h("div", { class: "tournament-columns" },
      card(t("tournament.standings"), h("p", { class: "muted small" }, t(tour.tiebreak === "buchholz" ? "tournament.orderNote.buchholz" : "tournament.orderNote.sonneborn_berger")), standings),
      card(t("tournament.entrants"), listOr("entrants", tour.entrants, entrantRow, t("tournament.noEntrants")))),
    tour.standings.length ? card(t("tournament.crosstable"), crosstable(tour, me)) : null,
    tour.schedule.length ? card(t("tournament.rounds"), tour.schedule.map((r) => roundBlock(r, tour, me))) : null);
}
