//! Protocol tests: drive `xiangqi uci` over stdin/stdout in both dialects.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, channel},
    time::Duration,
};

use xiangqi::{Hex, Position, Standard};

/// A running engine. Waits are bounded only so that a broken engine fails the
/// test instead of hanging it; nothing here measures speed.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

const PATIENCE: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no line starting with {prefix:?}; got {seen:#?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove");
        lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn assert_legal(fen: Option<&str>, moves: &[&str], best: &str) {
    let mut pos: Position<Standard> = fen.map_or_else(Position::startpos, |f| f.parse().unwrap());
    for m in moves {
        let m = pos.parse_move(m).unwrap();
        pos.play(m).unwrap();
    }
    assert!(pos.parse_move(best).is_ok(), "{best} is not legal in {}", pos.to_fen());
}

#[test]
fn uci_handshake_lists_options_and_answers_isready() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name ")));
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")));
    assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin")));
    assert!(lines.iter().any(|l| l.contains("UCI_Variant")));
    e.send("isready");
    e.until("readyok");
}

#[test]
fn ucci_handshake_and_bye() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.until("ucciok");
    assert!(lines.iter().any(|l| l.starts_with("id name ")));
    e.send("isready");
    e.until("readyok");
    e.send("quit");
    e.until("bye");
}

#[test]
fn every_uci_go_form_answers_a_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Hash value 8");
    e.send("ucinewgame");
    let moves = ["h2e2", "h9g7", "h0g2"];
    for go in [
        "go depth 4",
        "go nodes 3000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 500 btime 500 movestogo 3",
        "go btime 300 wtime 300",
    ] {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(go);
        let lines = e.until("bestmove");
        assert!(lines.iter().any(|l| l.starts_with("info depth ")), "{go}: {lines:?}");
        assert_legal(None, &moves, lines.last().unwrap().split_whitespace().nth(1).unwrap());
    }
}

#[test]
fn info_lines_carry_the_uci_fields() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let info = lines.iter().rfind(|l| l.starts_with("info depth 5")).expect("a depth-5 info line");
    for field in [" seldepth ", " score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
        assert!(info.contains(field), "{field} missing from {info}");
    }
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    e.send("go infinite");
    e.until("info depth 3");
    e.send("stop");
    let best = e.bestmove();
    assert_legal(None, &[], &best);
    e.send("isready");
    e.until("readyok");
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 2000 btime 2000");
    e.until("info depth 2");
    e.send("ponderhit");
    let best = e.bestmove();
    assert_legal(None, &["h2e2", "h9g7"], &best);
}

#[test]
fn mate_in_one_is_reported_as_mate() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    // The chariot checks along the back row, the other guards e8, and the red
    // general, facing d9 across the open file, takes the last flight square.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:#?}");
    assert_eq!(lines.last().unwrap().split_whitespace().nth(1), Some("i0i9"));
}

#[test]
fn ucci_go_forms_and_banmoves() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    e.send("position startpos moves h2e2");
    e.send("go time 1000 increment 10 opptime 1000 oppincrement 10");
    assert_legal(None, &["h2e2"], &e.bestmove());
    e.send("position startpos");
    e.send("banmoves h2e2 b2e2");
    e.send("go depth 3");
    let best = e.bestmove();
    assert!(best != "h2e2" && best != "b2e2", "{best} was banned");
    assert_legal(None, &[], &best);
    e.send("position startpos");
    e.send("go draw depth 2");
    e.bestmove();
}

#[test]
fn no_legal_move_gives_the_dialects_empty_answers() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    // Black to move is mated by two chariots on its two back rows.
    e.send("position fen R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove (none)");
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    e.send("position fen R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    e.until("nobestmove");
}

#[test]
fn malformed_input_gets_info_string_errors_and_no_crash() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    for bad in [
        "position",
        "position fen this/is/not/a/fen",
        "position startpos moves h2h8",
        "position startpos moves zz99",
        "go depth",
        "go depth many",
        "go sideways 3",
        "setoption name Hash value -5",
        "setoption name Threads value 0",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value shogi",
        "frobnicate",
        "\u{feff}\u{0}\u{7f}",
    ] {
        e.send(bad);
        let lines = e.until("info string");
        assert!(lines.last().unwrap().len() > "info string ".len(), "{bad}");
    }
    // After all that the engine still plays from the last good position.
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    assert_legal(None, &["h2e2"], &e.bestmove());
}

#[test]
fn hex_variant_plays_hex_moves() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value hex");
    e.send("position startpos");
    e.send("go depth 3");
    let best = e.bestmove();
    let pos = Position::<Hex>::startpos();
    assert!(pos.parse_move(&best).is_ok(), "{best} is not a legal hex move");
    let first = best.clone();
    e.send(&format!("position startpos moves {first}"));
    e.send("go nodes 2000");
    let reply = e.bestmove();
    let mut pos = Position::<Hex>::startpos();
    pos.play(pos.parse_move(&first).unwrap()).unwrap();
    assert!(pos.parse_move(&reply).is_ok(), "{reply} is not a legal hex reply");
}

#[test]
fn level_option_is_listed_validated_and_played() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l == "option name Level type spin default 0 min 0 max 8"), "{lines:#?}");
    for bad in [
        "setoption name Level value 9",
        "setoption name Level value -1",
        "setoption name Level value three",
        "setoption name Level Depth value 2",
    ] {
        e.send(bad);
        let line = e.until("info string").pop().unwrap();
        assert!(line.contains("Level"), "{bad}: {line}");
    }
    // A level plays its own budget whatever the limits, on either board.
    e.send("setoption name Level value 2");
    e.send("setoption name Level Temperature value 100001");
    assert!(e.until("info string").pop().unwrap().contains("Level Temperature"));
    e.send("position startpos moves h2e2");
    e.send("go depth 30");
    assert_legal(None, &["h2e2"], &e.bestmove());
    e.send("go wtime 100000 btime 100000 winc 0 binc 0");
    assert_legal(None, &["h2e2"], &e.bestmove());
    // A mate in one is taken even at a low level.
    let fen = "4k4/9/4N4/9/9/9/9/C8/9/5K3 w - - 0 1";
    e.send("setoption name Level value 1");
    e.send(&format!("position fen {fen}"));
    e.send("go movetime 100000");
    let best = e.bestmove();
    let mut pos: Position<Standard> = fen.parse().unwrap();
    pos.play(pos.parse_move(&best).unwrap()).unwrap();
    assert!(pos.is_check() && pos.legal_moves().is_empty(), "{best} does not mate");
    e.send("setoption name UCI_Variant value hex");
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    let best = e.bestmove();
    assert!(Position::<Hex>::startpos().parse_move(&best).is_ok(), "{best}");
    // Level 0 is full strength again.
    e.send("setoption name Level value 0");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{lines:#?}");
}
