"""The frontier sweep of a narrow board: its plan, and the paths between two chosen squares.

The board is swept square by square, row by row along its longer side; after each square the
pieces of path that cross the frontier (the last squares swept, as far back as the longest move
reaches) are summarised by a state (:mod:`knightstour.kernels.frontier` says how). Counting
(:mod:`knightstour.counting.frontier`) adds up the ways to reach each state; this module also
*decides* whether a Hamiltonian path joins two chosen squares, and builds one: each state keeps
one way it was reached (the state before it and the moves of the new square), and a state that
completes the path is walked back to the first square. Exact, on boards of any length whose
shorter side is at most :data:`SIDE` squares: long stretches of rows far from the ends repeat
the states of the rows before them, and are passed over rather than swept (:func:`_forward`);
the sweep's tables are made a stretch at a time, only where it goes (:class:`_Rows`,
:func:`_tables`), and the walk back repeats a stretch's cycle of moves rather than walking it
(:func:`_moves_back`). docs/divide.md, "Chosen ends on boards 5 wide or less".

>>> path = between(Board(3, 12), 2, 3)          # c1 to a2
>>> int(path[0]), int(path[-1]), len(set(path.tolist()))
(2, 3, 36)
>>> print(between(Board(3, 4), 0, 3))            # a1 to a2: no path
None
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, fields

import numpy as np

from knightstour.board import Board, available_memory
from knightstour.errors import InputLimitError, NoTourError, SearchFailedError
from knightstour.kernels import jit
from knightstour.solvers import Solution, SolveRequest
from knightstour.theory import describe_tour

__all__ = [
    "DONE",
    "MAX_FRONTIER",
    "SENTINEL",
    "SIDE",
    "Sweep",
    "between",
    "decide",
    "plan",
    "powers",
    "reason",
    "sweep_between",
    "table_size",
    "takes",
]

KERNELS = "knightstour.kernels.frontier"
SENTINEL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NO_CHECK = -(1 << 40)  # the kernels' "no colour check" (a leaper that keeps its colour)
DONE = 1
#: The widest frontier a state key holds (digits of base 11 and a top digit in 64 bits).
MAX_FRONTIER = 17


@dataclass(frozen=True)
class _Tables:
    """The sweep's tables for positions ``lo`` to ``lo + len - 1`` (:class:`Sweep` says what
    each holds), and ``last``: for each position, the last position its moves reach."""

    lo: int
    back: np.ndarray
    nback: np.ndarray
    cap: np.ndarray
    caps: np.ndarray
    leaving: np.ndarray
    nleave: np.ndarray
    signs: np.ndarray
    remain: np.ndarray
    ahead: list[np.ndarray]
    rest: np.ndarray
    spare: np.ndarray
    last: np.ndarray

    def step(self, p: int) -> tuple[object, ...]:
        """Position ``p``'s fields of the kernels' step, from ``back`` to ``spare``
        (:data:`knightstour.kernels.frontier.STEP`: they follow the sweep's and ``final``)."""
        i = p - self.lo
        return (
            self.back[i], self.nback[i], self.cap[i], self.caps[i], self.leaving[i],
            self.nleave[i], self.signs[i], self.remain[i], self.ahead[i], self.rest[i],
            self.spare[i],
        )  # fmt: skip

    @property
    def hi(self) -> int:
        return self.lo + int(self.nback.shape[0])


@dataclass(frozen=True)
class Sweep(_Tables):
    """The plan of a count: the sweep order and, per square, what the kernel needs.

    ``order[p]`` is the square swept at position ``p``; ``width`` the frontier length ``B``;
    per position: ``back`` (frontier slots of the moves back), ``cap`` (0 hole, 1 required tour
    end, 2 other), ``caps`` (the caps of the frontier's squares), ``leaving`` (slots whose squares
    have all their moves decided after this one): the tables of :class:`_Tables`, for every
    position (``lo`` is 0).
    """

    board: Board
    terminals: tuple[int, ...]
    closed: bool
    order: np.ndarray
    width: int
    radix: int
    last_real: int
    #: ``mirror[p, d]``: after square ``p``, the frontier slot ``d``'s mirror image across the
    #: sweep direction, where the squares swept so far, the holes and the required ends are
    #: their own mirror image (at the end of a row); ``mirror[p, 0] == -1`` elsewhere
    #: (:func:`_mirrors`).
    mirror: np.ndarray

    @property
    def steps(self) -> int:
        """The number of squares swept (holes included)."""
        return int(self.order.shape[0])

    @property
    def free_ends(self) -> int:
        """How many tour ends the sweep may choose (0 for cycles)."""
        return 0 if self.closed else 2 - len(self.terminals)

    def initial_key(self) -> np.uint64:
        """The state before the first square: every frontier slot off the board, so DONE."""
        return _initial_key(self.width, self.radix)


class _Clock:
    """The time limit of a set-up: :meth:`tick` once a square raises
    :class:`~knightstour.errors.SearchFailedError` once the deadline has passed (the clock is
    read every :data:`EVERY` ticks, so it costs nothing)."""

    EVERY = 1024

    def __init__(self, board: Board, deadline: float | None) -> None:
        self.board, self.deadline, self.ticks = board, deadline, 0

    def tick(self) -> None:
        self.ticks += 1
        if self.deadline is None or self.ticks % self.EVERY:
            return
        if time.monotonic() > self.deadline:
            raise SearchFailedError(
                f"counting on {self.board.description} stopped at the time limit while setting "
                f"up its sweep ({self.board.area:,} squares)"
            )


def _orientation(board: Board, clock: _Clock | None = None) -> tuple[np.ndarray, int]:
    """The sweep order (row by row, along the longer side) and its frontier length."""
    clock = clock if clock is not None else _Clock(board, None)
    best: tuple[np.ndarray, int] | None = None
    for transpose in (False, True):
        w = board.height if transpose else board.width
        pos = np.empty(board.area, dtype=np.int64)
        order = np.empty(board.area, dtype=np.int64)
        for sq in range(board.area):
            clock.tick()
            x, y = board.xy(sq)
            p = x * w + y if transpose else sq
            pos[sq] = p
            order[p] = sq
        reach = 0
        for sq in range(board.area):
            clock.tick()
            if sq in board.holes:
                continue
            for t in board.moves(sq):
                reach = max(reach, abs(int(pos[sq]) - int(pos[t])))
        if best is None or reach < best[1]:
            best = (order, max(reach, 1))
    assert best is not None
    return best


def plan(
    board: Board,
    terminals: tuple[int, ...] = (),
    closed: bool = False,
    *,
    deadline: float | None = None,
    memory_limit: int | None = None,
    mirror: bool = True,
) -> Sweep:
    """The sweep that counts tours of ``board`` with the given required ends (or cycles).

    ``mirror``: where the sweep maps onto itself by the mirror across its direction, the sweep
    keeps one state of each mirror pair (:func:`_mirrors`; False: it keeps both).

    Its tables cost memory and time in proportion to the board's area: a board whose set-up
    would not fit in ``memory_limit`` bytes (default: 80% of the memory available) is refused
    before any is spent (:class:`~knightstour.errors.InputLimitError`,
    :func:`setup_bytes`), and the set-up stops at ``deadline`` (a ``time.monotonic()`` time:
    :class:`~knightstour.errors.SearchFailedError`).

    >>> s = plan(Board(6, 9), (), True)
    >>> s.width, s.steps, s.radix
    (13, 54, 16)
    """
    budget = _budget(memory_limit)
    need = setup_bytes(board)
    if need > budget:
        raise InputLimitError(
            f"counting on {board.description} would need about {_gib(need)} of memory to set up "
            f"its sweep of {board.area:,} squares; {_gib(budget)} is available"
        )
    clock = _Clock(board, deadline)
    geo = _Arrays(board, terminals, clock)
    t = _tables(geo, 0, geo.n, clock)
    mirrors = (
        _mirrors(board, geo.order, geo.pos, geo.width, t.last, terminals)
        if mirror
        else np.full((geo.n, 1), -1, dtype=np.int64)
    )
    return Sweep(
        **{f.name: getattr(t, f.name) for f in fields(_Tables)},
        board=board,
        terminals=tuple(terminals),
        closed=closed,
        order=geo.order,
        width=geo.width,
        radix=_radix(geo.width),
        last_real=geo.last_real,
        mirror=mirrors,
    )


def _radix(width: int) -> int:
    """The base of a state key's digits for a frontier of ``width`` slots."""
    if width > MAX_FRONTIER:
        raise InputLimitError(
            f"a frontier of {width} squares; counting handles at most {MAX_FRONTIER} (knight "
            f"boards up to 8 squares on the short side)"
        )
    return 16 if width <= 15 else 3 + width // 2 + 1


class _Geometry:
    """What the sweep's tables are made of, position by position (``p``: the ``p``-th square
    swept): the square there, its moves (as positions), its cap (0 hole, 1 required end, 2
    other), its colour's sign, and the board-wide sums after it. :func:`_tables` builds the
    tables of any stretch of positions from it. :class:`_Arrays` holds it for a whole board (any
    board, for counting); :class:`_Rows` works it out by arithmetic (flat boards of any length).
    """

    n: int
    width: int
    last_real: int
    changes: bool

    def square(self, p: int) -> int:
        raise NotImplementedError

    def neighbours(self, p: int) -> list[int]:
        """The positions a move from position ``p`` reaches (none from a hole)."""
        raise NotImplementedError

    def cap(self, p: int) -> int:
        raise NotImplementedError

    def sign(self, p: int) -> int:
        """+1 or -1 by the colour of the square at ``p``; 0 for a hole."""
        raise NotImplementedError

    def after(self, p: int) -> int:
        """The sum of :meth:`sign` over the positions after ``p``."""
        raise NotImplementedError

    def ends_after(self, p: int) -> int:
        """The required ends at positions after ``p``."""
        raise NotImplementedError


class _Arrays(_Geometry):
    """The geometry of a whole board, in arrays (the sweep order of :func:`_orientation`)."""

    def __init__(self, board: Board, terminals: tuple[int, ...], clock: _Clock) -> None:
        self.board = board
        self.order, self.width = _orientation(board, clock)
        if self.width > MAX_FRONTIER:
            raise InputLimitError(
                f"a {board.spec} board has a frontier of {self.width} squares; counting handles "
                f"at most {MAX_FRONTIER} (knight boards up to 8 squares on the short side)"
            )
        n = self.n = board.area
        self.pos = np.empty(n, dtype=np.int64)
        self.pos[self.order] = np.arange(n)
        self.cap_of = np.full(n, 2, dtype=np.int64)
        for sq in board.holes:
            self.cap_of[self.pos[sq]] = 0
        for sq in terminals:
            self.cap_of[self.pos[sq]] = 1
        real = np.flatnonzero(self.cap_of > 0)
        self.last_real = int(real[-1]) if real.shape[0] else -1
        sign_of = np.where(board.colour(self.order) == 1, 1, -1).astype(np.int64)
        sign_of[self.cap_of == 0] = 0
        self.sign_of = sign_of
        self._after = np.concatenate([np.cumsum(sign_of[::-1])[::-1][1:], [0]])
        req = (self.cap_of == 1).astype(np.int64)
        self._spare = np.concatenate([np.cumsum(req[::-1])[::-1][1:], [0]])
        colour = board.colour
        self.changes = all(
            colour(a) != colour(b) for a in _ticking(board.squares(), clock) for b in board.moves(a)
        )

    def square(self, p: int) -> int:
        return int(self.order[p])

    def neighbours(self, p: int) -> list[int]:
        if self.cap_of[p] == 0:
            return []
        return [int(self.pos[t]) for t in self.board.moves(int(self.order[p]))]

    def cap(self, p: int) -> int:
        return int(self.cap_of[p])

    def sign(self, p: int) -> int:
        return int(self.sign_of[p])

    def after(self, p: int) -> int:
        return int(self._after[p])

    def ends_after(self, p: int) -> int:
        return int(self._spare[p])


class _Rows(_Geometry):
    """The geometry of a flat board worked out by arithmetic, for a stretch at a time: the sweep
    goes row by row along the longer side (a row of the sweep is a file of the board when it is
    ``transposed``), and costs nothing a square, however long the board.

    >>> g = _Rows(Board(3, 700_000_000), (1, 5))
    >>> g.width, g.rowlen, g.transposed, g.cap(1), g.cap(2), g.ends_after(1)
    (7, 3, False, 1, 2, 1)
    """

    def __init__(self, board: Board, terminals: tuple[int, ...]) -> None:
        assert board.is_flat
        self.board = board
        w, h = board.width, board.height
        self.n = board.area

        def reach(transposed: bool) -> int:
            steps = [
                abs(dx * h + dy) if transposed else abs(dy * w + dx)
                for dx, dy in board.deltas
                if abs(dx) < w and abs(dy) < h
            ]
            return max([1, *steps])

        plain, across = reach(False), reach(True)
        self.transposed = across < plain
        self.width = min(plain, across)
        self.rowlen = h if self.transposed else w
        self.rows = self.n // self.rowlen
        self.holes = board.holes
        self.terminals = tuple(terminals)
        hp = sorted(self.pos(sq) for sq in board.holes)
        self.hole_pos = np.array(hp, dtype=np.int64)
        self.hole_sum = np.cumsum([self._plain_sign(p) for p in hp], dtype=np.int64)
        self.end_pos = np.array(sorted(self.pos(t) for t in terminals), dtype=np.int64)
        self.features = np.union1d(self.hole_pos, self.end_pos)
        last = self.n - 1
        while last >= 0 and self.square(last) in self.holes:
            last -= 1
        self.last_real = last
        feasible = [(dx, dy) for dx, dy in board.deltas if abs(dx) < w and abs(dy) < h]
        self.changes = all((dx + dy) % 2 for dx, dy in feasible)
        #: rows at each edge whose squares lack some moves
        self.edge = max(board.leaper) * self.rowlen
        #: how far (in positions) a square's tables look either way, with room to spare
        self.margin = 3 * self.width + 2 * self.rowlen

    def pos(self, sq: int) -> int:
        x, y = sq % self.board.width, sq // self.board.width
        return x * self.board.height + y if self.transposed else sq

    def square(self, p: int) -> int:
        if self.transposed:
            return (p % self.rowlen) * self.board.width + p // self.rowlen
        return p

    def neighbours(self, p: int) -> list[int]:
        sq = self.square(p)
        if sq in self.holes:
            return []
        return [self.pos(t) for t in self.board.moves(sq)]

    def cap(self, p: int) -> int:
        sq = self.square(p)
        return 0 if sq in self.holes else 1 if sq in self.terminals else 2

    def _plain_sign(self, p: int) -> int:
        return 1 if self.board.colour(self.square(p)) else -1

    def sign(self, p: int) -> int:
        return 0 if self.square(p) in self.holes else self._plain_sign(p)

    def _prefix(self, p: int) -> int:
        """The sum of :meth:`sign` over positions ``0..p`` (squares ``(x, y)`` of colour
        ``(x + y) % 2``, row ``r`` and place ``c`` in it: ``x + y == r + c``)."""
        if p < 0:
            return 0
        r, c = divmod(p, self.rowlen)
        full = -(self.rowlen % 2) * (r % 2)
        part = -(1 if r % 2 == 0 else -1) * ((c + 1) % 2)
        k = int(np.searchsorted(self.hole_pos, p, side="right"))
        return full + part - (int(self.hole_sum[k - 1]) if k else 0)

    def after(self, p: int) -> int:
        return self._prefix(self.n - 1) - self._prefix(p)

    def ends_after(self, p: int) -> int:
        return int(self.end_pos.shape[0] - np.searchsorted(self.end_pos, p, side="right"))

    @property
    def period(self) -> int:
        """Two rows: a square and the one two rows before it are swept alike, away from the
        edges, the holes and the ends (and the colours of two rows balance)."""
        return 2 * self.rowlen

    def quiet(self, p: int) -> bool:
        """Whether position ``p`` is swept exactly as ``p - period`` (its tables are equal):
        no edge, hole or required end near enough to either to touch its tables.

        >>> g = _Rows(Board(3, 100), (4, 280))
        >>> [p for p in range(0, 300, 30) if g.quiet(p)]
        [60, 90, 120, 150, 180, 210, 240]
        """
        lo, hi = p - self.period - self.margin, p + self.margin
        if lo < self.edge or hi >= self.n - self.edge:
            return False
        k = int(np.searchsorted(self.features, lo, side="left"))
        return k == self.features.shape[0] or int(self.features[k]) > hi

    def quiet_until(self, p: int) -> int:
        """The last position of the stretch of :meth:`quiet` positions from ``p`` (quiet)."""
        end = self.n - self.edge - self.margin - 1
        k = int(np.searchsorted(self.features, p + self.margin, side="right"))
        if k < self.features.shape[0]:
            end = min(end, int(self.features[k]) - self.margin - 1)
        return end


def _tables(g: _Geometry, lo: int, hi: int, clock: _Clock) -> _Tables:
    """The sweep's tables for positions ``lo`` to ``hi - 1``, from the geometry ``g``: each
    looks at most a frontier's length either way (the moves of the squares around it)."""
    n, width = g.n, g.width
    a, z = max(0, lo - width), min(n, hi + width + 1)
    nbs: dict[int, list[int]] = {}
    for q in range(a, z):
        clock.tick()
        nbs[q] = g.neighbours(q)
    capq = {q: g.cap(q) for q in range(max(0, lo - width), z)}
    signq = {q: g.sign(q) for q in range(max(0, lo - width), hi)}
    m = hi - lo
    maxback = max([sum(1 for q in nbs[p] if q < p) for p in range(lo, hi)] + [1])
    back = np.zeros((m, maxback), dtype=np.int64)
    nback = np.zeros(m, dtype=np.int64)
    cap = np.array([capq[p] for p in range(lo, hi)], dtype=np.int64)
    caps = np.full((m, width + 1), 2, dtype=np.int64)
    signs = np.zeros((m, width + 1), dtype=np.int64)
    remain = np.zeros((m, width + 1), dtype=np.int64)
    last = np.array([max([c, *nbs[c]]) for c in range(a, hi)], dtype=np.int64)
    leaving_lists: list[list[int]] = [[] for _ in range(m)]
    for c in range(a, hi):
        at = int(last[c - a])
        if lo <= at < hi:
            leaving_lists[at - lo].append(c)
    ahead: list[np.ndarray] = []
    for i, p in enumerate(range(lo, hi)):
        clock.tick()
        for q in sorted(q for q in nbs[p] if q < p):
            back[i, nback[i]] = p - q
            nback[i] += 1
        for k in range(width + 1):
            c = p - k
            if c >= 0:
                caps[i, k] = capq[c]
                signs[i, k] = signq[c]
                remain[i, k] = sum(1 for q in nbs[c] if q > p)
        # squares not swept yet with at most one move to a later square, not required ends:
        # their moves to later squares and the bit mask of the frontier slots they have moves to
        rows = []
        for u in range(p + 1, min(n, p + width + 1)):
            if capq[u] != 2:
                continue
            later = sum(1 for q in nbs[u] if q > p)
            mask = sum(1 << (p - q) for q in nbs[u] if p - width < q <= p)
            if later <= 1 and mask:
                rows.append((later, mask))
        ahead.append(np.array(rows, dtype=np.int64).reshape(len(rows), 2))
    maxleave = max([len(x) for x in leaving_lists] + [1])
    leaving = np.zeros((m, maxleave), dtype=np.int64)
    nleave = np.zeros(m, dtype=np.int64)
    for i, cells in enumerate(leaving_lists):
        for j, c in enumerate(sorted(cells)):
            leaving[i, j] = lo + i - c
        nleave[i] = len(cells)
    # twice the colour balance of the squares not swept yet after each position (no check for
    # a leaper that keeps its colour), and the required ends among them
    rest = np.array(
        [2 * g.after(p) if g.changes else _NO_CHECK for p in range(lo, hi)], dtype=np.int64
    )
    spare = np.array([g.ends_after(p) for p in range(lo, hi)], dtype=np.int64)
    return _Tables(
        lo, back, nback, cap, caps, leaving, nleave, signs, remain, ahead, rest, spare,
        last[lo - a :],
    )  # fmt: skip


def _mirrors(
    board: Board,
    order: np.ndarray,
    pos: np.ndarray,
    width: int,
    last: np.ndarray,
    terminals: tuple[int, ...],
) -> np.ndarray:
    """The mirror of each frontier slot, after each square where the sweep maps onto itself.

    After square ``p``, a reflection of the board (across the files or the ranks) maps the
    sweep onto itself when it maps the squares swept so far onto themselves, and the holes
    and the required ends too; each frontier slot's square then goes to a slot of the
    frontier, or (a square whose moves are all decided, so finished in every state) to itself.
    A state and its mirror image have the same number of ways to finish, so the sweep keeps
    the smaller key of the two with the counts of both (the kernels' ``mirror_key``). Rows
    ``(steps, width)``; a row of -1 where the sweep does not map onto itself.

    >>> m = plan(Board(5, 6)).mirror                 # rows of 5, a frontier of 11
    >>> [p for p in range(30) if m[p, 0] >= 0]
    [4, 9, 14, 19, 24, 29]
    >>> m[9].tolist()
    [4, 3, 2, 1, 0, 9, 8, 7, 6, 5, 10]
    """
    n = board.area
    out = np.full((n, width), -1, dtype=np.int64)
    if not board.is_flat or board.wrap:
        return out
    holes = set(board.holes)
    ends = set(terminals)
    flips = []
    for flip_x in (True, False):
        image = np.empty(n, dtype=np.int64)
        for sq in range(n):
            x, y = board.xy(sq)
            image[sq] = (
                board.index(board.width - 1 - x, y)
                if flip_x
                else board.index(x, board.height - 1 - y)
            )
        if {int(image[h]) for h in holes} == holes and {int(image[t]) for t in ends} == ends:
            flips.append(image)
    for image in flips:
        # after square p the swept squares are their own image when the latest square whose
        # image comes later is before p
        reach = np.maximum.accumulate(pos[image[order]])
        for p in range(n):
            if reach[p] > p or out[p, 0] >= 0:
                continue
            row = np.arange(width, dtype=np.int64)
            for d in range(min(width, p + 1)):
                e = p - int(pos[image[order[p - d]]])
                if 0 <= e < width:
                    row[d] = e
                elif last[p - d] > p:  # a square still open whose image has left: no mirror
                    break
            else:
                out[p] = row
    return out


def _ticking(items: Iterator[int], clock: _Clock) -> Iterator[int]:
    for item in items:
        clock.tick()
        yield item


#: Bytes the set-up of a sweep costs: a square's fixed part and its part a frontier slot (its
#: tables, and the lists they are built from), and a base for any board. Measured with
#: tracemalloc at the peak of :func:`plan` with room to spare (tests/test_count_setup.py checks
#: that the bound holds).
SETUP_BYTES_FIXED, SETUP_BYTES_PER_SLOT, SETUP_BYTES_BASE = 1000, 48, 64 * 1024


def _frontier_bound(board: Board) -> int:
    """A frontier at least as long as the one :func:`plan` will find, without sweeping: the
    longest move in sweep order (the long leg across rows, the short one along them) on the
    better side; :data:`MAX_FRONTIER` for wrapped and layered boards (and at most that: longer
    ones are refused before their tables are built).

    >>> _frontier_bound(Board(3, 100)), _frontier_bound(Board(8, 8)), _frontier_bound(Board(5, 6))
    (7, 17, 11)
    """
    if not board.is_flat:
        return MAX_FRONTIER
    a, b = sorted(board.leaper)
    return min(MAX_FRONTIER, b * min(board.width, board.height) + a)


def setup_bytes(board: Board) -> int:
    """About the most memory :func:`plan` holds while it sets up the sweep of ``board``.

    >>> f"{setup_bytes(Board(8, 20_000_000)) / 2**30:.0f} GiB"
    '278 GiB'
    """
    slots = _frontier_bound(board) + 1
    return SETUP_BYTES_BASE + board.area * (SETUP_BYTES_FIXED + SETUP_BYTES_PER_SLOT * slots)


def _budget(memory_limit: int | None) -> int:
    """The bytes a count may use: ``memory_limit``, or 80% of the memory available."""
    return memory_limit if memory_limit is not None else int(available_memory() * 0.8)


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB"


def powers(sweep: Sweep) -> np.ndarray:
    return np.array([sweep.radix**d for d in range(sweep.width + 1)], dtype=np.uint64)


def table_size(states: int) -> int:
    """A power of two with room for ``states`` at 3/4 full (at least 1024)."""
    size = 1024
    while size * 3 // 4 <= states:
        size *= 2
    return size


# -- paths between two chosen squares ----------------------------------------------------------

#: The sweep decides every request with a start and an end square on knight's boards whose
#: shorter side is at most this many squares, of any length: its tables are made a stretch of
#: rows at a time, near the ends, the edges and the holes (:class:`_Rows`).
SIDE = 5
#: The ways back that :func:`between` keeps may take at most this many bytes (and a quarter of
#: the memory available); a longer walk back is refused, the answer stands.
LINK_BYTES = 1 << 29
#: Bytes a square of the board costs to build the path (its moves back, 2; its two neighbours
#: on the path, 2; the path, 4) besides what :func:`knightstour.solve` adds to validate it.
PATH_BYTES_PER_SQUARE = 8
#: Positions whose tables are made at once while sweeping (:func:`_tables`).
CHUNK = 256


def takes(board: Board) -> bool:
    """Whether the sweep decides requests with both ends on ``board``: a knight's flat board
    (holes allowed) whose shorter side is at most :data:`SIDE`, however long.

    >>> takes(Board(5, 1001)), takes(Board(6, 6)), takes(Board(3, 100_000_000))
    (True, False, True)
    """
    return board.leaper == (1, 2) and board.is_flat and min(board.width, board.height) <= SIDE


def reason(board: Board, s: int, e: int, closed: bool, found: bool) -> str:
    """The answer's reason: what the sweep found between ``s`` and ``e``.

    >>> reason(Board(3, 4), 0, 3, False, False)
    'no tour from a1 to a2 on 3x4: no Hamiltonian path between a1 and a2, the exact sweep of the board finds none'
    """
    if found:
        return f"the exact sweep of the board finds a {describe_tour(board, s, e, closed)}"
    name = board.square_name
    return (
        f"no {describe_tour(board, s, e, closed)}: no Hamiltonian path between {name(s)} and "
        f"{name(e)}, the exact sweep of the board finds none"
    )


def decide(board: Board, s: int, e: int, *, deadline: float | None = None) -> bool:
    """Whether a Hamiltonian path joins squares ``s`` and ``e`` of ``board`` (:func:`takes`).

    >>> decide(Board(3, 12), 2, 3), decide(Board(3, 4), 0, 3)
    (True, False)
    >>> decide(Board(3, 700_000_000), 4, 9)      # b2 to a4: the long rows are passed over
    True
    """
    if s == e:  # a path from a square to itself: the board's one square
        return board.size == 1
    return _forward(board, s, e, deadline, keep=False).whole is not None


def between(board: Board, s: int, e: int, *, deadline: float | None = None) -> np.ndarray | None:
    """A Hamiltonian path from ``s`` to ``e`` (int32 square indices), or None when none exists.

    A board whose path would not fit in memory is refused before the sweep
    (:class:`~knightstour.errors.InputLimitError`, :func:`require_memory`). Raises
    :class:`~knightstour.errors.SearchFailedError` past ``deadline`` (a ``time.monotonic()``
    time), and :class:`~knightstour.errors.InputLimitError` when the ways back would take more
    than :data:`LINK_BYTES` (a path exists then: :func:`decide` says so without keeping them).
    """
    if s == e:  # a path from a square to itself: the board's one square
        return np.array([s], dtype=np.int32) if board.size == 1 else None
    require_memory(board)
    ran = _forward(board, s, e, deadline, keep=True)
    if ran.whole is None:
        return None
    return _walk_back(ran, s)


def path_bytes(board: Board) -> int:
    """Bytes :func:`between` and the validation of its path need at their peak on ``board``:
    :data:`PATH_BYTES_PER_SQUARE` and divide's check a square, and a fixed part.

    >>> f"{path_bytes(Board(3, 715_000_000)) / 2**30:.1f} GiB"
    '22.0 GiB'
    """
    from knightstour.solvers.divide import CHECK_BYTES_PER_SQUARE, FIXED_BYTES

    return (PATH_BYTES_PER_SQUARE + CHECK_BYTES_PER_SQUARE) * board.area + FIXED_BYTES


def require_memory(board: Board, have: int | None = None) -> None:
    """Refuse, before anything is swept, a board whose path would not fit in the memory
    available (or ``have`` bytes): :func:`path_bytes`.

    >>> require_memory(Board(3, 1000))
    >>> require_memory(Board(3, 10**8), have=2**30)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: board 3x100000000 is too large: the path between two chosen squares needs 3.1 GiB, more than the 1.0 GiB of memory available (exists answers without building it)
    """
    from knightstour.solvers.divide import _process_limit

    need = path_bytes(board)
    if have is None:
        have = available_memory()
        limit = _process_limit()
        if limit is not None:
            have = min(have, limit)
    if need > have:
        raise InputLimitError(
            f"board {board.spec} is too large: the path between two chosen squares needs "
            f"{_gib(need)}, more than the {_gib(have)} of memory available (exists answers "
            f"without building it)"
        )


def sweep_between(request: SolveRequest, /) -> Solution:
    """``auto``'s answer to a request with a start and an end square on a board the sweep
    :func:`takes`: the path, or :class:`~knightstour.errors.NoTourError` with the sweep's proof.
    A closed tour whose end is a move from its start is such a path."""
    b, s, e, closed = request.board, request.start, request.end, request.closed
    assert s is not None and e is not None
    path = between(b, s, e, deadline=request.deadline)
    if path is None:
        raise NoTourError(reason(b, s, e, closed, False))
    return Solution(path, "sweep")


@dataclass
class _Run:
    """What a forward sweep kept: its geometry, the link of the whole path (None: no path) at
    its step, each computed step's links, and the stretches passed over: ``(a, b)``, positions
    ``a + 1`` to ``b`` swept as the positions one period before them (:meth:`rep`)."""

    geo: _Rows
    whole: int | None
    whole_step: int
    links: dict[int, np.ndarray]
    skips: list[tuple[int, int]]

    def rep(self, q: int) -> int:
        """The computed step whose links position ``q`` has."""
        period = self.geo.period
        while True:
            i = bisect_right(self.skips, (q - 1, self.geo.n)) - 1  # the last a < q
            if i < 0 or q > self.skips[i][1]:
                return q
            a = self.skips[i][0]
            q -= period * (-(-(q - a) // period))


def _forward(board: Board, s: int, e: int, deadline: float | None, keep: bool) -> _Run:
    """Sweep ``board`` with ``s`` and ``e`` as the path's ends, keeping one way back to each
    state (``keep``). Where the squares ahead are swept as the squares one period (two rows)
    before them (:meth:`_Rows.quiet`) and the states repeat those of a period before, the
    states and links of the stretch repeat theirs: it is passed over (``skips``). The tables
    are made :data:`CHUNK` positions at a time, only where the sweep goes."""
    g = _Rows(board, (s, e))
    clock = _Clock(board, deadline)
    n, width, radix, period = g.n, g.width, _radix(g.width), g.period
    k = jit.for_work(KERNELS, min(n, 64 * g.rowlen) * width, threshold=12 * 5)
    pw = np.array([radix**d for d in range(width + 1)], dtype=np.uint64)
    budget = min(LINK_BYTES, available_memory() // 4)
    links: dict[int, np.ndarray] = {}
    skips: list[tuple[int, int]] = []
    start = np.array([_initial_key(width, radix)], dtype=np.uint64)
    states: dict[int, np.ndarray] = {-1: start}
    kept = 0
    whole = np.full(1, SENTINEL, dtype=np.uint64)
    growth = 4.0
    tab: _Tables | None = None
    p = 0
    with np.errstate(over="ignore"):
        while p < n:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchFailedError(
                    f"the sweep of {board.description} stopped at the time limit, square {p} of {n}"
                )
            if tab is None or not tab.lo <= p < tab.hi:
                tab = _tables(g, p, min(n, p + CHUNK), clock)
            step = (width, radix, pw, 0, False, p >= g.last_real, *tab.step(p))
            keys = states[p - 1]
            size = table_size(int(keys.shape[0] * growth))
            while True:
                table = np.zeros((size, 2), dtype=np.uint64)
                table[:, 0] = SENTINEL
                used, status = k.expand_links(keys, keys.shape[0], step, table, whole)
                if status == 0:
                    break
                size *= 2
            if whole[0] != SENTINEL:
                return _Run(g, int(whole[0]), p, links, skips)
            rows = table[table[:, 0] != SENTINEL]
            del table
            order = np.argsort(rows[:, 0], kind="stable")
            new = np.ascontiguousarray(rows[order, 0])
            growth = max(1.0, used / max(keys.shape[0], 1)) * 1.25
            if keep:
                links[p] = np.ascontiguousarray(rows[order, 1])
                kept += new.nbytes
                if kept > budget:
                    raise InputLimitError(
                        f"building the path from {board.square_name(s)} to "
                        f"{board.square_name(e)} on {board.description} would keep more than "
                        f"{budget / 2**20:.0f} MiB of the sweep's states"
                    )
            states[p] = new
            if not new.shape[0]:
                break
            last = p
            before = states.get(p - period)
            if before is not None and g.quiet(p) and np.array_equal(new, before):
                # the states repeat those of a period before, and the squares ahead are swept
                # as the squares a period before them: pass over them all
                last = max(p, g.quiet_until(p))
                if last > p:
                    skips.append((p, last))
                for q in range(max(p + 1, last - period - 1), last + 1):
                    states[q] = states[p - (p - q) % period]
            for q in [q for q in states if q < last - period - 1]:
                del states[q]
            p = last + 1
    return _Run(g, None, -1, links, skips)


def _initial_key(width: int, radix: int) -> np.uint64:
    """The state before the first square: every frontier slot off the board, so DONE."""
    key = 0
    for _ in range(width):
        key = key * radix + DONE
    return np.uint64(key)


def _walk_back(ran: _Run, s: int) -> np.ndarray:
    """The path that the links of ``ran`` lead back along, from ``s``: each step's moves back
    (:func:`_moves_back`) joined into a chain of squares (``join_moves``)."""
    g = ran.geo
    codes = _moves_back(ran)
    k = jit.for_work(KERNELS, g.n, threshold=4096)
    m = g.n - len(g.board.holes)
    nb = np.zeros((g.n, 2), dtype=np.int8)
    path = np.empty(m, dtype=np.int32)
    made = k.join_moves(codes, g.pos(s), m, g.rowlen, g.board.width, g.transposed, nb, path)
    if made != m:  # pragma: no cover - a bug, never the user's: the validation says so too
        return path[:made]
    return path


def _moves_back(ran: _Run) -> np.ndarray:
    """Each position's moves back (``move_code``, 0 none) on the path that ``ran`` found.

    On a stretch passed over the links are those of a period before, so walking back a period
    at a time repeats once the state reached repeats: the moves from there on are the cycle's,
    laid down at once rather than walked square by square.
    """
    assert ran.whole is not None
    g = ran.geo
    period = g.period
    codes = np.zeros(g.n, dtype=np.uint16)
    value = ran.whole
    codes[ran.whole_step] = value & 0xFFFF
    index = value >> 16
    p = ran.whole_step - 1

    def walk(p: int, stop: int, index: int) -> int:
        """Walk back from position ``p`` down to ``stop + 1``; the index then."""
        for q in range(p, stop, -1):
            value = int(ran.links[ran.rep(q)][index])
            codes[q] = value & 0xFFFF
            index = value >> 16
        return index

    skips = sorted(ran.skips)
    while p >= 0:
        seg = next((sk for sk in reversed(skips) if sk[0] < p <= sk[1]), None)
        if seg is None:
            bottom = max((b for _, b in skips if b < p), default=-1)
            index = walk(p, bottom, index)
            p = bottom
            continue
        a = seg[0]
        seen: dict[int, int] = {}
        marks: list[int] = []  # the index entering position p - j * period
        while p - period > a and index not in seen:
            seen[index] = len(marks)
            marks.append(index)
            index = walk(p, p - period, index)
            p -= period
        if p - period > a:  # a cycle: periods j1 .. j2 - 1 repeat from here down
            j1, j2 = seen[index], len(marks)
            cycle = (j2 - j1) * period
            full = (p - a - 1) // period  # whole periods left below p
            top = p  # codes[top + 1 ...] hold a cycle's moves already
            p -= full * period
            index = marks[j1 + full % (j2 - j1)]
            _repeat(codes, p + 1, top + 1, cycle)
        index = walk(p, a, index)
        p = a
    return codes


def _repeat(codes: np.ndarray, lo: int, hi: int, cycle: int) -> None:
    """Fill ``codes[lo:hi]`` with the moves of the ``cycle`` positions above it, repeated."""
    if hi <= lo:
        return
    pattern = codes[hi : hi + cycle]
    # codes[hi - j] = pattern[(-j) mod cycle]: lay down whole blocks from the top
    block = np.resize(pattern, cycle * max(1, (1 << 20) // cycle))
    top = hi
    while top > lo:
        size = min(block.shape[0], top - lo)
        codes[top - size : top] = block[block.shape[0] - size :]
        top -= size
