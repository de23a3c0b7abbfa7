"""Divide and conquer: tours on boards of any size in linear time, from small base tours.

The board is cut into blocks whose tours are stored data (``data/divide_tours.npz``, made by
``tools/make_divide_data.py`` and checked by ``tests/test_divide.py``); the block tours are then
joined into one tour by exchanging a few moves where blocks meet. The idea is Parberry's (1997) and
Lin & Wei's (2005): a *structured* tour of a block contains fixed moves near its corners, and two
neighbouring blocks' tours become one tour by removing one such move from each and adding the two
knight's moves that cross between them.

>>> import knightstour as kt
>>> t = kt.solve("12x10", start="c3", closed=True, method="divide")
>>> t.closed, len(t), t.start
(True, 120, 'c3')
>>> kt.solve("4x31", start="a5", method="divide").start
'a5'

Boards with both sides at least 5 (:func:`grid_plan`): columns and rows are cut into widths of
5 to 11, every block with a closed tour except, on an odd × odd board, the one block where the
odd column meets the odd row, which holds an open tour from the start square; both are chosen to
contain the start. Blocks in a row are joined left to right (move BR of the left block with BLH of
the right one), and the blocks of the first column bottom to top (TL with BLV): a spanning tree,
so the cycles and the path merge into one.

Boards 3 or 4 wide (:func:`thin_plan`) have no closed tours to join (4 × n none at all), so they
are built from *lanes*: the start block holds the start and sends the tour out to the left and to
the right, where it runs to the end of the board and back along two lanes (three on one side of a
4 × n board, where a tour keeps its single inner-to-inner move for one far end: Schwenk's
colouring argument). Lane blocks hold one path per lane; a cut between blocks is crossed by one
knight's move per lane, always at the same squares. Short thin boards are stored whole, with
every start square either toured or proved to have none.

Memory: the tour is assembled as a successor array (int32 per square) by compiled code and then
walked into the path (int32 per square): 8 bytes a square at the peak.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from knightstour.board import Board
from knightstour.errors import InternalError, InvalidInputError, NoTourError, SearchFailedError
from knightstour.kernels import divide as _divide_kernels
from knightstour.kernels import jit
from knightstour.solvers import Solution, SolveRequest
from knightstour.solvers._clock import expired, watched
from knightstour.theory import verdict

__all__ = [
    "GRID_SIZES",
    "SMALL_THIN",
    "THIN",
    "divide",
    "divide_to_npy",
    "grid_edges",
    "plan_between",
    "thin_jumps",
]

#: Block sides of the grid construction.
GRID_SIZES = (5, 6, 7, 8, 9, 10, 11)
_EVEN = (6, 8, 10)
_ODD = (5, 7, 9, 11)


def grid_edges(w: int, h: int) -> dict[str, tuple[int, int]]:
    """The four join moves of a ``w`` × ``h`` grid block, as local square pairs ``(a1, a2)``.

    ``BR`` (bottom right) meets ``BLH`` of the block to the right, ``TL`` (top left) meets ``BLV``
    of the block above: ``a1`` of one is a knight's move from ``a1`` of the other, and so are the
    ``a2``.

    >>> grid_edges(6, 5)
    {'BR': (5, 16), 'BLH': (7, 18), 'TL': (24, 20), 'BLV': (7, 3)}
    """
    return {
        "BR": (w - 1, 2 * w + w - 2),
        "BLH": (w + 1, 3 * w),
        "TL": ((h - 1) * w, (h - 2) * w + 2),
        "BLV": (w + 1, 3),
    }


# Thin boards. A cut between two lane blocks is crossed by one knight's move per lane, from
# square p of the block nearer the start block (x < 0: counted from its far side) to square q of
# the block beyond it (x >= 0), or back. "out" lanes run away from the start block.
THIN: dict[int, dict] = {
    3: {
        "lanes": {"out": ((-2, 1), (0, 0)), "back": ((-1, 0), (1, 1))},
        "blocks": {"I2": (4, 6, 8), "E2": (7, 9), "H": (7, 9)},
        "starts": {
            "both": tuple(range(3, 12)),
            "left": tuple(range(3, 12)),
            "right": tuple(range(3, 12)),
        },
    },
    4: {
        "lanes": {"out": ((-1, 1), (0, 3)), "back": ((-1, 2), (0, 0))},
        "lanes3": {
            "out1": ((-1, 0), (0, 2)),
            "back1": ((-1, 1), (1, 0)),
            "out2": ((-1, 3), (0, 1)),
        },
        "blocks": {"I2": (4, 6, 8), "E2": (5, 6, 7, 8, 9, 10), "I3": (4, 6, 8), "E3": (5, 6, 7, 8)},
        "starts": {
            "mid": tuple(range(3, 10)),
            "left2": tuple(range(3, 11)),
            "right2": tuple(range(3, 11)),
            "left3": tuple(range(3, 11)),
            "right3": tuple(range(3, 11)),
        },
    },
}

#: Thin boards stored whole (rows x widths), every start square settled.
SMALL_THIN: dict[int, tuple[int, ...]] = {3: (4, 7, 8, 9, 10, 11, 12, 13), 4: tuple(range(5, 13))}


def _far(k: int, p: tuple[int, int]) -> int:
    return p[1] * k + k + p[0]


def _near(k: int, q: tuple[int, int]) -> int:
    return q[1] * k + q[0]


def _mirror(k: int, p: tuple[int, int]) -> int:
    return p[1] * k - 1 - p[0]


def thin_jumps(h: int, kind: str, k: int, s: int | None = None) -> tuple[int, int, list]:
    """``(start, end, jumps)`` of the cover that block ``kind`` of width ``k`` must have.

    The cover is one path through the block with *jumps* (pairs of squares it leaves by a lane
    and re-enters by the next), from ``start`` to ``end`` (-1: anywhere). Start blocks (``s``
    given) begin at ``s``. Raises ``ValueError`` when the ports collide or ``s`` is a port that
    cannot start the cover.

    >>> thin_jumps(3, "E2", 7)
    (0, 8, [])
    """
    spec = THIN[h]
    lo, lb = spec["lanes"]["out"], spec["lanes"]["back"]
    l3 = spec.get("lanes3", {})
    if kind == "I2":
        start, end, jumps = _near(k, lo[1]), _near(k, lb[1]), [(_far(k, lo[0]), _far(k, lb[0]))]
    elif kind == "E2":
        start, end, jumps = _near(k, lo[1]), _near(k, lb[1]), []
    elif kind == "H":
        start, end, jumps = _far(k, lb[0]), _far(k, lo[0]), []
    elif kind == "I3":
        o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
        start, end = _near(k, o1[1]), _far(k, o2[0])
        jumps = [(_far(k, o1[0]), _far(k, b1[0])), (_near(k, b1[1]), _near(k, o2[1]))]
    elif kind == "E3":
        o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
        start, end, jumps = _near(k, o1[1]), -1, [(_near(k, b1[1]), _near(k, o2[1]))]
    else:
        if s is None:
            raise ValueError(f"start block {kind} needs a start square")
        start = s
        left2 = (_mirror(k, lo[0]), _mirror(k, lb[0]))
        right2 = (_far(k, lo[0]), _far(k, lb[0]))
        if kind in ("left", "left2"):
            end, jumps = -1, [left2]
        elif kind in ("right", "right2"):
            end, jumps = -1, [right2]
        elif kind == "both":
            end, jumps = -1, [left2, right2]
        else:
            o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
            side = _far if kind == "right3" else _mirror
            three = [(side(k, o1[0]), side(k, b1[0]))]
            end = side(k, o2[0])
            if kind == "mid":
                jumps = [(_mirror(k, o1[0]), _mirror(k, b1[0])), right2]
                end = _mirror(k, o2[0])
            elif kind in ("left3", "right3"):
                jumps = three
            else:
                raise ValueError(f"unknown block kind {kind!r}")
    ports = [p for j in jumps for p in j] + ([end] if end >= 0 else [])
    if len(set(ports)) != len(ports) or min(ports, default=0) < 0 or max(ports, default=0) >= h * k:
        raise ValueError(f"the ports of {kind} collide on a block {k} wide")
    if s is not None and s in ports and s != (jumps[0][0] if jumps else end):
        raise ValueError(f"start {s} is a port of {kind}")
    if s is None and start in ports:
        raise ValueError(f"the ports of {kind} collide on a block {k} wide")
    return start, end, jumps


# -- data -----------------------------------------------------------------------------------------


@functools.cache
def _data() -> dict[str, np.ndarray]:
    from importlib.resources import files

    with files("knightstour").joinpath("data/divide_tours.npz").open("rb") as f, np.load(f) as z:
        return {k: z[k] for k in z.files}


def _get(key: str) -> np.ndarray | None:
    return _data().get(key)


def _start_row(key: str, s: int) -> np.ndarray | None:
    rows = _get(key)
    if rows is None or rows[s, 0] < 0:
        return None
    return rows[s]


# -- assembly: successor array, links, walk -------------------------------------------------------


@dataclass
class _Piece:
    """Blocks that share one link pattern: ``src``/``dst`` offsets from each block's origin."""

    origins: np.ndarray  # int64 board index of each block's (0, 0)
    src: np.ndarray  # int64
    dst: np.ndarray  # int64


def _links(
    seq: np.ndarray, k: int, width: int, *, cycle: bool, reverse: bool = False, mirror: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Successor pairs of a block's local sequence, as offsets on a board ``width`` wide.

    Consecutive squares that are not a knight's move apart are jumps between lanes: not linked.
    """
    seq = seq.astype(np.int64)
    lx, ly = seq % k, seq // k
    if mirror:
        lx = k - 1 - lx
    off = ly * width + lx
    a, b = (off, np.roll(off, -1)) if cycle else (off[:-1], off[1:])
    ax, ay = (lx, ly) if cycle else (lx[:-1], ly[:-1])
    bx, by = (np.roll(lx, -1), np.roll(ly, -1)) if cycle else (lx[1:], ly[1:])
    dx, dy = np.abs(ax - bx), np.abs(ay - by)
    move = ((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1))
    a, b = a[move], b[move]
    return (b, a) if reverse else (a, b)


def _until(deadline: float | None, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args, stop)``: a kernel that returns soon after ``stop[0]`` is set, stopped at
    ``deadline`` (raising :class:`SearchFailedError`). With a deadline it runs in a worker thread
    (the compiled kernels release the GIL) while this one waits for it, up to the deadline.

    >>> _until(None, lambda x, stop: x + 1, 1)
    2
    >>> _until(time.monotonic() - 1, lambda stop: time.sleep(1))
    Traceback (most recent call last):
    ...
    knightstour.errors.SearchFailedError: divide was stopped by the time limit before its tour was built
    """
    return _until_all(deadline, [(fn, args)])[0]


def _until_all(deadline: float | None, calls: list[tuple[Callable[..., Any], tuple]]) -> list[Any]:
    """``[fn(*args, stop) for fn, args in calls]``, the calls at once in threads of their own
    (the compiled kernels release the GIL, so two of them run on two cores), sharing one
    ``stop`` flag that is set at ``deadline`` (raising :class:`SearchFailedError`) or when one of
    them fails.

    >>> _until_all(None, [(lambda x, stop: x + 1, (1,)), (lambda x, stop: x * 3, (2,))])
    [2, 6]
    """
    stop = np.zeros(1, dtype=np.uint8)
    if len(calls) == 1 and deadline is None and not watched():
        fn, args = calls[0]
        return [fn(*args, stop)]
    _check_deadline(deadline)
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        fn, args = calls[i]
        try:
            results[i] = fn(*args, stop)
        except BaseException as err:  # handed to the waiting thread
            errors.append(err)
            stop[0] = 1

    workers = [
        threading.Thread(target=work, args=(i,), name=f"knightstour-divide-{i}", daemon=True)
        for i in range(len(calls))
    ]
    for worker in workers:
        worker.start()
    try:
        for worker in workers:
            while worker.is_alive() and not expired(deadline):  # cancelled, or out of time
                worker.join(0.05 if deadline is None else min(0.05, deadline - time.monotonic()))
    finally:
        if any(worker.is_alive() for worker in workers):  # the time limit, or Ctrl-C
            stop[0] = 1
            for worker in workers:
                worker.join()
    if errors:
        raise errors[0]
    if stop[0]:
        raise SearchFailedError(STOPPED)
    return results


#: Why divide gave up when its time limit ran out.
STOPPED = "divide was stopped by the time limit before its tour was built"


def _check_deadline(deadline: float | None) -> None:
    if expired(deadline):
        raise SearchFailedError(STOPPED)


def _assemble(
    n: int,
    pieces: list[_Piece],
    src: np.ndarray,
    dst: np.ndarray,
    start: int,
    deadline: float | None = None,
) -> np.ndarray:
    """Fill the successor array from the pieces, patch in ``src -> dst``, walk it from ``start``."""
    nxt = np.empty(n, dtype=np.int32)
    out = np.empty(n, dtype=np.int32)
    kernels = _kernels_for(n)
    for p in pieces:
        _until(deadline, kernels.fill, nxt, p.origins, p.src, p.dst)
    nxt[src] = dst
    count = _until(deadline, kernels.follow, nxt, start, out)
    del nxt
    if count != n:  # a bug in the data or the joins, never the user's fault
        raise InternalError(f"the divide construction covered {count} of {n} squares")
    return out


def _kernels_for(n: int) -> jit.Kernels:
    """The divide kernels for a board of ``n`` squares: compiled for big boards."""
    return jit.for_work(_divide_kernels, n, threshold=_divide_kernels.COMPILE_THRESHOLD)


def _succ(seq: np.ndarray, cycle: bool) -> np.ndarray:
    s = seq.astype(np.int64)
    succ = np.full(s.size, -1, dtype=np.int64)
    succ[s[:-1]] = s[1:]
    if cycle:
        succ[s[-1]] = s[0]
    return succ


# -- boards with both sides at least 5 ------------------------------------------------------------


def _even_parts(n: int) -> list[int]:
    parts = []
    while n > 10:
        take = 8 if n - 8 >= 6 else 6
        parts.append(take)
        n -= take
    return [*parts, n] if n else parts


def _split(n: int, at: int | None) -> tuple[list[int], int]:
    """Cut a side of ``n`` (>= 5) into block sides; an odd ``n`` gets one odd part, containing
    ``at`` when given. Returns the parts and the index of the odd part (0 when ``n`` is even)."""
    if n % 2 == 0:
        return _even_parts(n), 0
    c = 0 if at is None else at
    for o in _ODD:
        for x0 in range(max(0, c - o + 1), c + 1):
            rest = n - x0 - o
            if x0 % 2 or x0 in (2, 4) or rest < 0 or rest in (2, 4):
                continue
            before = _even_parts(x0)
            return [*before, o, *_even_parts(rest)], len(before)
    raise AssertionError(f"no split of {n} around {c}")  # pragma: no cover


@dataclass
class _BlockTour:
    seq: np.ndarray
    cycle: bool
    f: dict[str, bool]  # join move -> runs a1 -> a2 (BR, TL) or b2 -> b1 (BLH, BLV) as stored


def _block_tour(seq: np.ndarray, w: int, h: int, cycle: bool) -> _BlockTour:
    succ = _succ(seq, cycle)
    e = grid_edges(w, h)
    f = {}
    for name, (u, v) in e.items():
        if name in ("BLH", "BLV"):
            u, v = v, u
        f[name] = bool(succ[u] == v)  # (a path holds only the moves its position joins by)
    return _BlockTour(seq, cycle, f)


def _grid(
    board: Board,
    s: int,
    deadline: float | None = None,
    out: np.ndarray | None = None,
    sink: Callable[[np.ndarray], None] | None = None,
) -> np.ndarray:
    """A tour of a board with both sides at least 5, from ``s``, as int32 board indices (written
    into ``out`` when given). With ``sink``, the tour is handed to it in pieces, in order, instead
    (:func:`_grid_to_sink`), and an empty array is returned."""
    W, H = board.width, board.height
    sx, sy = s % W, s // W
    both_odd = bool(W % 2 and H % 2)
    cols, jc = _split(W, sx if both_odd else None)
    rows, ir = _split(H, sy if both_odd else None)
    X0 = np.concatenate([[0], np.cumsum(cols)[:-1]]).astype(np.int64)
    Y0 = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)
    nr, nc = len(rows), len(cols)
    ng = len(GRID_SIZES)
    ci = np.array([GRID_SIZES.index(c) for c in cols])
    ri = np.array([GRID_SIZES.index(r) for r in rows])
    tid = ri[:, None] * ng + ci[None, :]  # type of each block; the path block gets its own
    # the root of the spanning tree: the block holding the start square
    root_i = int(np.searchsorted(Y0, sy, side="right")) - 1
    root_j = int(np.searchsorted(X0, sx, side="right")) - 1
    entry = (sy - int(Y0[root_i])) * cols[root_j] + (sx - int(X0[root_j]))
    tours: dict[int, _BlockTour] = {}
    sizes: dict[int, tuple[int, int]] = {}
    kinds = sorted({int(r) * ng + int(c) for r in set(ri.tolist()) for c in set(ci.tolist())})
    _check_deadline(deadline)
    for t in kinds:  # every block type (tid is an outer sum: all pairs occur)
        w, h = GRID_SIZES[t % ng], GRID_SIZES[t // ng]
        sizes[t] = (w, h)
        if not (w % 2 and h % 2):
            tours[t] = _block_tour(_data()[f"grid_closed/{w}x{h}"], w, h, True)
    if both_odd:
        assert (root_i, root_j) == (ir, jc)
        w, h = cols[jc], rows[ir]
        row = _start_row(f"grid_path/{w}x{h}/{0 if jc == 0 else 1}", entry)
        if row is None:  # pragma: no cover - the data covers every corner-coloured square
            raise InternalError(f"the divide data has no {w}x{h} block tour from {entry}")
        path_t = ng * ng
        tours[path_t] = _block_tour(row, w, h, False)
        sizes[path_t] = (w, h)
        tid[ir, jc] = path_t
    nt = ng * ng + 1
    names = ("BR", "BLH", "TL", "BLV")
    tabs = {name: np.zeros(nt, dtype=np.uint8) for name in names}
    seqs = np.zeros((nt, 121), dtype=np.int64)
    posof = np.zeros((nt, 121), dtype=np.int64)
    goff = np.zeros((nt, 121), dtype=np.int64)
    lens = np.ones(nt, dtype=np.int64)
    joins = np.zeros((nt, 8), dtype=np.int64)
    cycle = np.zeros(nt, dtype=np.bool_)
    for t, bt in tours.items():
        w, h = sizes[t]
        n = w * h
        for name in names:
            tabs[name][t] = bt.f[name]
        seqs[t, :n] = bt.seq
        posof[t, bt.seq.astype(np.int64)] = np.arange(n)
        loc = np.arange(n)
        goff[t, :n] = ((loc // w) * W + loc % w)[bt.seq.astype(np.int64)]  # in tour order
        lens[t] = n
        joins[t] = [v for name in names for v in grid_edges(w, h)[name]]
        cycle[t] = bt.cycle
    # rows of blocks come in a few kinds (their side, and the start's row when it holds the path
    # block): the orientation tables are worked out once a kind and then spread over the rows
    row_key = ri.copy()
    if both_odd:
        row_key[ir] = ng  # the row holding the path block
    _, first_row, rt = np.unique(row_key, return_index=True, return_inverse=True)
    rt = rt.ravel()
    kind_of = tid[first_row]
    fBR, fBLH, fTL, fBLV = (tabs[k][kind_of] for k in names)

    # orientations: blocks joined by a move pair must run those moves in matching directions
    step = np.zeros(kind_of.shape, dtype=np.uint8)
    step[:, 1:] = fBR[:, :-1] ^ fBLH[:, 1:]
    P = np.bitwise_xor.accumulate(step, axis=1)
    vstep = np.zeros(nr, dtype=np.uint8)
    vstep[1:] = fTL[rt[:-1], 0] ^ fBLV[rt[1:], 0]
    Q = np.bitwise_xor.accumulate(vstep)
    o0 = P[rt[root_i], root_j] ^ Q ^ Q[root_i]
    orient = P[rt] ^ o0[:, None]
    flag_h = (fBR ^ P)[rt] ^ o0[:, None]  # block (i, j) runs BR from a1 to a2
    # block (i, 0) runs TL from a1 to a2; contiguous, so that grid_walk compiles once
    flag_v = np.ascontiguousarray((fTL[:, 0] ^ P[:, 0])[rt] ^ o0)

    _check_deadline(deadline)
    if out is None:
        out = np.empty(0 if sink is not None else board.size, dtype=np.int32)
    toucher = None
    loaded = _divide_kernels.__name__ in jit.compiled_modules()
    if board.size >= 1 << 24 and deadline is None and not loaded:  # fault pages while Numba loads
        toucher = threading.Thread(target=_touch, args=(out,), daemon=True)
        toucher.start()
    kernels = _kernels_for(board.size)
    if toucher is not None:
        toucher.join()
    # two cores: first the first column and the start's row, leaving out the rest of every other
    # row (recording where each begins in the tour), then those rows, half on each core
    split = board.size >= PARALLEL_SQUARES and nc > 1 and nr > 1
    if split and toucher is None and sink is None:  # map the output's memory in on both cores first
        half = board.size // 2
        _until_all(
            deadline, [(kernels.touch, (out, 0, half)), (kernels.touch, (out, half, board.size))]
        )
    rows_arr = np.asarray(rows, dtype=np.int64)
    rowsq = rows_arr * (W - cols[0]) if split else np.zeros(0, dtype=np.int64)
    rec_k = np.zeros(nr, dtype=np.int64)
    rec_e = np.zeros(nr, dtype=np.int64)
    tables = (W, X0, Y0, tid, orient, flag_h, flag_v, seqs, lens, posof, goff, joins, cycle)
    if sink is not None:  # in pieces, to a file: the first column and the start's row first
        return _grid_to_sink(board, kernels, tables, root_i, root_j, entry, rows, cols, sink)
    count = _until(
        deadline,
        kernels.grid_walk,
        tables,
        root_i,
        root_j,
        root_i,
        root_j,
        entry,
        rowsq,
        rec_k,
        rec_e,
        _NONE,
        0,
        out,
    )
    if count != board.size:  # pragma: no cover - a bug, never the user's fault
        raise InternalError(f"the divide construction covered {count} of {board.size} squares")
    if split:
        left = np.array([i for i in range(nr) if i != root_i], dtype=np.int64)
        halves = [left[0::2], left[1::2]]
        done = _until_all(
            deadline,
            [
                (kernels.grid_rows, (tables, root_i, root_j, half, rec_k, rec_e, out))
                for half in halves
            ],
        )
        if sum(done) != int(rowsq.sum() - rowsq[root_i]):  # pragma: no cover - a bug
            raise InternalError("the divide construction's rows came out short")
    return out


_NONE = np.zeros(0, dtype=np.int64)

#: Squares of a piece of a tour written to a file (:func:`_grid_to_sink`): 64 MiB of int32.
PIECE = 1 << 24


def _grid_to_sink(
    board: Board,
    kernels: jit.Kernels,
    tables: tuple,
    root_i: int,
    root_j: int,
    entry: int,
    rows: list[int],
    cols: list[int],
    sink: Callable[[np.ndarray], None],
) -> np.ndarray:
    """Hand the tour to ``sink`` in order, in pieces of about :data:`PIECE` squares, never holding
    it whole: first the first column of blocks and the start's row are walked into a small array
    (each square with its place in the tour), then the other rows, a piece at a time, are written
    into one reused buffer (half the rows of a piece on each core) with the first column's
    squares that fall in the piece."""
    W, n, nr = board.width, board.size, len(rows)
    rowsq = np.asarray(rows, dtype=np.int64) * (W - cols[0])
    if nr > 1:
        rowsq[root_i] = 0
    rec_k = np.zeros(nr, dtype=np.int64)
    rec_e = np.zeros(nr, dtype=np.int64)
    spine_n = n - int(rowsq.sum()) if nr > 1 else n
    spine = np.empty(spine_n, dtype=np.int32)
    at = np.empty(spine_n, dtype=np.int64)
    rq = rowsq if nr > 1 else np.zeros(0, dtype=np.int64)
    if nr > 1 and len(cols) == 1:  # one column: no row has a rest to leave out
        rq = np.zeros(0, dtype=np.int64)
        spine = np.empty(n, dtype=np.int32)
        at = np.empty(n, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8)
    count = kernels.grid_walk(
        tables, root_i, root_j, root_i, root_j, entry, rq, rec_k, rec_e, at, 0, spine, stop
    )
    if count != n:  # pragma: no cover - a bug
        raise InternalError(f"the divide construction covered {count} of {n} squares")
    # pieces: runs of whole rows (in tour order), with the first column's squares between them
    order = [i for i in np.argsort(rec_k).tolist() if rq.size and rowsq[i] > 0]
    buf = np.empty(PIECE + int(rowsq.max(initial=0)) + spine.size, dtype=np.int32)
    lo = 0  # the tour's squares handed on so far
    sp = 0  # the first column's squares handed on so far
    r = 0
    while lo < n:
        batch: list[Any] = []
        hi = lo
        while r < len(order) and (not batch or rec_k[order[r]] + rowsq[order[r]] - lo <= PIECE):
            batch.append(order[r])
            hi = int(rec_k[order[r]] + rowsq[order[r]])
            r += 1
        if r == len(order):
            hi = n
        m = hi - lo
        piece = buf[:m]
        # the first column's squares in [lo, hi)
        sp2 = int(np.searchsorted(at, hi, side="left"))
        piece[at[sp:sp2] - lo] = spine[sp:sp2]
        sp = sp2
        if batch:
            mine = np.asarray(batch, dtype=np.int64)
            shifted = rec_k - lo
            _until_all(
                None,
                [
                    (kernels.grid_rows, (tables, root_i, root_j, half, shifted, rec_e, buf))
                    for half in (mine[0::2], mine[1::2])
                ],
            )
        sink(piece)
        lo = hi
    return np.empty(0, dtype=np.int32)


#: Boards of at least this many squares are written on two cores (:func:`_grid`).
PARALLEL_SQUARES = 1 << 20


def _touch(a: np.ndarray) -> None:
    """Write one element of every page of ``a`` (NumPy releases the GIL meanwhile)."""
    step = 4096 // a.itemsize
    for i in range(0, a.size, 1 << 24):
        a[i : i + (1 << 24) : step] = 0


# -- boards 3 or 4 wide ---------------------------------------------------------------------------


def _interiors(n: int) -> list[tuple[int, int]] | None:
    """``n`` as runs ``(width, count)`` of widths 4, 6, 8 (``[]`` for 0), or None.

    Runs, not one entry a block: a board 3 wide and a billion long has 10^8 blocks.

    >>> _interiors(34)
    [(8, 3), (6, 1), (4, 1)]
    """
    if n == 0:
        return []
    if n < 4 or n % 2:
        return None
    eights = max(0, (n - 4) // 8)  # as many 8s as leave 4 to 11 behind
    rest = n - 8 * eights
    tail = [(6, 1), (4, 1)] if rest == 10 else [(rest, 1)]
    return [(8, eights), *tail] if eights else tail


def _region(h: int, n: int, lanes: int) -> list[tuple[str, int, int]] | None:
    """The blocks of a lane region ``n`` wide, from the start block outwards, as runs
    ``(kind, width, count)``, or None."""
    ends = THIN[h]["blocks"]["E2" if lanes == 2 else "E3"]
    inner = "I2" if lanes == 2 else "I3"
    for e in sorted(ends, reverse=True):
        mid = _interiors(n - e) if n >= e else None
        if mid is not None:
            return [*((inner, k, c) for k, c in mid), ("E2" if lanes == 2 else "E3", e, 1)]
    return None


@dataclass
class _ThinPlan:
    mirror: bool
    flip: bool
    x0: int
    k: int
    kind: str
    row: np.ndarray
    left: list[tuple[str, int, int]]
    right: list[tuple[str, int, int]]


def _thin_kinds(h: int, left: bool, right: bool) -> list[tuple[str, int, int]]:
    """Start-block kinds for regions on the left/right: (kind, lanes left, lanes right)."""
    if h == 3:
        return [
            (
                {(True, True): "both", (True, False): "left", (False, True): "right"}[left, right],
                2 * left,
                2 * right,
            )
        ]
    if left and right:
        return [("mid", 3, 2)]
    if left:
        return [("left2", 2, 0), ("left3", 3, 0)]
    return [("right2", 0, 2), ("right3", 0, 3)]


def _thin_plan(h: int, W: int, sx: int, sy: int) -> _ThinPlan | None:
    data = _data()
    for mirror in (False, True):
        for flip in (False, True):
            x = W - 1 - sx if mirror else sx
            y = h - 1 - sy if flip else sy
            for k in range(3, 12):
                for x0 in range(max(0, x - k + 1), x + 1):
                    rest = W - x0 - k
                    if rest < 0 or (x0 == 0 and rest == 0):
                        continue
                    for kind, nl, nr in _thin_kinds(h, x0 > 0, rest > 0):
                        key = f"thin{h}/M/{kind}/{k}"
                        if key not in data:
                            continue
                        row = _start_row(key, y * k + x - x0)
                        if row is None:
                            continue
                        left = _region(h, x0, nl) if x0 else []
                        right = _region(h, rest, nr) if rest else []
                        if left is None or right is None:
                            continue
                        return _ThinPlan(mirror, flip, x0, k, kind, row, left, right)
    return None


def _lane_ports(h: int, lanes: int) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    """(p, q, outward) of each lane crossing a cut."""
    spec = THIN[h]
    if lanes == 2:
        lo, lb = spec["lanes"]["out"], spec["lanes"]["back"]
        return [(lo[0], lo[1], True), (lb[0], lb[1], False)]
    l3 = spec["lanes3"]
    return [
        (l3["out1"][0], l3["out1"][1], True),
        (l3["back1"][0], l3["back1"][1], False),
        (l3["out2"][0], l3["out2"][1], True),
    ]


def _thin_region(
    h: int,
    W: int,
    m_x0: int,
    m_k: int,
    blocks: list[tuple[str, int, int]],
    lanes: int,
    mirror: bool,
    pieces: list[_Piece],
    srcs: list,
    dsts: list,
) -> int:
    """Place a lane region (runs of blocks) beside the start block; returns the board index of
    its free end square (-1 when it has none)."""
    data = _data()
    ks = np.repeat(
        np.array([m_k] + [k for _, k, _ in blocks], dtype=np.int64),
        np.array([1] + [c for _, _, c in blocks], dtype=np.int64),
    )
    if mirror:  # the region lies left of the start block, its blocks leftwards
        x0s = m_x0 - np.cumsum(ks) + ks[0]
        x0s[0] = m_x0
    else:
        x0s = m_x0 + np.concatenate([[0], np.cumsum(ks)[:-1]])
    end = -1
    first = 1
    for kind, k, count in blocks:
        idx = slice(first, first + count)
        first += count
        seq = data[f"thin{h}/{kind}/{k}"]
        src, dst = _links(seq, k, W, cycle=False, mirror=mirror)
        pieces.append(_Piece(x0s[idx], src, dst))
        if kind == "E3":
            last = int(seq[-1])
            lx = k - 1 - last % k if mirror else last % k
            end = int(x0s[idx.start]) + lx + (last // k) * W
    a_x0, a_k, b_x0, b_k = x0s[:-1], ks[:-1], x0s[1:], ks[1:]
    for p, q, outward in _lane_ports(h, lanes):
        if mirror:
            pa = a_x0 - 1 - p[0] + p[1] * W
            qb = b_x0 + b_k - 1 - q[0] + q[1] * W
        else:
            pa = a_x0 + a_k + p[0] + p[1] * W
            qb = b_x0 + q[0] + q[1] * W
        srcs.append(pa if outward else qb)
        dsts.append(qb if outward else pa)
    return end


def _thin(board: Board, s: int, closed: bool, deadline: float | None = None) -> np.ndarray:
    """A tour of a board 3 or 4 wide, in board indices."""
    transposed = board.height > board.width
    h, W = (board.width, board.height) if transposed else (board.height, board.width)
    bx, by = s % board.width, s // board.width
    sx, sy = (by, bx) if transposed else (bx, by)
    n = h * W
    spec = f"{W}x{h}"
    mirror = flip = False
    if W in SMALL_THIN[h]:
        status = _data()[f"small_status/{spec}"][sy * W + sx]
        if closed or (status == 1 and f"small_closed/{spec}" in _data()):
            cyc = _data().get(f"small_closed/{spec}")
            if cyc is None:
                raise NoTourError(f"no closed tour on {board.spec}")
            cyc = cyc.astype(np.int64)
            at = int(np.flatnonzero(cyc == sy * W + sx)[0])
            path = np.roll(cyc, -at)
        elif status == 1:
            path = _data()[f"small/{spec}"][sy * W + sx].astype(np.int64)
        else:
            name = board.square_name(s)
            raise NoTourError(
                f"no tour from {name} on {board.spec}: exhaustive search finds none"
                if status == 0
                else f"no tour from {name} on {board.spec}"
            )
    else:
        pieces: list[_Piece] = []
        srcs: list[np.ndarray] = []
        dsts: list[np.ndarray] = []
        if h == 3 and W % 2 == 0:  # closed: a head block, lanes to the right, an end block
            region = _region(3, W - 7, 2)
            hk = 7
            if region is None:
                region, hk = _region(3, W - 9, 2), 9
            assert region is not None
            seq = _data()[f"thin3/H/{hk}"]
            src, dst = _links(seq, hk, W, cycle=False)
            pieces.append(_Piece(np.zeros(1, dtype=np.int64), src, dst))
            _thin_region(3, W, 0, hk, region, 2, False, pieces, srcs, dsts)
            start = sy * W + sx
        else:
            if closed:
                raise NoTourError(f"no closed tour on {board.spec}")
            plan = _thin_plan(h, W, sx, sy)
            if plan is None:  # theory promised this tour by construction: a bug if missing
                raise InternalError(
                    f"divide has no block plan for a tour from {board.square_name(s)} on "
                    f"{board.spec}, though theory says one is built there"
                )
            mirror, flip = plan.mirror, plan.flip
            k = plan.k
            src, dst = _links(plan.row, k, W, cycle=False)
            pieces.append(_Piece(np.array([plan.x0], dtype=np.int64), src, dst))
            ends = []
            if plan.left:
                ends.append(
                    _thin_region(
                        h,
                        W,
                        plan.x0,
                        k,
                        plan.left,
                        3 if plan.kind == "mid" or plan.kind == "left3" else 2,
                        True,
                        pieces,
                        srcs,
                        dsts,
                    )
                )
            _check_deadline(deadline)
            if plan.right:
                lanes = 3 if plan.kind == "right3" else 2
                ends.append(
                    _thin_region(h, W, plan.x0, k, plan.right, lanes, False, pieces, srcs, dsts)
                )
            end = max(ends)
            if end < 0:
                last = int(plan.row[-1])
                end = plan.x0 + last % k + (last // k) * W
            srcs.append(np.array([end]))
            dsts.append(np.array([-1]))
            first = int(plan.row[0])
            start = plan.x0 + first % k + (first // k) * W
        _check_deadline(deadline)
        path = _assemble(n, pieces, np.concatenate(srcs), np.concatenate(dsts), start, deadline)
        _check_deadline(deadline)
    return _to_board(path, W, h, mirror, flip, transposed, deadline)


def _to_board(
    path: np.ndarray,
    W: int,
    h: int,
    mirror: bool,
    flip: bool,
    transposed: bool,
    deadline: float | None = None,
) -> np.ndarray:
    """Canonical indices (``y * W + x`` on h rows) to the board's, in chunks."""
    out = path if path.dtype == np.int32 else np.empty(path.size, dtype=np.int32)
    step = 1 << 20
    for i in range(0, path.size, step):
        _check_deadline(deadline)
        c = path[i : i + step].astype(np.int64)
        x, y = c % W, c // W
        if mirror:
            x = W - 1 - x
        if flip:
            y = h - 1 - y
        out[i : i + step] = x * h + y if transposed else y * W + x
    return out


# -- memory ---------------------------------------------------------------------------------------

#: Peak bytes a square costs (measured with tracemalloc and the peak RSS, ``benchmarks/
#: bench_divide.py``): boards 3 or 4 wide hold a successor array and the path (int32 each) and
#: the lane crossings (~11 B measured); wider boards only the path (4 B) and their blocks.
THIN_BYTES_PER_SQUARE = 12
GRID_BYTES_PER_SQUARE = 4
#: ... each block of a wide board (~190 B measured: its type, orientation, flags, stack) ...
GRID_BYTES_PER_BLOCK = 256
#: ... and what :func:`knightstour.solve` adds when it validates the answer as a Tour (~2.3 B).
CHECK_BYTES_PER_SQUARE = 3
#: Work in chunks (index conversion, validation) costs a fixed amount besides (~30 MB measured).
FIXED_BYTES = 64 * 2**20


def memory_needed(board: Board) -> int:
    """Bytes the divide construction of ``board`` needs at its peak, its validation included.

    >>> round(memory_needed(Board(3, 700_000_000)) / 2**30, 1)  # GiB
    29.4
    >>> 4 * 10**6 < memory_needed(Board(1000, 1000)) - FIXED_BYTES < 10 * 10**6
    True
    """
    w, h, n = board.width, board.height, board.area
    if min(w, h) < 5:
        return THIN_BYTES_PER_SQUARE * n + CHECK_BYTES_PER_SQUARE * n + FIXED_BYTES
    blocks = (w // 8 + 2) * (h // 8 + 2)  # sides cut mostly into 8s
    path = GRID_BYTES_PER_SQUARE * n
    peak = max(GRID_BYTES_PER_BLOCK * blocks, CHECK_BYTES_PER_SQUARE * n)
    return path + peak + FIXED_BYTES


def require_memory(board: Board) -> None:
    """Refuse, before allocating anything, a board whose construction does not fit in memory.

    The need is :func:`memory_needed`; what is available is the system's estimate
    (:meth:`Board.require_memory`), and also the process's address-space limit (``ulimit -v``)
    and its control group's memory limit when they are lower.

    >>> require_memory(Board(8, 8))
    """
    need = memory_needed(board)
    what = "the divide construction"
    board.require_memory(need / board.area, what)
    have = _process_limit()
    if have is not None and need > have:
        raise InvalidInputError(
            f"board {board.spec} is too large: {what} needs {need / 2**30:.1f} GiB, more than "
            f"the {have / 2**30:.1f} GiB this process may still use (its memory limit)"
        )


def _process_limit() -> int | None:
    """Bytes this process may still allocate under ``ulimit -v`` and its cgroup, if limited."""
    limits: list[int] = []
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as f:
                used = int(f.read().split()[0]) * resource.getpagesize()
            limits.append(soft - used)
    except (ImportError, OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            top = f.read().strip()
        if top != "max":
            with open("/sys/fs/cgroup/memory.current") as f:
                limits.append(int(top) - int(f.read()))
    except (OSError, ValueError):
        pass
    return max(0, min(limits)) if limits else None


# -- the method -----------------------------------------------------------------------------------


def _between(request: SolveRequest) -> np.ndarray:
    """An open tour between the request's start and end squares, by the ends construction of
    :mod:`knightstour.solvers._divide_ends` (both sides at least 6); closed when asked, the end
    a move from the start (theory refuses any other end): the path and that move are a cycle."""
    from knightstour.solvers import _divide_ends

    board, s, e = request.board, request.start, request.end
    assert s is not None and e is not None
    name = board.square_name
    answer = verdict(board, s, e, request.closed)
    if answer.exists is not False and request.closed and not board.is_move(s, e):
        raise InternalError("theory let a closed tour end off a move from its start")
    if answer.exists is False:
        raise NoTourError(answer.reason)
    if min(board.width, board.height) < _divide_ends.MIN_SIDE:
        raise InvalidInputError(
            f"divide builds tours between given ends on boards with both sides at least "
            f"{_divide_ends.MIN_SIDE}, not {board.spec}"
        )
    if expired(request.deadline):
        raise SearchFailedError("divide did not start: the time limit was reached")
    if board.width + board.height > PLAN_SIDES:
        raise SearchFailedError(
            f"divide plans tours between given ends on boards whose sides add up to at most "
            f"{PLAN_SIDES:,}, not {board.spec}"
        )
    if _divide_ends.plan(board, s, e) is None:
        raise SearchFailedError(
            f"divide has no construction of a tour from {name(s)} to {name(e)} on {board.spec}"
        )
    require_memory(board)
    return _divide_ends.ends_tour(
        board, s, e, lambda fn, *args: _until(request.deadline, fn, *args)
    )


def plan_between(board: Board, s: int, e: int) -> bool:
    """Whether the ends construction builds an open tour from ``s`` to ``e`` on ``board``,
    decided without building it (in time linear in the board's sides; False beyond
    :data:`PLAN_SIDES`).

    >>> plan_between(Board(9, 12), 0, 1), plan_between(Board(5, 12), 0, 1)
    (True, False)
    """
    from knightstour.solvers import _divide_ends

    if board.width + board.height > PLAN_SIDES:  # the corridor's blocks one by one: too long
        return False
    return board.is_plain_knight and _divide_ends.plan(board, s, e) is not None


#: :func:`plan_between` plans boards whose sides add up to at most this (a second or so).
PLAN_SIDES = 200_000


def divide_to_npy(request: SolveRequest, path: str | os.PathLike[str] | BinaryIO) -> None:
    """Write the tour of ``request`` (both sides at least 5, no end square) to a NumPy ``.npy``
    file at ``path`` (or into a binary file), in pieces (:func:`_grid_to_sink`), each validated
    before it is written (by a thread of its own, while the next piece is made): the tour is never
    held in memory as a whole, only two pieces of it (64 MiB each), the first column of blocks and
    the validation's flag a square (1 byte).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     divide_to_npy(SolveRequest(Board(12, 10), start=0, closed=True), os.path.join(d, "t.npy"))
    ...     np.load(os.path.join(d, "t.npy"))[:3].tolist()
    [0, ...]
    """
    board, closed = request.board, request.closed
    if not board.is_plain_knight or min(board.width, board.height) < 5 or request.end is not None:
        raise InvalidInputError(
            "divide writes .npy files for plain boards with both sides at least 5, without an end"
        )
    s = 0 if request.start is None else request.start
    answer = verdict(board, s, None, closed)
    if answer.exists is False:
        raise NoTourError(answer.reason)
    n, w = board.size, board.width
    board.require_memory(1.5, "the validation of a tour written to a file")
    kernels = jit.load(_divide_kernels, compiled=True)
    seen = np.zeros(n, dtype=np.uint8)
    state = {"first": -1, "last": -1, "bad": 0, "count": 0}
    dxv = np.zeros(4 * w + 5, dtype=np.int64)  # the file step of each knight's move, by index
    for dx, dy in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
        dxv[dy * w + dx + 2 * w + 2] = dx

    from concurrent.futures import Future, ThreadPoolExecutor

    # each piece is written by a thread of its own while the next is made (a copy: the piece's
    # buffer is reused), one write at a time: the file's pages cost as much as making them
    writing: list[Future[Any]] = []
    with _binary(path) as f, ThreadPoolExecutor(1) as writer:
        header = {
            "descr": np.lib.format.dtype_to_descr(np.dtype(np.int32)),
            "fortran_order": False,
            "shape": (n,),
        }
        np.lib.format.write_array_header_1_0(f, header)

        def write(piece: np.ndarray) -> None:
            if writing:
                writing.pop().result()
            data = piece.copy().data.cast("B")
            writing.append(writer.submit(f.write, data))

        def sink(piece: np.ndarray) -> None:
            m = piece.size
            if m == 0:
                return
            if state["first"] < 0:
                state["first"] = int(piece[0])
            mid = m // 2
            prev2 = int(piece[mid - 1]) if mid > 0 else state["last"]
            bad = _until_all(
                request.deadline,
                [
                    (kernels.check_piece, (piece, 0, mid, state["last"], w, dxv, seen)),
                    (kernels.check_piece, (piece, mid, m, prev2, w, dxv, seen)),
                ],
            )
            state["bad"] += sum(bad)
            state["count"] += m
            state["last"] = int(piece[-1])
            write(piece)

        _grid(board, s, request.deadline, sink=sink)
        while writing:
            writing.pop().result()
    ok = state["bad"] == 0 and state["count"] == n and state["first"] == s
    ok = ok and int(np.count_nonzero(seen)) == n
    if ok and closed:
        ok = board.is_move(state["last"], s)
    if not ok:  # pragma: no cover - a bug, never the user's fault
        raise InternalError(f"divide wrote a bad tour to {path}")


@contextlib.contextmanager
def _binary(target: str | os.PathLike[str] | BinaryIO) -> Iterator[BinaryIO]:
    """``target`` opened for writing when it is a path; a file as it is (left open)."""
    if isinstance(target, str | os.PathLike):
        with open(target, "wb") as f:
            yield f
    else:
        yield target


def divide(request: SolveRequest, /) -> Solution:
    """A tour by divide and conquer, as int32 square indices, in time linear in the board.

    Works on every plain board that has a tour, from every start square that has one (the start
    defaults to ``a1``); closed when asked. Given a start and an end square too (``auto`` hands
    them on), it builds an open tour between them on boards with both sides at least 6
    (:func:`_between`), or a closed one when the end is a knight's move from the start. It takes no
    tie-break or seed (the construction is deterministic: :func:`knightstour.solve` refuses
    them); a deadline already past stops it before it builds.

    >>> divide(SolveRequest(Board(5, 5), start=12)).indices[:5].tolist()
    [12, ...]
    """
    board, closed = request.board, request.closed
    if not board.is_plain_knight:
        raise InvalidInputError("divide builds tours of the knight on full rectangular boards only")
    if request.end is not None and request.start is not None:
        return Solution(_between(request), "divide")
    s = 0 if request.start is None else request.start
    answer = verdict(board, s, None, closed)
    if answer.exists is False:
        raise NoTourError(answer.reason)
    if expired(request.deadline):
        raise SearchFailedError("divide did not start: the time limit was reached")
    if board.size == 1:
        return Solution(np.zeros(1, dtype=np.int32), "divide")
    require_memory(board)
    if min(board.width, board.height) >= 5:
        return Solution(_grid(board, s, request.deadline), "divide")
    return Solution(_thin(board, s, closed, request.deadline), "divide")
