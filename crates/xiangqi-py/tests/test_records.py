import pytest

import xiangqi_rs as xq

DIALECTS = """[Game "Chinese Chess"]
[Event "iccs"]
[Red "胡荣华"]
[Format "ICCS"]

1. h2e2 h9g7 2. h0g2 i9h9 *

[Event "wxf"]
[Format "WXF"]

1. C2=5 H8+7 2. H2+3 R9=8 *

[Event "chinese"]

1. 炮二平五 馬８進７ 2. 马二进三 车9平8 *

[Event "old iccs, comments and variations"]

{opening} 1. H2-E2 {central cannon} (1. C3-C4 H9-G7 (1... G6-G5)) 1... H9-G7
2. H0-G2 (2. B0-C2) I9-H9 *

[Event "run together"]

1. C2=5H8+7 2. H2+3R9=8 *
"""


def test_every_dialect_reads_to_the_same_moves():
    records = xq.read_pgn(DIALECTS)
    assert len(records) == 5
    main = ["h2e2", "h9g7", "h0g2", "i9h9"]
    for r in records:
        assert [str(m) for m in r.moves] == main, r.tag("Event")
    assert records[0].tag("Red") == "胡荣华" and records[0].tags["Event"] == "iccs"


def test_variations_and_comments_are_kept_in_the_tree():
    r = xq.read_pgn(DIALECTS)[3]
    assert r.node_count == 8
    root = r.root
    assert root.move is None and root.comment == "opening"
    first, side = root.children
    assert (str(first.move), first.comment) == ("h2e2", "central cannon")
    assert str(side.move) == "c3c4"
    reply, nested = side.children
    assert (str(reply.move), str(nested.move)) == ("h9g7", "g6g5")
    assert [str(m) for m in nested.path()] == ["c3c4", "g6g5"]
    assert nested.parent.id == side.id
    again = xq.read_pgn(r.pgn("chinese"))[0]
    assert again.node_count == 8 and again.root.children[1].children[1].comment == ""
    assert "(" in r.pgn()


def test_a_bad_move_names_its_game_ply_and_text():
    text = "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 h9g7 2. h0g2 h9h2 *\n"
    with pytest.raises(xq.RecordError) as caught:
        xq.read_pgn(text)
    e = caught.value
    assert (e.game, e.ply, e.move_number, e.move_text) == (2, 4, 2, "h9h2")
    assert str(e).startswith("game 2: move 2... (h9h2)")
    assert isinstance(e, xq.XiangqiError)
    assert len(xq.read_pgn(text, errors="skip")) == 1


def test_a_malformed_tag_and_an_open_variation_are_record_errors():
    with pytest.raises(xq.RecordError) as caught:
        xq.read_pgn('[Event "a"\n\n1. h2e2 *\n')
    assert caught.value.game == 1 and caught.value.line == 1
    with pytest.raises(xq.RecordError):
        xq.read_pgn("1. h2e2 (1. c3c4 *\n")


def test_xqf_written_by_the_records_crate_reads_back(tmp_path):
    record = xq.read_pgn(DIALECTS)[3]
    data = record.xqf()
    assert xq.detect_format(data) == "XQF"
    path = tmp_path / "game.xqf"
    path.write_bytes(data)
    for source in (data, path, str(path)):
        [back] = xq.read_file(source)
        assert [str(m) for m in back.moves] == [str(m) for m in record.moves]
        assert back.node_count == record.node_count


def test_dhtmlxq_and_encoded_pgn_files_are_told_by_content():
    record = xq.read_pgn(DIALECTS)[0]
    block = record.dhtmlxq()
    assert xq.detect_format(block.encode()) == "DhtmlXQ"
    [back] = xq.read_file(block.encode())
    assert [str(m) for m in back.moves] == [str(m) for m in record.moves]
    gbk = '[Red "胡荣华"]\n1. 炮二平五 马８进７ *\n'.encode("gbk")
    [game] = xq.read_file(gbk)
    assert game.tag("Red") == "胡荣华" and len(game.moves) == 2
    [game] = xq.read_file(gbk, encoding="gbk")
    assert game.tag("Red") == "胡荣华"
    with pytest.raises(ValueError):
        xq.read_file(gbk, encoding="klingon")


def test_a_file_over_a_limit_is_refused_whole():
    many = "1. h2e2 *\n\n" * 2001
    with pytest.raises(xq.RecordError) as caught:
        xq.read_file(many.encode(), limits="site")
    assert caught.value.limit == "games per file" and caught.value.game is None
    assert len(xq.read_file(many.encode())) == 2001


def test_history_notes_what_the_rule_set_would_have_judged():
    moves = " ".join(["a8a9", "d9d8", "a9a8", "d8d9"] * 3)
    text = f'[FEN "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1"]\n\n{moves} *\n'
    [record] = xq.read_pgn(text)
    verdicts = record.history("asian")
    assert verdicts[0].ply == 8 and verdicts[0].kind == "ended"
    assert verdicts[0].outcome == xq.Outcome("black", "perpetual_check")
    forbidden = record.history("itsyourturn")
    assert forbidden[0].kind == "forbidden" and forbidden[0].forbidden == "fourth_check"
    assert forbidden[0].ply == 7
    with pytest.raises(xq.RecordError) as caught:
        record.game("itsyourturn")
    assert caught.value.ply == 7


def test_a_record_of_a_game_keeps_its_tags():
    g = xq.Game()
    g.play("h2e2")
    r = xq.Record.from_game(g, tags={"Red": "A"})
    assert r.tag("red") == "A" and r.tag("RuleSet") == "asian" and len(r.moves) == 1


def ccbridge_cbf(moves):
    """A CCBridge CBF record (its XML) with the given `<Move>` values, the start first."""
    body = "".join(f'<Move value="{v}" />' for v in ["00-00", *moves])
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<ChineseChessRecord Version="1.0"><Head>'
        "<Red>红方</Red><Black>黑方</Black><RecordResult>3</RecordResult>"
        f"</Head><MoveList>{body}</MoveList></ChineseChessRecord>\n"
    ).encode()


def test_a_ccbridge_record_is_read_by_read_file():
    data = ccbridge_cbf(["77-47", "70-62"])
    assert xq.detect_format(data) == "CBF"
    [game] = xq.read_file(data)
    assert [str(m) for m in game.moves] == ["h2e2", "h9g7"]
    assert (game.tag("Red"), game.tag("Result")) == ("红方", "1/2-1/2")
    with pytest.raises(xq.RecordError) as caught:
        xq.read_file(ccbridge_cbf(["77-47", "70-77"]))
    assert (caught.value.game, caught.value.ply, caught.value.move_text) == (1, 2, "h9h2")
