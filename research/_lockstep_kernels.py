"""The compiled lockstep walk: the two strands of the block construction along one block pattern.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here). :mod:`research.lockstep` drives
it; the pattern search (``python -m research.magic_patterns``) uses it.

The walk is the search of :mod:`research.diagonal`, compiled: at search step i both
strands enter block ``beta[i]``, P taking a unit (a traversal of one of the block's 4-cycles, or
one of its open transversal paths) whose first square is a move from P's last square, and Q one
whose first square is a move from Q's; at step 0 their first squares are a move apart (the
joint). Each block is visited twice; its four units cover it. A branch is cut

- when a block's first visit leaves squares that no two of its units can cover;
- when a block row (or column) is complete and one of its ranks (files) is out of balance;
- (``check``) when a long diagonal is complete and does not add up to the magic constant, its
  numbers those of the tour the caller assembles: P's k-th square at step i holds
  ``big - 4 i - k``, Q's ``big + 1 + 4 i + k`` (``big`` twice the number of units a strand takes).

>>> knight_apart(0, 0, 1, 2), knight_apart(0, 0, 2, 2)
(True, False)
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("knight_apart", "apply_step", "lockstep_walk")

#: What :func:`lockstep_walk` returns: a tour found (in ``out``); the budget spent; the pattern
#: walked whole without one.
FOUND, SPENT, EXHAUSTED = 1, 0, -1


def knight_apart(ax: int, ay: int, bx: int, by: int) -> bool:
    """Whether squares ``(ax, ay)`` and ``(bx, by)`` are a knight's move apart."""
    dx = abs(ax - bx)
    dy = abs(ay - by)
    return (dx == 1 and dy == 2) or (dx == 2 and dy == 1)


def apply_step(
    b: int,
    p: int,
    q: int,
    i: int,
    sign: int,
    bw: int,
    big: int,
    lsq: np.ndarray,
    mask: np.ndarray,
    vr: np.ndarray,
    vc: np.ndarray,
    used: np.ndarray,
    visits: np.ndarray,
    first: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    lines_open: np.ndarray,
    diag: np.ndarray,
) -> None:
    """Place (``sign`` 1) or take back (-1) units ``p`` (P's) and ``q`` (Q's) in block ``b`` at
    step ``i``: the block's squares and visits, its row's and column's balance once both visits
    are in, and the numbers it puts on the long diagonals (``diag``: sum and count of each)."""
    bx = b % bw
    by = b // bw
    if sign < 0:
        visits[b] -= 1
        used[b] &= ~(mask[p] | mask[q])
    if visits[b] == 1:  # the block's second visit: its balance is known
        for k in range(4):
            rows[by, k] += sign * (vr[first[b, 0], first[b, 1], k] + vr[p, q, k] - 10)
            cols[bx, k] += sign * (vc[first[b, 0], first[b, 1], k] + vc[p, q, k] - 10)
        lines_open[by] -= sign
        lines_open[rows.shape[0] + bx] -= sign
    if sign > 0:
        if visits[b] == 0:
            first[b, 0] = p
            first[b, 1] = q
        visits[b] += 1
        used[b] |= mask[p] | mask[q]
    main = bx == by
    anti = bx + by == bw - 1
    if main or anti:
        for k in range(4):
            for u in range(2):
                unit = p if u == 0 else q
                v = big - 4 * i - k if u == 0 else big + 1 + 4 * i + k
                x = lsq[unit, k, 0]
                y = lsq[unit, k, 1]
                if main and x == y:
                    diag[0] += sign * v
                    diag[1] += sign
                if anti and x + y == 3:
                    diag[2] += sign * v
                    diag[3] += sign


def lockstep_walk(
    beta: np.ndarray,
    bw: int,
    allowed: np.ndarray,
    kind: np.ndarray,
    lsq: np.ndarray,
    mask: np.ndarray,
    colour: np.ndarray,
    vr: np.ndarray,
    vc: np.ndarray,
    cover: np.ndarray,
    p_colour: int,
    succ: np.ndarray,
    nsucc: np.ndarray,
    order: np.ndarray,
    check: bool,
    magic: int,
    budget: int,
    out: np.ndarray,
    meta: np.ndarray,
) -> int:
    """Walk the block pattern ``beta`` (search order: the joint first) until a tour is found,
    ``budget`` nodes are spent, or the pattern is walked whole; :data:`FOUND`, :data:`SPENT` or
    :data:`EXHAUSTED`. A found tour's steps (block, P's unit, Q's unit) are written into ``out``;
    ``meta[0]`` gets the nodes visited.

    ``allowed[b, u]``: block b may take unit u; ``kind[b]`` picks the row of ``cover`` (the
    16-bit masks two units of that block may cover). ``lsq[u, k]``: unit u's k-th square (x, y)
    in its block; ``mask``, ``colour``: its squares, its first square's colour. ``vr[p, q]``,
    ``vc[p, q]``: the offsets units p (P's) and q (Q's) put in the block's ranks and files.
    P's units start on colour ``p_colour``, Q's on the other. ``succ[s, b]``: the units of block
    b whose first square is a move from square s (the first ``nsucc[s, b]``); ``order``: the
    order in which the joint's units are tried. ``check``: both long diagonals must add up to
    ``magic``.
    """
    nsteps = beta.shape[0]
    nblocks = nsteps // 2
    bh = nblocks // bw
    n = 4 * bw
    big = 8 * nblocks
    nu = lsq.shape[0]
    used = np.zeros(nblocks, dtype=np.int64)
    visits = np.zeros(nblocks, dtype=np.int64)
    first = np.zeros((nblocks, 2), dtype=np.int64)
    rows = np.zeros((bh, 4), dtype=np.int64)
    cols = np.zeros((bw, 4), dtype=np.int64)
    lines_open = np.zeros(bh + bw, dtype=np.int64)
    lines_open[:bh] = bw
    lines_open[bh:] = bh
    diag = np.zeros(4, dtype=np.int64)
    sp = np.zeros(nsteps, dtype=np.int64)
    sq = np.zeros(nsteps, dtype=np.int64)
    it = np.zeros(nsteps + 1, dtype=np.int64)
    nodes = 0
    depth = 0
    while depth >= 0:
        if depth == nsteps:
            for i in range(nsteps):
                out[i, 0] = beta[i]
                out[i, 1] = sp[i]
                out[i, 2] = sq[i]
            meta[0] = nodes
            return FOUND
        b = beta[depth]
        bx = b % bw
        by = b // bw
        if depth == 0:
            ps = -1
            qs = -1
            np_ = nu
            nq_ = nu
        else:
            pb = beta[depth - 1]
            ox = 4 * (pb % bw)
            oy = 4 * (pb // bw)
            ps = (oy + lsq[sp[depth - 1], 3, 1]) * n + ox + lsq[sp[depth - 1], 3, 0]
            qs = (oy + lsq[sq[depth - 1], 3, 1]) * n + ox + lsq[sq[depth - 1], 3, 0]
            np_ = nsucc[ps, b]
            nq_ = nsucc[qs, b]
        placed = False
        while it[depth] < np_ * nq_:
            o = it[depth]
            it[depth] += 1
            if depth == 0:
                p = order[o // nq_]
                q = order[o % nq_]
            else:
                p = succ[ps, b, o // nq_]
                q = succ[qs, b, o % nq_]
            if not allowed[b, p] or not allowed[b, q]:
                continue
            if colour[p] != p_colour or colour[q] == p_colour:
                continue
            if mask[p] & mask[q] or (mask[p] | mask[q]) & used[b]:
                continue
            if depth == 0 and not knight_apart(
                lsq[p, 0, 0], lsq[p, 0, 1], lsq[q, 0, 0], lsq[q, 0, 1]
            ):
                continue
            if visits[b] == 0 and not cover[kind[b], 0xFFFF ^ mask[p] ^ mask[q]]:
                continue
            if nodes >= budget:
                meta[0] = nodes
                return SPENT
            nodes += 1
            apply_step(
                b, p, q, depth, 1, bw, big, lsq, mask, vr, vc, used, visits, first, rows, cols,
                lines_open, diag,
            )  # fmt: skip
            ok = True
            if lines_open[by] == 0:
                for k in range(4):
                    if rows[by, k] != 0:
                        ok = False
            if lines_open[bh + bx] == 0:
                for k in range(4):
                    if cols[bx, k] != 0:
                        ok = False
            if check and diag[1] == n and diag[0] != magic:
                ok = False
            if check and diag[3] == n and diag[2] != magic:
                ok = False
            if ok:
                sp[depth] = p
                sq[depth] = q
                depth += 1
                it[depth] = 0
                placed = True
                break
            apply_step(
                b, p, q, depth, -1, bw, big, lsq, mask, vr, vc, used, visits, first, rows, cols,
                lines_open, diag,
            )  # fmt: skip
        if placed:
            continue
        depth -= 1  # every option tried: take back the step before
        if depth >= 0:
            apply_step(
                beta[depth], sp[depth], sq[depth], depth, -1, bw, big, lsq, mask, vr, vc, used,
                visits, first, rows, cols, lines_open, diag,
            )  # fmt: skip
    meta[0] = nodes
    return EXHAUSTED
