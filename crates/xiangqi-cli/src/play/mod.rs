//! `xiangqi play`: a whole game in the terminal, against the engine or between two
//! people at one keyboard. Full screen on a terminal; line by line with `--plain`
//! or when stdout is not a terminal.

mod board_view;
mod commands;
mod engine;
mod notation;
mod plain;
mod session;
mod tui;

use std::{
    io::IsTerminal,
    process::ExitCode,
    time::{SystemTime, UNIX_EPOCH},
};

use xiangqi::{ByColor, Position, RuleSet, Standard};
use xiangqi_engine::Level;

use self::{
    engine::Opponent,
    session::{Player, Session},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    Red,
    Black,
}

#[derive(clap::Args)]
pub struct Args {
    /// Two people at one keyboard instead of a game against the engine.
    #[arg(long)]
    two_players: bool,
    /// The side you play against the engine.
    #[arg(long, value_enum, default_value = "red")]
    color: Side,
    /// Engine strength, 1 (a beginner can win) to 8 (about a second a move); see
    /// the engine's README for what each level does and how strong it measured.
    #[arg(long, default_value = "4", value_parser = parse_level)]
    level: Level,
    /// Seed of the lower levels' random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// The rule set: itsyourturn, asian or casual.
    #[arg(long, default_value = "asian")]
    rules: RuleSet,
    /// Start from this FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Line-by-line mode (also chosen when stdout is not a terminal).
    #[arg(long)]
    plain: bool,
}

pub fn run(args: Args) -> ExitCode {
    let start = match &args.fen {
        Some(fen) => match Position::<Standard>::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("xiangqi play: bad FEN: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(),
    };
    let players = if args.two_players {
        ByColor { red: Player::Human, black: Player::Human }
    } else if args.color == Side::Red {
        ByColor { red: Player::Human, black: Player::Engine }
    } else {
        ByColor { red: Player::Engine, black: Player::Human }
    };
    let seed = args
        .seed
        .unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    let session = Session::new(start, args.rules, players, Opponent::new(args.level, seed));
    let result = if args.plain || !std::io::stdout().is_terminal() {
        plain::run(session, std::io::stdin().lock(), std::io::stdout().lock())
    } else {
        tui::run(session)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xiangqi play: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_level(text: &str) -> Result<Level, String> {
    text.parse().map_err(|e: xiangqi_engine::LevelError| e.to_string())
}
