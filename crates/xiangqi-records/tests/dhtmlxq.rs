//! DhtmlXQ blocks built here field by field, read back and written out.

use xiangqi::{Color, Move, Position, Standard};
use xiangqi_records::{Game, Limit, Limits, MoveTree, PgnError, Record, RecordError, dhtmlxq};

/// A block of the given fields.
fn block(fields: &[(&str, &str)]) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    for (name, value) in fields {
        out.push_str(&format!("[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]\n"));
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

fn read_one(text: &str) -> Result<Game, RecordError> {
    let mut all = dhtmlxq::read_all(text, &Limits::SITE);
    assert_eq!(all.len(), 1, "one block in {text}");
    all.remove(0)
}

/// The ICCS names of a line of moves played from a position.
fn names(start: &Position<Standard>, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let name = pos.move_name(m);
            pos.play_unchecked(m);
            name
        })
        .collect()
}

/// Plays ICCS moves after a node of a tree, checking each; the last node.
fn line(tree: &mut MoveTree, start: &Position<Standard>, from: usize, moves: &[&str]) -> usize {
    let mut pos = start.clone();
    for m in tree.path(from) {
        pos.play_unchecked(m);
    }
    let mut at = from;
    for text in moves {
        let m = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play_unchecked(m);
        at = tree.add(at, m);
    }
    at
}

#[test]
fn a_block_gives_its_tags_result_moves_and_comments() {
    let text = block(&[
        ("ver", "www_dpxq_com"),
        ("title", "胡荣华 胜 杨官璘"),
        ("event", "全国个人赛"),
        ("date", "1960-10-01"),
        ("place", "北京"),
        ("red", "上海 胡荣华"),
        ("black", "广东 杨官璘"),
        ("result", "红胜"),
        ("open", "中炮对屏风马"),
        ("ecco", "C00"),
        ("hits", "1234"),
        ("movelist", "77477062"),
        ("comment0", "开局||中炮"),
        ("comment2", "屏风马"),
    ]);
    let game = read_one(&text).unwrap();
    let tags: Vec<(&str, &str)> = game.record.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Title", "胡荣华 胜 杨官璘"),
            ("Event", "全国个人赛"),
            ("Date", "1960-10-01"),
            ("Site", "北京"),
            ("Red", "上海 胡荣华"),
            ("Black", "广东 杨官璘"),
            ("Result", "1-0"),
            ("Opening", "中炮对屏风马"),
            ("ECCO", "C00"),
        ]
    );
    assert_eq!(game.record.start, Position::startpos());
    assert_eq!(names(&game.record.start, &game.record.moves), ["h2e2", "h9g7"]);
    assert_eq!(game.tree.comment(MoveTree::ROOT), "开局\n中炮");
    assert_eq!(game.tree.comment(2), "屏风马");
}

#[test]
fn a_result_the_block_does_not_state_is_left_out() {
    for words in ["未知", "", "?"] {
        let game = read_one(&block(&[("result", words), ("movelist", "7747")])).unwrap();
        assert_eq!(game.record.tag("Result"), None, "{words:?}");
    }
    let game = read_one(&block(&[("result", "红先负")])).unwrap();
    assert_eq!(game.record.tag("Result"), Some("0-1"));
}

#[test]
fn variations_attach_where_their_numbers_say() {
    // Main line h2e2 h9g7 h0g2 i9h9. Variation 1 replaces ply 3 (h0g2) with
    // b2c2 b9c7; variation 2 replaces ply 4 of variation 1 (b9c7) with
    // i9h9; variation 3 is a second alternative to ply 3; variation 4
    // replaces the first move.
    let text = block(&[
        ("movelist", "7747706279678070"),
        ("move_0_3_1", "17271022"),
        ("move_1_4_2", "8070"),
        ("move_0_3_3", "2625"),
        ("move_0_1_4", "2625"),
        ("comment1_3", "炮八平七"),
        ("comment2_4", "车九平八"),
        ("comment3", "马二进三"),
    ]);
    let game = read_one(&text).unwrap();
    let start = Position::startpos();
    let mut want = MoveTree::new();
    let main = line(&mut want, &start, MoveTree::ROOT, &["h2e2"]);
    line(&mut want, &start, MoveTree::ROOT, &["c3c4"]);
    let second = line(&mut want, &start, main, &["h9g7"]);
    let third = line(&mut want, &start, second, &["h0g2"]);
    line(&mut want, &start, third, &["i9h9"]);
    want.set_comment(third, "马二进三");
    let alt = line(&mut want, &start, second, &["b2c2"]);
    want.set_comment(alt, "炮八平七");
    let alt_reply = line(&mut want, &start, alt, &["b9c7"]);
    let _ = alt_reply;
    let alt_side = line(&mut want, &start, alt, &["i9h9"]);
    want.set_comment(alt_side, "车九平八");
    line(&mut want, &start, second, &["c3c4"]);
    assert_eq!(game.tree, want);
    assert_eq!(names(&start, &game.record.moves), ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

#[test]
fn a_branch_may_come_before_the_line_it_branches_from() {
    let text = block(&[("move_1_3_2", "8988"), ("movelist", "77477062"), ("move_0_2_1", "10221727")]);
    let game = read_one(&text).unwrap();
    let second = game.tree.children(game.tree.children(MoveTree::ROOT)[0]).to_vec();
    assert_eq!(second.len(), 2);
    assert_eq!(game.tree.children(second[1]).len(), 2);
}

/// A game with nested variations, comments everywhere, a set-up start with
/// Black to move and tags of every kind.
fn rich_game() -> Game {
    let start: Position<Standard> = "3k5/4a4/9/9/9/9/9/4C4/4A4/3AK4 b - - 0 1".parse().unwrap();
    let mut tree = MoveTree::new();
    tree.set_comment(MoveTree::ROOT, "Black to move\nand draw");
    let a = line(&mut tree, &start, MoveTree::ROOT, &["d9d8"]);
    tree.set_comment(a, "main");
    let b = line(&mut tree, &start, a, &["e2e5"]);
    let c = line(&mut tree, &start, b, &["d8d9"]);
    line(&mut tree, &start, c, &["e5e2"]);
    let alt = line(&mut tree, &start, b, &["e8f9"]);
    tree.set_comment(alt, "an [aside] in brackets");
    let nested = line(&mut tree, &start, alt, &["e5e8"]);
    let deeper = line(&mut tree, &start, alt, &["e0f0"]);
    tree.set_comment(deeper, "deeper");
    line(&mut tree, &start, nested, &["d8e8"]);
    line(&mut tree, &start, nested, &["f9e8"]);
    let first_alt = line(&mut tree, &start, MoveTree::ROOT, &["e8f7"]);
    tree.set_comment(first_alt, "second choice");
    line(&mut tree, &start, MoveTree::ROOT, &["e8d7"]);
    let tags = [
        ("Title", "残局"),
        ("Event", "练习"),
        ("Red", "A"),
        ("Black", "B"),
        ("Result", "1/2-1/2"),
        ("Annotator", "C"),
        ("RuleSet", "asian"),
    ];
    let record = Record {
        tags: tags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        start,
        moves: vec![],
    };
    Game::new(record, tree)
}

#[test]
fn a_game_written_reads_back_the_same() {
    let game = rich_game();
    let text = dhtmlxq::write(&game);
    assert!(text.contains("[DhtmlXQ_binit]"), "{text}");
    let back = read_one(&text).unwrap();
    assert_eq!(back, game, "{text}");
    assert_eq!(back.record.start.turn(), Color::Black);
}

#[test]
fn a_game_from_the_usual_start_is_written_without_a_setup() {
    let start = Position::startpos();
    let mut tree = MoveTree::new();
    let a = line(&mut tree, &start, MoveTree::ROOT, &["h2e2", "h9g7", "h0g2"]);
    tree.set_comment(a, "line one\r\nline two");
    let game = Game::new(Record { tags: vec![], start, moves: vec![] }, tree);
    let text = dhtmlxq::write(&game);
    assert!(!text.contains("binit"), "{text}");
    assert!(text.contains("[DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]"), "{text}");
    assert!(text.contains("[DhtmlXQ_comment3]line one||line two[/DhtmlXQ_comment3]"), "{text}");
    let back = read_one(&text).unwrap();
    assert_eq!(back.tree.comment(3), "line one\nline two");
}

#[test]
fn a_binit_places_each_piece_by_its_slot_and_99_takes_it_off() {
    // Red: general e0 (49), one chariot a0 (09); Black: general e9 (40),
    // one soldier e6 (43). Black moves first.
    let mut squares = vec!["99"; 32];
    squares[4] = "49";
    squares[0] = "09";
    squares[16 + 4] = "40";
    squares[16 + 11] = "43";
    let game = read_one(&block(&[("binit", &squares.concat()), ("movelist", "4344")])).unwrap();
    assert_eq!(game.record.start.to_fen(), "4k4/9/9/4p4/9/9/9/9/9/R3K4 b - - 0 1");
    assert_eq!(names(&game.record.start, &game.record.moves), ["e6e5"]);
}

#[test]
fn a_binit_without_moves_gives_the_side_that_makes_the_position_legal() {
    // Black's general in check from a chariot on its file: Red cannot be the
    // side to move.
    let mut squares = vec!["99"; 32];
    squares[4] = "39";
    squares[0] = "45";
    squares[16 + 4] = "40";
    let game = read_one(&block(&[("binit", &squares.concat())])).unwrap();
    assert_eq!(game.record.start.turn(), Color::Black);
}

#[test]
fn a_fen_field_wins_over_binit() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 3 20";
    let game = read_one(&block(&[("binit", ""), ("fen", fen)])).unwrap();
    assert_eq!(game.record.start.to_fen(), fen);
}

#[test]
fn each_block_of_a_page_is_its_own_result_and_fields_outside_blocks_are_ignored() {
    let page = format!(
        "<html>[DhtmlXQ_title]outside[/DhtmlXQ_title]<br>{}<p>text</p>{}[/DhtmlXQ]{}</html>",
        block(&[("title", "one"), ("movelist", "7747")]),
        block(&[("title", "two"), ("movelist", "774")]),
        block(&[("title", "three"), ("movelist", "77477062")]),
    );
    let games = dhtmlxq::read_all(&page, &Limits::SITE);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().unwrap().record.tag("Title"), Some("one"));
    match &games[1] {
        Err(RecordError::Layout { what, .. }) => assert!(what.contains("3 digits"), "{what}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(games[2].as_ref().unwrap().record.moves.len(), 2);
}

#[test]
fn fields_the_module_does_not_know_are_kept_and_page_fields_are_not() {
    let game =
        read_one(&block(&[("init", "500,350"), ("generator", "x"), ("sponsor", "某公司"), ("hits", "9")]))
            .unwrap();
    assert_eq!(game.record.tags, [("sponsor".to_string(), "某公司".to_string())]);
}

#[test]
fn a_player_given_only_by_name_is_still_red() {
    let game = read_one(&block(&[("redname", "许银川"), ("blackname", "吕钦")])).unwrap();
    assert_eq!(game.record.tag("Red"), Some("许银川"));
    assert_eq!(game.record.tag("Black"), Some("吕钦"));
}

fn layout_error(text: &str) -> (usize, String) {
    match read_one(text) {
        Err(RecordError::Layout { offset, what }) => (offset, what),
        other => panic!("expected a layout error, got {other:?}"),
    }
}

#[test]
fn a_movelist_of_odd_length_is_refused() {
    let (_, what) = layout_error(&block(&[("movelist", "77477")]));
    assert!(what.contains("5 digits"), "{what}");
}

#[test]
fn a_movelist_with_letters_is_refused_where_they_stand() {
    let text = block(&[("movelist", "7747x062")]);
    let (offset, what) = layout_error(&text);
    assert_eq!(&text[offset..offset + 1], "x");
    assert!(what.contains("'x'"), "{what}");
}

#[test]
fn a_square_off_the_board_is_refused() {
    let (_, what) = layout_error(&block(&[("movelist", "9747")]));
    assert!(what.contains("off the board"), "{what}");
}

#[test]
fn a_branch_naming_a_missing_parent_is_refused() {
    let (_, what) = layout_error(&block(&[("movelist", "7747"), ("move_5_2_1", "7062")]));
    assert!(what.contains("line 5"), "{what}");
    let (_, what) = layout_error(&block(&[("movelist", "7747"), ("move_0_9_1", "7062")]));
    assert!(what.contains("move 9"), "{what}");
    let (_, what) =
        layout_error(&block(&[("movelist", "7747"), ("move_0_1_1", "2624"), ("move_0_1_1", "6664")]));
    assert!(what.contains("twice"), "{what}");
}

#[test]
fn a_branch_may_not_branch_before_its_own_first_move() {
    // Variation 1 starts at ply 2; a variation of it at ply 2 would be an
    // alternative to its first move, which belongs to the main line.
    let text = block(&[("movelist", "77477062"), ("move_0_2_1", "1022"), ("move_1_2_2", "8070")]);
    let (_, what) = layout_error(&text);
    assert!(what.contains("variation 2"), "{what}");
}

#[test]
fn a_bad_binit_is_refused() {
    let (_, what) = layout_error(&block(&[("binit", "0919")]));
    assert!(what.contains("64 digits"), "{what}");
    let mut squares = vec!["99"; 32];
    squares[4] = "49";
    squares[20] = "40";
    squares[0] = "94";
    let (_, what) = layout_error(&block(&[("binit", &squares.concat())]));
    assert!(what.contains("off the board"), "{what}");
    squares[0] = "49";
    let (_, what) = layout_error(&block(&[("binit", &squares.concat())]));
    assert!(what.contains("already"), "{what}");
    // Generals facing each other is no position.
    squares[0] = "99";
    assert!(matches!(
        read_one(&block(&[("binit", &squares.concat())])),
        Err(RecordError::Record(PgnError::Fen(_)))
    ));
}

#[test]
fn an_illegal_move_is_refused_with_its_ply_and_the_game_before_it_kept() {
    // Ply 3 moves the h2 cannon, which went to e2 on ply 1.
    let text = block(&[("movelist", "774770627747"), ("move_0_2_1", "1022"), ("comment2", "kept")]);
    match read_one(&text) {
        Err(RecordError::Cut { kept, error: PgnError::Move { ply, number, red, text, .. } }) => {
            assert_eq!((ply, number, red, text.as_str()), (3, 2, true, "h2e2"));
            assert_eq!(kept.record.moves.len(), 2);
            assert_eq!(kept.tree.len(), 4);
            assert_eq!(kept.tree.comment(2), "kept");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_illegal_move_in_a_variation_drops_only_the_rest_of_that_variation() {
    let text = block(&[("movelist", "77477062"), ("move_0_2_1", "10224020"), ("move_0_1_2", "2625")]);
    match read_one(&text) {
        Err(RecordError::Cut { kept, error: PgnError::Move { ply: 3, .. } }) => {
            assert_eq!(kept.record.moves.len(), 2);
            // The main line, the first move of variation 1, and variation 2.
            assert_eq!(kept.tree.len(), 5);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unclosed_block_or_field_is_refused_and_the_next_block_read() {
    let text =
        format!("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]{}", block(&[("movelist", "7747")]));
    let games = dhtmlxq::read_all(&text, &Limits::SITE);
    assert_eq!(games.len(), 2);
    assert!(matches!(&games[0], Err(RecordError::Layout { offset: 0, .. })));
    assert!(games[1].is_ok());
    let (offset, what) = layout_error("[DhtmlXQ]  [DhtmlXQ_title]x[/DhtmlXQ]");
    assert_eq!(offset, 11);
    assert!(what.contains("title"), "{what}");
}

#[test]
fn the_limits_hold_while_reading() {
    let limits = Limits { plies_per_line: 3, ..Limits::SITE };
    let games = dhtmlxq::read_all(&block(&[("movelist", "7747706279678070")]), &limits);
    assert!(matches!(
        &games[0],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::PliesPerLine, .. }))
    ));

    let limits = Limits { nodes_per_tree: 3, ..Limits::SITE };
    let games = dhtmlxq::read_all(&block(&[("movelist", "774770627967")]), &limits);
    assert!(matches!(
        &games[0],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::NodesPerTree, .. }))
    ));

    let limits = Limits { variation_depth: 1, ..Limits::SITE };
    let text = block(&[("movelist", "77477062"), ("move_0_2_1", "10221727"), ("move_1_3_2", "8988")]);
    let games = dhtmlxq::read_all(&text, &limits);
    assert!(matches!(
        &games[0],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::VariationDepth, .. }))
    ));

    let limits = Limits { games_per_file: 2, ..Limits::SITE };
    let text = block(&[("movelist", "7747")]).repeat(5);
    let games = dhtmlxq::read_all(&text, &limits);
    assert_eq!(games.len(), 3);
    assert!(matches!(
        &games[2],
        Err(RecordError::Record(PgnError::OverLimit { limit: Limit::GamesPerFile, .. }))
    ));

    // A ply number far past any line is refused before anything is built.
    let text = block(&[("movelist", "7747"), ("move_0_99999999_1", "7062")]);
    assert!(read_one(&text).is_err());
}

#[test]
fn no_cut_of_a_block_makes_the_reader_panic() {
    let text = dhtmlxq::write(&rich_game());
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = dhtmlxq::read_all(&text[..end], &Limits::SITE);
        let _ = dhtmlxq::read_all(&text[end..], &Limits::SITE);
    }
    let noise = "[DhtmlXQ][DhtmlXQ_[DhtmlXQ_move_0_0_0]]][/DhtmlXQ_move_0_0_0][DhtmlXQ_comment_][/DhtmlXQ_comment_][/DhtmlXQ]";
    let _ = dhtmlxq::read_all(noise, &Limits::SITE);
}

#[test]
fn looks_like_finds_a_block_only() {
    assert!(dhtmlxq::looks_like("x [DhtmlXQ ] y"));
    assert!(!dhtmlxq::looks_like("[DhtmlXQ_title]x[/DhtmlXQ_title]"));
    assert!(!dhtmlxq::looks_like("[Event \"x\"]"));
}

#[test]
fn a_block_of_many_small_fields_reads_in_time_proportional_to_its_size() {
    let mut text = String::from("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]");
    for i in 0..40_000 {
        text.push_str(&format!(
            "[DhtmlXQ_f{i}]v[/DhtmlXQ_f{i}][DhtmlXQ_move_0_2_{}][/DhtmlXQ_move_0_2_{}]",
            i + 1,
            i + 1
        ));
        text.push_str(&format!("[DhtmlXQ_comment{}_2]c[/DhtmlXQ_comment{}_2]", i + 1, i + 1));
    }
    text.push_str("[/DhtmlXQ]");
    let limits = Limits { file_bytes: text.len(), ..Limits::SITE };
    let started = std::time::Instant::now();
    let games = dhtmlxq::read_all(&text, &limits);
    assert_eq!(games[0].as_ref().unwrap().record.tags.len(), 40_000);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    // Blocks that never close, one after another, are each refused once.
    let text = "[DhtmlXQ][DhtmlXQ_title]x".repeat(20_000);
    let games =
        dhtmlxq::read_all(&text, &Limits { file_bytes: text.len(), games_per_file: 100_000, ..Limits::SITE });
    assert_eq!(games.len(), 20_000);
}
