//! The site's people through the JSON API, on SQLite and PostgreSQL: messages, game chat, buddy
//! and ignore lists, who is here, search, profiles and invitations, with every
//! refusal.

mod common;

use common::{Client, Db, new_game, on_both_databases, server, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_databases!(messages_are_sent_read_listed_and_deleted_and_refused_with_reasons);
async fn messages_are_sent_read_listed_and_deleted_and_refused_with_reasons(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "msa").await,
        Client::register(&s, "msb").await,
        Client::register(&s, "msc").await,
    );
    let markup = "<img src=x onerror=alert(1)> hello & <b>bye</b>";
    let (st, v) = a.post("/messages", json!({"to": b.name.to_uppercase(), "body": markup})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["message"]["body"], markup, "kept as typed");
    let first = v["message"]["id"].as_str().unwrap().to_string();
    b.post("/messages", json!({"to": a.name, "body": "a reply"})).await;
    c.post("/messages", json!({"to": b.name, "body": "from c"})).await;
    // Refusals change nothing.
    for (body, status) in [
        (json!({"to": b.name, "body": "   "}), StatusCode::BAD_REQUEST),
        (json!({"to": b.name, "body": "x".repeat(2001)}), StatusCode::BAD_REQUEST),
        (json!({"to": a.name, "body": "me"}), StatusCode::BAD_REQUEST),
        (json!({"to": "nobody-at-all", "body": "hi"}), StatusCode::NOT_FOUND),
        (json!({"to": b.name, "body": "hi", "subject": "x"}), StatusCode::BAD_REQUEST),
    ] {
        assert_eq!(a.post("/messages", body.clone()).await.0, status, "{body}");
    }
    assert_eq!(b.get("/me/counts").await.1["unread_messages"], 2);
    let (_, v) = b.get("/messages/conversations").await;
    let conv = v["conversations"].as_array().unwrap();
    assert_eq!(conv.len(), 2);
    assert_eq!(conv[0]["with"], c.name.as_str(), "the latest conversation first");
    assert_eq!((conv[1]["with"].as_str(), &conv[1]["unread"]), (Some(a.name.as_str()), &json!(1)));
    assert_eq!(conv[1]["last"]["body"], "a reply");
    let (_, v) = b.get(&format!("/messages/with/{}", a.name)).await;
    assert_eq!(v["messages"].as_array().unwrap().len(), 2);
    assert_eq!(b.post(&format!("/messages/with/{}/read", a.name), json!({})).await.0, StatusCode::NO_CONTENT);
    assert_eq!(b.get("/me/counts").await.1["unread_messages"], 1);
    let (_, v) = a.get("/messages?box=sent").await;
    assert!(v["messages"][0]["read"].as_i64().is_some(), "{v}");
    // Another user's message is never theirs to see or delete.
    assert_eq!(c.delete(&format!("/messages/{first}")).await.0, StatusCode::NOT_FOUND);
    let (_, v) = c.get(&format!("/messages/with/{}", a.name)).await;
    assert_eq!(v["messages"], json!([]));
    // Deleting is for oneself.
    assert_eq!(b.delete(&format!("/messages/{first}")).await.0, StatusCode::NO_CONTENT);
    assert_eq!(b.delete(&format!("/messages/{first}")).await.0, StatusCode::NOT_FOUND);
    let (_, v) = b.get("/messages").await;
    assert!(v["messages"].as_array().unwrap().iter().all(|m| m["id"] != first.as_str()));
    let (_, v) = a.get("/messages?box=sent").await;
    assert!(
        v["messages"].as_array().unwrap().iter().any(|m| m["id"] == first.as_str()),
        "the sender keeps it"
    );
    assert_eq!(b.get("/messages?box=spam").await.0, StatusCode::BAD_REQUEST);
    // At most 10 a minute.
    let mut statuses = Vec::new();
    for i in 0..10 {
        statuses.push(c.post("/messages", json!({"to": a.name, "body": format!("n{i}")})).await.0);
    }
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 9, "one was sent before");
    assert_eq!(*statuses.last().unwrap(), StatusCode::TOO_MANY_REQUESTS);
    // Pages.
    let (_, v) = a.get("/messages?limit=1").await;
    assert_eq!(v["messages"].as_array().unwrap().len(), 1);
    let (_, next) = a.get(&format!("/messages?limit=1&after={}", v["next"].as_str().unwrap())).await;
    assert_ne!(next["messages"][0]["id"], v["messages"][0]["id"]);
    s.stop().await;
}

on_both_databases!(ignoring_refuses_messages_challenges_pairing_and_chat_and_stores_nothing);
async fn ignoring_refuses_messages_challenges_pairing_and_chat_and_stores_nothing(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "iga").await, Client::register(&s, "igb").await);
    let game = new_game(&a, &b, "casual").await;
    assert_eq!(
        a.send(reqwest::Method::PUT, &format!("/me/ignored/{}", b.name), None).await.0,
        StatusCode::NO_CONTENT
    );
    let (st, v) = b.post("/messages", json!({"to": a.name, "body": "hello?"})).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert!(v["message"].as_str().unwrap().contains("does not accept"), "{v}");
    assert_eq!(a.get("/me/counts").await.1["unread_messages"], 0, "nothing stored");
    let terms = json!({"opponent": a.name, "rules": "asian", "color": "red", "clock": {"kind": "correspondence", "hours": 48}});
    let (st, v) = b.post("/challenges", terms).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(a.get("/challenges").await.1["incoming"], json!([]));
    let (st, v) = b.post(&format!("/games/{game}/chat"), json!({"body": "gg"})).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(a.get(&format!("/games/{game}/chat")).await.1["lines"], json!([]));
    // Never paired, and a's open challenge is not offered to b.
    let base = 70_000
        + i64::from(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_micros(),
        );
    let want = json!({"rules": "casual", "clock": {"kind": "live", "base": base, "increment": 0}});
    assert_eq!(a.post("/automatch", want.clone()).await.0, StatusCode::ACCEPTED);
    assert_eq!(
        b.post("/automatch", want).await.0,
        StatusCode::ACCEPTED,
        "not paired with someone who ignores you"
    );
    let (_, room) = b.get("/challenges").await;
    assert!(room["open"].as_array().unwrap().iter().all(|c| c["creator"] != a.name.as_str()), "{room}");
    // The list is private, and undone.
    assert_eq!(a.get("/me/ignored").await.1["users"], json!([b.name]));
    assert_eq!(b.get("/me/ignored").await.1["users"], json!([]));
    assert_eq!(a.delete(&format!("/me/ignored/{}", b.name)).await.0, StatusCode::NO_CONTENT);
    assert_eq!(b.post("/messages", json!({"to": a.name, "body": "now?"})).await.0, StatusCode::CREATED);
    s.stop().await;
}

on_both_databases!(game_chat_is_written_by_players_read_by_anyone_and_pushed_live);
async fn game_chat_is_written_by_players_read_by_anyone_and_pushed_live(db: Db) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "cha").await,
        Client::register(&s, "chb").await,
        Client::register(&s, "chc").await,
    );
    let game = new_game(&a, &b, "asian").await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/v1/ws", s.addr())).await.unwrap();
    socket.send(Message::Text(json!({"watch": game}).to_string().into())).await.unwrap();
    let (st, v) =
        a.post(&format!("/games/{game}/chat"), json!({"body": "<script>x</script> good luck"})).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["line"]["seq"], 1);
    let live = loop {
        let msg =
            tokio::time::timeout(std::time::Duration::from_secs(10), socket.next()).await.expect("in time");
        if let Some(Ok(Message::Text(t))) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "chat" {
                break v;
            }
        }
    };
    assert_eq!(
        (live["game"].as_str(), &live["line"]["body"]),
        (Some(game.as_str()), &json!("<script>x</script> good luck"))
    );
    b.post(&format!("/games/{game}/chat"), json!({"body": "you too"})).await;
    let (st, v) = c.post(&format!("/games/{game}/chat"), json!({"body": "hi from the stands"})).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let (_, v) = c.get(&format!("/games/{game}/chat")).await;
    let authors: Vec<&str> =
        v["lines"].as_array().unwrap().iter().map(|l| l["author"].as_str().unwrap()).collect();
    assert_eq!(authors, [a.name.as_str(), b.name.as_str()]);
    let (_, v) = c.get(&format!("/games/{game}/chat?after=1")).await;
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);
    assert_eq!(a.post(&format!("/games/{game}/chat"), json!({"body": ""})).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(a.get("/games/nope/chat").await.0, StatusCode::NOT_FOUND);
    s.stop().await;
}

on_both_databases!(buddies_come_first_with_their_games_and_who_is_here_shows_everyone_seen);
async fn buddies_come_first_with_their_games_and_who_is_here_shows_everyone_seen(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "bua").await,
        Client::register(&s, "bub").await,
        Client::register(&s, "buc").await,
    );
    let game = new_game(&b, &c, "asian").await;
    assert_eq!(
        a.send(reqwest::Method::PUT, &format!("/me/buddies/{}", c.name), None).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        a.send(reqwest::Method::PUT, &format!("/me/buddies/{}", a.name), None).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        a.send(reqwest::Method::PUT, "/me/buddies/nobody-at-all", None).await.0,
        StatusCode::NOT_FOUND
    );
    let (_, v) = a.get("/me/buddies").await;
    let buddy = &v["users"][0];
    assert_eq!((buddy["name"].as_str(), &buddy["online"]), (Some(c.name.as_str()), &json!(true)));
    assert_eq!(buddy["games"][0]["id"], game.as_str());
    let (_, v) = a.get("/users/online").await;
    let here: Vec<&Value> = v["users"].as_array().unwrap().iter().collect();
    assert_eq!(here[0]["name"], c.name.as_str(), "a buddy first: {v}");
    assert!(here.iter().any(|u| u["name"] == b.name.as_str() && u["buddy"] == false));
    // The profile shows the count and how I regard them.
    let (_, v) = a.get(&format!("/users/{}", c.name)).await;
    assert_eq!(v["relation"], "buddy");
    let (_, v) = c.get(&format!("/users/{}", a.name)).await;
    assert_eq!((v["buddies"].as_i64(), &v["relation"]), (Some(1), &Value::Null));
    // Ignoring replaces being a buddy.
    a.send(reqwest::Method::PUT, &format!("/me/ignored/{}", c.name), None).await;
    assert_eq!(a.get("/me/buddies").await.1["users"], json!([]));
    assert_eq!(a.delete(&format!("/me/buddies/{}", c.name)).await.0, StatusCode::NOT_FOUND);
    s.stop().await;
}

on_both_databases!(profiles_are_edited_within_bounds_and_show_records_per_rule_set);
async fn profiles_are_edited_within_bounds_and_show_records_per_rule_set(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "pra").await, Client::register(&s, "prb").await);
    let profile = json!({"bio": "<b>cannons</b>", "location": "Taipei", "languages": ["zh-TW", "en"],
        "preferred_rules": "asian", "preferred_clock": {"kind": "correspondence", "hours": 72}});
    let (st, v) = a.send(reqwest::Method::PUT, "/me/profile", Some(profile)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    for bad in [
        json!({"bio": "x".repeat(501)}),
        json!({"bio": "", "location": "x".repeat(101)}),
        json!({"bio": "", "languages": ["a,b"]}),
        json!({"bio": "", "preferred_rules": "chess"}),
        json!({"bio": "", "preferred_clock": {"kind": "live", "base": 1, "increment": 0}}),
        json!({"bio": "", "website": "x"}),
    ] {
        assert_eq!(
            a.send(reqwest::Method::PUT, "/me/profile", Some(bad.clone())).await.0,
            StatusCode::BAD_REQUEST,
            "{bad}"
        );
    }
    let g1 = new_game(&a, &b, "asian").await;
    b.post(&format!("/games/{g1}/resign"), json!({})).await;
    let g2 = new_game(&a, &b, "casual").await;
    a.post(&format!("/games/{g2}/resign"), json!({})).await;
    let (_, v) = b.get(&format!("/users/{}", a.name)).await;
    let u = &v["user"];
    assert_eq!((u["bio"].as_str(), u["location"].as_str()), (Some("<b>cannons</b>"), Some("Taipei")));
    assert_eq!(u["languages"], json!(["zh-TW", "en"]));
    assert_eq!(u["preferred_rules"], "asian");
    assert!(u["seen"].as_i64().unwrap() > 0);
    assert_eq!(
        v["records"],
        json!([{"rules": "asian", "wins": 1, "losses": 0, "draws": 0}, {"rules": "casual", "wins": 0, "losses": 1, "draws": 0}])
    );
    assert_eq!(v["recent"][0]["id"], g2.as_str(), "newest first");
    assert_eq!(v["online"], true);
    s.stop().await;
}

on_both_databases!(search_finds_by_prefix_part_rating_and_presence_in_pages);
async fn search_finds_by_prefix_part_rating_and_presence_in_pages(db: Db) {
    let s = server(&db).await;
    let tag = unique("sq");
    let names: Vec<String> = ["alpha", "beta_x", "gamma"].iter().map(|n| format!("{tag}{n}")).collect();
    let mut clients = Vec::new();
    for n in &names {
        let c = Client::new(&s, n);
        assert_eq!(
            c.post("/users", json!({"name": n, "password": "secret-pass"})).await.0,
            StatusCode::CREATED
        );
        clients.push(c);
    }
    let me = &clients[0];
    let (_, v) = me.get(&format!("/users/search?name={}", tag.to_uppercase())).await;
    let found: Vec<&str> =
        v["users"].as_array().unwrap().iter().map(|u| u["name"].as_str().unwrap()).collect();
    assert_eq!(found, names.iter().map(String::as_str).collect::<Vec<_>>());
    let (_, v) = me.get(&format!("/users/search?name={tag}&contains=a_x")).await;
    assert_eq!(v["users"].as_array().unwrap().len(), 1, "`_` is a character, not a wildcard: {v}");
    let (_, v) = me.get(&format!("/users/search?name={tag}&contains=mm")).await;
    assert_eq!(v["users"][0]["name"], names[2].as_str());
    let (_, v) = me.get(&format!("/users/search?name={tag}&min_rating=1501")).await;
    assert_eq!(v["users"], json!([]));
    let (_, v) = me
        .get(&format!("/users/search?name={tag}&min_rating=1400&max_rating=1600&online=true&limit=2"))
        .await;
    assert_eq!(v["users"].as_array().unwrap().len(), 2);
    let next = v["next"].as_str().unwrap().to_string();
    let (_, v) = me.get(&format!("/users/search?name={tag}&after={next}")).await;
    assert_eq!(v["users"][0]["name"], names[2].as_str());
    let (st, v) = me.get("/users/search?name=%27%3B%20DROP%20TABLE%20x%3B--").await;
    assert_eq!((st, &v["users"]), (StatusCode::OK, &json!([])));
    assert_eq!(me.get(&format!("/users/search?name={}", "x".repeat(21))).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(me.get("/users/search?sort=rating").await.0, StatusCode::BAD_REQUEST);
    s.stop().await;
}

on_both_databases!(an_invitation_makes_the_inviter_a_buddy_and_leaves_their_challenge_waiting);
async fn an_invitation_makes_the_inviter_a_buddy_and_leaves_their_challenge_waiting(db: Db) {
    let s = server(&db).await;
    let a = Client::register(&s, "inv").await;
    let (st, v) = a
        .post("/me/invitations", json!({"challenge": {"rules": "casual", "color": "black", "clock": {"kind": "correspondence", "hours": 120}}}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let code = v["invitation"]["code"].as_str().unwrap().to_string();
    assert_eq!(v["invitation"]["link"], format!("/#/join/{code}"));
    let anon = Client::new(&s, "x");
    let (_, v) = anon.get(&format!("/invitations/{code}")).await;
    assert_eq!(v["inviter"], a.name.as_str());
    // A wrong code is refused and creates no one.
    let name = unique("new");
    let friend = Client::new(&s, &name);
    let (st, _) =
        friend.post("/users", json!({"name": name, "password": "secret-pass", "invite": "wrong"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(anon.get(&format!("/users/{name}")).await.0, StatusCode::NOT_FOUND);
    let (st, _) =
        friend.post("/users", json!({"name": name, "password": "secret-pass", "invite": code})).await;
    assert_eq!(st, StatusCode::CREATED);
    let (_, v) = friend.get("/me/buddies").await;
    assert_eq!(v["users"][0]["name"], a.name.as_str());
    let (_, v) = friend.get("/challenges").await;
    let c = &v["incoming"][0];
    assert_eq!(
        (c["creator"].as_str(), c["rules"].as_str(), c["color"].as_str()),
        (Some(a.name.as_str()), Some("casual"), Some("black"))
    );
    assert_eq!(a.get("/me/invitations").await.1["invitations"][0]["uses"], 1);
    s.stop().await;
}

on_both_databases!(counts_tell_the_games_waiting_for_my_move);
async fn counts_tell_the_games_waiting_for_my_move(db: Db) {
    let s = server(&db).await;
    let (a, b) = (Client::register(&s, "cta").await, Client::register(&s, "ctb").await);
    let game = new_game(&a, &b, "asian").await;
    new_game(&a, &b, "casual").await;
    assert_eq!(a.get("/me/counts").await.1["my_turn"], 2);
    assert_eq!(b.get("/me/counts").await.1["my_turn"], 0);
    a.play(&game, 0, "h2e2").await;
    assert_eq!(a.get("/me/counts").await.1["my_turn"], 1);
    assert_eq!(b.get("/me/counts").await.1["my_turn"], 1);
    s.stop().await;
}

on_both_databases!(counts_tell_the_challenges_waiting_for_my_answer);
async fn counts_tell_the_challenges_waiting_for_my_answer(db: Db) {
    let s = server(&db).await;
    let (a, b, c) = (
        Client::register(&s, "cca").await,
        Client::register(&s, "ccb").await,
        Client::register(&s, "ccc").await,
    );
    let challenge = async |from: &Client, to: &Client| {
        let terms = json!({"opponent": to.name, "rules": "asian", "color": "red",
            "clock": {"kind": "correspondence", "hours": 72}});
        let (st, v) = from.post("/challenges", terms).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        v["challenge"]["id"].as_str().unwrap().to_string()
    };
    let counted = async |who: &Client| who.get("/me/counts").await.1["challenges"].as_i64();
    let first = challenge(&a, &b).await;
    let second = challenge(&c, &b).await;
    // An open challenge to anyone waits for nobody in particular.
    let (st, v) = a
        .post(
            "/challenges",
            json!({"rules": "asian", "color": "red",
        "clock": {"kind": "correspondence", "hours": 72}}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!((counted(&b).await, counted(&a).await, counted(&c).await), (Some(2), Some(0), Some(0)));
    // Declined, then accepted: each answer takes one off.
    let (st, v) = b.delete(&format!("/challenges/{first}")).await;
    assert!(st.is_success(), "{st} {v}");
    assert_eq!(counted(&b).await, Some(1));
    let (st, v) = b.post(&format!("/challenges/{second}/accept"), json!({})).await;
    assert!(st.is_success(), "{st} {v}");
    assert_eq!(counted(&b).await, Some(0));
    // Cancelled by its creator before an answer.
    let third = challenge(&c, &b).await;
    assert_eq!(counted(&b).await, Some(1));
    let (st, v) = c.delete(&format!("/challenges/{third}")).await;
    assert!(st.is_success(), "{st} {v}");
    assert_eq!(counted(&b).await, Some(0));
    s.stop().await;
}

/// Walks a list page by page (`limit` rows each) and gives every row of `field`.
async fn walk(c: &Client, path: &str, field: &str, limit: usize) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let sep = if path.contains('?') { '&' } else { '?' };
        let url = match &after {
            Some(a) => format!("{path}{sep}limit={limit}&after={a}"),
            None => format!("{path}{sep}limit={limit}"),
        };
        let (st, v) = c.get(&url).await;
        assert_eq!(st, StatusCode::OK, "{url}: {v}");
        let page = v[field].as_array().unwrap();
        assert!(page.len() <= limit, "{url} gave {} rows", page.len());
        rows.extend(page.iter().cloned());
        match v["next"].as_str() {
            Some(next) => after = Some(next.to_string()),
            None => return rows,
        }
    }
}

on_both_databases!(who_is_here_and_the_waiting_room_are_walked_a_page_at_a_time);
async fn who_is_here_and_the_waiting_room_are_walked_a_page_at_a_time(db: Db) {
    let s = server(&db).await;
    let mut here = Vec::new();
    for _ in 0..5 {
        here.push(Client::register(&s, "pg").await);
    }
    let me = &here[0];
    // Everyone here once, in pages of two, the most recently seen first.
    let seen = walk(me, "/users/online", "users", 2).await;
    let names: Vec<&str> = seen.iter().map(|u| u["name"].as_str().unwrap()).collect();
    for c in &here {
        assert_eq!(names.iter().filter(|n| **n == c.name).count(), 1, "{} once in {names:?}", c.name);
    }
    let times: Vec<i64> = seen.iter().map(|u| u["seen"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "most recently seen first: {times:?}");
    // A page is never longer than the most a page holds.
    let (_, v) = me.get("/users/online?limit=100000").await;
    assert!(v["users"].as_array().unwrap().len() <= 100);
    assert_eq!(me.get("/users/online?limit=x").await.0, StatusCode::BAD_REQUEST);

    // Four challenges to anyone: the room walked one at a time holds each once, oldest first.
    let mut ids = Vec::new();
    for c in &here[1..] {
        let terms =
            json!({"rules": "asian", "color": "random", "clock": {"kind": "correspondence", "hours": 72}});
        let (st, v) = c.post("/challenges", terms).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        ids.push(v["challenge"]["id"].as_str().unwrap().to_string());
    }
    let room = walk(me, "/challenges", "open", 1).await;
    let listed: Vec<&str> = room.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let mine: Vec<&str> = listed.iter().copied().filter(|id| ids.iter().any(|i| i == id)).collect();
    assert_eq!(mine, ids.iter().map(String::as_str).collect::<Vec<_>>(), "each once, oldest first");
    let (_, v) = me.get("/challenges?limit=100000").await;
    assert!(v["open"].as_array().unwrap().len() <= 100);
    s.stop().await;
}

on_both_databases!(my_lists_are_walked_a_page_at_a_time);
async fn my_lists_are_walked_a_page_at_a_time(db: Db) {
    let s = server(&db).await;
    let me = Client::register(&s, "lst").await;
    let mut others = Vec::new();
    for _ in 0..5 {
        others.push(Client::register(&s, "lso").await);
    }
    let names = |rows: &[Value]| {
        rows.iter().map(|u| u.as_str().or(u["name"].as_str()).unwrap().to_string()).collect::<Vec<_>>()
    };

    // Buddies and ignored, by name, each once.
    for o in &others[..3] {
        assert_eq!(
            me.send(reqwest::Method::PUT, &format!("/me/buddies/{}", o.name), None).await.0,
            StatusCode::NO_CONTENT
        );
    }
    for o in &others[3..] {
        assert_eq!(
            me.send(reqwest::Method::PUT, &format!("/me/ignored/{}", o.name), None).await.0,
            StatusCode::NO_CONTENT
        );
    }
    let mut expected: Vec<String> = others[..3].iter().map(|o| o.name.clone()).collect();
    expected.sort();
    assert_eq!(names(&walk(&me, "/me/buddies", "users", 2).await), expected);
    let mut expected: Vec<String> = others[3..].iter().map(|o| o.name.clone()).collect();
    expected.sort();
    assert_eq!(names(&walk(&me, "/me/ignored", "users", 1).await), expected);
    assert_eq!(me.get("/me/buddies?limit=0x").await.0, StatusCode::BAD_REQUEST);

    // Invitations, newest first, each once.
    let mut codes = Vec::new();
    for _ in 0..3 {
        let (st, v) = me.post("/me/invitations", json!({})).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        codes.push(v["invitation"]["code"].as_str().unwrap().to_string());
    }
    let walked = walk(&me, "/me/invitations", "invitations", 2).await;
    let made: Vec<i64> = walked.iter().map(|i| i["created"].as_i64().unwrap()).collect();
    assert!(made.windows(2).all(|w| w[0] >= w[1]), "newest first: {made:?}");
    let mut listed: Vec<String> = walked.iter().map(|i| i["code"].as_str().unwrap().to_string()).collect();
    listed.sort();
    codes.sort();
    assert_eq!(listed, codes);

    // Challenges to me, oldest first, each once.
    let mut ids = Vec::new();
    for o in &others[..3] {
        let terms = json!({"opponent": me.name, "rules": "asian", "color": "random", "clock": {"kind": "correspondence", "hours": 72}});
        let (st, v) = o.post("/challenges", terms).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        ids.push(v["challenge"]["id"].as_str().unwrap().to_string());
    }
    let incoming = walk(&me, "/challenges/incoming", "challenges", 2).await;
    let listed: Vec<&str> = incoming.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(listed, ids.iter().map(String::as_str).collect::<Vec<_>>());
    let (_, v) = me.get("/challenges").await;
    assert_eq!((v["incoming"].as_array().unwrap().len(), &v["incoming_next"]), (3, &Value::Null));

    // Games being played: every page splits by whose move it is; each game once.
    let mut games = Vec::new();
    for o in &others[..3] {
        games.push(new_game(&me, o, "asian").await);
    }
    me.play(&games[0], 0, "h2e2").await;
    let (mut mine, mut theirs, mut after) = (Vec::new(), Vec::new(), None::<String>);
    loop {
        let url = match &after {
            Some(a) => format!("/games/playing?limit=2&after={a}"),
            None => "/games/playing?limit=2".to_string(),
        };
        let (st, v) = me.get(&url).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let page =
            [&v["my_turn"], &v["their_turn"]].map(|l| l.as_array().unwrap().len()).iter().sum::<usize>();
        assert!(page <= 2, "{v}");
        mine.extend(v["my_turn"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()));
        theirs.extend(
            v["their_turn"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()),
        );
        match v["next"].as_str() {
            Some(n) => after = Some(n.to_string()),
            None => break,
        }
    }
    assert_eq!(theirs, vec![games[0].clone()]);
    mine.sort();
    let mut waiting = games[1..].to_vec();
    waiting.sort();
    assert_eq!(mine, waiting);
    let (_, v) = me.get("/games").await;
    assert_eq!((v["my_turn"].as_array().unwrap().len(), &v["playing_next"]), (2, &Value::Null));

    // The list of everyone says which of its page are here.
    let (_, v) = me.get("/users?limit=2").await;
    let page = names(v["users"].as_array().unwrap());
    assert!(names(v["online"].as_array().unwrap()).iter().all(|n| page.contains(n)), "{v}");
    s.stop().await;
}
