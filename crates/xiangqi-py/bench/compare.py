#!/usr/bin/env python3
"""Times xiangqi_rs beside pyffish (Fairy-Stockfish's wrapper) and cchess
(pure Python) on the same work, in one run, and prints each figure and the
ratios.

    python3 crates/xiangqi-py/bench/compare.py [--quick]

Needs, in one environment: the xiangqi-rs wheel that ci.sh builds (its
x86-64-v2 baseline), `pip install pyffish cchess==1.25.5 numpy`.

Each figure is the best of 3 runs of a loop. The positions are the 200
random-playout positions of the rules crate's legal-move reference file,
and the records are games of random legal moves made here from a fixed
seed: a PGN file per game (its main line in ICCS, the PGN cchess reads)
and an XQF file per game written by the records crate's writer
(`Record.xqf()`); every reader reads each file from its path, and the
moves each read are counted to check that all read the same games.
"""

import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import cchess
import pyffish
import xiangqi_rs as xq

QUICK = "--quick" in sys.argv
RUNS = 3
REFERENCE = Path(__file__).resolve().parents[2] / "xiangqi" / "tests" / "data" / "legal_moves.txt"


def best_time(work, repeat):
    """The best of RUNS runs of `work` called `repeat` times, in seconds per call."""
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        for _ in range(repeat):
            work()
        times.append(time.perf_counter() - started)
    return min(times) / repeat


def fens():
    lines = [line for line in REFERENCE.read_text().splitlines() if line and not line.startswith("#")]
    return [line.split(";")[0] for line in lines][:200]


ROWS = []


def row(task, ours, **others):
    """One line of the table: our time per unit and each other's, with the ratios."""
    ROWS.append((task, ours, others))
    parts = [f"xiangqi_rs {ours * 1e6:10.2f} µs"]
    for name, t in others.items():
        parts.append(f"{name} {t * 1e6:10.2f} µs ({t / ours:7.1f}x)")
    print(f"{task:46s} " + "   ".join(parts), flush=True)


def cchess_legal(board):
    """cchess generates moves by the pieces' rules; those that leave the
    mover's general attacked are dropped here, as its own game code does."""
    return [m for m in board.create_moves() if not board.is_checked_move(*m)]


def legal_moves_from_fen(positions):
    n = 1 if QUICK else 5

    def ours():
        for f in positions:
            xq.legal_moves(f)

    def ffish():
        for f in positions:
            pyffish.legal_moves("xiangqi", f, [])

    def cc():
        for f in positions:
            cchess_legal(cchess.ChessBoard(f))

    k = len(positions)
    for f in positions:
        assert len(xq.legal_moves(f)) == len(pyffish.legal_moves("xiangqi", f, [])), f
        assert len(xq.legal_moves(f)) == len(cchess_legal(cchess.ChessBoard(f))), f
    row("legal moves from a FEN string, per call", best_time(ours, n) / k,
        pyffish=best_time(ffish, n) / k, cchess=best_time(cc, 1) / k)


def legal_moves_held(positions):
    held = [xq.Position(f) for f in positions]
    boards = [cchess.ChessBoard(f) for f in positions]
    n = 1 if QUICK else 5

    def ours():
        for p in held:
            p.legal_moves()

    def cc():
        for b in boards:
            cchess_legal(b)

    k = len(positions)
    row("legal moves of a held position, per call", best_time(ours, n * 4) / k, cchess=best_time(cc, 1) / k)


def play_undo(positions):
    """One move played and taken back, from each position: a held position
    for xiangqi_rs; pyffish has no position object, so its way to play a
    move is the FEN after it (get_fen with the move)."""
    cases = []
    for f in positions:
        p = xq.Position(f)
        moves = p.legal_moves()
        if moves:
            m = moves[len(moves) // 2]
            uci = m.from_name[0] + str(int(m.from_name[1:]) + 1) + m.to_name[0] + str(int(m.to_name[1:]) + 1)
            cases.append((p, m, f, uci))
    n = 1 if QUICK else 20

    def ours():
        for p, m, _, _ in cases:
            p.play(m)
            p.undo()

    def ffish():
        for _, _, f, uci in cases:
            pyffish.get_fen("xiangqi", f, [uci])

    k = len(cases)
    row("play and undo one move", best_time(ours, n) / k, pyffish=best_time(ffish, 1) / k)


def fen_parse(positions):
    n = 1 if QUICK else 10

    def ours():
        for f in positions:
            xq.Position(f)

    def ffish():
        for f in positions:
            pyffish.validate_fen(f, "xiangqi")

    def cc():
        for f in positions:
            cchess.ChessBoard(f)

    k = len(positions)
    row("FEN parse (and check)", best_time(ours, n) / k, pyffish=best_time(ffish, n) / k,
        cchess=best_time(cc, 1) / k)


def perft():
    depth = 2 if QUICK else 3
    start = xq.Position().fen

    def ffish_perft(moves, d):
        legal = pyffish.legal_moves("xiangqi", start, moves)
        if d == 1:
            return len(legal)
        return sum(ffish_perft(moves + [m], d - 1) for m in legal)

    def py_perft(p, d):
        if d == 1:
            return len(p.legal_moves())
        n = 0
        for m in p.legal_moves():
            p.play(m)
            n += py_perft(p, d - 1)
            p.undo()
        return n

    p = xq.Position()
    assert p.perft(depth) == ffish_perft([], depth) == py_perft(p, depth)
    nodes = p.perft(depth)
    ours_native = best_time(lambda: p.perft(depth), 3)
    ours_py = best_time(lambda: py_perft(p, depth), 1)
    ffish = best_time(lambda: ffish_perft([], depth), 1)
    row(f"perft({depth}) from the start, per leaf (native)", ours_native / nodes, pyffish=ffish / nodes)
    row(f"perft({depth}) driven from Python, per leaf", ours_py / nodes, pyffish=ffish / nodes)


def make_games(count, seed=7):
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        g = xq.Game(rules="itsyourturn")
        for _ in range(rng.randint(40, 120)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        games.append(g)
    return games


def cchess_moves(game):
    count, move = 0, game.first_move if game is not None else None
    while move is not None:
        count += 1
        move = move.next_move
    return count


def records():
    count = 30 if QUICK else 300
    games = make_games(count)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        pgns, xqfs = [], []
        for i, g in enumerate(games):
            record = xq.Record.from_game(g)
            path = folder / f"{i}.pgn"
            path.write_text(record.pgn("iccs"))
            pgns.append(str(path))
            path = folder / f"{i}.xqf"
            path.write_bytes(record.xqf())
            xqfs.append(str(path))
        total = sum(g.ply_count for g in games)
        sys.setrecursionlimit(100_000)
        for name, paths, theirs in (("PGN", pgns, cchess.read_from_pgn), ("XQF", xqfs, cchess.read_from_xqf)):
            ours_read = [xq.read_file(p)[0] for p in paths]
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                their_read = [theirs(p) for p in paths]
            assert sum(len(r.moves) for r in ours_read) == total
            assert sum(cchess_moves(g) for g in their_read) == total, name

            def ours():
                for p in paths:
                    xq.read_file(p)

            def cc():
                with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                    for p in paths:
                        theirs(p)

            row(f"read {count} {name} files ({total} moves), per game", best_time(ours, 3) / count,
                cchess=best_time(cc, 1) / count)


def main():
    from importlib.metadata import version

    print(f"xiangqi_rs {xq.__version__}, pyffish {version('pyffish')}, cchess {version('cchess')}, "
          f"Python {sys.version.split()[0]}")
    positions = fens()
    legal_moves_from_fen(positions)
    legal_moves_held(positions)
    play_undo(positions)
    fen_parse(positions)
    perft()
    records()


if __name__ == "__main__":
    main()
