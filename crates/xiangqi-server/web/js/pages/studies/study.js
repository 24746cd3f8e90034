// A study (`#/study/{id}`): shared analysis in chapters, each a board and its
// tree of moves with variations, and on each position a comment, arrows and
// marked points; the chapters, the members (the owner invites and removes
// them) and the PGN export. Every edit names the version of the study it was
// made on; the server refuses a stale one, and everyone looking at the study
// gets each edit live over the WebSocket, so the page always shows the study
// as it is.
//
// controller.js holds the state and asks the server (through endpoints.js);
// view.js draws the page, with chapters.js and members.js.

import { onPrefsChange } from "../../prefs.js";
import { watchStudy } from "../../live.js";
import { currentUser } from "../../state.js";
import { studyController } from "./controller.js";
import { readStudy } from "./endpoints.js";
import { studyView } from "./view.js";

/**
 * A study.
 * @param {HTMLElement} view
 * @param {string[]} args
 */
export async function studyPage(view, args) {
  const id = args[0] ?? "";
  const first = await readStudy(id);
  const ctl = studyController(first.study, currentUser()?.name ?? null);
  const drawn = studyView(view, ctl);
  ctl.onChange(() => drawn.render());

  /** @param {KeyboardEvent} e */
  function keys(e) {
    const target = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target instanceof SVGElement) return;
    const n = ctl.node();
    const act = {
      ArrowLeft: () => ctl.goTo(n?.parent ?? 0), ArrowRight: () => ctl.goTo(n?.children[0] ?? ctl.state.nodeId),
      Home: () => ctl.goTo(0), End: () => ctl.goTo(ctl.lastOfLine()),
    }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  }
  document.addEventListener("keydown", keys);
  const stopWatching = watchStudy(id, ctl.show);
  const stopPrefs = onPrefsChange(() => drawn.render());
  await drawn.render();
  return () => {
    document.removeEventListener("keydown", keys);
    drawn.stopEngine();
    stopWatching();
    stopPrefs();
  };
}
