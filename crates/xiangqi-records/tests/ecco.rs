//! The ECCO table and the classification of games by it.

use std::collections::HashSet;

use xiangqi::{Cell, Move, Position, Standard, notation::chinese};
use xiangqi_records::ecco::{self, Code, Language, PLIES};

/// A game written in Chinese notation (move numbers allowed), as moves.
fn chinese(text: &str) -> Vec<Move> {
    let mut pos = Position::<Standard>::startpos();
    text.split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .map(|t| {
            let m = chinese::parse(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            pos.play(m).unwrap();
            m
        })
        .collect()
}

/// A game written in ICCS, as moves.
fn iccs(text: &str) -> Vec<Move> {
    let mut pos = Position::<Standard>::startpos();
    text.split_whitespace()
        .map(|t| {
            let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            pos.play(m).unwrap();
            m
        })
        .collect()
}

fn code_of(moves: &[Move]) -> Option<String> {
    ecco::classify(&Position::startpos(), moves).map(|o| o.code.to_string())
}

fn code(text: &str) -> Code {
    text.parse().unwrap()
}

/// Every code the classification assigns, by family: a truncated or damaged
/// table loses some of them.
const ASSIGNED: [(char, &[(u8, u8)]); 5] = [
    ('A', &[(0, 8), (10, 16), (20, 45), (50, 54), (60, 65)]),
    ('B', &[(0, 7), (10, 14), (20, 25), (30, 36), (40, 45), (50, 56)]),
    ('C', &[(0, 6), (10, 25), (30, 56), (60, 68), (70, 78), (80, 86), (90, 99)]),
    ('D', &[(0, 5), (10, 15), (20, 36), (40, 43), (50, 55)]),
    ('E', &[(0, 17), (20, 27), (30, 38), (40, 48)]),
];

#[test]
fn the_table_holds_every_assigned_code_and_no_other() {
    let expected: Vec<String> = ASSIGNED
        .iter()
        .flat_map(|&(family, ranges)| {
            ranges
                .iter()
                .flat_map(move |&(first, last)| (first..=last).map(move |n| format!("{family}{n:02}")))
        })
        .collect();
    let codes: Vec<String> = ecco::all().iter().map(|o| o.code.to_string()).collect();
    assert_eq!(codes.len(), 260);
    assert_eq!(codes, expected);
}

#[test]
fn the_data_file_has_one_line_per_code_and_ends_whole() {
    let text = include_str!("../data/ecco.tsv");
    let entries: Vec<&str> = text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 260);
    assert!(entries[0].starts_with("A00\t"));
    assert!(entries[259].starts_with("E48\t"));
    assert!(text.ends_with('\n'));
    for entry in entries {
        assert_eq!(entry.split('\t').count(), 6, "{entry}");
    }
    assert!(text.lines().next().is_some_and(|l| l.starts_with("# ECCO")));
    assert!(text.contains("# Sources:"));
}

#[test]
fn codes_are_unique_well_formed_and_in_order() {
    let all = ecco::all();
    for pair in all.windows(2) {
        assert!(pair[0].code < pair[1].code, "{} before {}", pair[0].code, pair[1].code);
    }
    for o in all {
        let text = o.code.to_string();
        assert_eq!(text.len(), 3);
        assert_eq!(text.parse::<Code>(), Ok(o.code));
        assert!("ABCDE".contains(o.code.family()));
        assert!(o.code.number() < 100);
        assert!(!o.simplified.is_empty() && !o.traditional.is_empty(), "{text}");
        assert!(!o.simplified.contains('#') && !o.simplified.contains('\t'));
    }
}

#[test]
fn every_order_is_legal_and_classifies_as_its_own_code() {
    let mut positions = HashSet::new();
    for o in ecco::all() {
        assert!(!o.lines().is_empty(), "{}", o.code);
        for line in o.lines() {
            let mut pos = Position::<Standard>::startpos();
            for &m in line {
                assert!(pos.is_legal(m), "{}: {}", o.code, pos.move_name(m));
                pos.play_unchecked(m);
            }
            assert!(line.len() <= PLIES, "{}", o.code);
            positions.insert(pos.hash());
            if line.is_empty() {
                assert_eq!(o.code, code("A00"), "only the catch-all is the start position");
            } else {
                assert_eq!(code_of(line).as_deref(), Some(o.code.to_string().as_str()));
            }
        }
    }
    assert!(positions.len() >= 260);
}

#[test]
fn every_family_has_its_heads_named() {
    for head in ["A00", "A10", "A20", "A30", "A40", "A50", "A60", "B00", "B10", "B20", "B30", "B40", "B50"] {
        assert!(ecco::by_code(code(head)).is_some(), "{head}");
    }
    for head in [
        "C00", "C10", "C20", "C30", "C40", "C50", "C60", "C70", "C80", "C90", "D00", "D10", "D20", "D30",
        "D40", "D50",
    ] {
        assert!(ecco::by_code(code(head)).is_some(), "{head}");
    }
    for head in ["E00", "E10", "E20", "E30", "E40"] {
        assert!(ecco::by_code(code(head)).is_some(), "{head}");
    }
    let names = |c: &str| ecco::by_code(code(c)).map(|o| o.simplified);
    assert_eq!(names("A10"), Some("飞相局"));
    assert_eq!(names("A40"), Some("起马局"));
    assert_eq!(names("A50"), Some("仕角炮局"));
    assert_eq!(names("A60"), Some("过宫炮局"));
    assert_eq!(names("B10"), Some("中炮对单提马"));
    assert_eq!(names("B20"), Some("中炮对左三步虎"));
    assert_eq!(names("B31"), Some("中炮对反宫马"));
    assert_eq!(names("C00"), Some("中炮对屏风马"));
    assert_eq!(names("D00"), Some("顺炮缓开车对其他"));
    assert_eq!(names("D50"), Some("中炮对列炮"));
    assert_eq!(names("E00"), Some("仙人指路局"));
    assert_eq!(names("E40"), Some("对兵局"));
}

#[test]
fn unassigned_codes_have_no_opening() {
    for c in ["A09", "A17", "A99", "B08", "C07", "D06", "E18", "E99"] {
        assert_eq!(ecco::by_code(code(c)), None, "{c}");
    }
}

#[test]
fn a_code_reads_and_writes_as_a_letter_and_two_digits() {
    assert_eq!(code("C45").to_string(), "C45");
    assert_eq!(code("c05"), Code::new('C', 5).unwrap());
    assert_eq!(code("A00").family(), 'A');
    assert_eq!(code("E48").number(), 48);
    for bad in ["", "C4", "C450", "F00", "4C5", "C4x", "ＣＯ１", "C-1"] {
        assert!(bad.parse::<Code>().is_err(), "{bad:?}");
    }
    assert_eq!(Code::new('F', 0), None);
    assert_eq!(Code::new('A', 100), None);
    assert!(code("A99") < code("B00"));
}

#[test]
fn a_game_of_the_screen_horses_with_the_exchange_of_rooks_is_c44() {
    let game = chinese(
        "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ \
         5. 车二进六 炮８平９ 6. 车二平三 炮９退１ 7. 马八进七 士４进５ 8. 马七进六 象３进５ \
         9. 炮八平七 马３退４ 10. 马六进七 炮２进４",
    );
    let opening = ecco::classify(&Position::startpos(), &game).unwrap();
    assert_eq!(opening.code.to_string(), "C44");
    assert_eq!(
        opening.parts(Language::Simplified),
        Some(("中炮过河车互进七兵对屏风马平炮兑车", Some("红左马盘河对黑退边炮上右士")))
    );
}

#[test]
fn known_games_get_their_known_codes() {
    let cases = [
        // 顺炮直车对横车, Red's two-headed snake against Black's two ranked rooks.
        (
            "炮二平五 炮８平５ 马二进三 马８进７ 车一平二 车９进１ 兵三进一 车９平４ 马八进七 马２进３ 兵七进一 车１进１",
            "D29",
        ),
        // 中炮对反宫马, then 五六炮 with the left horse up and Black's right rook out.
        ("炮二平五 马２进３ 马二进三 炮８平６ 车一平二 马８进７ 炮八平六 车１平２ 马八进七", "B42"),
        // 五七炮对反宫马.
        ("炮二平五 马２进３ 马二进三 炮８平６ 车一平二 马８进７ 炮八平七", "B50"),
        // 中炮对左三步虎.
        ("炮二平五 马８进７ 马二进三 车９平８ 车一平二 炮８平９", "B20"),
        // 中炮对列炮 at once.
        ("炮二平五 炮２平５", "D50"),
        // 中炮过河车对屏风马.
        ("炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 车二进六", "C17"),
        // 飞相对左过宫炮, both seventh pawns up.
        ("相三进五 炮８平４ 马二进三 马８进７ 车一平二 卒７进１ 兵七进一", "A34"),
        // 起马对进７卒.
        ("马二进三 卒７进１", "A41"),
        // 仕角炮对右中炮.
        ("炮二平四 炮２平５", "A52"),
        // 过宫炮直车对左中炮横车.
        ("炮二平六 炮８平５ 马二进三 马８进７ 车一平二 车９进１", "A65"),
        // 仙人指路对卒底炮, Red to the left central cannon, Black's left elephant.
        ("兵三进一 炮８平７ 炮八平五 象７进５", "E20"),
        // 对兵局 with both right horses and Red's elephant.
        ("兵三进一 卒３进１ 马二进三 马２进３ 相三进五", "E43"),
        // 中炮七路马对屏风马.
        ("炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 马八进七", "C01"),
    ];
    for (game, expected) in cases {
        assert_eq!(code_of(&chinese(game)).as_deref(), Some(expected), "{game}");
    }
}

#[test]
fn a_game_opening_on_the_left_is_named_as_its_mirror_image() {
    // 仙人指路 with the seventh pawn: the mirror of 兵三进一 炮８平７ ...
    let left = chinese("兵七进一 炮２平３ 炮二平五 象３进５ 马二进三 卒３进１ 马八进九 卒３进１");
    assert_eq!(code_of(&left).as_deref(), Some("E31"));
    // The left central cannon against the screen horses is C00 as well.
    let left = chinese("炮八平五 马２进３ 马八进七 马８进７");
    assert_eq!(code_of(&left).as_deref(), Some("C00"));
    // 飞相 from the left: the mirror of A34.
    assert_eq!(code_of(&iccs("c0e2 b7f7 b0c2 b9c7 a0b0 c6c5 g3g4")).as_deref(), Some("A34"));
}

#[test]
fn a_transposition_gets_the_same_code_as_the_book_order() {
    // C20 by the table's order and by another one reaching the same position.
    let book = iccs("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b0c2 c6c5");
    let other =
        chinese("炮二平五 马８进７ 马二进三 卒７进１ 车一平二 车９平８ 车二进六 马２进３ 马八进七 卒３进１");
    assert_ne!(book, other);
    assert_eq!(code_of(&book).as_deref(), Some("C20"));
    assert_eq!(code_of(&other).as_deref(), Some("C20"));
    // 对兵互进右马局 by either pawn-first or horse-first order.
    let pawns_first = chinese("兵三进一 卒３进１ 马二进三 马２进３");
    let horses_first = chinese("兵三进一 马２进３ 马二进三 卒３进１");
    assert_eq!(code_of(&pawns_first).as_deref(), Some("E42"));
    assert_eq!(code_of(&horses_first).as_deref(), Some("E42"));
    // The screen horses reached with the rooks out first.
    let rooks_first = chinese("炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３");
    assert_eq!(code_of(&rooks_first).as_deref(), Some("C00"));
}

#[test]
fn the_deepest_code_reached_names_the_game() {
    // C30, then C40, then C41: each position is met in turn; the last is deepest.
    let game = iccs("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 a0a1");
    assert_eq!(code_of(&game[..9]).as_deref(), Some("C30"));
    assert_eq!(code_of(&game[..10]).as_deref(), Some("C40"));
    assert_eq!(code_of(&game).as_deref(), Some("C41"));
}

#[test]
fn a_first_move_outside_the_table_gets_the_catch_all() {
    assert_eq!(code_of(&chinese("兵五进一")).as_deref(), Some("A00"));
    assert_eq!(code_of(&chinese("帅五进一 将５进１")).as_deref(), Some("A00"));
}

#[test]
fn a_game_from_a_set_up_position_or_without_moves_gets_none() {
    let setup = Position::<Standard>::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
    let m = setup.parse_move("e0f0").unwrap();
    assert_eq!(ecco::classify(&setup, &[m]), None);
    assert_eq!(ecco::classify(&Position::startpos(), &[]), None);
    // The usual placement with Black to move is not the usual start either.
    let black_first = Position::<Standard>::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    )
    .unwrap();
    let m = black_first.parse_move("h7e7").unwrap();
    assert_eq!(ecco::classify(&black_first, &[m]), None);
}

#[test]
fn replay_stops_at_a_move_that_is_not_legal() {
    let mut game = iccs("h2e2 h9g7 h0g2 b9c7");
    game.insert(2, Move::new(Cell::new(0), Cell::new(89)));
    assert_eq!(code_of(&game).as_deref(), Some("B05"));
    let off_board = vec![Move::new(Cell::new(250), Cell::new(251))];
    assert_eq!(code_of(&off_board).as_deref(), Some("A00"));
    let mut mirrored_off = iccs("b2e2");
    mirrored_off.push(Move::new(Cell::new(200), Cell::new(201)));
    assert_eq!(code_of(&mirrored_off).as_deref(), Some("B00"));
}

#[test]
fn positions_past_the_horizon_do_not_count() {
    // Rooks up and back, meeting no table position: the start position again
    // every four plies.
    let shuffle = "i0i1 i9i8 i1i0 i8i9 ";
    let late = iccs(&format!("{}h2e2", shuffle.repeat(7)));
    assert_eq!(late.len(), 29);
    assert_eq!(code_of(&late).as_deref(), Some("B00"));
    let too_late = iccs(&format!("{}h2e2", shuffle.repeat(8)));
    assert_eq!(too_late.len(), PLIES + 3);
    assert_eq!(code_of(&too_late).as_deref(), Some("A00"));
}

#[test]
fn search_finds_codes_by_prefix() {
    let found: Vec<String> = ecco::search("C4").map(|o| o.code.to_string()).collect();
    assert_eq!(found, (40..=49).map(|n| format!("C{n}")).collect::<Vec<_>>());
    assert_eq!(ecco::search("e48").map(|o| o.code).collect::<Vec<_>>(), vec![code("E48")]);
    assert_eq!(ecco::search("D").filter(|o| o.code.family() == 'D').count(), 39);
}

#[test]
fn search_finds_names_in_every_language() {
    let codes = |q: &str| ecco::search(q).map(|o| o.code.to_string()).collect::<Vec<_>>();
    assert!(codes("屏风马").contains(&"C00".to_string()));
    assert!(codes("屏風馬").contains(&"C00".to_string()));
    assert_eq!(codes("screen horses").first().map(String::as_str), Some("C00"));
    assert!(codes("SCREEN HORSES").contains(&"C99".to_string()));
    assert!(codes("bình phong mã").contains(&"C00".to_string()));
    assert!(codes("BÌNH PHONG MÃ").contains(&"C60".to_string()));
    // Full-width and ASCII digits are one.
    assert_eq!(codes("进7卒"), codes("进７卒"));
    assert!(codes("进7卒").contains(&"A36".to_string()));
    assert!(codes("no such opening").is_empty());
    assert_eq!(ecco::search("  ").count(), 260);
}

#[test]
fn names_are_given_in_four_languages_where_printed() {
    let c00 = ecco::by_code(code("C00")).unwrap();
    assert_eq!(c00.name(Language::Simplified), Some("中炮对屏风马"));
    assert_eq!(c00.name(Language::Traditional), Some("中炮對屏風馬"));
    assert_eq!(c00.name(Language::English), Some("Central Cannon vs Screen Horses"));
    assert_eq!(c00.name(Language::Vietnamese), Some("Pháo đầu đối Bình phong mã"));
    let c45 = ecco::by_code(code("C45")).unwrap();
    assert_eq!(c45.name(Language::English), None);
    assert_eq!(c45.parts(Language::Traditional).and_then(|p| p.1), Some("紅左邊炮對黑退邊炮上右士"));
}
