// A player's profile: ratings with their history, record per rule set, recent games, buddies,
// member since and last seen, what they wrote about themselves; links to
// message, challenge, keep as a buddy or ignore them. On one's own: a link to
// edit it, and changing the password.

import * as endpoints from "./endpoints.js";
import { downloadLink } from "../../components/download.js";
import { form } from "../../components/form.js";
import { listOr, page } from "../../components/layout.js";
import { seenText } from "../../components/people.js";
import { categoryName, ratingMark, ratingsCard } from "../../components/ratings.js";
import { userActions } from "../../components/user-actions.js";
import { h } from "../../dom.js";
import { openingLabel } from "../../components/openings.js";
import { clockText, colorName, computerLevel, outcomeText, rulesName } from "../../format.js";
import { date, t, tn } from "../../i18n.js";
import { say } from "../../notify.js";
import { refresh } from "../../router.js";
import { currentUser } from "../../state.js";
import { puzzleCard } from "../../components/puzzle-card.js";

/** @typedef {import("../../models.js").GameSummary} GameSummary */

function passwordForm() {
  const password = form([
    { name: "old", label: t("profile.oldPassword"), type: "password", attrs: { autocomplete: "current-password" } },
    { name: "new", label: t("profile.newPassword"), type: "password", attrs: { autocomplete: "new-password" } },
  ], t("profile.changePassword"), async (d) => {
    await endpoints.changePassword(d);
    say(t("profile.passwordChanged"));
  }, { reset: true });
  return h("section", {}, h("h2", {}, t("profile.password")), password);
}

/**
 * A finished game from the player's side.
 * @param {GameSummary} g
 * @param {string} name
 */
function recentGame(g, name) {
  const opponent = g.red === name ? g.black : g.red;
  return h("li", { class: "game-row" },
    h("a", { href: `#/game/${encodeURIComponent(g.id)}` }, t("status.versus", { name: opponent })),
    h("span", { class: "muted" }, `${rulesName(g.rules)}, ${clockText(g.clock)}`),
    h("span", {}, g.outcome ? outcomeText(g.outcome) : t("profile.aborted")));
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the player's name
 */
export async function profilePage(view, [name = ""]) {
  const p = await endpoints.profile(name);
  const user = p.user;
  const me = currentUser();
  const own = me?.name === user.name;
  const shown = user.shown_category ?? "standard_correspondence";
  const mine = p.ratings.find((r) => r.category === shown);
  const shownRating = h("span", {}, ratingMark(user.rating, mine ? mine.provisional : true), " ",
    h("span", { class: "muted small" }, categoryName(shown)));
  /** @type {[string, string | HTMLElement][]} */
  const facts = [
    [t("profile.rating"), shownRating],
    [t("profile.memberSince"), date(user.joined)],
    [t("profile.lastSeen"), p.online ? h("span", { class: "online-now" }, t("people.onlineNow")) : seenText(user.seen)],
    [t("profile.buddies"), String(p.buddies)],
  ];
  if (user.location) facts.push([t("profile.location"), user.location]);
  if (user.languages.length) facts.push([t("profile.languages"), user.languages.join(", ")]);
  if (user.preferred_rules) facts.push([t("profile.prefRules"), rulesName(user.preferred_rules)]);
  if (user.preferred_clock) facts.push([t("profile.prefClock"), clockText(user.preferred_clock)]);
  const about = h("section", { class: "card profile" },
    h("dl", { class: "facts" }, facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    h("p", { class: "bio" }, user.bio || h("span", { class: "muted" }, t("profile.noBio"))));
  const records = p.records.length
    ? h("table", { class: "records" },
      h("tr", {}, h("th", {}, t("profile.ruleSet")), h("th", {}, t("profile.won")), h("th", {}, t("profile.lost")), h("th", {}, t("profile.drawn"))),
      p.records.map((r) => h("tr", {}, h("td", {}, rulesName(r.rules)), h("td", {}, r.wins), h("td", {}, r.losses), h("td", {}, r.draws))))
    : null;
  const r = user.record ?? { wins: 0, losses: 0, draws: 0 };
  page(view, user.name,
    p.relation === "ignore" ? h("p", { class: "message info" }, t("profile.youIgnore", { name: user.name })) : null,
    // The computer takes no messages and no challenges by name (New game has its own form).
    me && !own && computerLevel(user.name) === null ? userActions(user.name, p.relation, refresh) : null,
    own ? h("p", {}, h("a", { class: "button-link", href: "#/edit-profile" }, t("menu.editProfile"))) : null,
    about,
    ratingsCard(user.name, p.ratings, shown, own),
    h("div", { class: "columns" },
      h("section", { class: "card" }, h("h2", {}, t("profile.records")),
        h("p", {}, t("profile.record", { wins: tn("profile.wins", r.wins), losses: tn("profile.losses", r.losses), draws: tn("profile.draws", r.draws) })),
        records),
      h("section", { class: "card" }, h("h2", {}, t("profile.recent")),
        listOr("games", p.recent, (g) => recentGame(g, user.name), t("profile.noRecent")),
        h("p", {}, downloadLink({ id: "archive", label: t("profile.archive"), path: endpoints.archivePath(user.name) })))),
    await openingsCard(user.name).catch(() => null),
    await puzzleCard(user.name).catch(() => null),
    own ? passwordForm() : null);
}

/**
 * The openings a player plays most, on each side, with how they went.
 * @param {string} name
 */
async function openingsCard(name) {
  const a = await endpoints.openings(name);
  const rows = a.openings.map((o) => h("tr", { "data-opening": o.opening },
    h("td", {}, openingLabel(o.opening)), h("td", {}, colorName(o.color)), h("td", { class: "num" }, String(o.games)),
    h("td", { class: "num" }, String(o.wins)), h("td", { class: "num" }, String(o.draws)),
    h("td", { class: "num" }, String(o.games - o.wins - o.draws))));
  return h("section", { class: "card", id: "openings" }, h("h2", {}, t("profile.openings")),
    rows.length
      ? h("div", { class: "table-scroll" }, h("table", { class: "records openings-table" },
        h("tr", {}, h("th", {}, t("profile.opening")), h("th", {}, t("profile.side")), h("th", {}, t("explorer.games")),
          h("th", {}, t("profile.won")), h("th", {}, t("profile.drawn")), h("th", {}, t("profile.lost"))), rows))
      : h("p", { class: "muted" }, t("profile.noOpenings")));
}

/**
 * Changing one's password on a page of its own, reached from the account menu.
 * @param {HTMLElement} view
 */
export function passwordPage(view) {
  const section = passwordForm();
  section.querySelector("h2")?.remove();
  page(view, t("profile.password"), h("div", { class: "card password-card" }, section));
}
