"""The shape of a tour drawn as segments between square centres: crossings, turns, the count of
each move vector, the board symmetries that map it onto itself, and its end displacement.

:func:`metrics` serves :meth:`knightstour.Tour.metrics` and
:meth:`knightstour.PartialTour.metrics`; docs/geometry.md gives the definitions with a worked
example and the method. In short, for a path of ``n`` squares (``n - 1`` moves; a closed tour
has ``n``, its closing move included):

- a **crossing** is a pair of moves that share no square and whose segments have a point in
  common. Such a point is always inside both moves: a leaper whose legs have no common factor
  (the knight) has no square inside a move, so no move of a path ends on another or overlaps it
  along a line; a leaper whose legs share a factor ``g`` (``(2, 4)``) reaches only squares
  ``g`` apart both ways from its start, where it moves as the smaller leaper scaled up. (The
  count would take a touching or an overlap as one crossing; no path has one.) The wazir
  ``(0, 1)`` and the ferz ``(1, 1)`` never cross;
- a **turn** is a square where the vector of the move in differs from the vector of the move
  out: the inner squares of a path, and every square of a closed tour (its first and last
  joined by the closing move);
- **directions** count the moves of each vector, as walked;
- **symmetries** are those of the board (holes included) that map the tour onto itself: a
  closed tour as a cycle (any start, either direction), a path as a path (either direction);
- the **displacement** is ``(dx, dy)`` from the first square to the last.

Wrapped and 3-D boards are refused: a move across a wrapped board's seam has no segment in the
plane, and segments in space seldom meet, so crossings are not defined there.

>>> from knightstour import Tour
>>> m = Tour("3x4", "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split()).metrics()
>>> m.moves, m.crossings, m.turns, m.displacement, m.symmetries
(11, 21, 10, (1, 0), ('identity',))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.kernels import geometry as _kernels
from knightstour.kernels import jit

__all__ = [
    "SYMMETRY_NAMES",
    "Metrics",
    "crossing_points",
    "has_metrics",
    "metrics",
    "require_flat",
    "segments_cross",
    "shape_batch",
]

#: The names of the board's symmetries, numbered as :func:`knightstour.board.symmetries`
#: (the last four only on square boards; turns are counter-clockwise, rank 1 at the bottom).
SYMMETRY_NAMES: tuple[str, ...] = (
    "identity",
    "reflect-files",  # x -> W-1-x: the mirror in the vertical centre line
    "reflect-ranks",  # y -> H-1-y: the mirror in the horizontal centre line
    "rotate-180",
    "reflect-diagonal",  # in the diagonal a1-h8
    "rotate-90",
    "rotate-270",
    "reflect-antidiagonal",  # in the diagonal a8-h1
)

#: Tours from this many squares have their metrics computed by the compiled kernels.
COMPILED_FROM = 1 << 12


@dataclass(frozen=True)
class Metrics:
    """The shape of one tour or path (:func:`metrics` defines each field).

    ``directions`` pairs each of the leaper's vectors (in :attr:`Board.deltas` order) with its
    number of moves; ``symmetries`` names those of :data:`SYMMETRY_NAMES` that map the tour onto
    itself (always ``identity`` first).
    """

    squares: int
    moves: int
    closed: bool
    crossings: int
    turns: int
    directions: tuple[tuple[tuple[int, int], int], ...]
    symmetries: tuple[str, ...]
    displacement: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: the ``"metrics"`` object of ``--metrics`` and ``metrics=true``.

        >>> from knightstour import Tour
        >>> Tour("3x4", "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split()).metrics().to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'squares': 12, 'moves': 11, 'closed': False, 'crossings': 21, 'turns': 10,
         'directions': {'2,1': 1, '1,2': 2, '-1,2': 1, '-2,1': 2, '-2,-1': 0, '-1,-2': 2,
                        '1,-2': 2, '2,-1': 1},
         'symmetries': ['identity'], 'displacement': [1, 0]}
        """
        return {
            "squares": self.squares,
            "moves": self.moves,
            "closed": self.closed,
            "crossings": self.crossings,
            "turns": self.turns,
            "directions": {f"{dx},{dy}": n for (dx, dy), n in self.directions},
            "symmetries": list(self.symmetries),
            "displacement": list(self.displacement),
        }

    def lines(self) -> list[str]:
        """The text lines of ``--metrics``.

        >>> from knightstour import Tour
        >>> print("\\n".join(Tour("3x4", "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split())
        ...                  .metrics().lines()))
        crossings: 21
        turns: 10 (of 10 joints between moves)
        directions: 2,1: 1  1,2: 2  -1,2: 1  -2,1: 2  -2,-1: 0  -1,-2: 2  1,-2: 2  2,-1: 1
        symmetries: identity
        displacement: dx 1, dy 0
        """
        joints = self.squares if self.closed else max(self.squares - 2, 0)
        return [
            f"crossings: {self.crossings:,}",
            f"turns: {self.turns:,} (of {joints:,} joints between moves)",
            "directions: " + "  ".join(f"{dx},{dy}: {n:,}" for (dx, dy), n in self.directions),
            "symmetries: " + ", ".join(self.symmetries),
            f"displacement: dx {self.displacement[0]}, dy {self.displacement[1]}",
        ]


def segments_cross(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int], d: tuple[int, int]
) -> bool:
    """Whether the closed segments ``ab`` and ``cd`` (integer points) have a point in common.

    >>> segments_cross((0, 0), (2, 1), (0, 1), (2, 0)), segments_cross((0, 0), (2, 1), (3, 0), (2, 2))
    (True, False)
    >>> segments_cross((0, 0), (0, 2), (0, 1), (0, 3))   # overlapping along a line
    True
    """

    def orient(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 0) - (v < 0)

    def within(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> bool:
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(
            p[1], q[1]
        )

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True  # each segment's ends on either side of the other's line
    return (
        (o1 == 0 and within(a, b, c))
        or (o2 == 0 and within(a, b, d))
        or (o3 == 0 and within(c, d, a))
        or (o4 == 0 and within(c, d, b))
    )


@lru_cache(maxsize=32)
def _table(leaper: tuple[int, int], pw: int) -> tuple[Any, ...]:
    """The crossing table of a leaper in a grid ``pw`` wide (a move is bucketed at its start,
    the end from which it points right or straight up, as bit ``k`` of its *half vector*):
    ``offsets``, the flat offsets ahead (positive) at which a move can cross one here, and
    ``cross[e, 16 * a + b]``, the number of crossing pairs between the moves of a byte ``a``
    here and a byte ``b`` at ``offsets[e]``; then the lookups of a move's vector
    (``dir_of``, its index in :attr:`Board.deltas`; ``half_of``, its bit).

    >>> offsets, cross, dir_of, half_of = _table((1, 2), 100)
    >>> offsets.tolist()   # a knight's move is crossed from 8 cells ahead (and 8 behind)
    [1, 99, 100, 101, 199, 200, 201, 300]
    """
    b = leaper[1]
    deltas = Board(2 * b + 1, 2 * b + 1, leaper=leaper).deltas
    half = [(dx, dy) for dx, dy in deltas if dx > 0 or (dx == 0 and dy > 0)]
    side = 2 * b + 1
    dir_of = np.full(side * side, -1, dtype=np.int64)
    half_of = np.full(side * side, -1, dtype=np.int64)
    for i, (dx, dy) in enumerate(deltas):
        dir_of[(dx + b) * side + dy + b] = i
        k = half.index((dx, dy)) if (dx, dy) in half else half.index((-dx, -dy))
        half_of[(dx + b) * side + dy + b] = k
    pairs: dict[int, list[tuple[int, int]]] = {}  # flat offset -> crossing (kind here, there)
    for oy in range(0, 2 * b + 1):
        for ox in range(-2 * b, 2 * b + 1):
            if oy == 0 and ox <= 0:
                continue  # behind, or the same cell: moves from one start share a square
            for (k1, v1), (k2, v2) in itertools.product(enumerate(half), repeat=2):
                p, q = (0, 0), v1
                r, s = (ox, oy), (ox + v2[0], oy + v2[1])
                if not {p, q} & {r, s} and segments_cross(p, q, r, s):
                    pairs.setdefault(oy * pw + ox, []).append((k1, k2))
    offsets = np.array(sorted(pairs), dtype=np.int64)
    cross = np.zeros((len(offsets), 256), dtype=np.uint8)
    for e, off in enumerate(offsets.tolist()):
        for a in range(16):
            for c in range(16):
                cross[e, 16 * a + c] = sum(
                    1 for k1, k2 in pairs[off] if (a >> k1) & 1 and (c >> k2) & 1
                )
    for arr in (offsets, cross, dir_of, half_of):
        arr.flags.writeable = False
    return offsets, cross, dir_of, half_of


def require_flat(board: Board) -> None:
    """Refuse a board where the metrics are not defined (a wrapped or 3-D board), naming why:
    what :func:`metrics` checks first, and the command line and the web ask before a search.

    >>> require_flat(Board(4, 4, depth=2))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: tour metrics are for flat boards: on a 3-D board the moves are segments in space, which seldom meet, so their crossings are not defined
    """
    if board.wrap is not None:
        raise InvalidInputError(
            "tour metrics are for flat boards: on a wrapped board a move across the seam has "
            "no segment in the plane, so its crossings are not defined"
        )
    if board.depth > 1:
        raise InvalidInputError(
            "tour metrics are for flat boards: on a 3-D board the moves are segments in space, "
            "which seldom meet, so their crossings are not defined"
        )


@lru_cache(maxsize=32)
def _pairs(leaper: tuple[int, int]) -> tuple[tuple[int, int, int, int], ...]:
    """The crossing pairs of a leaper as ``(ox, oy, k1, k2)``: a move of half vector ``k1``
    from a square and one of half vector ``k2`` from the square ``(ox, oy)`` ahead of it cross
    (the half vectors as :func:`_table` numbers them)."""
    b = leaper[1]
    deltas = Board(2 * b + 1, 2 * b + 1, leaper=leaper).deltas
    half = [(dx, dy) for dx, dy in deltas if dx > 0 or (dx == 0 and dy > 0)]
    out = []
    for oy in range(0, 2 * b + 1):
        for ox in range(-2 * b, 2 * b + 1):
            if oy == 0 and ox <= 0:
                continue
            for (k1, v1), (k2, v2) in itertools.product(enumerate(half), repeat=2):
                r, t = (ox, oy), (ox + v2[0], oy + v2[1])
                if not {(0, 0), v1} & {r, t} and segments_cross((0, 0), v1, r, t):
                    out.append((ox, oy, k1, k2))
    return tuple(out)


def crossing_points(
    board: Board, indices: np.ndarray, closed: bool = False
) -> list[tuple[float, float, int]]:
    """Where the moves of a path cross (:func:`metrics` counts them): one ``(x, y, k)`` a
    crossing, ``(x, y)`` the point in square coordinates (a square's centre is its ``(x, y)``)
    and ``k`` the number of the later of the two moves (1 for the first move; a closed tour's
    closing move is the last), so that a drawing that plays the tour can show each crossing once
    both moves are drawn. In NumPy, one pass over the board's cells a kind of crossing pair.

    >>> from knightstour.tour import PartialTour
    >>> p = PartialTour("3x3", "a1 c2 a3 b1".split())
    >>> crossing_points(p.board, p.indices)
    [(0.8, 0.4, 3)]
    """
    require_flat(board)
    seq = np.ascontiguousarray(indices, dtype=np.int64)
    n = int(seq.size)
    w, h = board.width, board.height
    ends = np.roll(seq, -1) if closed and n > 1 else seq[1:]
    starts = seq[: ends.size]
    if starts.size == 0:
        return []
    x0, y0, x1, y1 = starts % w, starts // w, ends % w, ends // w
    dx, dy = x1 - x0, y1 - y0
    back = (dx < 0) | ((dx == 0) & (dy < 0))  # bucketed at the end it points right from
    bx, by = np.where(back, x1, x0), np.where(back, y1, y0)
    hx, hy = np.where(back, -dx, dx), np.where(back, -dy, dy)
    b = board.leaper[1]
    deltas = Board(2 * b + 1, 2 * b + 1, leaper=board.leaper).deltas
    half = [(ux, uy) for ux, uy in deltas if ux > 0 or (ux == 0 and uy > 0)]
    kind = np.full(starts.size, -1, dtype=np.int64)
    for k, (ux, uy) in enumerate(half):
        kind[(hx == ux) & (hy == uy)] = k
    # the move of each kind from each cell (each cell starts at most one move of a kind)
    pad = 2 * b
    pw, ph = w + 2 * pad, h + 2 * pad
    at = np.full((len(half), pw * ph), -1, dtype=np.int64)
    cell = (by + pad) * pw + bx + pad
    at[kind, cell] = np.arange(starts.size)
    firsts, seconds = [], []
    for ox, oy, k1, k2 in _pairs(board.leaper):
        here = np.flatnonzero(at[k1] >= 0)
        there = here + oy * pw + ox
        ok = there < pw * ph
        here, there = here[ok], there[ok]
        ok = at[k2, there] >= 0
        firsts.append(at[k1, here[ok]])
        seconds.append(at[k2, there[ok]])
    i, j = np.concatenate(firsts), np.concatenate(seconds)
    # where segment i (p + t r) meets segment j (q + u s)
    rx, ry, sx, sy = dx[i], dy[i], dx[j], dy[j]
    t = ((x0[j] - x0[i]) * sy - (y0[j] - y0[i]) * sx) / (rx * sy - ry * sx)
    px, py = np.round(x0[i] + t * rx, 6), np.round(y0[i] + t * ry, 6)
    later = np.maximum(i, j) + 1
    order = np.lexsort((py, px, later))
    return list(zip(px[order].tolist(), py[order].tolist(), later[order].tolist(), strict=True))


def has_metrics(board: Board) -> bool:
    """Whether the metrics of ``board``'s tours are defined (:func:`require_flat` would pass).

    >>> has_metrics(Board(8, 8, holes=[0])), has_metrics(Board(8, 8, wrap="torus"))
    (True, False)
    """
    return board.wrap is None and board.depth == 1


#: Batches of paths of at least this many squares in all are measured by the compiled kernel.
BATCH_COMPILED_FROM = 1 << 14


def shape_batch(
    board: Board, paths: np.ndarray, closed: bool, *, compiled: bool | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(crossings, turns)`` of each row of ``paths`` (validated paths of ``board``, all of one
    length, as a ``(B, n)`` array; ``closed``: each closed by a move back to its start), as
    int64 arrays: the same numbers as :func:`metrics` gives each path, in one call for a batch
    of tours (what the tour library stores beside each tour). ``compiled`` as :func:`metrics`
    (default: compiled from :data:`BATCH_COMPILED_FROM` squares in all).

    >>> import knightstour as kt
    >>> t = kt.solve("5x5", start="a1", method="warnsdorff")
    >>> c, n = shape_batch(t.board, np.stack([t.indices, t.reversed().indices]), False)
    >>> c.tolist(), n.tolist(), (t.metrics().crossings, t.metrics().turns)
    ([39, 39], [23, 23], (39, 23))
    """
    require_flat(board)
    paths = np.ascontiguousarray(paths, dtype=np.int32)
    if paths.ndim != 2:
        raise InvalidInputError("a batch of paths is a two-dimensional array")
    rows, n = paths.shape
    crossings = np.zeros(rows, dtype=np.int64)
    turns = np.zeros(rows, dtype=np.int64)
    if rows == 0 or n < 2:
        return crossings, turns
    if compiled is None:
        k = jit.for_work(_kernels, rows * n, threshold=BATCH_COMPILED_FROM)
    else:
        k = jit.load(_kernels, compiled=compiled)
    b = board.leaper[1]
    pad = 2 * b
    pw, ph = board.width + 2 * pad, board.height + 2 * pad
    offsets, cross, dir_of, half_of = _table(board.leaper, pw)
    k.batch_shape(
        paths, bool(closed), board.width, pw, ph, pad, b, dir_of, half_of, offsets, cross,
        crossings, turns,
    )  # fmt: skip
    return crossings, turns


def metrics(
    board: Board, indices: np.ndarray, closed: bool = False, *, compiled: bool | None = None
) -> Metrics:
    """The metrics of a path of ``board`` (square indices in visit order, already validated as a
    path; ``closed``: the last square a move from the first, the closing move counted).
    ``compiled`` chooses the kernels (default: compiled from :data:`COMPILED_FROM` squares).

    Linear time in the squares of the path's bounding box (the board, for a tour): one walk of
    the moves buckets them on a grid, one sweep of the grid counts the crossings against a
    table, and each symmetry is checked in one pass that stops at the first mismatch.

    >>> from knightstour.board import Board
    >>> m = metrics(Board(5, 5), np.array([0, 7, 4, 13, 24], dtype=np.int32))
    >>> m.moves, m.crossings, m.turns, m.displacement, m.symmetries
    (4, 0, 3, (4, 4), ('identity', 'reflect-antidiagonal'))
    >>> metrics(Board(5, 5, wrap="torus"), np.array([0], dtype=np.int32))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: tour metrics are for flat boards: on a wrapped board a move across the seam has no segment in the plane, so its crossings are not defined
    """
    require_flat(board)
    seq = np.ascontiguousarray(indices, dtype=np.int32)
    n = int(seq.size)
    if n == 0:
        raise InvalidInputError("tour metrics need at least one square")
    w, h = board.width, board.height
    closed = bool(closed) and n > 1
    if compiled is None:
        k = jit.for_work(_kernels, n, threshold=COMPILED_FROM)
    else:
        k = jit.load(_kernels, compiled=compiled)
    x0, x1, y0, y1 = 0, w - 1, 0, h - 1
    if n * 8 < board.area:  # a short path on a big board: its bounding box
        xs, ys = seq % w, seq // w
        x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
    b = board.leaper[1]
    pad = 2 * b
    pw, ph = x1 - x0 + 1 + 2 * pad, y1 - y0 + 1 + 2 * pad
    offsets, cross, dir_of, half_of = _table(board.leaper, pw)
    grid = np.zeros(pw * ph, dtype=np.uint8)
    counts = np.zeros(len(board.deltas), dtype=np.int64)
    turns = 0
    if n > 1:
        tables = k.move_tables(w, b, dir_of)
        turns = int(
            k.walk_moves(seq, closed, w, x0, y0, pw, pad, b, dir_of, half_of, grid, counts, *tables)
        )
    lo, hi = pad * pw, (ph - pad) * pw
    crossings = _crossings(k, grid, lo, hi, pw, offsets, cross)
    del grid
    first, last = int(seq[0]), int(seq[-1])
    return Metrics(
        squares=n,
        moves=n if closed else n - 1,
        closed=closed,
        crossings=crossings,
        turns=turns,
        directions=tuple(zip(board.deltas, (int(c) for c in counts), strict=True)),
        symmetries=tuple(SYMMETRY_NAMES[g] for g in _symmetries(k, board, seq, closed)),
        displacement=(last % w - first % w, last // w - first // w),
    )


#: Grids from this many cells are swept in two halves at once (the kernel releases the GIL).
_SWEEP_IN_HALVES = 1 << 24


def _crossings(k: Any, grid: np.ndarray, lo: int, hi: int, pw: int, *table: Any) -> int:
    """The crossings of the moves bucketed in ``grid[lo:hi]`` (a grid ``pw`` wide; the table's
    arrays after), in two halves of rows at once when the grid is big."""
    if hi - lo < _SWEEP_IN_HALVES or not k.compiled:
        return int(k.count_crossings(grid, lo, hi, *table))
    from concurrent.futures import ThreadPoolExecutor

    mid = lo + (hi - lo) // 2 // pw * pw
    with ThreadPoolExecutor(2) as pool:
        parts = pool.map(
            lambda r: int(k.count_crossings(grid, r[0], r[1], *table)), [(lo, mid), (mid, hi)]
        )
        return sum(parts)


def _symmetries(k: Any, board: Board, seq: np.ndarray, closed: bool) -> list[int]:
    """The symmetries of ``board`` (numbered as :func:`knightstour.board.symmetries`) that map
    the path onto itself: a closed tour as a cycle, an open path as a path, either direction."""
    w, h = board.width, board.height
    n = int(seq.size)
    found = [0]
    for g in range(1, 8 if w == h else 4):
        if not _keeps_holes(board, g):
            continue
        s = int(seq[0])
        x, y = _image(g, s % w, s // w, w, h)
        if closed:
            j = int(k.index_of(seq, y * w + x))
            if j >= 0 and (
                k.image_matches(seq, w, h, g, j, 1) or k.image_matches(seq, w, h, g, j, -1)
            ):
                found.append(g)
        elif k.image_matches(seq, w, h, g, 0, 1) or k.image_matches(seq, w, h, g, n - 1, -1):
            found.append(g)
    return found


def _image(g: int, x: int, y: int, w: int, h: int) -> tuple[int, int]:
    """Square ``(x, y)`` under symmetry ``g`` of the ``w`` x ``h`` board."""
    return [
        (x, y),
        (w - 1 - x, y),
        (x, h - 1 - y),
        (w - 1 - x, h - 1 - y),
        (y, x),
        (h - 1 - y, x),
        (y, w - 1 - x),
        (h - 1 - y, w - 1 - x),
    ][g]


def _keeps_holes(board: Board, g: int) -> bool:
    """Whether symmetry ``g`` maps the board's holes onto themselves."""
    w, h = board.width, board.height
    for s in board.holes:
        x, y = _image(g, s % w, s // w, w, h)
        if y * w + x not in board.holes:
            return False
    return True
