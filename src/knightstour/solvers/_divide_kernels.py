"""Loops of the divide method: plain Python in the subset that Numba compiles.

Loaded by :mod:`knightstour.solvers._jit`: compiled (the machine code cached on disk) for boards
of more than :data:`COMPILE_THRESHOLD` squares, interpreted below.

>>> import numpy as np
>>> out = np.empty(3, dtype=np.int32)
>>> follow(np.array([2, -1, 1], dtype=np.int32), 0, out, np.zeros(1, np.uint8)), out.tolist()
(3, [0, 2, 1])
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("follow", "fill", "grid_walk")

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
    W: int,
    X0: np.ndarray,
    Y0: np.ndarray,
    tid: np.ndarray,
    orient: np.ndarray,
    flag_h: np.ndarray,
    flag_v: np.ndarray,
    seqs: np.ndarray,
    lens: np.ndarray,
    posof: np.ndarray,
    goff: np.ndarray,
    joins: np.ndarray,
    cycle: np.ndarray,
    root_i: int,
    root_j: int,
    root_entry: int,
    out: np.ndarray,
    stop: np.ndarray,
) -> int:
    """Write the joined tour of a grid of blocks into ``out``, block by block, in tour order.

    The blocks' tours are joined along a spanning tree (rows left to right, the first column
    bottom to top) rooted at block ``(root_i, root_j)``, where the walk starts on local square
    ``root_entry``. Each block's tour is walked in its orientation (``orient``: 1 reversed); on
    reaching the square where a move to a child block was removed, the walk crosses into the
    child, tours it (recursively, on an explicit stack) and comes back to the square after. The
    tour of a block type ``t``: ``seqs[t, :lens[t]]`` (local squares ``y * w + x``), ``posof``
    the position of each square in it, ``goff`` its offset on the board, ``joins[t]`` the local
    squares of its join moves BR a1 a2, BLH b1 b2, TL a1 a2, BLV b1 b2; ``flag_h[i, j]`` tells
    that block ``(i, j)`` runs its BR move from a1 to a2 (so the block right of it is entered on
    b1), ``flag_v[i]`` the same for TL of block ``(i, 0)`` and BLV of the block above.
    Returns early (fewer squares) soon after another thread sets ``stop[0]`` (a time limit).
    """
    nr, nc = tid.shape
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
    k = 0
    # push the root
    bi = root_i
    bj = root_j
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
        step = 1 if s_o[top] == 0 else n - 1
        wrap = cycle[t]
        nch = s_n[top]
        # walk this block until it ends or reaches a child's join
        while left > 0:
            sq = seqs[t, pos]
            out[k] = org + goff[t, sq]
            k += 1
            left -= 1
            pos = pos + step
            if pos >= n:
                pos -= n if wrap else 0
            for c in range(nch):
                if sq == s_tail[top, c]:
                    bi = s_ci[top, c]
                    bj = s_cj[top, c]
                    entry = s_entry[top, c]
                    pending = True
                    break
            if pending:
                break
        s_pos[top] = pos
        s_left[top] = left
        if not pending:
            sp -= 1
            if sp == 0:
                break
    return k
