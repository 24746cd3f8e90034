// Tell a friend: make an invitation link to copy and hand over (the site sends
// nothing). Whoever registers through it starts with me as a buddy and, if I
// attached one, my challenge waiting for them.

import * as endpoints from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { page } from "../../components/layout.js";
import { DEFAULT_CLOCK, clockOf, colorSelect, invitedTerms, rulesSelect, timeSelect } from "../../components/terms.js";
import { h } from "../../dom.js";
import { date, t, tn } from "../../i18n.js";
import { say } from "../../notify.js";
import { refresh } from "../../router.js";
import { pagedList } from "../../components/paged-list.js";

/** @typedef {import("../../models.js").Invitation} Invitation */

/**
 * Copies a text, with a fallback for browsers without the clipboard API.
 * @param {HTMLInputElement} input
 */
async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  say(t("invite.copied"));
}

/** @param {Invitation} i */
function invitationItem(i) {
  const url = new URL(i.link, location.origin).href;
  const input = h("input", { class: "link", value: url, readonly: true, "aria-label": t("invite.link") });
  input.addEventListener("focus", () => input.select());
  return h("li", { class: "invitation", "data-code": i.code },
    h("div", { class: "copy-row" }, input, h("button", { type: "button", class: "copy", onclick: () => copy(input) }, t("invite.copy"))),
    h("p", { class: "muted small" },
      t("invite.made", { date: date(i.created) }), " · ", tn("invite.uses", i.uses),
      i.challenge ? ` · ${t("invite.withChallenge", { terms: invitedTerms(i.challenge) })}` : ""));
}

/** @param {HTMLElement} view */
export async function invitePage(view) {
  const mine = await pagedList(async (after) => {
    const r = await endpoints.invitations(after);
    return { items: r.invitations, next: r.next ?? null };
  }, invitationItem, "invitations", t("invite.none"));
  const attach = h("input", { type: "checkbox", name: "attach", value: "yes" });
  const terms = h("fieldset", { class: "terms", disabled: true },
    h("label", {}, t("new.rules"), rulesSelect("rules", "asian")),
    h("label", {}, t("new.color"), colorSelect("color")),
    h("label", {}, t("new.time"), timeSelect("time", DEFAULT_CLOCK)));
  attach.addEventListener("change", () => (terms.disabled = !attach.checked));
  const form = onSubmit(h("form", { class: "card form invite-form" },
    h("label", { class: "check" }, attach, t("invite.attach")), terms,
    h("button", { type: "submit", class: "primary" }, t("invite.make"))), async (d) => {
    const challenge = d["attach"] ? { rules: d["rules"], color: d["color"], clock: clockOf(d["time"] ?? "") } : null;
    await endpoints.invite(challenge);
    say(t("invite.made.ok"));
    refresh();
  });
  page(view, t("invite.title"),
    h("p", { class: "muted" }, t("invite.lead")),
    form,
    h("section", { class: "card" }, h("h2", {}, t("invite.mine")),
      mine));
}
