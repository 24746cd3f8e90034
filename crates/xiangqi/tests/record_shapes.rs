//! Records of any shape cost a reader heap, never stack: a 100,000-ply line and
//! a 10,000-deep nesting of variations are built, cloned, compared, printed,
//! written, read back and dropped on a thread with a 256 KiB stack; the site's
//! limits refuse each while reading; and readers fed arbitrary text answer
//! with an error, never a crash.

use proptest::prelude::*;
use xiangqi::{
    Move, Position, Standard,
    notation::{
        limits::{Limit, Limits},
        pgn::{self, Format, PgnError, Record},
        tree::MoveTree,
    },
};

/// Limits no test record reaches.
const UNBOUNDED: Limits = Limits {
    request_bytes: usize::MAX,
    file_bytes: usize::MAX,
    games_per_file: usize::MAX,
    plies_per_line: usize::MAX,
    variation_depth: usize::MAX,
    nodes_per_tree: usize::MAX,
    nodes_per_file: usize::MAX,
};

/// Runs `f` on a thread with a small stack, as a server's worker might have.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).unwrap().join().unwrap();
}

/// Horses out and back, forever legal: the `i`-th move of the shuffle.
fn shuffle(pos: &Position<Standard>, i: usize) -> Move {
    let name = ["h0g2", "h9g7", "g2h0", "g7h9"][i % 4];
    pos.parse_move(name).unwrap()
}

/// A main line of `plies` moves.
fn long_line(plies: usize) -> MoveTree {
    let mut pos = Position::<Standard>::startpos();
    let moves: Vec<Move> = (0..plies)
        .map(|i| {
            let m = shuffle(&pos, i);
            pos.play_unchecked(m);
            m
        })
        .collect();
    MoveTree::line(&moves)
}

/// Each move of the shuffle played as a variation of another move, inside
/// the variation before it: `depth` variations deep.
fn deep_nesting(depth: usize) -> MoveTree {
    let mut tree = MoveTree::new();
    let mut pos = Position::<Standard>::startpos();
    let mut at = MoveTree::ROOT;
    for i in 0..depth {
        let nested = shuffle(&pos, i);
        let main = pos.legal_moves().into_iter().find(|&m| m != nested).unwrap();
        tree.add(at, main);
        at = tree.add(at, nested);
        tree.set_comment(at, format!("depth {}", i + 1));
        pos.play_unchecked(nested);
    }
    tree
}

fn record() -> Record {
    Record { tags: vec![("Event".into(), "shapes".into())], start: Position::startpos(), moves: vec![] }
}

/// Every operation on a tree, none of which may recurse.
fn exercise(tree: MoveTree) {
    let copy = tree.clone();
    assert_eq!(copy, tree);
    assert!(!format!("{copy:?}").is_empty());
    assert_eq!(tree.preorder().count(), tree.len());
    let text = pgn::write_tree(&record(), &tree, Format::Iccs);
    let (read, back) = pgn::read_tree_with(&text, &UNBOUNDED).unwrap();
    assert_eq!(read.moves, tree.main_line());
    assert_eq!(back, tree);
    drop(copy);
    drop(back);
}

#[test]
fn a_hundred_thousand_ply_line_needs_no_stack() {
    on_small_stack(|| exercise(long_line(100_000)));
}

#[test]
fn ten_thousand_nested_variations_need_no_stack() {
    on_small_stack(|| exercise(deep_nesting(10_000)));
}

#[test]
fn the_site_limits_refuse_each_shape_while_reading() {
    on_small_stack(|| {
        let limits = Limits::SITE;
        let line = pgn::write_tree(&record(), &long_line(limits.plies_per_line + 1), Format::Iccs);
        let over = |r: Result<Record, PgnError>| match r {
            Err(PgnError::OverLimit { limit, allowed, ply }) => (limit, allowed, ply),
            other => panic!("{other:?}"),
        };
        let refused = (Limit::PliesPerLine, 2_000, Some(2_001));
        assert_eq!(over(pgn::read(&line)), refused);
        // A tree meets its node limit first; with room for the nodes, the line's.
        assert_eq!(over(pgn::read_tree(&line).map(|(r, _)| r)), (Limit::NodesPerTree, 1_000, Some(1_000)));
        let roomy = Limits { nodes_per_tree: 10_000, ..limits };
        assert_eq!(over(pgn::read_tree_with(&line, &roomy).map(|(r, _)| r)), refused);
        let at_limit = pgn::write_tree(&record(), &long_line(limits.plies_per_line), Format::Iccs);
        assert_eq!(pgn::read(&at_limit).unwrap().moves.len(), 2_000);

        let nested = pgn::write_tree(&record(), &deep_nesting(limits.variation_depth + 1), Format::Iccs);
        let (limit, allowed, _) = over(pgn::read_tree(&nested).map(|(r, _)| r));
        assert_eq!((limit, allowed), (Limit::VariationDepth, 32));
        // The main line alone skips the variations.
        assert_eq!(pgn::read(&nested).unwrap().moves.len(), 1);

        let bushy = pgn::write_tree(&record(), &deep_nesting(600), Format::Iccs);
        let (limit, allowed, _) =
            over(pgn::read_tree_with(&bushy, &Limits { variation_depth: 1_000, ..limits }).map(|(r, _)| r));
        assert_eq!((limit, allowed), (Limit::NodesPerTree, 1_000));

        let error = pgn::read(&line).unwrap_err().to_string();
        assert_eq!(error, "over the limit of 2000 plies per line at ply 2001");
    });
}

#[test]
fn a_file_is_measured_before_any_move_is_read() {
    let games = "1. h2e2 h9g7 *\n\n".repeat(3);
    assert!(pgn::check_file(&games, &Limits::SITE).is_ok());
    let check = |limits: Limits| match pgn::check_file(&games, &limits) {
        Err(PgnError::OverLimit { limit, .. }) => Some(limit),
        _ => None,
    };
    assert_eq!(check(Limits { file_bytes: 10, ..Limits::SITE }), Some(Limit::FileBytes));
    assert_eq!(check(Limits { games_per_file: 2, ..Limits::SITE }), Some(Limit::GamesPerFile));
    assert_eq!(check(Limits { nodes_per_file: 5, ..Limits::SITE }), Some(Limit::NodesPerFile));
    assert_eq!(check(Limits { nodes_per_file: 6, ..Limits::SITE }), None);
    // Comments, tags, numbers and results are not moves.
    let annotated = "[Event \"a b c d e f\"]\n\n1. h2e2 {x y z} (1. c3c4 ; w v\n) 1... h9g7 $1 1-0\n";
    assert_eq!(check(Limits { nodes_per_file: 2, ..Limits::SITE }), Some(Limit::NodesPerFile));
    assert!(pgn::check_file(annotated, &Limits { nodes_per_file: 3, ..Limits::SITE }).is_ok());
    assert!(pgn::check_file(annotated, &Limits { nodes_per_file: 2, ..Limits::SITE }).is_err());
}

/// Text from the characters that shape a record: moves, numbers, brackets,
/// braces, comment marks and line ends, in any order and nesting.
fn shaped_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(",
        ")",
        "{",
        "}",
        ";",
        "\n",
        " ",
        "[",
        "]",
        "\"",
        "1.",
        "1...",
        "h2e2",
        "h9g7",
        "h0g2",
        "g2h0",
        "C2=5",
        "炮二平五",
        "*",
        "1-0",
        "$3",
        "[Event \"x\"]\n",
        "[FEN \"bad\"]\n",
    ]);
    prop::collection::vec(pieces, 0..400).prop_map(|p| p.concat())
}

/// A random tree: each step adds a legal move after a node picked by the input.
fn random_tree(picks: &[(u16, u16)]) -> MoveTree {
    let mut tree = MoveTree::new();
    let mut positions = vec![Position::<Standard>::startpos()];
    for &(node, choice) in picks {
        let at = usize::from(node) % tree.len();
        let moves = positions[at].legal_moves();
        if moves.is_empty() {
            continue;
        }
        let m = moves[usize::from(choice) % moves.len()];
        if tree.children(at).iter().any(|&c| tree.mv(c) == Some(m)) {
            continue;
        }
        let id = tree.add(at, m);
        if choice % 3 == 0 {
            tree.set_comment(id, format!("note {choice}"));
        }
        let mut pos = positions[at].clone();
        pos.play_unchecked(m);
        positions.push(pos);
        debug_assert_eq!(positions.len(), id + 1);
    }
    tree
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_reader_answers_arbitrary_text(text in shaped_text()) {
        let _ = pgn::read(&text);
        let _ = pgn::read_all(&text);
        let _ = pgn::read_all_tags(&text);
        let _ = pgn::check_file(&text, &Limits::SITE);
        if let Ok((record, tree)) = pgn::read_tree(&text) {
            prop_assert_eq!(record.moves, tree.main_line());
            prop_assert!(tree.len() <= Limits::SITE.nodes_per_tree);
        }
    }

    #[test]
    fn any_tree_is_written_and_read_back_whole(picks in prop::collection::vec(any::<(u16, u16)>(), 0..120)) {
        let tree = random_tree(&picks);
        for format in [Format::Iccs, Format::Wxf, Format::Chinese] {
            let text = pgn::write_tree(&record(), &tree, format);
            let (_, back) = pgn::read_tree(&text).unwrap();
            prop_assert_eq!(&back, &tree, "{}", text);
        }
    }
}

#[test]
fn a_file_cut_short_or_in_another_encoding_is_refused_naming_the_place() {
    // A record with comments and variations, cut at every character: each
    // prefix reads, or is refused with a reason; a cut inside a comment or a
    // variation names how far its line had gone.
    let text = "1. h2e2 {central cannon} h9g7 (1... b7e7 {same direction}) 2. h0g2 i9h9 *\n";
    for (at, _) in text.char_indices() {
        let cut = &text[..at];
        let read = pgn::read_tree(cut);
        let main = pgn::read(cut);
        if let Err(e) = &read {
            assert!(!e.to_string().is_empty());
        }
        if cut.ends_with("{central") {
            assert!(matches!(read, Err(PgnError::Unclosed { what: "comment", after: 1 })), "{read:?}");
        }
        if cut.ends_with("(1... b7e7") {
            assert!(matches!(main, Err(PgnError::Unclosed { what: "variation", after: 1 })), "{main:?}");
        }
    }
    // 炮二平五 in GBK, read as UTF-8 the way a careless upload would be.
    let gbk = String::from_utf8_lossy(b"1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 *");
    match pgn::read(&gbk) {
        Err(PgnError::Move { ply: 1, number: 1, red: true, .. }) => {}
        other => panic!("{other:?}"),
    }
}
