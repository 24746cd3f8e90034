// The page's entry point: restores the session, wires the session to the
// navigation and the live socket, and starts routing.

import * as api from "./api.js";
import { renderNav } from "./components/nav.js";
import { $ } from "./dom.js";
import { lang, t } from "./i18n.js";
import * as live from "./live.js";
import { say } from "./notify.js";
import { startBadges } from "./components/badges.js";
import { withBuddies } from "./components/people.js";
import { conversationPage } from "./pages/conversation.js";
import { invitePage } from "./pages/invite.js";
import { joinPage } from "./pages/join.js";
import { buddiesPage, ignoredPage } from "./pages/lists.js";
import { messagesPage, sendPage } from "./pages/messages.js";
import { profileEditPage } from "./pages/profile-edit.js";
import { searchPage } from "./pages/search.js";
import { gamePage } from "./pages/game.js";
import { loginPage } from "./pages/login.js";
import { newGamePage } from "./pages/new-game.js";
import { peoplePage } from "./pages/people.js";
import { positionPage } from "./pages/position.js";
import { profilePage } from "./pages/profile.js";
import { roomPage } from "./pages/room.js";
import { statusPage } from "./pages/status.js";
import { current, refresh, startRouter } from "./router.js";
import { onUserChange, setUser } from "./state.js";

document.documentElement.lang = lang;
document.title = t("app.title");

const status = { page: withBuddies(statusPage) };

onUserChange((user, before) => {
  renderNav();
  // The server ties a socket to the session it was opened with.
  if (user?.name !== before?.name) live.reconnect();
});

live.onNotice((text) => {
  say(text);
  if (["", "status"].includes(current().name)) refresh();
});

(async () => {
  try {
    setUser(await api.user("GET", "/session"));
  } catch {
    setUser(null);
  }
  live.start();
  startBadges();
  startRouter($("#main"), {
    status,
    new: { page: newGamePage },
    room: { page: roomPage },
    people: { page: peoplePage },
    game: { page: gamePage, open: true },
    user: { page: profilePage, open: true },
    position: { page: positionPage, open: true },
    messages: { page: messagesPage },
    send: { page: sendPage },
    with: { page: conversationPage },
    search: { page: searchPage },
    "edit-profile": { page: profileEditPage },
    buddies: { page: buddiesPage },
    ignored: { page: ignoredPage },
    invite: { page: invitePage },
    join: { page: joinPage, open: true },
  }, status, loginPage);
})();
