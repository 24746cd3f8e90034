//! Training positions from a site's finished games (`xiangqi gen-data
//! --from-site`) on a small filled site in a PostgreSQL database of its own:
//! every finished standard game is read once, each kept position is a quiet one
//! of its game scored by the engine and labelled with the game's result, and a
//! second run adds nothing.

mod common;

use std::process::ExitCode;

use clap::Parser;
use common::{count, fresh_database};
use sqlx::{Connection, Executor, PgConnection, Row};
use xiangqi::{Game, Position, Standard};
use xiangqi_engine::Options;
use xiangqi_site::store::Store;
use xiangqi_tools::{
    fill::{Plan, fill},
    gen_data,
    nnue::{
        data::RECORD_SIZE,
        site::{self, Cursor},
    },
};

const DATABASE: &str = "xiangqi_site_data_test";
const NODES: u64 = 300;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: gen_data::Args,
}

/// Runs the command on a thread of its own (it starts its own runtime).
fn gen_data(args: &[&str]) -> ExitCode {
    let cli =
        Cli::try_parse_from(std::iter::once("gen-data").chain(args.iter().copied())).expect("arguments");
    std::thread::spawn(move || gen_data::run(cli.args)).join().expect("gen-data runs")
}

/// The positions of a game before each quiet move: those a record may hold.
fn quiet_positions(game: &site::SiteGame) -> Vec<Position<Standard>> {
    let mut replay = Game::new(game.start.clone(), game.rules);
    let mut quiet = Vec::new();
    for text in &game.moves {
        let pos = replay.position().clone();
        let m = pos.parse_move(text).unwrap();
        if !pos.is_check() && pos.piece_at(m.to).is_none() {
            quiet.push(pos);
        }
        replay.play(m).unwrap();
    }
    quiet
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL (XIANGQI_TEST_POSTGRES_URL); .ci/run sets it"]
async fn a_sites_finished_games_become_training_positions_once() {
    let (url, mut admin) = fresh_database(DATABASE).await;
    let plan = Plan {
        accounts: 1_000,
        open_games: 5,
        finished_games: 40,
        messages: 0,
        challenges: 0,
        relations: 0,
        online: 0,
        puzzles: 0,
        puzzlers: 0,
        lines: 4,
        threads: 2,
        ..Plan::default()
    };
    fill(&url, &plan, &|_| {}).await.expect("the fill");
    let mut db = PgConnection::connect(&url).await.unwrap();
    let standard =
        count(&mut db, "SELECT COUNT(*) FROM games WHERE status = 'finished' AND variant = 'standard'").await;
    assert!(standard > 10, "{standard}");
    let last = sqlx::query(
        "SELECT updated_ms, id FROM games WHERE status = 'finished' ORDER BY updated_ms DESC, id DESC",
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    let last = Cursor { after_ms: last.get("updated_ms"), after_id: last.get("id") };
    db.close().await.ok();

    // Every finished standard game is read, and nothing after the last one.
    let store = Store::open(&url).await.unwrap();
    let (games, cursor) = site::next_games(&store, &Cursor::default(), 1_000).await.unwrap();
    assert_eq!(games.len() as i64, standard);
    assert_eq!(cursor, last);
    let (none, same) = site::next_games(&store, &cursor, 1_000).await.unwrap();
    assert!(none.is_empty());
    assert_eq!(same, cursor);
    // Read a page at a time, the same games come in the same order.
    let (first, middle) = site::next_games(&store, &Cursor::default(), 7).await.unwrap();
    let (rest, end) = site::next_games(&store, &middle, 1_000).await.unwrap();
    assert_eq!(end, last);
    let ids = |g: &[site::SiteGame]| g.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
    assert_eq!([ids(&first), ids(&rest)].concat(), ids(&games));
    assert_eq!(Cursor::parse(&cursor.to_text()).unwrap(), cursor);

    // Each record is a quiet position of its game with the game's result.
    let options = Options { hash_mb: 16, ..Options::default() };
    let scored = {
        let (games, options) = (games.clone(), options.clone());
        tokio::task::spawn_blocking(move || site::score_all(&games, &options, 2, NODES))
            .await
            .unwrap()
            .unwrap()
    };
    assert_eq!(scored.len(), games.len());
    let mut expected = Vec::new();
    for (game, records) in games.iter().zip(&scored) {
        assert_eq!(records.outcome, game.outcome, "{}", game.id);
        assert_eq!(records.plies, game.moves.len());
        let quiet = quiet_positions(game);
        assert!(!records.positions.is_empty(), "{}", game.id);
        for (pos, _) in &records.positions {
            assert!(quiet.contains(pos), "{}: {} is not a quiet position of the game", game.id, pos.to_fen());
        }
        for r in records.records() {
            assert_eq!(r.decode().unwrap().outcome, game.outcome);
            expected.extend_from_slice(&r.0);
        }
    }

    // The command writes exactly those records, whatever thread scored a game,
    // and a second run finds no newer game.
    let dir = std::env::temp_dir().join(format!("xiangqi-site-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("site.bin");
    let nodes = NODES.to_string();
    let args = ["--from-site", url.as_str(), "--nodes", nodes.as_str(), "--threads", "2"];
    let out_arg = out.to_str().unwrap();
    assert_eq!(gen_data(&[&[out_arg][..], &args[..]].concat()), ExitCode::SUCCESS);
    let written = std::fs::read(&out).unwrap();
    assert_eq!(written.len() % RECORD_SIZE, 0);
    assert!(written == expected, "{} bytes written, {} expected", written.len(), expected.len());
    assert_eq!(gen_data(&[&[out_arg][..], &args[..]].concat()), ExitCode::SUCCESS);
    assert_eq!(std::fs::read(&out).unwrap().len(), written.len(), "a second run adds nothing");
    // Self-play options make no sense for the site's games.
    assert!(Cli::try_parse_from(["gen-data", out_arg, "--from-site", url.as_str(), "--seed", "3"]).is_err());

    std::fs::remove_dir_all(&dir).ok();
    store.close().await;
    admin.execute(format!("DROP DATABASE {DATABASE} WITH (FORCE)").as_str()).await.unwrap();
}
