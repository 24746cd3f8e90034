// The page's entry point: restores the session, wires the session to the
// navigation and the live socket, and starts routing.

import * as api from "./api.js";
import { renderNav } from "./components/nav.js";
import { $ } from "./dom.js";
import { lang, t } from "./i18n.js";
import * as live from "./live.js";
import { noticeLink, noticeText } from "./components/notice.js";
import { say, sayNext } from "./notify.js";
import { startBadges } from "./components/badges.js";
import { conversationPage } from "./pages/messages/conversation.js";
import { invitePage } from "./pages/account/invite.js";
import { joinPage } from "./pages/account/join.js";
import { leadersPage } from "./pages/people/leaders.js";
import { ladderPage } from "./pages/ladder/ladder.js";
import { tournamentsPage } from "./pages/tournaments/list.js";
import { tournamentPage } from "./pages/tournaments/tournament.js";
import { buddiesPage, ignoredPage } from "./pages/people/lists.js";
import { messagesPage, sendPage } from "./pages/messages/messages.js";
import { profileEditPage } from "./pages/people/profile-edit.js";
import { searchPage } from "./pages/people/search.js";
import { gamePage } from "./pages/game.js";
import { helpPage, tipsPage } from "./pages/help.js";
import { homePage } from "./pages/home/home.js";
import { newsPage } from "./pages/news.js";
import { localGamePage } from "./pages/local-game.js";
import { rulesPage } from "./pages/rules.js";
import { settingsPage } from "./pages/account/settings.js";
import { startPrefs } from "./prefs.js";
import { startOffline } from "./offline.js";
import { loginPage } from "./pages/account/login.js";
import { newGamePage } from "./pages/play/new-game.js";
import { peoplePage } from "./pages/people/people.js";
import { positionPage } from "./pages/position.js";
import { analysisPage } from "./pages/analysis.js";
import { puzzlesPage } from "./pages/puzzles/puzzles.js";
import { databasePage } from "./pages/database/database.js";
import { importPage } from "./pages/database/imports.js";
import { mastersPage } from "./pages/database/masters.js";
import { studiesPage } from "./pages/studies/list.js";
import { studyPage } from "./pages/studies/study.js";
import { passwordPage, profilePage } from "./pages/people/profile.js";
import { ratingsPage } from "./pages/people/ratings.js";
import { roomPage } from "./pages/play/room.js";
import { current, go, startRouter } from "./router.js";
import { isQueued, onUserChange, setQueued, setUser } from "./state.js";

document.documentElement.lang = lang;
document.title = t("app.title");

// The first screen: a visitor's welcome, or a logged-in user's games and the news.
const status = { page: homePage, open: true };
startPrefs();
startOffline();

onUserChange((user, before) => {
  renderNav();
  // The server ties a socket to the session it was opened with.
  if (user?.name !== before?.name) live.reconnect();
});

// A notice shows on the message line with a link to what it is about, except
// on the game page it concerns, which shows it itself. An accepted challenge
// takes a player who waits for it (in the auto-match queue, or in the waiting
// room) to the new game.
live.onNotice((notice) => {
  const { name, args } = current();
  if (notice.kind === "accepted" && notice.game && (isQueued() || name === "room" || name === "new")) {
    sayNext(isQueued() ? t("notice.paired", { from: notice.from ?? "" }) : noticeText(notice));
    setQueued(false);
    go(`#/game/${encodeURIComponent(notice.game)}`);
    return;
  }
  if (name === "game" && notice.game && args[0] === notice.game) return;
  say([noticeText(notice), " ", noticeLink(notice)]);
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
    room: { page: roomPage, open: true },
    people: { page: peoplePage, open: true },
    game: { page: gamePage, open: true },
    user: { page: profilePage, open: true },
    position: { page: positionPage, open: true },
    analysis: { page: analysisPage, open: true },
    local: { page: localGamePage, open: true },
    puzzles: { page: puzzlesPage, open: true },
    database: { page: databasePage, open: true },
    import: { page: importPage },
    masters: { page: mastersPage, open: true },
    messages: { page: messagesPage },
    send: { page: sendPage },
    with: { page: conversationPage },
    search: { page: searchPage },
    "edit-profile": { page: profileEditPage },
    password: { page: passwordPage },
    buddies: { page: buddiesPage },
    ignored: { page: ignoredPage },
    invite: { page: invitePage },
    join: { page: joinPage, open: true },
    settings: { page: settingsPage, open: true },
    rules: { page: rulesPage, open: true },
    help: { page: helpPage, open: true },
    tips: { page: tipsPage, open: true },
    news: { page: newsPage, open: true },
    leaders: { page: leadersPage, open: true },
    ratings: { page: ratingsPage },
    ladder: { page: ladderPage, open: true },
    tournaments: { page: tournamentsPage, open: true },
    tournament: { page: tournamentPage, open: true },
    studies: { page: studiesPage, open: true },
    study: { page: studyPage, open: true },
  }, status, loginPage);
})();
