"""Compiled hot loops (Numba). Imported only when a solver runs, never by ``import knightstour``.

The kernels work on a :class:`~knightstour.board.PaddedGrid`: the board inside a border of
blocked cells, so that a move is one addition and never needs a bounds check. Holes are blocked
cells too, and the leaper is just a list of offsets: the kernels know nothing of knights.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Tie-break codes shared with :mod:`knightstour.solvers.warnsdorff`.
TB_FIRST, TB_CENTER, TB_RANDOM, TB_LOOKAHEAD = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def degrees(blocked: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each free cell, the number of free cells a move away (0 on blocked cells)."""
    n = blocked.size
    deg = np.zeros(n, dtype=np.uint8)
    lo = 0
    hi = n
    for k in range(offsets.size):
        o = offsets[k]
        if -o > lo:
            lo = -o
        if n - o < hi:
            hi = n - o
    for p in range(lo, hi):
        if blocked[p]:
            continue
        d = 0
        for k in range(offsets.size):
            if not blocked[p + offsets[k]]:
                d += 1
        deg[p] = d
    return deg


@njit(cache=True, nogil=True)
def _next_random(state: np.uint64) -> np.uint64:
    # xorshift64*: small, fast and the same on every platform
    state ^= state >> np.uint64(12)
    state ^= state << np.uint64(25)
    state ^= state >> np.uint64(27)
    return state


@njit(cache=True, nogil=True)
def warnsdorff_walk(
    vis: np.ndarray,
    deg: np.ndarray,
    offsets: np.ndarray,
    orders: np.ndarray,
    switch_at: np.ndarray,
    start: int,
    end: int,
    n_squares: int,
    tiebreak: int,
    seed: int,
    pwidth: int,
    pad: int,
    width: int,
    height: int,
    out: np.ndarray,
) -> int:
    """Walk by Warnsdorff's rule from padded cell ``start``; returns the squares visited.

    ``vis`` (1 = blocked or visited) and ``deg`` (onward counts) are consumed in place. The
    candidates of each step are scanned in the move order ``orders[j]``, where ``j`` is the last
    schedule entry with ``switch_at[j] <= squares visited`` (one row for a fixed order, several
    for Squirrel & Cull's switching orders). Among the candidates of fewest onward moves, the
    tie-break picks: ``first`` in order, ``center`` farthest from the centre (Roth), ``random``
    uniformly (reservoir sampling, seeded), ``lookahead`` the smallest sum of its unvisited
    neighbours' onward counts (Warnsdorff's double look-ahead, after Pohl 1967), then first in
    order. When ``end >= 0`` that cell is kept for the last move. ``out`` receives board indices
    (``y * width + x``) in visit order.
    """
    nmoves = offsets.size
    state = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    if state == 0:
        state = np.uint64(1)
    cx2 = 2 * pad + width - 1
    cy2 = 2 * pad + height - 1
    cur = start
    vis[cur] = 1
    out[0] = (cur // pwidth - pad) * width + (cur % pwidth - pad)
    count = 1
    sched = 0
    nsched = switch_at.size
    cand = np.empty(nmoves, dtype=np.int64)
    while count < n_squares:
        while sched + 1 < nsched and count >= switch_at[sched + 1]:
            sched += 1
        best = -1
        bd = 1 << 30
        bkey = -1
        nties = 0
        ncand = 0
        last = count == n_squares - 1
        for j in range(nmoves):
            q = cur + offsets[orders[sched, j]]
            if vis[q]:
                continue
            deg[q] -= 1
            if q == end and not last:
                continue
            d = np.int64(deg[q])
            if tiebreak == 0 or tiebreak == 3:
                if d < bd:
                    bd = d
                    best = q
                if tiebreak == 3:
                    cand[ncand] = q
                    ncand += 1
            elif tiebreak == 1:
                dx = 2 * (q % pwidth) - cx2
                dy = 2 * (q // pwidth) - cy2
                key = dx * dx + dy * dy
                if d < bd or (d == bd and key > bkey):
                    bd = d
                    bkey = key
                    best = q
            else:
                if d < bd:
                    bd = d
                    best = q
                    nties = 1
                elif d == bd:
                    nties += 1
                    state = _next_random(state)
                    r = (state * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)
                    if r % np.uint64(nties) == 0:
                        best = q
        if best < 0:
            break
        if tiebreak == 3:
            bsum = 1 << 30
            for i in range(ncand):
                q = cand[i]
                if deg[q] != bd:
                    continue
                s = 0
                for k in range(nmoves):
                    r2 = q + offsets[k]
                    if not vis[r2] and r2 != cur:
                        s += deg[r2]
                if s < bsum:
                    bsum = s
                    best = q
        cur = best
        vis[cur] = 1
        out[count] = (cur // pwidth - pad) * width + (cur % pwidth - pad)
        count += 1
    return count
