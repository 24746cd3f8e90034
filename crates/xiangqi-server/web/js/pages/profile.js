// A player's profile; on one's own, editing the bio and changing the password.

import * as api from "../api.js";
import { form } from "../components/form.js";
import { button, page } from "../components/layout.js";
import { h } from "../dom.js";
import { date, t, tn } from "../i18n.js";
import { say } from "../notify.js";
import { go, refresh } from "../router.js";
import { currentUser, setUser } from "../state.js";

/** @typedef {import("../models.js").User} User */

/** @param {User} me */
function ownForms(me) {
  const bio = form([{ name: "bio", label: t("profile.bio"), type: "textarea" }], t("profile.save"), async (d) => {
    setUser(await api.user("PUT", "/me/profile", { bio: d["bio"] }));
    say(t("profile.saved"));
    refresh();
  });
  const bioField = bio.querySelector("textarea");
  if (bioField) bioField.value = me.bio ?? "";
  const password = form([
    { name: "old", label: t("profile.oldPassword"), type: "password", attrs: { autocomplete: "current-password" } },
    { name: "new", label: t("profile.newPassword"), type: "password", attrs: { autocomplete: "new-password" } },
  ], t("profile.changePassword"), async (d) => {
    await api.call("POST", "/me/password", d);
    say(t("profile.passwordChanged"));
  }, { reset: true });
  return [
    h("section", {}, h("h2", {}, t("profile.edit")), bio),
    h("section", {}, h("h2", {}, t("profile.password")), password),
  ];
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the player's name
 */
export async function profilePage(view, [name = ""]) {
  const user = await api.user("GET", api.userPath(name));
  const r = user.record ?? { wins: 0, losses: 0, draws: 0 };
  const me = currentUser();
  const about = h("section", { class: "card" },
    h("p", {}, t("profile.summary", { rating: user.rating, date: date(user.joined) })),
    h("p", {}, t("profile.record", { wins: tn("profile.wins", r.wins), losses: tn("profile.losses", r.losses), draws: tn("profile.draws", r.draws) })),
    h("p", { class: "bio" }, user.bio || t("profile.noBio")));
  const more = !me ? [] : me.name === user.name ? ownForms(me)
    : [button(t("profile.challenge", { name: user.name }), () => go(`#/new/${encodeURIComponent(user.name)}`))];
  page(view, user.name, about, more);
}
