"""Xiangqi (Chinese chess) rules, records and engine, in Rust: the types of the `xiangqi_rs` module."""

from __future__ import annotations

import sys

import os
from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

if sys.version_info >= (3, 11):
    from typing import Self
else:
    from typing_extensions import Self

__version__: str

_VariantName = Literal["standard", "hex"]
_RuleSetName = Literal["asian", "casual", "itsyourturn", "hex"]
_Notation = Literal["iccs", "old_iccs", "wxf", "chinese"]
_ReadNotation = Literal["any", "iccs", "old_iccs", "wxf", "chinese"]
_Side = Literal["red", "black"]
_Dtype = Literal["uint8", "float32"]
_MoveLike = Union["Move", str]
_Target = Union["Game", "Position", str]

class XiangqiError(ValueError):
    """The base of every error this module raises (a ValueError)."""

class FenError(XiangqiError):
    """A FEN that describes no legal position."""
    fen: str

class MoveError(XiangqiError):
    """A move that cannot be read, or that the board or the rule set refuses."""
    move_text: str
    reason: str
    ply: Optional[int]

class GameOverError(XiangqiError):
    """A move asked of a game that is over."""
    outcome: Outcome
    move_text: str

class RecordError(XiangqiError):
    """A game record that cannot be read, with the place it was refused at."""
    game: Optional[int]
    ply: Optional[int]
    move_number: Optional[int]
    move_text: Optional[str]
    line: Optional[int]
    offset: Optional[int]
    limit: Optional[str]

@final
class Move:
    """A move on a board: the cell it leaves and the cell it goes to (immutable, hashable)."""
    def __new__(cls, text: str, variant: _VariantName = "standard") -> Self:
        """A move from its coordinate name (`h2e2`, `H2-E2`, `e4e5`), legal or not."""
    @staticmethod
    def from_squares(from_square: int, to_square: int, variant: _VariantName = "standard") -> Move:
        """The move between two squares of the array grid (`row * 9 + file`)."""
    @property
    def iccs(self) -> str:
        """The coordinate name (`h2e2`)."""
    @property
    def from_name(self) -> str:
        """The name of the cell the move leaves."""
    @property
    def to_name(self) -> str:
        """The name of the cell the move goes to."""
    @property
    def from_square(self) -> int:
        """The square the move leaves on the array grid."""
    @property
    def to_square(self) -> int:
        """The square the move goes to on the array grid."""
    @property
    def variant(self) -> _VariantName:
        """The board."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Position:
    """A legal position on the standard or the hex board, changed in place by `play` and `undo`."""
    def __new__(cls, fen: Optional[str] = None, variant: _VariantName = "standard") -> Self:
        """A position from a FEN, or the start position."""
    @property
    def fen(self) -> str:
        """The FEN."""
    @property
    def variant(self) -> _VariantName:
        """The board."""
    @property
    def turn(self) -> _Side:
        """The side to move."""
    @property
    def halfmoves(self) -> int:
        """Plies since the last capture."""
    @property
    def fullmoves(self) -> int:
        """The move number."""
    @property
    def zobrist(self) -> int:
        """The Zobrist hash of the placement and the side to move."""
    @property
    def played(self) -> list[Move]:
        """The moves played on this object, oldest first."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_over(self) -> bool:
        """Whether the side to move has no legal move (and so has lost)."""
    def legal_moves(self) -> list[Move]:
        """The legal moves."""
    def legal_names(self) -> list[str]:
        """The legal moves by their coordinate names."""
    def is_legal(self, move: _MoveLike) -> bool:
        """Whether a move is legal here."""
    def why_illegal(self, move: _MoveLike) -> Optional[str]:
        """Why a move is illegal here, or None."""
    def parse_move(self, text: str, notation: _ReadNotation = "any") -> Move:
        """Reads a move in a notation; raises MoveError."""
    def write_move(self, move: _MoveLike, notation: _Notation = "iccs") -> str:
        """Writes a legal move in a notation."""
    def play(self, move: _MoveLike) -> Move:
        """Plays a legal move; raises MoveError."""
    def undo(self) -> Move:
        """Takes back the last move played on this object; raises IndexError."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies (without the GIL)."""
    def piece_at(self, cell: Union[str, int]) -> Optional[str]:
        """The FEN letter of the piece on a cell (by name or square), or None."""
    def pieces(self) -> dict[str, str]:
        """Every piece: cell name to FEN letter."""
    def planes(self, dtype: _Dtype = "uint8", mover_view: bool = False) -> npt.NDArray[Any]:
        """The position as an array of shape (14, rows, 9)."""
    def legal_move_arrays(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal moves' start and end squares."""
    def copy(self) -> Position:
        """An independent copy."""
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Outcome:
    """How a game ended: the winner (None for a draw) and the reason."""
    def __new__(cls, winner: Optional[_Side], reason: str) -> Self: ...
    @property
    def winner(self) -> Optional[_Side]:
        """`"red"`, `"black"`, or None for a draw."""
    @property
    def reason(self) -> str:
        """The reason's name (`"perpetual_check"`)."""
    @property
    def result(self) -> str:
        """`"1-0"`, `"0-1"` or `"1/2-1/2"`."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Game:
    """A start position, the moves played and a rule set that judges the history."""
    def __new__(
        cls,
        fen: Optional[str] = None,
        variant: Optional[_VariantName] = None,
        rules: Optional[_RuleSetName] = None,
    ) -> Self: ...
    @property
    def variant(self) -> _VariantName: ...
    @property
    def rules(self) -> _RuleSetName: ...
    @property
    def fen(self) -> str: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def turn(self) -> _Side: ...
    @property
    def ply_count(self) -> int: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def last_move(self) -> Optional[Move]: ...
    @property
    def zobrist(self) -> int: ...
    @property
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on."""
    def hashes(self) -> list[int]:
        """The Zobrist hash of every position so far, the start first."""
    def is_over(self) -> bool: ...
    def is_check(self) -> bool: ...
    def position(self) -> Position:
        """The current position (a copy)."""
    def legal_moves(self) -> list[Move]:
        """The legal moves now under the board's and the rule set's rules."""
    def legal_names(self) -> list[str]: ...
    def why_illegal(self, move: _MoveLike) -> Optional[str]: ...
    def parse_move(self, text: str, notation: _ReadNotation = "any") -> Move: ...
    def write_move(self, move: _MoveLike, notation: _Notation = "iccs") -> str: ...
    def written_moves(self, notation: _Notation = "iccs") -> list[str]: ...
    def play(self, move: _MoveLike) -> Move:
        """Plays a move; raises GameOverError or MoveError."""
    def undo(self) -> Optional[Move]: ...
    def finish(self, winner: Optional[_Side], reason: str) -> None:
        """Ends the game for a reason off the board."""
    def resign(self, side: _Side) -> None: ...
    def pgn(self, notation: _Notation = "iccs", tags: Optional[Mapping[str, Any]] = None) -> str: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...

@final
class Node:
    """One position of a record's tree of moves."""
    @property
    def id(self) -> int: ...
    @property
    def move(self) -> Optional[Move]: ...
    @property
    def comment(self) -> str: ...
    @property
    def children(self) -> list[Node]:
        """The main move first, then its variations."""
    @property
    def parent(self) -> Optional[Node]: ...
    def path(self) -> list[Move]:
        """The moves from the start to here."""

@final
class Verdict:
    """What a rule set would have judged at a ply of a record."""
    ply: int
    kind: Literal["ended", "forbidden"]
    outcome: Optional[Outcome]
    forbidden: Optional[Literal["fourth_check", "two_point_chase"]]

@final
class Record:
    """One game record: tags, start, main line and the whole tree."""
    @staticmethod
    def from_game(game: Game, tags: Optional[Mapping[str, Any]] = None) -> Record: ...
    @property
    def tags(self) -> dict[str, str]: ...
    def tag(self, name: str) -> Optional[str]: ...
    @property
    def start(self) -> Position: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def root(self) -> Node: ...
    @property
    def node_count(self) -> int: ...
    def game(self, rules: Optional[_RuleSetName] = None) -> Game: ...
    def history(self, rules: Optional[_RuleSetName] = None) -> list[Verdict]: ...
    def pgn(self, notation: _Notation = "iccs") -> str: ...
    def xqf(self) -> bytes: ...
    def dhtmlxq(self) -> str: ...

@final
class Score:
    """A search score from the side to move's view."""
    cp: Optional[int]
    mate: Optional[int]

@final
class Line:
    """One line of an analysis."""
    move: Move
    score: Score
    depth: int
    pv: list[Move]

@final
class Analysis:
    """The answer of a search."""
    best_move: Optional[Move]
    score: Optional[Score]
    depth: int
    nodes: int
    time: float
    pv: list[Move]
    lines: list[Line]

@final
class Engine:
    """The engine in this process."""
    def __new__(cls, hash_mb: int = 16, threads: int = 1, nnue: bool = True) -> Self: ...
    def analyse(
        self,
        target: _Target,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        multipv: int = 1,
        rules: Optional[_RuleSetName] = None,
        variant: _VariantName = "standard",
    ) -> Analysis:
        """Searches a game, position or FEN within a limit (without the GIL)."""
    def analyse_many(
        self,
        targets: Sequence[_Target],
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        threads: int = 1,
        rules: Optional[_RuleSetName] = None,
        variant: _VariantName = "standard",
    ) -> list[Analysis]:
        """Searches many targets over threads (without the GIL)."""
    def clear(self) -> None: ...

def legal_moves(fen: str, variant: _VariantName = "standard") -> list[str]:
    """The legal moves of a FEN by their coordinate names."""

def read_pgn(
    text: str, *, errors: Literal["raise", "skip"] = "raise", limits: Literal["archive", "site"] = "archive"
) -> list[Record]:
    """Every game of a PGN text in any dialect, with variations and comments."""

def read_file(
    source: Union[bytes, str, os.PathLike[str]],
    *,
    encoding: Optional[str] = None,
    errors: Literal["raise", "skip"] = "raise",
    limits: Literal["archive", "site"] = "archive",
) -> list[Record]:
    """Every record of a file of any format (PGN, XQF, DhtmlXQ, CBF, CBR, CBL)."""

def detect_format(data: bytes) -> Literal["PGN", "XQF", "DhtmlXQ", "CBF", "CBR", "CBL"]:
    """The format of a file's bytes, by content."""

def evaluate_many(
    positions: Sequence[Union[Position, str]],
    *,
    threads: int = 1,
    nnue: bool = True,
    variant: _VariantName = "standard",
) -> list[int]:
    """Static evaluations in centipawns from the side to move's view (without the GIL)."""

def planes(
    positions: Sequence[Position], *, dtype: _Dtype = "uint8", mover_view: bool = False
) -> npt.NDArray[Any]:
    """The planes of many positions of one board, shape (n, 14, rows, 9)."""

def board_mask(variant: _VariantName = "standard") -> npt.NDArray[np.uint8]:
    """1 where a grid square is a cell of the board, shape (rows, 9)."""
