// A ladder drawn: my place, the places from the top with a challenge button on
// those I may challenge (at most 20 places above, while neither of us is in
// too many open challenges), the open challenges and the latest results.

import { button, card, listOr, moreButton, userLink } from "../../components/layout.js";
import { h } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { gameLink } from "../../links.js";

/** @typedef {import("../../i18n.js").TextKey} TextKey */
/** @typedef {import("../../dom.js").Child} Child */
/** @typedef {import("../../models.js").Rung} Rung */
/** @typedef {import("../../models.js").LadderChallenge} LadderChallenge */
/** @typedef {import("../../models.js").LadderResult} LadderResult */
/** @typedef {import("../../models.js").Ladder} Ladder */

/**
 * What the buttons do.
 * @typedef {object} LadderActions
 * @property {(opponent: string) => void} challenge
 * @property {() => void} join
 * @property {(challenge: string) => void} accept
 * @property {() => void} more  more places
 * @property {(after: string) => Promise<void>} moreChallenges
 */

// The ladders there are, with their names.
/** @type {[string, TextKey][]} */
export const CATEGORIES = [
  ["standard_correspondence", "ladder.cat.standard_correspondence"],
  ["standard_live", "ladder.cat.standard_live"],
  ["hex_correspondence", "ladder.cat.hex_correspondence"],
  ["hex_live", "ladder.cat.hex_live"],
];

/** How far up a player may challenge, and how many open challenges each may be in. */
const REACH = 20;
const MAX_OPEN = 2;
export const PAGE = 50;

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

/**
 * The ladder: my place (or the button that joins), the places with the
 * challenges I may make, the open challenges and the latest results.
 * @param {Ladder} ladder
 * @param {string | null} me
 * @param {LadderActions} act
 */
export function ladderBody(ladder, me, act) {
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
    const b = button(t("ladder.challenge"), () => act.challenge(r.name), { "data-action": "challenge", title: reason ?? t("ladder.challengeTitle", { name: r.name, position: r.position }) });
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
    ? h("button", { type: "button", class: "more", "data-action": "more", onclick: act.more }, t("paging.more"))
    : null;

  /** @type {Child} */
  let standing = null;
  if (!me) standing = h("p", { class: "muted" }, h("a", { href: "#/" }, t("ladder.visitor")));
  else if (!mine) {
    standing = h("p", { class: "ladder-join" },
      button(t("ladder.join"), act.join, { "data-action": "join", class: "primary" }),
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
        ? button(t("ladder.accept"), () => act.accept(c.id), { "data-action": "accept" })
        : null);
  };

  /** @param {LadderResult} r */
  const resultRow = (r) => {
    /** @type {TextKey} */
    const key = !r.challenger_won ? "ladder.defended" : r.game ? "ladder.took" : "ladder.lapsed";
    return h("li", { class: `ladder-result ${r.game ? (r.challenger_won ? "took" : "defended") : "lapsed"}` },
      h("span", {}, withLinks(key, { challenger: r.challenger, defender: r.defender })),
      h("span", { class: "muted small" }, dateTime(r.at)),
      r.game ? h("a", { href: gameLink(r.game) }, t("ladder.game")) : null);
  };

  return h("div", { class: "ladder" },
    standing,
    h("div", { class: "ladder-columns" },
      card(t("ladder.places"), full ? h("p", { class: "muted small ladder-full" }, t("ladder.full")) : null, list, more),
      h("div", {},
        card(t("ladder.challenges"), listOr("ladder-challenges", ladder.challenges, challengeRow, t("ladder.noChallenges")),
          moreButton(ladder.challenges_next, act.moreChallenges, "more-challenges")),
        card(t("ladder.results"), listOr("ladder-results", ladder.results, resultRow, t("ladder.noResults"))))));
}
