//! An engine in its own process, driven over UCI or UCCI.

use std::{
    io::{BufRead, BufReader, Write},
    path::PathBuf,
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, RecvTimeoutError, channel},
    time::{Duration, Instant},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
}

/// How to start and talk to one engine.
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub protocol: Protocol,
    /// The engine counts ranks 1-10 (as Fairy-Stockfish does for xiangqi) instead of 0-9.
    pub ranks_from_one: bool,
    pub options: Vec<(String, String)>,
}

impl Spec {
    /// Parses comma-separated fields: `self` (this program's own engine), or
    /// `cmd=PATH`, and `name=NAME`, `arg=ARG` (repeatable), `proto=uci|ucci`,
    /// `ranks=0|1`, `option.NAME=VALUE` (repeatable; NAME may contain spaces).
    ///
    /// # Errors
    /// A field that is not `key=value`, an unknown key or value, or no `cmd`.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut spec = Spec {
            name: String::new(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            protocol: Protocol::Uci,
            ranks_from_one: false,
            options: Vec::new(),
        };
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            if field == "self" {
                spec.cmd = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
                spec.args = vec!["uci".into()];
                if spec.name.is_empty() {
                    spec.name = "xiangqi".into();
                }
                continue;
            }
            let (key, value) =
                field.split_once('=').ok_or_else(|| format!("engine field {field:?} is not key=value"))?;
            match key {
                "cmd" => spec.cmd = PathBuf::from(value),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "proto" => {
                    spec.protocol = match value {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        _ => return Err(format!("proto={value}: expected uci or ucci")),
                    }
                }
                "ranks" => {
                    spec.ranks_from_one = match value {
                        "0" | "0-9" => false,
                        "1" | "1-10" => true,
                        _ => return Err(format!("ranks={value}: expected 0 (0-9) or 1 (1-10)")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) => spec.options.push((name.to_string(), value.to_string())),
                    None => return Err(format!("unknown engine field {key:?}")),
                },
            }
        }
        if spec.cmd.as_os_str().is_empty() {
            return Err(format!("engine {text:?} has no cmd=PATH (or `self`)"));
        }
        if spec.name.is_empty() {
            spec.name = spec.cmd.file_name().map_or("engine".into(), |n| n.to_string_lossy().into_owned());
        }
        Ok(spec)
    }
}

/// The clocks before a move, from Red's and Black's side.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    pub red: Duration,
    pub black: Duration,
    pub increment: Duration,
    pub red_to_move: bool,
}

impl Clocks {
    /// The mover's time left.
    pub fn own(&self) -> Duration {
        if self.red_to_move { self.red } else { self.black }
    }
}

/// What an engine is given for a move.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Its clock, which it may overrun by the grace period.
    Clock(Clocks),
    /// A fixed number of nodes (`go nodes N` in both protocols), so that the
    /// games do not depend on how busy the machine is; the engine forfeits
    /// only when no move comes within the grace period.
    Nodes(u64),
}

/// Why an engine did not produce a move.
#[derive(Debug)]
pub enum Failure {
    /// No answer within its time (plus the grace period).
    Timeout,
    /// The process ended or could not be written to.
    Died(String),
}

pub struct Player {
    pub spec: Spec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

const HANDSHAKE: Duration = Duration::from_secs(20);

impl Player {
    /// Starts the engine and completes the handshake.
    ///
    /// # Errors
    /// When the process cannot start or does not answer the handshake.
    pub fn start(spec: &Spec) -> Result<Player, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.cmd.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Player { spec: spec.clone(), child, stdin, lines };
        let (hello, ok) = match spec.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        p.send(hello).map_err(|e| format!("{}: {e:?}", spec.name))?;
        p.wait_for(ok, HANDSHAKE).map_err(|e| format!("{}: no {ok}: {e:?}", spec.name))?;
        for (name, value) in &spec.options {
            let line = match spec.protocol {
                Protocol::Uci => format!("setoption name {name} value {value}"),
                Protocol::Ucci => format!("setoption {name} {value}"),
            };
            p.send(&line).map_err(|e| format!("{}: {e:?}", spec.name))?;
        }
        p.ready().map_err(|e| format!("{}: not ready: {e:?}", spec.name))?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Died(e.to_string()))
    }

    /// Reads lines until one starts with `prefix`, returning it.
    fn wait_for(&mut self, prefix: &str, patience: Duration) -> Result<String, Failure> {
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Died("the engine exited".into())),
            }
        }
    }

    fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE).map(|_| ())
    }

    /// Prepares for a new game.
    ///
    /// # Errors
    /// When the engine does not answer.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        if self.spec.protocol == Protocol::Uci {
            self.send("ucinewgame")?;
        }
        self.ready()
    }

    /// Asks for a move in the position `fen` + `moves` (our ICCS, ranks 0-9) and
    /// returns it in our ICCS with the time the engine took.
    ///
    /// # Errors
    /// [`Failure::Timeout`] if no move comes within the mover's time (none with
    /// a node budget) plus `grace`.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        budget: Budget,
        grace: Duration,
    ) -> Result<(String, Duration), Failure> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&self.to_engine(m));
            }
        }
        let ms = |d: Duration| d.as_millis();
        let (go, own) = match (budget, self.spec.protocol) {
            (Budget::Nodes(nodes), _) => (format!("go nodes {nodes}"), Duration::ZERO),
            (Budget::Clock(clocks), Protocol::Uci) => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(clocks.red),
                    ms(clocks.black),
                    ms(clocks.increment),
                    ms(clocks.increment)
                ),
                clocks.own(),
            ),
            (Budget::Clock(clocks), Protocol::Ucci) => {
                let (own, opp) =
                    if clocks.red_to_move { (clocks.red, clocks.black) } else { (clocks.black, clocks.red) };
                let inc = ms(clocks.increment);
                (format!("go time {} increment {inc} opptime {} oppincrement {inc}", ms(own), ms(opp)), own)
            }
        };
        self.send(&position)?;
        self.send(&go)?;
        let start = Instant::now();
        let answer = loop {
            let line = self.wait_for("", own.saturating_sub(start.elapsed()) + grace)?;
            if line.starts_with("bestmove") || line.starts_with("nobestmove") {
                break line;
            }
        };
        let used = start.elapsed();
        let mv = answer.split_whitespace().nth(1).unwrap_or("(none)");
        Ok((self.to_ours(mv), used))
    }

    /// Searches `fen` for `nodes` nodes and returns the engine's last score for
    /// the side to move: centipawns, or a mate in `n` moves (negative: being mated).
    ///
    /// # Errors
    /// When the engine dies or gives no `bestmove` within `patience`.
    pub fn analyse(&mut self, fen: &str, nodes: u64, patience: Duration) -> Result<Option<Score>, Failure> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go nodes {nodes}"))?;
        let deadline = Instant::now() + patience;
        let mut score = None;
        loop {
            let line = self.wait_for("", deadline.saturating_duration_since(Instant::now()))?;
            if line.starts_with("bestmove") || line.starts_with("nobestmove") {
                return Ok(score);
            }
            if line.starts_with("info") {
                score = Score::from_info(&line).or(score);
            }
        }
    }

    /// Our coordinates (ranks 0-9) to the engine's.
    fn to_engine(&self, m: &str) -> String {
        if self.spec.ranks_from_one { shift_ranks(m, 1) } else { m.to_string() }
    }

    fn to_ours(&self, m: &str) -> String {
        if self.spec.ranks_from_one { shift_ranks(m, -1) } else { m.to_string() }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An engine's score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    Mate(i32),
}

impl Score {
    /// The `score cp N` or `score mate N` of an `info` line (UCCI's bare
    /// `score N` counts as centipawns); `None` when it has none.
    pub fn from_info(line: &str) -> Option<Score> {
        let mut words = line.split_whitespace().skip_while(|w| *w != "score").skip(1);
        match words.next()? {
            "cp" => words.next()?.parse().ok().map(Score::Centipawns),
            "mate" => words.next()?.parse().ok().map(Score::Mate),
            n => n.parse().ok().map(Score::Centipawns),
        }
    }
}

/// Adds `by` to each rank number of a coordinate move (`h2e2` <-> `h3e3`);
/// text that is not a coordinate move comes back unchanged.
pub fn shift_ranks(m: &str, by: i32) -> String {
    let mut out = String::with_capacity(m.len() + 2);
    let mut rest = m;
    while let Some(file) = rest.chars().next() {
        if !file.is_ascii_alphabetic() {
            return m.to_string();
        }
        let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        let Ok(rank) = rest[1..1 + digits].parse::<i32>() else { return m.to_string() };
        out.push(file);
        out.push_str(&(rank + by).to_string());
        rest = &rest[1 + digits..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_both_ways() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("b9c7", 1), "b10c8");
        assert_eq!(shift_ranks("b10c8", -1), "b9c7");
        assert_eq!(shift_ranks("(none)", -1), "(none)");
    }

    #[test]
    fn scores_parse_from_info_lines() {
        assert_eq!(
            Score::from_info("info depth 9 score cp -35 nodes 100 pv h2e2"),
            Some(Score::Centipawns(-35))
        );
        assert_eq!(
            Score::from_info("info depth 12 seldepth 14 score mate -3 pv a0a1"),
            Some(Score::Mate(-3))
        );
        assert_eq!(Score::from_info("info depth 5 score 120 pv h2e2"), Some(Score::Centipawns(120)));
        assert_eq!(Score::from_info("info string hello"), None);
        assert_eq!(Score::from_info("info depth 5 score cp"), None);
    }

    #[test]
    fn specs_parse() {
        let s =
            Spec::parse("cmd=/usr/games/fairy-stockfish,ranks=1,option.UCI_Variant=xiangqi,option.Hash=16")
                .unwrap();
        assert!(s.ranks_from_one);
        assert_eq!(s.options, vec![("UCI_Variant".into(), "xiangqi".into()), ("Hash".into(), "16".into())]);
        assert_eq!(s.name, "fairy-stockfish");
        assert!(Spec::parse("name=x").is_err());
        assert!(Spec::parse("cmd=x,proto=xboard").is_err());
        let s = Spec::parse("self, name=new, option.Move Overhead=50").unwrap();
        assert_eq!(s.args, vec!["uci".to_string()]);
        assert_eq!(s.options[0].0, "Move Overhead");
    }
}
