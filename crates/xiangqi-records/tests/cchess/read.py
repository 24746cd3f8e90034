#!/usr/bin/env python3
"""Reads every game file of a directory with cchess, the Python library, and
prints what it read as JSON, for the crate's differential test (tests/cchess.rs).

    python3 read.py DIR

The first line names the cchess version: {"cchess": "1.25.5"}. Then one line
per file, in the order of the names (one per game for a CCBridge library):

    {"file": NAME, "ok": true, "fen": the start's board, as in a FEN,
     "turn": "w" or "b" (cchess takes it from the first move),
     "tags": {what cchess exposes: title, event, red, black, result, ...},
     "main": the main line in ICCS ("h2e2"),
     "lines": every line from the start to its end, in ICCS,
     "comments": {"": the start's comment, "h2e2 h9g7": the comment after
                  that line's last move, ...}}

or {"file": NAME, "ok": false, "error": why cchess could not read it}. Files
are told apart by their extension: .xqf, .pgn, .cbf, .cbr and .cbl.
"""

import contextlib
import json
import os
import sys

try:
    import cchess
    from importlib.metadata import version
except ImportError as missing:
    sys.exit(f"cchess cannot be imported ({missing}): python3 -m pip install cchess==1.25.5")

# cchess reads a tree by recursion, a frame or more for each move.
sys.setrecursionlimit(100_000)

READERS = {
    ".xqf": cchess.read_from_xqf,
    ".pgn": cchess.read_from_pgn,
    ".cbf": cchess.read_from_cbf,
    ".cbr": cchess.read_from_cbr,
}


def children(move):
    """The moves that may follow a move, the main one first."""
    return list(move.next_move.get_siblings(include_me=True)) if move.next_move else []


def describe(game):
    """What cchess read of one game, as plain data."""
    fen = game.init_board.to_fen().split()
    first = list(game.first_move.get_siblings(include_me=True)) if game.first_move else []
    main = []
    move = game.first_move
    while move:
        main.append(move.to_iccs())
        move = move.next_move
    lines, comments = [], {}
    if game.annote:
        comments[""] = game.annote
    # A stack, not recursion: a line is as long as its record makes it.
    todo = [((), m) for m in reversed(first)]
    while todo:
        path, move = todo.pop()
        path = path + (move.to_iccs(),)
        if move.annote:
            comments[" ".join(path)] = move.annote
        after = children(move)
        if not after:
            lines.append(list(path))
        todo.extend((path, m) for m in reversed(after))
    tags = {k: str(v) for k, v in game.info.items() if v is not None}
    return {
        "ok": True,
        "fen": fen[0],
        "turn": fen[1] if len(fen) > 1 else "w",
        "tags": tags,
        "main": main,
        "lines": lines,
        "comments": comments,
    }


def read(path):
    """One result for a file, or one for each game of a library."""
    ext = os.path.splitext(path)[1].lower()
    # cchess prints what it finds odd; standard output is for the JSON.
    with contextlib.redirect_stdout(sys.stderr):
        if ext == ".cbl":
            library = cchess.read_from_cbl(path)
            if library is None:
                return [{"ok": False, "error": "cchess found no CCBridge library"}]
            return [dict(describe(g), game=i) for i, g in enumerate(library["games"])]
        reader = READERS.get(ext)
        if reader is None:
            return [{"ok": False, "error": f"cchess reads no {ext} files"}]
        game = reader(path)
        if game is None:
            return [{"ok": False, "error": "cchess found no game"}]
        return [describe(game)]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: read.py DIR")
    folder = sys.argv[1]
    print(json.dumps({"cchess": version("cchess")}))
    for name in sorted(os.listdir(folder)):
        try:
            results = read(os.path.join(folder, name))
        except Exception as failure:  # noqa: BLE001 - any failure is a finding
            results = [{"ok": False, "error": f"{type(failure).__name__}: {failure}"}]
        for result in results:
            print(json.dumps(dict(result, file=name), ensure_ascii=False))


if __name__ == "__main__":
    main()
