// One tournament (`#/tournament/{id}`), open to visitors. It follows the
// server live: a change (an entry, a round, its end) reads it again and redraws
// it in place, keeping the focus. view.js draws it; endpoints.js asks the server.

import { page, swapKeepingFocus } from "../../components/layout.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { onTournament } from "../../live.js";
import { attempt, say, sayError } from "../../notify.js";
import { currentUser } from "../../state.js";
import { join, readTournament, withdraw } from "./endpoints.js";
import { tournamentBody } from "./view.js";

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function tournamentPage(view, [id = ""]) {
  let tour = await readTournament(id);
  const act = {
    join: () => attempt(async () => {
      await join(id);
      say(t("tournament.joined", { name: tour.name }));
      await update();
    }),
    leave: () => attempt(async () => {
      await withdraw(id);
      say(t("tournament.left"));
      await update();
    }),
    withdraw: () => attempt(async () => {
      if (!confirm(t("tournament.withdrawConfirm"))) return;
      await withdraw(id);
      say(t("tournament.withdrawn"));
      await update();
    }),
  };
  const render = () => tournamentBody(tour, currentUser()?.name ?? null, act);
  let body = render();
  page(view, tour.name, h("p", {}, h("a", { href: "#/tournaments" }, t("tournament.all"))), body);

  let asked = 0;
  async function update() {
    const mine = ++asked;
    try {
      const fresh = await readTournament(id);
      if (mine !== asked || !body.isConnected) return;
      tour = fresh;
      const next = render();
      swapKeepingFocus(body, next);
      body = next;
    } catch (err) {
      sayError(err);
    }
  }

  return onTournament((changed) => { if (changed === null || changed === id) update(); });
}
