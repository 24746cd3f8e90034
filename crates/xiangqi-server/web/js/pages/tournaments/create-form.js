// The form that creates a tournament.

import { onSubmit } from "../../components/form.js";
import { rulesSelect } from "../../components/terms.js";
import { h } from "../../dom.js";
import { clockText } from "../../format.js";
import { t } from "../../i18n.js";
import { tournamentLink } from "../../links.js";
import { say } from "../../notify.js";
import { go } from "../../router.js";
import { createTournament } from "./endpoints.js";
import { TIMES, clockOf } from "./words.js";

/** @typedef {import("../../api-types.js").NewTournament} NewTournament */

/** The form that creates a tournament; the category follows from the board the rules are played on and the time control's pace. */
export function createForm() {
  const rounds = h("input", { name: "rounds", type: "number", min: "1", max: "63", value: "4", inputmode: "numeric" });
  const format = h("select", { name: "format" },
    h("option", { value: "swiss" }, t("tournament.format.swiss")),
    h("option", { value: "round_robin" }, t("tournament.format.round_robin")));
  const roundsLabel = h("label", {}, t("tournament.rounds"), rounds);
  format.addEventListener("change", () => { roundsLabel.hidden = format.value !== "swiss"; });
  const whenFull = h("input", { type: "checkbox", name: "when_full", checked: true });
  const startAt = h("input", { type: "datetime-local", name: "starts" });
  const startLabel = h("label", {}, t("tournament.startAt"), startAt);
  startLabel.hidden = true;
  whenFull.addEventListener("change", () => { startLabel.hidden = whenFull.checked; });
  const form = h("form", { class: "card form tournament-new", id: "new-tournament" },
    h("h2", {}, t("tournament.create")),
    h("label", {}, t("tournament.name"), h("input", { name: "name", maxlength: "80", required: true, autocomplete: "off" })),
    h("label", {}, t("new.rules"), rulesSelect("rules", "asian")),
    h("label", {}, t("new.time"), h("select", { name: "time" }, TIMES.map(([v, key]) => {
      const text = clockText(clockOf(v));
      return h("option", { value: v }, key ? t(key, { time: text }) : text);
    }))),
    h("label", {}, t("tournament.format"), format),
    roundsLabel,
    h("div", { class: "tournament-players" },
      h("label", {}, t("tournament.minPlayers"), h("input", { name: "min_players", type: "number", min: "3", max: "64", value: "5", inputmode: "numeric" })),
      h("label", {}, t("tournament.maxPlayers"), h("input", { name: "max_players", type: "number", min: "3", max: "64", value: "9", inputmode: "numeric" }))),
    h("label", { class: "check" }, whenFull, t("tournament.whenFull")),
    startLabel,
    h("p", { class: "muted small" }, t("tournament.hexLater")),
    h("button", { type: "submit", class: "primary" }, t("tournament.createButton")));
  onSubmit(form, async (d) => {
    const clock = clockOf(d["time"] ?? "c48");
    const swiss = d["format"] === "swiss";
    const starts = whenFull.checked ? null : new Date(d["starts"] ?? "").getTime();
    const made = await createTournament({
      name: d["name"] ?? "",
      category: `${d["rules"] === "hex" ? "hex" : "standard"}_${clock.kind === "live" ? "live" : "correspondence"}`,
      // The selects offer only values the server names.
      rules: /** @type {NewTournament["rules"]} */ (d["rules"]),
      clock,
      format: /** @type {NewTournament["format"]} */ (d["format"]),
      rounds: swiss ? Number(d["rounds"]) : null,
      min_players: Number(d["min_players"]),
      max_players: Number(d["max_players"]),
      starts: starts !== null && Number.isNaN(starts) ? 0 : starts,
    });
    say(t("tournament.created", { name: made.tournament.name }));
    go(tournamentLink(made.tournament.id));
  });
  return form;
}
