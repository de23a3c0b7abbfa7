"""Whether a tour can exist, and why not: the theory's verdict, then a bounded exact search.

:func:`exists` answers ``True``, ``False`` or ``None`` (undecided) with a human reason. The
theorems and parity arguments of :mod:`knightstour.theory` answer instantly on any board. Where
they are silent (given start and end squares, a closed tour through a given move, boards with
holes), given both ends, divide's construction answers on boards with both sides at least 6 and
the exact frontier sweep (:mod:`knightstour.solvers.sweep`) on boards 5 wide or less; else
a board of at most :data:`SEARCH_AREA` squares is settled by the exact search of
:mod:`knightstour.solvers.backtrack` within :data:`SEARCH_NODES` positions (within
:data:`SEARCH_SECONDS` on boards of up to :data:`FULL_SEARCH_AREA` squares, as ``auto``);
``None`` means that bound was hit, or the board is too large to search. The sources are cited in
:mod:`knightstour.theory`.

>>> exists("4x4").exists, exists("5x5", closed=True).reason.split(":")[0]
(False, 'no closed tour on 5x5')
>>> exists("8x8", start="a1", end="h8").reason
'no tour from a1 to h8: a1 and h8 have the same colour, but on a board with an even number of squares a tour starts and ends on different colours'
"""

from __future__ import annotations

import time
from functools import lru_cache

from knightstour.board import Board, BoardLike, brief, parse_board
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError
from knightstour.solvers import sweep
from knightstour.solvers.backtrack import exact_search
from knightstour.solvers.divide import plan_between
from knightstour.theory import Existence, describe_tour, verdict

__all__ = ["SEARCH_AREA", "SEARCH_NODES", "Existence", "exists", "start_squares"]

#: Boards up to this many squares are settled by the exact search where theory is silent ...
SEARCH_AREA = 100
#: ... within this many positions (about a second at most) ...
SEARCH_NODES = 1_000_000
#: ... but boards of up to this many squares get the bound that ``auto`` gives the exact search,
#: :data:`SEARCH_SECONDS` and no bound of positions, so that ``exists`` answers wherever
#: ``solve`` does ...
FULL_SEARCH_AREA = 64
#: ... (seconds).
SEARCH_SECONDS = 10.0


def exists(
    board: BoardLike,
    start: str | int | tuple[int, int] | None = None,
    *,
    end: str | int | tuple[int, int] | None = None,
    closed: bool = False,
    search: bool = True,
) -> Existence:
    """Whether a tour exists on ``board`` (from ``start``, to ``end``, closed), with the reason.

    The theory's :func:`~knightstour.theory.verdict` first, instantly. Where it is silent and
    both ends are given: divide's construction (both sides at least 6), or the exact sweep of
    a board 5 wide or less (unless ``search=False``). Else, on boards of at most
    :data:`SEARCH_AREA` squares, the exact search decides within
    :data:`SEARCH_NODES` positions (about a second at most; on boards of up to
    :data:`FULL_SEARCH_AREA` squares within :data:`SEARCH_SECONDS`) unless ``search=False``;
    ``exists`` is ``None`` when neither decides.

    >>> exists("5x5", start="b1").reason
    'no tour from b1 on 5x5: the board has 13 squares of the corner colour and 12 of the other; a knight alternates colours, so a tour starts and ends on the corner colour, and b1 is not'
    >>> exists("8x8", start="e4", closed=True).exists
    True
    >>> exists("4x5", start="b2").exists
    False

    Wrong types are bad input, named, never guessed at; so is an end square equal to the start:

    >>> exists("8x8", start=(0.5, 0))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start must be a square (a name like 'c3', 'x,y', an (x, y) pair of integers or an index), got (0.5, 0)
    >>> exists("8x8", closed="yes")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: closed must be True or False, got 'yes'
    >>> exists("8x8", start="a1", end="a1")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start and end are the same square, a1: ...
    """
    b = parse_board(board)
    closed = _flag(closed, "closed")
    search = _flag(search, "search")
    s = None if start is None else b.parse_square(start, argument="start")
    e = None if end is None else b.parse_square(end, argument="end")
    answer = verdict(b, s, e, closed)
    if answer.exists is not None:
        return answer
    built = _by_construction(b, s, e, closed)
    if built is not None:
        return built
    if search and s is not None and e is not None and sweep.takes(b):
        return _by_sweep(b, s, e, closed)
    return _by_search(search, b, s, e, closed, answer.reason)


def _by_construction(b: Board, s: int | None, e: int | None, closed: bool) -> Existence | None:
    """True where divide's construction between given ends builds the tour (both sides at least
    6: decided from the board's sides, without building it), else None. A closed tour whose end
    is a move from its start (theory ruled out any other) is a path between the two."""
    if s is None or e is None or not plan_between(b, s, e):
        return None
    what = describe_tour(b, s, e, closed)
    return Existence(
        True,
        f"a {what}, by construction: divide and conquer builds a path between the two squares"
        f"{', and they are a move apart' if closed else ''} (docs/divide.md)",
    )


@lru_cache(maxsize=256)
def _by_sweep(b: Board, s: int, e: int, closed: bool) -> Existence:
    """The exact sweep's answer on a board 5 wide or less (:func:`knightstour.solvers.sweep.
    decide`): whether a path joins ``s`` and ``e`` (for a closed tour, a move apart)."""
    found = sweep.decide(b, s, e)
    return Existence(found, sweep.reason(b, s, e, closed, found))


def _flag(value: object, argument: str) -> bool:
    """A bool argument: True or False (NumPy's too), nothing merely truthy."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise InvalidInputError(f"{argument} must be True or False, got {brief(value)}")


def _by_search(
    search: bool, b: Board, s: int | None, e: int | None, closed: bool, silent: str
) -> Existence:
    """The exact search's answer on a small board, within a bound; ``silent`` when not asked."""
    if not search:
        return Existence(None, silent)
    if b.size > SEARCH_AREA:
        return Existence(
            None, f"{silent} (and {b.description} is too large for a quick exhaustive search)"
        )
    return _search_answer(b, s, e, closed, silent)


@lru_cache(maxsize=4096)
def _search_answer(b: Board, s: int | None, e: int | None, closed: bool, silent: str) -> Existence:
    full = b.size <= FULL_SEARCH_AREA
    try:
        if full:
            exact_search(b, s, e, closed, deadline=time.monotonic() + SEARCH_SECONDS)
        else:
            exact_search(b, s, e, closed, node_limit=SEARCH_NODES)
    except NoTourError as err:
        return Existence(False, err.reason)
    except SearchFailedError:
        bound = f"{SEARCH_SECONDS:g} s" if full else f"{SEARCH_NODES:,} positions"
        return Existence(None, f"{silent}, and an exhaustive search gave up after {bound}")
    return Existence(True, f"exhaustive search finds a {describe_tour(b, s, e, closed)}")


def start_squares(board: BoardLike, *, closed: bool = False) -> dict[int, Existence]:
    """For every square, whether a tour starts there (:func:`exists` with that start).

    >>> m = start_squares("3x4")
    >>> "".join("Y" if m[q] else "." for q in sorted(m))
    'YYY......YYY'
    """
    b = parse_board(board)
    closed = _flag(closed, "closed")
    return {q: exists(b, q, closed=closed) for q in b.squares()}
