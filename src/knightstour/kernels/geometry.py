"""Compiled shape of a tour: its moves bucketed on a grid, their crossings, its symmetries.

Plain Python in the subset that Numba compiles, loaded through
:func:`knightstour.kernels.jit.load` by :func:`knightstour.geometry.metrics`, which builds the
tables these kernels read (docs/geometry.md describes the method).

A move is bucketed by its *start*: the end from which its vector points right (or straight up),
one bit a vector in a byte a cell of a padded grid. Two moves can only cross when their starts
lie within twice the leaper's long leg of each other, and whether they cross depends only on
their two vectors and the offset between their starts: a table lists the offsets ahead (flat,
in the padded grid) at which a move can cross, and for each pair of bytes (the moves here, the
moves there) the number of crossing pairs.

>>> import numpy as np
>>> grid = np.zeros(16, dtype=np.uint8)
>>> dir_of = np.full(25, -1, dtype=np.int64); half_of = np.full(25, -1, dtype=np.int64)
>>> dir_of[(2 + 2) * 5 + (1 + 2)] = 0; half_of[(2 + 2) * 5 + (1 + 2)] = 0
>>> dir_of[(-2 + 2) * 5 + (-1 + 2)] = 1; half_of[(-2 + 2) * 5 + (-1 + 2)] = 0
>>> counts = np.zeros(2, dtype=np.int64)
>>> tables = move_tables(5, 2, dir_of)
>>> walk_moves(np.array([0, 7, 0], dtype=np.int32), False, 5, 0, 0, 4, 0, 2, dir_of, half_of,
...            grid, counts, *tables)
1
>>> counts.tolist(), np.flatnonzero(grid).tolist()
([1, 1], [0])
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "batch_shape",
    "board_crossings",
    "count_crossings",
    "image_matches",
    "index_of",
    "move_tables",
    "walk_moves",
)


def move_tables(w: int, b: int, dir_of: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lookups :func:`walk_moves` reads a move's vector with, on a board ``w`` wide:
    ``by_flat`` (a vector's key by the difference of its squares' indices, plus ``b * w + b``;
    empty on a board ``2 * b`` wide or less, where that difference is not unique) and the
    ``dx`` and ``dy`` of each key."""
    side = 2 * b + 1
    span = b * w + b
    by_flat = np.full(2 * span + 1 if w > 2 * b else 0, -1, dtype=np.int64)
    kdx = np.zeros(side * side, dtype=np.int64)
    kdy = np.zeros(side * side, dtype=np.int64)
    for v in range(side * side):
        kdx[v], kdy[v] = v // side - b, v % side - b
        if dir_of[v] >= 0 and w > 2 * b:
            by_flat[kdx[v] + kdy[v] * w + span] = v
    return by_flat, kdx, kdy


def walk_moves(
    seq: np.ndarray,
    closed: bool,
    w: int,
    x0: int,
    y0: int,
    pw: int,
    pad: int,
    b: int,
    dir_of: np.ndarray,
    half_of: np.ndarray,
    grid: np.ndarray,
    counts: np.ndarray,
    by_flat: np.ndarray,
    kdx: np.ndarray,
    kdy: np.ndarray,
) -> int:
    """Walk the moves of ``seq`` (square indices of a board ``w`` wide; with ``closed``, the
    move from the last square back to the first too): count each vector in ``counts`` (its
    index ``dir_of[(dx + b) * (2b + 1) + dy + b]``), set the bit ``half_of[...]`` of the move's
    start in ``grid`` (``pw`` wide, the cell of ``(x0, y0)`` at ``(pad, pad)``); return the
    turns, the squares where the vector in differs from the vector out (every square of a
    closed tour is between two moves, the inner squares of a path).

    A move's vector is read with the lookups of :func:`move_tables`: off the difference of its
    squares' indices on a board wider than ``2 * b`` (unique there), its ends followed without
    a division."""
    n = seq.size
    side = 2 * b + 1
    moves = n if closed else n - 1
    span = b * w + b
    turns = 0
    first = -1
    prev = -1
    s0 = np.int64(seq[0])
    x, y = s0 % w - x0 + pad, s0 // w - y0 + pad  # in the grid
    for i in range(moves):
        s = np.int64(seq[i])
        t = np.int64(seq[i + 1] if i + 1 < n else seq[0])
        if w > 2 * b:
            key = np.int64(by_flat[t - s + span])
        else:
            dxs, dys = t % w - s % w, t // w - s // w
            key = np.int64((dxs + b) * side + dys + b)
        dx, dy = kdx[key], kdy[key]
        d = dir_of[key]
        counts[d] += 1
        if i == 0:
            first = d
        elif d != prev:
            turns += 1
        prev = d
        if dx < 0 or (dx == 0 and dy < 0):  # bucketed at the other end
            grid[(y + dy) * pw + x + dx] |= np.uint8(1) << np.uint8(half_of[key])
        else:
            grid[y * pw + x] |= np.uint8(1) << np.uint8(half_of[key])
        x += dx
        y += dy
    if closed and moves > 0 and prev != first:
        turns += 1
    return turns


def count_crossings(
    grid: np.ndarray, lo: int, hi: int, offsets: np.ndarray, cross: np.ndarray
) -> int:
    """The crossings of the moves bucketed in ``grid[lo:hi]`` with the moves bucketed ahead of
    them: for each forward offset ``offsets[e]`` (flat, positive: each pair is met once, from
    its first cell), ``cross[e, 16 * a + b]`` is the number of crossing pairs between the
    moves of byte ``a`` here and those of byte ``b`` there. No branch on the bytes: the sweep
    reads ``len(offsets)`` streams side by side."""
    total = np.int64(0)  # (interpreted, a sum of uint8 would wrap round at 256)
    kinds = offsets.size
    for c in range(lo, hi):
        v = np.int64(grid[c]) << 4
        for e in range(kinds):
            total += cross[e, v | grid[c + offsets[e]]]
    return int(total)


def batch_shape(
    paths: np.ndarray,
    closed: bool,
    w: int,
    pw: int,
    ph: int,
    pad: int,
    b: int,
    dir_of: np.ndarray,
    half_of: np.ndarray,
    offsets: np.ndarray,
    cross: np.ndarray,
    crossings: np.ndarray,
    turns: np.ndarray,
) -> None:
    """The crossings and turns of each row of ``paths`` (paths of one board ``w`` wide, each of
    at least two squares) into ``crossings[i]`` and ``turns[i]``: :func:`walk_moves` and
    :func:`count_crossings` path after path on one grid (``pw`` by ``ph``, the board's square
    ``(0, 0)`` at ``(pad, pad)``), cleared between them; the tables are those of
    :func:`knightstour.geometry.metrics`."""
    grid = np.zeros(pw * ph, dtype=np.uint8)
    counts = np.zeros(dir_of.size, dtype=np.int64)
    by_flat, kdx, kdy = move_tables(w, b, dir_of)
    for i in range(paths.shape[0]):
        turns[i] = walk_moves(
            paths[i], closed, w, 0, 0, pw, pad, b, dir_of, half_of, grid, counts, by_flat, kdx,
            kdy,
        )  # fmt: skip
        crossings[i] = board_crossings(grid, pw, ph, pad, offsets, cross)
        grid[:] = 0


def board_crossings(
    grid: np.ndarray, pw: int, ph: int, pad: int, offsets: np.ndarray, cross: np.ndarray
) -> int:
    """:func:`count_crossings` of a small grid (``pw`` by ``ph``, ``pad`` cells of margin), its
    margin and its empty cells skipped: a cell without a move bucketed there starts no pair."""
    total = np.int64(0)
    kinds = offsets.size
    for y in range(pad, ph - pad):
        for c in range(y * pw + pad, (y + 1) * pw - pad):
            v = np.int64(grid[c]) << 4
            if v == 0:
                continue
            for e in range(kinds):
                total += cross[e, v | grid[c + offsets[e]]]
    return int(total)


def index_of(seq: np.ndarray, value: int) -> int:
    """The first position of ``value`` in ``seq``, or -1."""
    for i in range(seq.size):
        if seq[i] == value:
            return i
    return -1


def image_matches(seq: np.ndarray, w: int, h: int, g: int, k: int, step: int) -> bool:
    """Whether symmetry ``g`` of the ``w`` x ``h`` board (numbered as
    :func:`knightstour.board.symmetries`) takes ``seq[i]`` to ``seq[(k + step * i) % n]`` for
    every ``i`` (``step`` 1 or -1): the path onto itself, read from ``k`` in that direction."""
    n = seq.size
    j = k
    for i in range(n):
        s = np.int64(seq[i])
        x, y = s % w, s // w
        if g == 1:
            x = w - 1 - x
        elif g == 2:
            y = h - 1 - y
        elif g == 3:
            x, y = w - 1 - x, h - 1 - y
        elif g == 4:
            x, y = y, x
        elif g == 5:
            x, y = h - 1 - y, x
        elif g == 6:
            x, y = y, w - 1 - x
        elif g == 7:
            x, y = h - 1 - y, w - 1 - x
        if seq[j] != y * w + x:
            return False
        j += step
        if j == n:
            j = 0
        elif j < 0:
            j = n - 1
    return True
