"""The compiled walk of the four-strand construction (:mod:`research.four`).

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here).

Four strands walk the 4 x 4 blocks together: at step i all four are in block ``path[i]``, each
taking one unit there (a traversal of one of its 4-cycles or one of its open transversal paths,
walked in the tour's direction), the four units covering the block. With K blocks strand s holds
the tour's quarter j = s K ... s K + K - 1 (4j + 1 ... 4j + 4 along a unit), along the path of
blocks (``dirs[s]`` 1: j = s K + i at step i) or backwards (-1: j = s K + K - 1 - i). A strand
going forwards starts each unit a knight's move from the end of its unit before; one going
backwards ends each unit a move from the start of its unit before; each quarter's last square is
a move from the next quarter's first (the joints).

With two strands each way the j of every block's four units add up to the same, so every rank of a block row and every file
of a block column gets the same j part; the walk cuts a branch when a block row (or column) is
complete and the offsets 1 ... 4 its units put in its ranks (files) do not share out equally, and
(``check``) when a long diagonal is complete and does not add up to the magic constant.

>>> plain = [j_of(s, 0, 9, s % 2 == 0) for s in range(4)]
>>> plain, sum(plain)
([0, 17, 18, 35], 70)
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "j_of",
    "knight_between",
    "apply_block",
    "balanced",
    "follower",
    "unit_square",
    "joints_met",
    "four_walk",
    "strand_square",
    "place_unit",
    "pairs_walk",
)

#: What :func:`four_walk` returns: a tour found (in ``out``); the budget spent; walked whole.
FOUND, SPENT, EXHAUSTED = 1, 0, -1


def j_of(strand: int, i: int, nblocks: int, forward: bool) -> int:
    """The j of strand ``strand``'s unit at step ``i`` of ``nblocks``: the strands take the
    tour's quarters in turn (strand s the j from s K to s K + K - 1), each ``forward`` along the
    path of blocks or backwards."""
    if forward:
        return strand * nblocks + i
    return (strand + 1) * nblocks - 1 - i


def knight_between(s: int, t: int, width: int) -> bool:
    """Whether squares ``s`` and ``t`` (``y * width + x``) are a knight's move apart."""
    dx = abs(s % width - t % width)
    dy = abs(s // width - t // width)
    return (dx == 1 and dy == 2) or (dx == 2 and dy == 1)


def apply_block(
    b: int,
    units: np.ndarray,
    i: int,
    sign: int,
    bw: int,
    nblocks: int,
    lsq: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    done: np.ndarray,
    diag: np.ndarray,
    dirs: np.ndarray,
) -> None:
    """Place (``sign`` 1) or take back (-1) the four units ``units`` (A, B, C, D) in block ``b``
    at step ``i``: the offsets they put in the block row's ranks and the block column's files,
    the units done in each, and the numbers they put on the long diagonals (``diag``: sum and
    count of each)."""
    for s in range(4):
        place_unit(
            units[s], b, j_of(s, i, nblocks, dirs[s] > 0), sign, bw, lsq, rows, cols, done, diag
        )


def balanced(b: int, units: np.ndarray, bw: int, lsq: np.ndarray, dirs: np.ndarray) -> bool:
    """Whether block ``b``'s units put as many squares of each long diagonal through the block
    in A's and C's units as in B's and D's: then the numbers they put there add up to the same
    whatever the block's step i (A's and C's 4i against B's and D's -4i)."""
    bx = b % bw
    by = b // bw
    for d in range(2):
        if (d == 0 and bx != by) or (d == 1 and bx + by != bw - 1):
            continue
        diff = 0
        for s in range(4):
            for k in range(4):
                x = lsq[units[s], k, 0]
                y = lsq[units[s], k, 1]
                if (d == 0 and x == y) or (d == 1 and x + y == 3):
                    diff += dirs[s]
        if diff != 0:
            return False
    return True


def follower(
    starts: np.ndarray,
    ends: np.ndarray,
    dirs: np.ndarray,
    ends_of: np.ndarray,
    s: int,
    b: int,
    i: int,
) -> int:
    """The i-th unit of block ``b`` that strand ``s`` may take next: one starting a move from the
    end of its unit before (going forwards) or ending a move from its start (backwards)."""
    if dirs[s] > 0:
        return starts[ends_of[s], b, i]
    return ends[ends_of[s], b, i]


def unit_square(chosen: np.ndarray, i: int, s: int, k: int, bw: int, lsq: np.ndarray) -> int:
    """The square (``y * width + x``) of strand ``s``'s unit at step ``i``, its k-th."""
    b = chosen[i, 0]
    u = chosen[i, 1 + s]
    return (4 * (b // bw) + lsq[u, k, 1]) * 4 * bw + 4 * (b % bw) + lsq[u, k, 0]


def joints_met(
    chosen: np.ndarray, only: int, nblocks: int, bw: int, lsq: np.ndarray, dirs: np.ndarray
) -> bool:
    """Whether each quarter's last square is a knight's move from the next quarter's first: all
    three joints, or (``only`` 0) those whose two units both lie at step 0."""
    width = 4 * bw
    for s in range(3):
        last = nblocks - 1 if dirs[s] > 0 else 0  # the step of the quarter's last unit
        nxt = 0 if dirs[s + 1] > 0 else nblocks - 1  # the step of the next one's first unit
        if only == 0 and (last != 0 or nxt != 0):
            continue
        a = unit_square(chosen, last, s, 3, bw, lsq)
        b = unit_square(chosen, nxt, s + 1, 0, bw, lsq)
        if not knight_between(a, b, width):
            return False
    return True


def four_walk(
    bw: int,
    dirs: np.ndarray,
    path: np.ndarray,
    lsq: np.ndarray,
    mask: np.ndarray,
    starts: np.ndarray,
    nstarts: np.ndarray,
    ends: np.ndarray,
    nends: np.ndarray,
    firsts: np.ndarray,
    check: bool,
    even: bool,
    magic: int,
    seed: int,
    budget: int,
    opts: np.ndarray,
    out: np.ndarray,
    meta: np.ndarray,
) -> int:
    """Walk the four-strand tours on ``bw`` x ``bw`` blocks in a random order (``seed``) until
    one is found (:data:`FOUND`; its steps, block and A's, B's, C's and D's units, in ``out``),
    ``budget`` nodes are spent (:data:`SPENT`) or every one is walked (:data:`EXHAUSTED`);
    ``meta[0]`` gets the nodes visited.

    ``path[i]``: the block of step i, or -1 to choose it (a block beside the one before, a
    king's move away, not yet visited). ``lsq[u, k]``: unit u's k-th square (x, y) in its block; ``mask[u]`` its squares.
    ``starts[s, b]`` (the first ``nstarts[s, b]``): the units of block b, all starting on the
    tour's colour of odd numbers, whose first square is a move from square s; ``ends[s, b]``
    likewise for their last square. ``firsts``: the first block's choices of four units (a cut
    of the block, B's last square a move from C's first). ``opts`` holds each step's choices
    (block, four units), room for ``opts.shape[1]`` of them a step.
    """
    np.random.seed(seed)
    nblocks = bw * bw
    width = 4 * bw
    line = 10 * bw  # the offsets each rank (file) must get
    rows = np.zeros((bw, 4), dtype=np.int64)
    cols = np.zeros((bw, 4), dtype=np.int64)
    done = np.zeros(2 * bw, dtype=np.int64)
    diag = np.zeros(4, dtype=np.int64)
    visited = np.zeros(nblocks, dtype=np.bool_)
    nopts = np.zeros(nblocks, dtype=np.int64)
    it = np.zeros(nblocks, dtype=np.int64)
    chosen = np.zeros((nblocks, 5), dtype=np.int64)
    ends_of = np.zeros(4, dtype=np.int64)  # the squares the next step's units must meet
    nodes = 0
    depth = 0
    fresh = True
    while depth >= 0:
        if fresh:  # list this depth's choices, in a random order
            fresh = False
            count = 0
            if depth == 0:
                for b in range(nblocks):
                    if path[0] >= 0 and b != path[0]:
                        continue
                    for f in range(firsts.shape[0]):
                        if count < opts.shape[1]:
                            opts[0, count, 0] = b
                            for s in range(4):
                                opts[0, count, 1 + s] = firsts[f, s]
                            count += 1
            else:
                pb = chosen[depth - 1, 0]
                px = pb % bw
                py = pb // bw
                for k in range(4):
                    u = chosen[depth - 1, 1 + k]
                    corner = (
                        3 if dirs[k] > 0 else 0
                    )  # forwards: leave its end; backwards: enter its start
                    ends_of[k] = (4 * py + lsq[u, corner, 1]) * width + 4 * px + lsq[u, corner, 0]
                for y in range(max(0, py - 1), min(bw, py + 2)):
                    for x in range(max(0, px - 1), min(bw, px + 2)):
                        b = y * bw + x
                        if visited[b] or (path[depth] >= 0 and b != path[depth]):
                            continue
                        n0 = nstarts[ends_of[0], b] if dirs[0] > 0 else nends[ends_of[0], b]
                        n1 = nstarts[ends_of[1], b] if dirs[1] > 0 else nends[ends_of[1], b]
                        n2 = nstarts[ends_of[2], b] if dirs[2] > 0 else nends[ends_of[2], b]
                        n3 = nstarts[ends_of[3], b] if dirs[3] > 0 else nends[ends_of[3], b]
                        for i0 in range(n0):
                            u0 = follower(starts, ends, dirs, ends_of, 0, b, i0)
                            m0 = mask[u0]
                            for i1 in range(n1):
                                u1 = follower(starts, ends, dirs, ends_of, 1, b, i1)
                                if mask[u1] & m0:
                                    continue
                                m1 = m0 | mask[u1]
                                for i2 in range(n2):
                                    u2 = follower(starts, ends, dirs, ends_of, 2, b, i2)
                                    if mask[u2] & m1:
                                        continue
                                    m2 = m1 | mask[u2]
                                    for i3 in range(n3):
                                        u3 = follower(starts, ends, dirs, ends_of, 3, b, i3)
                                        if mask[u3] & m2 or (mask[u3] | m2) != 0xFFFF:
                                            continue
                                        if count < opts.shape[1]:
                                            opts[depth, count, 0] = b
                                            opts[depth, count, 1] = u0
                                            opts[depth, count, 2] = u1
                                            opts[depth, count, 3] = u2
                                            opts[depth, count, 4] = u3
                                            count += 1
            for a in range(count - 1, 0, -1):  # Fisher-Yates
                r = np.random.randint(0, a + 1)
                for c in range(5):
                    t = opts[depth, a, c]
                    opts[depth, a, c] = opts[depth, r, c]
                    opts[depth, r, c] = t
            nopts[depth] = count
            it[depth] = 0
        if it[depth] >= nopts[depth]:  # every choice tried: take back the step before
            depth -= 1
            if depth >= 0:
                b = chosen[depth, 0]
                apply_block(
                    b, chosen[depth, 1:], depth, -1, bw, nblocks, lsq, rows, cols, done, diag, dirs
                )
                visited[b] = False
            continue
        if nodes >= budget:
            meta[0] = nodes
            return SPENT
        nodes += 1
        o = it[depth]
        it[depth] += 1
        for c in range(5):
            chosen[depth, c] = opts[depth, o, c]
        b = chosen[depth, 0]
        apply_block(b, chosen[depth, 1:], depth, 1, bw, nblocks, lsq, rows, cols, done, diag, dirs)
        bx = b % bw
        by = b // bw
        ok = True
        if done[by] == 4 * bw:
            for k in range(4):
                if rows[by, k] != line:
                    ok = False
        if done[bw + bx] == 4 * bw:
            for k in range(4):
                if cols[bx, k] != line:
                    ok = False
        if check and even and not balanced(b, chosen[depth, 1:], bw, lsq, dirs):
            ok = False
        if check and magic > 0 and diag[1] == width and diag[0] != magic:
            ok = False
        if check and magic > 0 and diag[3] == width and diag[2] != magic:
            ok = False
        if ok and depth == 0:  # the joints between quarters that both meet at the first block
            ok = joints_met(chosen, 0, nblocks, bw, lsq, dirs)
        if ok and depth == nblocks - 1:  # every joint, the tour complete
            if joints_met(chosen, -1, nblocks, bw, lsq, dirs):
                for i in range(nblocks):
                    for c in range(5):
                        out[i, c] = chosen[i, c]
                meta[0] = nodes
                return FOUND
            ok = False
        if ok:
            visited[b] = True
            depth += 1
            fresh = True
        else:
            apply_block(
                b, chosen[depth, 1:], depth, -1, bw, nblocks, lsq, rows, cols, done, diag, dirs
            )
    meta[0] = nodes
    return EXHAUSTED


def strand_square(u: int, k: int, b: int, bw: int, lsq: np.ndarray) -> int:
    """The square (``y * width + x``) of unit ``u``'s k-th square, the unit in block ``b``."""
    return (4 * (b // bw) + lsq[u, k, 1]) * 4 * bw + 4 * (b % bw) + lsq[u, k, 0]


def place_unit(
    u: int,
    b: int,
    j: int,
    sign: int,
    bw: int,
    lsq: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    done: np.ndarray,
    diag: np.ndarray,
) -> None:
    """Place (``sign`` 1) or take back (-1) unit ``u`` of j ``j`` in block ``b``: its offsets in
    the block row's ranks and the block column's files, the units done in each, and its numbers
    on the long diagonals (``diag``: sum and count of each)."""
    bx = b % bw
    by = b // bw
    for k in range(4):
        x = lsq[u, k, 0]
        y = lsq[u, k, 1]
        rows[by, y] += sign * (k + 1)
        cols[bx, x] += sign * (k + 1)
        if bx == by and x == y:
            diag[0] += sign * (4 * j + k + 1)
            diag[1] += sign
        if bx + by == bw - 1 and x + y == 3:
            diag[2] += sign * (4 * j + k + 1)
            diag[3] += sign
    done[by] += sign
    done[bw + bx] += sign


def pairs_walk(
    bw: int,
    dirs: np.ndarray,
    paths: np.ndarray,
    lsq: np.ndarray,
    mask: np.ndarray,
    mine: np.ndarray,
    starts: np.ndarray,
    nstarts: np.ndarray,
    ends: np.ndarray,
    nends: np.ndarray,
    check: bool,
    magic: int,
    seed: int,
    budget: int,
    out: np.ndarray,
    meta: np.ndarray,
) -> int:
    """The four-strand walk with each strand on a path of its own: strand s is in block
    ``paths[s, i]`` at step i. Give a strand going forwards and one going backwards the same
    path, and the other two another: every block then still gets j adding up to the same, and
    the strands need not be abreast. One unit is chosen at a time (step i, then strand 0 ... 3),
    in the random order of ``seed``, disjoint from the units already in its block; the outcome
    is :func:`four_walk`'s, ``out[i, s]`` strand s's unit at step i.

    ``mine``: the units that start on the tour's colour of odd numbers; the other tables are
    :func:`four_walk`'s. A branch is cut when a rank (file) can no longer get its share of the
    offsets, a joint between quarters is missed, or (``check``) a complete long diagonal does
    not add up to ``magic``.
    """
    np.random.seed(seed)
    nblocks = bw * bw
    width = 4 * bw
    line = 10 * bw
    per = 4 * bw  # the units in a block row (column)
    depths = 4 * nblocks
    rows = np.zeros((bw, 4), dtype=np.int64)
    cols = np.zeros((bw, 4), dtype=np.int64)
    done = np.zeros(2 * bw, dtype=np.int64)
    diag = np.zeros(4, dtype=np.int64)
    occ = np.zeros(nblocks, dtype=np.int64)
    opts = np.zeros((depths, mine.shape[0]), dtype=np.int64)
    nopts = np.zeros(depths, dtype=np.int64)
    it = np.zeros(depths, dtype=np.int64)
    nodes = 0
    d = 0
    fresh = True
    while d >= 0:
        i = d // 4
        s = d % 4
        b = paths[s, i]
        if fresh:  # this depth's units, in a random order
            fresh = False
            count = 0
            if i == 0:
                for u in mine:
                    if mask[u] & occ[b] == 0:
                        opts[d, count] = u
                        count += 1
            else:
                pb = paths[s, i - 1]
                if dirs[s] > 0:  # start a move from the end of the unit before
                    sq = strand_square(out[i - 1, s], 3, pb, bw, lsq)
                    for k in range(nstarts[sq, b]):
                        if mask[starts[sq, b, k]] & occ[b] == 0:
                            opts[d, count] = starts[sq, b, k]
                            count += 1
                else:  # end a move from the start of the unit before
                    sq = strand_square(out[i - 1, s], 0, pb, bw, lsq)
                    for k in range(nends[sq, b]):
                        if mask[ends[sq, b, k]] & occ[b] == 0:
                            opts[d, count] = ends[sq, b, k]
                            count += 1
            for a in range(count - 1, 0, -1):  # Fisher-Yates
                r = np.random.randint(0, a + 1)
                t = opts[d, a]
                opts[d, a] = opts[d, r]
                opts[d, r] = t
            nopts[d] = count
            it[d] = 0
        if it[d] >= nopts[d]:  # every unit tried: take back the one before
            d -= 1
            if d >= 0:
                i = d // 4
                s = d % 4
                b = paths[s, i]
                u = out[i, s]
                place_unit(
                    u, b, j_of(s, i, nblocks, dirs[s] > 0), -1, bw, lsq, rows, cols, done, diag
                )
                occ[b] ^= mask[u]
            continue
        if nodes >= budget:
            meta[0] = nodes
            return SPENT
        nodes += 1
        u = opts[d, it[d]]
        it[d] += 1
        out[i, s] = u
        place_unit(u, b, j_of(s, i, nblocks, dirs[s] > 0), 1, bw, lsq, rows, cols, done, diag)
        occ[b] |= mask[u]
        bx = b % bw
        by = b // bw
        ok = True
        for k in range(4):  # every unit to come puts 1 ... 4 in each rank (file) of its own
            need = line - rows[by, k]
            if need < per - done[by] or need > 4 * (per - done[by]):
                ok = False
            need = line - cols[bx, k]
            if need < per - done[bw + bx] or need > 4 * (per - done[bw + bx]):
                ok = False
        if check and magic > 0 and diag[1] == width and diag[0] != magic:
            ok = False
        if check and magic > 0 and diag[3] == width and diag[2] != magic:
            ok = False
        for q in range(3):  # a joint whose second unit this is
            last = nblocks - 1 if dirs[q] > 0 else 0
            nxt = 0 if dirs[q + 1] > 0 else nblocks - 1
            da = 4 * last + q
            db = 4 * nxt + q + 1
            if ok and max(da, db) == d:
                a = strand_square(out[last, q], 3, paths[q, last], bw, lsq)
                c = strand_square(out[nxt, q + 1], 0, paths[q + 1, nxt], bw, lsq)
                if not knight_between(a, c, width):
                    ok = False
        if ok and d == depths - 1:
            meta[0] = nodes
            return FOUND
        if ok:
            d += 1
            fresh = True
        else:
            place_unit(u, b, j_of(s, i, nblocks, dirs[s] > 0), -1, bw, lsq, rows, cols, done, diag)
            occ[b] ^= mask[u]
    meta[0] = nodes
    return EXHAUSTED
