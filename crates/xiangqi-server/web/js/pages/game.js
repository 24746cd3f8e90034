// A game: the board, the players and their clocks, the moves, and the actions
// (submit or take back the pending move, draw offers, abort or resign, claim on
// time; a rematch or a new game once it is over). A move is chosen on the board
// (mouse, touch or keyboard) then submitted, or typed in a box in ICCS, WXF or
// Chinese; the live socket brings the opponent's moves.
//
// game/controller.js holds the state and talks to the server and the socket;
// game/view.js and game/buttons.js draw it; game/spoken.js reads it out in
// the screen-reader mode.

import { readGame } from "./game/endpoints.js";
import { onPrefsChange } from "../prefs.js";
import { gameController } from "./game/controller.js";
import { spokenGame } from "./game/spoken.js";
import { gameView } from "./game/view.js";

/**
 * @param {HTMLElement} view
 * @param {string[]} args  the game id
 */
export async function gamePage(view, [id = ""]) {
  const ctl = gameController(await readGame(id));
  const drawn = gameView(view, ctl);
  const spoken = spokenGame(view, ctl);
  ctl.onChange((stepped) => {
    drawn.render(stepped);
    spoken.update();
  });
  drawn.render();
  const unfollow = ctl.follow();
  const stopPrefs = onPrefsChange(() => {
    drawn.redraw();
    spoken.redraw();
  });
  return () => {
    spoken.stop();
    drawn.stop();
    stopPrefs();
    unfollow();
  };
}
