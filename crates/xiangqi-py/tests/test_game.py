import pytest

import xiangqi_rs as xq

CHECKING = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1"  # Red chariot a8 checks the general on d9
CHASE = "5k3/9/9/2n6/9/9/9/R8/9/4K4 w - - 0 1"  # Red chariot a2 chases the horse on c6
CHASE_PROTECTED = "5k3/9/r8/2n6/9/9/9/R8/9/4K4 w - - 0 1"
CHECK_CYCLE = ["a8a9", "d9d8", "a9a8", "d8d9"] * 2
CHASE_CYCLE = ["a2c2"] + ["c6e7", "c2e2", "e7c6", "e2c2"] * 2


def played(fen, moves, rules):
    g = xq.Game(fen, rules=rules)
    for m in moves:
        assert g.outcome is None, (m, g.outcome)
        g.play(m)
    return g


def test_a_game_plays_in_any_notation_and_undoes():
    g = xq.Game()
    assert (g.variant, g.rules, g.turn) == ("standard", "asian", "red")
    for m in ["C2=5", "马8进7", "h0g2"]:
        g.play(m)
    assert g.written_moves("wxf") == ["C2=5", "H8+7", "H2+3"]
    assert g.written_moves("chinese") == ["炮二平五", "马8进7", "马二进三"]
    assert g.ply_count == 3 and str(g.last_move) == "h0g2"
    assert len(g.hashes()) == 4 and g.hashes()[-1] == g.zobrist
    assert str(g.undo()) == "h0g2" and g.ply_count == 2
    assert g.position().fen == g.fen


def test_checkmate_ends_the_game():
    g = xq.Game("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert g.outcome == xq.Outcome("red", "checkmate")
    assert g.outcome.result == "1-0" and g.legal_moves() == []
    with pytest.raises(xq.GameOverError) as caught:
        g.play("d9e9")
    assert caught.value.outcome.reason == "checkmate"


def test_asian_perpetual_check_loses():
    g = played(CHECKING, CHECK_CYCLE, "asian")
    assert (g.outcome.winner, g.outcome.reason) == ("black", "perpetual_check")
    assert str(g.outcome) == "Black wins: perpetual check"


def test_asian_perpetual_chase_of_an_unprotected_piece_loses():
    g = played(CHASE, CHASE_CYCLE, "asian")
    assert (g.outcome.winner, g.outcome.reason) == ("black", "perpetual_chase")


def test_asian_chase_of_a_protected_piece_is_a_drawn_repetition():
    g = played(CHASE_PROTECTED, CHASE_CYCLE, "asian")
    assert (g.outcome.winner, g.outcome.reason) == (None, "repetition")


def test_casual_repetition_draws_and_itsyourturn_lets_it_go_on():
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"] * 2
    assert played(None, shuffle, "casual").outcome == xq.Outcome(None, "repetition")
    assert played(None, shuffle, "itsyourturn").outcome is None


def test_itsyourturn_forbids_a_fourth_check_by_one_piece():
    g = played(CHECKING, CHECK_CYCLE[:6], "itsyourturn")
    assert "four turns" in g.why_illegal("a9a8")
    assert "a9a8" not in g.legal_names()
    with pytest.raises(xq.MoveError) as caught:
        g.play("a9a8")
    assert caught.value.move_text == "a9a8"
    g.play("a9a7")


def test_itsyourturn_forbids_a_two_point_chase():
    g = played(CHASE, CHASE_CYCLE[:4], "itsyourturn")
    assert g.why_illegal("e2c2") is not None
    assert g.why_illegal("e2e3") is None


def test_hex_recreating_a_position_loses():
    g = xq.Game(rules="hex")
    assert g.variant == "hex"
    # A piece of each side out and back: Black's return recreates the start.
    def back(m):
        return f"{m.to_name}{m.from_name}"

    def there_and_back():
        for red in g.legal_moves():
            g.play(red)
            for black in g.legal_moves():
                g.play(black)
                if back(red) in g.legal_names():
                    g.play(back(red))
                    if back(black) in g.legal_names():
                        return back(black)
                    g.undo()
                g.undo()
            g.undo()
        raise AssertionError("no move out and back")

    last = there_and_back()
    assert g.outcome is None and g.ply_count == 3
    g.play(last)
    assert (g.outcome.winner, g.outcome.reason) == ("red", "repetition")


def test_no_attackers_and_the_move_limit_draw():
    assert xq.Game("3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1").outcome == xq.Outcome(None, "no_attackers")
    assert xq.Game("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 120 80").outcome == xq.Outcome(None, "move_limit")
    assert xq.Game("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 120 80", rules="itsyourturn").outcome is None


def test_resignation_and_agreement_end_a_game_off_the_board():
    g = xq.Game()
    g.resign("red")
    assert g.outcome == xq.Outcome("black", "resignation")
    g = xq.Game()
    g.finish(None, "agreement")
    assert g.outcome.result == "1/2-1/2"
    with pytest.raises(ValueError):
        g.finish(None, "boredom")


def test_a_game_writes_pgn_that_reads_back():
    g = played(CHECKING, CHECK_CYCLE, "asian")
    text = g.pgn("wxf", tags={"Red": "A", "Black": "B"})
    assert '[Result "0-1"]' in text and '[Red "A"]' in text and '[Format "WXF"]' in text
    [record] = xq.read_pgn(text)
    assert [str(m) for m in record.moves] == CHECK_CYCLE
    assert record.game().outcome == g.outcome
