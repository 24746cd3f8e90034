//! Xiang Hex (seed `003`, board and setup from docs/RULES.md section 1) on the same engine.

use xiangqi::{
    Color, Game, Hex, IllegalReason, Piece, Position, Reason, RuleSet, Setup, Tables, Variant, notation::iccs,
};

fn tables() -> &'static Tables {
    Position::<Hex>::tables()
}

fn cell(name: &str) -> xiangqi::Cell {
    tables().parse_cell(name).unwrap_or_else(|| panic!("no hex cell {name}"))
}

fn position(pieces: &[(&str, char)], turn: Color) -> Position<Hex> {
    let mut s = Setup::<Hex>::empty();
    for (c, p) in pieces {
        s.board[cell(c).index()] = Some(Piece::from_char(*p).unwrap());
    }
    s.turn = turn;
    Position::from_setup(&s).unwrap_or_else(|e| panic!("{pieces:?}: {e}"))
}

fn targets(pos: &Position<Hex>, from: &str) -> Vec<String> {
    let from = cell(from);
    let mut v: Vec<String> =
        pos.legal_moves().iter().filter(|m| m.from == from).map(|m| pos.cell_name(m.to)).collect();
    v.sort();
    v
}

// Generals on the d and f files never share a file with each other.
fn with_generals(extra: &[(&'static str, char)]) -> Vec<(&'static str, char)> {
    let mut v = vec![("d1", 'K'), ("f10", 'k')];
    v.extend_from_slice(extra);
    v
}

#[test]
fn hex_perft_from_the_start_matches_the_published_counts() {
    let pos = Position::<Hex>::startpos();
    assert_eq!([1, 2, 3].map(|d| pos.perft(d)), [30, 874, 28_968]);
}

#[test]
fn hex_board_has_nine_files_of_seven_to_eleven_cells() {
    let t = tables();
    assert_eq!(t.cells(), 79);
    let lens: Vec<usize> = (0..9).map(|f| t.file_cells(f).count()).collect();
    assert_eq!(lens, [7, 8, 9, 10, 11, 10, 9, 8, 7]);
    assert_eq!(Variant::Hex.tables().name(), "hex");
}

#[test]
fn hex_river_is_the_middle_row_and_belongs_to_neither_half() {
    let t = tables();
    for name in ["a4", "c5", "e6", "g5", "i4"] {
        let c = cell(name);
        assert!(!t.home(Color::Red).contains(c) && !t.home(Color::Black).contains(c), "{name}");
    }
    assert_eq!(t.home(Color::Red).count(), t.home(Color::Black).count());
    assert_eq!(t.home(Color::Red).count() + t.home(Color::Black).count() + 5, 79);
}

#[test]
fn hex_palace_is_seven_cells_at_each_end() {
    let t = tables();
    let red: Vec<String> = t.palace(Color::Red).map(|c| t.cell_name(c)).collect();
    let mut red = red;
    red.sort();
    assert_eq!(red, ["d1", "d2", "e1", "e2", "e3", "f1", "f2"]);
    let mut black: Vec<String> = t.palace(Color::Black).map(|c| t.cell_name(c)).collect();
    black.sort();
    assert_eq!(black, ["d10", "d9", "e10", "e11", "e9", "f10", "f9"]);
}

#[test]
fn hex_start_position_is_the_published_setup() {
    let pos = Position::<Hex>::startpos();
    assert_eq!(pos.to_fen(), "rnbak/pc3a/2p3b/4p2n/6pcr/P7p/RCP6/-N2P4/--B3P2/---A3CP/----KABNR w - - 0 1");
    let at = |n: &str| pos.piece_at(cell(n)).map(Piece::char);
    for (n, p) in [("e1", 'K'), ("d1", 'A'), ("c1", 'B'), ("b1", 'N'), ("a1", 'R'), ("b2", 'C'), ("e4", 'P')]
    {
        assert_eq!(at(n), Some(p), "{n}");
    }
    for (n, p) in
        [("e11", 'k'), ("d10", 'a'), ("c9", 'b'), ("b8", 'n'), ("a7", 'r'), ("b7", 'c'), ("e8", 'p')]
    {
        assert_eq!(at(n), Some(p), "{n}");
    }
}

#[test]
fn hex_opening_move_census() {
    let pos = Position::<Hex>::startpos();
    let mut by_role = std::collections::BTreeMap::new();
    for m in pos.legal_moves() {
        *by_role.entry(pos.piece_at(m.from).unwrap().role.name()).or_insert(0) += 1;
    }
    let expected =
        [("advisor", 2), ("cannon", 16), ("elephant", 2), ("general", 1), ("horse", 4), ("soldier", 5)];
    assert_eq!(by_role.into_iter().collect::<Vec<_>>(), expected);
    // The cannons capture a horse over the enemy cannon.
    assert!(pos.parse_move("b2xb8").is_ok() && pos.parse_move("h2h8").is_ok());
}

#[test]
fn hex_general_steps_orthogonally_inside_the_palace() {
    let pos = position(&[("e2", 'K'), ("e11", 'k'), ("e8", 'p')], Color::Red);
    assert_eq!(targets(&pos, "e2"), ["d1", "d2", "e1", "e3", "f1", "f2"]);
}

#[test]
fn hex_generals_may_not_stand_on_an_open_file() {
    let pos = position(&[("d1", 'K'), ("e11", 'k')], Color::Red);
    assert!(!targets(&pos, "d1").contains(&"e1".to_string()));
    let m = iccs::parse(tables(), "d1e1").unwrap();
    assert_eq!(pos.why_illegal(m), Some(IllegalReason::GeneralsFace));
}

#[test]
fn hex_advisor_steps_diagonally_and_keeps_to_its_triangle() {
    let pos = position(&with_generals(&[("f1", 'A')]), Color::Red);
    assert_eq!(targets(&pos, "f1"), ["e3"]);
    let pos = position(&with_generals(&[("e3", 'A')]), Color::Red);
    assert_eq!(targets(&pos, "e3"), ["f1"], "d1 holds the red general");
    assert!(!tables().reachable(Piece::new(Color::Red, xiangqi::Role::Advisor)).contains(cell("e2")));
}

#[test]
fn hex_elephant_moves_two_diagonal_steps_and_stays_home() {
    let reach = tables().reachable(Piece::new(Color::Red, xiangqi::Role::Elephant));
    let mut names: Vec<String> = reach.map(|c| tables().cell_name(c)).collect();
    names.sort();
    assert_eq!(names, ["a3", "c1", "e5", "g1", "i3"]);
    let pos = position(&with_generals(&[("e5", 'B')]), Color::Red);
    assert_eq!(targets(&pos, "e5"), ["a3", "c1", "g1", "i3"]);
}

#[test]
fn hex_elephant_is_blocked_by_a_piece_on_its_eye() {
    let free = position(&with_generals(&[("c1", 'B')]), Color::Red);
    // Sideways over e2 to g1 as well: the sideways diagonal stays at the same height.
    assert_eq!(targets(&free, "c1"), ["a3", "e5", "g1"]);
    // d3 is the eye towards e5, e2 the eye towards g1.
    let blocked = position(&with_generals(&[("c1", 'B'), ("d3", 'n'), ("e2", 'N')]), Color::Red);
    assert_eq!(targets(&blocked, "c1"), ["a3"]);
}

#[test]
fn hex_horse_has_twelve_targets_and_a_blocked_leg_removes_two() {
    let pos = position(&with_generals(&[("e6", 'N')]), Color::Red);
    let t = targets(&pos, "e6");
    assert_eq!(t.len(), 12);
    assert!(t.contains(&"f8".to_string()) && t.contains(&"d8".to_string()), "north leg targets");
    let pos = position(&with_generals(&[("e6", 'N'), ("e7", 'p')]), Color::Red);
    let t = targets(&pos, "e6");
    assert_eq!(t.len(), 10);
    assert!(!t.contains(&"f8".to_string()) && !t.contains(&"d8".to_string()));
}

#[test]
fn hex_chariots_start_with_no_move_and_slide_along_six_lines() {
    let pos = Position::<Hex>::startpos();
    assert!(targets(&pos, "a1").is_empty() && targets(&pos, "i1").is_empty());
    let pos = position(&with_generals(&[("e6", 'R')]), Color::Red);
    // Six lines from the centre: up and down the file, and four slanted lines.
    assert_eq!(targets(&pos, "e6").len(), 5 + 5 + 4 + 4 + 4 + 4);
}

#[test]
fn hex_cannon_captures_over_exactly_one_screen() {
    let pos = position(&with_generals(&[("e3", 'C'), ("e5", 'P'), ("e8", 'p'), ("e9", 'n')]), Color::Red);
    let t = targets(&pos, "e3");
    assert!(
        t.contains(&"e8".to_string()) && !t.contains(&"e9".to_string()) && !t.contains(&"e6".to_string())
    );
}

#[test]
fn hex_soldier_steps_forward_then_gains_four_steps_on_the_river() {
    let pos = position(&with_generals(&[("e5", 'P')]), Color::Red);
    assert_eq!(targets(&pos, "e5"), ["e6"]);
    let pos = position(&with_generals(&[("e6", 'P')]), Color::Red);
    assert_eq!(targets(&pos, "e6"), ["c5", "d6", "e7", "f6", "g5"]);
}

#[test]
fn hex_recreating_an_earlier_position_loses() {
    let pos = position(&with_generals(&[("a1", 'R'), ("i7", 'r')]), Color::Red);
    let mut g = Game::new(pos, RuleSet::Hex);
    for m in ["a1a2", "i7i6", "a2a1"] {
        g.play_str(m).unwrap();
        assert!(g.outcome().is_none());
    }
    g.play_str("i6i7").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::Red), Reason::Repetition));
}

#[test]
fn hex_is_drawn_when_no_piece_can_cross_the_river() {
    let pos = position(&with_generals(&[("c1", 'B'), ("f1", 'A'), ("c9", 'b')]), Color::Red);
    let o = Game::new(pos, RuleSet::Hex).outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::NoAttackers));
}

#[test]
fn hex_move_names_use_per_file_cells_with_an_optional_capture_mark() {
    let t = tables();
    let m = iccs::parse(t, "b2xb8").unwrap();
    assert_eq!(iccs::write(t, m), "b2b8");
    assert_eq!(iccs::parse(t, "E11E10"), iccs::parse(t, "e11e10"));
    assert!(iccs::parse(t, "a8a9").is_none(), "file a has seven cells");
}
