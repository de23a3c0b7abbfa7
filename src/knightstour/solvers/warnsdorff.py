"""Warnsdorff's rule: always move to the square with the fewest onward moves.

One compiled walk (:func:`knightstour.kernels.walk.warnsdorff_walk`) serves every tie-break:

- ``first``: the first candidate in the fixed move order (:attr:`Board.deltas`), as the classic
  8 × 8 programs do;
- ``center``: the candidate farthest from the centre (Roth's rule), remaining ties to the first
  in move order. From ``a1`` on n × n boards it gets stuck at n = 11, 261, 352 and 379 of
  n = 5..450 and succeeds on every other (``benchmarks/bench_roth.py``, which also lists where
  ``first`` and ``lookahead`` get stuck);
- ``random``: uniformly at random, seeded by ``seed``;
- ``lookahead``: Warnsdorff's double look-ahead as Pohl (1967) described it: the smallest sum of
  the onward counts of the candidate's unvisited neighbours;
- ``squirrel``: Squirrel & Cull's (1996) switching move orderings, for square boards from a
  corner (see :mod:`knightstour.solvers.squirrel`).

Closed tours, and tours to a chosen end square, come from repeated walks with random ties that
keep the end square (for a closed tour, a neighbour of the start) for the last move.

>>> import knightstour as kt
>>> kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="first").path[:4]
['a1', 'c2', 'a3', 'b1']
>>> warnsdorff(SolveRequest(kt.Board(11, 11), start=0, tiebreak="center"))
Traceback (most recent call last):
...
knightstour.errors.SearchFailedError: Warnsdorff's rule (center ties) got stuck at ... after covering ... of 121 squares
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError, SearchFailedError
from knightstour.kernels import jit
from knightstour.kernels import walk as _kernels
from knightstour.kernels.walk import TIEBREAK_CODES
from knightstour.solvers import Solution, SolveRequest
from knightstour.solvers._clock import expired, watched
from knightstour.tour import search_failed

__all__ = ["DEFAULT_TIEBREAK", "TIEBREAKS", "Walker", "default_start", "honours_seed", "warnsdorff"]

TIEBREAKS: tuple[str, ...] = tuple(TIEBREAK_CODES)
DEFAULT_TIEBREAK = "center"

#: Walks tried for a closed tour or a fixed end before giving up (unless a time limit is set).
DEFAULT_ATTEMPTS = 2000
#: Squares a walk visits between two looks at the clock when it has a deadline (a few ms).
STEP = 1 << 16
#: Seconds a square costs to set up a :class:`Walker` (measured under 1 ns; with margin): a walk
#: with a deadline sooner than its set-up does not begin.
SETUP_SECONDS_PER_SQUARE = 2e-9


def default_start(board: Board) -> int:
    """The start square used when none is given: a corner (fewest moves), first in order.

    A corner has the corner colour and lies on an outer line, so it admits a tour on every board
    that has one (odd boards, 4 x n and 3 x n included).

    >>> default_start(Board(8, 8)), default_start(Board(3, 3, holes=frozenset({0})))
    (0, 2)
    """
    moves = {q: len(board.moves(q)) for q in (0, board.width - 1) if q not in board.holes}
    if moves:
        return min(moves, key=lambda q: (moves[q], q))
    return next(board.squares())


def honours_seed(request: SolveRequest) -> bool:
    """Whether Warnsdorff's rule uses the request's seed: for random ties, and for the repeated
    (random-tie) walks of a closed tour or a tour to an end square. Else a seed would be ignored,
    so :func:`warnsdorff` refuses it.

    >>> honours_seed(SolveRequest(Board(8, 8), tiebreak="random")), honours_seed(SolveRequest(Board(8, 8)))
    (True, False)
    """
    return request.closed or request.end is not None or request.tiebreak == "random"


@dataclass
class Walker:
    """Warnsdorff walks on one board, sharing the padded grid and onward counts between walks.

    >>> Walker(Board(5, 5)).walk(0, tiebreak="first")[:4].tolist()
    [0, 7, 4, 13]
    """

    board: Board
    walks: int = 1

    def __post_init__(self) -> None:
        self.board.require_memory(6, "Warnsdorff's rule")
        work = self.board.size * self.walks
        kernels = jit.for_work(_kernels, work, threshold=_kernels.COMPILE_THRESHOLD)
        self._walk = kernels.warnsdorff_walk
        self.state = np.zeros(_kernels.STATE_SIZE, dtype=np.int64)
        #: whether the last walk was stopped by its deadline (else it ended or got stuck)
        self.stopped = False
        self.out = np.empty(self.board.size, dtype=np.int32)
        b = self.board
        if b.is_flat:  # the board inside a border as wide as the leaper's longest leg
            self.pad = max(b.leaper)
            self.pwidth = b.width + 2 * self.pad
            self.dxs = np.array([dx for dx, _ in b.deltas], dtype=np.int64)
            self.dys = np.array([dy for _, dy in b.deltas], dtype=np.int64)
            self.moves = self.dys * self.pwidth + self.dxs
            self.table = np.zeros((0, 0), dtype=np.int64)
            self.key, self.nowhere = np.zeros(0, dtype=np.int64), 0
            holes = self._padded(np.fromiter(b.holes, dtype=np.int64, count=len(b.holes)))
            cells = kernels.flat_cells(b.width, b.height, self.pad, self.dxs, self.dys, holes)
        else:  # wrapped or 3-D: the same walk over the neighbour table
            self.pad, self.pwidth = 0, 1
            blocked = np.zeros(b.area, dtype=np.uint8)
            if b.holes:
                blocked[list(b.holes)] = 1
            cells, self.table = kernels.table_cells(b.neighbours, blocked)
            nm = self.table.shape[1] - 1
            self.moves, self.nowhere = np.arange(nm, dtype=np.int64), nm
            self.dxs = self.dys = np.zeros(nm, dtype=np.int64)
            self.key = _centre_keys(b)
        # one walk takes the cells as they are; repeated walks each take a copy
        self._cells: np.ndarray | None = cells
        self._make_cells = (
            (lambda: kernels.flat_cells(b.width, b.height, self.pad, self.dxs, self.dys, holes))
            if b.is_flat
            else (lambda: kernels.table_cells(b.neighbours, blocked)[0])
        )
        self.cells0 = cells.copy() if self.walks > 1 else None
        nm = len(self.moves)
        self.fixed_order = (np.arange(nm, dtype=np.int64)[None, :], np.full(1, -1, dtype=np.int64))
        self._fixed_rows = self._rows(self.fixed_order[0])

    def _rows(self, orders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _kernels.move_rows(self.moves, self.dxs, self.dys, orders, self.nowhere)

    def _padded(self, squares: np.ndarray) -> np.ndarray:
        """Board squares (flat boards) as padded cells."""
        w = self.board.width
        return (squares // w + self.pad) * self.pwidth + squares % w + self.pad

    def _fresh_cells(self) -> np.ndarray:
        """The cells of an empty board for the next walk."""
        if self._cells is not None:
            cells, self._cells = self._cells, None
            return cells
        return self.cells0.copy() if self.cells0 is not None else self._make_cells()

    def walk(
        self,
        start: int,
        *,
        end: int | None = None,
        tiebreak: str = DEFAULT_TIEBREAK,
        seed: int = 0,
        schedule: tuple[np.ndarray, np.ndarray] | None = None,
        deadline: float | None = None,
    ) -> np.ndarray:
        """One walk from board square ``start``; the visited squares (a view, copy to keep).

        ``schedule`` is ``(orders, cells)``: move orderings (rows of indices into
        :attr:`Board.deltas`) and the board squares on which each hands over to the next
        (-1: never); the default is one fixed order. At ``deadline`` (``time.monotonic()``)
        the walk stops where it is and :attr:`stopped` says so: it looks at the clock every
        :data:`STEP` squares.
        """
        orders, cells = schedule if schedule is not None else self.fixed_order
        rows = self._fixed_rows if schedule is None else self._rows(orders)
        b = self.board
        if b.is_flat:
            pwidth, pad = self.pwidth, self.pad
            switch_cells = np.where(cells >= 0, self._padded(cells), -1)
            first = int(self._padded(np.array(start, dtype=np.int64)))
            last = -1 if end is None else int(self._padded(np.array(end, dtype=np.int64)))
        else:
            pwidth, pad = 1, 0
            switch_cells = cells.astype(np.int64)
            first, last = int(start), -1 if end is None else int(end)
        args = (
            self._fresh_cells(),
            rows[0],
            self.table,
            rows[1],
            rows[2],
            self.key,
            orders.shape[1],
            switch_cells,
            first,
            last,
            b.size,
            TIEBREAK_CODES[tiebreak],
            int(seed) & 0x7FFFFFFFFFFFFFFF,
            pwidth,
            pad,
            b.width,
            b.height,
            self.out,
            self.state,
        )
        self.stopped = False
        self.state[:] = 0
        return self._stepped(lambda limit: int(self._walk(*args, limit)), b.size, deadline)

    def _stepped(self, steps: Callable[[int], int], n: int, deadline: float | None) -> np.ndarray:
        """Walk ``STEP`` squares at a time (``steps(limit)`` goes on to ``limit`` squares),
        looking at the clock between calls; the squares walked."""
        limit = n if deadline is None and not watched() else min(n, STEP)
        while True:
            count = steps(limit)
            if count < limit or count == n:  # stuck, or the whole board
                break
            if expired(deadline):
                self.stopped = True
                break
            limit = min(n, limit + STEP)
        return self.out[:count]


def _centre_keys(board: Board) -> np.ndarray:
    """How far each square lies from the centre of its board (4 x the squared distance)."""
    idx = np.arange(board.area, dtype=np.int64)
    w, h = board.width, board.height
    x, y, z = idx % w, idx // w % h, idx // (w * h)
    dx, dy, dz = 2 * x - (w - 1), 2 * y - (h - 1), 2 * z - (board.depth - 1)
    return dx * dx + dy * dy + dz * dz


def _schedule(board: Board, start: int, tiebreak: str) -> tuple[np.ndarray, np.ndarray] | None:
    if tiebreak != "squirrel":
        return None
    from knightstour.solvers.squirrel import schedule

    return schedule(board, start)


def warnsdorff(request: SolveRequest, /, *, attempts: int | None = None) -> Solution:
    """A tour by Warnsdorff's rule; raises :class:`SearchFailedError` if stuck.

    An open tour with no end square is one walk from the start (:func:`default_start` when none
    is given), ties broken by the request's tie-break (``center`` by default). A closed tour, or
    one to the request's end, is tried up to ``attempts`` times (random ties after the first walk,
    seeded by the request's seed) or until its deadline.

    >>> r = SolveRequest(Board(6, 6), start=0, closed=True, seed=1)
    >>> len(warnsdorff(r).indices)
    36
    """
    board, end, closed = request.board, request.end, request.closed
    tb = request.tiebreak or DEFAULT_TIEBREAK
    if request.seed is not None and not honours_seed(request):
        raise InvalidInputError(
            f"the seed would be ignored: with {tb} ties an open tour is one fixed walk, and a "
            f"seed steers only random ties (and the retries of closed tours and fixed ends): "
            f"add tiebreak='random' (--tiebreak random), or leave out the seed"
        )
    n_attempts = attempts if attempts is not None else DEFAULT_ATTEMPTS
    if isinstance(n_attempts, bool) or not isinstance(n_attempts, int) or n_attempts < 1:
        raise InvalidInputError(f"attempts must be at least 1, got {n_attempts!r}")
    if request.deadline is not None and (
        time.monotonic() + SETUP_SECONDS_PER_SQUARE * board.size > request.deadline
    ):  # setting up (the padded grid, the onward counts) is not interrupted: do not begin
        raise SearchFailedError("Warnsdorff's rule did not start: the time limit was reached")
    walker = Walker(board, 1 if not closed and end is None else min(n_attempts, 100))
    s = default_start(board) if request.start is None else request.start
    seed0 = 0 if request.seed is None else request.seed
    deadline = request.deadline
    if not closed and end is None:
        sched = _schedule(board, s, tb)
        path = walker.walk(s, tiebreak=tb, seed=seed0, schedule=sched, deadline=deadline)
        if path.size == board.size:  # the walker is done with: its array is the answer
            return Solution(path, "warnsdorff")
        if walker.stopped:
            _stuck(board, path, "Warnsdorff's rule was stopped by the time limit")
        _stuck(board, path, f"Warnsdorff's rule ({tb} ties) got stuck")

    # closed tours and fixed ends: repeated walks
    ends = [end] if end is not None else board.moves(s)
    if not ends:
        raise SearchFailedError(f"{board.square_name(s)} has no knight's move to close a tour")
    best: np.ndarray = np.empty(0, dtype=np.int32)
    for i in range(n_attempts):
        if expired(deadline):
            break
        ttb = tb if i == 0 else "random"
        e = ends[i % len(ends)] if (end is not None or i % 2 == 0) else None
        sched = _schedule(board, s, ttb)
        path = walker.walk(
            s, end=e, tiebreak=ttb, seed=seed0 + i, schedule=sched, deadline=deadline
        )
        if walker.stopped:
            break
        complete = path.size == board.size and (end is None or path[-1] == end)
        if complete and (not closed or board.is_move(int(path[-1]), int(path[0]))):
            return Solution(path.copy(), "warnsdorff")
        if path.size > best.size:
            best = path.copy()
    what = "a closed tour" if closed else f"a tour ending on {board.square_name(end or 0)}"
    if walker.stopped or expired(deadline):
        _stuck(board, best, f"Warnsdorff's rule did not find {what} before the time limit")
    _stuck(board, best, f"Warnsdorff's rule did not find {what} in {i + 1} walks")


def _stuck(board: Board, path: np.ndarray, what: str) -> NoReturn:
    covered = int(path.size)
    if covered == board.size:
        msg = f"{what}; the best walk covered all {board.size} squares but ended elsewhere"
    else:
        at = board.square_name(int(path[-1])) if covered else "the start"
        msg = f"{what} at {at} after covering {covered} of {board.size} squares"
    raise search_failed(msg, board, path, "warnsdorff")
