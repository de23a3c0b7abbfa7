"""The web API's query parameters: their formats, the models that group them, and their reading.

Each operation takes one query model (a route parameter ``q: Annotated[SolveQuery, Query()]``):
FastAPI checks every field's format (HTTP 422 naming the parameter, :data:`FORMATS`) and
publishes it in the schema. What a format cannot say (a square on the board, the size caps) is
checked after, with HTTP 400. The board's shape is read by the library's one board parser,
:func:`knightstour.board.parse_board` (docs/boards.md), so the web and the command line take
the same specs.

>>> q = SolveQuery(board="8x8", holes="d4,e5", closed="true", seed="7")
>>> q.shaped().description, flag("closed", q.closed), seed(q.seed), opt(q.start)
('8x8 holes=d4,e5', True, 7, None)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from knightstour.board import Board, parse_board
from knightstour.errors import InvalidInputError

__all__ = [
    "FORMATS",
    "MAX_CORNER_REACH",
    "CountQuery",
    "ExistsQuery",
    "NumbersQuery",
    "PuzzleQuery",
    "ShapeQuery",
    "SolveQuery",
    "capped",
    "corner_reach",
    "flag",
    "opt",
    "seed",
]

MethodName = Literal["auto", "warnsdorff", "backtrack", "divide"]
TiebreakName = Literal["", "first", "center", "random", "lookahead", "squirrel"]
BoolText = Literal["", "true", "false", "1", "0", "yes", "no", "on", "off"]
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("", "false", "0", "no", "off")

#: Formats of the text parameters: enforced (HTTP 422 naming the parameter) and published in
#: the schema.
BOARD_PATTERN = r"^ *[0-9]{1,10} *([xX×*] *[0-9]{1,10}( *[xX×*] *[0-9]{1,10})?)? *$"
SQUARE_PATTERN = (
    r"^ *([a-zA-Z]{1,4}[0-9]{1,6}(:[0-9]{1,6})?"
    r"|\(? *-?[0-9]{1,6} *, *-?[0-9]{1,6}( *, *-?[0-9]{1,6})? *\)?)? *$"
)
HOLES_PATTERN = r"^[a-zA-Z0-9:,; ]*$"
LEAPER_PATTERN = r"^ *([a-zA-Z]{0,12}|[0-9]{1,3} *, *[0-9]{1,3}) *$"
CORNERS_PATTERN = r"^ *[0-9]{0,4} *$"
MASK_PATTERN = r"^[.# /]*$"
PATH_PATTERN = r"^[a-zA-Z0-9:, ]*$"
SEED_PATTERN = r"^ *[0-9]{0,19} *$"
#: The most squares a ``corners`` cut may reach (:func:`corner_reach`) on a board the web API
#: shapes. The cut is made square by square, on the event loop, before any size cap can refuse
#: the board: unbounded, one schema-valid request (``board=6000&corners=3000``: 25 s) kept the
#: whole server from answering anything. No board of up to this many squares (the solve cap's
#: default) reaches it, whatever its corners.
MAX_CORNER_REACH = 10_000
#: What each formatted parameter should be, for the 422 message.
FORMATS = {
    "board": "a board spec: WxH (width x height) like 8x8, WxHxD like 4x4x4, or N",
    "holes": "squares like d4,e5 or zero-based 3,3;4,4, separated by commas (or semicolons, or spaces)",
    "corners": "a whole number of squares, like 2",
    "mask": "ranks top first separated by /, '.' a square and '#' a hole, like .#./...",
    "leaper": "a leaper's name (knight, camel, zebra, giraffe, antelope) or legs like 1,3",
    "start": "a square: algebraic like c3, or zero-based x,y",
    "end": "a square: algebraic like c3, or zero-based x,y",
    "path": "squares like a1,c2,e3 (c3:2 on a 3-D board) separated by commas",
    "seed": "a non-negative integer below 10**19",
}


def _text(
    description: str, pattern: str, example: str | None = None, longest: int = 40, default: str = ""
) -> str:
    """A text field whose format is enforced (HTTP 422) and published in the schema."""
    examples = None if example is None else [example]
    field: str = Field(
        default, description=description, examples=examples, pattern=pattern, max_length=longest
    )
    return field


def _start() -> str:
    return _text("start square, algebraic (a1) or zero-based x,y; empty: any", SQUARE_PATTERN)


def _end() -> str:
    return _text("end square; empty: any", SQUARE_PATTERN)


# -- the query models: each operation's parameters, in the order the schema lists them ---------
# (pydantic lists the fields of the bases first, the last base's first: ShapeQuery comes last
# in the bases so that the shape's fields follow the operation's own)


class BoardQuery(BaseModel):
    """The board spec, the parameter every board operation takes."""

    board: str = Field(
        description="board spec WxH (width x height), WxHxD or N",
        examples=["8x8"],
        pattern=BOARD_PATTERN,
        max_length=40,
    )


class ShapeQuery(BoardQuery):
    """The board's shape beyond WxH (docs/boards.md); empty: the plain knight's board."""

    holes: str = _text(
        "squares removed from the board, separated by commas (or semicolons, or spaces)",
        HOLES_PATTERN,
        "d4,e5",
        4000,
    )
    leaper: str = _text("the piece: a name or legs a,b; empty: the knight", LEAPER_PATTERN, "zebra")
    wrap: Literal["", "cylinder", "torus"] = Field(
        "", description="moves wrap round the left and right edges, or every edge"
    )
    corners: str = _text(
        "cut the four corners, rounded by R squares; empty: none", CORNERS_PATTERN, "2"
    )
    mask: str = _text(
        "the board's shape: ranks top first separated by /, '.' a square, '#' a hole (the "
        "board spec must match its size)",
        MASK_PATTERN,
        ".#./...",
        40_000,
    )

    def shaped(self) -> Board:
        """The board of the query: :func:`~knightstour.board.parse_board` (bad ones: 400), its
        corners cut only when the cut is small (:data:`MAX_CORNER_REACH`).

        >>> ShapeQuery(board="3x2", mask=".#./...").shaped().holes
        frozenset({4})
        >>> ShapeQuery(board="6000", corners="3000").shaped()
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidInputError: corners 3000 reach 36,000,000 squares of the 6000x6000 board, more than the 10,000 that the web API cuts (the command line's --corners takes any)
        """
        _check_corners(self.board, self.corners)
        return parse_board(
            self.board,
            holes=self.holes,
            mask=self.mask,
            corners=self.corners,
            leaper=self.leaper,
            wrap=self.wrap,
        )


def corner_reach(board: Board, r: int) -> int:
    """The most squares that cutting ``board``'s corners rounded by ``r`` visits
    (:meth:`~knightstour.board.Board.with_corners`): four boxes of ``r`` by ``r`` squares a
    layer, at most the layer; never more than the board's area.

    >>> corner_reach(Board(8, 8), 2), corner_reach(Board(6000, 6000), 3000), corner_reach(Board(8, 8), 9999)
    (16, 36000000, 64)
    """
    w, h = board.width, board.height
    return board.depth * min(w * h, 4 * min(r, w) * min(r, h))


def _check_corners(spec: str, corners: str) -> None:
    """Refuse (HTTP 400) a ``corners`` cut of ``spec`` that reaches more than
    :data:`MAX_CORNER_REACH` squares, before it is made; a bad spec or corners is left to
    :func:`~knightstour.board.parse_board` to name."""
    text = corners.strip()
    if not (text.isascii() and text.isdigit()):
        return
    try:
        plain = parse_board(spec)  # the spec alone: no square is visited
    except InvalidInputError:
        return
    r = int(text)
    reach = corner_reach(plain, r)
    if reach > MAX_CORNER_REACH:
        raise InvalidInputError(
            f"corners {r} reach {reach:,} squares of the {plain.spec} board, more than the "
            f"{MAX_CORNER_REACH:,} that the web API cuts (the command line's --corners takes any)"
        )


class _Ends(BoardQuery):
    start: str = _start()
    end: str = _end()
    closed: BoolText = Field("false", description="ask for a closed tour")


class ExistsQuery(ShapeQuery, _Ends):
    """``/api/exists``: the board, its shape, the ends and the kind of tour."""


class SolveQuery(ExistsQuery):
    """``/api/solve``: what ``/api/exists`` takes, and how to search."""

    method: MethodName = Field("auto", description="solving method")
    tiebreak: TiebreakName = Field("", description="Warnsdorff tie-break")
    seed: str = _text("seed for random tie-breaks; empty: none", SEED_PATTERN, "7")
    time_limit: float | None = Field(
        None, gt=0, description="seconds; capped by the server's time limit"
    )
    metrics: BoolText = Field(
        "false",
        description="also the tour's shape (crossings, turns, directions, symmetries, end "
        'displacement) as a "metrics" object; flat boards only',
    )


class _Path(BoardQuery):
    path: str = _text("the squares visited so far, comma-separated", PATH_PATTERN, "a1,c2", 4000)
    closed: BoolText = Field("false", description="the closed-tour challenge")


class PuzzleQuery(ShapeQuery, _Path):
    """``/api/puzzle``: the board, the squares visited so far and the challenge."""


class NumbersQuery(BoardQuery):
    """``/api/numbers``: a number puzzle's board, level and seed, or the daily one."""

    board: str = Field(
        "6x6",
        description="board spec WxH or N, sides 5 to 10",
        examples=["6x6"],
        pattern=BOARD_PATTERN,
        max_length=40,
    )
    level: Literal["easy", "medium", "hard", "expert"] = Field("easy", description="the level")
    seed: str = _text("the puzzle's seed; empty: a new one", SEED_PATTERN, "7")
    daily: str = Field(
        "false",
        description="the daily numbers puzzle: true for today's (UTC), or a day's date "
        "(YYYY-MM-DD, up to today) for that day's; board, level and seed are then ignored",
        examples=["true", "2026-11-29"],
        pattern=r"^(|true|false|1|0|yes|no|on|off|[0-9]{4}-[0-9]{2}-[0-9]{2})$",
    )


class _CountKind(BoardQuery):
    closed: BoolText = Field("false", description="count closed tours (default open)")
    start: str = _start()
    end: str = _end()
    directed: BoolText = Field(
        "true", description="count each tour once per direction (false: each path once)"
    )


class CountQuery(ShapeQuery, _CountKind):
    """``/api/count``: the board, the kind of tour, its ends, and the counting convention."""


# -- reading the values -----------------------------------------------------------------------


def flag(name: str, text: str) -> bool:
    """A yes-or-no parameter: true, 1, yes, on; false, 0, no, off or empty.

    >>> flag("closed", "Yes"), flag("closed", "")
    (True, False)
    """
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise InvalidInputError(f"{name} must be true or false, got {text!r}")


def opt(text: str | None) -> str | None:
    """A text parameter, or None when it is empty (empty parameters mean "not given")."""
    return text.strip() if text and text.strip() else None


def seed(text: str) -> int | None:
    """The seed parameter: a non-negative integer below 10**19, or None when empty."""
    value = text.strip()
    if not value:
        return None
    if not value.isascii() or not value.isdigit():
        raise InvalidInputError(f"seed must be a non-negative integer, got {text!r}")
    if len(value) > 19:
        raise InvalidInputError(f"seed must be below 10**19, got {value}")
    return int(value)


def capped(board: Board, cap: int, what: str) -> None:
    """Refuse a board of more than ``cap`` squares (HTTP 400), naming ``what`` takes that cap."""
    if board.size > cap:
        raise InvalidInputError(
            f"board {board.spec} has {board.size:,} squares, more than the {cap:,} that {what} "
            f"takes (use the command line, knightstour solve, for larger boards)"
        )
