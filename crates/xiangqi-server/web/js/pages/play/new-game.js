// New game: a challenge (to someone, or open in the waiting room) or auto-match.

import * as endpoints from "./endpoints.js";
import { onSubmit } from "../../components/form.js";
import { page } from "../../components/layout.js";
import { TIMES, clockOf } from "../../components/terms.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { sayNext } from "../../notify.js";
import { go } from "../../router.js";
import { setQueued } from "../../state.js";


/**
 * How a time option reads here: correspondence in days per move (the server
 * counts hours), live as minutes + seconds.
 * @param {string} value
 */
function timeLabel(value) {
  const clock = clockOf(value);
  if (!clock) return "";
  if (clock.kind === "live") return t("new.time.live", { minutes: clock.base / 60000, seconds: clock.increment / 1000 });
  return clock.hours % 24 === 0 ? tn("new.time.correspondence", clock.hours / 24) : tn("new.time.hours", clock.hours);
}

/**
 * @param {string} value
 * @param {string} label
 */
const option = (value, label) => h("option", { value }, label);

/**
 * The fields both forms share, and optionally the opponent and colour.
 * @param {{ opponent?: string, color?: boolean, rated: boolean, unrated?: boolean }} extra
 */
function settingsForm(extra) {
  return h("form", { class: "card form" },
    extra.opponent !== undefined
      ? h("label", {}, t("new.opponent"), h("input", { name: "opponent", autocomplete: "off", value: extra.opponent }))
      : null,
    h("label", {}, t("new.rules"), h("select", { name: "rules" },
      option("asian", t("new.rules.asian")),
      option("itsyourturn", t("new.rules.itsyourturn")),
      option("casual", t("new.rules.casual")),
      option("hex", t("new.rules.hex")))),
    extra.color
      ? h("label", {}, t("new.color"), h("select", { name: "color" },
        option("random", t("new.color.random")), option("red", t("new.color.red")), option("black", t("new.color.black"))))
      : null,
    h("label", {}, t("new.time"), h("select", { name: "time" }, TIMES.map((v) => option(v, timeLabel(v))))),
    extra.unrated ? null
      : h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated", checked: extra.rated }), t("new.rated")));
}

/**
 * @param {HTMLElement} view
 * @param {string[]} args  an opponent to fill in, from a profile's challenge button
 */
export async function newGamePage(view, [opponent = ""]) {
  const settings = await endpoints.ratingSettings().catch(() => null);
  const rated = settings?.rated_by_default ?? true;
  const challenge = settingsForm({ opponent, color: true, rated });
  challenge.append(h("button", { type: "submit" }, t("new.send")));
  onSubmit(challenge, async (d) => {
    const to = d["opponent"] || null;
    await endpoints.challenge({ opponent: to, rules: d["rules"], color: d["color"], clock: clockOf(d["time"] ?? ""), rated: d["rated"] === "on" });
    sayNext(to ? t("new.sentTo", { name: to }) : t("new.posted"));
    go("#/room");
  });
  const auto = settingsForm({ rated });
  auto.append(h("button", { type: "submit" }, t("new.find")));
  onSubmit(auto, async (d) => {
    const r = await endpoints.automatch({ rules: d["rules"], clock: clockOf(d["time"] ?? ""), rated: d["rated"] === "on" });
    if (r.game) return go(`#/game/${encodeURIComponent(r.game.id)}`);
    setQueued(true);
    go("#/room");
  });
  const computer = await computerForm();
  page(view, t("new.title"), h("div", { class: "columns" },
    h("section", {}, h("h2", {}, t("new.challenge")), challenge),
    h("section", {}, h("h2", {}, t("new.auto")), auto),
    h("section", { id: "computer" }, h("h2", {}, t("computer.title")), computer,
      h("p", {}, h("a", { href: "#/local", id: "local-link" }, t("local.link"))))));
}

/**
 * The form that starts a game against the computer: a level (with its measured
 * strength), the rules, the time and a side.
 */
async function computerForm() {
  const { levels } = await endpoints.computerLevels();
  const form = settingsForm({ color: true, rated: false, unrated: true });
  form.prepend(h("label", {}, t("computer.level"), h("select", { name: "level" },
    levels.map((l) => h("option", { value: String(l.level), selected: l.level === 3 },
      l.elo === 0 ? t("computer.levelFirst", { level: l.level }) : t("computer.levelOption", { level: l.level, elo: l.elo }))))));
  form.append(h("p", { class: "muted" }, t("computer.hint")), h("button", { type: "submit" }, t("computer.play")));
  onSubmit(form, async (d) => {
    const r = await endpoints.computerGame({
      level: Number(d["level"]), rules: d["rules"], color: d["color"], clock: clockOf(d["time"] ?? ""),
    });
    go(`#/game/${encodeURIComponent(r.game.id)}`);
  });
  return form;
}
