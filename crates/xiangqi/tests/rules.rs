//! One test per rule sentence of the seeds, named after the rule it checks.

use xiangqi::{
    Color, Game, IllegalReason, Piece, Position, PositionError, Reason, RuleSet, Setup, Standard, Tables,
    rules::chase,
};

fn tables() -> &'static Tables {
    Position::<Standard>::tables()
}

/// A setup from `(cell, FEN letter)` pairs.
fn setup(pieces: &[(&str, char)], turn: Color) -> Setup<Standard> {
    let mut s = Setup::empty();
    for (cell, letter) in pieces {
        let c = tables().parse_cell(cell).unwrap_or_else(|| panic!("bad cell {cell}"));
        s.board[c.index()] = Some(Piece::from_char(*letter).expect("piece letter"));
    }
    s.turn = turn;
    s
}

fn position(pieces: &[(&str, char)], turn: Color) -> Position<Standard> {
    Position::from_setup(&setup(pieces, turn)).unwrap_or_else(|e| panic!("{pieces:?}: {e}"))
}

/// The legal targets of the piece on `cell`, sorted.
fn targets(pos: &Position<Standard>, cell: &str) -> Vec<String> {
    let from = tables().parse_cell(cell).unwrap();
    let mut out: Vec<String> =
        pos.legal_moves().iter().filter(|m| m.from == from).map(|m| pos.cell_name(m.to)).collect();
    out.sort();
    out
}

fn reason(pos: &Position<Standard>, mv: &str) -> Option<IllegalReason> {
    let m = xiangqi::notation::iccs::parse(tables(), mv).unwrap();
    pos.why_illegal(m)
}

// Kings on d/f files so they never face each other unless a test wants it.
const KINGS: [(&str, char); 2] = [("d0", 'K'), ("f9", 'k')];

fn with_kings(extra: &[(&str, char)]) -> Vec<(&'static str, char)> {
    let mut v: Vec<(&str, char)> = KINGS.to_vec();
    for &(c, p) in extra {
        v.push((Box::leak(c.to_string().into_boxed_str()), p));
    }
    v
}

#[test]
fn red_moves_first() {
    assert_eq!(Position::<Standard>::startpos().turn(), Color::Red);
}

#[test]
fn general_moves_one_point_orthogonally_inside_the_palace() {
    let pos = position(&[("e1", 'K'), ("f9", 'k'), ("f5", 'n')], Color::Red);
    assert_eq!(targets(&pos, "e1"), ["d1", "e0", "e2", "f1"]);
}

#[test]
fn general_on_the_palace_edge_cannot_leave_it() {
    let pos = position(&[("d1", 'K'), ("f9", 'k')], Color::Red);
    assert_eq!(targets(&pos, "d1"), ["d0", "d2", "e1"]);
}

#[test]
fn generals_may_not_face_each_other_on_an_open_file() {
    let pos = position(&[("d0", 'K'), ("e9", 'k')], Color::Red);
    assert_eq!(reason(&pos, "d0e0"), Some(IllegalReason::GeneralsFace));
    assert_eq!(targets(&pos, "d0"), ["d1"]);
}

#[test]
fn a_lone_piece_between_the_generals_cannot_leave_the_file() {
    let pos = position(&[("e0", 'K'), ("e5", 'C'), ("e9", 'k')], Color::Red);
    let t = targets(&pos, "e5");
    assert!(!t.is_empty() && t.iter().all(|t| t.starts_with('e')));
    assert_eq!(reason(&pos, "e5d5"), Some(IllegalReason::GeneralsFace));
}

#[test]
fn horse_may_not_capture_if_that_leaves_the_generals_facing() {
    // The seed's picture: the blue horse would like to take the red chariot but is the
    // only piece between the kings.
    let pos = position(&[("e0", 'K'), ("c6", 'R'), ("e7", 'n'), ("e9", 'k')], Color::Black);
    assert_eq!(reason(&pos, "e7c6"), Some(IllegalReason::GeneralsFace));
}

#[test]
fn a_general_may_not_step_onto_the_open_file_of_the_other_general() {
    // The seed's checkmate picture: the king cannot escape to the point facing the red king.
    let pos = position(&[("e0", 'K'), ("a8", 'R'), ("d9", 'k'), ("b0", 'R')], Color::Black);
    assert!(!targets(&pos, "d9").contains(&"e9".to_string()));
}

#[test]
fn advisor_moves_one_point_diagonally_inside_the_palace() {
    let pos = position(&with_kings(&[("e1", 'A')]), Color::Red);
    // The kings stand on d0 and f9, so d0 is taken by the red general.
    assert_eq!(targets(&pos, "e1"), ["d2", "f0", "f2"]);
}

#[test]
fn advisor_in_a_palace_corner_has_one_move_and_none_when_blocked() {
    let pos = position(&with_kings(&[("f0", 'A'), ("e1", 'C')]), Color::Red);
    assert!(targets(&pos, "f0").is_empty());
    let pos = position(&with_kings(&[("f0", 'A')]), Color::Red);
    assert_eq!(targets(&pos, "f0"), ["e1"]);
}

#[test]
fn elephant_moves_exactly_two_points_diagonally() {
    let pos = position(&with_kings(&[("e2", 'B')]), Color::Red);
    assert_eq!(targets(&pos, "e2"), ["c0", "c4", "g0", "g4"]);
}

#[test]
fn elephant_is_blocked_when_its_eye_is_occupied() {
    let pos = position(&with_kings(&[("e2", 'B'), ("f3", 'n'), ("d1", 'N')]), Color::Red);
    assert_eq!(targets(&pos, "e2"), ["c4", "g0"]);
}

#[test]
fn elephant_cannot_cross_the_river() {
    let pos = position(&with_kings(&[("c4", 'B')]), Color::Red);
    assert_eq!(targets(&pos, "c4"), ["a2", "e2"]);
}

#[test]
fn elephant_cannot_capture_an_adjacent_piece() {
    let pos = position(&with_kings(&[("c4", 'B'), ("d4", 'n'), ("b3", 'n')]), Color::Red);
    assert!(!targets(&pos, "c4").iter().any(|t| t == "d4" || t == "b3"));
}

#[test]
fn horse_moves_one_point_orthogonally_then_one_diagonally() {
    let pos = position(&with_kings(&[("e4", 'N')]), Color::Red);
    assert_eq!(targets(&pos, "e4"), ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]);
}

#[test]
fn horse_is_blocked_by_a_piece_on_its_leg_and_cannot_capture_it() {
    let pos = position(&with_kings(&[("e4", 'N'), ("e5", 'c'), ("d6", 'n')]), Color::Red);
    let t = targets(&pos, "e4");
    assert!(
        !t.contains(&"d6".to_string()) && !t.contains(&"f6".to_string()) && !t.contains(&"e5".to_string())
    );
    assert_eq!(t.len(), 6);
}

#[test]
fn chariot_slides_until_blocked_and_captures_the_first_enemy() {
    let pos = position(&with_kings(&[("a0", 'R'), ("a4", 'p'), ("c0", 'B')]), Color::Red);
    assert_eq!(targets(&pos, "a0"), ["a1", "a2", "a3", "a4", "b0"]);
}

#[test]
fn cannon_moves_like_a_chariot_without_capturing() {
    let pos = position(&with_kings(&[("a0", 'C'), ("a4", 'p')]), Color::Red);
    assert_eq!(targets(&pos, "a0"), ["a1", "a2", "a3", "b0", "c0"]);
}

#[test]
fn cannon_needs_exactly_one_screen_to_capture() {
    let pos = position(&with_kings(&[("a0", 'C'), ("a4", 'p'), ("a7", 'r'), ("a9", 'n')]), Color::Red);
    let t = targets(&pos, "a0");
    assert!(t.contains(&"a7".to_string()), "captures over one screen");
    assert!(!t.contains(&"a9".to_string()), "never over two");
    assert!(!t.contains(&"a5".to_string()) && !t.contains(&"a4".to_string()));
}

#[test]
fn cannon_screen_may_be_of_either_colour() {
    let pos = position(&with_kings(&[("a0", 'C'), ("a4", 'P'), ("a7", 'r')]), Color::Red);
    assert!(targets(&pos, "a0").contains(&"a7".to_string()));
}

#[test]
fn soldier_moves_only_forward_before_the_river() {
    let pos = position(&with_kings(&[("c3", 'P')]), Color::Red);
    assert_eq!(targets(&pos, "c3"), ["c4"]);
}

#[test]
fn soldier_moves_forward_or_sideways_after_crossing_and_never_backward() {
    let pos = position(&with_kings(&[("c5", 'P')]), Color::Red);
    assert_eq!(targets(&pos, "c5"), ["b5", "c6", "d5"]);
    let pos = position(&with_kings(&[("c4", 'p')]), Color::Black);
    assert_eq!(targets(&pos, "c4"), ["b4", "c3", "d4"]);
}

#[test]
fn soldier_on_the_last_rank_only_moves_sideways() {
    let pos = position(&with_kings(&[("a9", 'P')]), Color::Red);
    assert_eq!(targets(&pos, "a9"), ["b9"]);
}

#[test]
fn no_piece_captures_its_own_side() {
    let pos = Position::<Standard>::startpos();
    assert_eq!(reason(&pos, "a0a3"), Some(IllegalReason::OwnPiece));
}

#[test]
fn a_move_that_leaves_the_general_in_check_is_illegal() {
    let pos = position(&[("e0", 'K'), ("e1", 'R'), ("e5", 'r'), ("f9", 'k')], Color::Red);
    assert_eq!(reason(&pos, "e1d1"), Some(IllegalReason::LeavesGeneralInCheck));
}

#[test]
fn a_piece_moving_between_cannon_and_general_gives_the_cannon_a_screen() {
    let pos = position(&[("e0", 'K'), ("d3", 'R'), ("e6", 'c'), ("f9", 'k')], Color::Red);
    assert_eq!(reason(&pos, "d3e3"), Some(IllegalReason::LeavesGeneralInCheck));
}

#[test]
fn checkmate_loses() {
    // Two chariots: the black general on its back rank has nowhere to go.
    let pos = position(&[("d0", 'K'), ("a9", 'R'), ("b8", 'R'), ("e9", 'k')], Color::Black);
    let game = Game::new(pos, RuleSet::Asian);
    let o = game.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (Some(Color::Red), Reason::Checkmate));
}

#[test]
fn stalemate_loses_for_the_side_that_cannot_move() {
    // Black's general is not in check but every move walks into an attack.
    let pos = position(&[("d0", 'K'), ("a8", 'R'), ("e2", 'R'), ("f9", 'k')], Color::Black);
    assert!(!pos.is_check());
    let game = Game::new(pos, RuleSet::ItsYourTurn);
    let o = game.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (Some(Color::Red), Reason::Stalemate));
}

#[test]
fn draw_when_both_sides_have_only_advisors_and_elephants() {
    let pos = position(&with_kings(&[("e1", 'A'), ("c0", 'B'), ("e8", 'a'), ("g9", 'b')]), Color::Red);
    for rules in RuleSet::ALL {
        let o = Game::new(pos.clone(), rules).outcome().expect("dead draw");
        assert_eq!((o.winner, o.reason), (None, Reason::NoAttackers), "{rules}");
    }
}

#[test]
fn setups_with_impossible_pieces_are_rejected() {
    let err = |pieces: &[(&str, char)], turn| Position::from_setup(&setup(pieces, turn)).unwrap_err();
    assert!(matches!(
        err(&with_kings(&[("a0", 'R'), ("a1", 'R'), ("a2", 'R')]), Color::Red),
        PositionError::TooMany { .. }
    ));
    assert!(matches!(err(&with_kings(&[("d1", 'A')]), Color::Red), PositionError::Unreachable { .. }));
    assert!(matches!(err(&with_kings(&[("c5", 'B')]), Color::Red), PositionError::Unreachable { .. }));
    assert!(matches!(err(&with_kings(&[("b3", 'P')]), Color::Red), PositionError::Unreachable { .. }));
    assert!(matches!(err(&with_kings(&[("c2", 'P')]), Color::Red), PositionError::Unreachable { .. }));
    assert!(matches!(err(&[("e0", 'K'), ("e9", 'k')], Color::Red), PositionError::GeneralsFacing));
    assert!(matches!(
        err(&[("d0", 'K'), ("f9", 'k'), ("f5", 'R')], Color::Red),
        PositionError::OppositeCheck { .. }
    ));
    assert!(matches!(err(&[("d0", 'K')], Color::Red), PositionError::MissingGeneral { color: Color::Black }));
    assert!(matches!(err(&[("a0", 'K'), ("f9", 'k')], Color::Red), PositionError::Unreachable { .. }));
}

/// Red chariot checks the black general on d9/d8 from a9/a8, back and forth.
fn checking_game(rules: RuleSet) -> Game {
    let pos = position(&[("f0", 'K'), ("a8", 'R'), ("d9", 'k')], Color::Red);
    Game::new(pos, rules)
}

#[test]
fn itsyourturn_same_piece_may_not_give_check_four_turns_in_a_row() {
    let mut g = checking_game(RuleSet::ItsYourTurn);
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8"] {
        g.play_str(m).unwrap();
    }
    let fourth = g.position().parse_move("a9a8").unwrap();
    assert!(matches!(g.why_illegal(fourth), Some(IllegalReason::Forbidden(_))));
    assert!(!g.legal_moves().contains(&fourth));
    // A quiet move by the same piece is still allowed, and so is a move by another piece.
    assert!(g.legal_moves().contains(&g.position().parse_move("a9a7").unwrap()));
    assert!(g.legal_moves().contains(&g.position().parse_move("f0f1").unwrap()));
}

#[test]
fn itsyourturn_check_limit_counts_only_the_same_piece() {
    let pos = position(&[("f0", 'K'), ("a8", 'R'), ("i6", 'R'), ("d9", 'k')], Color::Red);
    let mut g = Game::new(pos, RuleSet::ItsYourTurn);
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8"] {
        g.play_str(m).unwrap();
    }
    // The first chariot has checked three times running; the other may check now.
    let other = g.position().parse_move("i6i8").unwrap();
    assert!(g.is_legal(other));
    g.play(other).unwrap();
    assert!(g.is_check());
}

/// Red chariot chasing the black horse between c6 and e7 from c2 and e2.
fn chase_game(rules: RuleSet, protector: bool) -> Game {
    let mut pieces = vec![("e0", 'K'), ("a2", 'R'), ("f9", 'k'), ("c6", 'n')];
    if protector {
        pieces.push(("a7", 'r'));
    }
    Game::new(position(&pieces, Color::Red), rules)
}

#[test]
fn itsyourturn_chaser_may_not_return_to_its_first_point() {
    let mut g = chase_game(RuleSet::ItsYourTurn, false);
    for m in ["a2c2", "c6e7", "c2e2", "e7c6"] {
        g.play_str(m).unwrap();
    }
    let back = g.position().parse_move("e2c2").unwrap();
    assert!(matches!(g.why_illegal(back), Some(IllegalReason::Forbidden(_))));
    // Any other point is allowed.
    assert!(g.is_legal(g.position().parse_move("e2e3").unwrap()));
}

#[test]
fn itsyourturn_chase_rule_does_not_apply_to_a_protected_point() {
    let mut g = chase_game(RuleSet::ItsYourTurn, true);
    for m in ["a2c2", "c6e7", "c2e2", "e7c6"] {
        g.play_str(m).unwrap();
    }
    assert!(g.is_legal(g.position().parse_move("e2c2").unwrap()));
}

#[test]
fn asian_perpetual_check_loses() {
    let mut g = checking_game(RuleSet::Asian);
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"] {
        g.play_str(m).unwrap();
    }
    let o = g.outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::PerpetualCheck));
}

#[test]
fn asian_perpetual_chase_of_an_unprotected_piece_loses() {
    let mut g = chase_game(RuleSet::Asian, false);
    for m in ["a2c2", "c6e7", "c2e2", "e7c6", "e2c2", "c6e7", "c2e2", "e7c6", "e2c2"] {
        g.play_str(m).unwrap();
    }
    let o = g.outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::PerpetualChase));
}

#[test]
fn asian_chasing_a_protected_piece_is_a_draw() {
    let mut g = chase_game(RuleSet::Asian, true);
    for m in ["a2c2", "c6e7", "c2e2", "e7c6", "e2c2", "c6e7", "c2e2", "e7c6", "e2c2"] {
        g.play_str(m).unwrap();
    }
    let o = g.outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

/// The cells of the pieces each move of `moves` newly chased, move by move.
fn newly_chased(fen: &str, moves: &[&str]) -> Vec<Vec<String>> {
    let mut pos: Position<Standard> = fen.parse().unwrap();
    moves
        .iter()
        .map(|text| {
            let m = pos.parse_move(text).unwrap();
            let after = pos.after(m).unwrap();
            let names = chase::chased(&pos, &after).map(|c| after.cell_name(c)).collect();
            pos = after;
            names
        })
        .collect()
}

/// `fen` under the Asian rules after `cycle` is played `times` times; the game
/// must not end before the last move.
fn repeated(fen: &str, cycle: &[&str], times: usize) -> Game {
    let mut g = Game::new(fen.parse().unwrap(), RuleSet::Asian);
    for (i, m) in cycle.iter().cycle().take(cycle.len() * times).enumerate() {
        assert!(g.outcome().is_none(), "over before move {i}: {:?}", g.outcome());
        g.play_str(m).unwrap();
    }
    g
}

/// Both sides threaten alike: Red's chariot goes f1-f2-f1, threatening the horse
/// that comes to f3, while Black's horse goes h2-f3-h2: on f3 it is the screen
/// for the cannon on f6 onto the chariot, and on h2 it attacks the chariot itself.
const BOTH_THREATEN: &str = "5k3/9/9/5c3/9/9/9/7n1/5R3/4K4 w - - 0 1";
const BOTH_THREATEN_CYCLE: [&str; 4] = ["f1f2", "h2f3", "f2f1", "f3h2"];

#[test]
fn asian_chase_is_a_new_threat_to_a_piece_whoever_attacks_it() {
    // f1f2 newly threatens the horse on h2; h2f3 lets the cannon threaten the
    // chariot on f2. f2f1 keeps the chariot's threat on the horse, and f3h2 makes
    // the horse attack a chariot the cannon already attacked: neither is new.
    assert_eq!(newly_chased(BOTH_THREATEN, &BOTH_THREATEN_CYCLE), [vec!["h2"], vec!["f2"], vec![], vec![]]);
    let o = repeated(BOTH_THREATEN, &BOTH_THREATEN_CYCLE, 2).outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

#[test]
fn asian_chase_is_a_new_threat_to_a_piece_with_colours_swapped() {
    // The same game mirrored across the river, Black moving first.
    let fen = "4k4/5r3/7N1/9/9/9/5C3/9/9/5K3 b - - 0 1";
    let cycle = ["f8f7", "h7f6", "f7f8", "f6h7"];
    assert_eq!(newly_chased(fen, &cycle), [vec!["h7"], vec!["f7"], vec![], vec![]]);
    let o = repeated(fen, &cycle, 2).outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

#[test]
fn asian_a_chariot_keeping_its_threat_on_a_piece_that_walked_into_it_does_not_chase() {
    // The chariot on d5 steps to e5 and threatens the horse on e6 (a chase). The
    // horse goes to g5, still on the chariot's rank; the chariot steps back to d5
    // keeping that threat, which is not new; the horse returns to e6.
    let fen = "5k3/9/9/4n4/3R5/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["d5e5", "e6g5", "e5d5", "g5e6"];
    assert_eq!(newly_chased(fen, &cycle), [vec!["e6"], vec![], vec![], vec![]]);
    let o = repeated(fen, &cycle, 2).outcome().expect("third occurrence is judged");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

#[test]
fn casual_third_repetition_is_a_draw() {
    let mut g = checking_game(RuleSet::Casual);
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"] {
        g.play_str(m).unwrap();
        assert!(g.outcome().is_none());
    }
    g.play_str("d8d9").unwrap();
    assert_eq!(g.outcome().map(|o| (o.winner, o.reason)), Some((None, Reason::Repetition)));
}

#[test]
fn itsyourturn_has_no_repetition_draw() {
    let pos = position(&[("f0", 'K'), ("a8", 'R'), ("d9", 'k')], Color::Red);
    let mut g = Game::new(pos, RuleSet::ItsYourTurn);
    for _ in 0..4 {
        for m in ["a8b8", "d9e9", "b8a8", "e9d9"] {
            g.play_str(m).unwrap();
        }
    }
    assert!(g.outcome().is_none());
}

#[test]
fn move_limit_draws_after_plies_without_capture() {
    let fen = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 119 80";
    let start: Position<Standard> = fen.parse().unwrap();
    let mut g = Game::new(start.clone(), RuleSet::Asian);
    g.play_str("a1a2").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::MoveLimit));
    let mut g = Game::new(start, RuleSet::ItsYourTurn);
    g.play_str("a1a2").unwrap();
    assert!(g.outcome().is_none(), "no move limit in the play-site rules");
}

#[test]
fn a_finished_game_refuses_moves_and_undo_reopens_it() {
    let mut g = checking_game(RuleSet::Casual);
    g.resign(Color::Red);
    assert!(g.play_str("a8a9").is_err());
    assert!(g.legal_moves().is_empty());
    let mut g = checking_game(RuleSet::Asian);
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"] {
        g.play_str(m).unwrap();
    }
    assert!(g.outcome().is_some());
    g.undo();
    assert!(g.outcome().is_none());
}

/// A move is judged once: `check` says whether it may be played, and the
/// checked move plays without a second look, in that position only.
#[test]
fn a_checked_move_plays_once_judged_and_only_where_it_was_checked() {
    use xiangqi::{Game, GameError, IllegalReason, RuleSet};
    let mut game = Game::startpos(RuleSet::Asian);
    let cannon = game.position().parse_move("h2e2").unwrap();
    let checked = game.check(cannon).unwrap();
    assert_eq!(checked.mv(), cannon);
    let elsewhere = game.clone();
    game.play_checked(checked);
    assert_eq!(game.moves(), vec![cannon]);
    // Red's cannon again, now on Black's turn: refused by the same judgement as `play`.
    match game.check(cannon) {
        Err(GameError::Illegal(i)) => assert_eq!(i.reason, IllegalReason::NoPiece),
        other => panic!("{other:?}"),
    }
    // A checked move belongs to its position.
    let mut after = elsewhere.clone();
    after.play(cannon).unwrap();
    let replayed = std::panic::catch_unwind(move || after.play_checked(checked));
    assert!(replayed.is_err(), "a move checked in another position is refused");
}
