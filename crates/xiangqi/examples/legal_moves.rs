//! The legal moves of a position in the three notations, and its perft counts.
//!
//! ```sh
//! cargo run -p xiangqi --example legal_moves -- "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
//! ```

use xiangqi::{
    Position, Standard,
    notation::{chinese, wxf},
};

fn main() {
    let pos: Position<Standard> = match std::env::args().nth(1) {
        Some(fen) => fen.parse().unwrap_or_else(|e| {
            eprintln!("legal_moves: {e}");
            std::process::exit(2)
        }),
        None => Position::startpos(),
    };
    println!("{}", pos.to_fen());
    let moves = pos.legal_moves();
    println!("{} legal moves{}", moves.len(), if pos.is_check() { " (in check)" } else { "" });
    for m in &moves {
        println!("  {:<6} {:<6} {}", pos.move_name(*m), wxf::write(&pos, *m), chinese::write(&pos, *m));
    }
    for depth in 1..=3 {
        println!("perft {depth}: {}", pos.perft(depth));
    }
}
