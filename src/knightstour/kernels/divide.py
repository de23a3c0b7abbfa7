"""Loops of the divide method: plain Python in the subset that Numba compiles.

Loaded by :mod:`knightstour.kernels.jit`: compiled (the machine code cached on disk) for boards
of more than :data:`COMPILE_THRESHOLD` squares, interpreted below. :func:`block_path` steps on
and off squares with the walk kernels' :func:`~knightstour.kernels.walk.visit`, as the tour
library's searches do (the loader hands it the compiled one; Numba's disk cache does not see
changes to that callee).

>>> import numpy as np
>>> out = np.empty(3, dtype=np.int32)
>>> follow(np.array([2, -1, 1], dtype=np.int32), 0, out, np.zeros(1, np.uint8)), out.tolist()
(3, [0, 2, 1])
"""

from __future__ import annotations

import numpy as np

from knightstour.kernels.walk import visit

__kernels__ = (
    "follow",
    "fill",
    "grid_walk",
    "grid_rows",
    "touch",
    "check_piece",
    "block_path",
    "tree_walk",
)

#: Squares above which the compiled kernels are used.
COMPILE_THRESHOLD = 40_000


def follow(nxt: np.ndarray, start: int, out: np.ndarray, stop: np.ndarray) -> int:
    """Walk the successor array ``nxt`` from ``start`` into ``out``; the squares written.

    Stops after ``out.size`` squares, at a square whose successor is off the board (-1), or
    soon after another thread sets ``stop[0]`` (a time limit).
    """
    n = out.size
    p = start
    out[0] = p
    count = 1
    while count < n:
        if (count & 0xFFFF) == 0 and stop[0]:
            break
        p = nxt[p]
        if p < 0 or p >= n:
            break
        out[count] = p
        count += 1
    return count


def fill(
    nxt: np.ndarray, origins: np.ndarray, src: np.ndarray, dst: np.ndarray, stop: np.ndarray
) -> None:
    """``nxt[o + src[t]] = o + dst[t]`` for every block origin ``o`` (until ``stop[0]`` is set)."""
    m = src.size
    for i in range(origins.size):
        if (i & 0xFFF) == 0 and stop[0]:
            return
        o = origins[i]
        for t in range(m):
            nxt[o + src[t]] = o + dst[t]


def grid_walk(
    tables: tuple,
    root_i: int,
    root_j: int,
    start_i: int,
    start_j: int,
    root_entry: int,
    rowsq: np.ndarray,
    rec_k: np.ndarray,
    rec_e: np.ndarray,
    ck: np.ndarray,
    k0: int,
    out: np.ndarray,
    stop: np.ndarray,
) -> int:
    """Write the joined tour of a grid of blocks into ``out``, block by block, in tour order.

    ``tables`` is the grid: ``(W, X0, Y0, tid, orient, flag_h, flag_v, seqs, lens, posof, gseq,
    joins, cycle)``, the board's width and the arrays below. The blocks' tours are joined along a spanning tree (rows left to right, the first column
    bottom to top) rooted at block ``(root_i, root_j)``, where the walk starts on local square
    ``root_entry``. Each block's tour is walked in its orientation (``orient``: 1 reversed); on
    reaching the square where a move to a child block was removed, the walk crosses into the
    child, tours it (recursively, on an explicit stack) and comes back to the square after. The
    tour of a block type ``t``: ``seqs[t, :lens[t]]`` (local squares ``y * w + x``), ``posof``
    the position of each square in it, ``gseq[t, p]`` the board offset of the square at position
    ``p`` (so a run of the tour is a copy), ``joins[t]`` the local
    squares of its join moves BR a1 a2, BLH b1 b2, TL a1 a2, BLV b1 b2; ``flag_h[i, j]`` tells
    that block ``(i, j)`` runs its BR move from a1 to a2 (so the block right of it is entered on
    b1), ``flag_v[i]`` the same for TL of block ``(i, 0)`` and BLV of the block above.
    Returns early (fewer squares) soon after another thread sets ``stop[0]`` (a time limit).

    The walk starts at block ``(start_i, start_j)`` (the root, or a row's second block: see
    :func:`grid_rows`), writing from ``out[k0]``; it returns the position after its last square.
    With ``rowsq`` not empty, the walk leaves out the rest of every row but the root's (the
    blocks right of the first column): it records where row ``i``'s part begins in the tour
    (``rec_k[i]``) and its entry square (``rec_e[i]``) and skips ``rowsq[i]`` squares, so that
    the rows can then be written in parallel by :func:`grid_rows`. With ``ck`` not empty, the
    squares are written one after the other into ``out`` (a small array) and the place of each in
    the tour into ``ck``: the first column and the start's row of a tour written to a file in
    pieces.
    """
    W, X0, Y0, tid, orient, flag_h, flag_v, _seqs, lens, posof, gseq, joins, cycle = tables
    nr, nc = tid.shape
    skip = rowsq.size > 0
    compact = ck.size > 0
    j = 0
    depth = nr + 2 * nc + 4  # the deepest block: along the root row, the first column, a row
    s_t = np.empty(depth, np.int64)
    s_o = np.empty(depth, np.int64)
    s_pos = np.empty(depth, np.int64)
    s_left = np.empty(depth, np.int64)
    s_org = np.empty(depth, np.int64)
    s_n = np.empty(depth, np.int64)
    s_tail = np.empty((depth, 3), np.int64)
    s_ci = np.empty((depth, 3), np.int64)
    s_cj = np.empty((depth, 3), np.int64)
    s_entry = np.empty((depth, 3), np.int64)
    sp = 0
    k = k0
    # push the first block
    bi = start_i
    bj = start_j
    entry = root_entry
    pending = True
    blocks = 0
    while True:
        blocks += 1
        if (blocks & 0x3FF) == 0 and stop[0]:
            break
        if pending:
            pending = False
            t = tid[bi, bj]
            s_t[sp] = t
            s_o[sp] = orient[bi, bj]
            s_pos[sp] = posof[t, entry]
            s_left[sp] = lens[t]
            s_org[sp] = Y0[bi] * W + X0[bj]
            m = 0
            if bj + 1 < nc and (bi != root_i or bj >= root_j):  # right: this block is A
                f = flag_h[bi, bj]
                s_tail[sp, m] = joins[t, 0] if f else joins[t, 1]
                s_ci[sp, m] = bi
                s_cj[sp, m] = bj + 1
                tc = tid[bi, bj + 1]
                s_entry[sp, m] = joins[tc, 2] if f else joins[tc, 3]
                m += 1
            if bj >= 1 and bi == root_i and bj <= root_j:  # left: this block is B
                f = flag_h[bi, bj - 1]
                s_tail[sp, m] = joins[t, 3] if f else joins[t, 2]
                s_ci[sp, m] = bi
                s_cj[sp, m] = bj - 1
                tc = tid[bi, bj - 1]
                s_entry[sp, m] = joins[tc, 1] if f else joins[tc, 0]
                m += 1
            if bj == 0 and bi + 1 < nr and bi >= root_i:  # up: this block is the lower one
                f = flag_v[bi]
                s_tail[sp, m] = joins[t, 4] if f else joins[t, 5]
                s_ci[sp, m] = bi + 1
                s_cj[sp, m] = 0
                tc = tid[bi + 1, 0]
                s_entry[sp, m] = joins[tc, 6] if f else joins[tc, 7]
                m += 1
            if bj == 0 and bi >= 1 and bi <= root_i:  # down: this block is the upper one
                f = flag_v[bi - 1]
                s_tail[sp, m] = joins[t, 7] if f else joins[t, 6]
                s_ci[sp, m] = bi - 1
                s_cj[sp, m] = 0
                tc = tid[bi - 1, 0]
                s_entry[sp, m] = joins[tc, 5] if f else joins[tc, 4]
                m += 1
            s_n[sp] = m
            sp += 1
        top = sp - 1
        t = s_t[top]
        n = lens[t]
        pos = s_pos[top]
        left = s_left[top]
        org = s_org[top]
        d = 1 if s_o[top] == 0 else -1
        wrap = cycle[t]
        nch = s_n[top]
        # walk this block until it ends or reaches a child's join: a run of squares at a time,
        # each up to the nearest join (a plain copy loop, which the compiler vectorises)
        while left > 0:
            run = left
            hit = -1
            for c in range(nch):
                dist = posof[t, s_tail[top, c]] - pos
                if d < 0:
                    dist = -dist
                if dist < 0:
                    dist += n
                if dist + 1 <= run:
                    run = dist + 1
                    hit = c
            if compact:
                for u in range(run):
                    q = pos + u * d
                    if q >= n:
                        q -= n
                    elif q < 0:
                        q += n
                    out[j + u] = org + gseq[t, q]
                    ck[j + u] = k + u
                j += run
                pos += run * d
                if pos >= n and wrap:
                    pos -= n
                elif pos < 0:
                    pos += n
            elif d > 0:
                first = n - pos if pos + run > n else run
                for u in range(first):
                    out[k + u] = org + gseq[t, pos + u]
                for u in range(run - first):
                    out[k + first + u] = org + gseq[t, u]
                pos += run
                if pos >= n and wrap:
                    pos -= n
            else:
                first = pos + 1 if run > pos + 1 else run
                for u in range(first):
                    out[k + u] = org + gseq[t, pos - u]
                for u in range(run - first):
                    out[k + first + u] = org + gseq[t, n - 1 - u]
                pos -= run
                if pos < 0:
                    pos += n
            k += run
            left -= run
            if hit >= 0:
                c = hit
                if skip and s_cj[top, c] == 1 and s_ci[top, c] != root_i:
                    rec_k[s_ci[top, c]] = k  # a row left for grid_rows
                    rec_e[s_ci[top, c]] = s_entry[top, c]
                    k += rowsq[s_ci[top, c]]
                    continue
                bi = s_ci[top, c]
                bj = s_cj[top, c]
                entry = s_entry[top, c]
                pending = True
                break
        s_pos[top] = pos
        s_left[top] = left
        if not pending:
            sp -= 1
            if sp == 0:
                break
    return k


def grid_rows(
    tables: tuple,
    root_i: int,
    root_j: int,
    rows: np.ndarray,
    rec_k: np.ndarray,
    rec_e: np.ndarray,
    out: np.ndarray,
    stop: np.ndarray,
) -> int:
    """Write the rows ``rows`` left out by :func:`grid_walk` (from their second block on, at the
    places it recorded; ``tables``: the grid, as grid_walk takes it); the squares written. Two threads write disjoint rows at once."""
    none = np.zeros(0, np.int64)
    done = 0
    for r in range(rows.size):
        i = rows[r]
        k = grid_walk(
            tables, root_i, root_j, i, 1, rec_e[i], none, rec_k, rec_e, none, rec_k[i], out, stop
        )
        done += k - rec_k[i]
        if stop[0]:
            break
    return done


def touch(out: np.ndarray, lo: int, hi: int, stop: np.ndarray) -> int:
    """Write one element of every 4 KiB page of ``out[lo:hi]``, so that the memory is mapped in
    (the operating system's page faults, paid on this thread); the pages touched."""
    step = 4096 // out.itemsize
    count = 0
    for i in range(lo, hi, step):
        if (count & 0xFFFF) == 0 and stop[0]:
            break
        out[i] = 0
        count += 1
    return count


def check_piece(
    piece: np.ndarray,
    lo: int,
    hi: int,
    prev: int,
    w: int,
    dxv: np.ndarray,
    seen: np.ndarray,
    stop: np.ndarray,
) -> int:
    """Problems in ``piece[lo:hi]`` of a tour of a board ``w`` wide with ``seen.size`` squares,
    the square before it being ``prev`` (-1: none): squares off the board or seen before
    (``seen`` marks them), and steps that are not knight's moves. ``dxv[d + 2 * w + 2]`` is the
    file step of a knight's move that changes the index by ``d`` (0 for none), so the file is
    carried along, not divided out. Two threads may check two parts at once: a square both see
    first is counted by neither, so the caller also counts the marks."""
    n = seen.size
    span = 2 * w + 2
    bad = 0
    p = prev
    x = p % w if p >= 0 else -1
    for i in range(lo, hi):
        if ((i - lo) & 0xFFFFF) == 0 and stop[0]:
            return bad + 1
        q = piece[i]
        if q < 0 or q >= n:
            bad += 1
            p = -1
            continue
        if seen[q]:
            bad += 1
        seen[q] = 1
        if p >= 0:
            d = q - p
            step = dxv[d + span] if -span <= d <= span else 0
            x += step
            if step == 0 or x < 0 or x >= w:
                if p >= 0:
                    bad += 1
                x = q % w
        else:
            x = q % w
        p = q
    return bad


def block_path(
    nb: np.ndarray,
    n: int,
    start: int,
    end: int,
    forced: np.ndarray,
    limit: int,
    seed: int,
    path: np.ndarray,
) -> int:
    """A Hamiltonian path of a small block from ``start`` to ``end`` through the ``forced`` edges.

    Depth-first search over the knight's moves ``nb`` (``n`` squares, -1 where no move), the
    candidates in Warnsdorff order (fewest onward moves first, ties by a generator seeded with
    ``seed``), pruning squares left with too few ways in and out. ``forced[u]`` holds up to two
    squares that must be ``u``'s neighbours on the path (-1: none). Writes the path into
    ``path``; returns 1 (found), 0 (none: the search was exhaustive) or -1 (gave up after
    ``limit`` positions).
    """
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
    visit(start, nb, vis, deg, 1)
    if forced[start, 1] >= 0 or (end >= 0 and forced[end, 1] >= 0):
        return 0  # an end of the path has one neighbour on it
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
                ok = not (end >= 0 and u != end)
                for j in range(2):
                    f = forced[u, j]
                    if f >= 0 and f != prev:
                        ok = False
                if ok:
                    return 1
            else:
                req = -1
                dead = False
                for j in range(2):
                    f = forced[u, j]
                    if f >= 0 and f != prev:
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
                            if f < 0 or f == u:
                                continue
                            if last or vis[f]:
                                bad += 2
                            else:
                                bad += 1
                        if bad > 1:
                            continue
                        cand[d, m] = v
                        m += 1
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
                            kt = keys[j - 1]
                            keys[j - 1] = keys[j]
                            keys[j] = kt
                            t = cand[d, j - 1]
                            cand[d, j - 1] = cand[d, j]
                            cand[d, j] = t
                            j -= 1
                    ncand[d] = m
        moved = False
        while ci[d] < ncand[d]:
            v = cand[d, ci[d]]
            ci[d] += 1
            visit(v, nb, vis, deg, 1)
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
                visit(v, nb, vis, deg, 0)
                continue
            d += 1
            path[d] = v
            moved = True
            gen = True
            break
        if not moved:
            if d == 0:
                return 0
            visit(path[d], nb, vis, deg, 0)
            d -= 1


def tree_walk(
    typ: np.ndarray,
    org: np.ndarray,
    jb: np.ndarray,
    seqs: np.ndarray,
    posof: np.ndarray,
    lens: np.ndarray,
    goff: np.ndarray,
    joins: np.ndarray,
    chain: np.ndarray,
    first: np.ndarray,
    step: np.ndarray,
    out: np.ndarray,
    at: int,
    stop: np.ndarray,
) -> int:
    """Write the tour of blocks joined along a tree into ``out`` from position ``at``; returns
    the position after the last square written.

    Block ``b`` has type ``typ[b]`` (its tour: ``seqs[t, :lens[t]]`` of local squares, ``posof``
    their positions, ``goff`` their offsets on the board; a closed tour wraps round) and
    board origin ``org[b]``. ``jb[b, k]`` is the block joined to ``b`` by its join move ``k``
    (0 BR, 1 BLH, 2 TL, 3 BLV; -1 none), whose local squares are ``joins[t, 2k]``,
    ``joins[t, 2k + 1]``; BR meets BLH and TL meets BLV, first square to first square. The walk
    runs along the blocks of ``chain`` one after the other, block ``chain[c]`` from position
    ``first[c]`` of its tour in direction ``step[c]`` (+1 or -1), and on reaching a join move to
    another block it tours that block (whose own tour, less the join move, runs between the two
    squares across it) and comes back to the square after. Returns early soon after another
    thread sets ``stop[0]``.
    """
    depth = jb.shape[0] + 1
    s_b = np.empty(depth, np.int64)
    s_pos = np.empty(depth, np.int64)
    s_dir = np.empty(depth, np.int64)
    s_left = np.empty(depth, np.int64)
    k = at
    visits = 0
    for c in range(chain.size):
        sp = 0
        b = chain[c]
        s_b[0] = b
        s_pos[0] = first[c]
        s_dir[0] = step[c]
        s_left[0] = lens[typ[b]]
        sp = 1
        while sp > 0:
            visits += 1
            if (visits & 0x3FF) == 0 and stop[0]:
                return k
            top = sp - 1
            b = s_b[top]
            t = typ[b]
            n = lens[t]
            pos = s_pos[top]
            d = s_dir[top]
            left = s_left[top]
            o = org[b]
            descended = False
            while left > 0:
                sq = seqs[t, pos]
                out[k] = o + goff[t, sq]
                k += 1
                left -= 1
                if left == 0:
                    break
                nxt = pos + d
                if nxt >= n:
                    nxt -= n
                elif nxt < 0:
                    nxt += n
                nx = seqs[t, nxt]
                for side in range(4):
                    c2 = jb[b, side]
                    if c2 < 0:
                        continue
                    e1 = joins[t, 2 * side]
                    e2 = joins[t, 2 * side + 1]
                    if (sq == e1 and nx == e2) or (sq == e2 and nx == e1):
                        tc = typ[c2]
                        cs = side ^ 1
                        f1 = joins[tc, 2 * cs]
                        f2 = joins[tc, 2 * cs + 1]
                        entry = f1 if sq == e1 else f2
                        leave = f2 if sq == e1 else f1
                        p = posof[tc, entry]
                        m = lens[tc]
                        q = p + 1
                        if q >= m:
                            q -= m
                        s_pos[top] = nxt
                        s_left[top] = left
                        s_b[sp] = c2
                        s_pos[sp] = p
                        s_dir[sp] = -1 if seqs[tc, q] == leave else 1
                        s_left[sp] = m
                        sp += 1
                        descended = True
                        break
                if descended:
                    break
                pos = nxt
            if not descended:
                sp -= 1
    return k
