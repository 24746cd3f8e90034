// Tournaments: `#/tournaments` lists those taking entries, running and over,
// with a form to create one; `#/tournament/{id}` shows one: its terms, sign up
// or withdraw, its entrants, the rounds with their games, the standings with
// the tie-break, and the crosstable. Visitors may read. Both pages follow the
// server live: a tournament's change (an entry, a round, its end) redraws them.

import * as api from "../api.js";
import { onSubmit } from "../components/form.js";
import { button, card, listOr, page, swapKeepingFocus, userLink } from "../components/layout.js";
import { categoryName } from "../components/ratings.js";
import { rulesSelect } from "../components/terms.js";
import { h } from "../dom.js";
import { clockText, rulesName } from "../format.js";
import { lang, t, tn } from "../i18n.js";
import { onTournament } from "../live.js";
import { attempt, say, sayError } from "../notify.js";
import { go } from "../router.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").ClockSpec} ClockSpec */
/** @typedef {import("../models.js").Category} Category */
/** @typedef {import("../i18n.js").TextKey} TextKey */
/** @typedef {import("../dom.js").Child} Child */

/** @typedef {import("../models.js").TournamentSummary} Summary */
/** @typedef {import("../models.js").Entrant} Entrant */
/** @typedef {import("../models.js").PairingResult} PairingResult */
/** @typedef {import("../models.js").Pairing} Pairing */
/** @typedef {import("../models.js").Round} Round */
/** @typedef {import("../models.js").PlayerResult} PlayerResult */
/** @typedef {import("../models.js").CrossCell} Cell */
/** @typedef {import("../models.js").Standing} Standing */
/** @typedef {import("../models.js").Tournament} Tournament */

/**
 * Time controls a tournament is offered with: the seed's two correspondence
 * kinds first, then days, then live clocks (value: `c{hours}` or `l{min}+{sec}`).
 * @type {[string, TextKey | null][]}
 */
const TIMES = [["c48", "tournament.kind.main"], ["c28", "tournament.kind.fast"], ["c72", null], ["c24", null],
  ["l10+5", null], ["l5+3", null], ["l30+20", null]];

/** @param {string} value */
function clockOf(value) {
  if (value.startsWith("c")) return /** @type {ClockSpec} */ ({ kind: "correspondence", hours: Number(value.slice(1)) });
  const [base = 0, inc = 0] = value.slice(1).split("+").map(Number);
  return /** @type {ClockSpec} */ ({ kind: "live", base: base * 60000, increment: inc * 1000 });
}

/** @param {number} ms */
const dateTime = (ms) => new Date(ms).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

/** Points as the crosstable writes them: 2½, ½, 3. @param {number} p */
function pointsText(p) {
  const whole = Math.floor(p);
  const half = p - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** A tie-break to two places at most. @param {number} x */
const tiebreakText = (x) => String(Math.round(x * 100) / 100);

/** @param {Summary} s */
function formatText(s) {
  return s.format === "swiss" ? tn("tournament.swissRounds", s.rounds) : t("tournament.roundRobin");
}

/** @param {Summary} s */
function statusText(s) {
  if (s.status === "signup") return s.starts ? t("tournament.startsAt", { date: dateTime(s.starts) }) : t("tournament.startsFull");
  if (s.status === "running") return t("tournament.roundOf", { round: s.round, rounds: s.rounds });
  if (s.status === "cancelled") return t("tournament.cancelled");
  return t("tournament.finishedAt", { date: dateTime(s.finished ?? s.created) });
}

/** @param {HTMLElement} view */
export async function tournamentsPage(view) {
  const me = currentUser();
  /** @type {[string, TextKey, TextKey][]} */
  const shelves = [["upcoming", "tournament.upcoming", "tournament.noUpcoming"], ["running", "tournament.running", "tournament.noRunning"],
    ["finished", "tournament.finished", "tournament.noFinished"]];

  /** @param {Summary} s */
  const row = (s) => h("li", { class: "tournament-item", "data-tournament": s.id, "data-key": s.id },
    h("a", { href: `#/tournament/${encodeURIComponent(s.id)}`, class: "name" }, s.name),
    h("span", { class: "muted small" }, [formatText(s), clockText(s.clock), rulesName(s.rules)].join(" · ")),
    h("span", { class: "small" }, t("tournament.playersOf", { players: s.players, max: s.max_players }), " · ", statusText(s)));

  /**
   * One list with its "more" button.
   * @param {string} shelf
   * @param {TextKey} title
   * @param {TextKey} empty
   */
  async function list(shelf, title, empty) {
    /** @type {{ tournaments: Summary[], next?: string | null }} */
    const first = await api.call("GET", `/tournaments?status=${shelf}&limit=20`);
    const items = first.tournaments;
    let next = first.next ?? null;
    const box = card(t(title));
    box.dataset["shelf"] = shelf;
    const draw = () => {
      const more = next
        ? h("button", { type: "button", class: "more", "data-action": "more", onclick: () => attempt(async () => {
          /** @type {{ tournaments: Summary[], next?: string | null }} */
          const page = await api.call("GET", `/tournaments?status=${shelf}&limit=20&after=${encodeURIComponent(next ?? "")}`);
          items.push(...page.tournaments);
          next = page.next ?? null;
          draw();
        }) }, t("paging.more"))
        : null;
      box.replaceChildren(h("h2", {}, t(title)), listOr("tournament-list", items, row, t(empty)));
      if (more) box.append(more);
    };
    draw();
    return box;
  }

  const create = me ? createForm() : h("p", { class: "muted" }, h("a", { href: "#/" }, t("tournament.visitor")));
  let lists = h("div", { class: "tournament-lists" }, ...(await Promise.all(shelves.map(([s, title, empty]) => list(s, title, empty)))));
  page(view, t("tournament.title"), h("p", { class: "lead" }, t("tournament.lead")), lists, create);

  let asked = 0;
  return onTournament(async () => {
    const mine = ++asked;
    try {
      const fresh = h("div", { class: "tournament-lists" }, ...(await Promise.all(shelves.map(([s, title, empty]) => list(s, title, empty)))));
      if (mine !== asked || !lists.isConnected) return;
      swapKeepingFocus(lists, fresh);
      lists = fresh;
    } catch (err) {
      sayError(err);
    }
  });
}

/** The form that creates a tournament; the category follows from the board the rules are played on and the time control's pace. */
function createForm() {
  const rounds = h("input", { name: "rounds", type: "number", min: "1", max: "63", value: "4", inputmode: "numeric" });
  const format = h("select", { name: "format" },
    h("option", { value: "swiss" }, t("tournament.format.swiss")),
    h("option", { value: "round_robin" }, t("tournament.format.round_robin")));
  const roundsLabel = h("label", {}, t("tournament.rounds"), rounds);
  format.addEventListener("change", () => { roundsLabel.hidden = format.value !== "swiss"; });
  const whenFull = h("input", { type: "checkbox", name: "when_full", checked: true });
  const startAt = h("input", { type: "datetime-local", name: "starts" });
  const startLabel = h("label", {}, t("tournament.startAt"), startAt);
  startLabel.hidden = true;
  whenFull.addEventListener("change", () => { startLabel.hidden = whenFull.checked; });
  const form = h("form", { class: "card form tournament-new", id: "new-tournament" },
    h("h2", {}, t("tournament.create")),
    h("label", {}, t("tournament.name"), h("input", { name: "name", maxlength: "80", required: true, autocomplete: "off" })),
    h("label", {}, t("new.rules"), rulesSelect("rules", "asian")),
    h("label", {}, t("new.time"), h("select", { name: "time" }, TIMES.map(([v, key]) => {
      const text = clockText(clockOf(v));
      return h("option", { value: v }, key ? t(key, { time: text }) : text);
    }))),
    h("label", {}, t("tournament.format"), format),
    roundsLabel,
    h("div", { class: "tournament-players" },
      h("label", {}, t("tournament.minPlayers"), h("input", { name: "min_players", type: "number", min: "3", max: "64", value: "5", inputmode: "numeric" })),
      h("label", {}, t("tournament.maxPlayers"), h("input", { name: "max_players", type: "number", min: "3", max: "64", value: "9", inputmode: "numeric" }))),
    h("label", { class: "check" }, whenFull, t("tournament.whenFull")),
    startLabel,
    h("p", { class: "muted small" }, t("tournament.hexLater")),
    h("button", { type: "submit", class: "primary" }, t("tournament.createButton")));
  onSubmit(form, async (d) => {
    const clock = clockOf(d["time"] ?? "c48");
    const swiss = d["format"] === "swiss";
    const starts = whenFull.checked ? null : new Date(d["starts"] ?? "").getTime();
    /** @type {{ tournament: Tournament }} */
    const made = await api.call("POST", "/tournaments", {
      name: d["name"] ?? "",
      category: `${d["rules"] === "hex" ? "hex" : "standard"}_${clock.kind === "live" ? "live" : "correspondence"}`,
      rules: d["rules"],
      clock,
      format: d["format"],
      rounds: swiss ? Number(d["rounds"]) : null,
      min_players: Number(d["min_players"]),
      max_players: Number(d["max_players"]),
      starts: starts !== null && Number.isNaN(starts) ? 0 : starts,
    });
    say(t("tournament.created", { name: made.tournament.name }));
    go(`#/tournament/${encodeURIComponent(made.tournament.id)}`);
  });
  return form;
}

/**
 * One player's result as the crosstable writes it.
 * @param {PlayerResult | null | undefined} r  none while the game is played
 */
function resultMark(r) {
  switch (r) {
    case "win": return "1";
    case "draw": return "½";
    case "loss": return "0";
    case "bye": return "1";
    case "forfeit_win": return "+";
    case "forfeit_loss": return "−";
    default: return "…";
  }
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function tournamentPage(view, [id = ""]) {
  const path = `/tournaments/${encodeURIComponent(id)}`;
  /** @type {() => Promise<Tournament>} */
  const fetchIt = async () => (/** @type {{ tournament: Tournament }} */ (await api.call("GET", path))).tournament;
  let tour = await fetchIt();
  let body = render();
  page(view, tour.name, h("p", {}, h("a", { href: "#/tournaments" }, t("tournament.all"))), body);

  function render() {
    const me = currentUser()?.name ?? null;
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
          button(t("tournament.leave"), () => attempt(async () => {
            await api.call("POST", `${path}/withdraw`);
            say(t("tournament.left"));
            await update();
          }), { "data-action": "withdraw" }))
        : h("p", { class: "tournament-standing" },
          button(t("tournament.join"), () => attempt(async () => {
            await api.call("POST", `${path}/join`);
            say(t("tournament.joined", { name: tour.name }));
            await update();
          }), { "data-action": "join", class: "primary" }),
          h("span", { class: "muted" }, t("tournament.joinHint")));
    } else if (tour.status === "running" && mine && mine.withdrawn_round === null) {
      const current = tour.schedule.find((r) => r.round === tour.round);
      const board = current?.pairings.find((p) => p.red === me || p.black === me);
      const now = board?.game && board.result === null
        ? h("a", { href: `#/game/${encodeURIComponent(board.game)}`, class: "button-link primary", "data-action": "play" }, t("tournament.play"))
        : h("span", {}, t(board ? "tournament.waiting" : "tournament.resting"));
      standing = h("p", { class: "tournament-standing" }, now,
        button(t("tournament.withdraw"), () => attempt(async () => {
          if (!confirm(t("tournament.withdrawConfirm"))) return;
          await api.call("POST", `${path}/withdraw`);
          say(t("tournament.withdrawn"));
          await update();
        }), { "data-action": "withdraw" }));
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

  let asked = 0;
  async function update() {
    const mine = ++asked;
    try {
      const fresh = await fetchIt();
      if (mine !== asked || !body.isConnected) return;
      tour = fresh;
      const next = render();
      swapKeepingFocus(body, next);
      body = next;
    } catch (err) {
      sayError(err);
    }
  }

  return onTournament((changed) => { if (changed === null || changed === id) update(); });
}

/**
 * The crosstable: a round-robin as a grid of everyone against everyone, a
 * Swiss as each player's rounds (result and opponent's rank).
 * @param {Tournament} tour
 * @param {string | null} me
 */
function crosstable(tour, me) {
  const rank = new Map(tour.standings.map((s) => [s.name, s.rank]));
  /** @param {Cell} c */
  const title = (c) => c.opponent
    ? t("tournament.cellTitle", { round: c.round, opponent: c.opponent, color: t(c.color === "red" ? "color.red" : "color.black"), result: resultMark(c.result) })
    : t("tournament.byeTitle", { round: c.round });
  /** @param {Cell | undefined} c @param {Child} text */
  const cell = (c, text) => {
    if (!c) return h("td", { class: "cross empty" });
    const content = c.game ? h("a", { href: `#/game/${encodeURIComponent(c.game)}` }, text) : text;
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
function roundBlock(r, tour, me) {
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
      p.game ? h("a", { href: `#/game/${encodeURIComponent(p.game)}`, "data-action": "game" }, t(p.result === null && mineClass ? "tournament.play" : "tournament.game")) : null);
  };
  const current = tour.status === "running" && r.round === tour.round;
  return h("section", { class: `round${current ? " current" : ""}`, "data-round": r.round },
    h("h3", {}, t("tournament.round", { round: r.round }), current ? h("span", { class: "muted small" }, " · ", t("tournament.now")) : null),
    h("ul", { class: "boards" }, r.pairings.map(board)),
    r.sitting_out.length ? h("p", { class: "muted small" }, t("tournament.sittingOut", { names: r.sitting_out.join(", ") })) : null);
}
