// Edit user profile: bio, location, languages, and the rule set and time
// control one prefers (a one-click challenge uses them).

import { editProfile, session } from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { page } from "../../components/layout.js";
import { clockOf, rulesSelect, timeSelect } from "../../components/terms.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { say } from "../../notify.js";
import { go } from "../../router.js";
import { setUser } from "../../state.js";

/** @typedef {import("../../models.js").UserView} UserView */

/** @param {HTMLElement} view */
export async function profileEditPage(view) {
  const me = /** @type {UserView} */ (await session());
  const bio = h("textarea", { name: "bio", maxlength: 500, rows: 5 });
  bio.value = me.bio ?? "";
  const form = onSubmit(h("form", { class: "card form profile-form" },
    h("label", {}, t("edit.bio"), bio),
    h("label", {}, t("edit.location"), h("input", { name: "location", maxlength: 100, value: me.location ?? "" })),
    h("label", {}, t("edit.languages"), h("input", { name: "languages", value: (me.languages ?? []).join(", ") })),
    h("label", {}, t("edit.rules"), rulesSelect("rules", me.preferred_rules, t("edit.noPreference"))),
    h("label", {}, t("edit.time"), timeSelect("time", me.preferred_clock, t("edit.noPreference"))),
    h("button", { type: "submit", class: "primary" }, t("profile.save"))), async (d) => {
    const languages = (d["languages"] ?? "").split(/[,，]/).map((l) => l.trim()).filter(Boolean);
    const saved = await editProfile({
      bio: d["bio"] ?? "",
      location: (d["location"] ?? "").trim(),
      languages,
      // The select offers only the rule sets the server names.
      preferred_rules: /** @type {import("../../api-types.js").ProfileEdit["preferred_rules"]} */ (d["rules"] || null),
      preferred_clock: clockOf(d["time"] ?? ""),
    });
    setUser(saved);
    say(t("profile.saved"));
    go(`#/user/${encodeURIComponent(saved.name)}`);
  });
  page(view, t("edit.title"), h("p", { class: "muted" }, t("edit.lead")), form);
}
