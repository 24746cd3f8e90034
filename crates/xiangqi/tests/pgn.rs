//! PGN game records: writing in each move syntax, reading back, comments and
//! variations skipped, games from a FEN, and clear errors.

use xiangqi::{
    Game, Position, Reason, RuleSet, Standard,
    notation::{
        pgn::{self, Format, PgnError, Record},
        tree::MoveTree,
    },
};

fn sample_game() -> Game {
    let mut g = Game::startpos(RuleSet::Asian);
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] {
        g.play_str(m).unwrap();
    }
    g
}

#[test]
fn a_record_round_trips_in_every_move_syntax() {
    let game = sample_game();
    let mut record = Record::from_game(&game);
    record.set_tag("Red", "Lü Qin");
    record.set_tag("Event", "Say \"hello\"");
    for format in [Format::Iccs, Format::Wxf, Format::Chinese] {
        let text = pgn::write(&record, format);
        assert!(text.starts_with("[Game \"Chinese Chess\"]\n"), "{text}");
        assert!(text.contains(&format!("[Format \"{}\"]", format.name())));
        let back = pgn::read(&text).unwrap();
        assert_eq!(back, record, "{format:?}:\n{text}");
    }
    let wxf = pgn::write(&record, Format::Wxf);
    assert!(wxf.contains("1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 H2+3 *"), "{wxf}");
    let chinese = pgn::write(&record, Format::Chinese);
    assert!(chinese.contains("1. 炮二平五 马8进7"), "{chinese}");
}

#[test]
fn a_game_from_a_fen_keeps_its_start_and_black_to_move_numbering() {
    let start: Position<Standard> = "4k4/9/1R7/9/9/9/9/9/R8/3K5 b - - 0 7".parse().unwrap();
    let mut game = Game::new(start.clone(), RuleSet::Casual);
    game.play_str("e9f9").unwrap();
    game.play_str("b7b9").unwrap();
    let text = pgn::write(&Record::from_game(&game), Format::Iccs);
    assert!(text.contains("[FEN \"4k4/9/1R7/9/9/9/9/9/R8/3K5 b - - 0 7\"]"), "{text}");
    assert!(text.contains("7... e9f9 8. b7b9"), "{text}");
    let back = pgn::read(&text).unwrap();
    assert_eq!(back.start, start);
    let replayed = back.to_game(None).unwrap();
    assert_eq!(replayed.rule_set(), RuleSet::Casual);
    assert_eq!(replayed.moves(), game.moves());
}

#[test]
fn finished_games_record_result_and_reason() {
    let start: Position<Standard> = "4k4/9/1R7/9/9/9/9/9/R8/3K5 w - - 0 1".parse().unwrap();
    let mut game = Game::new(start, RuleSet::Asian);
    for m in ["b7b8", "e9f9", "a1a9"] {
        game.play_str(m).unwrap();
    }
    assert_eq!(game.outcome().unwrap().reason, Reason::Checkmate);
    let text = pgn::write(&Record::from_game(&game), Format::Wxf);
    assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"checkmate\"]"), "{text}");
    assert!(text.trim_end().ends_with("1-0"));
}

#[test]
fn reading_skips_comments_variations_annotations_and_takes_any_syntax() {
    let text = r#"[Game "Chinese Chess"]
[Event "club night"]
[Red "A"]
[Black "B"]
[Result "*"]

1. H2-E2 {the central cannon} 马8进7 ; a comment to the end of the line
2. H2+3 (2. h0g2 c6c5) $1 車9平8 3.r1=2 *
"#;
    let record = pgn::read(text).unwrap();
    assert_eq!(record.tag("Event"), Some("club night"));
    let names: Vec<String> = {
        let mut pos = record.start.clone();
        record
            .moves
            .iter()
            .map(|&m| {
                let n = pos.move_name(m);
                pos.play_unchecked(m);
                n
            })
            .collect()
    };
    assert_eq!(names, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
}

#[test]
fn bad_records_say_what_is_wrong() {
    assert!(matches!(pgn::read("[Event \"x\"\n1. h2e2"), Err(PgnError::Tag { line: 1, .. })));
    assert!(matches!(pgn::read("[FEN \"nonsense\"]\n*"), Err(PgnError::Fen(_))));
    let err = pgn::read("1. h2e2 h9g7 2. h2h9 *").unwrap_err();
    assert!(matches!(err, PgnError::Move { ply: 3, .. }), "{err}");
    assert!(err.to_string().contains("h2h9"), "{err}");
    let cut = pgn::read("1. h2e2 {never closed").unwrap_err();
    assert!(matches!(cut, PgnError::Unclosed { what: "comment", after: 1 }), "{cut:?}");
    assert_eq!(cut.to_string(), "a comment opened after 1 moves is never closed");
}

/// The central cannon against the screen horses, 22 plies, as ICCS names them.
const SCREEN_HORSES: [&str; 22] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "g3g4", "g6g5", "h0h6", "h7i7", "h6g6", "i7i8", "b0c2",
    "d9e8", "c3c4", "i8g8", "g6f6", "g7h5", "c2d4", "g8g4", "d4e6", "h5g3",
];

fn names(record: &Record) -> Vec<String> {
    let mut pos = record.start.clone();
    record
        .moves
        .iter()
        .map(|&m| {
            let n = pos.move_name(m);
            pos.play_unchecked(m);
            n
        })
        .collect()
}

/// The same game five times, as the xqbase archives and the programs that
/// export to them write it: old-style ICCS, WXF, simplified Chinese with
/// full-width digits, traditional glyphs, and Chinese numerals for both sides;
/// a BOM at the start and CRLF line ends.
fn archive() -> String {
    let games = [
        (
            "ICCS",
            "1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. G3-G4 G6-G5 5. H0-H6 H7-I7\n\
             6. H6-G6 I7-I8 7. B0-C2 D9-E8 8. C3-C4 I8-G8 9. G6-F6 G7-H5 10. C2-D4 G8-G4\n\
             11. D4-E6 H5-G3 1-0",
        ),
        (
            "WXF",
            "1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3 4. P3+1 P7+1 5. R2+6 C8.9\n\
             6. R2.3 C9-1 7. H8+7 A4+5 8. P7+1 C9.7 9. R3.4 H7+8 10. H7+6 C7+4\n\
             11. H6+5 H8+7 1-0",
        ),
        (
            "Chinese",
            "１． 炮二平五　马８进７　２． 马二进三　车９平８　３． 车一平二　马２进３\n\
             ４． 兵三进一　卒７进１　５． 车二进六　炮８平９　６． 车二平三　炮９退１\n\
             ７． 马八进七　士４进５　８． 兵七进一　炮９平７　９． 车三平四　马７进８\n\
             １０． 马七进六　炮７进４　１１． 马六进五　马８进７ 1-0",
        ),
        (
            "Chinese",
            "1. 炮二平五 馬8進7 2. 傌二進三 車9平8 3. 俥一平二 馬2進3 4. 兵三進一 卒7進1\n\
             5. 俥二進六 砲8平9 6. 俥二平三 砲9退1 7. 傌八進七 士4進5 8. 兵七進一 包9平7\n\
             9. 俥三平四 馬7進8 10. 傌七進六 砲7進4 11. 傌六進五 馬8進7 1-0",
        ),
        (
            "Chinese",
            "1. 炮2平5 马八进七 2. 马2进3 车九平八 3. 车1平2 马二进三 4. 兵3进1 卒七进一\n\
             5. 车2进6 炮八平九 6. 车2平3 炮九退一 7. 马8进7 士四进五 8. 兵7进1 炮九平七\n\
             9. 车3平4 马七进八 10. 马7进6 炮七进四 11. 马6进5 马八进七 1-0",
        ),
    ];
    let mut text = String::from("\u{feff}");
    for (i, (format, moves)) in games.iter().enumerate() {
        text.push_str(&format!(
            "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n[Site \"上海\"]\n[Date \"1960.??.??\"]\n\
             [Round \"{}\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"1-0\"]\n[Format \"{format}\"]\n\n\
             {moves}\n\n",
            i + 1
        ));
    }
    text.replace('\n', "\r\n")
}

#[test]
fn every_game_of_an_archive_reads_in_every_syntax_and_glyph_set() {
    let text = archive();
    let games = pgn::read_all(&text);
    assert_eq!(games.len(), 5);
    for (i, game) in games.iter().enumerate() {
        let record = game.as_ref().unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert_eq!(names(record), SCREEN_HORSES, "game {}", i + 1);
        assert_eq!(record.tag("Red"), Some("胡荣华"));
        assert_eq!(record.tag("Event"), Some("全国象棋个人赛"));
        assert_eq!(record.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(record.tag("Format"), None, "the syntax is not kept as a tag");
    }
    // The first game alone, BOM and all.
    assert_eq!(names(&pgn::read(&text).unwrap()), SCREEN_HORSES);
}

#[test]
fn tandem_pieces_read_with_the_marker_before_or_after_the_letter() {
    let fen = "5k3/9/9/9/4R4/9/4R4/9/9/4K4 w - - 0 1";
    for moves in [
        "1. R++1 K6+1 2. R-.4",
        "1. +R+1 K6+1 2. -R=4",
        "1. 前车进一 将6进1 2. 后车平四",
        "1. 前俥進一 將６進１ 2. 後俥平四",
    ] {
        let text = format!("[FEN \"{fen}\"]\n\n{moves} *\n");
        let record = pgn::read(&text).unwrap_or_else(|e| panic!("{moves}: {e}"));
        assert_eq!(names(&record), ["e5e6", "f9f8", "e3f3"], "{moves}");
    }
}

#[test]
fn games_are_told_apart_by_tags_or_by_results_and_each_keeps_its_own_error() {
    let text = "1. h2e2 h9g7 *\n\
                \n\
                1. C2=5 H8+7 2. H2+3 1-0\n\
                {a note after the result belongs to no game}\n\
                [Event \"B\"]\n\
                [FEN \"5k3/9/9/9/4R4/9/4R4/9/9/4K4 w - - 0 1\"]\n\
                \n\
                1. R+=6 { a comment with a\n\
                [bracket] and a result 1-0 inside } K6+1 (1... K6=5 2. R5+1) 2. R5=4 *\n\
                [Event \"C\"\n\
                1. h2e2 *\n\
                [Event \"D\"]\n\
                1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵三进一 卒7进1 5. 车二进六 炮8平9\n\
                6. 车二平三 炮9退1 7. 马八进七 士4进5 8. 兵七进一 炮9平7 9. 车三平四 马7进8 10. 马七进六 炮7进4\n\
                11. 马六进五 马8进7 12. 炮二平五 *\n";
    let games = pgn::read_all(text);
    assert_eq!(games.len(), 5, "{games:?}");
    assert_eq!(names(games[0].as_ref().unwrap()), ["h2e2", "h9g7"]);
    assert_eq!(names(games[1].as_ref().unwrap()), ["h2e2", "h9g7", "h0g2"]);
    let b = games[2].as_ref().unwrap();
    assert_eq!(b.tag("Event"), Some("B"));
    assert_eq!(names(b), ["e5d5", "f9f8", "e3f3"]);
    assert!(matches!(games[3], Err(PgnError::Tag { line: 10, .. })), "{:?}", games[3]);
    let err = games[4].as_ref().unwrap_err();
    assert!(matches!(err, PgnError::Move { ply: 23, number: 12, red: true, .. }), "{err:?}");
    assert!(err.to_string().starts_with("move 12 (炮二平五): "), "{err}");
    let black = pgn::read("1. h2e2 h9h2 *").unwrap_err();
    assert!(black.to_string().starts_with("move 1... (h9h2): "), "{black}");
    assert!(pgn::read_all("").is_empty() && pgn::read_all("\u{feff}\r\n\r\n").is_empty());
}

#[test]
fn comments_and_variations_are_written_and_read_back_as_the_main_line() {
    let pos = Position::<Standard>::startpos();
    let mv = |p: &Position<Standard>, s: &str| p.parse_move(s).unwrap();
    let mut after = pos.clone();
    let cannon = mv(&after, "h2e2");
    after.play_unchecked(cannon);
    let (horse, cannon_reply) = (mv(&after, "h9g7"), mv(&after, "b7e7"));
    let mut after_horse = after.clone();
    after_horse.play_unchecked(horse);
    let red_horse = mv(&after_horse, "h0g2");
    let mut tree = MoveTree::new();
    tree.set_comment(MoveTree::ROOT, "Openings");
    let first = tree.add(MoveTree::ROOT, cannon);
    tree.set_comment(first, "the central cannon {a classic}");
    tree.add(MoveTree::ROOT, mv(&pos, "c3c4"));
    let reply = tree.add(first, horse);
    let develops = tree.add(reply, red_horse);
    tree.set_comment(develops, "develops");
    let same = tree.add(first, cannon_reply);
    tree.set_comment(same, "same-direction cannons");
    let mut record = Record::from_game(&Game::startpos(RuleSet::Asian));
    record.set_tag("Event", "胡荣华 study");
    let text = pgn::write_tree(&record, &tree, Format::Chinese);
    let moves = text.split("\n\n").nth(1).unwrap();
    assert_eq!(
        moves.trim_end(),
        "{Openings} 1. 炮二平五 {the central cannon (a classic)} (1. 兵七进一) 1... 马8进7 (1...\n\
         炮2平5 {same-direction cannons}) 2. 马二进三 {develops} *",
        "{text}"
    );
    let back = pgn::read(&text).unwrap();
    assert_eq!(names(&back), ["h2e2", "h9g7", "h0g2"]);
    // Read with its comments and variations, the tree comes back whole.
    let (tree_record, read_back) = pgn::read_tree(&text).unwrap();
    assert_eq!((tree_record.moves, read_back.comment(MoveTree::ROOT)), (back.moves.clone(), "Openings"));
    let mut expected = tree.clone();
    expected.set_comment(first, "the central cannon (a classic)");
    assert_eq!(read_back, expected);
    // A bad move inside a variation is named; an open one is refused.
    let bad = "1. h2e2 (1. h2h9 h9h2) h9g7 *";
    assert!(pgn::read(bad).is_ok(), "the main line alone reads");
    let err = pgn::read_tree(bad).unwrap_err();
    assert!(err.to_string().starts_with("move 1... (h9h2)"), "{err}");
    for open in
        [pgn::read_tree("1. h2e2 h9g7 (1... c6c5").map(|(r, _)| r), pgn::read("1. h2e2 h9g7 (1... c6c5")]
    {
        assert!(matches!(open, Err(PgnError::Unclosed { what: "variation", after: 1 })), "{open:?}");
    }
    // A plain record is written as before.
    let plain = pgn::write_tree(&record, &MoveTree::line(&back.moves), Format::Wxf);
    assert!(plain.ends_with("1. C2=5 H8+7 2. H2+3 *\n"), "{plain}");
}

#[test]
fn full_width_wxf_and_moves_without_spaces_are_read() {
    let expected = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for text in [
        "１．Ｃ２＝５Ｈ８＋７　２．Ｈ２＋３Ｒ９＝８ *",
        "1. Ｃ２＝５ Ｈ８＋７ 2. Ｈ２＋３ Ｒ９＝８ *",
        "1. C2=5H8+7 2. H2+3R9=8 *",
        "１．炮二平五马８进７　２．马二进三车９平８ *",
        "1. 炮二平五 馬8進7 2. 馬二進三 車9平8 *",
    ] {
        let record = pgn::read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(names(&record), expected, "{text}");
        let (tree_record, tree) = pgn::read_tree(text).unwrap();
        assert_eq!((tree_record.moves, tree.len()), (record.moves, 5), "{text}");
    }
    // A word that is no move whole or in parts is named whole.
    let err = pgn::read("1. C2=5H8+5 *").unwrap_err();
    assert!(err.to_string().contains("(C2=5H8+5)"), "{err}");
}

#[test]
fn a_record_is_history_the_rules_verdicts_noted_not_refused() {
    // Horses out and back until the start comes round a third time, then on.
    let mut moves: Vec<&str> = ["h0g2", "h9g7", "g2h0", "g7h9"].repeat(2);
    moves.extend(["h2e2", "h9g7"]);
    let text = format!("[Result \"1-0\"]\n\n{} 1-0\n", moves.join(" "));
    let record = pgn::read(&text).unwrap();
    let refused = record.to_game(Some(RuleSet::Asian)).unwrap_err();
    assert!(refused.to_string().contains("the game is over"), "{refused}");
    let history = record.history(Some(RuleSet::Asian)).unwrap();
    assert_eq!(history.judged.len(), 1, "{:?}", history.judged);
    assert_eq!(history.judged[0].ply, 8);
    assert!(
        matches!(history.judged[0].verdict, xiangqi::history::Verdict::Ended(o) if o.reason == Reason::Repetition)
    );
    assert_eq!(history.outcome(record.moves.len()), None, "the record goes on past the verdict");
    assert_eq!(record.tag("Result"), Some("1-0"), "the result is kept as written");
    // A move the board refuses is still refused, named as the record numbers it.
    let mut bad = pgn::read("1. h2e2 h9g7 2. h0g2 *").unwrap();
    // Black moving a red chariot.
    bad.moves.push(xiangqi::notation::iccs::parse(Position::<Standard>::tables(), "a0a1").unwrap());
    let err = bad.history(None).unwrap_err();
    assert!(err.to_string().starts_with("move 2... (a0a1)"), "{err}");
}
