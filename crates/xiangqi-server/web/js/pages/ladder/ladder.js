// The ladders, one per rating category: `#/ladder` chooses one, `#/ladder/{category}`
// shows its places from the top, its open challenges and its latest results.
// A logged-in player joins at the bottom and challenges players at most 20
// places above; anyone may read. The page follows the server live: it loads
// again whenever challenges come or go. view.js draws a ladder; endpoints.js
// asks the server.

import { card, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { gameLink } from "../../links.js";
import { onLobby } from "../../live.js";
import { attempt, say, sayError } from "../../notify.js";
import { go } from "../../router.js";
import { currentUser } from "../../state.js";
import { accept, challenge, challengesPage, join, readLadder } from "./endpoints.js";
import { CATEGORIES, PAGE, ladderBody } from "./view.js";

/** @typedef {import("../../models.js").Ladder} Ladder */

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

  /**
   * The first `count` places (at least a page), with the ladder's challenges and results.
   * @param {number} count
   * @returns {Promise<Ladder>}
   */
  async function fetchLadder(count) {
    const first = await readLadder(category, PAGE, null);
    let next = first.next ?? null;
    while (next && first.rungs.length < count) {
      const more = await readLadder(category, PAGE, next);
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
  /** @type {import("./view.js").LadderActions} */
  const act = {
    challenge: (opponent) => attempt(async () => {
      await challenge(category, opponent);
      say(t("ladder.challengeSent", { name: opponent }));
      await update();
    }),
    join: () => attempt(async () => {
      const joined = await join(category);
      say(t("ladder.joined", { position: joined.position }));
      await update(Math.max(ladder.rungs.length, joined.position));
    }),
    accept: (id) => attempt(async () => {
      const game = await accept(id);
      go(gameLink(game.id));
    }),
    more: () => attempt(() => update(ladder.rungs.length + PAGE)),
    moreChallenges,
  };
  const render = () => ladderBody(ladder, currentUser()?.name ?? null, act);
  let body = render();
  page(view, title, back, body);

  /**
   * The next page of the ladder's open challenges, under those shown.
   * @param {string} after
   */
  async function moreChallenges(after) {
    const p = await challengesPage(category, after);
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
