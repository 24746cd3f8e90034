// Browser notifications, opt-in: permission is asked only when the user turns
// them on with the control here, and the choice is remembered in this browser.
// They tell of an opponent's move or a new message while the tab is hidden.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { noticeText } from "./notice.js";
import { say } from "../notify.js";

/** @typedef {import("../models.js").Notice} Notice */

const KEY = "xiangqi.notifications";

/** Whether the user turned notifications on here (and the browser allows them). */
function enabled() {
  try {
    return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function remember(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // Without storage the choice lasts for this page only.
  }
}

/**
 * Shows a notice as a browser notification, if the user wants them and is elsewhere.
 * @param {Notice} notice
 */
export function notifyBrowser(notice) {
  if (!enabled() || document.visibilityState === "visible") return;
  const from = notice.from ?? "";
  const body = notice.kind === "message" ? t("alerts.message", { name: from })
    : notice.study ? noticeText(notice) : t("alerts.move", { name: from });
  const n = new Notification(t("app.title"), { body, tag: `${notice.kind}:${notice.game ?? notice.study ?? from}` });
  n.addEventListener("click", () => {
    window.focus();
    location.hash = notice.kind === "message" ? `#/with/${encodeURIComponent(from)}`
      : notice.study ? `#/study/${encodeURIComponent(notice.study)}`
      : notice.game ? `#/game/${encodeURIComponent(notice.game)}` : "#/status";
  });
}

/** The control that turns notifications on or off. */
export function alertsToggle() {
  const b = h("button", { type: "button", class: "alerts-toggle", id: "alerts-toggle" });
  const label = () => (b.textContent = enabled() ? t("alerts.turnOff") : t("alerts.turnOn"));
  b.addEventListener("click", async () => {
    if (!("Notification" in window)) return say(t("alerts.unsupported"), "error");
    if (enabled()) {
      remember(false);
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      remember(answer === "granted");
      say(answer === "granted" ? t("alerts.on") : t("alerts.denied"), answer === "granted" ? "info" : "error");
    }
    label();
  });
  label();
  return b;
}
