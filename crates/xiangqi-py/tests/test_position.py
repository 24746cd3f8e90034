import pytest

import xiangqi_rs as xq

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_start_position_reads_and_writes_its_fen():
    p = xq.Position()
    assert p.fen == START
    assert xq.Position(START) == p
    assert (p.variant, p.turn, p.halfmoves, p.fullmoves) == ("standard", "red", 0, 1)
    assert len(p.legal_moves()) == 44
    assert p.piece_at("e0") == "K" and p.piece_at("e9") == "k" and p.piece_at("e4") is None


def test_legal_moves_match_the_reference_file(legal_cases):
    assert len(legal_cases) >= 50
    for fen, moves, check in legal_cases:
        p = xq.Position(fen)
        expected = sorted(moves.split())
        assert sorted(p.legal_names()) == expected, fen
        assert sorted(str(m) for m in p.legal_moves()) == expected
        assert sorted(xq.legal_moves(fen)) == expected
        assert p.is_check() == (check == "check=1")


def test_perft_matches_the_reference_file(perft_cases):
    for fields in perft_cases:
        p = xq.Position(fields[0])
        for field in fields[1:4]:
            depth, nodes = field.split()
            assert p.perft(int(depth[1:])) == int(nodes), (fields[0], depth)


def test_play_and_undo_restore_fen_and_hash():
    p = xq.Position()
    hashes = [p.zobrist]
    for name in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]:
        played = p.play(name)
        assert str(played) == name
        hashes.append(p.zobrist)
    assert len(set(hashes)) == len(hashes)
    assert [str(m) for m in p.played] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    for expected in reversed(hashes[:-1]):
        p.undo()
        assert p.zobrist == expected
    assert p.fen == START
    with pytest.raises(IndexError):
        p.undo()


def test_transpositions_share_a_hash_and_counters_do_not_count():
    a, b = xq.Position(), xq.Position()
    for m in ["h2e2", "h9g7", "b2d2"]:
        a.play(m)
    for m in ["b2d2", "h9g7", "h2e2"]:
        b.play(m)
    assert a.zobrist == b.zobrist
    assert a.fen == b.fen


def test_moves_are_read_in_every_notation_and_written_back():
    p = xq.Position()
    for text, notation in [("h2e2", "iccs"), ("H2-E2", "any"), ("C2=5", "wxf"), ("炮二平五", "chinese"),
                           ("Ｃ２＝５", "any"), ("炮二平五", "any")]:
        assert str(p.parse_move(text, notation)) == "h2e2", text
    m = p.parse_move("h2e2")
    assert p.write_move(m, "wxf") == "C2=5"
    assert p.write_move(m, "chinese") == "炮二平五"
    assert p.write_move(m, "old_iccs") == "H2-E2"
    p.play("C2=5")
    assert str(p.parse_move("馬8進7")) == "h9g7"
    assert p.write_move("h9g7", "chinese") == "马8进7"


def test_illegal_moves_raise_with_the_move_and_the_reason():
    p = xq.Position()
    with pytest.raises(xq.MoveError) as caught:
        p.play("e0e2")
    assert caught.value.move_text == "e0e2"
    assert "general" in caught.value.reason
    assert isinstance(caught.value, xq.XiangqiError) and isinstance(caught.value, ValueError)
    with pytest.raises(xq.MoveError):
        p.parse_move("X9=9")
    assert p.why_illegal(xq.Move("a0a5")) is not None
    assert p.why_illegal(xq.Move("a0a1")) is None
    assert not p.is_legal("a0a5") and p.is_legal("a0a1")


def test_bad_fens_raise_fen_error_naming_the_fen():
    for fen in ["", "rnbakabnr/9 w", "4k4/9/9/9/9/9/9/9/9/4K4 w", "3k5/9/9/9/9/9/9/9/9/4K4 x"]:
        with pytest.raises(xq.FenError) as caught:
            xq.Position(fen)
        assert caught.value.fen == fen


def test_checkmate_leaves_no_legal_move():
    p = xq.Position("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert p.is_check() and p.is_over() and p.legal_moves() == []


def test_the_hex_board_has_its_own_cells_moves_and_fen():
    h = xq.Position(variant="hex")
    assert h.variant == "hex"
    assert xq.Position(h.fen, variant="hex") == h
    with pytest.raises(xq.FenError):
        xq.Position(h.fen)
    m = h.play("e4e5")
    assert m.variant == "hex" and m.from_name == "e4" and m.to_name == "e5"
    assert h.perft(2) == xq.Position(h.fen, variant="hex").perft(2)
    with pytest.raises(xq.MoveError):
        h.parse_move("C2=5", "wxf")
    h.undo()
    assert h.write_move("e4e5", "wxf") == "Pe4-e5"
    assert len(h.pieces()) == 32


def test_copies_are_independent():
    p = xq.Position()
    q = p.copy()
    q.play("h2e2")
    assert p.fen == START and q.fen != START
    assert len(q.played) == 1 and len(p.played) == 0


def test_moves_compare_by_board_and_cells():
    assert xq.Move("h2e2") == xq.Move("H2-E2")
    assert xq.Move("e4e5", "hex") != xq.Move("e4e5")
    assert len({xq.Move("h2e2"), xq.Move("h2e2"), xq.Move("b2e2")}) == 2
    assert repr(xq.Move("h2e2")) == "Move('h2e2')"
    with pytest.raises(ValueError):
        xq.Move("z9z9")
