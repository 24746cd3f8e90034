import threading
import time

import pytest

import xiangqi_rs as xq

MATE_IN_ONE = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"  # b7b9 mates


def test_a_depth_limited_search_answers_a_legal_move_with_its_line():
    p = xq.Position()
    a = xq.Engine().analyse(p, depth=5)
    assert a.depth == 5 and a.nodes > 0 and a.time >= 0
    assert a.best_move in p.legal_moves()
    assert a.pv[0] == a.best_move and a.score.mate is None and isinstance(a.score.cp, int)
    assert len(a.lines) == 1 and a.lines[0].move == a.best_move


def test_nodes_and_time_limits_bound_the_search():
    e = xq.Engine(nnue=False)
    a = e.analyse(xq.Position(), nodes=20_000)
    assert a.nodes < 40_000
    started = time.perf_counter()
    a = e.analyse(xq.Position(), time=0.2)
    assert a.best_move is not None and time.perf_counter() - started < 2.0
    with pytest.raises(ValueError):
        e.analyse(xq.Position())


def test_a_mate_is_found_and_scored_as_one():
    a = xq.Engine().analyse(MATE_IN_ONE, depth=4)
    assert a.score.mate == 1 and str(a.score) == "mate 1"
    p = xq.Position(MATE_IN_ONE)
    p.play(a.best_move)
    assert p.is_over() and p.is_check()


def test_multipv_gives_distinct_legal_lines_each_searched():
    p = xq.Position()
    a = xq.Engine().analyse(p, depth=4, multipv=4)
    moves = [line.move for line in a.lines]
    assert len(moves) == 4 and len(set(moves)) == 4
    assert all(m in p.legal_moves() for m in moves)
    assert a.lines[0].move == a.best_move
    assert all(line.depth == 4 and line.pv[0] == line.move for line in a.lines)
    few = xq.Engine().analyse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", depth=3, multipv=10)
    assert len(few.lines) == len(xq.Position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").legal_moves())
    with pytest.raises(ValueError):
        xq.Engine().analyse(p, depth=2, multipv=0)


def test_a_game_is_searched_with_its_history():
    g = xq.Game("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1")
    for m in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"]:
        g.play(m)
    # Black's d8d9 would be the third occurrence, which Red's perpetual check loses.
    a = xq.Engine().analyse(g, depth=3)
    assert a.best_move in g.legal_moves()
    g.play("d8d9")
    assert g.outcome.reason == "perpetual_check"
    over = xq.Engine().analyse(g, depth=3)
    assert over.best_move is None and over.lines == [] and over.score is None
    a = xq.Engine().analyse(xq.Game(variant="hex"), depth=3)
    assert a.best_move.variant == "hex"


def test_the_search_runs_without_the_gil():
    e = xq.Engine(nnue=False)

    def ticks_while(search):
        done = threading.Event()

        def run():
            search()
            done.set()

        ticks = 0
        t = threading.Thread(target=run)
        t.start()
        time.sleep(0.05)
        while not done.is_set():
            ticks += 1
        t.join()
        return ticks

    # Had a search held the GIL, this thread could not have counted meanwhile.
    assert ticks_while(lambda: e.analyse(xq.Position(), time=0.5)) > 10_000
    fens = [xq.Position().fen] * 4
    assert ticks_while(lambda: e.analyse_many(fens, time=0.15, threads=2)) > 10_000
    many = [xq.Position()] * 200_000
    assert ticks_while(lambda: xq.evaluate_many(many)) > 10_000


def test_a_batch_of_searches_over_threads_answers_in_order():
    fens = [xq.Position().fen, MATE_IN_ONE, "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1"]
    one = xq.Engine().analyse_many(fens, depth=3)
    two = xq.Engine().analyse_many(fens, depth=3, threads=2)
    assert [a.best_move for a in one[:2]] == [a.best_move for a in two[:2]]
    assert one[1].score.mate == 1 and two[1].score.mate == 1
    assert one[2].best_move is None and two[2].best_move is None and one[2].lines == []


def test_static_evaluations_of_many_positions():
    ps = [xq.Position(), xq.Position(MATE_IN_ONE)] * 3
    values = xq.evaluate_many(ps, threads=2)
    assert len(values) == 6 and values[:2] == values[2:4] == values[4:]
    assert values[1] > values[0] + 500  # two chariots up
    classical = xq.evaluate_many([p.fen for p in ps], nnue=False)
    assert classical[1] > classical[0] + 500
