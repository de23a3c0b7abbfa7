"""Hot loops of Warnsdorff's rule: plain Python in the subset that Numba compiles.

The kernels work on a :class:`~knightstour.board.PaddedGrid`: the board inside a border of
blocked cells, so that a move is one addition and never needs a bounds check. Holes are blocked
cells too, and the leaper is just a list of offsets: the kernels know nothing of knights.

They are loaded by :mod:`knightstour.solvers._jit`, compiled when the work (squares times walks)
is above :data:`COMPILE_THRESHOLD` and interpreted otherwise, so that ``knightstour solve 8x8``
answers in a blink.

>>> from knightstour.board import Board
>>> g = Board(5, 5).padded()
>>> int(degrees(g.blocked, g.offsets).max())
8
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "degrees",
    "table_degrees",
    "warnsdorff_steps",
    "warnsdorff_table_steps",
    "warnsdorff_walk",
)

#: Slots of the int64 ``state`` of :func:`warnsdorff_steps`: squares visited (0: not begun), the
#: current padded cell, the schedule row in charge, the random generator's state.
_COUNT, _CUR, _SCHED, _RNG = 0, 1, 2, 3
#: Length of that ``state`` array.
STATE_SIZE = 4

_MASK32 = 0xFFFFFFFF

#: Work (squares times walks) above which the compiled kernels are used.
COMPILE_THRESHOLD = 50_000

#: The tie-break codes of :func:`warnsdorff_walk` (the one place they are written).
TB_FIRST, TB_CENTER, TB_RANDOM, TB_LOOKAHEAD = 0, 1, 2, 3
#: Tie-break name -> code; ``squirrel`` is ``first`` over a schedule of move orders.
TIEBREAK_CODES: dict[str, int] = {
    "first": TB_FIRST,
    "center": TB_CENTER,
    "random": TB_RANDOM,
    "lookahead": TB_LOOKAHEAD,
    "squirrel": TB_FIRST,
}


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


def warnsdorff_walk(
    vis: np.ndarray,
    deg: np.ndarray,
    offsets: np.ndarray,
    orders: np.ndarray,
    switch_cells: np.ndarray,
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
    candidates of each step are scanned in the move order ``orders[j]`` of the schedule row ``j``
    in charge: row ``j`` rules until the walk lands on padded cell ``switch_cells[j]``, then the
    next row whose cell is still unvisited takes over (a cell of -1 is never reached; one row is
    a fixed order, several are Squirrel & Cull's switching orders). Among the candidates of fewest onward moves, the
    tie-break picks: ``first`` in order, ``center`` farthest from the centre (Roth), ``random``
    uniformly (reservoir sampling, seeded), ``lookahead`` the smallest sum of its unvisited
    neighbours' onward counts (Warnsdorff's double look-ahead, after Pohl 1967), then first in
    order. When ``end >= 0`` that cell is kept for the last move. ``out`` receives board indices
    (``y * width + x``) in visit order.
    """
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    return warnsdorff_steps(
        vis, deg, offsets, orders, switch_cells, start, end, n_squares, tiebreak, seed,
        pwidth, pad, width, height, out, st, n_squares,
    )  # fmt: skip


def warnsdorff_steps(
    vis: np.ndarray,
    deg: np.ndarray,
    offsets: np.ndarray,
    orders: np.ndarray,
    switch_cells: np.ndarray,
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
    st: np.ndarray,
    limit: int,
) -> int:
    """:func:`warnsdorff_walk` in steps: walk on until ``limit`` squares are visited in all.

    ``st`` (int64, :data:`STATE_SIZE`, zeros to begin) holds where the walk is, so that the
    next call goes on from there: a caller looks at the clock between calls. Returns the squares
    visited so far; fewer than ``limit`` (and ``n_squares``) when the walk is stuck.
    """
    nmoves = offsets.size
    cx2 = 2 * pad + width - 1
    cy2 = 2 * pad + height - 1
    nsched = switch_cells.size
    if st[_COUNT] == 0:
        # xorshift32 on plain ints: the same numbers compiled or interpreted, on every platform
        state = (seed * 2654435761 + 0x6D2B79F5) & _MASK32
        if state == 0:
            state = 1
        cur = start
        vis[cur] = 1
        out[0] = (cur // pwidth - pad) * width + (cur % pwidth - pad)
        count = 1
        sched = 0
    else:
        count = st[_COUNT]
        cur = st[_CUR]
        sched = st[_SCHED]
        state = st[_RNG]
    if limit > n_squares:
        limit = n_squares
    cand = np.empty(nmoves, dtype=np.int64)
    while count < limit:
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
            if tiebreak == TB_FIRST or tiebreak == TB_LOOKAHEAD:  # noqa: SIM109 (Numba)
                if d < bd:
                    bd = d
                    best = q
                if tiebreak == TB_LOOKAHEAD:
                    cand[ncand] = q
                    ncand += 1
            elif tiebreak == TB_CENTER:
                if d <= bd:
                    qy = q // pwidth
                    dx = 2 * (q - qy * pwidth) - cx2
                    dy = 2 * qy - cy2
                    key = dx * dx + dy * dy
                    if d < bd or key > bkey:
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
                    state ^= (state << 13) & _MASK32
                    state ^= state >> 17
                    state ^= (state << 5) & _MASK32
                    if state % nties == 0:
                        best = q
        if best < 0:
            break
        if tiebreak == TB_LOOKAHEAD:
            bsum = 1 << 30
            for i in range(ncand):
                q = cand[i]
                if deg[q] != bd:
                    continue
                s = 0
                for k in range(nmoves):
                    r2 = q + offsets[k]
                    if not vis[r2]:
                        s += deg[r2]
                if s < bsum:
                    bsum = s
                    best = q
        cur = best
        vis[cur] = 1
        out[count] = (cur // pwidth - pad) * width + (cur % pwidth - pad)
        count += 1
        if cur == switch_cells[sched] and sched + 1 < nsched:
            sched += 1
            while sched + 1 < nsched and switch_cells[sched] >= 0 and vis[switch_cells[sched]]:
                sched += 1
    st[_COUNT] = count
    st[_CUR] = cur
    st[_SCHED] = sched
    st[_RNG] = state
    return count


# -- any geometry: the same walk over a neighbour table ---------------------------------------------


def table_degrees(nbr: np.ndarray, vis: np.ndarray) -> np.ndarray:
    """For each free square, the number of free squares a move away (``nbr``: -1 for none)."""
    n, k = nbr.shape
    deg = np.zeros(n, dtype=np.uint8)
    for p in range(n):
        if vis[p]:
            continue
        d = 0
        for j in range(k):
            q = nbr[p, j]
            if q >= 0 and not vis[q]:
                d += 1
        deg[p] = d
    return deg


def warnsdorff_table_steps(
    vis: np.ndarray,
    deg: np.ndarray,
    nbr: np.ndarray,
    orders: np.ndarray,
    switch_cells: np.ndarray,
    start: int,
    end: int,
    n_squares: int,
    tiebreak: int,
    seed: int,
    key: np.ndarray,
    out: np.ndarray,
    st: np.ndarray,
    limit: int,
) -> int:
    """:func:`warnsdorff_steps` on a neighbour table: wrapped and 3-D boards, any leaper.

    Squares are board indices; ``key[q]`` is how far ``q`` lies from the centre (the ``center``
    tie-break prefers the largest). Otherwise the same rule, tie-breaks and resumable ``st``.
    """
    nmoves = nbr.shape[1]
    nsched = switch_cells.size
    if st[_COUNT] == 0:
        state = (seed * 2654435761 + 0x6D2B79F5) & _MASK32
        if state == 0:
            state = 1
        cur = start
        vis[cur] = 1
        out[0] = cur
        count = 1
        sched = 0
    else:
        count = st[_COUNT]
        cur = st[_CUR]
        sched = st[_SCHED]
        state = st[_RNG]
    if limit > n_squares:
        limit = n_squares
    cand = np.empty(nmoves, dtype=np.int64)
    while count < limit:
        best = -1
        bd = 1 << 30
        bkey = -1
        nties = 0
        ncand = 0
        last = count == n_squares - 1
        for j in range(nmoves):
            q = np.int64(nbr[cur, orders[sched, j]])
            if q < 0 or vis[q]:
                continue
            deg[q] -= 1
            if q == end and not last:
                continue
            d = np.int64(deg[q])
            if tiebreak == TB_FIRST or tiebreak == TB_LOOKAHEAD:  # noqa: SIM109 (Numba)
                if d < bd:
                    bd = d
                    best = q
                if tiebreak == TB_LOOKAHEAD:
                    cand[ncand] = q
                    ncand += 1
            elif tiebreak == TB_CENTER:
                if d <= bd and (d < bd or key[q] > bkey):
                    bd = d
                    bkey = key[q]
                    best = q
            else:
                if d < bd:
                    bd = d
                    best = q
                    nties = 1
                elif d == bd:
                    nties += 1
                    state ^= (state << 13) & _MASK32
                    state ^= state >> 17
                    state ^= (state << 5) & _MASK32
                    if state % nties == 0:
                        best = q
        if best < 0:
            break
        if tiebreak == TB_LOOKAHEAD:
            bsum = 1 << 30
            for i in range(ncand):
                q = cand[i]
                if deg[q] != bd:
                    continue
                s = 0
                for k in range(nmoves):
                    r2 = nbr[q, k]
                    if r2 >= 0 and not vis[r2]:
                        s += deg[r2]
                if s < bsum:
                    bsum = s
                    best = q
        cur = best
        vis[cur] = 1
        out[count] = cur
        count += 1
        if cur == switch_cells[sched] and sched + 1 < nsched:
            sched += 1
            while sched + 1 < nsched and switch_cells[sched] >= 0 and vis[switch_cells[sched]]:
                sched += 1
    st[_COUNT] = count
    st[_CUR] = cur
    st[_SCHED] = sched
    st[_RNG] = state
    return count
