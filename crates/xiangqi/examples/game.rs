//! A game under a rule set: plays the moves given (in ICCS, WXF or Chinese
//! notation) and says how the game stands after each.
//!
//! ```sh
//! cargo run -p xiangqi --example game -- asian h2e2 h9g7 h0g2 i9h9
//! ```

use xiangqi::{Game, RuleSet, Standard, notation};

fn main() {
    let mut args = std::env::args().skip(1);
    let rule_set: RuleSet = args.next().as_deref().unwrap_or("asian").parse().unwrap_or_else(|e| {
        eprintln!("game: {e}");
        std::process::exit(2)
    });
    let mut game = Game::<Standard>::startpos(rule_set);
    println!("rule set {rule_set}: {:?}", game.rules());
    for text in args {
        let m = match notation::parse_any(game.position(), &text) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("game: {text}: {e}");
                std::process::exit(1)
            }
        };
        let name = notation::wxf::write(game.position(), m);
        if let Err(e) = game.play(m) {
            eprintln!("game: {text}: {e}");
            std::process::exit(1)
        }
        let check = if game.is_check() { ", check" } else { "" };
        println!("{:>3}. {name:<6} {} to move{check}", game.ply_count(), game.turn());
        if let Some(outcome) = game.outcome() {
            println!("{outcome} ({})", outcome.result());
            return;
        }
    }
    println!("{} legal moves; the game goes on", game.legal_moves().len());
}
