//! PGN in and out: reads every game of a PGN file (or standard input), replays
//! each under its rule set, and writes it back with its moves in the notation
//! asked for (`iccs`, `wxf` or `chinese`).
//!
//! ```sh
//! cargo run -p xiangqi --example pgn -- games.pgn chinese
//! ```

use std::io::Read;

use xiangqi::notation::pgn::{self, Format};

fn main() {
    let mut args = std::env::args().skip(1);
    let text = match args.next().filter(|a| a != "-") {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("pgn: {path}: {e}");
            std::process::exit(2)
        }),
        None => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).expect("standard input is UTF-8 text");
            text
        }
    };
    let format = match args.next().as_deref() {
        None | Some("iccs") => Format::Iccs,
        Some("wxf") => Format::Wxf,
        Some("chinese") => Format::Chinese,
        Some(other) => {
            eprintln!("pgn: unknown notation {other:?} (iccs, wxf or chinese)");
            std::process::exit(2)
        }
    };
    for (i, read) in pgn::read_all(&text).into_iter().enumerate() {
        let outcome = read.and_then(|record| Ok((record.to_game(None)?, record)));
        match outcome {
            Ok((game, record)) => {
                let end = game.outcome().map_or_else(|| "goes on".to_string(), |o| o.to_string());
                eprintln!("game {}: {} moves, {end}", i + 1, game.ply_count());
                print!("{}", pgn::write(&record, format));
                println!();
            }
            Err(e) => eprintln!("game {}: {e}", i + 1),
        }
    }
}
