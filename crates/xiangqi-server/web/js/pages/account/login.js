// Log in, or create a user id.

import { accountForms } from "../../components/account-forms.js";
import { page } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

/** @param {HTMLElement} view */
export function loginPage(view) {
  page(view, t("login.title"), h("p", { class: "lead" }, t("login.lead")), accountForms());
}
