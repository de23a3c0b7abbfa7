"""The kernels of the ``enumerate`` counting method: a resumable depth-first walk over every path.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here). :mod:`knightstour.counting.enumerate`
drives them.

The walk extends a path square by square, trying every unvisited neighbour of its last square (the
*head*) in turn, and counts (or writes out) each path that covers the board and ends on an allowed
last square (``closer``: for cycles, the neighbours of the first square that close them one way
round; for a fixed end, that square; else every square). Its whole state lives in arrays, so it
stops after a budget of moves tried (or when its output buffer is full) and goes on from there
when called again.

The cuts, each plainly safe (a branch is cut only when it has no completion). ``deg[r]`` counts
the unvisited neighbours of ``r``, and for cycles one more when ``r`` may close the cycle (the first
square is then its way on). Every unvisited square needs two neighbours on the path, but the path's
fixed last square one (:func:`_need`). After a move from ``h`` to ``q``:

- a neighbour ``r`` of ``q`` has ``deg[r]`` ways besides ``q``: too few is a dead end; none at all
  means ``r`` must come next and be the last square; exactly what it needs means ``r`` must come
  next, and two squares cannot both come next;
- a neighbour of ``h`` that is not one of ``q``'s can no longer be entered from the head, so it
  needs all its links among the unvisited squares;
- using up the last square that may end the path while squares are left is a dead end.

>>> import numpy as np
>>> from knightstour.board import Board
>>> nbr, nn = compact_neighbours(Board(3, 4).neighbour_table())
>>> n = 12
>>> vis, blocked, closer = np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint8)
>>> deg, path, pos, ci = (np.zeros(n, np.int32) for _ in range(4))
>>> mark, meta = np.zeros(n, np.int64), np.zeros(META, np.int64)
>>> state = (vis, deg, path, pos, ci, mark, meta)   # STATE
>>> closer[11] = 1   # open tours of 3x4 from a1 to c4
>>> setup(nbr, nn, blocked, np.array([0], np.int32), closer, False, state)
>>> none = np.zeros((0, n), np.int32)
>>> walk(nbr, nn, closer, False, state, 10**6, none, none, False, none)
0
>>> int(meta[FOUND])
1
"""

from __future__ import annotations

import numpy as np

from knightstour.kernels.walk import image_index

__kernels__ = (
    "compact_neighbours",
    "setup",
    "least_image",
    "_need",
    "leave_square",
    "walk",
)

#: Statuses of :func:`walk`: the part is finished; the budget of moves ran out; the output is full.
DONE, BUDGET, FULL = 0, 1, 2

#: Slots of the int64 ``meta`` array: the depth of the head, the depth of the part's fixed first
#: squares (the walk never goes back past it), moves tried, paths found, closers unvisited, and
#: paths written to the output by the last call, squares to visit.
DEPTH, BASE, NODES, FOUND, CLOSERS, WRITTEN, SIZE = 0, 1, 2, 3, 4, 5, 6
META = 7

#: The arrays that hold a walk, handed to :func:`setup` and :func:`walk` as one tuple
#: ``state``: visited (uint8), unvisited neighbours, the path, each square's place in it, the
#: next move to try at each depth (int32), the mark of the last look at a square, and ``meta``
#: (int64, :data:`META` long). The caller keeps them from call to call.
STATE = ("vis", "deg", "path", "pos", "ci", "mark", "meta")


def compact_neighbours(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(nbr, nn)``: each row of a ``-1``-padded neighbour table with its squares first, in
    increasing order, and how many there are.

    The walk tries moves in that order, so it meets the paths in lexicographic order and each
    class's least image first: :func:`least_image`'s tours come out as early as they can. (The
    order changes nothing else: every branch is walked either way.)
    """
    n = table.shape[0]
    nbr = np.full(table.shape, -1, dtype=np.int32)
    nn = np.zeros(n, dtype=np.int32)
    for v in range(n):
        c = 0
        for k in range(table.shape[1]):
            q = table[v, k]
            if q >= 0:
                j = c
                while j > 0 and nbr[v, j - 1] > q:  # insertion sort: at most 8 squares
                    nbr[v, j] = nbr[v, j - 1]
                    j -= 1
                nbr[v, j] = q
                c += 1
        nn[v] = c
    return nbr, nn


def setup(
    nbr: np.ndarray,
    nn: np.ndarray,
    blocked: np.ndarray,
    prefix: np.ndarray,
    closer: np.ndarray,
    closed: bool,
    state: tuple[np.ndarray, ...],
) -> None:
    """Make the ``state`` (:data:`STATE`) of a walk whose first squares are ``prefix`` (a path,
    not checked) on the board without the squares of ``blocked`` (holes)."""
    vis, deg, path, pos, ci, mark, meta = state
    n = nbr.shape[0]
    size = 0
    for r in range(n):
        vis[r] = blocked[r]
        mark[r] = -1
        if not blocked[r]:
            size += 1
    for d in range(prefix.size):
        q = prefix[d]
        vis[q] = 1
        path[d] = q
        pos[q] = d
        ci[d] = 0
    left = 0
    for r in range(n):
        c = 0
        for k in range(nn[r]):
            if not vis[nbr[r, k]]:
                c += 1
        if closed and closer[r]:
            c += 1  # the first square: the way out of the last one
        deg[r] = c
        if closer[r] and not vis[r]:
            left += 1
    meta[:] = 0
    meta[SIZE] = size
    meta[DEPTH] = prefix.size - 1
    meta[BASE] = prefix.size - 1
    meta[CLOSERS] = left


def least_image(
    path: np.ndarray,
    pos: np.ndarray,
    perms: np.ndarray,
    invs: np.ndarray,
    closed: bool,
    fixed: bool,
) -> bool:
    """Whether ``path`` is the lexicographically least of its images, so the one written out of
    its class.

    The images: each symmetry ``perms[g]`` (``invs[g]`` its inverse) of the path, walked forwards
    and backwards; a cycle's images start from the path's first square. ``fixed``: only the
    images that start where the path does count (the tours from one square). ``pos[s]`` is the
    place of square ``s`` in the path.
    """
    n = path.size
    root = path[0]
    for g in range(perms.shape[0]):
        pg = perms[g]
        k = 0
        if closed:
            k = pos[invs[g, root]]
        for d in range(2):
            if g == 0 and d == 0:
                continue
            if not closed:
                first = pg[path[0]] if d == 0 else pg[path[n - 1]]
                if fixed and first != root:
                    continue
            for i in range(n):
                v = pg[path[image_index(i, k, d, n, closed)]]
                if v < path[i]:
                    return False
                if v > path[i]:
                    break
    return True


def _need(r: int, closer: np.ndarray, closed: bool) -> int:
    """How many path neighbours unvisited square ``r`` needs: 1 for the fixed end of a path,
    else 2 (a cycle's closing squares count the first square among their ``deg``)."""
    return 1 if closer[r] and not closed else 2


def leave_square(  # type: ignore[no-untyped-def]
    h, vis, deg, nbr, nn, closer
):
    """Step back off square ``h``: unvisited again, its neighbours' counts restored; returns 1
    when ``h`` may close the walk (one more closer unvisited), else 0."""
    vis[h] = 0
    for j in range(nn[h]):
        deg[nbr[h, j]] += 1
    return 1 if closer[h] else 0


def walk(
    nbr: np.ndarray,
    nn: np.ndarray,
    closer: np.ndarray,
    closed: bool,
    state: tuple[np.ndarray, ...],
    budget: int,
    perms: np.ndarray,
    invs: np.ndarray,
    fixed: bool,
    out: np.ndarray,
) -> int:
    """Go on with the walk set up by :func:`setup`: :data:`DONE`, :data:`BUDGET` or :data:`FULL`.

    Every path found adds one to ``meta[FOUND]``. With an output buffer (``out.shape[0] > 0``),
    only the paths that are the least of their images (:func:`least_image` with ``perms``,
    ``invs`` and ``fixed``) are written to it and counted, ``meta[WRITTEN]`` of them this call;
    a full buffer returns :data:`FULL`.
    """
    vis, deg, path, pos, ci, mark, meta = state
    size = meta[SIZE]
    depth = meta[DEPTH]
    base = meta[BASE]
    closers = meta[CLOSERS]
    found = meta[FOUND]
    stamp = meta[NODES]
    nodes = 0
    written = 0
    cap = out.shape[0]
    status = DONE
    while True:
        if depth == size - 1:  # every square visited: a tour when the head may end it
            h = path[depth]
            if closer[h]:
                if cap == 0:
                    found += 1
                elif least_image(path, pos, perms, invs, closed, fixed):
                    out[written, :] = path[:size]
                    written += 1
                    found += 1
            if depth == base:
                status = DONE
                break
            closers += leave_square(h, vis, deg, nbr, nn, closer)
            depth -= 1
            if cap > 0 and written == cap:
                status = FULL
                break
            continue
        if nodes >= budget:
            status = BUDGET
            break
        h = path[depth]
        k = ci[depth]
        if k >= nn[h]:  # every move from the head tried: back to the square before
            if depth == base:
                status = DONE
                break
            closers += leave_square(h, vis, deg, nbr, nn, closer)
            depth -= 1
            continue
        ci[depth] = k + 1
        q = nbr[h, k]
        if vis[q]:
            continue
        nodes += 1
        vis[q] = 1
        for j in range(nn[q]):
            deg[nbr[q, j]] -= 1
        if closer[q]:
            closers -= 1
        left = size - depth - 2  # squares unvisited with q visited
        ok = not (closers == 0 and left > 0)
        # the neighbours of the new head: each needs its links, and at most one needs the head's
        forced = 0
        tag = stamp + nodes
        for j in range(nn[q]):
            if not ok:
                break
            r = nbr[q, j]
            mark[r] = tag
            if vis[r]:
                continue
            links = deg[r] + 1
            need = _need(r, closer, closed)
            if links < need or (deg[r] == 0 and left > 1):
                ok = False
            elif links == need:
                forced += 1
                if forced > 1:
                    ok = False
        # the neighbours of the old head that are not the new head's lose a link
        for j in range(nn[h]):
            if not ok:
                break
            r = nbr[h, j]
            if not vis[r] and mark[r] != tag and deg[r] < _need(r, closer, closed):
                ok = False
        if ok:
            depth += 1
            path[depth] = q
            pos[q] = depth
            ci[depth] = 0
        else:
            vis[q] = 0
            for j in range(nn[q]):
                deg[nbr[q, j]] += 1
            if closer[q]:
                closers += 1
    meta[DEPTH] = depth
    meta[CLOSERS] = closers
    meta[FOUND] = found
    meta[NODES] += nodes
    meta[WRITTEN] = written
    return status
