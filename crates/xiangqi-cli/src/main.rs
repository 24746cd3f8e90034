//! `xiangqi`: the command line of the project. Each subcommand lives in its own module.

mod admin;
mod backup;
mod bench;
mod convert;
mod fill;
mod perft;
mod play;
mod puzzles;
mod render;
mod serve;
mod status;
mod uci;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xiangqi_tools::{gen_data, label, matches, random_openings};

#[derive(Parser)]
#[command(name = "xiangqi", version, about = "Xiangqi (Chinese chess): rules, engine and play server")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the play server (the default when no command is given).
    Serve(serve::Args),
    /// Count the leaves of the legal move tree (move-generator check and benchmark).
    Perft(perft::Args),
    /// Show a position: board, side to move, check, legal moves and outcome.
    Status(status::Args),
    /// Play a game in the terminal, against the engine or two people at one keyboard.
    Play(play::Args),
    /// Speak UCI or UCCI on standard input and output (for GUIs and match runners).
    Uci(uci::Args),
    /// Search fixed positions to a fixed depth: node count signature and speed.
    Bench(bench::Args),
    /// Play two UCI/UCCI engines against each other: score, Elo, SPRT, PGN.
    Match(matches::Args),
    /// Random opening lines the engine scores as balanced, as an opening file for `match`.
    Openings(random_openings::Args),
    /// Score positions by another engine's search, for fitting the evaluation to it.
    Label(label::Args),
    /// Self-play games written as NNUE training positions (score and result).
    GenData(gen_data::Args),
    /// Give or take a user's administrator role on the play server (writes news).
    Admin(admin::Args),
    /// Copy the play server's SQLite database to a file, consistently, while it runs.
    Backup(backup::Args),
    /// Fill an empty PostgreSQL database with millions of accounts and games, to measure the server.
    Fill(fill::Args),
    /// Find puzzles for the play site in its finished games or the engine's own games.
    Puzzles(puzzles::Args),
    /// Convert game records between PGN (ICCS, WXF, Chinese), XQF and DhtmlXQ; reads CCBridge too.
    Convert(convert::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Status(args)) => status::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Uci(args)) => uci::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Match(args)) => matches::run(args),
        Some(Command::Openings(args)) => random_openings::run(args),
        Some(Command::Label(args)) => label::run(args),
        Some(Command::GenData(args)) => gen_data::run(args),
        Some(Command::Admin(args)) => admin::run(args),
        Some(Command::Backup(args)) => backup::run(args),
        Some(Command::Fill(args)) => fill::run(args),
        Some(Command::Puzzles(args)) => puzzles::run(args),
        Some(Command::Convert(args)) => convert::run(args),
        None => serve::run(serve::Args::from_env()),
    }
}
