// An invitation link opened: who invites (and to what game), and the form that
// creates a user id through it.

import * as endpoints from "./endpoints.js";
import { form } from "../../components/form.js";
import { page, userLink } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { go } from "../../router.js";
import { currentUser, setUser } from "../../state.js";
import { invitedTerms } from "../../components/terms.js";

/** @typedef {import("../../models.js").InvitationPreview} InvitationPreview */

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the invitation's code
 */
export async function joinPage(view, [code = ""]) {
  /** @type {InvitationPreview} */
  let invite;
  try {
    invite = await endpoints.invitation(code);
  } catch (err) {
    page(view, t("join.title"), h("p", { class: "message error" }, err instanceof Error ? err.message : String(err)),
      h("p", {}, h("a", { href: "#/" }, t("nav.login"))));
    return;
  }
  const who = h("p", { class: "lead invited" }, t("join.invites", { name: invite.inviter }));
  const game = invite.challenge ? h("p", {}, t("join.challenge", { name: invite.inviter, terms: invitedTerms(invite.challenge) })) : null;
  const me = currentUser();
  if (me) {
    page(view, t("join.title"), who, game,
      h("p", { class: "muted" }, t("join.already", { name: me.name })), h("p", {}, userLink(invite.inviter)));
    return;
  }
  const register = form([
    { name: "name", label: t("register.name"), attrs: { autocomplete: "username", required: true } },
    { name: "password", label: t("register.password"), type: "password", attrs: { autocomplete: "new-password", required: true } },
  ], t("join.submit"), async (d) => {
    setUser(await endpoints.register({ name: d["name"], password: d["password"], invite: code }));
    go(invite.challenge ? "#/room" : "#/status");
  });
  page(view, t("join.title"), who, game, h("p", { class: "muted" }, t("join.lead", { name: invite.inviter })), register);
}
