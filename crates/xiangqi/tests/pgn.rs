//! PGN game records: writing in each move syntax, reading back, comments and
//! variations skipped, games from a FEN, and clear errors.

use xiangqi::{
    Game, Position, Reason, RuleSet, Standard,
    notation::pgn::{self, Format, PgnError, Record},
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
    assert!(matches!(pgn::read("1. h2e2 {never closed"), Err(PgnError::Unclosed("comment"))));
}
