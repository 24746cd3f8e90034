// The waiting room: open challenges, challenges to me, and mine. The lists
// follow the server live: challenges appear and go without a reload, and the
// control that has the keyboard focus keeps it.

import * as endpoints from "./endpoints.js";
import { acceptButton as accept, challengeItem, closeButton as close } from "../../components/challenges.js";
import { card, listOr, moreButton, page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { onLobby } from "../../live.js";
import { say } from "../../notify.js";
import { currentUser, isQueued, setQueued } from "../../state.js";

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
