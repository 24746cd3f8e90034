// The ladders, one per rating category: `#/ladder` chooses one, `#/ladder/{category}`
// shows its places from the top, its open challenges and its latest results.
// A logged-in player joins at the bottom and challenges players at most 20
// places above; anyone may read. The page follows the server live: it loads
// again whenever challenges come or go.

import * as api from "../api.js";
import { button, card, listOr, moreButton, page, swapKeepingFocus, userLink } from "../components/layout.js";
import { h } from "../dom.js";
import { lang, t } from "../i18n.js";
import { onLobby } from "../live.js";
import { attempt, say, sayError } from "../notify.js";
import { go } from "../router.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").Challenge} Challenge */
/** @typedef {import("../models.js").Game} Game */
/** @typedef {import("../i18n.js").TextKey} TextKey */
/** @typedef {import("../dom.js").Child} Child */

/** @typedef {import("../models.js").Rung} Rung */
/** @typedef {import("../models.js").LadderChallenge} LadderChallenge */
/** @typedef {import("../models.js").LadderResult} LadderResult */
/** @typedef {import("../models.js").Ladder} Ladder */

// The ladders there are, with their names.
/** @type {[string, TextKey][]} */
const CATEGORIES = [
  ["standard_correspondence", "ladder.cat.standard_correspondence"],
  ["standard_live", "ladder.cat.standard_live"],
  ["hex_correspondence", "ladder.cat.hex_correspondence"],
  ["hex_live", "ladder.cat.hex_live"],
];

/** How far up a player may challenge, and how many open challenges each may be in. */
const REACH = 20;
const MAX_OPEN = 2;
const PAGE = 50;

/**
 * A date with its time, as the user's language writes it.
 * @param {number} ms
 */
function dateTime(ms) {
  return new Date(ms).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A sentence whose `{name}` placeholders are players: each becomes a link to
 * their profile.
 * @param {TextKey} key
 * @param {Record<string, string>} people
 * @returns {Child[]}
 */
function withLinks(key, people) {
  return t(key).split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in people ? userLink(people[name] ?? "") : part;
  });
}

/** @param {HTMLElement} view */
function chooser(view) {
  page(view, t("ladder.title"),
    h("p", { class: "lead" }, t("ladder.lead")),
    card(t("ladder.all"), h("ul", { class: "ladder-list" }, CATEGORIES.map(([name, key]) =>
      h("li", { "data-category": name }, h("a", { href: `#/ladder/${name}` }, t(key)))))));
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function ladderPage(view, args) {
  const category = args[0];
  if (!category) return chooser(view);
  const back = h("p", {}, h("a", { href: "#/ladder" }, t("ladder.all")));
  const path = `/ladders/${encodeURIComponent(category)}`;

  /**
   * The first `count` places (at least a page), with the ladder's challenges and results.
   * @param {number} count
   * @returns {Promise<Ladder>}
   */
  async function fetchLadder(count) {
    /** @type {Ladder} */
    const first = await api.call("GET", `${path}?limit=${PAGE}`);
    let next = first.next ?? null;
    while (next && first.rungs.length < count) {
      /** @type {Ladder} */
      const more = await api.call("GET", `${path}?limit=${PAGE}&after=${encodeURIComponent(next)}`);
      first.rungs.push(...more.rungs);
      next = more.next ?? null;
    }
    first.next = next;
    return first;
  }

  // Unknown categories: the server's refusal shows in place of the page.
  let ladder = await fetchLadder(PAGE);
  const known = CATEGORIES.find(([name]) => name === category);
  const title = known ? t(known[1]) : category;
  let body = render();
  page(view, title, back, body);

  function render() {
    const me = currentUser()?.name ?? null;
    const open = ladder.challenges.map((c) => c.challenge);
    /** @param {string} who */
    const openOf = (who) => open.filter((c) => c.creator === who || c.opponent === who).length;
    const mine = ladder.rungs.find((r) => r.name === me) ?? null;
    const full = me !== null && openOf(me) >= MAX_OPEN;

    /** @param {Rung} r */
    function action(r) {
      if (!me || !mine || r.position >= mine.position || mine.position - r.position > REACH) return null;
      const between = open.some((c) => (c.creator === me && c.opponent === r.name) || (c.creator === r.name && c.opponent === me));
      if (between) return h("span", { class: "muted small" }, t("ladder.pending"));
      const theyFull = openOf(r.name) >= MAX_OPEN;
      const reason = full ? t("ladder.full") : theyFull ? t("ladder.theyFull", { name: r.name }) : null;
      const b = button(t("ladder.challenge"), () => attempt(async () => {
        await api.call("POST", `${path}/challenges`, { opponent: r.name });
        say(t("ladder.challengeSent", { name: r.name }));
        await update();
      }), { "data-action": "challenge", title: reason ?? t("ladder.challengeTitle", { name: r.name, position: r.position }) });
      if (!reason) return b;
      b.disabled = true;
      // One's own limit is said once, above the places; another's, on their row.
      return full ? b : h("span", { class: "ladder-blocked" }, h("span", { class: "muted small" }, reason), b);
    }

    /** @param {Rung} r */
    const row = (r) => h("li", { class: `rung${r.name === me ? " mine" : ""}`, "data-user": r.name, "data-position": r.position, "data-key": r.name },
      h("span", { class: "place" }, String(r.position)),
      h("span", { class: "who" }, userLink(r.name), r.name === me ? h("span", { class: "muted small" }, " · ", t("ladder.you")) : null),
      action(r));

    const list = listOr("rungs", ladder.rungs, row, t("ladder.empty"));
    const more = ladder.next
      ? h("button", { type: "button", class: "more", "data-action": "more", onclick: () => attempt(() => update(ladder.rungs.length + PAGE)) }, t("paging.more"))
      : null;

    /** @type {Child} */
    let standing = null;
    if (!me) standing = h("p", { class: "muted" }, h("a", { href: "#/" }, t("ladder.visitor")));
    else if (!mine) {
      standing = h("p", { class: "ladder-join" },
        button(t("ladder.join"), () => attempt(async () => {
          /** @type {{ position: number }} */
          const joined = await api.call("POST", `${path}/join`);
          say(t("ladder.joined", { position: joined.position }));
          await update(Math.max(ladder.rungs.length, joined.position));
        }), { "data-action": "join", class: "primary" }),
        h("span", { class: "muted" }, t("ladder.joinHint")));
    } else {
      standing = h("p", { class: "ladder-standing" }, mine.position === 1 ? t("ladder.top") : t("ladder.yourPlace", { position: mine.position }));
    }

    /** @param {LadderChallenge} lc */
    const challengeRow = (lc) => {
      const c = lc.challenge;
      const defender = c.opponent ?? "";
      return h("li", { class: "ladder-challenge", "data-challenge": c.id, "data-key": c.id },
        h("span", {}, withLinks("ladder.challenged", { challenger: c.creator, defender })),
        h("span", { class: "muted small" }, t("ladder.lapses", { defender, date: dateTime(lc.expires) })),
        me && defender === me
          ? button(t("ladder.accept"), () => attempt(async () => {
            const game = await api.game("POST", `/challenges/${encodeURIComponent(c.id)}/accept`);
            go(`#/game/${encodeURIComponent(game.id)}`);
          }), { "data-action": "accept" })
          : null);
    };

    /** @param {LadderResult} r */
    const resultRow = (r) => {
      /** @type {TextKey} */
      const key = !r.challenger_won ? "ladder.defended" : r.game ? "ladder.took" : "ladder.lapsed";
      return h("li", { class: `ladder-result ${r.game ? (r.challenger_won ? "took" : "defended") : "lapsed"}` },
        h("span", {}, withLinks(key, { challenger: r.challenger, defender: r.defender })),
        h("span", { class: "muted small" }, dateTime(r.at)),
        r.game ? h("a", { href: `#/game/${encodeURIComponent(r.game)}` }, t("ladder.game")) : null);
    };

    return h("div", { class: "ladder" },
      standing,
      h("div", { class: "ladder-columns" },
        card(t("ladder.places"), full ? h("p", { class: "muted small ladder-full" }, t("ladder.full")) : null, list, more),
        h("div", {},
          card(t("ladder.challenges"), listOr("ladder-challenges", ladder.challenges, challengeRow, t("ladder.noChallenges")),
            moreButton(ladder.challenges_next, moreChallenges, "more-challenges")),
          card(t("ladder.results"), listOr("ladder-results", ladder.results, resultRow, t("ladder.noResults"))))));
  }

  /**
   * The next page of the ladder's open challenges, under those shown.
   * @param {string} after
   */
  async function moreChallenges(after) {
    /** @type {{ challenges: LadderChallenge[], next?: string | null }} */
    const p = await api.call("GET", `${path}/challenges?after=${encodeURIComponent(after)}`);
    ladder = { ...ladder, challenges: [...ladder.challenges, ...p.challenges], challenges_next: p.next ?? null };
    const next = render();
    swapKeepingFocus(body, next);
    body = next;
  }

  let asked = 0;
  /**
   * Loads the ladder again (at least as many places as shown) and redraws it.
   * @param {number} [count]
   */
  async function update(count = ladder.rungs.length) {
    const mine = ++asked;
    try {
      const fresh = await fetchLadder(count);
      if (mine !== asked || !body.isConnected) return;
      ladder = fresh;
      const next = render();
      swapKeepingFocus(body, next);
      body = next;
    } catch (err) {
      sayError(err);
    }
  }

  return onLobby(() => { update(); });
}
