"""The exact search of a number puzzle: its completions counted up to a limit (2 proves it has
exactly one), by the compiled kernel :func:`knightstour.kernels.numbers.run`.

>>> from knightstour.numberpuzzles.grid import parse_puzzle
>>> p = parse_puzzle('''
...  7 20  9 14  5
... 10 15  6  . 24
... 21  8 25  4 13
... 16 11  . 23 18
...  1 22 17 12  3
... ''')
>>> found = completions(p)
>>> found.count, found.complete, found.unique
(1, True, True)
>>> [p.board.square_name(found.solutions[0][k - 1]) for k in (2, 19)]
['c2', 'd4']
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
    ``time_limit`` seconds pass (``complete`` False).

    Two searches take turns, a slice each: one places the numbers upwards, the other downwards
    (a closed tour's numbers turned round so that each starts on a given number after the
    longest gap); the first to finish answers, so a long sparse gap at one end costs little.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> completions(parse_puzzle("1 . .\\n. . .\\n. . .")).count
    0
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    dist = distance_table(puzzle.board)
    kernels = jit.load(_numbers, compiled=True)
    searches = [_Search(puzzle, mapping, dist, limit) for mapping in _orientations(puzzle)]
    if any(s.hopeless for s in searches):  # an empty square that no number can reach
        return Completions(0, True, (), 0, limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    done: _Search | None = None
    while done is None:
        for search in searches:
            if search.run(kernels) == _numbers.DONE:
                done = search
                break
        if done is None and deadline is not None and time.monotonic() > deadline:
            break
    positions = sum(s.positions for s in searches)
    if done is None:  # the most any search found is still a lower bound
        best = max(searches, key=lambda s: s.found)
        return Completions(min(best.found, limit), False, best.solutions(), positions, limit)
    return Completions(min(done.found, limit), True, done.solutions(), positions, limit)


def _orientations(puzzle: NumberPuzzle) -> list[list[int]]:
    """The numberings the searches use, each as ``mapping[k]``: the puzzle's number that the
    search's number ``k`` stands for (index 0 unused). Upwards and downwards; on a closed tour,
    turned so that the search starts on the given number just after the longest gap."""
    n = puzzle.size
    up = list(range(n + 1))
    down = [0, *range(n, 0, -1)]
    given = sorted(puzzle.givens.values())
    if not (puzzle.closed and given):
        return [up, down]
    gaps = [((given[(i + 1) % len(given)] - g) % n or n, i) for i, g in enumerate(given)]
    _, i = max(gaps)
    after, before = given[(i + 1) % len(given)], given[i]
    up = [0] + [(after - 1 + k - 1) % n + 1 for k in range(1, n + 1)]
    down = [0] + [(before - 1 - (k - 1)) % n + 1 for k in range(1, n + 1)]
    return [up, down]


class _Search:
    """One search of the kernel, its arrays kept between slices, in its own numbering."""

    def __init__(self, puzzle: NumberPuzzle, mapping: list[int], dist: np.ndarray, limit: int):
        b, n = puzzle.board, puzzle.board.size
        inverse = [0] * (n + 1)
        for k in range(1, n + 1):
            inverse[mapping[k]] = k
        self.mapping = mapping
        givens = {s: inverse[k] for s, k in puzzle.givens.items()}
        turned = NumberPuzzle(b, givens, puzzle.closed)
        self.closed = puzzle.closed
        self.nbr = np.ascontiguousarray(b.neighbours, dtype=np.int32)
        self.num = np.array(turned.cells(), dtype=np.int32)
        self.where = np.full(n + 1, -1, dtype=np.int32)
        for s, k in givens.items():
            self.where[k] = s
        self.nextg = np.zeros(n + 2, dtype=np.int32)
        first = min(givens.values(), default=0)
        after = first + n if puzzle.closed and givens else 0
        for k in range(n, 0, -1):
            if self.where[k] >= 0:
                after = k
            self.nextg[k] = after
        self.fill = self.num.copy()
        self.pos = np.zeros(n + 1, dtype=np.int32)
        self.ci = np.zeros(n + 2, dtype=np.int32)
        self.state = np.zeros(_numbers.STATE_SLOTS, dtype=np.int64)
        self.out = np.zeros((limit, n + 1), dtype=np.int32)
        self.dist = dist
        self.late_at, self.late = _late(turned, dist)
        self.last = np.zeros(b.area, dtype=np.int32)
        for k in range(n + 1):
            self.last[self.late[self.late_at[k] : self.late_at[k + 1]]] = k
        self.hopeless = bool(self.late_at[1] > 0)
        self.limit = limit

    def run(self, kernels: jit.Kernels) -> int:
        """One slice of the search: :data:`~knightstour.kernels.numbers.DONE` or BUDGET."""
        return int(
            kernels.run(
                self.nbr,
                self.num,
                self.where,
                self.nextg,
                self.dist,
                self.closed,
                self.fill,
                self.pos,
                self.ci,
                self.state,
                self.late_at,
                self.late,
                self.last,
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
        """The completions found, as the squares of the puzzle's 1..N."""
        n = len(self.mapping) - 1
        out = []
        for i in range(min(self.found, self.limit)):
            squares = [0] * n
            for k in range(1, n + 1):
                squares[self.mapping[k] - 1] = int(self.out[i, k])
            out.append(tuple(squares))
        return tuple(out)


def _late(puzzle: NumberPuzzle, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The empty squares by the last number that distance and colour allow each (0: none), as
    the kernel reads them: ``late[late_at[k]:late_at[k + 1]]`` the squares whose last is ``k``.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> p = parse_puzzle(". . .\\n. . .\\n1 . .")
    >>> at, sq = _late(p, distance_table(p.board))
    >>> int(at[1]), sorted(int(s) for s in sq[at[9]:at[10]])  # b2 none; 9 only on a corner
    (1, [2, 6, 8])
    """
    b, n = puzzle.board, puzzle.board.size
    far = _numbers.FAR
    empty = np.array([s for s in b.squares() if s not in puzzle.givens], dtype=np.int64)
    best = np.zeros(len(empty), dtype=np.int64)
    given = sorted((k, s) for s, k in puzzle.givens.items())
    if not given:
        best[:] = n
    # (number, square) before and after each gap, -1: none
    gaps = [(ka, sa, kb, sb) for (ka, sa), (kb, sb) in itertools.pairwise(given)]
    if given and puzzle.closed:
        (kl, sl), (kf, sf) = given[-1], given[0]
        gaps.append((kl, sl, kf + n, sf))
    elif given:
        gaps.append((0, -1, given[0][0], given[0][1]))
        gaps.append((given[-1][0], given[-1][1], n + 1, -1))
    for ka, sa, kb, sb in gaps:
        if kb - ka < 2:
            continue
        d1 = dist[sa, empty].astype(np.int64) if sa >= 0 else np.ones(len(empty), np.int64)
        d2 = dist[empty, sb].astype(np.int64) if sb >= 0 else np.ones(len(empty), np.int64)
        lo = ka + d1
        hi = kb - d2
        if sa >= 0:  # parity: j - ka has the parity of d1
            hi -= (hi - lo) % 2
        elif sb >= 0:
            lo += (hi - lo) % 2
        ok = (lo <= hi) & (d1 < far) & (d2 < far)
        # the last number in search order (1..N): a wrapped gap's numbers past N come first
        top = np.where(hi <= n, hi, np.where(lo <= n, n - ((n - lo) % 2), hi - n))
        if sa < 0 or sb < 0:
            top = np.minimum(hi, n)
        best = np.where(ok, np.maximum(best, top), best)
    order = np.argsort(best, kind="stable")
    late = empty[order].astype(np.int32)
    late_at = np.searchsorted(best[order], np.arange(n + 2)).astype(np.int32)
    return late_at, late
