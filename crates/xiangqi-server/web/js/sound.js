// The move sound: a short beep made with WebAudio (no sound files), when the
// player wants one. Browsers start audio only after the user has touched the
// page, so the first beeps of a page nobody touched may be silent.

import { prefs } from "./prefs.js";

/** @type {AudioContext | null} */
let audio = null;
/** Beeps asked for so far on this page (the browser tests read it). */
let beeps = 0;

/** Beeps if the player wants a sound for moves. */
export function moveSound() {
  if (!prefs().sound) return;
  beeps += 1;
  document.documentElement.dataset["beeps"] = String(beeps);
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(660, now);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.14);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.15);
  } catch {
    // No audio here: the move shows all the same.
  }
}
