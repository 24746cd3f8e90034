//! `xiangqi status`: a position (a FEN and/or moves from it) with the side to move,
//! check, the legal moves and the outcome under a rule set, drawn or as JSON.
//!
//! The JSON form is one object:
//! `{"fen", "side": "red"|"black", "check", "legal": [sorted moves], "outcome": null | {"winner", "reason"}}`.

use std::process::ExitCode;

use serde_json::json;
use xiangqi::{AnyGame, RuleSet, Variant, with_game};

use crate::render::{self, Paint};

#[derive(clap::Args)]
pub struct Args {
    /// The start position (default: the standard setup of the board).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it, space separated (`h2e2 h9g7`).
    #[arg(long, default_value = "")]
    moves: String,
    /// The rule set: itsyourturn, asian, casual or hex.
    #[arg(long)]
    rules: Option<RuleSet>,
    /// Print one JSON object instead of the board.
    #[arg(long)]
    json: bool,
    /// The board: standard or hex.
    #[arg(long, default_value = "standard")]
    variant: Variant,
}

pub fn run(args: Args) -> ExitCode {
    show(&args).unwrap_or_else(|e| {
        eprintln!("xiangqi status: {e}");
        ExitCode::from(2)
    })
}

fn show(args: &Args) -> Result<ExitCode, String> {
    let rules = args.rules.unwrap_or(args.variant.default_rules());
    let mut game = match &args.fen {
        Some(fen) => AnyGame::new(args.variant, fen, rules).map_err(|e| format!("bad FEN: {e}"))?,
        None => AnyGame::startpos(args.variant, rules),
    };
    for (i, text) in args.moves.split_whitespace().enumerate() {
        game.play_str(text).map_err(|e| format!("ply {} ({text}): {e}", i + 1))?;
    }
    let legal = game.legal_names();
    let outcome = game.outcome();
    if args.json {
        let outcome =
            outcome.map(|o| json!({ "winner": o.winner.map(|c| c.name()), "reason": o.reason.name() }));
        let value = json!({
            "fen": game.fen(),
            "side": game.turn().name(),
            "check": game.is_check(),
            "legal": legal,
            "outcome": outcome,
        });
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", with_game!(&game, g => render::board(g.position(), g.last_move(), Paint::detect())));
    println!("fen: {}", game.fen());
    println!("rules: {}", game.rule_set());
    println!("side to move: {}", game.turn());
    println!("check: {}", if game.is_check() { "yes" } else { "no" });
    println!("legal moves ({}): {}", legal.len(), legal.join(" "));
    match outcome {
        Some(o) => println!("outcome: {o}"),
        None => println!("outcome: the game goes on"),
    }
    Ok(ExitCode::SUCCESS)
}
