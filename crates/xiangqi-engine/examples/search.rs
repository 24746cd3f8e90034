//! A search of one position, printing each depth's lines as it goes and the
//! answer at the end: `search [FEN] [DEPTH] [LINES]`.
//!
//! ```sh
//! cargo run --release -p xiangqi-engine --example search -- \
//!     "r1ba1ab1r/4k4/1cn1c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/4A4/RNB1KAB1R w" 10 3
//! ```

use xiangqi::{Position, RuleSet, Standard, notation::wxf};
use xiangqi_engine::{Control, Engine, Limits, Options, Root};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pos: Position<Standard> = match args.first() {
        Some(fen) => fen.parse().unwrap_or_else(|e| {
            eprintln!("search: {e}");
            std::process::exit(2)
        }),
        None => Position::startpos(),
    };
    let number = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let limits = Limits::depth(number(1, 10) as i32).with_multi_pv(number(2, 1));
    let mut engine = Engine::new(Options::default().with_embedded_net());
    let root = Root::from_position(pos.clone(), RuleSet::Asian.rules());
    // Moves in WXF, as players write them, replayed from the root.
    let names = |moves: &[xiangqi::Move]| {
        let mut p = pos.clone();
        let mut out = Vec::new();
        for &m in moves {
            out.push(wxf::write(&p, m));
            p.play_unchecked(m);
        }
        out.join(" ")
    };
    let analysis = engine.search(&root, &limits, &Control::new(), &mut |info| {
        println!(
            "depth {:>2} line {} {:>8}  {}",
            info.depth,
            info.multipv,
            info.score.to_string(),
            names(&info.pv)
        );
    });
    for (i, line) in analysis.lines.iter().enumerate() {
        println!("{}. {} ({}, depth {})", i + 1, names(&line.moves), line.score, line.depth);
    }
    println!("{} nodes in {} ms", analysis.nodes, analysis.time.as_millis());
}
