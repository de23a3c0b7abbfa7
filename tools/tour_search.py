"""A small exact search for knight's paths with forced edges, for making the divide data.

Depth-first search, candidates in Warnsdorff order (fewest onward moves first, ties random),
with *forced edges*: pairs of squares that must be consecutive in the path. Used by
``tools/make_divide_data.py`` only; the package never imports it.

``search(w, h, start, end=-1, closed=False, forced=(), limit=..., seed=0)`` returns
``(status, path)``: status 1 found (path is the squares in order), 0 proved none (the search
was exhaustive), -1 gave up at ``limit`` nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

KNIGHT = ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))


def neighbours(w: int, h: int) -> np.ndarray:
    nb = np.full((w * h, 8), -1, dtype=np.int32)
    for y in range(h):
        for x in range(w):
            k = 0
            for dx, dy in KNIGHT:
                if 0 <= x + dx < w and 0 <= y + dy < h:
                    nb[y * w + x, k] = (y + dy) * w + x + dx
                    k += 1
    return nb


@njit(cache=True)
def _dfs(nb, n, start, end, closed, forced, limit, seed, path):
    vis = np.zeros(n, np.uint8)
    deg = np.zeros(n, np.int32)
    for u in range(n):
        for k in range(8):
            if nb[u, k] >= 0:
                deg[u] += 1
    cand = np.full((n, 8), -1, np.int32)
    ncand = np.zeros(n, np.int32)
    ci = np.zeros(n, np.int32)
    state = np.uint64(seed) * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    nodes = 0

    def visit(v):
        vis[v] = 1
        for k in range(8):
            t = nb[v, k]
            if t >= 0:
                deg[t] -= 1

    def unvisit(v):
        vis[v] = 0
        for k in range(8):
            t = nb[v, k]
            if t >= 0:
                deg[t] += 1

    path[0] = start
    visit(start)
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
                    for k in range(8):
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
                    for k in range(8):
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
                            if f >= 0 and f != u:
                                if last and not (closed and f == start):
                                    bad += 2
                                elif vis[f] and not (closed and f == start and last):
                                    bad += 2
                                else:
                                    bad += 1
                        if bad > 1:
                            continue
                        # keep a square with no way out for the end only
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
            visit(v)
            # prune: an unvisited neighbour of v left with no moves (other than the end)
            remaining = n - d - 2
            ok = True
            if remaining > 1:
                ones = 0
                for k in range(8):
                    t = nb[v, k]
                    if t >= 0 and vis[t] == 0:
                        if deg[t] == 0:
                            ok = False
                        elif deg[t] == 1 and t != end:
                            ones += 1
                if ones > 2:
                    ok = False
                if end >= 0 and deg[end] == 0:
                    ok = False
                if closed:
                    cnt = 0
                    for k in range(8):
                        t = nb[start, k]
                        if t >= 0 and vis[t] == 0:
                            cnt += 1
                    if cnt == 0:
                        ok = False
            if not ok:
                unvisit(v)
                continue
            d += 1
            path[d] = v
            moved = True
            gen = True
            break
        if not moved:
            if d == 0:
                return 0
            unvisit(path[d])
            d -= 1


def search(w, h, start, end=-1, closed=False, forced=(), limit=10**7, seed=0):
    """Status (1 found, 0 none, -1 gave up) and the path."""
    n = w * h
    nb = neighbours(w, h)
    fz = np.full((n, 2), -1, dtype=np.int32)
    for a, b in forced:
        for p, q in ((a, b), (b, a)):
            slot = 0 if fz[p, 0] < 0 else 1
            if fz[p, slot] >= 0:
                raise ValueError(f"square {p} has more than two forced edges")
            fz[p, slot] = q
    if closed and end < 0:
        raise ValueError("a closed search needs the end (a neighbour of the start)")
    path = np.zeros(n, dtype=np.int32)
    st = _dfs(nb, n, start, end, closed, fz, limit, seed, path)
    return int(st), (path.copy() if st == 1 else None)
