// A study's members: the owner and each member with their role; the owner
// invites and removes members, renames the study, makes it public or private
// and deletes it, and a member may leave.

import { button, userLink } from "../../components/layout.js";
import { onSubmit } from "../../components/form.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { attempt } from "../../notify.js";
import { go } from "../../router.js";
import * as endpoints from "./endpoints.js";

/** @typedef {import("./controller.js").StudyController} StudyController */

/**
 * Draws the members in `box`.
 * @param {HTMLElement} box
 * @param {StudyController} ctl
 */
export function drawMembers(box, ctl) {
  const { study } = ctl.state;
  const me = ctl.me;
  const owner = me === study.owner;
  const rows = [h("li", {}, userLink(study.owner), " ", h("span", { class: "muted small" }, t("study.owner")))];
  for (const m of study.members) {
    rows.push(h("li", { "data-member": m.name }, userLink(m.name), " ",
      h("span", { class: "muted small" }, t(m.role === "edit" ? "study.roleEdit" : "study.roleView")), " ",
      owner || m.name === me
        ? button(t(m.name === me ? "study.leave" : "study.remove"), () => attempt(async () => {
          await ctl.edit(endpoints.removeMember(ctl.id, m.name));
          if (m.name === me && ctl.state.study.visibility === "private") go("#/studies");
        }), { class: "small", "data-action": "remove-member" })
        : ""));
  }
  box.replaceChildren(h("h2", {}, t("study.members")), h("ul", { class: "member-list" }, rows), ...(owner ? ownerTools(ctl) : []));
}

/** What only the owner does. @param {StudyController} ctl */
function ownerTools(ctl) {
  const { study } = ctl.state;
  const invite = onSubmit(h("form", { class: "study-invite", id: "invite" },
    h("label", {}, t("study.inviteName"), h("input", { name: "name", required: "", autocomplete: "off" })),
    h("select", { name: "role", "aria-label": t("study.role") },
      h("option", { value: "view" }, t("study.roleView")), h("option", { value: "edit" }, t("study.roleEdit"))),
    h("button", { type: "submit" }, t("study.invite"))), async (v) => {
    await ctl.edit(endpoints.invite(ctl.id, (v["name"] ?? "").trim(), v["role"] === "edit" ? "edit" : "view"));
  }, { reset: true });
  const visibility = button(t(study.visibility === "public" ? "study.makePrivate" : "study.makePublic"),
    () => attempt(() => ctl.edit(endpoints.settings(ctl.id, { visibility: study.visibility === "public" ? "private" : "public" }))),
    { id: "visibility" });
  const rename = onSubmit(h("form", { class: "study-rename", id: "rename" },
    h("label", {}, t("study.titleField"), h("input", { name: "title", required: "", maxlength: "80", value: study.title })),
    h("button", { type: "submit" }, t("study.rename"))), async (v) => {
    await ctl.edit(endpoints.settings(ctl.id, { title: v["title"] ?? "" }));
  });
  const remove = button(t("study.deleteStudy"), () => attempt(async () => {
    if (!confirm(t("study.confirmDeleteStudy", { title: study.title }))) return;
    await endpoints.deleteStudy(ctl.id, ctl.state.study.version);
    go("#/studies");
  }), { id: "delete-study", class: "danger" });
  return [invite, h("div", { class: "buttons" }, visibility, remove), rename];
}
