// Edit ratings: which rating shows next to my name, and whether my new
// challenges are rated unless I choose otherwise. Saving updates the name in
// the header (and every list of people after it) at once.

import * as endpoints from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { page } from "../../components/layout.js";
import { CATEGORIES, categoryName, ratingMark } from "../../components/ratings.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { say } from "../../notify.js";
import { currentUser, setUser } from "../../state.js";

/** @typedef {import("../../models.js").RatingSettings} RatingSettings */

/** @param {HTMLElement} view */
export async function ratingsPage(view) {
  const name = currentUser()?.name ?? "";
  const [settings, profile] = await Promise.all([
    endpoints.ratingSettings(),
    endpoints.profile(name),
  ]);
  const form = h("form", { class: "card form ratings-form" },
    h("fieldset", { class: "terms", "data-setting": "shown" }, h("legend", {}, t("ratings.shown")),
      CATEGORIES.map((c) => {
        const r = profile.ratings.find((x) => x.category === c);
        return h("label", { class: "choice" },
          h("input", { type: "radio", name: "shown", value: c, checked: c === settings.shown }),
          h("span", {}, categoryName(c), " ",
            h("span", { class: "muted small" }, r
              ? ["(", ratingMark(r.rating, r.provisional), ` ${t("ratings.plusMinus", { deviation: r.deviation })}, ${tn("ratings.gamesCount", r.games)})`]
              : `(${t("ratings.unrated")})`)));
      })),
    h("label", { class: "check" },
      h("input", { type: "checkbox", name: "rated_by_default", checked: settings.rated_by_default }), t("ratings.defaultRated")),
    h("button", { type: "submit", class: "primary" }, t("ratings.save")));
  onSubmit(form, async (d) => {
    const saved = await endpoints.saveRatingSettings({
      // The select offers only the categories the server names.
      shown: /** @type {RatingSettings["shown"]} */ (d["shown"] ?? settings.shown), rated_by_default: d["rated_by_default"] === "on",
    });
    setUser(await endpoints.session());
    say(t("ratings.saved", { category: categoryName(saved.shown) }));
  });
  page(view, t("ratings.edit"),
    h("p", { class: "muted" }, t("ratings.editLead")),
    form,
    h("p", {}, h("a", { href: `#/user/${encodeURIComponent(name)}` }, t("ratings.title")), " · ",
      h("a", { href: "#/leaders" }, t("leaders.title"))));
}
