"""The web API's request and response models, for its OpenAPI schema.

Every answer about a board starts with the board's fields (:class:`BoardFields`, the JSON of
:func:`knightstour.notation.board_fields`): width and height, then only the options the board
has, so that a plain board's JSON is unchanged.

>>> list(TourOut.model_fields)[:6] == list(BoardFields.model_fields)
True
>>> TourIn.model_validate({"width": 4, "height": 4, "depth": 2, "xy": [[0, 0, 1]]}).xy
[(0, 0, 1)]
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt, ValidationInfo, field_validator

__all__ = [
    "ERRORS",
    "BoardFields",
    "CountOut",
    "ErrorOut",
    "ExistsOut",
    "MetricsOut",
    "NoTourOut",
    "NumbersCheckOut",
    "NumbersHintOut",
    "NumbersIn",
    "NumbersOut",
    "PartialOut",
    "PublishedOut",
    "PuzzleOut",
    "TourIn",
    "TourOut",
]


class BoardFields(BaseModel):
    """The board: width and height, and the options where it is not the plain knight's board."""

    width: int
    height: int
    depth: int | None = Field(None, description="layers of a 3-D board (absent: flat)")
    leaper: list[int] | None = Field(None, description="the piece's legs a, b (absent: knight)")
    wrap: Literal["cylinder", "torus"] | None = Field(
        None, description="the edges that moves wrap round (absent: none)"
    )
    holes: list[str] | None = Field(None, description="squares removed from the board")


class MetricsOut(BaseModel):
    """The shape of a tour or partial path (``metrics=true``; docs/geometry.md)."""

    squares: int
    moves: int = Field(description="moves drawn: a closed tour's closing move included")
    closed: bool
    crossings: int = Field(description="pairs of moves that meet and share no square")
    turns: int = Field(description="squares where the move in and the move out differ")
    directions: dict[str, int] = Field(description="moves of each vector, keyed 'dx,dy'")
    symmetries: list[str] = Field(description="the board's symmetries mapping it onto itself")
    displacement: tuple[int, int] = Field(description="dx, dy from the first square to the last")
    crossing_points: list[tuple[float, float, int]] | None = Field(
        None,
        description="where the moves cross: [x, y, k] a crossing, (x, y) in square coordinates "
        "(a1's centre is 0, 0), k the later move's number (the web board marks them); null "
        "past 50,000 crossings",
    )


class TourOut(BoardFields):
    """A tour: the contract's tour JSON."""

    closed: bool
    method: str
    path: list[str] = Field(description="squares in visit order, algebraic (a1 bottom-left)")
    xy: list[tuple[int, int] | tuple[int, int, int]] = Field(
        description="zero-based [x, y] pairs ([x, y, z] on 3-D boards) in visit order"
    )
    metrics: MetricsOut | None = Field(None, description="with metrics=true: the tour's shape")


class PartialOut(BaseModel):
    """How far a search that gave up got: the squares it visited, in order."""

    path: list[str] = Field(description="squares in visit order, algebraic")
    xy: list[tuple[int, int]] = Field(description="zero-based [x, y] pairs in visit order")


class ExistsOut(BoardFields):
    """The existence theory's answer: true, false or null (no theorem decides) and why."""

    exists: bool | None
    reason: str


class NoTourOut(ExistsOut):
    """No tour: ``exists`` is false when none exists (proved), null when the search gave up.

    A search that gave up may carry its ``partial`` path.
    """

    partial: PartialOut | None = None
    metrics: MetricsOut | None = Field(None, description="with metrics=true: the partial path's")


class PuzzleOut(BoardFields):
    """Puzzle mode's verdict on a partly built tour."""

    closed: bool
    path: list[str]
    status: Literal["playing", "won", "stuck", "lost", "unknown"]
    hint: str | None = Field(description="a next square from which a full tour can be completed")
    moves: list[str] = Field(description="the legal next squares")
    reason: str


class NumbersOut(BoardFields):
    """A number puzzle to play: its givens, never its solution (the page asks
    ``/api/numbers/check`` which entries are wrong)."""

    closed: bool
    level: str = Field(description="the level the puzzle was graded (easy to expert)")
    seed: int = Field(description="the seed that makes this puzzle again with board and level")
    givens: dict[str, int] = Field(description="the given numbers by square name")
    size: int = Field(description="N, the last number")
    daily: str | None = Field(None, description="the date of the daily puzzle (null: not daily)")


class NumbersIn(BaseModel):
    """A number puzzle being played: its board, its givens and the player's entries."""

    width: StrictInt
    height: StrictInt
    closed: StrictBool = False
    givens: dict[str, StrictInt] = Field(description="the puzzle's given numbers by square name")
    entries: dict[str, StrictInt] = Field(
        default_factory=dict, description="the numbers the player wrote, by square name"
    )


class NumbersCheckOut(BoardFields):
    """The entries that are wrong (the solution itself is not given)."""

    wrong: list[str] = Field(description="squares whose entry is not the solution's number")
    filled: bool = Field(description="every square holds a number")
    solved: bool = Field(description="every square holds the solution's number")


class NumbersHintOut(BoardFields):
    """The next deduction, in words, and the squares it concerns."""

    status: Literal["hint", "filled", "contradiction", "stuck"]
    reason: str
    number: int | None = Field(description="the number the deduction places")
    square: str | None = Field(description="where it goes")
    squares: list[str] = Field(description="the squares the deduction concerns, square first")
    kind: str | None = Field(description="the kind of deduction (docs/puzzles.md)")
    wrong: int = Field(
        description="how many numbers written are wrong (left out of the deduction; "
        "/api/numbers/check names them)"
    )


class PublishedOut(BaseModel):
    """A published figure the server did not compute, with its source."""

    value: int = Field(description="the published number of tours")
    value_text: str = Field(description="the number in decimal digits")
    source: str = Field(description="where it is published (an OEIS id and the work it credits)")
    convention: str = Field(description="what the number counts, in words")
    url: str | None = Field(description="the source on the web")


class CountOut(BoardFields):
    """The number of tours, when it is known or quick to count; else ``count`` null and why.

    A shaped board's answer also carries its ``depth``, ``leaper``, ``wrap`` or ``holes``.
    """

    kind: Literal["closed", "open"]
    start: str | None
    end: str | None
    directed: bool
    count: int | None = Field(
        description="the exact number of tours, proved or counted here; null: not counted here"
    )
    count_text: str | None = Field(
        description="the number in decimal digits (exact in JavaScript, whatever its size)"
    )
    convention: str = Field(description="what the number counts, in words")
    known: bool = Field(description="whether the number is given")
    source: Literal["theory", "computed"] | None = Field(
        description="theory: no tour can exist; computed: counted by this server (now or earlier)"
    )
    cached: bool = Field(description="counted by this server for an earlier request")
    method: str | None
    seconds: float | None = Field(description="how long the count took")
    reason: str | None = Field(
        description="why the number is not given, or the theorem that gives the 0"
    )
    published: PublishedOut | None = Field(
        description="the published figure of this count, or of the whole board when a square "
        "is named (its convention says which), labelled with its source; null: none"
    )


class ErrorOut(BaseModel):
    """Bad input: the message names the problem."""

    error: str


class TourIn(BoardFields):
    """A tour to draw: the contract's tour JSON (``path`` or ``xy``), on any board shape."""

    closed: bool = False
    method: str = ""
    path: list[str] | None = None
    xy: list[tuple[int, int] | tuple[int, int, int]] | None = None

    @field_validator("xy")
    @classmethod
    def _xy_fits_the_layers(cls, xy: list[tuple[int, ...]] | None, info: ValidationInfo) -> Any:
        """[x, y] pairs on a flat board, [x, y, z] triples on a 3-D one (``depth`` > 1)."""
        depth = info.data.get("depth") or 1
        want, shape = (3, "[x, y, z] triples") if depth > 1 else (2, "[x, y] pairs")
        for k, item in enumerate(xy or ()):
            if len(item) != want:
                raise ValueError(
                    f"item {k + 1} is {list(item)}: a board of depth {depth} has {shape}"
                )
        return xy


#: The error answers of the API's operations, for the schema (each ``{"error": "..."}``).
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "bad input (the message names the problem)"},
    422: {"model": ErrorOut, "description": "a malformed parameter"},
    503: {
        "model": ErrorOut,
        "description": "the server is busy, or the request's time cap passed before the answer "
        "(try again after Retry-After seconds)",
        "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}},
    },
}
