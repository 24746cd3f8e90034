// What one user can do about another, wherever a name is shown: write to them,
// challenge them in one click, keep them as a buddy, ignore them. A refusal
// (an ignoring user, a rate limit) shows the server's reason as it is.

import * as api from "../api.js";
import { h } from "../dom.js";
import { clockText, rulesName } from "../format.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { say } from "../notify.js";
import { currentUser } from "../state.js";
import { DEFAULT_CLOCK, DEFAULT_RULES, RULES } from "./terms.js";

/** @typedef {import("../models.js").UserView} UserView */

/**
 * Shows a refusal: what was tried, then the server's reason.
 * @param {string} what
 * @param {unknown} err
 */
export function refused(what, err) {
  say(t("people.refused", { what, reason: errorText(err) }), "error");
}

/** @param {string} name */
export const sendLink = (name) => `#/send/${encodeURIComponent(name)}`;

/** @param {string} name */
export const conversationLink = (name) => `#/with/${encodeURIComponent(name)}`;

/**
 * Challenges a user on my preferred terms (else Asian rules, 3 days a move).
 * @param {string} name
 * @returns {Promise<boolean>} whether the challenge went out
 */
export async function challenge(name) {
  const me = /** @type {UserView | null} */ (currentUser());
  const rules = me?.preferred_rules && RULES.includes(me.preferred_rules) ? me.preferred_rules : DEFAULT_RULES;
  const clock = me?.preferred_clock ?? DEFAULT_CLOCK;
  try {
    await api.call("POST", "/challenges", { opponent: name, rules, color: "random", clock });
  } catch (err) {
    refused(t("people.challengeWhat", { name }), err);
    return false;
  }
  say(t("people.challengeSent", { name, rules: rulesName(rules), clock: clockText(clock) }));
  return true;
}

/**
 * Puts a user on one of my lists, or takes them off.
 * @param {"buddies" | "ignored"} list
 * @param {string} name
 * @param {boolean} on
 * @returns {Promise<boolean>} whether it was done
 */
export async function setRelation(list, name, on) {
  try {
    await api.call(on ? "PUT" : "DELETE", `/me/${list}/${encodeURIComponent(name)}`);
  } catch (err) {
    refused(name, err);
    return false;
  }
  const key = list === "buddies" ? (on ? "people.buddyAdded" : "people.buddyRemoved") : on ? "people.ignoreAdded" : "people.ignoreRemoved";
  say(t(key, { name }));
  return true;
}

/**
 * A button that challenges a user in one click.
 * @param {string} name
 */
export function challengeButton(name) {
  const b = h("button", { type: "button", class: "challenge-one", "data-user": name, title: t("people.challengeTitle") },
    t("people.challenge"));
  b.addEventListener("click", async () => {
    b.disabled = true;
    await challenge(name);
    b.disabled = false;
  });
  return b;
}

/**
 * The actions about a user who is not me: message, challenge, buddy, ignore.
 * @param {string} name
 * @param {"buddy" | "ignore" | null | undefined} relation
 * @param {() => void} changed  called after a list changed (to draw the page again)
 */
export function userActions(name, relation, changed) {
  const me = currentUser();
  if (!me || me.name === name) return h("div", { class: "actions" });
  /** @param {"buddies" | "ignored"} list @param {boolean} on @param {string} label @param {string} cls */
  const toggle = (list, on, label, cls) => h("button", { type: "button", class: cls, onclick: async () => {
    if (await setRelation(list, name, on)) changed();
  } }, label);
  return h("div", { class: "actions" },
    h("a", { class: "button-link", href: sendLink(name) }, t("people.message")),
    relation === "ignore" ? null : challengeButton(name),
    relation === "ignore" ? null : h("a", { class: "button-link", href: `#/new/${encodeURIComponent(name)}` }, t("people.chooseTerms")),
    relation === "buddy"
      ? toggle("buddies", false, t("people.removeBuddy"), "unbuddy")
      : toggle("buddies", true, t("people.addBuddy"), "buddy"),
    relation === "ignore"
      ? toggle("ignored", false, t("people.unignore"), "unignore")
      : toggle("ignored", true, t("people.ignore"), "ignore danger"));
}
