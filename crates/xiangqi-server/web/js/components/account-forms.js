// The forms to log in and to create a user id, side by side: the login page's
// and the visitor's main screen.

import * as api from "../api.js";
import { form } from "./form.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { go } from "../router.js";
import { setUser } from "../state.js";

/**
 * @param {string} path  `/session` to log in, `/users` to register
 * @returns {(values: Record<string, string>) => Promise<void>}
 */
const enter = (path) => async (values) => {
  try {
    setUser(await api.user("POST", path, { name: values["name"], password: values["password"] }));
  } catch (err) {
    // Locked out after failures: say how long to wait in the user's language.
    const seconds = err instanceof api.ApiError && err.status === 429 ? /(\d+) s/.exec(err.message)?.[1] : undefined;
    throw seconds ? new Error(t("login.locked", { seconds })) : err;
  }
  go("#/status");
};

/** The two forms, in columns. */
export function accountForms() {
  const login = form([
    { name: "name", label: t("login.name"), attrs: { autocomplete: "username", required: true } },
    { name: "password", label: t("login.password"), type: "password", attrs: { autocomplete: "current-password", required: true } },
  ], t("login.submit"), enter("/session"));
  const register = form([
    { name: "name", label: t("register.name"), attrs: { autocomplete: "username", required: true } },
    { name: "password", label: t("register.password"), type: "password", attrs: { autocomplete: "new-password", required: true } },
  ], t("register.submit"), enter("/users"));
  return h("div", { class: "columns" },
    h("section", {}, h("h2", {}, t("login.heading")), login),
    h("section", {}, h("h2", {}, t("register.heading")), register));
}
