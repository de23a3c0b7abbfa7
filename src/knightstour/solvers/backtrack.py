"""Exact search: depth-first backtracking in Warnsdorff order that proves absence.

The classic Java and Qt programs back up Warnsdorff's rule with a depth-first search whose
candidates are sorted by Warnsdorff's count. This is that search, compiled
(:mod:`knightstour.solvers._search`, loaded by :mod:`knightstour.solvers._jit`), with pruning that makes it prove absence quickly: squares
left with no way in or out, more than one square forced to be the last, unvisited squares cut off
from the knight, and colour counts. It never guesses: it returns a tour, raises
:class:`~knightstour.errors.NoTourError` ("proved none", with the number of positions examined) or,
when a ``deadline`` or ``node_limit`` stops it first,
:class:`~knightstour.errors.SearchFailedError` ("gave up").

>>> import knightstour as kt
>>> kt.solve("3x4", start="a1", method="backtrack").path[:3]
['a1', 'b3', 'c1']
>>> backtrack(SolveRequest(kt.Board(3, 7), start=kt.Board(3, 7).parse_square("b4")))
Traceback (most recent call last):
...
knightstour.errors.NoTourError: exhaustive search: no tour from b4 on 3x7 (... positions examined)

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
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError
from knightstour.solvers import Solution, SolveRequest, _jit, _search
from knightstour.solvers._clock import expired
from knightstour.solvers._search import EXHAUSTED, FOUND
from knightstour.theory import describe_tour, four_wide, obstruction, on_outer_line

__all__ = ["Search", "backtrack", "exact_search", "luby"]

#: Positions examined between two looks at the clock.
SLICE = 200_000
#: Positions of the shortest random restart (restarts get multiples of it, in Luby's sequence).
PROBE_UNIT = 1_000
#: A position costs time in proportion to the board (the connectivity check), so on big boards
#: slices and restarts shrink to keep about this much work (positions x squares) between two
#: looks at the clock: a time limit or Ctrl-C is then honoured within a fraction of a second.
SLICE_WORK = 50_000_000
#: Boards up to this many squares start their search interpreted (see :meth:`Search.advance`) ...
INTERPRETED_SQUARES = 256
#: ... for at most this many seconds (a search still running then switches to compiled code) ...
INTERPRETED_SECONDS = 0.05
#: ... in steps of at most this many positions between two looks at the clock.
INTERPRETED_CHUNK = 256


class Search:
    """The exact search on one board: arrays allocated once, reused for every start and end.

    :meth:`begin` sets up a search from one square (to an end square), :meth:`advance` runs it
    for a budget of positions and can be called again to go on where it stopped. ``compiled``
    chooses the kernels (default: compiled if already loaded or on a board of more than
    :data:`INTERPRETED_SQUARES` squares; else interpreted at first).

    >>> s = Search(Board(5, 5))
    >>> s.begin(0, None)
    >>> s.advance(10**6) == FOUND, s.path[:3].tolist()
    (True, [0, 7, 4])
    """

    def __init__(self, board: Board, *, compiled: bool | None = None) -> None:
        self.board = board
        self.nbr = np.ascontiguousarray(board.neighbour_table())
        n, size = board.area, max(board.size, 1)
        self.base_vis = np.zeros(n, dtype=np.uint8)
        if board.holes:
            self.base_vis[list(board.holes)] = 1
        self.vis = self.base_vis.copy()
        self.deg = np.zeros(n, dtype=np.int32)
        self.low_list = np.zeros(n, dtype=np.int32)
        self.low_pos = np.full(n, -1, dtype=np.int32)
        self.path = np.zeros(size, dtype=np.int32)
        self.cand = np.zeros((size, self.nbr.shape[1]), dtype=np.int32)
        self.ncand = np.zeros(size, dtype=np.int32)
        self.ci = np.zeros(size, dtype=np.int32)
        self.work = np.zeros((5, n), dtype=np.int32)
        self.mark = np.zeros(n, dtype=np.int64)
        idx = np.arange(n)
        self.info = np.zeros((3, n), dtype=np.int32)
        self.info[0] = idx  # tie-break among equal Warnsdorff counts: lower rank first
        self.info[1] = board.colour(idx)
        if four_wide(board):  # the outer lines: no move joins two of their squares
            self.info[2] = on_outer_line(board, idx)
        self.meta = np.zeros(16, dtype=np.int64)
        #: positions examined by every search so far
        self.nodes = 0
        #: seconds spent in the interpreted kernels (see :meth:`advance`)
        self.interpreted_seconds = 0.0
        if compiled is None:  # compiled when already loaded, or on a big board
            warm = _search.__name__ in _jit.compiled_modules()
            compiled = warm or board.size > INTERPRETED_SQUARES
        self._kernels = _jit.load(_search, compiled=compiled)

    @property
    def compiled(self) -> bool:
        """Whether the search runs compiled (else interpreted, until :data:`INTERPRETED_SECONDS`)."""
        return bool(self._kernels.compiled)

    def degree(self, square: int) -> int:
        """The number of moves from ``square``."""
        return int(np.count_nonzero(self.nbr[square] >= 0))

    def shuffle(self, rng: np.random.Generator) -> None:
        """Break ties between equal Warnsdorff counts at random from now on."""
        self.info[0] = rng.permutation(self.board.area).astype(np.int32)

    def _args(self) -> tuple[np.ndarray, ...]:
        return (
            self.nbr, self.vis, self.deg, self.low_list, self.low_pos, self.path, self.cand,
            self.ncand, self.ci, self.work, self.mark, self.info, self.meta,
        )  # fmt: skip

    def begin(self, first: int, end: int | None) -> None:
        """Set up a search for a path from ``first`` through every square (ending on ``end``)."""
        meta = self.meta
        self.vis[:] = self.base_vis
        meta[:] = 0
        meta[_search._SIZE] = self.board.size
        meta[_search._END] = -1 if end is None else end
        meta[_search._USEA] = int(bool(self.info[2].any()))
        self._kernels.start(*self._args(), first)

    def advance(self, budget: int) -> int:
        """Search on for at most ``budget`` positions: FOUND (see :attr:`path`), EXHAUSTED or BUDGET.

        On a small board the search starts interpreted (no Numba import: most small searches end
        in a few thousand positions, sooner than compiled code loads) and switches to the
        compiled kernels, on the same arrays, once it has run :data:`INTERPRETED_SECONDS`.
        """
        before = int(self.meta[_search._NODES])
        status = _search.BUDGET
        left = budget
        while left > 0 and not self.compiled:
            chunk = min(left, INTERPRETED_CHUNK)
            t0 = time.perf_counter()
            at = int(self.meta[_search._NODES])
            status = int(self._kernels.run(*self._args(), chunk))
            self.interpreted_seconds += time.perf_counter() - t0
            left -= int(self.meta[_search._NODES]) - at
            if status != _search.BUDGET:
                break
            if self.interpreted_seconds > INTERPRETED_SECONDS:
                self._kernels = _jit.load(_search, compiled=True)
        if left > 0 and self.compiled and status == _search.BUDGET:
            status = int(self._kernels.run(*self._args(), left))
        self.nodes += int(self.meta[_search._NODES]) - before
        return status

    @property
    def partial(self) -> np.ndarray:
        """The path the search is on."""
        return self.path[: int(self.meta[_search._DEPTH]) + 1].copy()


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's universal restart sequence: 1 1 2 1 1 2 4 1 1 2 ...

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class _Portfolio:
    """A complete search interleaved with short restarts that break ties at random.

    Depth-first search is heavy-tailed: one bad early choice can cost millions of positions while
    most orderings find a tour in a few hundred. So the complete search (which alone can prove
    absence) gets half of the work, in growing slices, and the other half goes to restarts with
    random tie-breaks and budgets in Luby's sequence. Either may answer: a restart that runs to
    the end without a tour is a proof too.
    """

    def __init__(
        self, board: Board, deadline: float | None, node_limit: int | None, seed: int
    ) -> None:
        self.main = Search(board)
        self.probe = Search(board)
        self.rng = np.random.default_rng(seed)
        self.deadline = deadline
        self.node_limit = node_limit
        self.restarts = 0
        self.slice_cap = max(20, min(SLICE, SLICE_WORK // max(board.size, 1)))
        self.unit = max(5, min(PROBE_UNIT, SLICE_WORK // 10 // max(board.size, 1)))

    @property
    def nodes(self) -> int:
        return self.main.nodes + self.probe.nodes

    def _step(self, search: Search, budget: int) -> int:
        if self.node_limit is not None:
            budget = min(budget, self.node_limit - self.nodes)
            if budget <= 0:
                raise self.gave_up("the node limit was reached", search)
        return search.advance(budget)

    def solve(self, first: int, end: int | None) -> np.ndarray | None:
        """A path from ``first`` (to ``end``) through every square, or None if there is none."""
        self.main.begin(first, end)
        slice_ = min(PROBE_UNIT, self.slice_cap)
        while True:
            status = self._step(self.main, slice_)
            if status == FOUND:
                return self.main.path.copy()
            if status == EXHAUSTED:
                return None
            self._check_clock()
            spent = 0
            while spent < slice_:
                self.restarts += 1
                self.probe.shuffle(self.rng)
                self.probe.begin(first, end)
                before = self.probe.nodes
                status = self._step(self.probe, self.unit * luby(self.restarts))
                spent += self.probe.nodes - before
                if status == FOUND:
                    return self.probe.path.copy()
                if status == EXHAUSTED:
                    return None
                self._check_clock()
            slice_ = min(2 * slice_, self.slice_cap)

    def _check_clock(self) -> None:
        if expired(self.deadline):
            raise self.gave_up("the time limit was reached", self.main)

    def gave_up(self, why: str, search: Search) -> SearchFailedError:
        return SearchFailedError(
            f"exact search gave up: {why} after {self.nodes:,} positions, with neither a tour "
            f"nor a proof that none exists",
            partial=search.partial,
            board=search.board,
        )


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
    seed: int | None = None,
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
    ruled_out = obstruction(board, start, end, closed)
    if ruled_out is not None:
        raise NoTourError(ruled_out.reason)
    if board.size == 1:
        return np.array([next(board.squares())], dtype=np.int32)
    board.require_memory(160, "the exact search")
    portfolio = _Portfolio(board, deadline, node_limit, 0 if seed is None else seed)
    for plan in _plans(portfolio.main, start, end, closed):
        path = portfolio.solve(plan.first, plan.end)
        if path is not None:
            return _orient(board, path, start, end, closed)
    raise NoTourError(
        f"exhaustive search: no {describe_tour(board, start, end, closed)} "
        f"({portfolio.nodes:,} positions examined)",
        positions=portfolio.nodes,
    )


def backtrack(request: SolveRequest, /, *, node_limit: int | None = None) -> Solution:
    """The ``backtrack`` method: :func:`exact_search`; the request's seed steers its restarts.

    It takes no tie-break (ties between equal counts go by square, then at random), and
    ``node_limit`` bounds the positions it examines.

    >>> int(backtrack(SolveRequest(Board(5, 5), start=12, seed=2)).indices[0])
    12
    """
    if node_limit is not None and (
        isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1
    ):
        raise InvalidInputError(f"node limit must be a positive integer, got {node_limit!r}")
    r = request
    path = exact_search(
        r.board, r.start, r.end, r.closed, deadline=r.deadline, node_limit=node_limit, seed=r.seed
    )
    return Solution(path, "backtrack")
