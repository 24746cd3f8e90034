//! The NNUE evaluation through the public interface: the embedded nets' pinned
//! scores, searches with them on both boards, and the protocol's options.

use std::sync::Arc;

use xiangqi::{Hex, Position, RuleSet, Standard, Variant, rng::Rng};
use xiangqi_engine::{
    Control, Engine, Limits, Options, Root,
    nnue::{EMBEDDED, EMBEDDED_HEX, Kernel, Nets, Network, fnv1a},
};

/// Positions from the opening to the endgame, with the embedded net's score for
/// the side to move. A new net changes them: run this test with
/// `XIANGQI_PRINT_SCORES=1 -- --nocapture` and copy the printed table.
const PINNED: &[(&str, i32)] = &[
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 52),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", -46),
    ("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 3", 155),
    ("2bakab1r/r8/2n1c1nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/R8/2BAKAB1R w - - 0 8", 98),
    ("2bak4/4a4/4b1n2/p3p1C1p/2p3p2/9/P1P1P3P/2N1B4/4A4/2BAK4 w - - 0 20", 479),
    ("3akab2/9/4b4/p3p3p/2p3p2/9/P1P1P3P/4B4/4A4/2BAK4 w - - 0 30", -159),
    ("4kab2/4a4/4b4/9/9/9/9/4B4/4A4/2BAK3R w - - 0 40", 466),
    ("4kab2/4a4/4b4/9/9/9/9/4B4/4A4/2BAK3R b - - 0 40", -462),
    ("2baka3/9/4b4/p3C3p/4p1p2/2p6/P5n1P/4B4/4A4/2BAK4 b - - 0 25", 538),
    ("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 1325),
];

#[test]
fn the_embedded_net_loads_and_scores_the_pinned_positions() {
    let net = Network::embedded();
    assert_eq!(net.hash(), u64::from_le_bytes(EMBEDDED[EMBEDDED.len() - 8..].try_into().unwrap()));
    assert_eq!(net.hash(), fnv1a(&EMBEDDED[..EMBEDDED.len() - 8]));
    let portable = Network::from_bytes(EMBEDDED).unwrap().with_kernel(Kernel::Portable);
    let scores: Vec<i32> = PINNED
        .iter()
        .map(|(fen, _)| {
            let pos: Position<Standard> = fen.parse().unwrap();
            let v = net.evaluate_position(&pos);
            assert_eq!(v, portable.evaluate_position(&pos), "{fen}");
            v
        })
        .collect();
    if std::env::var_os("XIANGQI_PRINT_SCORES").is_some() {
        for ((fen, _), v) in PINNED.iter().zip(&scores) {
            println!("    (\"{fen}\", {v}),");
        }
    }
    for ((fen, pinned), v) in PINNED.iter().zip(&scores) {
        assert_eq!(v, pinned, "{fen}");
    }
    // Sense, not only sameness: a side a chariot up is ahead.
    let (_, up) = PINNED[9];
    assert!(up > 300, "Red without a Black chariot scores only {up}");
}

/// Hex positions along a seeded random game from the start, by ply, with the
/// embedded hex net's score for the side to move (printed as for [`PINNED`]).
const PINNED_HEX: &[(usize, i32)] = &[(0, 155), (6, -149), (14, -834), (24, -1574), (40, -2090), (60, -1590)];

fn hex_walk(plies: usize) -> Position<Hex> {
    let mut pos = Position::<Hex>::startpos();
    let mut rng = Rng(2024);
    for _ in 0..plies {
        // In coordinate order, so that the walk does not change with the
        // order in which move generation lists the moves.
        let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
        moves.sort_by_key(|&m| pos.move_name(m));
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

#[test]
fn the_embedded_hex_net_loads_and_scores_the_pinned_positions() {
    let net = Network::embedded_hex();
    assert_eq!(net.variant(), Variant::Hex);
    assert_eq!(net.hash(), fnv1a(&EMBEDDED_HEX[..EMBEDDED_HEX.len() - 8]));
    let portable = Network::from_bytes(EMBEDDED_HEX).unwrap().with_kernel(Kernel::Portable);
    let scores: Vec<i32> = PINNED_HEX
        .iter()
        .map(|&(plies, _)| {
            let pos = hex_walk(plies);
            let v = net.evaluate_position(&pos);
            assert_eq!(v, portable.evaluate_position(&pos), "ply {plies}");
            v
        })
        .collect();
    if std::env::var_os("XIANGQI_PRINT_SCORES").is_some() {
        let table: Vec<String> =
            PINNED_HEX.iter().zip(&scores).map(|((p, _), v)| format!("({p}, {v})")).collect();
        println!("const PINNED_HEX: &[(usize, i32)] = &[{}];", table.join(", "));
    }
    for ((plies, pinned), v) in PINNED_HEX.iter().zip(&scores) {
        assert_eq!(v, pinned, "ply {plies}");
    }
    // Sense: a chariot is worth far more than the first move. The chariot is taken
    // off Black's start in the FEN, each row's empty cells counted again.
    let start = Position::<Hex>::startpos();
    let even = net.evaluate_position(&start);
    let fen = start.to_fen();
    let (board, rest) = fen.split_once(' ').unwrap();
    let mut taken = false;
    let rows: Vec<String> = board
        .split('/')
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for ch in row.chars() {
                let ch = if ch == 'r' && !taken {
                    taken = true;
                    '1'
                } else {
                    ch
                };
                match ch.to_digit(10) {
                    Some(d) => empty += d,
                    None => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(ch);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    assert!(taken);
    let up: Position<Hex> = format!("{} {rest}", rows.join("/")).parse().unwrap();
    let ahead = net.evaluate_position(&up);
    assert!(ahead > even + 300, "Red scores {even} at the start and {ahead} without a Black chariot");
}

#[test]
fn searches_with_the_net_play_legal_moves_on_both_boards() {
    let net = Network::embedded();
    let standard_only = Nets { standard: Some(Arc::clone(&net)), hex: None };
    let mut engine = Engine::new(Options { hash_mb: 4, nnue: standard_only.clone(), ..Options::default() });
    let root = Root::from_position(Position::<Standard>::startpos(), RuleSet::Asian.rules());
    let with = engine.search(&root, &Limits::depth(7), &Control::new(), &mut |_| {});
    assert!(root.position().is_legal(with.best.unwrap()));
    // A board without a net keeps the classical evaluation.
    let hex = Root::from_position(Position::<Hex>::startpos(), RuleSet::Hex.rules());
    engine.clear();
    let a = engine.search(&hex, &Limits::depth(5), &Control::new(), &mut |_| {});
    let mut classical = Engine::new(Options { hash_mb: 4, ..Options::default() });
    let b = classical.search(&hex, &Limits::depth(5), &Control::new(), &mut |_| {});
    assert_eq!((a.nodes, a.best), (b.nodes, b.best));
    assert!(hex.position().is_legal(a.best.unwrap()));
    // With its own net the hex board searches another tree.
    let mut both = Engine::new(Options { hash_mb: 4, ..Options::default() }.with_embedded_net());
    let c = both.search(&hex, &Limits::depth(5), &Control::new(), &mut |_| {});
    assert_ne!(c.nodes, b.nodes, "the hex net was not asked");
    assert!(hex.position().is_legal(c.best.unwrap()));
    // Several threads, each with its own accumulators.
    let mut engine =
        Engine::new(Options { hash_mb: 4, threads: 2, nnue: standard_only, ..Options::default() });
    let r = engine.search(&root, &Limits::depth(6), &Control::new(), &mut |_| {});
    assert!(root.position().is_legal(r.best.unwrap()));
}

fn session(input: &str) -> Vec<String> {
    let mut output = Vec::new();
    xiangqi_engine::protocol::run(std::io::Cursor::new(input.to_string()), &mut output);
    String::from_utf8(output).unwrap().lines().map(String::from).collect()
}

#[test]
fn the_options_switch_and_load_nets_and_refuse_bad_files() {
    let dir = std::env::temp_dir().join(format!("xiangqi-nnue-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    std::fs::write(&good, EMBEDDED).unwrap();
    let torn = dir.join("torn.nnue");
    std::fs::write(&torn, &EMBEDDED[..EMBEDDED.len() - 100]).unwrap();
    let lines = session(&format!(
        "uci\nsetoption name Use NNUE value true\nsetoption name Use NNUE value maybe\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\nposition startpos\ngo depth 4\nisready\nquit\n",
        torn.display(),
        dir.join("missing.nnue").display(),
        good.display()
    ));
    assert!(lines.contains(&"option name Use NNUE type check default true".to_string()), "{lines:#?}");
    assert!(lines.contains(&"option name EvalFile type string default <embedded>".to_string()), "{lines:#?}");
    let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(info.len(), 4, "{lines:#?}");
    assert!(info[0].contains("\"maybe\" is not true or false"), "{}", info[0]);
    assert!(info[1].contains("torn.nnue") && info[1].contains("wrong size"), "{}", info[1]);
    assert!(info[2].contains("missing.nnue"), "{}", info[2]);
    assert!(info[3].contains(&format!("{:016x} loaded", Network::embedded().hash())), "{}", info[3]);
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:#?}");
    let lines = session(
        "ucci\nsetoption usennue true\nsetoption evalfile <embedded>\nposition startpos\ngo depth 3\nquit\n",
    );
    assert!(lines.iter().all(|l| !l.starts_with("info string")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:#?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same position for the other colour: the ranks reversed (each side's
/// pieces on the other's half, files kept), the colours swapped and the other
/// side to move. The rules are left-right symmetric, so it is the position as
/// the other side would have it; an evaluation that favours neither colour
/// scores it as it scores the first.
fn from_the_other_side(fen: &str) -> String {
    let mut fields = fen.split(' ');
    let rows: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        })
        .collect();
    let turn = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{} {turn} - - 0 1", rows.join("/"))
}

#[test]
fn the_net_favours_neither_colour_in_any_opening_position() {
    let net = Network::embedded();
    let mut fens: Vec<String> = PINNED.iter().map(|(fen, _)| fen.to_string()).collect();
    let openings = include_str!("../openings/openings.txt");
    for line in openings.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut pos = Position::<Standard>::startpos();
        fens.push(pos.to_fen());
        for text in line.split_whitespace() {
            let m = pos.parse_move(text).unwrap_or_else(|e| panic!("{line}: {text}: {e}"));
            pos.play(m).unwrap();
            fens.push(pos.to_fen());
        }
    }
    let mut unequal = Vec::new();
    for fen in &fens {
        let pos: Position<Standard> = fen.parse().unwrap();
        let twin: Position<Standard> = from_the_other_side(fen).parse().unwrap();
        let (a, b) = (net.evaluate_position(&pos), net.evaluate_position(&twin));
        if a != b {
            unequal.push(format!("{fen}: {a} against {b}"));
        }
    }
    assert!(unequal.is_empty(), "{} of {} positions:\n{}", unequal.len(), fens.len(), unequal.join("\n"));
}
