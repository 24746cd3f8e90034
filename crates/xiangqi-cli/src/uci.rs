//! `xiangqi uci`: the engine over standard input and output, speaking UCI or UCCI
//! (chosen by the first command).

use std::{io, process::ExitCode};

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> ExitCode {
    xiangqi_engine::protocol::run(io::stdin().lock(), io::stdout());
    ExitCode::SUCCESS
}
