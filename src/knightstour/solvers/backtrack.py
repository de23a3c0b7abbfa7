"""Exact search: depth-first backtracking in Warnsdorff order that proves absence.

The classic Java and Qt programs back up Warnsdorff's rule with a depth-first search whose
candidates are sorted by Warnsdorff's count. This is that search, compiled
(:mod:`knightstour.solvers._search`), with pruning that makes it prove absence quickly: squares
left with no way in or out, more than one square forced to be the last, unvisited squares cut off
from the knight, and colour counts. It never guesses: it returns a tour, raises
:class:`~knightstour.errors.NoTourError` ("proved none", with the number of positions examined) or,
when a ``deadline`` or ``node_limit`` stops it first,
:class:`~knightstour.errors.SearchFailedError` ("gave up").

>>> import knightstour as kt
>>> kt.solve("3x4", start="a1", method="backtrack").path[:3]
['a1', 'c2', 'a3']
>>> backtrack(kt.Board(3, 7), kt.Board(3, 7).parse_square("b2"))
Traceback (most recent call last):
...
knightstour.errors.NoTourError: exhaustive search: no tour from b2 on 3x7 (... positions examined)

A closed tour is searched from the square with the fewest moves (a corner: both its moves are
forced) and then rotated to begin on the requested square; an open tour to a given ``end`` with
no start is searched backwards from the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board
from knightstour.errors import KnightsTourError, NoTourError, SearchFailedError

__all__ = ["Search", "backtrack", "colour_obstruction", "exact_search"]

#: Positions examined between two looks at the clock.
SLICE = 200_000


def colour_obstruction(
    board: Board, start: int | None, end: int | None, closed: bool
) -> str | None:
    """Why colour counts rule a tour out, or None (only for leapers that always change colour).

    >>> b = Board(5, 5)
    >>> colour_obstruction(b, 1, None, False)
    'b1 has the minority colour: the board has 13 squares of one colour and 12 of the other, and a path that alternates colours starts and ends on the majority colour'
    """
    a, c = board.leaper
    if (a + c) % 2 == 0:
        return None
    ones = sum(board.colour(q) for q in board.squares())
    zeros = board.size - ones
    if closed and ones != zeros:
        return (
            f"the board has {zeros} squares of one colour and {ones} of the other, and a closed "
            f"tour alternates colours, so it needs as many of each"
        )
    if abs(ones - zeros) > 1:
        return (
            f"the board has {zeros} squares of one colour and {ones} of the other, and a path "
            f"that alternates colours needs them within one"
        )
    name = board.square_name
    if ones != zeros:
        minority = 1 if ones < zeros else 0
        for sq in (start, end):
            if sq is not None and board.colour(sq) == minority:
                return (
                    f"{name(sq)} has the minority colour: the board has {max(ones, zeros)} "
                    f"squares of one colour and {min(ones, zeros)} of the other, and a path that "
                    f"alternates colours starts and ends on the majority colour"
                )
    elif start is not None and end is not None and board.colour(start) == board.colour(end):
        return (
            f"{name(start)} and {name(end)} have the same colour, but a path that alternates "
            f"colours over an even number of squares ends on the other colour"
        )
    return None


class Search:
    """The exact search on one board: arrays allocated once, reused for every start and end."""

    def __init__(self, board: Board) -> None:
        from knightstour.solvers import _search

        self._k = _search
        self.board = board
        self.nbr = np.ascontiguousarray(board.neighbour_table())
        n, size = board.area, board.size
        self.base_vis = np.zeros(n, dtype=np.uint8)
        if board.holes:
            self.base_vis[list(board.holes)] = 1
        self.deg = np.zeros(n, dtype=np.int32)
        self.low_list = np.zeros(n, dtype=np.int32)
        self.low_pos = np.full(n, -1, dtype=np.int32)
        self.path = np.zeros(max(size, 1), dtype=np.int32)
        self.cand = np.zeros((max(size, 1), self.nbr.shape[1]), dtype=np.int32)
        self.ncand = np.zeros(max(size, 1), dtype=np.int32)
        self.ci = np.zeros(max(size, 1), dtype=np.int32)
        self.work = np.zeros((5, n), dtype=np.int32)
        self.mark = np.zeros(n, dtype=np.int64)
        idx = np.arange(n)
        x, y = idx % board.width, idx // board.width
        self.info = np.zeros((3, n), dtype=np.int32)
        #: row 0, the tie-break among equal Warnsdorff counts: lower first (a rank per square)
        self.info[0] = idx
        self.info[1] = (x + y) & 1
        self.alternating = sum(board.leaper) % 2 == 1
        independent = _independent_lines(board)
        if independent is not None:
            self.info[2] = independent
        self.meta = np.zeros(8, dtype=np.int64)
        #: positions examined by every run so far
        self.nodes = 0

    def degree(self, square: int) -> int:
        """The number of moves from ``square``."""
        return int(np.count_nonzero(self.nbr[square] >= 0))

    def run(
        self, first: int, end: int | None, *, deadline: float | None, budget: int | None
    ) -> np.ndarray | None:
        """A Hamiltonian path from ``first`` (to ``end``); None when there is none.

        Raises :class:`SearchFailedError` when ``deadline`` (``time.monotonic()``) passes or
        ``budget`` positions are spent; the exception's ``partial`` is the path it was on.
        """
        k = self._k
        vis = self.base_vis.copy()
        meta = self.meta
        meta[:] = 0
        meta[k._SIZE] = self.board.size
        meta[k._END] = -1 if end is None else end
        meta[k._USEA] = int(self.alternating and bool(self.info[2].any()))
        args = (
            self.nbr, vis, self.deg, self.low_list, self.low_pos, self.path, self.cand,
            self.ncand, self.ci, self.work, self.mark, self.info, meta,
        )  # fmt: skip
        k.start(*args, first)
        spent = 0
        try:
            while True:
                step = SLICE if budget is None else min(SLICE, budget - spent)
                if step <= 0:
                    raise self._gave_up("the node limit was reached")
                status = k.run(*args, step)
                spent = int(meta[k._NODES])
                if status == k.FOUND:
                    return self.path[: self.board.size].copy()
                if status == k.EXHAUSTED:
                    return None
                if deadline is not None and time.monotonic() > deadline:
                    raise self._gave_up("the time limit was reached")
        finally:
            self.nodes += int(meta[k._NODES])

    def _gave_up(self, why: str) -> SearchFailedError:
        depth = int(self.meta[self._k._DEPTH])
        partial = self.path[: depth + 1].copy()
        return SearchFailedError(
            f"exact search gave up: {why} after {self.nodes + int(self.meta[self._k._NODES]):,} "
            f"positions, with neither a tour nor a proof that none exists",
            partial=partial,
            board=self.board,
        )


def _independent_lines(board: Board) -> np.ndarray | None:
    """The two outer lines of a knight's board four wide: no move joins two of their squares.

    Half the squares, so a tour alternates between them and the inner lines but for one move
    (the argument behind the 4 x n theorem); the search uses it to prune.
    """
    if board.leaper != (1, 2) or 4 not in (board.width, board.height):
        return None
    idx = np.arange(board.area)
    x, y = idx % board.width, idx // board.width
    outer = (y == 0) | (y == 3) if board.height == 4 else (x == 0) | (x == 3)
    return outer.astype(np.int32)


@dataclass(frozen=True)
class _Plan:
    first: int
    end: int | None


def _plans(search: Search, start: int | None, end: int | None, closed: bool) -> Iterator[_Plan]:
    """The (first square, last square) searches that together cover every possible tour."""
    b = search.board
    if start is not None and (end is not None or not closed):
        yield _Plan(start, end)
        return
    if closed:
        # any closed tour passes through the square with fewest moves, v, and leaves it by two of
        # its moves: search paths from v that end on each neighbour in turn, then rotate
        pivot = min(b.squares(), key=lambda q: (search.degree(q), q))
        for e in b.moves(pivot):
            yield _Plan(pivot, e)
        return
    if end is not None:  # searched backwards from the end
        yield _Plan(end, None)
        return
    squares = list(b.squares())
    forced = [q for q in squares if search.degree(q) <= 1]
    if forced:  # a square with one move is an end of every tour
        yield from (_Plan(q, None) for q in forced[:1])
        return
    # a corner-like square first: fewest moves, nearest a1
    for q in sorted(squares, key=lambda q: (search.degree(q), q)):
        yield _Plan(q, None)


def _describe(b: Board, start: int | None, end: int | None, closed: bool) -> str:
    name = b.square_name
    what = "closed tour" if closed else "tour"
    where = ""
    if start is not None:
        where += f" from {name(start)}"
    if end is not None:
        where += f" to {name(end)}"
    return f"no {what}{where} on {b.spec}"


def _orient(
    b: Board, path: np.ndarray, start: int | None, end: int | None, closed: bool
) -> np.ndarray:
    """The found path turned to begin on ``start`` / end on ``end`` (rotating a closed tour)."""
    if closed and (start is not None or end is not None):
        if start is not None:
            i = int(np.flatnonzero(path == start)[0])
            path = np.roll(path, -i)
            if end is not None and int(path[-1]) != end:
                path = np.roll(path[::-1], 1)
        else:
            i = int(np.flatnonzero(path == end)[0])
            path = np.roll(path, -(i + 1))
        return np.ascontiguousarray(path)
    if start is None and end is not None and int(path[0]) == end:
        return path[::-1].copy()
    return path


def exact_search(
    board: Board,
    start: int | None = None,
    end: int | None = None,
    closed: bool = False,
    *,
    deadline: float | None = None,
    node_limit: int | None = None,
) -> np.ndarray:
    """A tour found by exhaustive search, as square indices in visit order.

    Raises :class:`NoTourError` when the search proves there is none (the reason says so, with
    the number of positions examined) and :class:`SearchFailedError` when ``deadline``
    (``time.monotonic()`` seconds) or ``node_limit`` (positions) stops it first.

    >>> b = Board(5, 5)
    >>> exact_search(b, 0, 24).tolist()[-1]
    24
    >>> exact_search(Board(4, 4))
    Traceback (most recent call last):
    ...
    knightstour.errors.NoTourError: exhaustive search: no tour on 4x4 (... positions examined)
    """
    if board.size == 0:
        raise NoTourError("the board has no squares")
    name = board.square_name
    if closed and board.size < 3:
        raise NoTourError(f"no closed tour on {board.spec}: a closed tour needs at least 3 squares")
    if start is not None and end is not None:
        if start == end and board.size > 1:
            raise NoTourError(f"no tour from {name(start)} to itself: a tour visits each square once")
        if closed and not board.is_move(start, end):
            raise NoTourError(
                f"no closed tour from {name(start)} to {name(end)}: a closed tour ends a move "
                f"from its start, and {name(end)} is not"
            )
    why = colour_obstruction(board, start, end, closed)
    if why is not None:
        raise NoTourError(f"{_describe(board, start, end, closed)}: {why}")
    if board.size == 1:
        return np.array([next(board.squares())], dtype=np.int32)
    board.require_memory(80, "the exact search")
    search = Search(board)
    for plan in _plans(search, start, end, closed):
        budget = None if node_limit is None else node_limit - search.nodes
        if budget is not None and budget <= 0:
            raise search._gave_up("the node limit was reached")
        path = search.run(plan.first, plan.end, deadline=deadline, budget=budget)
        if path is not None:
            return _orient(board, path, start, end, closed)
    raise NoTourError(
        f"exhaustive search: {_describe(board, start, end, closed)} "
        f"({search.nodes:,} positions examined)"
    )


def backtrack(
    board: Board,
    start: int | None = None,
    *,
    end: int | None = None,
    closed: bool = False,
    tiebreak: str | None = None,
    seed: int | None = None,
    deadline: float | None = None,
    node_limit: int | None = None,
) -> np.ndarray:
    """The ``backtrack`` method: :func:`exact_search` (``tiebreak`` and ``seed`` do not apply)."""
    if node_limit is not None and (isinstance(node_limit, bool) or node_limit < 1):
        raise KnightsTourError(f"node limit must be a positive integer, got {node_limit!r}")
    return exact_search(board, start, end, closed, deadline=deadline, node_limit=node_limit)
