// My lists, which nobody else sees: the buddy list (with who is online and
// their games) and the ignore list (whoever is on it cannot message me,
// challenge me, be paired with me or chat in my games).

import { buddies, ignored } from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { button, page, userLink } from "../../components/layout.js";
import { personRow } from "../../components/people.js";
import { setRelation } from "../../components/user-actions.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { refresh } from "../../router.js";
import { pagedList } from "../../components/paged-list.js";


/**
 * A form that puts a name on a list.
 * @param {"buddies" | "ignored"} list
 * @param {string} label
 * @param {string} submit
 */
function addForm(list, label, submit) {
  return onSubmit(h("form", { class: "card add-form", id: `add-${list}` },
    h("label", {}, label, h("input", { name: "name", required: true, autocomplete: "off", maxlength: 20 })),
    h("button", { type: "submit" }, submit)), async (d) => {
    if (await setRelation(list, (d["name"] ?? "").trim(), true)) refresh();
  });
}

/** @param {HTMLElement} view */
export async function buddiesPage(view) {
  const list = await pagedList(async (after) => {
    const r = await buddies(after);
    return { items: r.users, next: r.next ?? null };
  }, (p) => personRow(p, refresh, { remove: true }), "people-list", t("buddies.none"));
  page(view, t("buddies.title"),
    h("p", { class: "muted" }, t("buddies.lead")),
    addForm("buddies", t("buddies.add"), t("people.addBuddy")),
    h("section", { class: "card" }, list));
}

/** @param {HTMLElement} view */
export async function ignoredPage(view) {
  const list = await pagedList(async (after) => {
    const r = await ignored(after);
    return { items: r.users, next: r.next ?? null };
  }, (name) => h("li", { class: "person", "data-user": name },
    h("span", { class: "who" }, userLink(name)),
    h("span", { class: "row-actions" }, button(t("people.unignore"), async () => {
      if (await setRelation("ignored", name, false)) refresh();
    }, { class: "unignore" }))), "ignored-list", t("ignore.none"));
  page(view, t("ignore.title"),
    h("p", { class: "muted" }, t("ignore.lead")),
    addForm("ignored", t("ignore.add"), t("people.ignore")),
    h("section", { class: "card" }, list));
}
