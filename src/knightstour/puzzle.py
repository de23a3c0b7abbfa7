"""Puzzle mode: judge a partly built tour, and find a next move that can still be completed.

A *position* is the path the player has built so far (distinct squares, each a knight's move from
the one before). It is won when every square is visited (and, in the closed-tour challenge, the
last square is a knight's move from the first); it is lost when no completion exists. Whether a
completion exists is decided by the exact search (:mod:`knightstour.solvers.backtrack`) on the
board with the visited squares removed: the rest of the tour is a path from the knight's square
through every unvisited square (in the closed challenge, ending on the start square).

Standard library and the package only, no web framework: the app calls :func:`assess`.

>>> from knightstour import Board
>>> pos = parse_position(Board(5, 5), "a1,c2")
>>> [pos.board.square_name(s) for s in legal_moves(pos)]
['e3', 'd4', 'b4', 'a3', 'e1']
>>> a = assess(pos, time_limit=10)
>>> a.status, a.hint in {"e1", "e3", "d4", "b4", "a3"}
('playing', True)
>>> print(assess(parse_position(Board(5, 5), "a1,c2,e3,c4"), time_limit=10).reason)
the 21 unvisited squares cannot all be visited from c4: the exact search proves it
"""

from __future__ import annotations

import datetime
import hashlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from knightstour.board import Board
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError

__all__ = [
    "DAILY_BOARDS",
    "STATUSES",
    "Assessment",
    "Position",
    "assess",
    "daily_puzzle",
    "legal_moves",
    "parse_position",
]

#: What :func:`assess` can say of a position.
STATUSES = ("playing", "won", "stuck", "lost", "unknown")


@dataclass(frozen=True)
class Position:
    """A partly built tour: the board, the squares visited in order, and the closed challenge."""

    board: Board
    path: tuple[int, ...]
    closed: bool = False

    @property
    def current(self) -> int | None:
        """The knight's square (the last one visited), or None before the first move."""
        return self.path[-1] if self.path else None

    def names(self) -> list[str]:
        """The visited squares in algebraic notation."""
        return [self.board.square_name(s) for s in self.path]


@dataclass(frozen=True)
class Assessment:
    """The verdict on a position: ``status`` (one of :data:`STATUSES`), a ``hint`` and why.

    ``hint`` is a square name from which a full tour can still be completed (the first square
    of a tour when nothing is visited yet), or None when there is none or it was not found in
    time.
    """

    status: str
    hint: str | None
    reason: str


def parse_position(board: Board, path: str | Iterable[str | int], closed: bool = False) -> Position:
    """A position from squares (a comma- or space-separated string, or a list), checked.

    >>> parse_position(Board(8, 8), "a1 c2, e3").names()
    ['a1', 'c2', 'e3']
    >>> parse_position(Board(8, 8), "a1,c3")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: path: move 2 (a1 to c3) is not a knight's move
    >>> parse_position(Board(8, 8), "a1,c2,a1")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: path: square a1 is visited twice (moves 1 and 3)
    """
    items: Sequence[str | int]
    if isinstance(path, str):
        items = [p for p in path.replace(",", " ").split() if p]
    else:
        items = list(path)
    if len(items) > board.size:
        raise InvalidInputError(
            f"path: {len(items)} squares, but the {board.spec} board has only {board.size}"
        )
    squares: list[int] = []
    seen: dict[int, int] = {}
    for i, item in enumerate(items, start=1):
        try:
            sq = board.parse_square(item)
        except InvalidInputError as e:
            raise InvalidInputError(f"path: move {i}: {e}") from None
        if sq in seen:
            raise InvalidInputError(
                f"path: square {board.square_name(sq)} is visited twice (moves {seen[sq]} and {i})"
            )
        if squares and not board.is_move(squares[-1], sq):
            raise InvalidInputError(
                f"path: move {i} ({board.square_name(squares[-1])} to "
                f"{board.square_name(sq)}) is not a knight's move"
            )
        seen[sq] = i
        squares.append(sq)
    return Position(board, tuple(squares), bool(closed))


def legal_moves(pos: Position) -> list[int]:
    """The unvisited squares a knight's move from the current one (every square at first).

    >>> len(legal_moves(parse_position(Board(3, 3), ""))), legal_moves(parse_position(Board(3, 3), "b2"))
    (9, [])
    """
    if not pos.path:
        return list(pos.board.squares())
    visited = set(pos.path)
    return [s for s in pos.board.moves(pos.path[-1]) if s not in visited]


def _completion(pos: Position, deadline: float) -> list[int]:
    """The rest of a tour from the position (squares after the current one), by exact search.

    Raises NoTourError when none exists and SearchFailedError when the deadline passes.
    """
    from knightstour.solvers.backtrack import exact_search

    b, path = pos.board, pos.path
    cur = path[-1]
    if pos.closed and len(path) == 1:
        rest = exact_search(b, cur, closed=True, deadline=deadline)
        return [int(s) for s in rest[1:]]
    if pos.closed:
        # a path from the knight through every unvisited square back onto the start square
        start = path[0]
        holed = replace(b, holes=b.holes | set(path[1:-1]))
        rest = exact_search(holed, cur, end=start, deadline=deadline)
        return [int(s) for s in rest[1:-1]]
    holed = replace(b, holes=b.holes | set(path[:-1]))
    rest = exact_search(holed, cur, deadline=deadline)
    return [int(s) for s in rest[1:]]


def _why(e: NoTourError) -> str:
    """The reason the exact search gives, said of the position rather than a board with holes.

    >>> _why(NoTourError("exhaustive search: no tour (1,234 positions examined)", positions=1234))
    'the exact search proves it (1,234 positions examined)'
    >>> _why(NoTourError("no tour from c4 on 5x5: c4 is not", positions=None))
    'c4 is not'
    """
    n = e.positions
    if n is not None:
        return "the exact search proves it" + ("" if n == 0 else f" ({n:,} positions examined)")
    return e.reason.split(": ", 1)[-1]


def assess(pos: Position, *, time_limit: float = 2.0) -> Assessment:
    """Judge a position: won, stuck, lost (proved), playing (with a hint), or unknown (timed out).

    >>> b = Board(5, 5)
    >>> assess(parse_position(b, ""), time_limit=10).status
    'playing'
    >>> assess(parse_position(b, ["a1", "b3", "d2", "c4"]), time_limit=10).status
    'lost'
    >>> assess(parse_position(Board(3, 3), "a1,c2,a3,b1,c3,a2,c1,b3")).status
    'stuck'
    >>> assess(parse_position(Board(4, 4), ""), time_limit=10).reason
    'no tour on 4x4: one of the four exceptions of the open-tour theorem (3x3, 3x5, 3x6, 4x4; Conrad et al. 1994), confirmed by exhaustive search'
    """
    from knightstour.existence import exists
    from knightstour.solvers import solve

    b, path, name = pos.board, pos.path, pos.board.square_name
    what = "closed tour" if pos.closed else "tour"
    if not path:
        answer = exists(b, closed=pos.closed)
        if answer.exists is False:
            return Assessment("lost", None, answer.reason)
        try:
            tour = solve(b, closed=pos.closed, time_limit=time_limit)
        except NoTourError as e:
            return Assessment("lost", None, e.reason)
        except SearchFailedError:
            return Assessment("unknown", None, f"no {what} found within {time_limit:g} s")
        return Assessment("playing", tour.start, f"a {what} can start on {tour.start}")
    if len(path) == b.size:
        if pos.closed and (b.size < 3 or not b.is_move(path[-1], path[0])):
            return Assessment(
                "lost",
                None,
                f"every square is visited, but {name(path[-1])} is not a knight's move from "
                f"the start {name(path[0])}, so the tour is not closed",
            )
        return Assessment("won", None, f"a {what}: all {b.size} squares visited")
    if not legal_moves(pos):
        return Assessment(
            "stuck",
            None,
            f"stuck on {name(path[-1])}: every square a knight's move away is visited",
        )
    deadline = time.monotonic() + time_limit
    try:
        rest = _completion(pos, deadline)
    except NoTourError as e:
        left = b.size - len(path)
        where = f"from {name(path[-1])}"
        if pos.closed:
            where += f" with a last move back to the start {name(path[0])}"
        return Assessment(
            "lost", None, f"the {left} unvisited squares cannot all be visited {where}: {_why(e)}"
        )
    except SearchFailedError:
        return Assessment(
            "unknown",
            None,
            f"the exact search could not decide within {time_limit:g} s whether this position "
            f"can still be completed",
        )
    hint = name(rest[0])
    return Assessment("playing", hint, f"a {what} can still be completed, for example via {hint}")


#: The boards a daily puzzle is drawn from (small enough for the exact search behind hints).
DAILY_BOARDS = ((5, 5), (6, 6), (7, 7), (8, 8))


def daily_puzzle(date: datetime.date) -> dict[str, Any]:
    """The puzzle of ``date``: a board of :data:`DAILY_BOARDS` and a start from which the
    theorems say an open tour exists, both from a hash of the date (no state, no clock), so
    that it is the same for everyone that day (the web's ``/api/daily``).

    >>> daily_puzzle(datetime.date(2026, 1, 1)) == daily_puzzle(datetime.date(2026, 1, 1))
    True
    >>> sorted(daily_puzzle(datetime.date(2026, 1, 1)))
    ['board', 'closed', 'date', 'height', 'start', 'width']
    """
    from knightstour.existence import exists

    h = int.from_bytes(hashlib.sha256(f"knightstour daily {date.isoformat()}".encode()).digest())
    w, ht = DAILY_BOARDS[h % len(DAILY_BOARDS)]
    b = Board(w, ht)
    starts = [s for s in range(b.area) if exists(b, s, search=False).exists is True]
    start = starts[(h // len(DAILY_BOARDS)) % len(starts)]
    return {
        "date": date.isoformat(),
        "board": f"{w}x{ht}",
        "width": w,
        "height": ht,
        "start": b.square_name(start),
        "closed": False,
    }
