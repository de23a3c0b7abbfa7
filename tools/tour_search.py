"""A small exact search for knight's paths with forced edges, for making the divide data.

Depth-first search, candidates in Warnsdorff order (fewest onward moves first, ties random), with
*forced edges*: pairs of squares that must be consecutive in the path, optionally in a given
direction, and optionally *virtual* (not a knight's move: a jump that joins two paths, so one
search finds a cover of the board by several paths with given ends). Used by
``tools/make_divide_data.py`` only; the package never imports it.

``search(w, h, start, end=-1, closed=False, forced=(), jumps=(), limit=..., seed=0)`` returns
``(status, path)``: status 1 found (path: the squares in order, jumps included), 0 proved none
(the search was exhaustive), -1 gave up after ``limit`` nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightstour.solvers._divide_ends import _moves

NB = 10  # neighbour slots: 8 knight moves and up to 2 jumps


def neighbours(w: int, h: int) -> np.ndarray:
    """The knight's moves of each square (the package's table, in its order), and room for jumps."""
    nb = np.full((w * h, NB), -1, dtype=np.int32)
    nb[:, :8] = _moves(w, h)  # a copy: the package's table is cached, jumps are added to this one
    return nb


@njit(cache=True)
def _dfs(nb, n, start, end, closed, forced, fdir, limit, seed, path):
    nslot = nb.shape[1]
    vis = np.zeros(n, np.uint8)
    deg = np.zeros(n, np.int32)
    for u in range(n):
        for k in range(nslot):
            if nb[u, k] >= 0:
                deg[u] += 1
    cand = np.full((n, nslot), -1, np.int32)
    ncand = np.zeros(n, np.int32)
    ci = np.zeros(n, np.int32)
    state = np.uint64(seed) * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    if state == 0:
        state = np.uint64(1)
    nodes = 0

    path[0] = start
    vis[start] = 1
    for k in range(nslot):
        t = nb[start, k]
        if t >= 0:
            deg[t] -= 1
    # the start: no forced edge may lead into it (except the closing one)
    for j in range(2):
        f = forced[start, j]
        if f >= 0 and fdir[start, j] == -1 and not (closed and f == end):
            return 0
    d = 0
    gen = True
    while True:
        if gen:
            gen = False
            nodes += 1
            if nodes > limit:
                return -1
            u = path[d]
            prev = path[d - 1] if d > 0 else -1
            ncand[d] = 0
            ci[d] = 0
            if d == n - 1:
                ok = True
                if end >= 0 and u != end:
                    ok = False
                if closed:
                    isnb = False
                    for k in range(nslot):
                        if nb[u, k] == start:
                            isnb = True
                    if not isnb:
                        ok = False
                for j in range(2):
                    f = forced[u, j]
                    if f >= 0 and f != prev and not (closed and f == start):
                        ok = False
                if ok:
                    return 1
            else:
                req = -1
                dead = False
                for j in range(2):
                    f = forced[u, j]
                    if f >= 0 and f != prev:
                        if d == 0 and closed and f == end:
                            continue
                        if req >= 0:
                            dead = True
                        req = f
                if req >= 0 and vis[req]:
                    dead = True
                if not dead:
                    last = d + 1 == n - 1
                    m = 0
                    for k in range(nslot):
                        v = nb[u, k]
                        if v < 0 or vis[v]:
                            continue
                        if req >= 0 and v != req:
                            continue
                        if v == end and not last:
                            continue
                        bad = 0
                        for j in range(2):
                            f = forced[v, j]
                            if f < 0:
                                continue
                            if f == u:
                                if fdir[v, j] == 1:  # the edge runs v -> u, not u -> v
                                    bad += 2
                                continue
                            if (
                                fdir[v, j] == -1  # v must be entered from f
                                or (last and not (closed and f == start))
                                or (vis[f] and not (closed and f == start and last))
                            ):
                                bad += 2
                            else:
                                bad += 1
                        if bad > 1:
                            continue
                        cand[d, m] = v
                        m += 1
                    # sort by onward degree, random ties
                    keys = np.empty(m, np.int64)
                    for i in range(m):
                        state ^= state >> np.uint64(12)
                        state ^= state << np.uint64(25)
                        state ^= state >> np.uint64(27)
                        r = np.int64((state * np.uint64(2685821657736338717)) >> np.uint64(40))
                        keys[i] = np.int64(deg[cand[d, i]]) * (1 << 30) + r
                    for i in range(1, m):
                        j = i
                        while j > 0 and keys[j - 1] > keys[j]:
                            keys[j - 1], keys[j] = keys[j], keys[j - 1]
                            t = cand[d, j - 1]
                            cand[d, j - 1] = cand[d, j]
                            cand[d, j] = t
                            j -= 1
                    ncand[d] = m
        # advance to the next candidate at depth d
        moved = False
        while ci[d] < ncand[d]:
            v = cand[d, ci[d]]
            ci[d] += 1
            vis[v] = 1
            for k in range(nslot):
                t = nb[v, k]
                if t >= 0:
                    deg[t] -= 1
            # prune (soundly): squares next to v left with too few ways in and out
            remaining = n - d - 2
            ok = True
            if remaining > 1:
                ones = 0
                for k in range(nslot):
                    t = nb[v, k]
                    if t >= 0 and vis[t] == 0:
                        if deg[t] == 0:
                            ok = False
                        elif deg[t] == 1 and t != end:
                            ones += 1
                if ones > 2 or (ones > 1 and end >= 0):
                    ok = False
                if end >= 0 and deg[end] == 0:
                    ok = False
            if not ok:
                vis[v] = 0
                for k in range(nslot):
                    t = nb[v, k]
                    if t >= 0:
                        deg[t] += 1
                continue
            d += 1
            path[d] = v
            moved = True
            gen = True
            break
        if not moved:
            if d == 0:
                return 0
            v = path[d]
            vis[v] = 0
            for k in range(nslot):
                t = nb[v, k]
                if t >= 0:
                    deg[t] += 1
            d -= 1


def search(w, h, start, end=-1, closed=False, forced=(), jumps=(), limit=10**7, seed=0):
    """Status (1 found, 0 none, -1 gave up) and the path (squares ``y * w + x``).

    ``forced``: undirected pairs that must be consecutive. ``jumps``: directed pairs ``(a, b)``
    that are added as moves and must be taken, ``a`` straight to ``b``.
    """
    n = w * h
    nb = neighbours(w, h)
    fz = np.full((n, 2), -1, dtype=np.int32)
    fd = np.zeros((n, 2), dtype=np.int8)

    def add(p, q, direction):
        slot = 0 if fz[p, 0] < 0 else 1
        if fz[p, slot] >= 0:
            raise ValueError(f"square {p} has more than two forced edges")
        fz[p, slot] = q
        fd[p, slot] = direction

    for a, b in forced:
        add(a, b, 0)
        add(b, a, 0)
    for a, b in jumps:
        add(a, b, 1)
        add(b, a, -1)
        for p, q in ((a, b), (b, a)):
            if q not in nb[p]:
                free = int(np.flatnonzero(nb[p] < 0)[0])
                nb[p, free] = q
    if closed and end < 0:
        raise ValueError("a closed search needs the end (a neighbour of the start)")
    path = np.zeros(n, dtype=np.int32)
    st = _dfs(nb, n, start, end, closed, fz, fd, limit, seed, path)
    return int(st), (path.copy() if st == 1 else None)


def solve_retrying(w, h, start, *, tries=40, limit=200_000, **kw):
    """:func:`search` with random restarts of growing size: (status, path)."""
    status = -1
    for i in range(tries):
        status, path = search(w, h, start, limit=limit * (1 + i // 4), seed=i + 1, **kw)
        if status >= 0:
            return status, path
    return status, None
