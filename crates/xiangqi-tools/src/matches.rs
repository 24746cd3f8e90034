//! `xiangqi match`: plays two UCI/UCCI engines against each other, judged by the
//! rules crate. Openings are played in pairs with colours swapped; the running
//! score, the Elo difference with its 95% error bar and an optional SPRT are
//! reported, and the games are written as PGN.

pub(crate) mod openings;
pub(crate) mod player;
mod resume;
mod stats;

use std::{
    fs::File,
    io::Write,
    path::PathBuf,
    process::ExitCode,
    str::FromStr,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc::channel,
    },
    time::Duration,
};

use openings::Opening;
use player::{Budget, Clocks, Failure, Player, Spec};
use resume::Resumed;
use stats::{Sprt, Tally, Verdict};
use xiangqi::{
    AnyGame, Color, Outcome, Reason, RuleSet, Standard, Variant, notation::pgn::Format, with_geometry,
};

use crate::progress;

const DEFAULT_OPENINGS: &str = include_str!("../../xiangqi-engine/openings/openings.txt");

#[derive(clap::Args)]
pub struct Args {
    /// An engine, as comma-separated fields: `self` (this program's engine) or
    /// `cmd=PATH`, plus `name=`, `arg=` (repeatable), `proto=uci|ucci`,
    /// `ranks=1` (the engine counts ranks 1-10), `option.NAME=VALUE`. Give two.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Opening file (ICCS move lines or FENs); default: the engine crate's openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Number of games (default: every opening with both colours).
    #[arg(long)]
    games: Option<usize>,
    /// Time control: base seconds + increment seconds per move.
    #[arg(long, default_value = "10+0.1")]
    tc: TimeControl,
    /// Search this many nodes a move instead of playing on a clock (`go nodes N`):
    /// games that do not depend on how busy the machine is, for tests run
    /// beside other work. A move still forfeits after `--nodes-patience`.
    #[arg(long, conflicts_with = "tc")]
    nodes: Option<u64>,
    /// With `--nodes`: seconds an engine may take over one move before it forfeits.
    #[arg(long, default_value_t = 60, requires = "nodes")]
    nodes_patience: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop when a sequential test decides between elo0 and elo1 (for example `0,10`).
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Go on from the games already in the `--pgn` file (none if it is missing):
    /// the score and the SPRT start from them, the rounds go on after the last
    /// one written, and `--games` counts them. Run the same command again to
    /// continue a test that was stopped.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Rule set that judges the games (default: asian; hex on the hex board).
    #[arg(long)]
    rules: Option<RuleSet>,
    /// The board: standard or hex (engines are told with `UCI_Variant`).
    #[arg(long, default_value = "standard")]
    variant: Variant,
    /// Time an engine may exceed its clock by before it forfeits, in milliseconds.
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
}

/// `base+increment` in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeControl {
    base: Duration,
    increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("time control {s:?}: {t:?} is not a number of seconds"))
        };
        let tc = TimeControl { base: secs(base)?, increment: secs(inc)? };
        if tc.base.is_zero() && tc.increment.is_zero() {
            return Err("the time control gives no time".into());
        }
        Ok(tc)
    }
}

/// A finished game, reported by a worker.
struct Finished {
    index: usize,
    /// The first engine's points: 1, 0.5 or 0.
    first_points: f64,
    first_is_red: bool,
    result: String,
    termination: String,
    pgn: String,
}

struct Setup {
    specs: [Spec; 2],
    openings: Vec<Opening>,
    tc: TimeControl,
    /// A node budget a move instead of the clock, and how long a move may take.
    nodes: Option<(u64, Duration)>,
    rules: RuleSet,
    variant: Variant,
    margin: Duration,
    max_plies: usize,
    date: String,
}

pub fn run(args: Args) -> ExitCode {
    match run_match(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xiangqi match: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_match(args: Args) -> Result<ExitCode, String> {
    if args.engines.len() != 2 {
        return Err(format!("give exactly two --engine options (got {})", args.engines.len()));
    }
    let mut specs = [Spec::parse(&args.engines[0])?, Spec::parse(&args.engines[1])?];
    if args.variant == Variant::Hex {
        for spec in &mut specs {
            if !spec.options.iter().any(|(k, _)| k == "UCI_Variant") {
                spec.options.push(("UCI_Variant".into(), "hex".into()));
            }
        }
    }
    let text = match &args.openings {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    // The shipped opening file is for the standard board; other boards open
    // with each legal first move.
    let openings = match (text, args.variant) {
        (Some(text), variant) => with_geometry!(variant, G => openings::parse::<G>(&text))?,
        (None, Variant::Standard) => openings::parse::<Standard>(DEFAULT_OPENINGS)?,
        (None, variant) => with_geometry!(variant, G => openings::first_moves::<G>()),
    };
    let rules = args.rules.unwrap_or(args.variant.default_rules());
    let games = args.games.unwrap_or(2 * openings.len()).max(1);
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let (a, b) = (specs[0].name.clone(), specs[1].name.clone());
    let resumed = match &args.pgn {
        Some(path) if args.resume => {
            let text = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => return Err(format!("{}: {e}", path.display())),
            };
            resume::from_pgn(&text, &a, &b, sprt).map_err(|e| format!("{}: {e}", path.display()))?
        }
        _ => Resumed::default(),
    };
    let mut pgn_file = match &args.pgn {
        Some(p) => Some(
            File::options().create(true).append(true).open(p).map_err(|e| format!("{}: {e}", p.display()))?,
        ),
        None => None,
    };
    let setup = Arc::new(Setup {
        specs,
        openings,
        tc: args.tc,
        nodes: args.nodes.map(|n| (n.max(1), Duration::from_secs(args.nodes_patience.max(1)))),
        rules,
        variant: args.variant,
        margin: Duration::from_millis(args.margin),
        max_plies: args.max_plies.max(1),
        date: today(),
    });
    // Check that both engines start before spending any time.
    for spec in &setup.specs {
        Player::start(spec)?;
    }
    // A deterministic engine searching a fixed number of nodes plays each
    // opening's two games again move for move: the repeats add no evidence.
    let distinct_games = 2 * setup.openings.len();
    if setup.nodes.is_some() && games > distinct_games {
        eprintln!(
            "note: at a fixed node budget each opening gives two games that repeat in later passes; \
             {} openings give {distinct_games} distinct games of the {games} asked",
            setup.openings.len()
        );
    }
    let pace = match setup.nodes {
        Some((nodes, _)) => format!("{nodes} nodes a move"),
        None => format!("{}+{} s", args.tc.base.as_secs_f64(), args.tc.increment.as_secs_f64()),
    };
    println!("{a} vs {b}: {games} games at {pace}, {} openings", setup.openings.len());
    let mut tally = resumed.tally;
    let mut decided = resumed.decided;
    if tally.games() > 0 {
        let llr = sprt.map(|s| format!("   LLR {:.2}", tally.llr(s.elo0, s.elo1))).unwrap_or_default();
        println!(
            "resumed: {} games written, rounds up to {} (+{} ={} -{})   {}{llr}",
            tally.games(),
            resumed.rounds,
            tally.wins,
            tally.draws,
            tally.losses,
            elo_text(&tally)
        );
    }
    // Nothing is left to play once the written games decided the test or filled the rounds.
    let left = if decided.is_some() { 0 } else { games.saturating_sub(resumed.rounds) };

    let next = Arc::new(AtomicUsize::new(resumed.rounds));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<Result<Finished, String>>();
    let mut workers = Vec::new();
    for _ in 0..args.concurrency.clamp(1, 64).min(left) {
        let (setup, next, stop, tx) = (setup.clone(), next.clone(), stop.clone(), tx.clone());
        workers.push(std::thread::spawn(move || worker(&setup, games, &next, &stop, &tx)));
    }
    drop(tx);

    let bar = progress::bar(left as u64, "match");
    let mut error = None;
    for message in rx {
        let f = match message {
            Ok(f) => f,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                error = Some(e);
                continue;
            }
        };
        tally.add(f.first_points);
        if let Some(file) = pgn_file.as_mut() {
            file.write_all(f.pgn.as_bytes()).map_err(|e| format!("writing the PGN: {e}"))?;
        }
        let (red, black) = if f.first_is_red { (&a, &b) } else { (&b, &a) };
        // A long test is followed by its log-likelihood ratio, not only its Elo.
        let llr = sprt.map(|s| format!("   LLR {:.2}", tally.llr(s.elo0, s.elo1))).unwrap_or_default();
        let line = format!(
            "game {:>4}: {red} - {black} {} ({})   score {a} {:.1} - {:.1} {b}   {}{llr}",
            f.index + 1,
            f.result,
            f.termination,
            tally.points(),
            f64::from(tally.games()) - tally.points(),
            elo_text(&tally)
        );
        bar.suspend(|| println!("{line}"));
        bar.inc(1);
        bar.set_message(format!(
            "{a} {:.1}-{:.1} {b}",
            tally.points(),
            f64::from(tally.games()) - tally.points()
        ));
        if sprt.is_some_and(|s| s.follow(&mut decided, &tally)) {
            stop.store(true, Ordering::Relaxed);
        }
    }
    bar.finish_and_clear();
    for w in workers {
        let _ = w.join();
    }
    println!();
    println!("{a} vs {b}: +{} ={} -{} in {} games", tally.wins, tally.draws, tally.losses, tally.games());
    println!(
        "score: {:.1} / {} ({:.1}%)",
        tally.points(),
        tally.games(),
        100.0 * tally.points() / f64::from(tally.games().max(1))
    );
    println!("{}", elo_text(&tally));
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        let verdict = |v: Verdict| match v {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "undecided",
        };
        match decided {
            Some(d) => println!(
                "SPRT elo0={} elo1={}: LLR {:.2} ({lo:.2}, {hi:.2}) at game {} (+{} ={} -{}): {}; \
                 LLR {:.2} after the {} games under way then",
                s.elo0,
                s.elo1,
                d.at.llr(s.elo0, s.elo1),
                d.at.games(),
                d.at.wins,
                d.at.draws,
                d.at.losses,
                verdict(d.verdict),
                tally.llr(s.elo0, s.elo1),
                tally.games() - d.at.games(),
            ),
            None => println!(
                "SPRT elo0={} elo1={}: LLR {:.2} ({lo:.2}, {hi:.2}): {}",
                s.elo0,
                s.elo1,
                tally.llr(s.elo0, s.elo1),
                verdict(Verdict::Continue)
            ),
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(ExitCode::SUCCESS),
    }
}

fn elo_text(t: &Tally) -> String {
    match t.elo() {
        Some((elo, err)) if err.is_finite() => format!("Elo {elo:+.1} ± {err:.1}"),
        Some((elo, _)) => format!("Elo {elo:+.1} ± inf"),
        None => "Elo ?".into(),
    }
}

fn worker(
    setup: &Setup,
    games: usize,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &std::sync::mpsc::Sender<Result<Finished, String>>,
) {
    let mut players: [Option<Player>; 2] = [None, None];
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= games {
            break;
        }
        for (slot, spec) in players.iter_mut().zip(&setup.specs) {
            if slot.is_none() {
                match Player::start(spec) {
                    Ok(p) => *slot = Some(p),
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        }
        let finished = play_game(setup, index, &mut players);
        if tx.send(Ok(finished)).is_err() {
            return;
        }
    }
}

/// Plays game `index`: opening `index / 2`, the first engine Red in even games.
fn play_game(setup: &Setup, index: usize, players: &mut [Option<Player>; 2]) -> Finished {
    let opening = &setup.openings[(index / 2) % setup.openings.len()];
    let first_is_red = index % 2 == 0;
    let mut game = opening.game(setup.variant, setup.rules);
    let mut moves: Vec<String> = opening.moves.clone();
    let mut clocks =
        Clocks { red: setup.tc.base, black: setup.tc.base, increment: setup.tc.increment, red_to_move: true };
    let seat = |c: Color| usize::from((c == Color::Red) != first_is_red);
    let mut termination = None;
    for p in players.iter_mut().flatten() {
        if p.new_game().is_err() {
            termination = Some(format!("{} did not answer", p.spec.name));
        }
    }
    while termination.is_none() && game.outcome().is_none() {
        if game.ply_count() >= setup.max_plies {
            game.finish(Outcome::draw(Reason::MoveLimit));
            break;
        }
        let turn = game.turn();
        clocks.red_to_move = turn == Color::Red;
        let who = seat(turn);
        let Some(player) = players[who].as_mut() else { break };
        let name = player.spec.name.clone();
        let own = clocks.own();
        let (budget, grace) = match setup.nodes {
            Some((nodes, patience)) => (Budget::Nodes(nodes), patience),
            None => (Budget::Clock(clocks), setup.margin + Duration::from_millis(500)),
        };
        let answer = player.go(&opening.fen, &moves, budget, grace);
        let (text, used) = match answer {
            Ok(a) => a,
            Err(failure) => {
                // A silent or dead engine is restarted for the next game.
                players[who] = None;
                let (why, text) = match failure {
                    Failure::Timeout => (Reason::TimeForfeit, "no move in time".to_string()),
                    Failure::Died(e) => (Reason::Resignation, format!("engine died ({e})")),
                };
                termination = Some(format!("{name}: {text}"));
                game.finish(Outcome::win(!turn, why));
                break;
            }
        };
        if setup.nodes.is_none()
            && let Some(text) = time_forfeit(&name, used, own, setup.margin)
        {
            termination = Some(text);
            game.finish(Outcome::win(!turn, Reason::TimeForfeit));
            break;
        }
        let left = own - used.min(own) + setup.tc.increment;
        if turn == Color::Red {
            clocks.red = left;
        } else {
            clocks.black = left;
        }
        match game.play_str(&text) {
            Ok(m) => moves.push(game.move_name(m)),
            Err(e) => {
                termination = Some(format!("{name} played {text:?}: {e}"));
                game.finish(Outcome::win(!turn, Reason::Resignation));
            }
        }
    }
    let outcome = game.outcome().unwrap_or(Outcome::draw(Reason::Agreement));
    let termination = termination.unwrap_or_else(|| outcome.to_string());
    let first_points = match outcome.winner {
        None => 0.5,
        Some(c) if (c == Color::Red) == first_is_red => 1.0,
        Some(_) => 0.0,
    };
    let (red, black) = if first_is_red { (0, 1) } else { (1, 0) };
    let pgn = pgn(
        &game,
        &[
            ("Event", "xiangqi match".to_string()),
            ("Date", setup.date.clone()),
            ("Round", (index + 1).to_string()),
            ("Red", setup.specs[red].name.clone()),
            ("Black", setup.specs[black].name.clone()),
            ("Result", outcome.result().to_string()),
            ("Termination", termination.clone()),
        ],
    );
    Finished { index, first_points, first_is_red, result: outcome.result().to_string(), termination, pgn }
}

/// The termination of a move that took longer than the mover's clock and the
/// margin, with both times, so that a forfeit by a hair (scheduling) can be told
/// from a runaway search.
fn time_forfeit(name: &str, used: Duration, left: Duration, margin: Duration) -> Option<String> {
    (used > left + margin)
        .then(|| format!("{name} lost on time ({} ms used, {} ms left)", used.as_millis(), left.as_millis()))
}

/// A game as PGN with the moves in the old ICCS style (`H2-E2`) that Xiangqi
/// programs such as XQStudio and the xqbase archives exchange, ending in a
/// blank line so that games appended to one file stay apart.
fn pgn(game: &AnyGame, tags: &[(&str, String)]) -> String {
    let mut text = game.pgn(tags, Format::OldIccs);
    text.push('\n');
    text
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
fn today() -> String {
    let (year, month, day) = xiangqi_site::domain::civil_date(xiangqi_site::domain::now_ms());
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base, tc.increment), (Duration::from_secs(10), Duration::from_millis(100)));
        assert_eq!("60".parse::<TimeControl>().unwrap().increment, Duration::ZERO);
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("0+0".parse::<TimeControl>().is_err());
        assert!("-1+0".parse::<TimeControl>().is_err());
    }

    fn game_of(variant: Variant, moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::startpos(variant, variant.default_rules());
        for m in moves {
            game.play_str(m).unwrap();
        }
        game
    }

    #[test]
    fn a_short_game_is_written_with_iccs_moves() {
        let game = game_of(Variant::Standard, &["h2e2", "h9g7", "h0g2"]);
        let text = pgn(
            &game,
            &[
                ("Event", "match".into()),
                ("Round", "3".into()),
                ("Result", "1/2-1/2".into()),
                ("Termination", "repetition".into()),
            ],
        );
        assert!(text.contains("[Format \"ICCS\"]"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("1. H2-E2 H9-G7 2. H0-G2 1/2-1/2"), "{text}");
        assert!(text.ends_with("1/2-1/2\n\n"), "{text}");
    }

    #[test]
    fn hex_games_carry_their_variant_and_two_digit_cells() {
        let game = game_of(Variant::Hex, &["e4e5", "e8e7", "e1e2", "e11e10"]);
        let text = pgn(&game, &[("Event", "match".into()), ("Termination", "unfinished".into())]);
        assert!(text.contains("[Variant \"hex\"]") && !text.contains("[FEN"), "{text}");
        assert!(text.contains("1. E4-E5 E8-E7 2. E1-E2 E11-E10 *"), "{text}");
    }

    #[test]
    fn a_forfeit_says_how_long_the_move_took_against_the_clock() {
        let ms = Duration::from_millis;
        assert_eq!(time_forfeit("a", ms(100), ms(100), ms(0)), None);
        assert_eq!(time_forfeit("a", ms(130), ms(100), ms(50)), None);
        assert_eq!(
            time_forfeit("a", ms(151), ms(100), ms(50)).as_deref(),
            Some("a lost on time (151 ms used, 100 ms left)")
        );
    }

    #[test]
    fn dates_look_like_pgn_dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
    }
}
