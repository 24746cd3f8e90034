// The header's people menu: talking, looking around and one's own account,
// as on the site's main screen.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { alertsToggle } from "./alerts.js";

/** @typedef {import("../i18n.js").TextKey} TextKey */

/** @type {[TextKey, [string, TextKey][]][]} */
const GROUPS = [
  ["menu.talk", [["#/messages", "menu.messages"], ["#/send", "menu.send"], ["#/invite", "menu.invite"]]],
  ["menu.look", [["#/people", "menu.here"], ["#/search", "menu.search"], ["#/analysis", "menu.analysis"], ["#/studies", "menu.studies"], ["#/database", "menu.database"], ["#/import", "menu.import"]]],
  ["menu.compete", [["#/tournaments", "menu.tournaments"], ["#/ladder", "menu.ladders"], ["#/leaders", "menu.leaders"]]],
  ["menu.account", [["#/edit-profile", "menu.editProfile"], ["#/password", "profile.password"], ["#/ratings", "menu.editRatings"], ["#/buddies", "menu.buddies"], ["#/ignored", "menu.ignored"]]],
];

/** The menu, closed; it closes again when a page opens. */
export function peopleMenu() {
  const menu = h("details", { class: "menu", id: "people-menu" });
  const close = () => (menu.open = false);
  window.addEventListener("hashchange", close);
  menu.append(h("summary", {}, t("menu.people")),
    h("div", { class: "menu-panel" },
      GROUPS.map(([title, links]) => h("div", { class: "menu-group" }, h("h3", {}, t(title)),
        links.map(([href, key]) => h("a", { href, onclick: close }, t(key))))),
      h("div", { class: "menu-group" }, h("h3", {}, t("menu.alerts")), alertsToggle())));
  return menu;
}
