//! A game's end commits with the change that ended it: its result, both
//! records, both ratings, the ladder and the tournament pairing, or none of
//! them. On SQLite and PostgreSQL.

mod common;

use common::{Client, Db, MATING_GAME, new_game, on_both_databases, server, unique};
use reqwest::StatusCode;
use serde_json::{Value, json};
use xiangqi_server::store::Store;

/// A fault injected into the database: writing a rating history point of one
/// game fails, as a crash or a full disk would between the game's end and its
/// ratings.
struct Fault {
    pool: sqlx::AnyPool,
    postgres: bool,
    name: String,
}

impl Fault {
    async fn on(store: &Store, game: &str) -> Fault {
        let pool = store.pool().clone();
        let postgres = store.backend() == xiangqi_server::store::Backend::Postgres;
        let name = unique("fault_");
        let statements = if postgres {
            vec![
                format!(
                    "CREATE FUNCTION {name}() RETURNS trigger AS $$ BEGIN \
                     IF NEW.game_id = '{game}' THEN RAISE EXCEPTION 'injected fault'; END IF; \
                     RETURN NEW; END $$ LANGUAGE plpgsql"
                ),
                format!(
                    "CREATE TRIGGER {name} BEFORE INSERT ON rating_history FOR EACH ROW EXECUTE FUNCTION {name}()"
                ),
            ]
        } else {
            vec![format!(
                "CREATE TRIGGER {name} BEFORE INSERT ON rating_history WHEN NEW.game_id = '{game}' \
                 BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
            )]
        };
        for s in statements {
            sqlx::raw_sql(&s).execute(&pool).await.unwrap();
        }
        Fault { pool, postgres, name }
    }

    async fn clear(self) {
        sqlx::raw_sql(&format!(
            "DROP TRIGGER {}{}",
            self.name,
            if self.postgres { " ON rating_history" } else { "" }
        ))
        .execute(&self.pool)
        .await
        .unwrap();
        if self.postgres {
            sqlx::raw_sql(&format!("DROP FUNCTION {}()", self.name)).execute(&self.pool).await.unwrap();
        }
    }
}

/// A player's record and standard correspondence rating games, as anyone sees them.
async fn standing(c: &Client, name: &str) -> (Value, i64) {
    let (_, v) = c.get(&format!("/users/{name}")).await;
    let games = v["ratings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["category"] == "standard_correspondence"))
        .map_or(0, |r| r["games"].as_i64().unwrap());
    (v["user"]["record"].clone(), games)
}

on_both_databases!(a_game_ends_with_its_records_and_ratings_or_not_at_all);
async fn a_game_ends_with_its_records_and_ratings_or_not_at_all(db: Db) {
    let s = server(&db).await;
    let store = Store::open(&db.url).await.unwrap();
    let (a, b) = (Client::register(&s, "fna").await, Client::register(&s, "fnb").await);
    let nothing = (json!({"wins": 0, "losses": 0, "draws": 0}), 0);

    // The mating move, when its ratings cannot be written, is not kept either.
    let game = new_game(&a, &b, "asian").await;
    let moves: Vec<&str> = MATING_GAME.split_whitespace().collect();
    let last = moves.len() - 1;
    for (ply, mv) in moves[..last].iter().enumerate() {
        let player = if ply % 2 == 0 { &a } else { &b };
        assert_eq!(player.play(&game, ply as i64, mv).await.0, StatusCode::OK, "ply {ply}");
    }
    let fault = Fault::on(&store, &game).await;
    let (st, v) = a.play(&game, last as i64, moves[last]).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    let (_, g) = b.get(&format!("/games/{game}")).await;
    assert_eq!(
        (&g["game"]["status"], g["game"]["moves"].as_array().unwrap().len()),
        (&json!("active"), last)
    );
    assert_eq!(standing(&b, &a.name).await, nothing, "no record or rating without the end");
    fault.clear().await;
    let (st, v) = a.play(&game, last as i64, moves[last]).await;
    assert_eq!((st, &v["game"]["status"]), (StatusCode::OK, &json!("finished")), "{v}");
    assert_eq!(standing(&b, &a.name).await, (json!({"wins": 1, "losses": 0, "draws": 0}), 1));
    assert_eq!(standing(&a, &b.name).await, (json!({"wins": 0, "losses": 1, "draws": 0}), 1));

    // A resignation the same way.
    let game = new_game(&a, &b, "asian").await;
    let fault = Fault::on(&store, &game).await;
    let (st, v) = b.post(&format!("/games/{game}/resign"), json!({})).await;
    assert_eq!(st, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert_eq!(b.get(&format!("/games/{game}")).await.1["game"]["status"], "active");
    assert_eq!(standing(&b, &a.name).await, (json!({"wins": 1, "losses": 0, "draws": 0}), 1));
    fault.clear().await;
    assert_eq!(b.post(&format!("/games/{game}/resign"), json!({})).await.0, StatusCode::OK);
    assert_eq!(standing(&b, &a.name).await, (json!({"wins": 2, "losses": 0, "draws": 0}), 2));
    s.stop().await;
}

on_both_databases!(two_games_of_one_player_ending_at_once_both_count);
async fn two_games_of_one_player_ending_at_once_both_count(db: Db) {
    let s = server(&db).await;
    let p = Client::register(&s, "fnp").await;
    for round in 1..=4 {
        let (q, r) = (Client::register(&s, "fnq").await, Client::register(&s, "fnr").await);
        let (g1, g2) = (new_game(&p, &q, "asian").await, new_game(&p, &r, "asian").await);
        let (resign1, resign2) = (format!("/games/{g1}/resign"), format!("/games/{g2}/resign"));
        let (first, second) = tokio::join!(q.post(&resign1, json!({})), r.post(&resign2, json!({})));
        assert_eq!((first.0, second.0), (StatusCode::OK, StatusCode::OK), "{first:?} {second:?}");
        let (record, games) = standing(&q, &p.name).await;
        assert_eq!((record["wins"].as_i64(), games), (Some(2 * round), 2 * round), "round {round}");
        let (_, h) = p.get(&format!("/users/{}/ratings/standard_correspondence", p.name)).await;
        assert_eq!(h["points"].as_array().unwrap().len() as i64, 2 * round, "{h}");
    }
    s.stop().await;
}
