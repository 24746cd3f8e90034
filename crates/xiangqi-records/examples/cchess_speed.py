#!/usr/bin/env python3
"""Times cchess, the Python reader of Xiangqi records, on the sample files
make_corpus writes, to set beside `read_speed sample` on the same files.

    python3 crates/xiangqi-records/examples/cchess_speed.py [DIR] [--runs N]

DIR is make_corpus's folder (target/records-bench of the workspace by
default); its sample/ holds each game as an .xqf file (tree, comments and
all) and as a .pgn file of its main line in ICCS, the PGN cchess reads. Each
format's files are read one at a time, by path, as cchess's readers take them,
--runs times (3); the best run is reported beside every run's figure. The
time is that of the reading alone: the import of cchess and the counting of
moves afterwards (which says whether cchess read what the Rust reader read)
are outside it.
"""

import contextlib
import os
import sys
import time

try:
    import cchess
    from importlib.metadata import version
except ImportError as missing:
    sys.exit(f"cchess cannot be imported ({missing}): python3 -m pip install cchess==1.25.5")

# cchess reads a tree of moves by recursion.
sys.setrecursionlimit(100_000)

READERS = {".xqf": cchess.read_from_xqf, ".pgn": cchess.read_from_pgn}


def moves_of(game):
    """Every move of a game's tree, variations included, walked with a stack."""
    if game is None or game.first_move is None:
        return 0
    count = 0
    todo = list(game.first_move.get_siblings(include_me=True))
    while todo:
        move = todo.pop()
        count += 1
        if move.next_move is not None:
            todo.extend(move.next_move.get_siblings(include_me=True))
    return count


def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at : at + 2]
    here = os.path.dirname(os.path.abspath(__file__))
    folder = args[0] if args else os.path.join(here, "..", "..", "..", "target", "records-bench")
    sample = os.path.join(folder, "sample")
    names = sorted(os.listdir(sample))
    print(f"cchess {version('cchess')}, Python {sys.version.split()[0]}")
    for ext, reader in READERS.items():
        paths = [os.path.join(sample, n) for n in names if n.lower().endswith(ext)]
        if not paths:
            continue
        times = []
        games = []
        for _ in range(runs):
            # What cchess prints about a file it finds odd is not wanted here.
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                started = time.perf_counter()
                games = [reader(p) for p in paths]
                times.append(time.perf_counter() - started)
        unread = sum(1 for g in games if g is None)
        moves = sum(moves_of(g) for g in games)
        best = min(times)
        each = ", ".join(f"{t:.3f} s" for t in times)
        print(
            f"{sample} ({ext} files): {len(paths)} games ({unread} unread), {moves} moves; "
            f"runs {each}; best {best:.3f} s: {len(paths) / best:.0f} games/s"
        )


if __name__ == "__main__":
    main()
