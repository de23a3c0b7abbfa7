"""The ``enumerate`` counting method: every tour walked one by one, for cross-checks on small boards.

A depth-first walk over the paths of the knight graph (:mod:`._enumerate_kernels`) that cuts a
branch only when plainly nothing completes it: a square left with too few ways in and out, two
squares that must both come next, the allowed last squares used up early. It shares nothing with
the frontier dynamic program (:mod:`.frontier`) but the board, so the two agreeing is a real check
of both (``tests/test_count_enumerate.py``).

Every walk has a fixed first square and a set of allowed last squares; how each number is split
into such walks, each path or cycle counted once:

- **cycles**: from a square ``r`` of fewest moves, each first move ``a``, ending on a neighbour
  ``b > a`` of ``r`` (so each cycle one way round only);
- **paths with both ends fixed**: from one end to the other;
- **paths with one end fixed**: from it to each other square that colour parity allows;
- **paths**: from one square of each class of squares under the board's symmetries to each end,
  each count weighted by the class's size: that sums the paths from every square, each path
  twice (once from each end), so half of it.

The walks are split further by their first few moves into a few hundred parts: progress is
reported per part, and the time limit checked every million moves or so.

>>> from knightstour.board import Board, symmetries
>>> count_paths(Board(5, 5), (), False)      # undirected open tours (A165134 / 2)
864
>>> count_paths(Board(5, 5), (0,), False)    # from a1
304
>>> count_paths(Board(3, 10), (), True)      # closed tours (A070030)
16

:func:`representatives` walks the tours of a board one per class of the tour library (its
symmetries, reversal and, for cycles, the start), for ``knightstour generate --all``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.counting.request import RunOptions
from knightstour.errors import InputLimitError, InvalidInputError, SearchFailedError
from knightstour.kernels import enumerate as _ek
from knightstour.kernels import jit
from knightstour.progress import Progress

__all__ = [
    "MAX_CLOSED",
    "MAX_OPEN",
    "check_size",
    "count_paths",
    "representatives",
]

_KERNELS = "knightstour.kernels.enumerate"
#: The most squares ``count(method="enumerate")`` walks for open tours and for closed ones.
#: Measured on this project's 2-core machine: open 6 x 6 (3,318,960 paths) 4.5 s, 4 x 9 1.8 s,
#: 5 x 7 1.7 s (4 x 10, 40 squares: 10 s); closed 6 x 7 (1,067,638 cycles) 5.7 s, 5 x 8 0.3 s,
#: 3 x 14 0.05 s. Thin boards walk far more dead ends per tour (closed 3 x 20: 100 s).
MAX_OPEN = 36
MAX_CLOSED = 42
#: Moves tried per kernel call: the time limit and Ctrl-C are seen between calls (~10 ms).
BUDGET = 1 << 20
#: The walk is split into at least this many parts (its first moves), when the board has them.
PARTS = 256
#: Parts are at most this many squares long.
MAX_PREFIX = 8
#: :func:`representatives` hands over what it has found at least this often (seconds).
YIELD_SECONDS = 1.0
#: Boards of at most this many squares are walked interpreted (no compiled kernels to load).
COMPILE_THRESHOLD = 16


def check_size(board: Board, closed: bool) -> None:
    """Refuse a board too big to walk every tour of, in one line naming the way out.

    >>> check_size(Board(8, 8), False)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: the enumerate method walks every tour one by one and takes boards of at most 36 squares for open tours; 8x8 has 64: count it with the frontier method (the default)
    """
    limit = MAX_CLOSED if closed else MAX_OPEN
    if board.area > limit:
        kind = "closed" if closed else "open"
        raise InputLimitError(
            f"the enumerate method walks every tour one by one and takes boards of at most "
            f"{limit} squares for {kind} tours; {board.spec} has {board.area}: count it with "
            "the frontier method (the default)"
        )


@dataclass(frozen=True)
class _Part:
    """The walks that begin with ``prefix``, ending on a square of ``closer``; ``weight``: how
    many times each counts."""

    prefix: tuple[int, ...]
    closer: np.ndarray
    weight: int = 1


class _Walker:
    """The arrays of one walk over ``board`` and the kernels, reused part after part."""

    def __init__(self, board: Board, closed: bool) -> None:
        self.board, self.closed = board, closed
        n = board.area
        self.k = jit.for_work(_KERNELS, n, threshold=COMPILE_THRESHOLD)
        self.nbr, self.nn = self.k.compact_neighbours(board.neighbour_table())
        self.blocked = np.zeros(n, dtype=np.uint8)
        self.blocked[list(board.holes)] = 1
        self.vis = np.zeros(n, dtype=np.uint8)
        self.deg, self.path, self.pos, self.ci = (np.zeros(n, dtype=np.int32) for _ in range(4))
        self.mark = np.zeros(n, dtype=np.int64)
        self.meta = np.zeros(_ek.META, dtype=np.int64)
        self.state = tuple(getattr(self, name) for name in _ek.STATE)

    def moves(self, square: int) -> list[int]:
        """The neighbours of ``square``."""
        return [int(q) for q in self.nbr[square, : self.nn[square]]]

    def begin(self, part: _Part) -> None:
        """Set up the walk of ``part``."""
        prefix = np.array(part.prefix, dtype=np.int32)
        self.k.setup(self.nbr, self.nn, self.blocked, prefix, part.closer, self.closed, self.state)

    def go(
        self, part: _Part, perms: np.ndarray, invs: np.ndarray, fixed: bool, out: np.ndarray
    ) -> int:
        """Walk on for a budget of moves; the kernel's status."""
        walked = (self.nbr, self.nn, part.closer, self.closed, self.state)
        return int(self.k.walk(*walked, BUDGET, perms, invs, fixed, out))


def _split(walker: _Walker, parts: list[_Part]) -> list[_Part]:
    """The parts, split by their next moves until there are :data:`PARTS` of them (a part that
    no move extends has no tour and is dropped; one that covers the board stays)."""
    size = walker.board.size
    longest = min(size, MAX_PREFIX)
    while len(parts) < PARTS and any(len(p.prefix) < longest for p in parts):
        longer: list[_Part] = []
        for p in parts:
            if len(p.prefix) >= longest:
                longer.append(p)
                continue
            seen = set(p.prefix)
            longer += [
                _Part((*p.prefix, q), p.closer, p.weight)
                for q in walker.moves(p.prefix[-1])
                if q not in seen
            ]
        parts = longer
    return parts


def _square_classes(board: Board) -> list[tuple[int, int]]:
    """``(square, size)``: the least square of each class of squares under the board's
    symmetries, and the size of the class (every square alone on a board with holes).

    >>> _square_classes(Board(5, 5))
    [(0, 4), (1, 8), (2, 4), (6, 4), (7, 4), (12, 1)]
    """
    if board.holes:
        return [(s, 1) for s in board.squares()]
    perms = symmetries(board.width, board.height)[0].astype(np.int32)
    least = perms.min(axis=0)
    return [(s, len(set(perms[:, s].tolist()))) for s in range(board.area) if least[s] == s]


def _ends_possible(board: Board, s: int, e: int) -> bool:
    """Whether colour parity allows a path from ``s`` to ``e`` through every square: moves of a
    leaper with an odd sum of legs change colour, so the path alternates colours.

    >>> _ends_possible(Board(5, 5), 0, 4), _ends_possible(Board(5, 5), 0, 1)
    (True, False)
    """
    if s == e:
        return False
    if sum(board.leaper) % 2 == 0:
        return True
    light = sum(board.colour(q) for q in board.squares())
    dark = board.size - light
    cs, ce = board.colour(s), board.colour(e)
    if light == dark:
        return cs != ce
    if abs(light - dark) > 1:
        return False
    major = 1 if light > dark else 0
    return cs == major and ce == major


def _paths_from(board: Board, s: int, weight: int = 1) -> list[_Part]:
    """One part for each possible end of the paths from ``s``."""
    out = []
    for e in board.squares():
        if _ends_possible(board, s, e):
            closer = np.zeros(board.area, dtype=np.uint8)
            closer[e] = 1
            out.append(_Part((s,), closer, weight))
    return out


def _cycles_from(walker: _Walker, root: int) -> list[_Part]:
    """One part for each first move ``a`` from ``root``, ending on a neighbour ``b > a``."""
    parts = []
    moves = walker.moves(root)
    for a in moves:
        ends = [b for b in moves if b > a]
        if ends:
            closer = np.zeros(walker.board.area, dtype=np.uint8)
            closer[ends] = 1
            parts.append(_Part((root, a), closer))
    return parts


def _count_parts(walker: _Walker, terminals: tuple[int, ...], closed: bool) -> list[_Part]:
    board = walker.board
    if closed:
        squares = list(board.squares())
        return _cycles_from(walker, min(squares, key=lambda s: (len(walker.moves(s)), s)))
    if len(terminals) == 2:
        s, e = terminals
        return [p for p in _paths_from(board, s) if p.closer[e]]
    if len(terminals) == 1:
        return _paths_from(board, terminals[0])
    return [p for s, size in _square_classes(board) for p in _paths_from(board, s, size)]


def _run(
    walker: _Walker,
    parts: list[_Part],
    *,
    perms: np.ndarray,
    invs: np.ndarray,
    fixed: bool,
    out: np.ndarray,
    progress: Progress | None,
    deadline: float | None,
) -> Iterator[tuple[int, int]]:
    """Walk every part: yields ``(paths, weight)`` as each part finishes and ``(written, 0)``
    whenever the kernel wrote paths to ``out``."""
    total = len(parts)
    if progress is not None:
        progress(0, total)
    spec = walker.board.description
    for i, part in enumerate(parts):
        walker.begin(part)
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchFailedError(
                    f"counting on {spec} by enumeration stopped at the time limit, "
                    f"{i:,} of {total:,} parts walked"
                )
            status = walker.go(part, perms, invs, fixed, out)
            written = int(walker.meta[_ek.WRITTEN])
            if written:
                yield written, 0
            if status == _ek.DONE:
                break
        yield int(walker.meta[_ek.FOUND]), part.weight
        if progress is not None:
            progress(i + 1, total)


def count_paths(
    board: Board, terminals: tuple[int, ...], closed: bool, options: RunOptions | None = None
) -> int:
    """Undirected cycles (``closed``) or paths whose ends include ``terminals``, one by one.

    Boards above :data:`MAX_OPEN` (open) or :data:`MAX_CLOSED` (closed) squares are refused
    (:class:`~knightstour.errors.InputLimitError`). Of ``options``, the walk takes two (the
    rest is the frontier sweep's): past its ``deadline`` (a ``time.monotonic()`` time) the
    walk stops (:class:`~knightstour.errors.SearchFailedError`); its ``progress(done,
    total)`` counts the parts walked.

    >>> count_paths(Board(3, 4), (), False), count_paths(Board(3, 4), (0, 2), False)
    (8, 0)
    """
    if closed and terminals:
        raise InvalidInputError("a cycle count takes no required ends")
    if len(terminals) > 2 or len(set(terminals)) != len(terminals):
        raise InvalidInputError(f"a path has at most two different ends, got {terminals!r}")
    check_size(board, closed)
    if board.size == 1:
        return 0 if closed else 1
    options = options if options is not None else RunOptions()
    walker = _Walker(board, closed)
    parts = _split(walker, _count_parts(walker, terminals, closed))
    none = np.zeros((0, board.area), dtype=np.int32)
    unused = none.copy()
    unused.flags.writeable = False  # as the symmetries are: one compiled walk for both uses
    total = 0
    for found, weight in _run(
        walker, parts, perms=unused, invs=unused, fixed=False, out=none,
        progress=options.progress, deadline=options.deadline,
    ):  # fmt: skip
        total += found * weight
    if closed or terminals:
        return total
    if total % 2:  # pragma: no cover - a bug
        raise AssertionError(f"{total} directed paths on {board.spec}: not an even number")
    return total // 2


def representatives(
    board: Board,
    closed: bool,
    start: int | None = None,
    *,
    batch: int = 4096,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> Iterator[np.ndarray]:
    """Every tour of ``board`` once up to the board's symmetries, reversal and, for a closed tour,
    its first square, as ``(k, area)`` int32 arrays of square indices, at most ``batch`` a time.

    Each tour is the least of its images (as a sequence of square indices; a closed tour's images
    start from ``a1``), which is the tour library's canonical form. With ``start``, the tours from
    ``start``, each the least of its images that start there. A board with holes is refused.
    The caller bounds the work: there is no size limit here. ``progress(done, total)`` counts
    the parts walked; arrays are handed over at least every :data:`YIELD_SECONDS`.

    >>> tours = np.concatenate(list(representatives(Board(5, 5), False)))
    >>> tours.shape, len({tuple(t) for t in tours.tolist()})
    ((112, 25), 112)
    >>> sum(len(t) for t in representatives(Board(5, 5), False, start=12, batch=5))   # from c3
    8
    """
    if board.holes:
        raise InvalidInputError("tours up to symmetry are listed on boards without holes")
    n = board.area
    if n == 1:
        if not closed:
            yield np.zeros((1, 1), dtype=np.int32)
        return
    perms, invs = (a.astype(np.int32) for a in symmetries(board.width, board.height))
    walker = _Walker(board, closed)
    if closed:
        parts = _cycles_from(walker, 0 if start is None else start)
    elif start is not None:
        parts = _paths_from(board, start)
    else:
        parts = [p for s, _ in _square_classes(board) for p in _paths_from(board, s)]
    parts = _split(walker, parts)
    batch = max(1, batch)
    out = np.zeros((batch, n), dtype=np.int32)
    held: list[np.ndarray] = []
    since = time.monotonic()
    for written, weight in _run(
        walker, parts, perms=perms, invs=invs, fixed=start is not None, out=out,
        progress=progress, deadline=deadline,
    ):  # fmt: skip
        if weight == 0:
            held.append(out[:written].copy())
        size = sum(len(h) for h in held)
        if size >= batch or (size and time.monotonic() - since > YIELD_SECONDS):
            tours = np.concatenate(held)
            held = []
            for i in range(0, len(tours), batch):
                yield tours[i : i + batch]
            since = time.monotonic()
    if held:
        yield np.concatenate(held)
