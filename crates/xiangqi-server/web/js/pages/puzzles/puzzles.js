// Puzzles: a position from a real game where one move wins, found one move at
// a time. Modes: the next puzzle near one's rating (either board, any theme or
// one), the day's puzzle, a puzzle by its id, a timed streak, and the leaders.
//
// Addresses: #/puzzles[/hex], #/puzzles/theme/<theme>[/hex], #/puzzles/daily,
// #/puzzles/streak[/hex], #/puzzles/p/<id>, #/puzzles/leaders[/hex].
//
// controller.js holds the attempt and asks the server (through endpoints.js);
// view.js draws the page; modes.js reads the address and links the modes.

import { onPrefsChange } from "../../prefs.js";
import { puzzleController } from "./controller.js";
import { leadersPage } from "./leaders.js";
import { modeOf } from "./modes.js";
import { puzzleView } from "./view.js";

/**
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function puzzlesPage(view, args) {
  const mode = modeOf(args);
  if (mode.kind === "leaders") return leadersPage(view, mode.variant);
  const ctl = puzzleController(mode, puzzleView(view, mode));
  const stopPrefs = onPrefsChange(ctl.draw);
  await ctl.begin();
  return () => {
    ctl.stop();
    stopPrefs();
  };
}
