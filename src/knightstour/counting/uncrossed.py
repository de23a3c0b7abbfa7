"""The longest uncrossed knight's path (or cycle) of a board, exactly: a max-plus frontier sweep.

A path is *uncrossed* when no two of its moves, drawn as segments between square centres, have
a point in common unless they share a square (the crossings of :mod:`knightstour.geometry`).
:func:`longest_uncrossed` finds one with the most moves, and proves that none has more: the
sweep considers every uncrossed path (or cycle) of the board, merging only partial paths that
every completion treats alike and keeping the longest of them (docs/geometry.md, *The longest
uncrossed path*).

>>> best = longest_uncrossed("5x5")
>>> best.length, best.closed, len(best.path)
(10, False, 11)
>>> longest_uncrossed("6x6", closed=True).length
12

The sweep takes the squares one at a time, rank by rank along the board's short side (file by
file when the board is wider than tall). A move is decided when its later square is taken. The
state before a square is the frontier's squares (taken squares with an untaken neighbour), each
with its degree and which other frontier square ends the same piece of path, and one bit for
each *pending* move (a move still to be decided that a decided move crosses): whether a move of
the path crosses it, so that it can no longer be taken. States are merged when they agree,
keeping the most moves (maximum instead of the counting sweep's sum); the state each came from
is kept, and one optimal path is walked back. Branch and bound: a first sweep that keeps only
the longest states of each step finds a length ``L``; the exact sweep then drops every state
that cannot end above ``L`` even if each window of the board still to come added the most
moves any uncrossed set of moves can have there (:func:`_bounds`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from knightstour import arguments
from knightstour.board import Board, BoardLike, available_memory, parse_board
from knightstour.errors import InternalError, InvalidInputError, SearchFailedError
from knightstour.geometry import require_flat, segments_cross
from knightstour.kernels import jit
from knightstour.kernels import uncrossed as _KERNELS
from knightstour.tour import PartialTour

__all__ = ["MAX_BITS", "MAX_PENDING", "Plan", "Uncrossed", "longest_uncrossed", "plan"]

#: The most bits a state holds (two 64-bit words): a 4-bit code for each frontier square (13
#: labels for pieces' ends), then one bit for each pending move.
MAX_BITS = 128
#: The most pending moves a state holds (their bits are handled as one 64-bit word).
MAX_PENDING = 64
#: The widest short side the sweep takes on: a state set grows about tenfold a file, and 11
#: wide already needs more memory than a small machine has (docs/geometry.md).
MAX_WIDTH = 10

_SENTINEL = np.uint64(0xFFFFFFFFFFFFFFFF)
# a row of the table: the key's two words, then the moves, the state before and the choice in one
_ROW_BYTES = 24
# a state kept after its step: its key, moves, the state before and the choice (the walk back
# keeps the last two of every step)
_STATE_BYTES = 16 + 4 + 4 + 1


@dataclass(frozen=True)
class Plan:
    """What the sweep reads at each step (made once per board).

    ``order``: the squares in the order they are taken. For step ``t``: ``back[t]`` the
    squares its backward moves reach, ``back_slot[t]`` their frontier slots, ``back_bit[t]``
    their pending bits (0: no move decided crosses it), ``npend[t]`` the pending moves before
    the step, ``pmap[t]`` where each pending move after the step comes from (-1: new),
    ``pcross[t]`` the pending moves after the step each backward move crosses, ``pmask[t]``
    the pending moves of each frontier slot after the step, ``stuckable[t]`` whether every
    move still to come to that slot is pending, ``fmap[t]`` where each frontier slot after
    the step comes from, ``leave[t]`` the slots leaving the frontier. ``frontier`` and
    ``pending`` are the largest sizes met.

    The mirror across the lines (``mirror_of``: each square's image, empty on a board with
    holes) maps the frontier and the pending moves after a step that ends a line onto
    themselves: ``mirror_slot[t]`` is the slot of each slot's image and ``mirror_pending[t]``
    the pending move of each one's image (both empty after the other steps). A state and its
    mirror image there have the same completions, mirrored, so the sweep keeps one of them.
    """

    board: Board
    order: tuple[int, ...]
    back: tuple[tuple[int, ...], ...]
    back_slot: tuple[np.ndarray, ...]
    back_bit: tuple[np.ndarray, ...]
    npend: tuple[int, ...]
    pmap: tuple[np.ndarray, ...]
    pcross: tuple[np.ndarray, ...]
    pmask: tuple[np.ndarray, ...]
    stuckable: tuple[np.ndarray, ...]
    nf: tuple[int, ...]
    fmap: tuple[np.ndarray, ...]
    leave: tuple[np.ndarray, ...]
    frontier: int
    pending: int
    mirror_of: tuple[int, ...] = ()
    mirror_slot: tuple[np.ndarray, ...] = ()
    mirror_pending: tuple[np.ndarray, ...] = ()


def _sweep_order(board: Board) -> list[int]:
    w, h = board.width, board.height
    if w <= h:
        cells = [(x, y) for y in range(h) for x in range(w)]
    else:
        cells = [(x, y) for x in range(w) for y in range(h)]
    return [board.index(x, y) for x, y in cells if board.index(x, y) not in board.holes]


def plan(board: BoardLike) -> Plan:
    """The sweep's plan for ``board`` (refuses a board it cannot take, in one line).

    >>> p = plan("8x8")
    >>> len(p.order), p.frontier, p.pending
    (64, 17, 19)
    """
    b = parse_board(board)
    require_flat(b)
    order = _sweep_order(b)
    pos = {s: i for i, s in enumerate(order)}
    xy = {s: b.xy(s) for s in order}
    # the moves, each decided at the step of its later square
    back: list[list[int]] = []
    edges: list[tuple[int, int]] = []  # (earlier square, later square)
    back_edges: list[list[int]] = []
    for t, v in enumerate(order):
        earlier = sorted((u for u in b.moves(v) if pos[u] < t), key=pos.__getitem__)
        back.append(earlier)
        back_edges.append(list(range(len(edges), len(edges) + len(earlier))))
        edges.extend((u, v) for u in earlier)
    step_of = [pos[v] for _, v in edges]
    crosses = _crossing_moves(b, edges, xy)
    ahead: dict[int, list[int]] = {s: [] for s in order}  # each square's moves to later squares
    for e, (u, _v) in enumerate(edges):
        ahead[u].append(e)
    maxnb = {s: max((pos[u] for u in b.moves(s)), default=-1) for s in order}

    mirror = _mirror(b)
    edge_of = {frozenset(e): i for i, e in enumerate(edges)}
    mirror_slot: list[np.ndarray] = []
    mirror_pending: list[np.ndarray] = []
    none = np.zeros(0, dtype=np.int64)
    frontier: list[int] = []  # squares, by when they were taken
    pending: list[int] = []  # moves still to be decided that a decided move crosses, by number
    back_slot, back_bit, npend, pmap, pcross, pmask, stuckable = [], [], [], [], [], [], []
    nf, fmap, leave = [], [], []
    most_f = most_p = 0
    for t, v in enumerate(order):
        slot = {s: i for i, s in enumerate(frontier)}
        pslot = {e: i for i, e in enumerate(pending)}
        back_slot.append(np.array([slot[u] for u in back[t]], dtype=np.int64))
        back_bit.append(
            np.array([1 << pslot[e] if e in pslot else 0 for e in back_edges[t]], dtype=np.uint64)
        )
        npend.append(len(pending))
        nf.append(len(frontier))
        ext = [*frontier, v]
        after = [s for s in ext if maxnb[s] > t]
        fmap.append(np.array([ext.index(s) for s in after], dtype=np.int64))
        leave.append(np.array([i for i, s in enumerate(ext) if maxnb[s] <= t], dtype=np.int64))
        new_pending = sorted(
            {e for e in pending if step_of[e] > t}
            | {f for e in back_edges[t] for f in crosses[e] if step_of[f] > t}
        )
        if len(new_pending) > MAX_PENDING:  # before a bit is asked past a word's 64
            raise InvalidInputError(
                f"the longest uncrossed path on {b.spec}: a state would hold more than "
                f"{MAX_PENDING} pending moves, more than the sweep's words take"
            )
        npslot = {e: i for i, e in enumerate(new_pending)}
        pmap.append(np.array([pslot.get(e, -1) for e in new_pending], dtype=np.int64))
        pcross.append(
            np.array(
                [sum(1 << npslot[f] for f in crosses[e] if f in npslot) for e in back_edges[t]],
                dtype=np.uint64,
            )
        )
        masks, stuck = [], []
        for s in after:
            coming = [e for e in ahead[s] if step_of[e] > t]
            masks.append(sum(1 << npslot[e] for e in coming if e in npslot))
            stuck.append(bool(coming) and all(e in npslot for e in coming))
        pmask.append(np.array(masks, dtype=np.uint64))
        stuckable.append(np.array(stuck, dtype=np.bool_))
        msl, mpd = none, none
        line_end = (t + 1) % min(b.width, b.height) == 0  # the taken squares: whole lines
        if mirror and line_end and {mirror[s] for s in after} == set(after):
            images = [edge_of[frozenset((mirror[u], mirror[v]))] for u, v in
                      (edges[e] for e in new_pending)]  # fmt: skip
            if set(images) == set(new_pending):
                msl = np.array([after.index(mirror[s]) for s in after], dtype=np.int64)
                mpd = np.array([npslot[e] for e in images], dtype=np.int64)
        mirror_slot.append(msl)
        mirror_pending.append(mpd)
        frontier, pending = after, new_pending
        most_f = max(most_f, len(frontier))
        most_p = max(most_p, len(pending))
    return Plan(
        board=b,
        order=tuple(order),
        back=tuple(tuple(x) for x in back),
        back_slot=tuple(back_slot),
        back_bit=tuple(back_bit),
        npend=tuple(npend),
        pmap=tuple(pmap),
        pcross=tuple(pcross),
        pmask=tuple(pmask),
        stuckable=tuple(stuckable),
        nf=tuple(nf),
        fmap=tuple(fmap),
        leave=tuple(leave),
        frontier=most_f,
        pending=most_p,
        mirror_of=tuple(mirror),
        mirror_slot=tuple(mirror_slot),
        mirror_pending=tuple(mirror_pending),
    )


def _mirror(b: Board) -> list[int]:
    """Each square's image in the mirror across the sweep's lines (the files of a board swept
    rank by rank), or [] on a board with holes (its holes need not be symmetric)."""
    if b.holes:
        return []
    if b.width <= b.height:
        return [b.index(b.width - 1 - x, y) for y in range(b.height) for x in range(b.width)]
    return [b.index(x, b.height - 1 - y) for y in range(b.height) for x in range(b.width)]


def _crossing_moves(
    b: Board,
    edges: list[tuple[int, int]],
    xy: dict[int, tuple[int, int]],
) -> list[list[int]]:
    """For each move, the moves that cross it (sharing no square, a point in common)."""
    reach = 2 * max(b.leaper)
    at: dict[tuple[int, int], list[int]] = {}
    for e, (u, _v) in enumerate(edges):
        at.setdefault(xy[u], []).append(e)
    out: list[list[int]] = [[] for _ in edges]
    for e, (u, v) in enumerate(edges):
        (ux, uy), pv = xy[u], xy[v]
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                for f in at.get((ux + dx, uy + dy), ()):
                    if f <= e:
                        continue
                    a, c = edges[f]
                    if a in (u, v) or c in (u, v):
                        continue
                    if segments_cross(xy[u], pv, xy[a], xy[c]):
                        out[e].append(f)
                        out[f].append(e)
    return out


@dataclass(frozen=True)
class Uncrossed:
    """The longest uncrossed path or cycle of a board: its length and one optimal path.

    ``length`` is the number of moves (a cycle's closing move included), ``None`` when the
    board has no uncrossed cycle at all. ``path`` is the squares in order (a cycle's first
    square not repeated). ``states`` is the number of states after each step of the exact
    sweep, ``peak_bytes`` the most memory its tables held at once, ``floor`` the length the
    first sweep (the longest states of each step only) found: the exact sweep looked for more.

    >>> u = longest_uncrossed("3x3")
    >>> u.length, u.path_names
    (2, ['b1', 'a3', 'c2'])
    """

    board: Board
    closed: bool
    length: int | None
    path: tuple[int, ...]
    states: tuple[int, ...] = field(repr=False)
    peak_bytes: int = field(repr=False)
    seconds: float = field(repr=False)
    floor: int = field(repr=False, default=-1)

    def partial(self) -> PartialTour:
        """The path as a :class:`~knightstour.tour.PartialTour` (validated as a knight's path:
        distinct squares, each a move from the last), to draw or print.

        >>> print(longest_uncrossed("3x3").partial().board_text())
        2 . .
        . . 3
        . 1 .
        """
        if not self.path:
            raise InvalidInputError(f"no uncrossed cycle on {self.board.spec}: nothing to draw")
        return PartialTour(self.board, list(self.path), method="uncrossed")

    @property
    def path_names(self) -> list[str]:
        """The path's squares in algebraic notation."""
        return [self.board.square_name(s) for s in self.path]

    @property
    def proof(self) -> str:
        """Why no uncrossed path (or cycle) of the board is longer, in one sentence."""
        what = "cycle" if self.closed else "path"
        n = sum(self.states)
        if self.length is None:
            return (
                f"exact: the frontier sweep met every uncrossed {what} of the board "
                f"({_plural(n, 'state')} over {_plural(len(self.states), 'step')}) and none closes"
            )
        return (
            f"exact: the frontier sweep met every uncrossed {what} of the board that could have "
            f"more than {self.floor} moves (a first sweep of the longest states found "
            f"{self.floor}; a bound on what the rest of the board can add cut the others), "
            f"keeping the longest of those that agree on the frontier ({_plural(n, 'state')} "
            f"over {_plural(len(self.states), 'step')}): none has more than {self.length} moves"
        )

    def to_dict(self) -> dict[str, Any]:
        """The tour JSON's board fields, ``closed``, ``path`` and ``xy``, and ``length``."""
        d: dict[str, Any] = {"width": self.board.width, "height": self.board.height}
        if self.board.holes:
            d["holes"] = sorted(self.board.square_name(s) for s in self.board.holes)
        if self.board.leaper != (1, 2):
            d["leaper"] = f"{self.board.leaper[0]},{self.board.leaper[1]}"
        d["closed"] = self.closed
        d["method"] = "uncrossed"
        d["path"] = self.path_names
        d["xy"] = [list(self.board.xy(s)) for s in self.path]
        d["length"] = self.length
        return d


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def longest_uncrossed(
    board: BoardLike,
    closed: bool = False,
    *,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> Uncrossed:
    """The longest uncrossed path (``closed``: cycle) of ``board``, exactly, with one of them.

    A board too wide for the sweep (a short side over :data:`MAX_WIDTH`, or a state too big
    for its words) is refused with :class:`InvalidInputError` before any memory is spent.
    ``progress(done, total)`` is told after each step of the two sweeps (``total``: twice the
    squares); ``time_limit``: seconds after which the sweep stops with
    :class:`~knightstour.errors.SearchFailedError` (checked between steps and while a step's
    table grows), the step it had reached named. A sweep whose next table would take more memory
    than the system reports free stops the same way, before it asks for it.

    >>> longest_uncrossed("4x4").length, longest_uncrossed("4x4", closed=True).length
    (5, 4)
    """
    limit = arguments.time_limit(time_limit)
    progress = arguments.progress(progress)
    deadline = None if limit is None else time.monotonic() + limit
    b = parse_board(board)
    require_flat(b)
    if b.wrap is not None:
        raise InvalidInputError("the longest uncrossed path needs a flat board without --wrap")
    short = min(b.width, b.height)
    if b.area >= _KERNELS.MAX_MOVES:
        raise InvalidInputError(
            f"the longest uncrossed path on {b.spec}: {b.area:,} squares are more than the sweep "
            f"counts moves for ({_KERNELS.MAX_MOVES - 1:,})"
        )
    if short > MAX_WIDTH:
        raise InvalidInputError(
            f"the longest uncrossed path on {b.spec}: a short side of {short} is more than the "
            f"sweep takes on ({MAX_WIDTH}); its states would not fit in memory"
        )
    p = plan(b)
    if 4 * p.frontier + p.pending > MAX_BITS or p.pending > MAX_PENDING:
        raise InvalidInputError(
            f"the longest uncrossed path on {b.spec}: a state would hold {p.frontier} frontier "
            f"squares and {p.pending} pending moves, more than the sweep's {MAX_BITS} bits"
        )
    began = time.perf_counter()
    watch = _Watch(p, closed, deadline, progress)
    rest = _bounds(p, watch)
    # a first length to beat: the same sweep keeping only the longest states of each step
    quick = _run(p, closed, rest=rest, beam=BEAM, watch=watch)
    floor = int(quick.best[0])
    watch.phase = 1
    full = _run(p, closed, floor=floor, rest=rest, watch=watch)
    run = full if full.best[0] > floor else quick
    path = _walk_back(p, run.best, run.preds, run.choices, closed)
    length = None if run.best[0] < 0 else int(run.best[0])
    return Uncrossed(
        board=p.board,
        closed=closed,
        length=length,
        path=tuple(path),
        states=tuple(full.states),
        peak_bytes=max(quick.peak, full.peak),
        seconds=time.perf_counter() - began,
        floor=floor,
    )


#: The states a step keeps in the quick first sweep (the longest ones), which finds a length
#: for the exact sweep to beat.
BEAM = 5000
#: The share of the memory the system reports available that one table may take.
MEMORY_SHARE = 0.9
#: The lines (ranks of the sweep) of each window whose most moves bound the rest of a board.
BOUND_LINES = 1
_NO_BOUND = 10**6


@dataclass
class _Watch:
    """The time limit and the progress of one :func:`longest_uncrossed`: ``phase`` 0 is the
    quick sweep (and the bound's sweeps), 1 the exact one."""

    plan: Plan
    closed: bool
    deadline: float | None
    progress: Callable[[int, int], None] | None
    phase: int = 0

    def check(self, t: int) -> None:
        """Stop with :class:`SearchFailedError` when the time limit has passed (at step ``t``)."""
        if self.deadline is None or time.monotonic() <= self.deadline:
            return
        raise self._stopped(t, "at the time limit, square {square}")

    def room(self, t: int, need: int) -> None:
        """Stop with :class:`SearchFailedError` when ``need`` more bytes (the next table) are
        more than this machine has free, before they are asked for: a board too big for it
        says so in one line, and nothing is lost (the sweep keeps nothing on disk)."""
        have = int(available_memory() * MEMORY_SHARE)
        if need <= have:
            return
        raise self._stopped(
            t, f"at square {{square}}: its next table would take {need / 2**30:.1f} GiB, more "
            f"than the {have / 2**30:.1f} GiB this machine has free",
        )  # fmt: skip

    def _stopped(self, t: int, how: str) -> SearchFailedError:
        """The one-line error of a sweep stopped at step ``t``: ``how`` names it, its
        ``{square}`` the square reached (``square 40 of 64 of the exact sweep (of 2)``)."""
        what = "cycle" if self.closed else "path"
        sweep = ("first", "exact")[self.phase]
        square = f"{t + 1} of {len(self.plan.order)} of the {sweep} sweep (of 2)"
        text = how.format(square=square)
        return SearchFailedError(
            f"the longest uncrossed {what} on {self.plan.board.spec} stopped {text}"
        )

    def done(self, t: int) -> None:
        """Step ``t`` of the current sweep is done."""
        if self.progress is not None:
            n = len(self.plan.order)
            self.progress(self.phase * n + t + 1, 2 * n)


@dataclass
class _Run:
    """One sweep: ``best`` (moves, step, state, choice, a flag), the pointers for the walk
    back, the states after each step, the peak bytes and ``most``: ``best[0]`` after each step."""

    best: np.ndarray
    preds: list[np.ndarray]
    choices: list[np.ndarray]
    states: list[int]
    peak: int
    most: list[int]


def _bounds(p: Plan, watch: _Watch | None = None) -> list[int]:
    """``rest[t]``: at most how many moves the steps after step ``t`` can add to any path.

    For a window of ``j`` consecutive steps that starts at column ``x`` of a line, the most
    moves decided in it by any set of moves with no two crossing and at most two at a square
    (the *forest* sweep, from an empty state, over a board of the same short side) bounds the
    moves of any uncrossed path decided there: the window of the board is the window of that
    board or a part of it. The rest of the board after a step is cut into such windows, the
    cheapest way. A board with holes gets no bound (its windows differ).
    """
    b = p.board
    steps = len(p.order)
    if b.holes or steps == 0:
        return [_NO_BOUND] * steps
    w = min(b.width, b.height)
    reach = max(b.leaper)
    span = BOUND_LINES * w
    lines = max(w, reach + BOUND_LINES + 1)
    band = plan(Board(w, lines, leaper=b.leaper))
    most = [_run(band, False, forest=True, first=reach * w + x, last=reach * w + x + span,
                 watch=watch).most for x in range(w)]  # fmt: skip
    across = 1 if b.width > b.height else 0  # swept file by file: a line is a file
    col = [b.xy(s)[across] for s in p.order]
    bound = [0] * (steps + 1)  # bound[t]: the most moves decided at steps t and later
    for t in range(steps - 1, -1, -1):
        m = most[col[t]]
        bound[t] = min(m[j - 1] + bound[t + j] for j in range(1, min(len(m), steps - t) + 1))
    return [bound[t + 1] for t in range(steps)]


def _run(
    p: Plan,
    closed: bool,
    *,
    forest: bool = False,
    first: int = 0,
    last: int | None = None,
    floor: int = -1,
    rest: list[int] | None = None,
    beam: int = 0,
    watch: _Watch | None = None,
) -> _Run:
    steps = len(p.order) if last is None else min(last, len(p.order))
    k = jit.for_work(_KERNELS, (steps - first) * max(1, p.frontier), threshold=30)
    keys = np.zeros((1, 2), dtype=np.uint64)
    vals = np.zeros(1, dtype=np.int32)
    # best: moves, step, state before, choice, a flag (labels ran out)
    best = np.array([-1 if closed else 0, -1, 0, 0, 0], dtype=np.int64)
    run = _Run(best, [], [], [], 0, [])
    held = 0  # bytes kept for the walk back
    none = np.zeros(0, dtype=np.int64)
    mirror = [
        (none, none) if forest or not p.mirror_slot else (p.mirror_slot[t], p.mirror_pending[t])
        for t in range(len(p.order))
    ]
    for t in range(first, steps):
        if watch is not None:
            watch.check(t)
        n = keys.shape[0]
        size = 1 << max(10, math.ceil(math.log2(max(1, 3 * n))))
        if watch is not None:
            watch.room(t, size * _ROW_BYTES)
        table = _table(size)
        used, nxt = 0, 0
        cut = _NO_BOUND if rest is None else rest[t]
        while True:
            with np.errstate(over="ignore"):  # the hash multiplies wrap (interpreted kernels)
                nxt, used = k.expand(
                keys, vals, n, nxt, int(size * 0.7), t, p.nf[t], len(p.back[t]),
                    p.back_slot[t], p.back_bit[t], p.npend[t], p.pmap[t], p.pcross[t],
                    p.pmask[t], p.stuckable[t], p.fmap[t], p.leave[t], closed, forest, floor,
                    cut, *mirror[t], table, used, best,
                )  # fmt: skip
            run.peak = max(run.peak, held + keys.nbytes + vals.nbytes + size * _ROW_BYTES)
            if nxt >= n:
                break
            if watch is not None:
                watch.check(t)
                watch.room(t, 2 * size * _ROW_BYTES + used * _STATE_BYTES)
            bigger = _table(2 * size)
            with np.errstate(over="ignore"):
                k.rehash(table, bigger)
            table, size = bigger, 2 * size
        if best[4]:
            raise InternalError(f"uncrossed sweep of {p.board.spec}: more pieces than labels")
        keys = np.empty((used, 2), dtype=np.uint64)
        vals = np.empty(used, dtype=np.int32)
        pred = np.empty(used, dtype=np.int32)
        choice = np.empty(used, dtype=np.uint8)
        k.compact(table, keys, vals, pred, choice)
        del table
        if beam and used > beam:
            keep = np.sort(np.argpartition(-vals, beam)[:beam])
            keys, vals, pred, choice = keys[keep], vals[keep], pred[keep], choice[keep]
            used = beam
        if not forest:
            run.preds.append(pred)
            run.choices.append(choice)
            held += pred.nbytes + choice.nbytes
        run.states.append(used)
        run.most.append(int(best[0]))
        if watch is not None and not forest:
            watch.done(t)
    return run


def _table(size: int) -> np.ndarray:
    return np.full((size, 3), _SENTINEL, dtype=np.uint64)


def _walk_back(
    p: Plan, best: np.ndarray, preds: list[np.ndarray], choices: list[np.ndarray], closed: bool
) -> list[int]:
    """One optimal path, from the best finish back through the states it came from."""
    if best[0] < 0:
        return []
    if best[1] < 0:
        return [p.order[0]] if p.order else []  # no move at all: one square
    moves: list[tuple[int, int]] = []
    flip = False  # whether the moves met from here back are mirrored on the path found

    def take(t: int, choice: int) -> None:
        m = p.mirror_of
        for kk, u in enumerate(p.back[t]):
            if choice >> kk & 1:
                v = p.order[t]
                moves.append((m[u], m[v]) if flip else (u, v))

    t, s = int(best[1]), int(best[2])
    take(t, int(best[3]))
    for step in range(t - 1, -1, -1):
        choice = int(choices[step][s])
        flip ^= bool(choice & _KERNELS.MIRRORED)  # the state kept was the image of the one made
        take(step, choice)
        s = int(preds[step][s])
    if len(moves) != best[0]:
        raise InternalError("uncrossed sweep: the walk back lost moves")
    return _chain(moves, closed)


def _chain(moves: list[tuple[int, int]], closed: bool) -> list[int]:
    """The squares of a path or cycle given as its moves, in order."""
    nb: dict[int, list[int]] = {}
    for u, v in moves:
        nb.setdefault(u, []).append(v)
        nb.setdefault(v, []).append(u)
    ends = [s for s, x in nb.items() if len(x) == 1]
    start = min(ends) if not closed else min(nb)
    path = [start]
    prev, here = -1, start
    while True:
        options = [x for x in nb[here] if x != prev]
        if not options:
            break
        nxt = min(options)
        if closed and nxt == start:
            break
        path.append(nxt)
        prev, here = here, nxt
    if len(path) != len(moves) + (0 if closed else 1):
        raise InternalError("uncrossed sweep: the moves found are not one path")
    return path
