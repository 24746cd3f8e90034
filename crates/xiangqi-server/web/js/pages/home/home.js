// The first screen. A visitor sees what the site is, links to the rules and the
// help, the games being played now (open to watch without an account), and the
// forms to log in or create a user id. A logged-in user sees the game status,
// with the site news above it.

import { dailyPuzzle, liveGames } from "./endpoints.js";
import { diagram } from "../../components/diagram.js";
import { standard } from "../../components/board-standard.js";
import { card, listOr } from "../../components/layout.js";
import { h } from "../../dom.js";
import { clockText, movesText, rulesName } from "../../format.js";
import { t } from "../../i18n.js";
import { currentUser } from "../../state.js";
import { accountForms } from "../../components/account-forms.js";
import { newsCard } from "../../components/news-card.js";
import { withBuddies } from "../../components/people.js";
import { statusPage } from "./status.js";

/** @typedef {import("../../models.js").Game} Game */
/** @typedef {import("../../api-types.js").PuzzleView} PuzzleView */

/** The day's puzzle as a diagram of its position, linking to the page that plays it. */
function dailyCard() {
  const box = h("div", {}, h("p", { class: "muted" }, t("app.loading")));
  const section = card(t("puzzle.daily"), box);
  section.classList.add("daily-puzzle");
  dailyPuzzle().then((p) => {
    box.replaceChildren(
      h("a", { href: "#/puzzles/daily", class: "daily-link", "aria-label": t("puzzle.dailyOpen") },
        diagram({ fen: p.fen, caption: t("puzzle.dailyText"), hexBoard: p.variant === "hex" })),
      h("p", {}, h("a", { class: "button-link", href: "#/puzzles/daily" }, t("puzzle.dailyOpen")),
        " ", h("a", { href: "#/puzzles" }, t("puzzle.rated"))));
  }).catch(() => section.remove());
  return section;
}

/** A player's games, their buddies beside them. */
const statusWithBuddies = withBuddies(statusPage);

/**
 * The games being played now, each a link to watch it.
 * @param {Game[]} games
 */
function liveList(games) {
  return listOr("games live-games", games, (g) => h("li", { class: "game-row", "data-key": g.id },
    h("a", { href: `#/game/${encodeURIComponent(g.id)}` }, t("home.versus", { red: g.red, black: g.black })),
    h("span", { class: "muted" }, t("status.summary", { rules: rulesName(g.rules), clock: clockText(g.clock), moves: movesText(g.ply) }))),
  t("home.noLive"));
}

/** @param {HTMLElement} view */
async function visitorHome(view) {
  const live = h("div", {}, h("p", { class: "muted" }, t("app.loading")));
  const columns = accountForms();
  const register = () => {
    const field = view.querySelector("section:nth-of-type(2) form input[name=name]");
    if (field instanceof HTMLElement) field.focus();
  };
  view.replaceChildren(
    h("div", { class: "home-hero" },
      h("div", {},
        h("h1", {}, t("home.title")),
        h("p", { class: "lead" }, t("home.lead")),
        h("p", {}, t("home.what")),
        h("div", { class: "home-links" },
          h("a", { href: "#/rules", class: "primary" }, t("home.readRules")),
          h("a", { href: "#/help" }, t("home.howToPlay")),
          h("a", { href: "#/tips" }, t("nav.tips")),
          h("a", { href: "#/settings" }, t("nav.settings")),
          h("a", { href: "#register", onclick: (e) => { e.preventDefault(); register(); } }, t("home.register")))),
      diagram({ fen: standard.startFen, caption: t("rules.board.start") })),
    card(t("home.live"), live),
    dailyCard(),
    h("section", { class: "card", id: "look-around" }, h("h2", {}, t("menu.look")),
      h("p", { class: "muted" }, t("home.lookText")),
      h("div", { class: "home-links" },
        h("a", { href: "#/room" }, t("nav.room")),
        h("a", { href: "#/people" }, t("nav.people")),
        h("a", { href: "#/tournaments" }, t("menu.tournaments")),
        h("a", { href: "#/ladder" }, t("menu.ladders")),
        h("a", { href: "#/leaders" }, t("nav.leaders")),
        h("a", { href: "#/analysis" }, t("menu.analysis")))),
    h("h2", { id: "register" }, t("home.join")),
    h("p", { class: "muted" }, t("home.joinText")),
    columns);
  const r = await liveGames().catch(() => null);
  live.replaceChildren(liveList(r?.games ?? []));
}

/** @param {HTMLElement} view */
export async function homePage(view) {
  if (!currentUser()) return visitorHome(view);
  const done = await statusWithBuddies(view, []);
  view.querySelector("h1")?.after(newsCard());
  view.append(dailyCard());
  return done;
}
