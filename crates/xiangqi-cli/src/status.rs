//! `xiangqi status`: a position (a FEN and/or moves from it) with the side to move,
//! check, the legal moves and the outcome under a rule set, drawn or as JSON.
//!
//! The JSON form is one object:
//! `{"fen", "side": "red"|"black", "check", "legal": [sorted moves], "outcome": null | {"winner", "reason"}}`.

use std::process::ExitCode;

use serde_json::json;
use xiangqi::{Game, Geometry, Hex, Position, RuleSet, Standard, Variant};

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
    let outcome = match args.variant {
        Variant::Standard => show::<Standard>(&args),
        Variant::Hex => show::<Hex>(&args),
    };
    outcome.unwrap_or_else(|e| {
        eprintln!("xiangqi status: {e}");
        ExitCode::from(2)
    })
}

fn show<G: Geometry>(args: &Args) -> Result<ExitCode, String> {
    let start = match &args.fen {
        Some(fen) => Position::<G>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let default_rules = if G::VARIANT == Variant::Hex { RuleSet::Hex } else { RuleSet::Asian };
    let mut game = Game::new(start, args.rules.unwrap_or(default_rules));
    for (i, text) in args.moves.split_whitespace().enumerate() {
        game.play_str(text).map_err(|e| format!("ply {} ({text}): {e}", i + 1))?;
    }
    let pos = game.position();
    let mut legal: Vec<String> = game.legal_moves().iter().map(|m| pos.move_name(*m)).collect();
    legal.sort();
    let outcome = game.outcome();
    if args.json {
        let outcome =
            outcome.map(|o| json!({ "winner": o.winner.map(|c| c.name()), "reason": o.reason.name() }));
        let value = json!({
            "fen": pos.to_fen(),
            "side": pos.turn().name(),
            "check": pos.is_check(),
            "legal": legal,
            "outcome": outcome,
        });
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", render::board(pos, game.last_move(), Paint::detect()));
    println!("fen: {}", pos.to_fen());
    println!("rules: {}", game.rule_set());
    println!("side to move: {}", pos.turn());
    println!("check: {}", if pos.is_check() { "yes" } else { "no" });
    println!("legal moves ({}): {}", legal.len(), legal.join(" "));
    match outcome {
        Some(o) => println!("outcome: {o}"),
        None => println!("outcome: the game goes on"),
    }
    Ok(ExitCode::SUCCESS)
}
