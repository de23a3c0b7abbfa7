"""The exact search of a number puzzle: its completions counted up to a limit (2 proves it has
exactly one), by the compiled kernel :func:`knightstour.kernels.numbers.run`.

>>> from knightstour.numberpuzzles.grid import parse_puzzle
>>> p = parse_puzzle('''
... .  .  .  .  .
... .  .  .  .  .
... .  .  .  .  .
... .  .  .  .  .
... 1  .  .  .  .
... ''')
>>> completions(p, limit=1000).count    # every tour of 5x5 from a1 (kt.count gives 304 too)
304
>>> found = completions(p)              # a second completion found: not unique
>>> found.count, found.complete, found.unique
(2, True, False)
"""

from __future__ import annotations

import functools
import itertools
import time
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board
from knightstour.kernels import jit
from knightstour.kernels import numbers as _numbers
from knightstour.numberpuzzles.grid import NumberPuzzle
from knightstour.solvers._clock import expired

__all__ = ["Completions", "completions", "distance_table"]

#: Positions a slice of the search examines between looks at the clock.
SLICE = 50_000


@dataclass(frozen=True)
class Completions:
    """What the exact search found: ``count`` completions (at most the limit asked), the
    first of them as squares of 1..N (``solutions``), whether the search ``complete``d (else
    the time ran out, and ``count`` is only a lower bound), and the positions examined."""

    count: int
    complete: bool
    solutions: tuple[tuple[int, ...], ...]
    positions: int
    limit: int

    @property
    def unique(self) -> bool:
        """True when exactly one completion exists (proved)."""
        return self.complete and self.count == 1

    @property
    def answer(self) -> bool | None:
        """True: exactly one; False: none or several (proved); None: the search stopped first."""
        if self.count >= 2:
            return False
        return None if not self.complete else self.count == 1


@functools.lru_cache(maxsize=16)
def distance_table(board: Board) -> np.ndarray:
    """The knight's distance between every two squares of ``board`` (holes kept out),
    :data:`knightstour.kernels.numbers.FAR` where no path joins them; read-only.

    >>> int(distance_table(Board(8, 8))[0, 63])
    6
    """
    k = jit.load(_numbers, compiled=board.area > 64)
    table: np.ndarray = k.distances(np.ascontiguousarray(board.neighbours, dtype=np.int32))
    table.flags.writeable = False
    return table


def completions(
    puzzle: NumberPuzzle, *, limit: int = 2, time_limit: float | None = None
) -> Completions:
    """Count the completions of ``puzzle`` up to ``limit``, keeping them; stop when
    ``time_limit`` seconds pass, or the web's client has gone
    (:func:`~knightstour.solvers.cancellable`): ``complete`` False.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> completions(parse_puzzle("1 . .\\n. . .\\n. . .")).count
    0
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    search = _Search(puzzle, distance_table(puzzle.board), limit)
    if search.hopeless:
        return Completions(0, True, (), 0, limit)
    kernels = jit.load(_numbers, compiled=True)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    while True:
        if search.run(kernels) == _numbers.DONE:
            return Completions(
                min(search.found, limit), True, search.solutions(), search.positions, limit
            )
        if expired(deadline):
            found = min(search.found, limit)
            return Completions(found, False, search.solutions(), search.positions, limit)


@dataclass(frozen=True)
class _Gap:
    """A run of missing numbers: ``numbers`` in the order they are placed, each moving on from
    ``froms`` (0: from nowhere), towards the given number on ``target`` (-1: none) that is
    ``left`` moves away from each (or, with no target, the numbers left after each)."""

    numbers: list[int]
    froms: list[int]
    target: int
    left: list[int]


def _gaps(puzzle: NumberPuzzle) -> list[_Gap]:
    """The gaps of ``puzzle``, in the order the search fills them: those between two given
    numbers, the shortest first, then an open puzzle's first and last runs."""
    n = puzzle.size
    where = {k: s for s, k in puzzle.givens.items()}
    given = sorted(where)
    if not given:
        numbers = list(range(1, n + 1))
        return [_Gap(numbers, [0, *numbers[:-1]], -1, [n - k for k in numbers])]
    inner: list[_Gap] = []
    pairs = list(itertools.pairwise(given))
    if puzzle.closed and n > 2:
        pairs.append((given[-1], given[0] + n))
    for a, b in pairs:
        if b - a < 2:
            continue
        virtual = list(range(a + 1, b))
        numbers = [(v - 1) % n + 1 for v in virtual]
        froms = [(v - 2) % n + 1 for v in virtual]
        inner.append(_Gap(numbers, froms, where[(b - 1) % n + 1], [b - v for v in virtual]))
    inner.sort(key=lambda g: len(g.numbers))
    ends: list[_Gap] = []
    if not puzzle.closed:
        first, last = given[0], given[-1]
        if first > 1:  # down from the first given number to 1
            numbers = list(range(first - 1, 0, -1))
            ends.append(_Gap(numbers, [k + 1 for k in numbers], -1, [k - 1 for k in numbers]))
        if last < n:
            numbers = list(range(last + 1, n + 1))
            ends.append(_Gap(numbers, [k - 1 for k in numbers], -1, [n - k for k in numbers]))
        ends.sort(key=lambda g: len(g.numbers))
    return inner + ends


class _Search:
    """The kernel's search of one puzzle, its arrays kept between slices."""

    def __init__(self, puzzle: NumberPuzzle, dist: np.ndarray, limit: int):
        b, n = puzzle.board, puzzle.size
        self.closed, self.limit, self.dist = puzzle.closed, limit, dist
        self.nbr = np.ascontiguousarray(b.neighbours, dtype=np.int32)
        self.fill = np.array(puzzle.cells(), dtype=np.int32)
        self.sq_of = np.full(n + 1, -1, dtype=np.int32)
        for s, k in puzzle.givens.items():
            self.sq_of[k] = s
        gaps = _gaps(puzzle)
        m = sum(len(g.numbers) for g in gaps)
        self.steps = np.zeros((_numbers.STEP_ROWS, m), dtype=np.int32)
        empty = np.array([s for s in b.squares() if s not in puzzle.givens], dtype=np.int64)
        self.count = np.zeros(b.area, dtype=np.int32)
        covers: list[np.ndarray] = []
        t = 0
        for i, gap in enumerate(gaps):
            for j, k in enumerate(gap.numbers):
                row = (k, gap.froms[j], gap.target, gap.left[j], i, j == len(gap.numbers) - 1)
                self.steps[:, t] = row
                t += 1
            covers.append(empty[self._reach(gap, empty)])
        for c in covers:
            self.count[c] += 1
        self.cover_at = np.zeros(len(gaps) + 1, dtype=np.int32)
        self.cover_at[1:] = np.cumsum([len(c) for c in covers])
        self.cover = np.concatenate([*covers, np.zeros(0, np.int64)]).astype(np.int32)
        self.live = np.zeros((len(gaps), b.area), dtype=np.uint8)
        for i, c in enumerate(covers):
            self.live[i, c] = 1
        self.trail = np.zeros(int(self.cover_at[-1]) + 1, dtype=np.int32)
        self.trail_at = np.zeros(m + 2, dtype=np.int32)
        self.seen = np.zeros(b.area, dtype=np.int64)
        self.far = np.zeros(b.area, dtype=np.int32)
        self.queue = np.zeros(b.area, dtype=np.int32)
        self.gap_at = np.zeros(len(gaps) + 1, dtype=np.int32)
        self.gap_at[1:] = np.cumsum([len(g.numbers) for g in gaps])
        self.done = np.zeros(len(gaps), dtype=np.int32)
        self.choice = np.full(m + 1, -1, dtype=np.int32)
        self.ci = np.zeros(m + 1, dtype=np.int32)
        self.state = np.zeros(_numbers.STATE_SLOTS, dtype=np.int64)
        self.out = np.zeros((limit, n + 1), dtype=np.int32)
        self.hopeless = bool(len(empty) and (self.count[empty] == 0).any()) or not _adjacent_ok(
            puzzle
        )

    def _reach(self, gap: _Gap, empty: np.ndarray) -> np.ndarray:
        """Which empty squares some number of ``gap`` can stand on, by distance and colour."""
        start = self.sq_of[gap.froms[0]] if gap.froms[0] else -1
        span = len(gap.numbers) + (1 if gap.target >= 0 else 0)  # moves from start to target
        d1 = (
            self.dist[start, empty].astype(np.int64)
            if start >= 0
            else np.zeros(len(empty), np.int64)
        )
        if gap.target < 0:
            return d1 <= span if start >= 0 else np.ones(len(empty), dtype=bool)
        d2 = self.dist[empty, gap.target].astype(np.int64)
        return (d1 + d2 <= span) & ((span - d1 - d2) % 2 == 0)

    def run(self, kernels: jit.Kernels) -> int:
        """One slice of the search: :data:`~knightstour.kernels.numbers.DONE` or BUDGET."""
        return int(
            kernels.run(
                self.nbr,
                self.dist,
                self.closed,
                self.steps,
                self.gap_at,
                self.cover_at,
                self.cover,
                self.count,
                self.live,
                self.trail,
                self.trail_at,
                self.seen,
                self.far,
                self.queue,
                self.fill,
                self.sq_of,
                self.done,
                self.choice,
                self.ci,
                self.state,
                self.out,
                self.limit,
                SLICE,
            )
        )

    @property
    def found(self) -> int:
        return int(self.state[1])

    @property
    def positions(self) -> int:
        return int(self.state[2])

    def solutions(self) -> tuple[tuple[int, ...], ...]:
        """The completions found, as the squares of 1..N."""
        return tuple(
            tuple(int(s) for s in self.out[i, 1:]) for i in range(min(self.found, self.limit))
        )


def _adjacent_ok(puzzle: NumberPuzzle) -> bool:
    """Whether every two consecutive given numbers (N and 1, closed) are a knight's move apart."""
    b, n = puzzle.board, puzzle.size
    where = {k: s for s, k in puzzle.givens.items()}
    pairs = [(k, k + 1) for k in where if k + 1 in where]
    if puzzle.closed and n > 2 and 1 in where and n in where:
        pairs.append((n, 1))
    return all(b.is_move(where[a], where[c]) for a, c in pairs)
