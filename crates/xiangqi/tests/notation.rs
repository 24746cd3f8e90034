//! WXF and Chinese notation: worked examples, tandem pieces and soldiers, and
//! round-trips over every legal move of random games.

mod common;

use common::playout;
use proptest::prelude::*;
use xiangqi::{
    Color, MoveError, Piece, Position, Role, Setup, Standard,
    notation::{
        chinese,
        descriptive::{self, Direction},
        wxf,
    },
};

fn play_line(
    moves: &[&str],
    read: fn(&Position<Standard>, &str) -> Result<xiangqi::Move, MoveError>,
) -> Vec<String> {
    let mut pos = Position::<Standard>::startpos();
    moves
        .iter()
        .map(|text| {
            let m = read(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let name = pos.move_name(m);
            pos.play_unchecked(m);
            name
        })
        .collect()
}

fn position(pieces: &[(&str, char)], turn: Color) -> Position<Standard> {
    let t = Position::<Standard>::tables();
    let mut s = Setup::empty();
    for (c, p) in pieces {
        s.board[t.parse_cell(c).unwrap().index()] = Some(Piece::from_char(*p).unwrap());
    }
    s.turn = turn;
    Position::from_setup(&s).unwrap()
}

fn named(pos: &Position<Standard>, iccs: &str) -> (String, String) {
    let m = pos.parse_move(iccs).unwrap();
    (wxf::write(pos, m), chinese::write(pos, m))
}

#[test]
fn wxf_and_chinese_read_the_same_opening() {
    let iccs = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    assert_eq!(play_line(&["C2=5", "H8+7", "H2+3", "R9=8", "R1=2", "H2+3"], wxf::parse), iccs);
    assert_eq!(
        play_line(&["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二", "马2进3"], chinese::parse),
        iccs
    );
    assert_eq!(
        play_line(&["炮二平五", "馬８進７", "傌二進三", "車9平8", "俥一平二", "馬2進3"], chinese::parse),
        iccs
    );
}

#[test]
fn files_count_from_each_players_right() {
    let pos = Position::<Standard>::startpos();
    assert_eq!(named(&pos, "b2e2"), ("C8=5".into(), "炮八平五".into()));
    assert_eq!(named(&pos, "h0g2"), ("H2+3".into(), "马二进三".into()));
    assert_eq!(named(&pos, "c3c4"), ("P7+1".into(), "兵七进一".into()));
    let black = pos.after(pos.parse_move("h2e2").unwrap()).unwrap();
    assert_eq!(named(&black, "h7e7"), ("C8=5".into(), "炮8平5".into()));
    assert_eq!(named(&black, "b9c7"), ("H2+3".into(), "马2进3".into()));
}

#[test]
fn straight_movers_count_steps_and_diagonal_movers_name_the_file() {
    let pos = Position::<Standard>::startpos();
    assert_eq!(named(&pos, "a0a2"), ("R9+2".into(), "车九进二".into()));
    assert_eq!(named(&pos, "f0e1"), ("A4+5".into(), "仕四进五".into()));
    assert_eq!(named(&pos, "g0e2"), ("E3+5".into(), "相三进五".into()));
    assert_eq!(named(&pos, "e0e1"), ("K5+1".into(), "帅五进一".into()));
}

#[test]
fn wxf_tandem_chariots_use_plus_and_minus() {
    let pos = position(&[("d0", 'K'), ("f9", 'k'), ("c5", 'R'), ("c2", 'R')], Color::Red);
    assert_eq!(named(&pos, "c5a5"), ("R+=9".into(), "前车平九".into()));
    assert_eq!(named(&pos, "c2c1"), ("R--1".into(), "后车退一".into()));
    for text in ["R+=9", "r+.9", "前车平九", "前車平九"] {
        let m = wxf::parse(&pos, text).or_else(|_| chinese::parse(&pos, text)).unwrap();
        assert_eq!(pos.move_name(m), "c5a5", "{text}");
    }
    // Front and rear are seen from the mover: for Black the lower piece is in front.
    let pos = position(&[("d0", 'K'), ("f9", 'k'), ("c5", 'r'), ("c2", 'r')], Color::Black);
    assert_eq!(named(&pos, "c2a2"), ("R+=1".into(), "前车平1".into()));
}

#[test]
fn wxf_file_digit_still_reads_when_direction_tells_tandem_pieces_apart() {
    let pos = position(&[("d0", 'K'), ("f9", 'k'), ("c5", 'R'), ("c2", 'R'), ("c9", 'n')], Color::Red);
    // Only the front chariot can reach c9 going forward 4.
    assert_eq!(pos.move_name(wxf::parse(&pos, "R7+4").unwrap()), "c5c9");
    assert!(matches!(wxf::parse(&pos, "R7=8"), Err(MoveError::Ambiguous { .. })));
}

#[test]
fn advisors_and_elephants_keep_their_file_digit() {
    let pos = position(&[("e1", 'K'), ("f9", 'k'), ("c0", 'B'), ("c4", 'B')], Color::Red);
    assert_eq!(named(&pos, "c0e2"), ("E7+5".into(), "相七进五".into()));
    assert_eq!(named(&pos, "c4e2"), ("E7-5".into(), "相七退五".into()));
}

#[test]
fn wxf_soldier_conventions_for_three_to_five_on_a_file() {
    let three = position(&[("d0", 'K'), ("f9", 'k'), ("c5", 'P'), ("c6", 'P'), ("c7", 'P')], Color::Red);
    assert_eq!(named(&three, "c7b7"), ("P+=8".into(), "前兵平八".into()));
    assert_eq!(named(&three, "c6b6"), ("P7=8".into(), "中兵平八".into()));
    assert_eq!(named(&three, "c5b5"), ("P-=8".into(), "后兵平八".into()));
    let five = position(
        &[("d0", 'K'), ("f9", 'k'), ("c5", 'P'), ("c6", 'P'), ("c7", 'P'), ("c8", 'P'), ("c9", 'P')],
        Color::Red,
    );
    let names: Vec<(String, String)> =
        ["c9b9", "c8b8", "c7b7", "c6b6", "c5b5"].iter().map(|m| named(&five, m)).collect();
    assert_eq!(
        names,
        [
            ("++=8".into(), "前兵平八".into()),
            ("P+=8".into(), "二兵平八".into()),
            ("P7=8".into(), "三兵平八".into()),
            ("P-=8".into(), "四兵平八".into()),
            ("--=8".into(), "后兵平八".into()),
        ]
    );
}

#[test]
fn soldiers_on_two_files_put_the_file_in_front() {
    let pos =
        position(&[("d0", 'K'), ("f9", 'k'), ("c5", 'P'), ("c6", 'P'), ("g5", 'P'), ("g6", 'P')], Color::Red);
    assert_eq!(named(&pos, "c6b6"), ("7+=8".into(), "前七平八".into()));
    assert_eq!(named(&pos, "g6g7"), ("3++1".into(), "前三进一".into()));
    assert_eq!(pos.move_name(wxf::parse(&pos, "7-=8").unwrap()), "c5b5");
    assert_eq!(pos.move_name(chinese::parse(&pos, "后七平八").unwrap()), "c5b5");
    // The numbered-soldier form written by some programs: first from the front on file 3.
    assert_eq!(pos.move_name(wxf::parse(&pos, "13=4").unwrap()), "g6f6");
}

#[test]
fn wxf_numbered_soldiers_count_from_the_front_where_one_file_holds_several() {
    // Three soldiers on Red's file 1 (i9, i7, i4) and no other file with two: WXF
    // writes them P+, P1 and P-, so a doubled digit is the numbered form, and
    // `11=2` is the first soldier from the front.
    let pos: Position<Standard> = "3k4P/4a4/1C6P/9/2b3b2/8P/5n3/5AR2/9/c4KB2 w - - 2 101".parse().unwrap();
    assert_eq!(named(&pos, "i9h9").0, "P+=2");
    assert_eq!(named(&pos, "i7h7").0, "P1=2");
    let read = |text: &str| wxf::parse(&pos, text).map(|m| pos.move_name(m));
    assert_eq!(read("11=2").unwrap(), "i9h9");
    assert_eq!(read("21=2").unwrap(), "i7h7");
    assert_eq!(read("21+1").unwrap(), "i7i8");
    assert_eq!(read("31+1").unwrap(), "i4i5");
    assert!(matches!(read("41+1"), Err(MoveError::Illegal(_))));
}

#[test]
fn wxf_doubled_file_digit_is_the_middle_soldier_only_with_two_soldier_files() {
    // Three soldiers on file 7 and two on file 3: the middle one on file 7 is `77`.
    let pos = position(
        &[("d0", 'K'), ("f9", 'k'), ("c5", 'P'), ("c6", 'P'), ("c7", 'P'), ("g5", 'P'), ("g6", 'P')],
        Color::Red,
    );
    assert_eq!(named(&pos, "c6b6").0, "77=8");
    let read = |text: &str| wxf::parse(&pos, text).map(|m| pos.move_name(m));
    assert_eq!(read("77=8").unwrap(), "c6b6");
    // The numbered forms still count from the front.
    assert_eq!(read("17=8").unwrap(), "c7b7");
    assert_eq!(read("27=8").unwrap(), "c6b6");
    assert_eq!(read("37=8").unwrap(), "c5b5");
    // File 3 holds two, so there is no middle: `33` is the third from the front.
    assert!(matches!(read("33=4"), Err(MoveError::Illegal(_))));
    // Five soldiers on one file: WXF writes the middle one P7, so `77` is the
    // seventh from the front, which is not there.
    let five = position(
        &[("d0", 'K'), ("f9", 'k'), ("c5", 'P'), ("c6", 'P'), ("c7", 'P'), ("c8", 'P'), ("c9", 'P')],
        Color::Red,
    );
    assert_eq!(wxf::parse(&five, "37=8").map(|m| five.move_name(m)).unwrap(), "c7b7");
    assert!(matches!(wxf::parse(&five, "77=8"), Err(MoveError::Illegal(_))));
}

#[test]
fn every_soldier_spelling_names_its_move_with_soldiers_stacked_on_files() {
    // Up to five crossed soldiers on files a, c and g, for each side: every move
    // reads back from its WXF and Chinese names, and a soldier sharing its file is
    // also named by its number from the front, except that a doubled digit is the
    // middle soldier where WXF writes it so.
    let cells: Vec<(char, usize)> =
        ['a', 'c', 'g'].into_iter().flat_map(|f| (5..=9).map(move |r| (f, r))).collect();
    for mask in 0u32..1 << cells.len() {
        if mask.count_ones() > 5 {
            continue;
        }
        for color in [Color::Red, Color::Black] {
            let flip = |rank: usize| if color == Color::Red { rank } else { 9 - rank };
            let (own, other) = if color == Color::Red { ("d0", "e9") } else { ("d9", "e0") };
            let soldier = if color == Color::Red { 'P' } else { 'p' };
            let mut names: Vec<(String, char)> =
                vec![(own.into(), if color == Color::Red { 'K' } else { 'k' })];
            names.push((other.into(), if color == Color::Red { 'k' } else { 'K' }));
            for (i, (f, r)) in cells.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    names.push((format!("{f}{}", flip(*r)), soldier));
                }
            }
            let pieces: Vec<(&str, char)> = names.iter().map(|(c, p)| (c.as_str(), *p)).collect();
            let pos = position(&pieces, color);
            for m in pos.legal_moves() {
                let (w, c) = (wxf::write(&pos, m), chinese::write(&pos, m));
                assert_eq!(wxf::parse(&pos, &w).ok(), Some(m), "WXF {w} in {}", pos.to_fen());
                assert_eq!(chinese::parse(&pos, &c).ok(), Some(m), "Chinese {c} in {}", pos.to_fen());
                let d = descriptive::describe(&pos, m).unwrap();
                if d.role != Role::Soldier || d.count < 2 {
                    continue;
                }
                let k = d.index + 1;
                let middle_written_doubled = d.soldier_files && d.count == 3;
                if k == d.file && middle_written_doubled && d.index != 1 {
                    continue;
                }
                let op = match d.direction {
                    Direction::Forward => '+',
                    Direction::Backward => '-',
                    Direction::Sideways => '=',
                };
                let numbered = format!("{k}{}{op}{}", d.file, d.target);
                assert_eq!(wxf::parse(&pos, &numbered).ok(), Some(m), "{numbered} in {}", pos.to_fen());
            }
        }
    }
}

#[test]
fn readers_refuse_what_is_not_a_legal_move() {
    let pos = Position::<Standard>::startpos();
    assert!(matches!(wxf::parse(&pos, "C2=5x"), Err(MoveError::Syntax(_))));
    assert!(matches!(wxf::parse(&pos, "R1+9"), Err(MoveError::Illegal(_))));
    assert!(matches!(chinese::parse(&pos, "车一进九"), Err(MoveError::Illegal(_))));
    assert!(matches!(chinese::parse(&pos, "炮二平"), Err(MoveError::Syntax(_))));
    assert!(matches!(chinese::parse(&pos, "兵二平五"), Err(MoveError::Illegal(_))));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_legal_move_round_trips_through_wxf_and_chinese(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        for pos in playout::<Standard>(&choices).iter().step_by(3) {
            for m in pos.legal_moves() {
                let w = wxf::write(pos, m);
                prop_assert_eq!(wxf::parse(pos, &w).ok(), Some(m), "WXF {} in {}", w, pos.to_fen());
                let c = chinese::write(pos, m);
                prop_assert_eq!(chinese::parse(pos, &c).ok(), Some(m), "Chinese {} in {}", c, pos.to_fen());
            }
        }
    }

    #[test]
    fn notation_readers_never_panic(text in "\\PC{0,8}") {
        let pos = Position::<Standard>::startpos();
        let _ = wxf::parse(&pos, &text);
        let _ = chinese::parse(&pos, &text);
    }
}
