"""The search for semi-magic tours: its passes and numbered ranges, their parts, and the workers.

:func:`search` walks the quad and quarter passes where they apply, then the start passes
(:mod:`knightstour.magic.starts`), which hold every tour; the numbered ranges below, the older
two-ended walk, are walked when named.

A *range* is one class of ``(first, last)``: the squares of 1 and of N, up to the 16 symmetries
that keep a numbering semi-magic (the board's symmetries times the reversed numbering, which swaps
first and last). Every semi-magic tour lies in exactly one range, so the ranges split the census
without overlap; on 8x8 there are 136 of them, as in the 2003 census. A range is cut into *parts*,
the branches of its walk at :data:`SPLIT` placements, numbered in the walk's order; a part is the
unit of work that a worker runs to its end, and that a journal records. A part stopped by the
time limit or Ctrl-C keeps its walk (the arrays it is made of) and its tours so far, and goes on
from there; a killed process loses at most the parts under way. The walk itself is
:mod:`knightstour.kernels.magic_search`, compiled.

>>> rs = ranges(8, 8)
>>> len(rs), sum(r.size for r in rs), sum(r.closed for r in rs)
(136, 2048, 21)
>>> refusal(5, 6)
'no semi-magic tour on 5x6: its ranks have an odd number of squares, so neighbouring ranks hold different numbers of odd numbers (the knight changes colour every move) and their sums differ in parity'
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack

from knightstour.board import Board, symmetries
from knightstour.errors import InvalidInputError
from knightstour.kernels import jit
from knightstour.magic._parts import SCHEME, PartResult, Range
from knightstour.magic.quads import QUAD_RANGE, quad_range, quad_walker
from knightstour.magic.quads import scheme as quad_scheme
from knightstour.magic.quarters import QUARTER_RANGE, quarter_range, quarter_walker
from knightstour.magic.quarters import scheme as quarter_scheme
from knightstour.magic.starts import FIRST_START, is_start_range, start_walker
from knightstour.magic.starts import SCHEME as START_SCHEME
from knightstour.theory import semi_magic_obstruction, semi_magic_verdict

if TYPE_CHECKING:
    import numpy as np

    from knightstour.magic.quads import QuadWalker
    from knightstour.progress import Progress

__all__ = [
    "DISCARD",
    "MAX_AREA",
    "SCHEME",
    "Journal",
    "PartResult",
    "Range",
    "Report",
    "Walker",
    "ranges",
    "refusal",
    "scheme_of",
    "search",
]

#: The largest board the search takes (its walk keeps every number of the board in play).
MAX_AREA = 64
#: Placements after the two ends that make a part (fewer on small boards: see :func:`split`).
SPLIT = 10
#: Seconds between two looks at the parts another run is walking.
POLL = 0.2
#: What to do about a damaged saved walk, as its refusal says.
DISCARD = "run again with --discard-damaged to walk its part again from its start"


class Journal(Protocol):
    """Where a search records what it has done (:class:`knightstour.library.magic.MagicJournal`
    keeps it in a tour library)."""

    def done_parts(self, rng: Range) -> set[int] | None:
        """The parts of ``rng`` already walked; None when the whole range is."""

    def saved(self, rng: Range, *, discard_damaged: bool = False) -> dict[int, dict[str, Any]]:
        """The walks of ``rng``'s parts stopped before their ends, by part, checked
        (:mod:`knightstour.magic.saved`): a damaged one refused, or dropped with
        ``discard_damaged``."""

    def discard(self, rng: Range, part: int) -> None:
        """Drop the saved walk of ``part`` of ``rng``: the part is walked again from its start."""

    def keep(self, result: PartResult, limit: int | None = None) -> tuple[int, int]:
        """Keep a stopped part's tours so far and its walk: how many tours were new classes,
        and how many of them were taken (all, or those up to ``limit`` new classes: then the
        walk is not kept, and the part goes on from where it was)."""

    def record(self, result: PartResult, limit: int | None = None) -> tuple[int, int]:
        """Keep a finished part and its tours: how many tours were new classes, and how many
        were taken (all, or those up to ``limit`` new classes: then the part is not recorded,
        and is walked again)."""

    def claim(self, rng: Range, parts: list[int]) -> list[int]:
        """Claim ``parts`` of ``rng`` for this run: those it gets (not those recorded, nor
        those another live run holds)."""

    def release(self) -> None:
        """Drop this run's claims."""

    def finish_range(self, rng: Range, parts: int) -> bool:
        """Mark ``rng`` (of ``parts`` parts) walked if every part is recorded; whether it is."""


def scheme_of(rng: Range) -> str:
    """The journal's name for the walk of ``rng``: :data:`SCHEME`, or the quad or quarter
    pass's."""
    if rng.number == QUAD_RANGE:
        return quad_scheme(rng)
    if is_start_range(rng.number):
        return START_SCHEME + ("/closed" if rng.closed else "")
    return quarter_scheme(rng) if rng.number == QUARTER_RANGE else SCHEME


#: The structured passes (range number: the walker of a board), walked before the numbered ranges.
PASSES: dict[int, Callable[[int, int], QuadWalker]] = {
    QUAD_RANGE: quad_walker,
    QUARTER_RANGE: quarter_walker,
}


def is_pass(number: int) -> bool:
    """Whether range ``number`` is a pass (the quad, quarter or a start pass), not a numbered
    range."""
    return number in PASSES or is_start_range(number)


@dataclass
class Report:
    """The outcome of :func:`search`: what was found and how far it got (``ranges`` and
    ``ranges_done`` count the numbered ranges, not the quad and quarter passes)."""

    ranges: int
    ranges_done: int = 0
    #: whether the quad pass was asked for, and whether it is walked to its end
    quads: bool = False
    quads_done: bool = False
    #: likewise the quarter pass (:mod:`knightstour.magic.quarters`)
    quarters: bool = False
    quarters_done: bool = False
    #: the start passes asked for (:mod:`knightstour.magic.starts`), and those walked whole
    starts: int = 0
    starts_done: int = 0
    parts_done: int = 0
    found: int = 0
    new: int = 0
    nodes: int = 0
    seconds: float = 0.0
    #: seconds this process spent compiling kernels during the run, left out of ``seconds``
    compiling: float = 0.0
    stopped: str | None = None
    tours: list[np.ndarray] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every range asked for (the quad and quarter passes among them) has been
        walked to its end."""
        return (self.ranges_done == self.ranges and (self.quads_done or not self.quads)
                and (self.quarters_done or not self.quarters)
                and self.starts_done == self.starts)  # fmt: skip


def refusal(width: int, height: int) -> str | None:
    """Why the search cannot take ``width x height``, or None when it can: a board a theorem
    rules out (:func:`knightstour.theory.semi_magic_verdict`), but for Jelliss's theorem, which
    the walk of 6x6 confirms; or a board of more than :data:`MAX_AREA` squares.

    >>> refusal(8, 8) is None, refusal(6, 6) is None, refusal(3, 4) is not None
    (True, True, True)
    """
    board = Board(width, height)
    verdict = semi_magic_verdict(board)
    if verdict is not None and semi_magic_obstruction(board) is None:
        return verdict.reason
    if width * height > MAX_AREA:
        return (
            f"the search takes boards of up to {MAX_AREA} squares, not {width}x{height} "
            f"({width * height} squares)"
        )
    return None


def split(width: int, height: int) -> int:
    """The placements that make a part on ``width x height``: :data:`SPLIT` on 8x8, fewer on
    smaller boards."""
    return max(2, min(SPLIT, width * height // 8))


@lru_cache(maxsize=16)
def ranges(width: int, height: int) -> tuple[Range, ...]:
    """Every range of ``width x height``, in order: the least ``(first, last)`` of each class.

    Boards the search takes only (at most :data:`MAX_AREA` squares); others are an
    :class:`InvalidInputError` naming the board, before any table is made.

    >>> len(ranges(8, 8))
    136
    >>> ranges(10**9, 10**9)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: ranges are made for boards of 2 to 64 squares, not 1000000000x1000000000
    """
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (width, height)):
        raise InvalidInputError(f"ranges: width and height must be positive integers, got "
                                f"{width!r} and {height!r}")  # fmt: skip
    if not 1 < width * height <= MAX_AREA:
        raise InvalidInputError(
            f"ranges are made for boards of 2 to {MAX_AREA} squares, not {width}x{height}"
        )
    return _ranges_and_pairs(width, height)[0]


def range_numbers(width: int, height: int) -> dict[tuple[int, int], int]:
    """The number of the range of each ordered pair ``(square of 1, square of N)`` of squares of
    opposite colours (boards :func:`ranges` takes; one table a board, shared: read it only).

    >>> table = range_numbers(8, 8)
    >>> len(table), table[(0, 1)], table[(1, 0)], table[(7, 6)]   # h1-g1: a1-b1 reflected
    (2048, 1, 1, 1)
    """
    ranges(width, height)  # the board's checks
    return _ranges_and_pairs(width, height)[1]


@lru_cache(maxsize=16)
def _ranges_and_pairs(
    width: int, height: int
) -> tuple[tuple[Range, ...], dict[tuple[int, int], int]]:
    """The ranges, and the range of each ordered pair of ends: one walk over the orbits."""
    import numpy as np

    n = width * height
    perms, _ = symmetries(width, height)
    colour = (np.arange(n) % width + np.arange(n) // width) % 2
    board = Board(width, height)
    table = board.neighbour_table()
    number: dict[tuple[int, int], int] = {}
    out: list[Range] = []
    for f in range(n):
        for last in range(n):
            if colour[f] == colour[last] or (f, last) in number:
                continue
            orbit = set()
            for g in perms:
                a, b = int(g[f]), int(g[last])
                orbit.add((a, b))
                orbit.add((b, a))
            number.update(dict.fromkeys(orbit, len(out) + 1))
            closed = bool((table[f] == last).any())
            out.append(Range(len(out) + 1, f, last, len(orbit), closed))
    return tuple(out), number


class Walker:
    """The compiled walk on one board: cuts ranges into parts and walks a part to its end."""

    def __init__(self, width: int, height: int, *, compiled: bool = True) -> None:
        import numpy as np

        from knightstour.kernels import jit
        from knightstour.kernels import magic_search as ks
        from knightstour.kernels.enumerate import compact_neighbours

        reason = refusal(width, height)
        if reason is not None:
            raise InvalidInputError(reason)
        self.width, self.height = width, height
        self.n = n = width * height
        self.k = jit.load(ks, compiled=compiled)
        self.ks = ks
        self.nbr, self.nn = compact_neighbours(Board(width, height).neighbour_table())
        self.adj = np.zeros((n, n), np.uint8)
        for v in range(n):
            self.adj[v, self.nbr[v, : self.nn[v]]] = 1
        idx = np.arange(n)
        x, y = idx % width, idx // width
        self.lines = np.stack([y, height + x], axis=1).astype(np.int32)
        self.colour = ((x + y) % 2).astype(np.uint8)
        self.const = np.array(
            [width * (n + 1) // 2] * height + [height * (n + 1) // 2] * width, np.int64
        )
        self.side = (np.arange(max(n, 1)) % 2).astype(np.int32)
        self.split = split(width, height)

    def _state(self, first: int) -> dict[str, Any]:
        import numpy as np

        n, nl = self.n, self.width + self.height
        return {
            "odd": (self.colour == self.colour[first]).astype(np.uint8),
            "num": np.zeros(n, np.int32),
            "avail": np.zeros(n, np.int32),
            "lsum": np.zeros(nl, np.int64),
            "lodd": np.zeros(nl, np.int32),
            "leven": np.zeros(nl, np.int32),
            "head": np.zeros(2, np.int32),
            "placed": np.zeros(n, np.int32),
            "prev": np.zeros(n, np.int32),
            "cand": np.zeros((n, 8), np.int32),
            "ncand": np.zeros(n, np.int32),
            "ci": np.zeros(n, np.int32),
            "meta": np.zeros(self.ks.META, np.int64),
            "work": np.zeros(2 * nl, np.int64),
        }

    def _setup(self, st: dict[str, Any], first: int, last: int, prefix: np.ndarray) -> bool:
        import numpy as np

        prefix = np.ascontiguousarray(prefix, dtype=np.int32)
        return bool(self.k.setup(first, last, prefix, self.board, self._tuple(st)))

    def _walk(self, st: dict[str, Any], budget: int, stop: np.ndarray, cut: int,
              out: np.ndarray) -> int:  # fmt: skip
        return int(self.k.walk(self.board, self._tuple(st), budget, stop, cut, out))

    @property
    def board(self) -> tuple[np.ndarray, ...]:
        """The board's arrays as the one tuple the kernels take (``ks.BOARD``)."""
        return tuple(getattr(self, name) for name in self.ks.BOARD)

    def _tuple(self, st: dict[str, Any]) -> tuple[np.ndarray, ...]:
        """The walk's arrays ``st`` as the one tuple the kernels take (``ks.STATE``)."""
        return tuple(st[name] for name in self.ks.STATE)

    def _drain(self, st: dict[str, Any], stop: np.ndarray, cut: int, width: int,
               budget: int) -> tuple[list[np.ndarray], bool]:  # fmt: skip
        """Every row the walk writes, in order, and whether it reached its end."""
        import numpy as np

        ks = self.ks
        out = np.zeros((256, width), np.int32)
        rows: list[np.ndarray] = []
        while True:
            status = self._walk(st, budget, stop, cut, out)
            rows.append(out[: int(st["meta"][ks.WRITTEN])].copy())
            if status == ks.DONE:
                return rows, True
            if status == ks.BUDGET:
                return rows, False

    def parts(self, rng: Range) -> np.ndarray:
        """The prefixes of ``rng``'s parts (squares placed by the two fronts in turn), in order.

        The quad and quarter passes (ranges 0 and -1, :data:`PASSES`) have parts without
        prefixes."""
        import numpy as np

        if is_start_range(rng.number):
            return np.zeros((start_walker(self.width, self.height).nparts(rng), 0), np.int32)
        if rng.number in PASSES:
            return np.zeros((PASSES[rng.number](self.width, self.height).nparts, 0), np.int32)
        st = self._state(rng.first)
        base = np.array(rng.prefix, np.int32)
        cut = len(base) + self.split
        if not self._setup(st, rng.first, rng.last, base):
            return np.zeros((0, cut), np.int32)
        if self.n - 2 <= cut:  # the whole range is one part
            return base[None, :]
        rows, _ = self._drain(st, np.zeros(1, np.uint8), cut, cut, 2**62)
        return np.concatenate(rows) if rows else np.zeros((0, cut), np.int32)

    def run(self, rng: Range, part: int, prefix: np.ndarray, stop: np.ndarray | None = None,
            budget: int = 2**62, state: dict[str, Any] | None = None) -> PartResult:  # fmt: skip
        """Walk one part to its end (or until ``stop[0]`` is set or ``budget`` nodes are spent),
        from its start or from the ``state`` a stopped walk of it left."""
        import numpy as np

        if is_start_range(rng.number):
            return start_walker(self.width, self.height).run(rng, part, stop, budget, state)
        if rng.number in PASSES:
            return PASSES[rng.number](self.width, self.height).run(rng, part, stop, budget, state)
        t0 = time.perf_counter()
        stop = np.zeros(1, np.uint8) if stop is None else stop
        ks = self.ks
        tours = np.zeros((0, self.n), np.int32)
        if state is not None:
            st = self.restore(rng, prefix, state)
            ready = True
        else:
            st = self._state(rng.first)
            ready = self._setup(st, rng.first, rng.last, prefix)
        before = int(st["meta"][ks.NODES])
        done = True
        if ready:
            rows, done = self._drain(st, stop, -1, self.n, budget)
            tours = np.concatenate(rows)
        meta = st["meta"]
        return PartResult(
            rng.number, part, tours, int(meta[ks.NODES]) - before, time.perf_counter() - t0,
            done, None if done else self.saved(st), int(meta[ks.FOUND]), int(meta[ks.NODES]),
        )  # fmt: skip

    def probe(self, rng: Range, generator: Any) -> float:
        """One of Knuth's random probes down the walk of ``rng`` (a numbered range): the walk's
        nodes as this probe estimates them, the sum over its depths of the candidates tried
        there times the product of the branchings above (each a count of the candidates that
        pass the cuts). The mean over many probes estimates the nodes of the whole range;
        ``generator`` is a :class:`random.Random`.

        >>> import random
        >>> w = Walker(4, 6, compiled=False)
        >>> w.probe(ranges(4, 6)[0], random.Random(1)) >= 0
        True
        """
        import numpy as np

        k = self.k
        st = self._state(rng.first)
        if not self._setup(st, rng.first, rng.last, np.zeros(0, np.int32)):
            return 0.0
        board, state = self.board, self._tuple(st)
        total, weight, d = 0.0, 1.0, 0
        while True:
            s = int(self.side[d])
            cands = st["cand"][d, : st["ncand"][d]].tolist()
            total += weight * len(cands)  # every candidate tried is a node
            good = []
            for q in cands:
                h = int(st["head"][s])
                if k.place(q, s, board, state):
                    good.append(q)
                    k.unplace(q, s, h, board, state)
            if not good or d == self.n - 3:
                return total
            q = generator.choice(good)
            weight *= len(good)
            h = int(st["head"][s])
            k.place(q, s, board, state)
            st["prev"][d], st["placed"][d] = h, q
            d += 1
            k.candidates(d, int(self.side[d]), board, state)

    def check(self, rng: Range, part: int, prefix: np.ndarray, walk: dict[str, Any]) -> None:
        """Refuse (:class:`InvalidInputError`, saying what does not fit) a saved ``walk`` that
        is not one of part ``part`` (squares ``prefix``) of ``rng``: the walk rebuilt as
        :meth:`run` would rebuild it."""
        if is_start_range(rng.number):
            start_walker(self.width, self.height).restore(rng, part, walk)
        elif rng.number in PASSES:
            PASSES[rng.number](self.width, self.height).restore(part, walk)
        else:
            self.restore(rng, prefix, walk)

    def saved(self, st: dict[str, Any]) -> dict[str, Any]:
        """What a stopped walk keeps of its state ``st`` (:mod:`knightstour.magic.saved`): the
        squares placed after the two ends, the next candidate at the depth it stopped at, its
        nodes and tours so far."""
        import numpy as np

        meta, depth = st["meta"], int(st["meta"][self.ks.DEPTH])
        return {
            "path": np.array(st["placed"][:depth], dtype=np.int32),
            "cursor": int(st["ci"][depth]),
            "nodes": int(meta[self.ks.NODES]),
            "found": int(meta[self.ks.FOUND]),
        }

    def restore(self, rng: Range, prefix: np.ndarray, walk: dict[str, Any]) -> dict[str, Any]:
        """The walk's arrays rebuilt from what a stopped walk of the part ``prefix`` of ``rng``
        kept (:meth:`saved`): its path placed move by move through the walk's own cuts, then
        the cursors. A path that is not a walk of the part, or a cursor past its candidates, is
        an :class:`InvalidInputError` saying so; the compiled walk sees only squares that are
        on the board, distinct and after the part's own."""
        import numpy as np

        ks, n = self.ks, self.n
        path = np.asarray(walk["path"])
        base = len(prefix)
        if path.ndim != 1 or not base <= len(path) <= n - 3:
            raise InvalidInputError(f"its path of {path.size} squares is not a walk of this part")
        path = path.astype(np.int32)
        if not np.array_equal(path[:base], np.asarray(prefix, np.int32)):
            raise InvalidInputError("its path does not begin with this part's squares")
        ends = {rng.first, rng.last}
        if ((path < 0) | (path >= n)).any() or len(set(path.tolist()) | ends) != len(path) + 2:
            raise InvalidInputError("its path holds squares off the board or twice")
        st = self._state(rng.first)
        if not self._setup(st, rng.first, rng.last, path):
            raise InvalidInputError("its path is not a walk of this part (a move or a cut fails)")
        depth = len(path)
        for d in range(depth):  # the candidate after the one placed, at every depth
            st["ci"][d] = int(np.flatnonzero(st["cand"][d, : st["ncand"][d]] == path[d])[0]) + 1
        cursor = int(walk["cursor"])
        if not 0 <= cursor < st["ncand"][depth]:
            raise InvalidInputError(
                f"its cursor {cursor} is past the {int(st['ncand'][depth])} candidates of its depth"
            )
        st["ci"][depth] = cursor
        meta = st["meta"]
        meta[ks.BASE], meta[ks.DEPTH] = base, depth
        meta[ks.NODES], meta[ks.FOUND] = int(walk["nodes"]), int(walk["found"])
        return st


@lru_cache(maxsize=4)
def _walker(width: int, height: int) -> Walker:
    return Walker(width, height)


def run_part(width: int, height: int, rng: Range, part: int, prefix: np.ndarray,
             state: dict[str, Any] | None = None) -> PartResult:  # fmt: skip
    """Walk one part on this process's compiled walker: what a Dask worker runs."""
    return _walker(width, height).run(rng, part, prefix, state=state)


def _checked_walks(walker: Walker, journal: Journal, rng: Range, prefixes: np.ndarray,
                   discard_damaged: bool) -> dict[int, dict[str, Any]]:  # fmt: skip
    """The saved walks of ``rng``'s parts, each rebuilt once to prove it a walk of its part
    before any is walked on: a damaged one refused in one line, or dropped (``discard_damaged``)."""
    saved = journal.saved(rng, discard_damaged=discard_damaged)
    for part, walk in list(saved.items()):
        if not 0 <= part < len(prefixes):
            del saved[part]  # not a part of this range: never walked on
            continue
        try:
            walker.check(rng, part, prefixes[part], walk)
        except InvalidInputError as e:
            if not discard_damaged:
                raise InvalidInputError(
                    f"the saved walk of part {part} of range {rng.number} of {walker.width}x"
                    f"{walker.height} is damaged: {e} ({DISCARD})"
                ) from None
            journal.discard(rng, part)
            del saved[part]
    return saved


def _wait(futures: list[Any], timeout: float | None, dask: bool) -> list[Any]:
    """The futures done once one is (or ``timeout`` seconds pass): threads' or Dask's."""
    if not dask:
        return list(wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)[0])
    end = None if timeout is None else time.monotonic() + timeout
    while True:  # a Dask future tells whether it is done; polling keeps the client our own
        ready = [f for f in futures if f.done()]
        if ready or (end is not None and time.monotonic() >= end):
            return ready
        time.sleep(0.01)


def _connect(scheduler: str, deadline: float | None) -> Any:
    from knightstour.counting.distributed import connect

    return connect(scheduler, deadline)


class SearchOptions(TypedDict, total=False):
    """The keywords of :func:`search`, all optional; :class:`_Search` takes them whole."""

    closed: bool
    count: int | None
    time_limit: float | None
    workers: int | None
    scheduler: str | None
    only: Iterable[int] | None
    progress: Progress | None
    on_found: Callable[[np.ndarray], None] | None
    discard_damaged: bool


def search(width: int, height: int, journal: Journal, **options: Unpack[SearchOptions]) -> Report:
    """Walk the passes of ``width x height`` in order (the quad and quarter passes where they
    apply, then the start passes: :func:`_chosen`; of closed tours only with ``closed``; only
    the numbers in ``only`` when given, which may name the numbered ranges too), recording each
    part in ``journal``, until ``count`` new classes are found, ``time_limit`` seconds pass, or
    every one is done.

    The parts run on ``workers`` threads (default: every core), or on the Dask cluster at
    ``scheduler``. Ctrl-C stops it cleanly: the walks under way are kept, everything recorded
    stays. A part that fails stops the others (their walks kept too), and its error is raised.
    ``progress(done, total)`` counts the parts of the range under way. A saved walk is checked
    before it is walked on (:mod:`knightstour.magic.saved`): a damaged one is an
    :class:`InvalidInputError`, or with ``discard_damaged`` its part is walked from its start.
    """
    chosen = _chosen(width, height, options.get("closed", False), options.get("only"))
    run = _Search(width, height, journal, chosen, options)
    try:
        run.walk(chosen)
    except BaseException as e:  # Ctrl-C, or a part or the journal failed: stop every part
        run.abandon(e)
        raise
    finally:
        run.close()
    return run.report


def _chosen(width: int, height: int, closed: bool, only: Iterable[int] | None) -> list[Range]:
    """The ranges a search walks, in order: the quad pass and the quarter pass first where they
    apply, then the start passes (Denef's decomposition, which hold every tour: of closed tours
    only with ``closed``); only those numbered in ``only`` when given, which may also name the
    numbered ranges of the two-ended walk (1, 2, ...: walked last, in order). An unknown number
    is an :class:`InvalidInputError`. (Every board :func:`refusal` lets through has both sides
    even, which the start passes walk.)"""
    reason = refusal(width, height)
    if reason is not None:
        raise InvalidInputError(reason)
    starts = [dataclasses.replace(r, closed=closed) for r in start_walker(width, height).ranges]
    chosen = [*starts, *(r for r in ranges(width, height) if r.closed or not closed)]
    quads = quad_range(width, height, closed)
    quarters = quarter_range(width, height, closed)
    if quarters is not None:  # the quarter pass: minutes, classes the quads miss
        chosen.insert(0, quarters)
    if quads is not None:  # the quad pass first: it finds tours in seconds where it applies
        chosen.insert(0, quads)
    if only is None:
        return [r for r in chosen if is_pass(r.number)]
    wanted = set(only)
    if not wanted:
        raise InvalidInputError("no range to walk: name one at least")
    every = {r.number for r in ranges(width, height)}
    known = {r.number for r in chosen} | every
    open_only = sorted(wanted & every - {r.number for r in chosen})
    if open_only:  # with closed: a numbered range whose ends are not a move apart
        raise InvalidInputError(
            f"range {open_only[0]} of {width}x{height} holds no closed tours: its ends are not a "
            "knight's move apart"
        )
    bad = sorted(wanted - known)
    if bad:
        raise InvalidInputError(
            f"{width}x{height} has ranges 1 to {len(ranges(width, height))}"
            f"{', 0 (the quad pass), -1 (the quarter pass)' if quads else ''} and "
            f"{FIRST_START} to {starts[-1].number} (the start passes), not {bad[0]}"
        )
    return [r for r in chosen if r.number in wanted]


class _Search:
    """One run of :func:`search`: its parts on threads or a Dask cluster, and its report."""

    def __init__(
        self, width: int, height: int, journal: Journal, chosen: list[Range], options: SearchOptions
    ) -> None:
        import os

        self.width, self.height, self.journal = width, height, journal
        self.count, self.progress = options.get("count"), options.get("progress")
        self.on_found = options.get("on_found")
        self.discard_damaged = options.get("discard_damaged", False)
        time_limit, scheduler = options.get("time_limit"), options.get("scheduler")
        self.walker = _walker(width, height)
        self.report = Report(
            sum(not is_pass(r.number) for r in chosen),
            quads=any(r.number == QUAD_RANGE for r in chosen),
            quarters=any(r.number == QUARTER_RANGE for r in chosen),
            starts=sum(is_start_range(r.number) for r in chosen),
        )
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.client = _connect(scheduler, self.deadline) if scheduler else None
        threads = max(1, options.get("workers") or os.cpu_count() or 1)
        self.pool = None if self.client else ThreadPoolExecutor(threads)
        #: parts submitted at once: two a thread, or 64 on a cluster
        self.window = 2 * threads if self.client is None else 64
        self.lock = threading.Lock()
        self.stop_flags: list[np.ndarray] = []
        self.watch = jit.Stopwatch()
        self.inflight: dict[Future[PartResult], int] = {}
        #: the range being walked and its saved walks by part (to time a part over its calls)
        self.saved_walks: tuple[int, dict[int, dict[str, Any]]] = (0, {})
        self.prefixes: dict[int, np.ndarray] = {}

    def submit(self, rng: Range, part: int, prefix: np.ndarray,
               state: dict[str, Any] | None) -> Future[PartResult]:  # fmt: skip
        """Start walking part ``part`` of ``rng`` (from a saved walk ``state`` if any)."""
        if self.client is not None:
            return self.client.submit(  # type: ignore[no-any-return]
                run_part, self.width, self.height, rng, part, prefix, state, pure=False
            )
        import numpy as np

        flag = np.zeros(1, np.uint8)
        with self.lock:
            self.stop_flags.append(flag)
        assert self.pool is not None
        return self.pool.submit(self.walker.run, rng, part, prefix, flag, 2**62, state)

    def halt(self, why: str) -> None:
        """Stop every part (the first reason given is the report's)."""
        self.report.stopped = self.report.stopped or why
        with self.lock:
            for f in self.stop_flags:
                f[0] = 1

    def mark_walked(self, rng: Range) -> None:
        """Count ``rng`` as walked whole in the report."""
        self.report.ranges_done += not is_pass(rng.number)
        self.report.starts_done += is_start_range(rng.number)
        self.report.quads_done |= rng.number == QUAD_RANGE
        self.report.quarters_done |= rng.number == QUARTER_RANGE

    def take(self, res: PartResult) -> None:
        """Store what a part gave (recorded when done, its walk kept when stopped, timed over
        every call that walked it), no more new classes than ``count`` allows, and hand its
        tours over."""
        report, count = self.report, self.count
        report.nodes += res.nodes
        number, saved = self.saved_walks
        earlier = saved.get(res.part) if res.range == number else None
        res.total_seconds = res.seconds + (earlier["seconds"] if earlier is not None else 0.0)
        if res.state is not None:
            res.state["seconds"] = res.total_seconds
        if not res.done and (res.state is None or res.nodes == 0):
            return  # cut short on a cluster, or not begun: walked next time
        allowance = None if count is None else max(0, count - report.new)
        record = self.journal.record if res.done else self.journal.keep
        new, taken = record(res, allowance)
        report.new += new
        report.found += taken
        report.tours.extend(res.tours[:taken])
        if self.on_found is not None:
            for t in res.tours[:taken]:
                self.on_found(t)
        if res.done and taken == len(res.tours):
            report.parts_done += 1
        if count is not None and report.new >= count:
            self.halt("count")

    def walk_range(self, rng: Range) -> bool:
        """Walk the parts of ``rng`` that no other run holds; whether the range is walked."""
        journal, report = self.journal, self.report
        done = journal.done_parts(rng)
        if done is None:
            return True
        if rng.number not in self.prefixes:
            self.prefixes[rng.number] = self.walker.parts(rng)
        parts = self.prefixes[rng.number]
        total = len(parts)
        todo = [p for p in range(total) if p not in done]
        saved = _checked_walks(self.walker, journal, rng, parts, self.discard_damaged)
        self.saved_walks = (rng.number, saved)
        finished = total - len(todo)
        if self.progress is not None:
            self.progress(finished, total)
        running: dict[Future[PartResult], int] = {}
        self.inflight = running
        queue = iter(todo)
        exhausted = False
        while True:
            while not exhausted and len(running) < self.window and report.stopped is None:
                batch = list(itertools.islice(queue, self.window - len(running)))
                if not batch:
                    exhausted = True
                    break
                for p in journal.claim(rng, batch):  # parts another live run holds: skipped
                    running[self.submit(rng, p, parts[p], saved.get(p))] = p
            if not running:
                break
            timeout = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            ready = _wait(list(running), timeout, self.client is not None)
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.halt("time limit")
            for fut in ready:
                running.pop(fut)
                res = fut.result()
                self.take(res)
                if res.done:
                    finished += 1
                    if self.progress is not None:
                        self.progress(finished, total)
            if report.stopped is not None and self.client is not None:
                for fut in running:
                    fut.cancel()
                running.clear()
        return journal.finish_range(rng, total)

    def walk(self, chosen: list[Range]) -> None:
        """Walk the ranges ``chosen`` in order, then wait for those whose last parts other runs
        are walking (or take over a dead run's), until done or stopped."""
        report, deadline = self.report, self.deadline
        waiting: list[Range] = []
        for rng in chosen:
            if self.walk_range(rng):
                self.mark_walked(rng)
            elif report.stopped is None:
                waiting.append(rng)
            if report.stopped is not None:
                return
        while waiting and report.stopped is None:
            pause = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            time.sleep(max(0.0, pause))
            if deadline is not None and time.monotonic() >= deadline:
                self.halt("time limit")
                return
            still = []
            for rng in waiting:
                if self.walk_range(rng):
                    self.mark_walked(rng)
                else:
                    still.append(rng)
                if report.stopped is not None:
                    break
            waiting = still

    def abandon(self, e: BaseException) -> None:
        """Stop every part after Ctrl-C or a failure; on threads, keep the walks they were on."""
        self.halt("interrupted" if isinstance(e, KeyboardInterrupt) else "failed")
        if self.client is None:  # the threads stop at once: keep the walks they were on
            for fut in list(self.inflight):
                with contextlib.suppress(Exception):  # the first failure is the one to tell
                    self.take(fut.result())

    def close(self) -> None:
        """Let the threads end, release the journal's claims, and time the run."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.journal.release()
        if self.client is not None:
            self.client.close()
        self.report.seconds, self.report.compiling = self.watch.read()
