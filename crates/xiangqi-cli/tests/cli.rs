//! The command-line contracts other tools rely on: `perft`, `status`, `match`, `label` and `gen-data` output.

use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn perft_divide_prints_a_line_per_root_move_then_nodes_and_speed() {
    let o = xiangqi(&["perft", "2", "--divide", "--threads", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 44 + 2);
    assert!(lines.contains(&"h2e2: 45"), "black has 45 replies to the central cannon");
    assert_eq!(lines[44], "nodes: 1920");
    assert!(lines[45].contains("nodes/s"));
}

#[test]
fn perft_from_a_fen_and_on_the_hex_board() {
    let o = xiangqi(&["perft", "3", "--fen", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert!(stdout(&o).lines().any(|l| l.starts_with("nodes: ")));
    let o = xiangqi(&["perft", "3", "--variant", "hex"]);
    assert!(stdout(&o).contains("nodes: 28968"));
    let o = xiangqi(&["perft", "2", "--fen", "not a fen"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn perft_epd_counts_passes_and_failures() {
    let dir = std::env::temp_dir().join(format!("xiangqi-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cases.epd");
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(&file, format!("# comment\n{start};D1 44;D2 1920\n{start};D1 45\n")).unwrap();
    let o = xiangqi(&["perft", "--epd", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(out.lines().any(|l| l.contains(start) && l.contains("depth 1") && l.contains("got 44")));
    assert_eq!(out.lines().last(), Some("2 passed, 1 failed"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn status_json_is_one_object_with_the_documented_fields() {
    let o = xiangqi(&["status", "--json", "--moves", "h2e2 h9g7"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["side"], "red");
    assert_eq!(v["check"], false);
    assert_eq!(v["outcome"], serde_json::Value::Null);
    let legal: Vec<&str> = v["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let mut sorted = legal.clone();
    sorted.sort();
    assert_eq!(legal, sorted);
    assert!(legal.contains(&"e2e6"));
    assert!(v["fen"].as_str().unwrap().starts_with("rnbakab1r/"));
}

#[test]
fn status_reports_a_finished_game() {
    let mated = "3a1kb2/9/8n/5R3/2P6/9/8P/9/9/3AKA3 b - - 2 28";
    let o = xiangqi(&["status", "--json", "--fen", mated, "--rules", "itsyourturn"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["outcome"]["winner"], "red");
    assert_eq!(v["outcome"]["reason"], "checkmate");
    assert_eq!(v["legal"].as_array().unwrap().len(), 0);
}

#[test]
fn status_refuses_an_illegal_move_naming_the_ply_move_and_reason() {
    let o = xiangqi(&["status", "--moves", "h2e2 h9g7 h0g3"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ply 3") && err.contains("h0g3") && err.contains("own piece"), "{err}");
    let o = xiangqi(&["status", "--moves", "zz99"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ply 1"));
}

#[test]
fn status_draws_the_board_with_chinese_glyphs() {
    let o = xiangqi(&["status"]);
    let out = stdout(&o);
    assert!(out.contains("俥─傌─相─仕─帥─仕─相─傌─俥"));
    assert!(out.contains("車─馬─象─士─將─士─象─馬─車"));
    assert!(out.contains("楚 河"));
    let o = xiangqi(&["status", "--variant", "hex"]);
    assert!(stdout(&o).contains("/帥\\"));
}

#[test]
fn gen_data_writes_hex_records_with_the_hex_net_and_refuses_a_net_of_the_other_board() {
    let dir = std::env::temp_dir().join(format!("xiangqi-gendata-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("hex.bin");
    let args = ["--nodes", "300", "--threads", "1", "--games", "1", "--random-plies", "2"];
    let o =
        xiangqi(&[&["gen-data", out.to_str().unwrap(), "--variant", "hex", "--nnue"], &args[..]].concat());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("hex games") && err.contains("net "), "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert!(!bytes.is_empty() && bytes.len() % 32 == 0, "{} bytes", bytes.len());
    // Byte 31 of each record: bit 1 names the hex board.
    assert!(bytes.chunks(32).all(|r| r[31] & 2 == 2 && r[31] < 4));
    let hex_net = concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi-engine/nets/hex.nnue");
    let standard = dir.join("standard.bin");
    let o = xiangqi(&[&["gen-data", standard.to_str().unwrap(), "--eval-file", hex_net], &args[..]].concat());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success());
    assert!(err.contains("a net for the hex board, and the games are on the standard board"), "{err}");
    let o = xiangqi(&[
        "gen-data",
        standard.to_str().unwrap(),
        "--variant",
        "hex",
        "--from-site",
        "sqlite::memory:",
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success() && err.contains("--from-site reads the site's standard games"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn match_plays_the_hex_variant_and_writes_its_games() {
    let dir = std::env::temp_dir().join(format!("xiangqi-hexmatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let o = xiangqi(&[
        "match",
        "--engine",
        "self",
        "--engine",
        "self,name=twin",
        "--variant",
        "hex",
        "--tc",
        "0.3+0.02",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("in 2 games"), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Variant \"hex\"]").count(), 2, "{games}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn balanced_openings_feed_a_match_at_fixed_nodes_that_replays_exactly() {
    let dir = std::env::temp_dir().join(format!("xiangqi-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = xiangqi(&["openings", "--count", "2", "--depth", "3", "--within", "60", "--seed", "3"]);
    let lines = stdout(&o);
    assert!(o.status.success(), "{lines}{}", String::from_utf8_lossy(&o.stderr));
    assert!(lines.starts_with("# xiangqi openings --variant standard --plies 4 --count 2"), "{lines}");
    let rows: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 2, "{lines}");
    for row in &rows {
        let (moves, score) = row.split_once('#').unwrap();
        assert_eq!(moves.split_whitespace().count(), 4, "{row}");
        assert!(score.trim().parse::<i32>().unwrap().abs() <= 60, "{row}");
    }
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, &lines).unwrap();
    // A match between `self` and its twin on those openings at a node budget.
    let fixed_nodes = |nodes: &str, games: &str, plies: &str, pgn: &[&str]| {
        let base = ["match", "--engine", "self", "--engine", "self,name=twin", "--openings"];
        let rest = ["--nodes", nodes, "--games", games, "--max-plies", plies];
        xiangqi(&[&base[..], &[openings.to_str().unwrap()], &rest[..], pgn].concat())
    };
    // Two runs of the same fixed-node match play the same moves: the budget is
    // nodes, not time, so how busy the machine is does not enter.
    let run = |name: &str| {
        let pgn = dir.join(name);
        let o = fixed_nodes("400", "2", "40", &["--pgn", pgn.to_str().unwrap()]);
        let out = stdout(&o);
        assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains("2 games at 400 nodes a move, 2 openings"), "{out}");
        std::fs::read_to_string(pgn).unwrap()
    };
    let (first, second) = (run("a.pgn"), run("b.pgn"));
    assert_eq!(first, second);
    // The games begin with the openings' moves (written in the old ICCS style).
    let opening = rows[0].split_whitespace().next().unwrap();
    let written = format!("1. {}-{}", &opening[..2], &opening[2..]).to_uppercase();
    assert!(first.contains(&written), "{written} in {first}");
    // More games than the openings have colours: the repeats are pointed out.
    let o = fixed_nodes("100", "5", "6", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("2 openings give 4 distinct games of the 5 asked"), "{err}");
    // A clock and a node budget at once is refused.
    let o = xiangqi(&["match", "--engine", "self", "--engine", "self,name=b", "--nodes", "5", "--tc", "1+0"]);
    assert!(!o.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_resumed_match_goes_on_from_the_games_its_file_holds() {
    let dir = std::env::temp_dir().join(format!("xiangqi-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let run = |games: &str, names: [&str; 2]| {
        xiangqi(&[
            "match",
            "--engine",
            &format!("self,name={}", names[0]),
            "--engine",
            &format!("self,name={}", names[1]),
            "--variant",
            "hex",
            "--tc",
            "0.3+0.02",
            "--games",
            games,
            "--max-plies",
            "20",
            "--pgn",
            pgn.to_str().unwrap(),
            "--resume",
        ])
    };
    let o = run("2", ["one", "two"]);
    assert!(o.status.success(), "{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    let o = run("3", ["one", "two"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("resumed: 2 games written, rounds up to 2"), "{out}");
    assert!(out.contains("game    3:"), "the next round is the third: {out}");
    assert!(out.contains("in 3 games"), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    for round in 1..=3 {
        assert_eq!(games.matches(&format!("[Round \"{round}\"]")).count(), 1, "{games}");
    }
    // Other engines' names do not fit the file's games.
    let o = run("4", ["one", "three"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a game between one and three"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn label_scores_positions_for_red_in_input_order_and_names_a_bad_line() {
    let dir = std::env::temp_dir().join(format!("xiangqi-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let samples = dir.join("samples.txt");
    // Red a chariot up; the same with Black to move; Black a chariot up.
    let fens = [
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1",
    ];
    std::fs::write(&samples, format!("{};0.5\n\n{}\n{};1\n", fens[0], fens[1], fens[2])).unwrap();
    let o =
        xiangqi(&["label", samples.to_str().unwrap(), "--engine", "self", "--nodes", "3000", "--jobs", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let labels: Vec<(&str, f64)> = out
        .lines()
        .map(|l| {
            let (fen, p) = l.rsplit_once(';').unwrap();
            (fen, p.parse().unwrap())
        })
        .collect();
    assert_eq!(labels.iter().map(|l| l.0).collect::<Vec<_>>(), fens);
    assert!(labels[0].1 > 0.8 && labels[1].1 > 0.8, "{out}");
    assert!(labels[2].1 < 0.2, "{out}");
    // Each position is searched from an empty hash table: the same position twice
    // in one process gets the same label, not a second search helped by the first.
    std::fs::write(&samples, format!("{}\n{}\n", fens[0], fens[0])).unwrap();
    let o =
        xiangqi(&["label", samples.to_str().unwrap(), "--engine", "self", "--nodes", "3000", "--jobs", "1"]);
    let twice = stdout(&o);
    let twice: Vec<&str> = twice.lines().collect();
    assert_eq!(twice.len(), 2);
    assert_eq!(twice[0], twice[1]);

    std::fs::write(&samples, format!("{}\nnot a fen;1\n", fens[0])).unwrap();
    let o = xiangqi(&["label", samples.to_str().unwrap(), "--engine", "self"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2"));
    assert!(o.stdout.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn admin_grant_names_a_missing_user_and_exits_2() {
    let dir = std::env::temp_dir().join(format!("xiangqi-admin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}/t.db?mode=rwc", dir.display());
    let out = xiangqi(&["admin", "grant", "nobody", "--database", &db]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no user \"nobody\""));
    let out = xiangqi(&["admin", "promote", "nobody", "--database", &db]);
    assert_eq!(out.status.code(), Some(2), "clap refuses an unknown action");
    std::fs::remove_dir_all(&dir).ok();
}
