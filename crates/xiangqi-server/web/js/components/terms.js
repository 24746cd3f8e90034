// Game terms as form fields: a rule set, a time control and a side, for the
// profile's preferences, invitations and one-click challenges.

import { h } from "../dom.js";
import { clockText, rulesName } from "../format.js";
import { t } from "../i18n.js";

/** @typedef {import("../models.js").ClockSpec} ClockSpec */

/** The rule sets games are played with (the last on the hex board). */
export const RULES = ["asian", "itsyourturn", "casual", "hex"];

/** Time controls offered, as option values: `c{hours}` or `l{minutes}+{seconds}`. */
export const TIMES = ["c72", "c24", "c168", "l10+5", "l5+3", "l30+20"];

/** The terms of a challenge made in one click, when the user has no preference. */
export const DEFAULT_RULES = "asian";
/** @type {ClockSpec} */
export const DEFAULT_CLOCK = { kind: "correspondence", hours: 72 };

/**
 * The clock an option value stands for; null for "".
 * @param {string} value
 * @returns {ClockSpec | null}
 */
export function clockOf(value) {
  if (!value) return null;
  if (value.startsWith("c")) return { kind: "correspondence", hours: Number(value.slice(1)) };
  const [base = 0, inc = 0] = value.slice(1).split("+").map(Number);
  return { kind: "live", base: base * 60000, increment: inc * 1000 };
}

/**
 * The option value of a clock ("" for none).
 * @param {ClockSpec | null | undefined} clock
 */
export function valueOf(clock) {
  if (!clock) return "";
  return clock.kind === "correspondence" ? `c${clock.hours}` : `l${clock.base / 60000}+${clock.increment / 1000}`;
}

/**
 * A select of rule sets.
 * @param {string} name
 * @param {string | null | undefined} chosen
 * @param {string} [none]  the label of an empty choice, if one is offered
 */
export function rulesSelect(name, chosen, none) {
  return h("select", { name },
    none === undefined ? null : h("option", { value: "", selected: !chosen }, none),
    RULES.map((r) => h("option", { value: r, selected: r === chosen }, rulesName(r))));
}

/**
 * A select of time controls; a clock not among the usual ones is offered too.
 * @param {string} name
 * @param {ClockSpec | null | undefined} chosen
 * @param {string} [none]
 */
export function timeSelect(name, chosen, none) {
  const current = valueOf(chosen);
  const values = current && !TIMES.includes(current) ? [...TIMES, current] : TIMES;
  return h("select", { name },
    none === undefined ? null : h("option", { value: "", selected: !current }, none),
    values.map((v) => h("option", { value: v, selected: v === current }, clockText(clockOf(v)))));
}

/**
 * A select of the side the challenger plays.
 * @param {string} name
 */
export function colorSelect(name) {
  return h("select", { name },
    h("option", { value: "random" }, t("new.color.random")),
    h("option", { value: "red" }, t("new.color.red")),
    h("option", { value: "black" }, t("new.color.black")));
}

/** @typedef {import("../models.js").InvitedGame} InvitedGame */

/**
 * The terms of an invitation's challenge, in words.
 * @param {InvitedGame} c
 */
export function invitedTerms(c) {
  const side = t(c.color === "red" ? "invite.side.red" : c.color === "black" ? "invite.side.black" : "invite.side.random");
  return t("invite.terms", { rules: rulesName(c.rules), clock: clockText(c.clock), side });
}
