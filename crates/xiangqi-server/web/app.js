// The play site in one page: accounts, game status, new game, waiting room,
// auto-match, games with the click-then-submit flow, live updates, people.
// Everything goes through the JSON API (/api/v1) the server documents.

import { Board } from "./board.js";

const $ = (sel, root = document) => root.querySelector(sel);
const main = $("#main");
let me = null;
let socket = null;
let watched = null;
let current = null; // { game, board, pending, flipped }

// --- API ---------------------------------------------------------------------

async function api(method, path, body) {
  const opts = { method, credentials: "same-origin", headers: { "X-Xiangqi": "1" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(`/api/v1${path}`, opts);
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.message || res.statusText), { status: res.status, code: data.error });
  return data;
}

function say(text, kind = "info") {
  const box = $("#message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
  clearTimeout(say.timer);
  if (text && kind !== "error") say.timer = setTimeout(() => (box.hidden = true), 5000);
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const userLink = (name) => h("a", { href: `#/user/${name}` }, name);

function clockText(clock) {
  if (!clock) return "";
  if (clock.kind === "live") return `${Math.round(clock.base / 60000)}+${Math.round(clock.increment / 1000)}`;
  return `${clock.days} day${clock.days > 1 ? "s" : ""}/move`;
}

function duration(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}` : `${mm}:${String(ss).padStart(2, "0")}`;
}

// --- live updates -----------------------------------------------------------

function connect(delay = 500) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/api/v1/ws`);
  socket.onopen = () => {
    delay = 500;
    if (watched) socket.send(JSON.stringify({ watch: watched }));
  };
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "game" && current && msg.game.id === current.game.id) {
      if (msg.game.version >= current.game.version) showGame(msg.game);
    } else if (msg.type === "notice") {
      say(msg.text);
      if (location.hash === "#/status" || location.hash === "" || location.hash === "#/") route();
    }
  };
  socket.onclose = () => setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
}

function watch(id) {
  if (watched && watched !== id && socket?.readyState === 1) socket.send(JSON.stringify({ unwatch: watched }));
  watched = id;
  if (id && socket?.readyState === 1) socket.send(JSON.stringify({ watch: id }));
}

// --- pages ------------------------------------------------------------------

function page(title, ...content) {
  main.replaceChildren(h("h1", {}, title), ...content);
}

function form(fields, submitText, onSubmit) {
  const f = h("form", { class: "card form" },
    ...fields.map(([name, label, type = "text", extra = {}]) =>
      h("label", {}, label, h(type === "textarea" ? "textarea" : "input", { name, type, ...extra }))),
    h("button", { type: "submit" }, submitText));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(f));
    try {
      await onSubmit(data);
    } catch (err) {
      say(err.message, "error");
    }
  });
  return f;
}

function loginPage() {
  page("Play Xiangqi",
    h("p", { class: "lead" }, "Turn-based and live Chinese chess against people. Log in, or create a user id."),
    h("div", { class: "columns" },
      h("section", {}, h("h2", {}, "Log in"),
        form([["name", "User id", "text", { autocomplete: "username", required: true }], ["password", "Password", "password", { autocomplete: "current-password", required: true }]],
          "Log in", async (d) => { me = (await api("POST", "/session", d)).user; afterLogin(); })),
      h("section", {}, h("h2", {}, "Create a user id"),
        form([["name", "User id (3-20 letters, digits, _ or -)", "text", { autocomplete: "username", required: true }], ["password", "Password (8 characters or more)", "password", { autocomplete: "new-password", required: true }]],
          "Create", async (d) => { me = (await api("POST", "/users", d)).user; afterLogin(); }))));
}

function afterLogin() {
  renderNav();
  connect.started || (connect.started = true, connect());
  location.hash = "#/status";
  route();
}

function gameRow(g) {
  const opponent = g.red === me.name ? g.black : g.red;
  const color = g.red === me.name ? "red" : "black";
  const state = g.outcome ? g.outcome.text : g.turn === color ? "your move" : `${opponent} to move`;
  return h("li", { class: "game-row" },
    h("a", { href: `#/game/${g.id}` }, `vs ${opponent}`),
    h("span", { class: `side ${color}` }, color),
    h("span", { class: "muted" }, `${g.rules}, ${clockText(g.clock)}, ${g.ply} moves`),
    h("span", {}, state));
}

async function statusPage() {
  const games = await api("GET", "/games");
  const list = (title, items, empty) => h("section", { class: "card" }, h("h2", {}, `${title} (${items.length})`),
    items.length ? h("ul", { class: "games" }, items.map(gameRow)) : h("p", { class: "muted" }, empty));
  page("Game status",
    list("My turn", games.my_turn, "No game is waiting for you."),
    list("Their turn", games.their_turn, "None."),
    list("Finished", games.finished, "No finished games yet."));
}

function settingsForm(withOpponent, withColor) {
  const f = h("form", { class: "card form" },
    withOpponent ? h("label", {}, "Opponent (user id; empty for the waiting room)", h("input", { name: "opponent", autocomplete: "off" })) : "",
    h("label", {}, "Rule set", h("select", { name: "rules" },
      h("option", { value: "asian" }, "Asian (perpetual check or chase loses)"),
      h("option", { value: "itsyourturn" }, "ItsYourTurn (4-check limit, two-point chase rule)"),
      h("option", { value: "casual" }, "Casual (threefold repetition draws)"))),
    withColor ? h("label", {}, "I play", h("select", { name: "color" },
      h("option", { value: "random" }, "random"), h("option", { value: "red" }, "red (moves first)"), h("option", { value: "black" }, "black"))) : "",
    h("label", {}, "Time", h("select", { name: "time" },
      h("option", { value: "c3" }, "Correspondence, 3 days per move"),
      h("option", { value: "c1" }, "Correspondence, 1 day per move"),
      h("option", { value: "c7" }, "Correspondence, 7 days per move"),
      h("option", { value: "l10+5" }, "Live 10+5"),
      h("option", { value: "l5+3" }, "Live 5+3"),
      h("option", { value: "l30+20" }, "Live 30+20"))));
  return f;
}

function clockOf(value) {
  if (value.startsWith("c")) return { kind: "correspondence", days: Number(value.slice(1)) };
  const [base, inc] = value.slice(1).split("+").map(Number);
  return { kind: "live", base: base * 60000, increment: inc * 1000 };
}

function newGamePage() {
  const challenge = settingsForm(true, true);
  challenge.append(h("button", { type: "submit" }, "Send challenge"));
  challenge.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = Object.fromEntries(new FormData(challenge));
    try {
      await api("POST", "/challenges", { opponent: d.opponent || null, rules: d.rules, color: d.color, clock: clockOf(d.time) });
      say(d.opponent ? `Challenge sent to ${d.opponent}.` : "Your challenge is in the waiting room.");
      location.hash = "#/room";
    } catch (err) { say(err.message, "error"); }
  });
  const auto = settingsForm(false, false);
  auto.append(h("button", { type: "submit" }, "Find me an opponent"));
  auto.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = Object.fromEntries(new FormData(auto));
    try {
      const r = await api("POST", "/automatch", { rules: d.rules, clock: clockOf(d.time) });
      if (r.game) location.hash = `#/game/${r.game.id}`;
      else { say("You are waiting in the auto-match queue; the game starts when someone asks for the same."); location.hash = "#/room"; }
    } catch (err) { say(err.message, "error"); }
  });
  page("New game", h("div", { class: "columns" },
    h("section", {}, h("h2", {}, "Challenge"), challenge),
    h("section", {}, h("h2", {}, "Auto-match"), auto)));
}

function challengeItem(c, actions) {
  return h("li", { class: "challenge", "data-challenge": c.id },
    h("span", {}, c.auto ? "auto-match" : c.opponent ? `${c.creator} → ${c.opponent}` : c.creator),
    h("span", { class: "muted" }, `${c.rules}, ${clockText(c.clock)}, creator plays ${c.color}`),
    ...actions);
}

async function roomPage() {
  const c = await api("GET", "/challenges");
  const act = (label, fn) => h("button", { onclick: async () => {
    try { await fn(); } catch (err) { say(err.message, "error"); }
  } }, label);
  const accept = (ch) => act("Accept", async () => { const r = await api("POST", `/challenges/${ch.id}/accept`); location.hash = `#/game/${r.game.id}`; });
  const cancel = (ch, label) => act(label, async () => { await api("DELETE", `/challenges/${ch.id}`); roomPage(); });
  const list = (title, items, make, empty) => h("section", { class: "card" }, h("h2", {}, title),
    items.length ? h("ul", { class: "challenges" }, items.map(make)) : h("p", { class: "muted" }, empty));
  page("Waiting room",
    list("Open challenges", c.open, (ch) => challengeItem(ch, [accept(ch)]), "Nobody is waiting. Post a challenge from New game."),
    list("Challenges to me", c.incoming, (ch) => challengeItem(ch, [accept(ch), cancel(ch, "Decline")]), "None."),
    list("My challenges", c.outgoing, (ch) => challengeItem(ch, [cancel(ch, "Cancel")]), "None."));
}

async function peoplePage() {
  const r = await api("GET", "/users");
  const online = new Set(r.online);
  page("Who is here",
    h("section", { class: "card" }, h("h2", {}, `Online now (${r.online.length})`),
      h("p", {}, ...r.online.flatMap((n, i) => [i ? ", " : "", userLink(n)]))),
    h("section", { class: "card" }, h("h2", {}, "All players"),
      h("table", { class: "people" }, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Joined")),
        r.users.map((u) => h("tr", {}, h("td", {}, userLink(u.name), online.has(u.name) ? " ●" : ""), h("td", {}, u.rating),
          h("td", {}, new Date(u.joined).toLocaleDateString()))))));
}

async function userPage(name) {
  const { user } = await api("GET", `/users/${encodeURIComponent(name)}`);
  const r = user.record;
  const parts = [h("section", { class: "card" },
    h("p", {}, `Rating ${user.rating} · joined ${new Date(user.joined).toLocaleDateString()}`),
    h("p", {}, `Record: ${r.wins} wins, ${r.losses} losses, ${r.draws} draws`),
    h("p", { class: "bio" }, user.bio || "No bio yet."))];
  if (me && me.name === user.name) {
    parts.push(h("section", {}, h("h2", {}, "Edit profile"),
      form([["bio", "Bio (up to 500 characters)", "textarea", {}]], "Save", async (d) => {
        me = (await api("PUT", "/me/profile", { bio: d.bio })).user; say("Saved."); userPage(me.name);
      })));
    parts.push(h("section", {}, h("h2", {}, "Change password"),
      form([["old", "Current password", "password", { autocomplete: "current-password" }], ["new", "New password", "password", { autocomplete: "new-password" }]],
        "Change password", async (d) => { await api("POST", "/me/password", d); say("Password changed; your other sessions have ended."); })));
  } else if (me) {
    const b = h("button", { onclick: () => { location.hash = "#/new"; setTimeout(() => { const i = $("input[name=opponent]"); if (i) i.value = user.name; }, 50); } }, `Challenge ${user.name}`);
    parts.push(b);
  }
  page(user.name, ...parts);
}

// --- the game page ----------------------------------------------------------

async function gamePage(id) {
  const { game } = await api("GET", `/games/${id}`);
  const boardBox = h("div", { class: "board-box" });
  const side = h("aside", { class: "game-side" });
  page("", h("div", { class: "game" }, boardBox, side));
  main.querySelector("h1").remove();
  current = { game, pending: null, flipped: me && game.black === me.name, side, boardBox };
  current.board = new Board(boardBox, (move) => { current.pending = move; showGame(current.game); });
  watch(id);
  showGame(game);
}

function myColor(game) {
  if (!me) return null;
  return game.red === me.name ? "red" : game.black === me.name ? "black" : null;
}

function showGame(game) {
  const cur = current;
  if (cur.game.ply !== game.ply) cur.pending = null;
  cur.game = game;
  const color = myColor(game);
  const myTurn = game.status === "active" && color === game.turn;
  cur.board.show({ fen: game.fen, legal: myTurn ? game.legal : [], flipped: cur.flipped, last: game.last_move, mine: myTurn ? color : null, pending: cur.pending });
  const player = (c) => h("div", { class: `player ${c} ${game.turn === c && game.status === "active" ? "to-move" : ""}` },
    h("span", { class: `dot ${c}` }), userLink(game[c]), h("span", { class: "clock", "data-clock": c }, ""));
  const top = cur.flipped ? "red" : "black", bottom = cur.flipped ? "black" : "red";
  const status = game.outcome ? game.outcome.text
    : myTurn ? (cur.pending ? "Submit your move, or take it back." : "Your move: click a piece, then a point.")
      : `${game.turn === "red" ? "Red" : "Black"} (${game[game.turn]}) to move${game.check ? " — check!" : ""}`;
  const buttons = [];
  if (myTurn && cur.pending) {
    buttons.push(h("button", { class: "primary", id: "submit", onclick: submitMove }, "Submit"),
      h("button", { id: "takeback", onclick: () => { cur.pending = null; showGame(cur.game); } }, "Take back the move"));
  }
  if (color && game.status === "active") {
    const other = color === "red" ? "black" : "red";
    if (game.draw_offer === other) {
      buttons.push(h("button", { onclick: () => act("draw", { action: "accept" }) }, "Accept draw"),
        h("button", { onclick: () => act("draw", { action: "decline" }) }, "Decline draw"));
    } else if (!game.draw_offer) {
      buttons.push(h("button", { onclick: () => act("draw", { action: "offer" }) }, "Offer draw"));
    }
    buttons.push(h("button", { class: "danger", onclick: () => confirm("Resign this game?") && act("resign", {}) }, "Resign"));
    if (game.turn !== color && outOfTime(game)) buttons.push(h("button", { onclick: () => act("claim", {}) }, "Claim win on time"));
  }
  const rows = [];
  for (let i = 0; i < game.moves.length; i += 2) {
    const r = game.moves[i], b = game.moves[i + 1];
    rows.push(h("tr", {}, h("td", { class: "num" }, i / 2 + 1), h("td", {}, r.wxf), h("td", { class: "muted" }, r.iccs),
      h("td", {}, b ? b.wxf : ""), h("td", { class: "muted" }, b ? b.iccs : "")));
  }
  cur.side.replaceChildren(
    player(top),
    h("div", { class: "status", id: "status" }, status),
    h("div", { class: "buttons" }, ...buttons),
    h("div", { class: "moves" }, h("table", {}, h("tr", {}, h("th", {}, "#"), h("th", { colspan: 2 }, "Red"), h("th", { colspan: 2 }, "Black")), rows)),
    player(bottom),
    h("p", { class: "muted small" }, `${game.rules} rules · ${clockText(game.clock)}`,
      game.draw_offer ? ` · ${game.draw_offer} offers a draw` : "", " · ",
      h("a", { href: `/api/v1/games/${game.id}/pgn` }, "Export PGN"), " · ",
      h("a", { href: "#", onclick: (e) => { e.preventDefault(); cur.flipped = !cur.flipped; showGame(cur.game); } }, "Flip board")));
  const list = cur.side.querySelector(".moves");
  list.scrollTop = list.scrollHeight;
  tickClocks();
}

function outOfTime(game) {
  const now = Date.now();
  if (game.clocks) return game.clocks[game.turn] - (now - game.clocks.since) <= 0;
  return game.deadline != null && now > game.deadline;
}

function tickClocks() {
  if (!current) return;
  const g = current.game;
  for (const node of document.querySelectorAll("[data-clock]")) {
    const c = node.dataset.clock;
    if (g.clocks) {
      const running = g.clocks.running === c;
      node.textContent = duration(g.clocks[c] - (running ? Date.now() - g.clocks.since : 0));
      node.classList.toggle("running", running);
    } else if (g.deadline && g.turn === c) {
      const left = g.deadline - Date.now();
      node.textContent = left > 0 ? `${Math.floor(left / 3600000)} h left` : "deadline passed";
    } else node.textContent = "";
  }
}
setInterval(tickClocks, 250);

async function submitMove() {
  const cur = current;
  try {
    const { game } = await api("POST", `/games/${cur.game.id}/moves`, { ply: cur.game.ply, move: cur.pending });
    cur.pending = null;
    showGame(game);
  } catch (err) {
    say(err.message, "error");
    if (err.status === 409) {
      cur.pending = null;
      showGame((await api("GET", `/games/${cur.game.id}`)).game);
    }
  }
}

async function act(what, body) {
  try {
    showGame((await api("POST", `/games/${current.game.id}/${what}`, body)).game);
  } catch (err) { say(err.message, "error"); }
}

// --- navigation -------------------------------------------------------------

function renderNav() {
  const nav = $("#nav");
  if (!me) { nav.replaceChildren(h("a", { href: "#/" }, "Log in")); return; }
  nav.replaceChildren(
    h("a", { href: "#/status" }, "Game status"), h("a", { href: "#/new" }, "New game"),
    h("a", { href: "#/room" }, "Waiting room"), h("a", { href: "#/people" }, "Who is here"),
    h("a", { href: `#/user/${me.name}` }, me.name),
    h("a", { href: "#", onclick: async (e) => { e.preventDefault(); await api("DELETE", "/session").catch(() => {}); me = null; renderNav(); location.hash = "#/"; route(); } }, "Log out"));
}

async function route() {
  const [, name, arg] = location.hash.split("/");
  if (name !== "game") { current = null; watch(null); }
  try {
    if (!me && name !== "game" && name !== "user") return loginPage();
    switch (name) {
      case "game": return await gamePage(arg);
      case "new": return newGamePage();
      case "room": return await roomPage();
      case "people": return await peoplePage();
      case "user": return await userPage(decodeURIComponent(arg));
      default: return await statusPage();
    }
  } catch (err) {
    if (err.status === 401) { me = null; renderNav(); return loginPage(); }
    say(err.message, "error");
  }
}

window.addEventListener("hashchange", route);
(async () => {
  try { me = (await api("GET", "/session")).user; } catch { me = null; }
  renderNav();
  connect.started = true;
  connect();
  route();
})();
