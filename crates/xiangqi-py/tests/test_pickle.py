import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import xiangqi_rs as xq


def line_after(position):
    """What a worker process does with a position it was sent."""
    position.undo()
    return position, position.legal_names()


def finish_game(game):
    game.play("h9g7")
    return game


def test_objects_round_trip_through_pickle():
    p = xq.Position()
    p.play("h2e2")
    q = pickle.loads(pickle.dumps(p))
    assert q == p and [str(m) for m in q.played] == ["h2e2"]
    q.undo()
    assert q == xq.Position()
    h = xq.Position(variant="hex")
    assert pickle.loads(pickle.dumps(h)).variant == "hex"
    m = xq.Move("e4e5", "hex")
    assert pickle.loads(pickle.dumps(m)) == m
    o = xq.Outcome("red", "perpetual_chase")
    assert pickle.loads(pickle.dumps(o)) == o
    assert copy.deepcopy(p) == p


def test_games_keep_their_moves_rules_and_declared_results():
    g = xq.Game(rules="casual")
    for m in ["h2e2", "h9g7"]:
        g.play(m)
    g.resign("black")
    back = pickle.loads(pickle.dumps(g))
    assert (back.rules, back.ply_count, back.outcome) == ("casual", 2, g.outcome)
    ended = xq.Game("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1")
    for m in ["a8a9", "d9d8", "a9a8", "d8d9"] * 2:
        ended.play(m)
    assert pickle.loads(pickle.dumps(ended)).outcome.reason == "perpetual_check"


def test_a_process_pool_takes_and_returns_them():
    p = xq.Position()
    p.play("h2e2")
    g = xq.Game()
    g.play("h2e2")
    # Fresh interpreters: each object is rebuilt from its pickle alone.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        (back, names), played = pool.submit(line_after, p).result(), pool.submit(finish_game, g).result()
    assert back == xq.Position() and len(names) == 44
    assert [str(m) for m in played.moves] == ["h2e2", "h9g7"]
    with ProcessPoolExecutor(max_workers=2) as pool:
        moves = list(pool.map(str, xq.Position().legal_moves()))
    assert sorted(moves) == sorted(xq.Position().legal_names())
