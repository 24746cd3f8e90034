// The waiting room: open challenges, challenges to me, and mine. The lists
// follow the server live: challenges appear and go without a reload, and the
// control that has the keyboard focus keeps it.

import * as endpoints from "./endpoints.js";
import { button, card, listOr, moreButton, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, colorName, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { onLobby } from "../../live.js";
import { attempt, say } from "../../notify.js";
import { go } from "../../router.js";
import { currentUser, isQueued, setQueued } from "../../state.js";

/** @typedef {import("../../models.js").Challenge} Challenge */

/**
 * @param {Challenge} c
 * @param {HTMLElement[]} actions
 */
function challengeItem(c, actions) {
  const who = c.auto ? t("room.auto") : c.opponent ? t("room.direct", { from: c.creator, to: c.opponent }) : c.creator;
  const color = c.color === "red" || c.color === "black" ? colorName(c.color) : t("new.color.random");
  return h("li", { class: "challenge", "data-challenge": c.id, "data-key": c.id },
    h("span", {}, who),
    h("span", { class: "muted" }, t("room.terms", { rules: rulesName(c.rules), clock: clockText(c.clock), color })),
    h("span", { class: c.rated ? "tag rated" : "tag casual" }, t(c.rated ? "ratings.rated" : "ratings.casual")),
    c.rematch_of ? h("a", { href: `#/game/${encodeURIComponent(c.rematch_of)}` }, t("room.rematchOf")) : null,
    ...actions);
}

/** @param {Challenge} c */
const accept = (c) => button(t("room.accept"), () => attempt(async () => {
  const game = await endpoints.accept(c.id);
  go(`#/game/${encodeURIComponent(game.id)}`);
}), { "data-action": "accept" });

/**
 * @param {Challenge} c
 * @param {string} label
 * @param {() => void} done
 */
const close = (c, label, done) => button(label, () => attempt(async () => {
  await endpoints.close(c.id);
  if (c.auto) setQueued(false);
  done();
}), { "data-action": "close" });

/** @param {HTMLElement} view */
export async function roomPage(view) {
  let c = await endpoints.challenges();
  let lists = render();
  page(view, t("room.title"), lists);

  function render() {
    // A visitor looks at the open challenges; accepting one, and the other lists, need a user id.
    if (!currentUser()) {
      return h("div", { class: "lists" },
        h("p", { class: "muted", id: "room-visitor" }, t("room.visitor"), " ", h("a", { href: "#/" }, t("nav.login"))),
        card(t("room.open"), listOr("challenges", c.open, (ch) => challengeItem(ch, []), t("room.noneOpen")),
          moreButton(c.next, moreOpen, "more-open")));
    }
    setQueued(c.outgoing.some((ch) => ch.auto));
    return h("div", { class: "lists" },
      isQueued() ? h("p", { class: "queued", role: "status" }, t("new.queued")) : null,
      card(t("room.open"), listOr("challenges", c.open, (ch) => challengeItem(ch, [accept(ch)]), t("room.noneOpen")),
        moreButton(c.next, moreOpen, "more-open")),
      card(t("room.incoming"), listOr("challenges", c.incoming, (ch) => challengeItem(ch, [accept(ch), close(ch, t("room.decline"), update)]), t("room.none")),
        moreButton(c.incoming_next, moreIncoming, "more-incoming")),
      card(t("room.outgoing"), listOr("challenges", c.outgoing, (ch) => challengeItem(ch, [close(ch, t("room.cancel"), update)]), t("room.none"))));
  }
  function redraw() {
    const next = render();
    swapKeepingFocus(lists, next);
    lists = next;
  }
  /** @param {string} after */
  async function moreOpen(after) {
    const p = await endpoints.moreOpen(after);
    c = { ...c, open: [...c.open, ...p.open], next: p.next ?? null };
    redraw();
  }
  /** @param {string} after */
  async function moreIncoming(after) {
    const p = await endpoints.moreIncoming(after);
    c = { ...c, incoming: [...c.incoming, ...p.challenges], incoming_next: p.next ?? null };
    redraw();
  }

  // A change reads the first pages again.
  let asked = 0;
  async function update() {
    const mine = ++asked;
    try {
      const fresh = await endpoints.challenges();
      if (mine !== asked || !lists.isConnected) return;
      c = fresh;
      redraw();
    } catch (err) {
      say(err instanceof Error ? err.message : String(err), "error");
    }
  }

  return onLobby(update);
}
