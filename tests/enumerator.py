"""A plain exhaustive enumerator of knight's tours: the reference the exact search is tested against.

Deliberately naive: a depth-first walk over every simple path, no pruning and no move ordering,
so its counts are easy to trust. Its own tests pin it to published counts (1728 directed open
tours on 5x5, 16 closed tours on 3x10).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightstour.board import Board


@njit(cache=True)
def _count(nbr, size, start, end, closed, limit, ends):
    n_moves = nbr.shape[1]
    vis = np.zeros(nbr.shape[0], dtype=np.uint8)
    path = np.empty(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    path[0] = start
    vis[start] = 1
    depth = 0
    count = 0
    while depth >= 0:
        if depth == size - 1:
            last = path[depth]
            ok = end < 0 or last == end
            if ok and closed:
                ok = False
                for j in range(n_moves):
                    if nbr[last, j] == start:
                        ok = True
            if ok:
                count += 1
                ends[last] += 1
                if count >= limit:
                    return count
            vis[last] = 0
            depth -= 1
            continue
        j = nxt[depth]
        if j == n_moves:
            vis[path[depth]] = 0
            depth -= 1
            continue
        nxt[depth] = j + 1
        q = nbr[path[depth], j]
        if q < 0 or vis[q]:
            continue
        depth += 1
        path[depth] = q
        nxt[depth] = 0
        vis[q] = 1
    return count


def count_tours(
    board: Board, start: int, end: int | None = None, closed: bool = False, limit: int = 2**62
) -> int:
    """Directed tours from ``start`` (to ``end``; closed: ending a move from ``start``), up to ``limit``."""
    return int(tour_ends(board, start, end, closed, limit).sum())


def tour_ends(
    board: Board, start: int, end: int | None = None, closed: bool = False, limit: int = 2**62
) -> np.ndarray:
    """How many directed tours from ``start`` end on each square (up to ``limit`` in all)."""
    nbr = board.neighbour_table().astype(np.int64)
    ends = np.zeros(board.area, dtype=np.int64)
    _count(nbr, board.size, start, -1 if end is None else end, closed, limit, ends)
    return ends


def tour_exists(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> bool:
    """Whether any tour exists, by enumeration (stops at the first one)."""
    if closed and board.size < 3:
        return False
    if start is None and end is not None:  # search backwards from the end
        return count_tours(board, end, None, closed, 1) > 0
    if start is None and closed:  # a closed tour passes through every square
        start = next(board.squares())
    starts = [start] if start is not None else list(board.squares())
    return any(count_tours(board, s, end, closed, 1) > 0 for s in starts)
