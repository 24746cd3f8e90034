//! `xiangqi fill` on a PostgreSQL database of its own (made next to the one
//! `XIANGQI_TEST_POSTGRES_URL` names, and dropped after), then the server on
//! it: what the fill wrote is what the opening explorer, the games database
//! and a game's replay find.

use serde_json::Value;
mod common;

use common::{count, fresh_database};
use sqlx::{Connection, Executor, PgConnection, Row};
use xiangqi_tools::fill::{DEFAULT_PASSWORD, Plan, account_name, fill};

const DATABASE: &str = "xiangqi_fill_test";

async fn get(http: &reqwest::Client, url: &str) -> Value {
    let res = http.get(url).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200, "{url}");
    res.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn a_filled_site_finds_its_games_in_the_explorer_and_the_database() {
    let (url, mut admin) = fresh_database(DATABASE).await;
    let plan = Plan {
        accounts: 1_000,
        open_games: 30,
        finished_games: 400,
        messages: 50,
        challenges: 20,
        relations: 100,
        online: 10,
        puzzles: 30,
        puzzlers: 10,
        lines: 8,
        threads: 2,
        ..Plan::default()
    };
    let filled = fill(&url, &plan, &|_| {}).await.expect("the fill");
    assert!(filled.rows() > 400);

    let mut db = PgConnection::connect(&url).await.unwrap();
    let all = count(&mut db, "SELECT COUNT(*) FROM games WHERE status IN ('finished', 'aborted')").await;
    assert_eq!(all, 400);
    let standard =
        count(&mut db, "SELECT COUNT(*) FROM games WHERE status = 'finished' AND variant = 'standard'").await;
    assert!(standard > 100, "{standard}");
    let row = sqlx::query(
        "SELECT id, red FROM games WHERE status = 'finished' AND variant = 'standard' ORDER BY id LIMIT 1",
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    let (id, red): (String, String) = (row.get("id"), row.get("red"));
    let moves: Vec<String> = sqlx::query("SELECT iccs FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(&id)
        .fetch_all(&mut db)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get("iccs"))
        .collect();
    db.close().await.ok();

    let server = xiangqi_server::start(xiangqi_server::Config::for_tests(&url)).await.expect("server");
    let api = format!("{}/api/v1", server.url());
    let http = reqwest::Client::new();

    // Every finished standard game left the start once: the explorer's moves
    // there add up to them, each split into its results.
    let start = get(&http, &format!("{api}/explorer")).await;
    let moves_there = start["moves"].as_array().unwrap();
    let games = |m: &Value| m["games"].as_i64().unwrap();
    assert_eq!(moves_there.iter().map(games).sum::<i64>(), standard);
    for m in moves_there {
        let results = ["red_wins", "draws", "black_wins"].iter().map(|k| m[k].as_i64().unwrap()).sum::<i64>();
        assert_eq!(results, games(m), "{m}");
    }
    // The openings are a tree: the central cannon leads, and more than one
    // first move is played.
    assert_eq!(moves_there[0]["iccs"], "h2e2", "{start}");
    assert!(moves_there.len() > 1);

    // The game is found by its player and its opening, and its moves are the
    // filled ones, legal from the start.
    let opening = moves[..10].join("%20");
    let found = get(&http, &format!("{api}/database/games?player={red}&moves={opening}&limit=100")).await;
    assert!(found["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{found}");
    let game = get(&http, &format!("{api}/games/{id}")).await;
    let played: Vec<&str> =
        game["game"]["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(played, moves, "{game}");

    // A filled account logs in with the fill's password.
    let res = http
        .post(format!("{api}/session"))
        .header("X-Xiangqi", "1")
        .json(&serde_json::json!({"name": account_name(plan.seed, 7), "password": DEFAULT_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);

    server.stop().await;
    admin.execute(format!("DROP DATABASE {DATABASE} WITH (FORCE)").as_str()).await.unwrap();
}
