"""The frontier sweep of a narrow board: its plan, and the paths between two chosen squares.

The board is swept square by square, row by row along its longer side; after each square the
pieces of path that cross the frontier (the last squares swept, as far back as the longest move
reaches) are summarised by a state (:mod:`knightstour.kernels.frontier` says how). Counting
(:mod:`knightstour.counting.frontier`) adds up the ways to reach each state; this module also
*decides* whether a Hamiltonian path joins two chosen squares, and builds one: each state keeps
one way it was reached (the state before it and the moves of the new square), and a state that
completes the path is walked back to the first square. Exact, on boards of any length whose
shorter side is at most :data:`SIDE` squares: long stretches of rows far from the ends repeat
the states of the rows before them, and are passed over rather than swept
(:func:`_forward`). docs/solving.md, "Chosen ends".

>>> path = between(Board(3, 12), 2, 3)          # c1 to a2
>>> int(path[0]), int(path[-1]), len(set(path.tolist()))
(2, 3, 36)
>>> print(between(Board(3, 4), 0, 3))            # a1 to a2: no path
None
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board, available_memory
from knightstour.errors import InputLimitError, NoTourError, SearchFailedError
from knightstour.kernels import jit
from knightstour.solvers import Solution, SolveRequest
from knightstour.theory import describe_tour

__all__ = [
    "AREA",
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
class Sweep:
    """The plan of a count: the sweep order and, per square, what the kernel needs.

    ``order[p]`` is the square swept at position ``p``; ``width`` the frontier length ``B``;
    per position: ``back`` (frontier slots of the moves back), ``cap`` (0 hole, 1 required tour
    end, 2 other), ``caps`` (the caps of the frontier's squares), ``leaving`` (slots whose squares
    have all their moves decided after this one).
    """

    board: Board
    terminals: tuple[int, ...]
    closed: bool
    order: np.ndarray
    width: int
    radix: int
    back: np.ndarray
    nback: np.ndarray
    cap: np.ndarray
    caps: np.ndarray
    leaving: np.ndarray
    nleave: np.ndarray
    last_real: int
    signs: np.ndarray
    remain: np.ndarray
    ahead: list[np.ndarray]
    rest: np.ndarray
    spare: np.ndarray
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
        key = 0
        for _ in range(self.width):
            key = key * self.radix + DONE
        return np.uint64(key)


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
    order, width = _orientation(board, clock)
    if width > MAX_FRONTIER:
        raise InputLimitError(
            f"a {board.spec} board has a frontier of {width} squares; counting handles at most "
            f"{MAX_FRONTIER} (knight boards up to 8 squares on the short side)"
        )
    radix = 16 if width <= 15 else 3 + width // 2 + 1
    n = board.area
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    holes = board.holes
    cap_of = np.full(n, 2, dtype=np.int64)
    for sq in holes:
        cap_of[pos[sq]] = 0
    for sq in terminals:
        cap_of[pos[sq]] = 1
    neighbours = []
    for p in range(n):
        clock.tick()
        neighbours.append(
            [] if order[p] in holes else [int(pos[t]) for t in board.moves(int(order[p]))]
        )
    last = np.array([max([p, *neighbours[p]]) for p in range(n)], dtype=np.int64)
    maxback = max([sum(1 for q in nb if q < p) for p, nb in enumerate(neighbours)] + [1])
    back = np.zeros((n, maxback), dtype=np.int64)
    nback = np.zeros(n, dtype=np.int64)
    caps = np.full((n, width + 1), 2, dtype=np.int64)
    leaving_lists: list[list[int]] = [[] for _ in range(n)]
    for p in range(n):
        clock.tick()
        for q in sorted(q for q in neighbours[p] if q < p):
            back[p, nback[p]] = p - q
            nback[p] += 1
        for k in range(width + 1):
            if p - k >= 0:
                caps[p, k] = cap_of[p - k]
        leaving_lists[int(last[p])].append(p)
    maxleave = max(len(x) for x in leaving_lists) or 1
    leaving = np.zeros((n, maxleave), dtype=np.int64)
    nleave = np.zeros(n, dtype=np.int64)
    for p, cells in enumerate(leaving_lists):
        for j, c in enumerate(sorted(cells)):
            leaving[p, j] = p - c
        nleave[p] = len(cells)
    real = [p for p in range(n) if cap_of[p] > 0]
    last_real = real[-1] if real else -1
    # colours: +1 / -1 by square colour, per frontier slot; twice the balance of the squares
    # not swept yet, and the required ends among them, after each position
    sign_of = np.array([1 if board.colour(int(order[p])) else -1 for p in range(n)])
    sign_of[cap_of == 0] = 0
    signs = np.zeros((n, width + 1), dtype=np.int64)
    for p in range(n):
        clock.tick()
        for k in range(width + 1):
            if p - k >= 0:
                signs[p, k] = sign_of[p - k]
    after = np.concatenate([np.cumsum(sign_of[::-1])[::-1][1:], [0]])
    rest = 2 * after.astype(np.int64)
    colour = board.colour
    changes = all(
        colour(a) != colour(b) for a in _ticking(board.squares(), clock) for b in board.moves(a)
    )
    if not changes:  # a leaper that keeps its colour (or a wrapped board): no colour check
        rest[:] = _NO_CHECK
    req = (cap_of == 1).astype(np.int64)
    spare = np.concatenate([np.cumsum(req[::-1])[::-1][1:], [0]]).astype(np.int64)
    # moves from each frontier slot's square to squares not swept yet, after each position
    remain = np.zeros((n, width + 1), dtype=np.int64)
    for p in range(n):
        clock.tick()
        for k in range(width + 1):
            c = p - k
            if c >= 0:
                remain[p, k] = sum(1 for q in neighbours[c] if q > p)
    # squares not swept yet with at most one move to a later square, not required ends: their
    # moves to later squares and the bit mask of the frontier slots they have moves to
    ahead: list[np.ndarray] = []
    for p in range(n):
        clock.tick()
        rows = []
        for u in range(p + 1, min(n, p + width + 1)):
            if cap_of[u] != 2:
                continue
            later = sum(1 for q in neighbours[u] if q > p)
            mask = sum(1 << (p - q) for q in neighbours[u] if p - width < q <= p)
            if later <= 1 and mask:
                rows.append((later, mask))
        ahead.append(np.array(rows, dtype=np.int64).reshape(len(rows), 2))
    mirrors = (
        _mirrors(board, order, pos, width, last, terminals)
        if mirror
        else np.full((n, 1), -1, dtype=np.int64)
    )
    return Sweep(
        board,
        tuple(terminals),
        closed,
        order,
        width,
        radix,
        back,
        nback,
        cap_of,
        caps,
        leaving,
        nleave,
        last_real,
        signs,
        remain,
        ahead,
        rest,
        spare,
        mirrors,
    )


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
#: shorter side is at most this many squares ...
SIDE = 5
#: ... and of at most this many squares (its plan is made square by square).
AREA = 30_000
#: The ways back that :func:`between` keeps may take at most this many bytes (and a quarter of
#: the memory available); a longer walk back is refused, the answer stands.
LINK_BYTES = 1 << 29


def takes(board: Board) -> bool:
    """Whether the sweep decides requests with both ends on ``board``: a knight's flat board
    (holes allowed) whose shorter side is at most :data:`SIDE`, of at most :data:`AREA` squares.

    >>> takes(Board(5, 1001)), takes(Board(6, 6)), takes(Board(3, 10_000))
    (True, False, True)
    """
    return (
        board.leaper == (1, 2)
        and board.is_flat
        and min(board.width, board.height) <= SIDE
        and board.area <= AREA
    )


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
    """
    if s == e:  # a path from a square to itself: the board's one square
        return board.size == 1
    return _forward(board, s, e, deadline, keep=False).whole is not None


def between(board: Board, s: int, e: int, *, deadline: float | None = None) -> np.ndarray | None:
    """A Hamiltonian path from ``s`` to ``e`` (int32 square indices), or None when none exists.

    Raises :class:`~knightstour.errors.SearchFailedError` past ``deadline`` (a
    ``time.monotonic()`` time), and when the ways back would take more than
    :data:`LINK_BYTES` (a path exists then: :func:`decide` says so without keeping them).
    """
    if s == e:  # a path from a square to itself: the board's one square
        return np.array([s], dtype=np.int32) if board.size == 1 else None
    ran = _forward(board, s, e, deadline, keep=True)
    if ran.whole is None:
        return None
    return _walk_back(ran, s)


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
    """What a forward sweep kept: the plan, the link of the whole path (None: no path) at its
    step, each step's links (a computed step's own, or the step it repeats)."""

    sweep: Sweep
    whole: int | None
    whole_step: int
    links: dict[int, np.ndarray]
    rep: np.ndarray


def _repeats(sweep: Sweep, period: int) -> np.ndarray:
    """``same[p]``: square ``p`` is swept exactly as square ``p - period`` (its moves back,
    the squares leaving, the checks), so the same states before give the same states after."""
    n = sweep.steps
    same = np.zeros(n, dtype=np.bool_)
    if n <= period:
        return same
    ok = np.ones(n - period, dtype=np.bool_)
    for a in (sweep.back, sweep.cap, sweep.caps, sweep.leaving, sweep.signs, sweep.remain):
        a = a.reshape(n, -1)
        ok &= np.all(a[period:] == a[:-period], axis=1)
    for a in (sweep.nback, sweep.nleave, sweep.rest, sweep.spare):
        ok &= a[period:] == a[:-period]
    final = np.arange(n) >= sweep.last_real
    ok &= final[period:] == final[:-period]
    for p in np.flatnonzero(ok):
        q = int(p) + period
        ok[p] = np.array_equal(sweep.ahead[q], sweep.ahead[q - period])
    same[period:] = ok
    return same


def _forward(board: Board, s: int, e: int, deadline: float | None, keep: bool) -> _Run:
    """Sweep ``board`` with ``s`` and ``e`` as the path's ends, keeping one way back to each
    state (``keep``). A run of squares swept as the squares one period (two rows) before, from
    the same states, repeats their states and links: it is passed over (``rep``)."""
    sweep = plan(board, (s, e), False)
    k = jit.for_work(KERNELS, sweep.steps * sweep.width, threshold=12 * 5)
    n = sweep.steps
    period = 2 * min(board.width, board.height)
    same = _repeats(sweep, period)
    pw = powers(sweep)
    budget = min(LINK_BYTES, available_memory() // 4)
    rep = np.arange(n, dtype=np.int64)
    links: dict[int, np.ndarray] = {}
    states: dict[int, np.ndarray] = {-1: np.array([sweep.initial_key()], dtype=np.uint64)}
    kept = 0
    whole = np.full(1, SENTINEL, dtype=np.uint64)
    growth = 4.0
    p = 0
    with np.errstate(over="ignore"):
        while p < n:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchFailedError(
                    f"the sweep of {board.description} stopped at the time limit, square {p} of {n}"
                )
            keys = states[p - 1]
            size = table_size(int(keys.shape[0] * growth))
            while True:
                table = np.zeros((size, 2), dtype=np.uint64)
                table[:, 0] = SENTINEL
                used, status = k.expand_links(
                    keys, keys.shape[0], sweep.width, sweep.radix, sweep.back[p],
                    sweep.nback[p], sweep.cap[p], sweep.caps[p], sweep.leaving[p],
                    sweep.nleave[p], sweep.free_ends, p >= sweep.last_real, False,
                    sweep.signs[p], sweep.remain[p], sweep.ahead[p], sweep.rest[p],
                    sweep.spare[p], pw, table, whole,
                )  # fmt: skip
                if status == 0:
                    break
                size *= 2
            if whole[0] != SENTINEL:
                return _Run(sweep, int(whole[0]), p, links, rep)
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
            if same[p] and before is not None and np.array_equal(new, before):
                # the states repeat those of a period before, and the squares ahead are swept
                # as the squares a period before them: pass over them all
                while last + 1 < n and same[last + 1]:
                    last += 1
                for q in range(p + 1, last + 1):
                    rep[q] = rep[q - period]
                for q in range(max(p + 1, last - period - 1), last + 1):
                    states[q] = states[p - (p - q) % period]
            for q in [q for q in states if q < last - period - 1]:
                del states[q]
            p = last + 1
    return _Run(sweep, None, -1, links, rep)


def _walk_back(ran: _Run, s: int) -> np.ndarray:
    """The path that the links of ``ran`` lead back along, from ``s``: each step's moves back
    joined into a chain of squares."""
    sweep = ran.sweep
    order = sweep.order
    n = sweep.board.area
    nb = np.full((n, 2), -1, dtype=np.int64)
    deg = np.zeros(n, dtype=np.int64)

    def join(p: int, code: int) -> None:
        if code == 0:
            return
        k1, k2 = divmod(code - 1, 32)
        a = int(order[p])
        for k in (k1,) if k1 == k2 else (k1, k2):
            b = int(order[p - k])
            nb[a, deg[a]] = b
            nb[b, deg[b]] = a
            deg[a] += 1
            deg[b] += 1

    assert ran.whole is not None
    value = ran.whole
    join(ran.whole_step, value & 0xFFFF)
    index = value >> 16
    for p in range(ran.whole_step - 1, -1, -1):
        value = int(ran.links[int(ran.rep[p])][index])
        join(p, value & 0xFFFF)
        index = value >> 16
    path = np.empty(n - len(sweep.board.holes), dtype=np.int32)
    prev, here = -1, s
    for i in range(path.shape[0]):
        path[i] = here
        a, b = int(nb[here, 0]), int(nb[here, 1])
        prev, here = here, (b if a == prev else a)
    return path
