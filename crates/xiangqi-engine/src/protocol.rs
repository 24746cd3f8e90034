//! The UCI and UCCI protocols over any line reader and writer: a thin layer that
//! parses commands, keeps the position, and runs [`Engine::search`] on its own
//! thread so that `stop`, `ponderhit` and `isready` are answered while it thinks.
//!
//! The first command picks the dialect: `ucci` selects UCCI, anything else UCI
//! (as Pikafish speaks it: ICCS coordinates with ranks 0-9, `w` for Red in FENs).
//!
//! ```
//! use std::io::Cursor;
//!
//! let input = Cursor::new("uci\nisready\nposition startpos moves h2e2\ngo depth 3\nquit\n");
//! let mut output = Vec::new();
//! xiangqi_engine::protocol::run(input, &mut output);
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.contains("uciok") && text.contains("readyok") && text.contains("bestmove "));
//! ```

use std::{
    io::{BufRead, Write},
    str::FromStr,
    sync::{Arc, Mutex},
    thread::{Scope, ScopedJoinHandle},
    time::Duration,
};

use xiangqi::{AnyGame, Color, Geometry, Move, RuleSet, Rules, Variant, notation::iccs, with_game};

use crate::{Analysis, Clock, Control, Engine, Info, Level, Limits, Options, Root, Score, Style, nnue::Nets};

const NAME: &str = concat!("xiangqi-engine ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the xiangqi authors";
const MAX_HASH_MB: usize = 65_536;
const MAX_THREADS: usize = 256;
/// The most lines `MultiPV` asks for (more than any position has legal moves).
const MAX_MULTI_PV: usize = 500;
/// The bounds of the options that change a level's style.
const MAX_LEVEL_DEPTH: u64 = 64;
const MAX_LEVEL_NODES: u64 = 1_000_000_000;
const MAX_TEMPERATURE: u64 = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ucci,
}

type Out<'w> = Arc<Mutex<dyn Write + Send + 'w>>;

fn say(out: &Out<'_>, line: &str) {
    // A closed output (the GUI went away) leaves nothing to report to.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

struct Running<'s> {
    control: Arc<Control>,
    handle: ScopedJoinHandle<'s, ()>,
}

/// `Use NNUE` when a session starts: the embedded net plays far stronger than
/// the classical evaluation (the README's matches).
const USE_NNUE_BY_DEFAULT: bool = true;

struct Session<'s, 'w> {
    scope: &'s Scope<'s, 'w>,
    dialect: Option<Dialect>,
    out: Out<'w>,
    engine: Arc<Mutex<Engine>>,
    /// The `Rule` option.
    rule_set: RuleSet,
    /// The position given by `position`, on the board `UCI_Variant` names, with
    /// the moves that led to it.
    game: AnyGame,
    /// Root moves forbidden by `banmoves` in this position.
    banned: Vec<Move>,
    move_overhead: Duration,
    /// UCI `MultiPV`: the lines each search looks for.
    multi_pv: usize,
    /// UCCI: clock times in milliseconds (the default) or seconds.
    millis: bool,
    /// The style of a strength level to play at instead of full strength.
    style: Option<Style>,
    /// Mixed into each level's random choice, so that games differ from session to session.
    seed: u64,
    /// `Use NNUE`: whether nets evaluate (each board with its own).
    use_nnue: bool,
    /// The nets `Use NNUE` turns on: the embedded ones, each replaced by the
    /// last `EvalFile` for its board.
    nets: Nets,
    running: Option<Running<'s>>,
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send>(input: R, output: W) {
    let out: Out<'_> = Arc::new(Mutex::new(output));
    std::thread::scope(|scope| serve(scope, input, out));
}

fn serve<'s, 'w, R: BufRead>(scope: &'s Scope<'s, 'w>, input: R, out: Out<'w>) {
    let mut session = Session {
        scope,
        dialect: None,
        out,
        engine: Arc::new(Mutex::new(Engine::new(Options::default()))),
        rule_set: RuleSet::Asian,
        game: start_game(Variant::Standard, RuleSet::Asian, None).expect("the start position is a position"),
        banned: Vec::new(),
        move_overhead: Duration::from_millis(30),
        multi_pv: 1,
        millis: true,
        style: None,
        seed: session_seed(),
        use_nnue: USE_NNUE_BY_DEFAULT,
        nets: Nets::embedded(),
        running: None,
    };
    session.apply_nnue();
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !session.command(line.trim()) {
            break;
        }
    }
    session.finish_search();
    if session.dialect == Some(Dialect::Ucci) {
        say(&session.out, "bye");
    }
}

impl<'s, 'w> Session<'s, 'w> {
    fn info_string(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Handles one line; `false` ends the session.
    fn command(&mut self, line: &str) -> bool {
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else { return true };
        let args: Vec<&str> = tokens.collect();
        if self.dialect.is_none() {
            self.dialect = Some(if cmd == "ucci" { Dialect::Ucci } else { Dialect::Uci });
        }
        match cmd {
            "uci" | "ucci" => self.handshake(),
            "isready" => say(&self.out, "readyok"),
            "quit" => return false,
            "stop" => self.finish_search(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            "ucinewgame" => {
                self.finish_search();
                self.lock_engine().clear();
            }
            "setoption" => {
                self.finish_search();
                if let Err(e) = self.set_option(&args) {
                    self.info_string(&e);
                }
            }
            "position" => {
                self.finish_search();
                if let Err(e) = self.position(&args) {
                    self.info_string(&e);
                }
            }
            "banmoves" => {
                self.finish_search();
                if let Err(e) = self.ban(&args) {
                    self.info_string(&e);
                }
            }
            "go" => {
                self.finish_search();
                if let Err(e) = self.go(&args) {
                    self.info_string(&e);
                }
            }
            other => self.info_string(&format!("unknown command: {other}")),
        }
        true
    }

    /// Gives the engine the nets that `Use NNUE` and `EvalFile` choose, or none.
    fn apply_nnue(&self) {
        let nets = if self.use_nnue { self.nets.clone() } else { Nets::default() };
        self.lock_engine().set_nnue(nets);
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        // A search thread that panicked leaves a usable engine behind.
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn handshake(&self) {
        let out = &self.out;
        say(out, &format!("id name {NAME}"));
        say(out, &format!("id author {AUTHOR}"));
        if self.dialect == Some(Dialect::Ucci) {
            say(out, "option usemillisec type check default true");
            say(out, &format!("option hashsize type spin min 1 max {MAX_HASH_MB} default 64"));
            say(out, &format!("option threads type spin min 1 max {MAX_THREADS} default 1"));
            say(out, "option ponder type check default false");
            say(out, &format!("option level type spin min 0 max {} default 0", Level::MAX));
            say(out, &format!("option usennue type check default {USE_NNUE_BY_DEFAULT}"));
            say(out, "option evalfile type string default <embedded>");
            say(out, "ucciok");
        } else {
            say(out, &format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}"));
            say(out, &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
            say(out, "option name Ponder type check default false");
            say(out, "option name Move Overhead type spin default 30 min 0 max 5000");
            say(out, &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"));
            say(out, "option name UCI_Variant type combo default xiangqi var xiangqi var hex");
            say(out, "option name Rule type combo default asian var asian var casual var itsyourturn");
            say(out, "option name Clear Hash type button");
            say(out, "option name Weights type string default <default>");
            say(out, &format!("option name Use NNUE type check default {USE_NNUE_BY_DEFAULT}"));
            say(out, "option name EvalFile type string default <embedded>");
            say(out, &format!("option name Level type spin default 0 min 0 max {}", Level::MAX));
            say(out, &format!("option name Level Depth type spin default 0 min 0 max {MAX_LEVEL_DEPTH}"));
            say(out, &format!("option name Level Nodes type spin default 0 min 0 max {MAX_LEVEL_NODES}"));
            say(
                out,
                &format!("option name Level Temperature type spin default 0 min 0 max {MAX_TEMPERATURE}"),
            );
            say(out, "uciok");
        }
    }

    /// `setoption name <name> value <value>` (UCI, and UCCI engines that accept it)
    /// or `setoption <name> <value>` (UCCI).
    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let (name, value) = if args.first() == Some(&"name") {
            let v = args.iter().position(|a| *a == "value");
            let name = args[1..v.unwrap_or(args.len())].join(" ");
            let value = v.map(|i| args[i + 1..].join(" ")).unwrap_or_default();
            (name, value)
        } else {
            let name = args.first().ok_or("setoption needs an option name")?.to_string();
            (name, args.get(1..).map(|v| v.join(" ")).unwrap_or_default())
        };
        let number = |v: &str, max: usize| -> Result<usize, String> {
            v.parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("option {name}: {v:?} is not a number from 1 to {max}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" | "hashsize" => {
                let mb = number(&value, MAX_HASH_MB)?;
                self.lock_engine().set_hash(mb);
            }
            "threads" => {
                let n = number(&value, MAX_THREADS)?;
                self.lock_engine().set_threads(n);
            }
            "move overhead" => {
                let ms: u64 =
                    value.parse().map_err(|_| format!("option {name}: {value:?} is not a number"))?;
                self.move_overhead = Duration::from_millis(ms.min(5000));
            }
            "uci_variant" => {
                let variant = Variant::from_str(&value)?;
                self.set_game(start_game(variant, self.rule_set, None)?);
            }
            "rule" => {
                self.rule_set = RuleSet::from_str(&value)?;
                self.set_game(start_game(self.game.variant(), self.rule_set, None)?);
            }
            "weights" => {
                let params = if value.is_empty() || value == "<default>" {
                    crate::eval::Params::default()
                } else {
                    let text = std::fs::read_to_string(&value)
                        .map_err(|e| format!("option Weights: {value}: {e}"))?;
                    crate::eval::Params::parse(&text).map_err(|e| format!("option Weights: {value}: {e}"))?
                };
                self.lock_engine().set_params(params);
            }
            "use nnue" | "usennue" => {
                self.use_nnue = match value.trim() {
                    "true" => true,
                    "false" => false,
                    v => return Err(format!("option {name}: {v:?} is not true or false")),
                };
                self.apply_nnue();
            }
            "evalfile" => {
                let value = value.trim();
                self.nets = if value.is_empty() || value == "<embedded>" {
                    Nets::embedded()
                } else {
                    let net = crate::nnue::Network::load(std::path::Path::new(value))
                        .map_err(|e| format!("option EvalFile: {e} (the net in use is unchanged)"))?;
                    self.info_string(&format!(
                        "EvalFile: {value}: net {:016x} loaded for the {} board",
                        net.hash(),
                        net.variant().name()
                    ));
                    self.nets.clone().with(Arc::new(net))
                };
                self.apply_nnue();
            }
            "multipv" if self.dialect != Some(Dialect::Ucci) => self.multi_pv = number(&value, MAX_MULTI_PV)?,
            "usemillisec" => self.millis = value != "false",
            "level" => {
                self.style = match value.trim() {
                    "0" => None,
                    v => Some(
                        v.parse::<Level>()
                            .map_err(|_| {
                                format!(
                                    "option {name}: {value:?} is not 0 (full strength) or a level from 1 to {}",
                                    Level::MAX
                                )
                            })?
                            .style(),
                    ),
                };
            }
            "level depth" | "level nodes" | "level temperature" => {
                let style = self.style.as_mut().ok_or_else(|| format!("option {name}: set Level first"))?;
                let max = match name.to_ascii_lowercase().as_str() {
                    "level depth" => MAX_LEVEL_DEPTH,
                    "level nodes" => MAX_LEVEL_NODES,
                    _ => MAX_TEMPERATURE,
                };
                let n = value
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n <= max)
                    .ok_or_else(|| format!("option {name}: {value:?} is not a number from 0 to {max}"))?;
                match name.to_ascii_lowercase().as_str() {
                    "level depth" => style.depth = (n > 0).then_some(n as i32),
                    "level nodes" if n == 0 => return Err(format!("option {name}: a level needs nodes")),
                    "level nodes" => style.nodes = n,
                    _ => style.temperature = n as i32,
                }
            }
            "clear hash" | "newgame" => self.lock_engine().clear(),
            // Accepted and meaningless here (UCCI's info lines cannot say which of
            // several lines they are, so MultiPV is UCI's alone).
            "ponder" | "uci_chess960" | "multipv" | "batch" | "debug" | "promotion" | "idle" | "style"
            | "knowledge" | "pruning" | "randomness" | "bookfiles" | "egtbpaths" => {}
            _ => return Err(format!("unknown option: {name}")),
        }
        Ok(())
    }

    /// The rules that judge repetitions in the search: the `Rule` option where
    /// it is written for the board in play, else the board's own rule set.
    fn rules(&self) -> Rules {
        let variant = self.game.variant();
        let rule_set =
            if self.rule_set.variant() == variant { self.rule_set } else { variant.default_rules() };
        rule_set.rules()
    }

    /// A new position: the bans of the last one no longer apply.
    fn set_game(&mut self, game: AnyGame) {
        self.game = game;
        self.banned.clear();
    }

    /// Reads coordinate moves that are legal in the current position.
    fn parse_moves(&self, names: &[&str]) -> Result<Vec<Move>, String> {
        names.iter().map(|text| self.game.parse_move(text).map_err(|e| format!("move {text}: {e}"))).collect()
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|a| *a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let fen = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => "startpos".to_string(),
            Some(&"fen") if setup.len() > 1 => setup[1..].join(" "),
            _ => return Err("position needs `startpos` or `fen <fen>`, then optionally `moves ...`".into()),
        };
        self.set_game(start_game(self.game.variant(), self.rule_set, Some((&fen, moves)))?);
        Ok(())
    }

    fn ban(&mut self, args: &[&str]) -> Result<(), String> {
        let moves = self.parse_moves(args)?;
        self.banned.extend(moves);
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let go = parse_go(args, self.dialect == Some(Dialect::Ucci), self.millis, self.game.turn())?;
        let mut limits = go.limits;
        limits.move_overhead = self.move_overhead;
        limits.multi_pv = self.multi_pv;
        let names: Vec<&str> = go.search_moves.iter().map(String::as_str).collect();
        let only = self.parse_moves(&names)?;
        let (game, rules, banned) = (self.game.clone(), self.rules(), self.banned.clone());
        let control = Arc::new(Control::new());
        control.set_pondering(go.ponder);
        let wait = go.infinite || go.ponder;
        let (engine, out, dialect, ctl) =
            (self.engine.clone(), self.out.clone(), self.dialect, control.clone());
        let ucci = dialect == Some(Dialect::Ucci);
        let style = self.style.map(|style| (style, self.seed));
        let handle = self.scope.spawn(move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            let result = with_game!(&game, g => {
                let mut root = Root::new(g.start().clone(), &g.moves(), rules)
                    .expect("the game holds only moves the board allows");
                root.ban(banned);
                if !only.is_empty() {
                    root.search_only(only);
                }
                think(&mut engine, &root, &limits, style, &ctl, &out, ucci)
            });
            drop(engine);
            // In infinite or ponder mode the answer waits for `stop` or `ponderhit`.
            while wait && !ctl.is_stopped() && (go.infinite || ctl.is_pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
            say(&out, &result);
        });
        self.running = Some(Running { control, handle });
        Ok(())
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            let _ = r.handle.join();
        }
    }
}

/// Searches (at full strength, or in a level's style with its seed, where only
/// the time in `limits` counts) and returns the `bestmove` line.
fn think<G: Geometry>(
    engine: &mut Engine,
    root: &Root<G>,
    limits: &Limits,
    style: Option<(Style, u64)>,
    control: &Control,
    out: &Out<'_>,
    ucci: bool,
) -> String {
    let mut on_info = |info: &Info| say(out, &info_line(info, ucci, G::TABLES));
    let result = match style {
        Some((style, seed)) => style.play(engine, root, limits, control, seed, &mut on_info),
        None => engine.search(root, limits, control, &mut on_info),
    };
    bestmove_line(&result, ucci, G::TABLES)
}

/// A seed that differs from session to session (from the standard library's
/// randomly keyed hasher and the clock).
fn session_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

fn info_line(info: &Info, ucci: bool, t: &xiangqi::Tables) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| iccs::write(t, *m)).collect();
    let ms = info.time.as_millis();
    if ucci {
        let score = match info.score {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => crate::MATE - (2 * n - 1),
            Score::Mate(n) => -crate::MATE - 2 * n,
        };
        return format!(
            "info depth {} score {score} time {ms} nodes {} pv {}",
            info.depth,
            info.nodes,
            pv.join(" ")
        );
    }
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {ms} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.hashfull,
        pv.join(" ")
    )
}

fn bestmove_line(result: &Analysis, ucci: bool, t: &xiangqi::Tables) -> String {
    match (result.best, ucci) {
        (None, true) => "nobestmove".to_string(),
        (None, false) => "bestmove (none)".to_string(),
        (Some(best), _) => {
            let mut line = format!("bestmove {}", iccs::write(t, best));
            if let Some(p) = result.ponder {
                line.push_str(&format!(" ponder {}", iccs::write(t, p)));
            }
            line
        }
    }
}

/// The game of `fen` (or the start) with `moves` played, each as far as the
/// board allows it: the program on the other side judges repetitions and
/// limits, so any move it sends is taken, and the rules judge only the search.
fn start_game(variant: Variant, rule_set: RuleSet, spec: Option<(&str, &[&str])>) -> Result<AnyGame, String> {
    let (fen, moves) = spec.unwrap_or(("startpos", &[]));
    let fen = if fen == "startpos" { variant.start_fen() } else { fen.to_string() };
    let mut game = AnyGame::with_rules(variant, &fen, rule_set, Rules::BOARD_ONLY)
        .map_err(|e| format!("bad FEN {fen:?}: {e}"))?;
    for text in moves {
        let m = game.parse_move(text).map_err(|e| format!("move {text}: {e}"))?;
        game.play(m).map_err(|e| format!("move {text}: {e}"))?;
    }
    Ok(game)
}

/// A parsed `go` command.
#[derive(Debug, Default)]
struct Go {
    limits: Limits,
    infinite: bool,
    ponder: bool,
    search_moves: Vec<String>,
}

fn parse_go(args: &[&str], ucci: bool, millis: bool, turn: Color) -> Result<Go, String> {
    let mut go = Go::default();
    let mut clocks = [(None, Duration::ZERO); 2];
    let mut moves_to_go = None;
    let mut i = 0;
    let unit = if ucci && !millis { 1000 } else { 1 };
    while i < args.len() {
        let key = args[i];
        let number = |i: usize| -> Result<u64, String> {
            let v = args.get(i + 1).ok_or_else(|| format!("go {key} needs a value"))?;
            v.parse::<i64>().map(|n| n.max(0) as u64).map_err(|_| format!("go {key}: {v:?} is not a number"))
        };
        let ms = |i: usize| number(i).map(|n| Duration::from_millis(n.saturating_mul(unit)));
        let (us, them) = (turn.index(), (!turn).index());
        let mut takes_value = true;
        match key {
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            // UCCI: the opponent offers a draw; this engine plays on.
            "draw" => takes_value = false,
            "depth" => go.limits.depth = Some(number(i)?.clamp(1, 120) as i32),
            "nodes" => go.limits.nodes = Some(number(i)?.max(1)),
            "mate" => go.limits.mate = Some(number(i)?.clamp(1, 60) as i32),
            "movetime" => go.limits.move_time = Some(ms(i)?),
            "movestogo" => moves_to_go = Some(number(i)?.clamp(1, 1000) as u32),
            "wtime" if !ucci => clocks[0].0 = Some(ms(i)?),
            "btime" if !ucci => clocks[1].0 = Some(ms(i)?),
            "winc" if !ucci => clocks[0].1 = ms(i)?,
            "binc" if !ucci => clocks[1].1 = ms(i)?,
            "time" if ucci => clocks[us].0 = Some(ms(i)?),
            "increment" if ucci => clocks[us].1 = ms(i)?,
            "opptime" if ucci => clocks[them].0 = Some(ms(i)?),
            "oppincrement" if ucci => clocks[them].1 = ms(i)?,
            "searchmoves" if !ucci => {
                go.search_moves = args[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            other => return Err(format!("go: unknown parameter {other:?}")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if let (Some(time), increment) = clocks[turn.index()] {
        go.limits.clock = Some(Clock { time, increment, moves_to_go });
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(args: &str, ucci: bool, turn: Color) -> Result<Go, String> {
        let args: Vec<&str> = args.split_whitespace().collect();
        parse_go(&args, ucci, true, turn)
    }

    #[test]
    fn uci_clock_of_the_side_to_move() {
        let g = go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5", false, Color::Black).unwrap();
        let c = g.limits.clock.unwrap();
        assert_eq!(
            (c.time, c.increment, c.moves_to_go),
            (Duration::from_secs(2), Duration::from_millis(20), Some(5))
        );
    }

    #[test]
    fn ucci_clock_is_the_movers() {
        let g = go("time 3000 increment 30 opptime 100 oppincrement 0", true, Color::Black).unwrap();
        assert_eq!(g.limits.clock.unwrap().time, Duration::from_secs(3));
    }

    fn session(input: &str) -> Vec<String> {
        let mut output = Vec::new();
        run(std::io::Cursor::new(input.to_string()), &mut output);
        String::from_utf8(output).unwrap().lines().map(String::from).collect()
    }

    #[test]
    fn the_level_option_takes_zero_to_eight_in_both_dialects() {
        let lines = session(
            "uci\nsetoption name Level value 9\nsetoption name Level Nodes value 500\n\
             setoption name Level value 3\nsetoption name Level Nodes value 0\n\
             setoption name Level Nodes value 2000\nisready\nposition startpos\ngo depth 1\nisready\nquit\n",
        );
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
        assert_eq!(errors.len(), 3, "{lines:#?}");
        assert!(errors[0].contains("\"9\" is not 0 (full strength) or a level from 1 to 8"), "{}", errors[0]);
        assert!(errors[1].contains("set Level first"), "{}", errors[1]);
        assert!(errors[2].contains("a level needs nodes"), "{}", errors[2]);
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:#?}");
        let lines = session("ucci\nsetoption level 8\nsetoption level 0\nsetoption level x\nquit\n");
        assert!(lines.contains(&"option level type spin min 0 max 8 default 0".to_string()), "{lines:#?}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("info string")).count(), 1, "{lines:#?}");
    }

    #[test]
    fn bad_go_parameters_are_errors() {
        assert!(go("depth", false, Color::Red).is_err());
        assert!(go("depth x", false, Color::Red).is_err());
        assert!(go("sideways 3", false, Color::Red).is_err());
        assert!(go("wtime 100", true, Color::Red).is_err());
    }

    /// Output shared with the test, which reads it while the session runs.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Input that hands out one line at a time and holds back `quit` until a
    /// `bestmove` is written, so that `quit` does not stop the search early.
    struct UntilAnswered {
        lines: std::collections::VecDeque<String>,
        out: Shared,
    }

    impl std::io::Read for UntilAnswered {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(line) = self.lines.pop_front() else { return Ok(0) };
            if line == "quit\n" {
                while !String::from_utf8_lossy(&self.out.0.lock().unwrap()).contains("bestmove") {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            assert!(line.len() <= buf.len());
            buf[..line.len()].copy_from_slice(line.as_bytes());
            Ok(line.len())
        }
    }

    /// A whole session whose one `go` runs to its end.
    fn finished_session(input: &str) -> Vec<String> {
        let out = Shared::default();
        let lines = input.lines().map(|l| format!("{l}\n")).collect();
        run(std::io::BufReader::new(UntilAnswered { lines, out: out.clone() }), out.clone());
        String::from_utf8(out.0.lock().unwrap().clone()).unwrap().lines().map(String::from).collect()
    }

    /// The fields of the `info` lines of `depth`: (multipv, score, first move).
    fn lines_at_depth(lines: &[String], depth: i32) -> Vec<(usize, String, String)> {
        let prefix = format!("info depth {depth} ");
        lines
            .iter()
            .filter(|l| l.starts_with(&prefix))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let after = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
                let score = format!("{} {}", after("score"), after(after("score")));
                (after("multipv").parse().unwrap(), score, after("pv").to_string())
            })
            .collect()
    }

    #[test]
    fn multi_pv_prints_distinct_lines_ordered_by_score() {
        let fen = "r1ba1ab1r/4k4/1cn1c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/4A4/RNB1KAB1R w - - 0 9";
        // As the engine's own MultiPV test searches it: classical, a 4 MB table.
        let position =
            format!("setoption name Hash value 4\nsetoption name Use NNUE value false\nposition fen {fen}");
        let one = finished_session(&format!("uci\n{position}\ngo depth 6\nquit\n"));
        let three =
            finished_session(&format!("uci\nsetoption name MultiPV value 3\n{position}\ngo depth 6\nquit\n"));
        assert!(three.contains(&"option name MultiPV type spin default 1 min 1 max 500".to_string()));
        let at_six = lines_at_depth(&three, 6);
        assert_eq!(at_six.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3], "{three:#?}");
        let moves: std::collections::HashSet<&String> = at_six.iter().map(|l| &l.2).collect();
        assert_eq!(moves.len(), 3, "{at_six:?}");
        let cp = |score: &str| score.strip_prefix("cp ").expect("no mate here").parse::<i32>().unwrap();
        assert!(at_six.windows(2).all(|w| cp(&w[0].1) >= cp(&w[1].1)), "{at_six:?}");
        let bestmove = three.last().unwrap().split_whitespace().nth(1);
        assert_eq!(bestmove, Some(at_six[0].2.as_str()), "{three:#?}");
        let best_alone = lines_at_depth(&one, 6);
        assert_eq!(best_alone.len(), 1);
        assert_eq!(best_alone[0].0, 1);
        assert_eq!(best_alone[0].2, at_six[0].2);
    }

    #[test]
    fn multi_pv_is_a_number_and_ucci_ignores_it() {
        let lines = session("uci\nsetoption name MultiPV value 0\nsetoption name MultiPV value x\nquit\n");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("info string option MultiPV")).count(),
            2,
            "{lines:#?}"
        );
        let lines = session("ucci\nsetoption multipv 3\nquit\n");
        assert!(!lines.iter().any(|l| l.starts_with("info string")), "{lines:#?}");
    }
}
