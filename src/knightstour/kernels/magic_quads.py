"""The kernel of the quad pass: a depth-first walk over tours made of quads of the 4 x 4 blocks.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here). :mod:`knightstour.magic.quads` drives it.

A *quad* is four squares of one 4 x 4 block joined by three knight's moves, one square in each
rank and each file of its block. A *quad tour* is made of quads: the numbers 4j + 1 ... 4j + 4
fill one, for every j (Beverley's tour of 1848 is one). The walk places one quad a step, its first
square a knight's move from the last square of the quad before and its squares all empty. A
branch is cut, each cut plainly safe,

- when a rank or file can no longer reach its constant: each of its empty squares will be
  filled by a quad of its own, at a later step j, with one of 4j + 1 ... 4j + 4, so the line's
  sum lies between the smallest and the largest such choices;
- when a block row (or block column) can no longer give its quads the sum of j its lines need
  (each rank of the row gets 4 x that sum, plus offsets 1 to 4 that add up to 10 a quad over the
  row's four ranks): its quads still to come take distinct depths after the current one;
- when a rank (or file) can no longer get the offsets it needs: as every quad of a block row puts
  one square in each of the row's four ranks, and the row's sum of j is fixed, a rank's sum is
  exact exactly when its offsets add up to the constant less 4 x that sum of j. That is the same
  for the row's four ranks, and they share 10 a quad, so each needs 10 x (the blocks along a
  rank) in all (likewise a file: 10 x the blocks along it). Each quad still to come in the row
  gives the four ranks 1, 2, 3 and 4 in some order, so a rank still needs between 1 and 4 a quad,
  and two ranks together between 3 and 7 (:func:`offsets_open`);

(A cut on the squares a quad leaves empty in its block would never fire: the squares that one or
two disjoint quads leave in a 4 x 4 block can always be cut into quads.)

>>> import numpy as np
>>> line_open(0, 8, -1, 16, 260), line_open(0, 4, 12, 16, 130)
(True, False)
>>> offsets_open(np.array([20, 20, 20, 20]), 8), offsets_open(np.array([2, 3, 9, 26]), 8)
(True, False)
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "line_open", "sum_open", "offsets_open", "add_quad", "quad_walk", "parity_open", "add_run",
    "lines_open", "run_walk",
)  # fmt: skip

#: Slots of the walk's ``meta`` array: the depth of the walk (-1: not begun), the nodes placed,
#: the tours found, the rows written into ``out`` by the last call.
DEPTH, NODES, FOUND, WRITTEN = 0, 1, 2, 3
#: Length of ``meta``.
META = 4
#: What :func:`quad_walk` returns: the walk is over; it stopped (budget or stop flag); ``out`` is
#: full (call again to go on).
DONE, STOPPED, FULL = 0, 1, 2


def line_open(total: int, empty: int, depth: int, nq: int, const: int) -> bool:
    """Whether a line whose placed numbers add up to ``total`` can still reach ``const`` when
    its ``empty`` squares are filled by quads at distinct depths after ``depth`` (the last is
    ``nq - 1``): each puts one number 4j + 1 ... 4j + 4 in the line (a quad has one square in
    every rank and file of its block), its j a depth of its own."""
    least = total + 4 * (empty * depth + empty * (empty + 1) // 2) + empty
    most = total + 4 * (empty * (nq - 1) - empty * (empty - 1) // 2) + 4 * empty
    return least <= const <= most


def sum_open(total: int, left: int, depth: int, nq: int, target: int) -> bool:
    """Whether a block row whose placed quads' j add up to ``total`` can still reach ``target``
    with ``left`` more quads, at distinct depths after ``depth`` (the last is ``nq - 1``)."""
    least = total + left * depth + left * (left + 1) // 2
    most = total + left * (nq - 1) - left * (left - 1) // 2
    return least <= target <= most


def offsets_open(need: np.ndarray, left: int) -> bool:
    """Whether the four lines of a block row (or column) that still need offsets adding up to
    ``need[0]`` ... ``need[3]`` can get them from ``left`` more quads, each giving the four
    lines 1, 2, 3 and 4 in some order: one line gets between ``left`` and 4 ``left``, and two
    lines together between 3 ``left`` and 7 ``left``."""
    for a in range(4):
        if need[a] < left or need[a] > 4 * left:
            return False
        for b in range(a + 1, 4):
            if need[a] + need[b] < 3 * left or need[a] + need[b] > 7 * left:
                return False
    return True


def add_quad(
    quads: np.ndarray,
    width: int,
    q: int,
    depth: int,
    sign: int,
    line_sum: np.ndarray,
    line_cnt: np.ndarray,
    used: np.ndarray,
    line_off: np.ndarray,
) -> None:
    """Place (``sign`` 1) or take back (-1) quad ``q`` numbered at ``depth`` (4 depth + 1 ...):
    its numbers added to its lines' sums, its places 1 ... 4 to their offsets."""
    for k in range(4):
        s = quads[q, k]
        v = 4 * depth + k + 1
        y = s // width
        x = s - y * width
        line_sum[y] += sign * v
        line_cnt[y] += sign
        line_sum[-1 - x] += sign * v
        line_cnt[-1 - x] += sign
        line_off[y] += sign * (k + 1)
        line_off[-1 - x] += sign * (k + 1)
        used[s] = sign > 0


def quad_walk(
    quads: np.ndarray,
    block: np.ndarray,
    succ: np.ndarray,
    nsucc: np.ndarray,
    width: int,
    height: int,
    targets: np.ndarray,
    first: int,
    seq: np.ndarray,
    it: np.ndarray,
    meta: np.ndarray,
    budget: int,
    stop: np.ndarray,
    out: np.ndarray,
) -> int:
    """Walk the quad tours that begin with quad ``first``: write each semi-magic one into the
    next row of ``out`` (its squares in visiting order).

    ``quads[q]``: the four squares of quad q in order, in block ``block[q]`` (``y * (width // 4)
    + x`` of the blocks); ``succ[s, i]``: the quads whose first square is a move from square s,
    the first ``nsucc[s]`` of them. ``targets``: the sum of j each block row, then each block
    column, must reach. ``seq`` (the quad of each depth), ``it`` (the next option to try at each
    depth) and ``meta`` (:data:`META`, its depth -1 to begin) hold the walk, so that a call goes
    on where the last stopped. Returns :data:`DONE`, :data:`STOPPED` (``budget`` nodes more, or
    ``stop[0]`` set) or :data:`FULL`.
    """
    n = width * height
    nq = n // 4
    bw = width // 4
    bh = height // 4
    rank_const = width * (n + 1) // 2
    file_const = height * (n + 1) // 2
    # ranks 0 .. height - 1 from the front, files from the back (-1 - x)
    line_sum = np.zeros(height + width, dtype=np.int64)
    line_cnt = np.zeros(height + width, dtype=np.int64)
    row_j = np.zeros(bh, dtype=np.int64)
    row_n = np.zeros(bh, dtype=np.int64)
    col_j = np.zeros(bw, dtype=np.int64)
    col_n = np.zeros(bw, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    line_off = np.zeros(height + width, dtype=np.int64)
    need = np.zeros(4, dtype=np.int64)
    meta[WRITTEN] = 0
    depth = meta[DEPTH]
    if depth == -2:  # walked to its end already
        return DONE
    fresh = depth < 0
    if fresh:  # begin: the first quad, then its successors
        seq[0] = first
        depth = 0
    # the placed quads, added up again (a call may go on from a stopped walk)
    for d in range(depth + 1):
        b = block[seq[d]]
        row_j[b // bw] += d
        row_n[b // bw] += 1
        col_j[b % bw] += d
        col_n[b % bw] += 1
        add_quad(quads, width, seq[d], d, 1, line_sum, line_cnt, used, line_off)
    spent = 0
    while True:
        if fresh:
            fresh = False
        else:
            # the next option at depth + 1, or back up
            nxt = depth + 1
            last = quads[seq[depth], 3]
            placed = False
            while it[nxt] < nsucc[last]:
                q = succ[last, it[nxt]]
                it[nxt] += 1
                if used[quads[q, 0]] or used[quads[q, 1]] or used[quads[q, 2]]:
                    continue
                if used[quads[q, 3]]:
                    continue
                placed = True
                break
            if not placed:  # every option at depth + 1 tried: take back the quad at depth
                if depth == 0:
                    meta[DEPTH] = -2  # over
                    return DONE
                b = block[seq[depth]]
                row_j[b // bw] -= depth
                row_n[b // bw] -= 1
                col_j[b % bw] -= depth
                col_n[b % bw] -= 1
                add_quad(quads, width, seq[depth], depth, -1, line_sum, line_cnt, used, line_off)
                depth -= 1
                meta[DEPTH] = depth
                continue
            depth = nxt
            seq[depth] = q
            b = block[q]
            row_j[b // bw] += depth
            row_n[b // bw] += 1
            col_j[b % bw] += depth
            col_n[b % bw] += 1
            add_quad(quads, width, q, depth, 1, line_sum, line_cnt, used, line_off)
            meta[NODES] += 1
            spent += 1
        q = seq[depth]
        b = block[q]
        ok = True
        for k in range(4):
            s = quads[q, k]
            y = s // width
            x = s - y * width
            if not line_open(line_sum[y], width - line_cnt[y], depth, nq, rank_const):
                ok = False
            if not line_open(line_sum[-1 - x], height - line_cnt[-1 - x], depth, nq, file_const):
                ok = False
        r = b // bw
        c = b % bw
        # the offsets the four ranks of its block row, and the four files of its block column,
        # still need from the quads to come there
        for k in range(4):
            need[k] = 10 * bw - line_off[4 * r + k]
        if not offsets_open(need, 4 * bw - row_n[r]):
            ok = False
        for k in range(4):
            need[k] = 10 * bh - line_off[-1 - (4 * c + k)]
        if not offsets_open(need, 4 * bh - col_n[c]):
            ok = False
        # every block row (and column) must still reach its sum of j: its quads to come take
        # distinct depths after this one
        for i in range(bh):
            if not sum_open(row_j[i], 4 * bw - row_n[i], depth, nq, targets[i]):
                ok = False
        for i in range(bw):
            if not sum_open(col_j[i], 4 * bh - col_n[i], depth, nq, targets[bh + i]):
                ok = False
        if ok and depth == nq - 1:  # a semi-magic tour: every line is complete and exact
            row = meta[WRITTEN]
            for d in range(nq):
                for k in range(4):
                    out[row, 4 * d + k] = quads[seq[d], k]
            meta[WRITTEN] += 1
            meta[FOUND] += 1
            ok = False
        if ok:
            meta[DEPTH] = depth
            it[depth + 1] = 0
        else:  # take this quad back; the loop tries the next option at this depth
            if depth == 0:
                meta[DEPTH] = -2
                return DONE
            row_j[r] -= depth
            row_n[r] -= 1
            col_j[c] -= depth
            col_n[c] -= 1
            add_quad(quads, width, q, depth, -1, line_sum, line_cnt, used, line_off)
            depth -= 1
            meta[DEPTH] = depth
        if meta[WRITTEN] == out.shape[0]:
            return FULL
        if spent >= budget or stop[0]:
            return STOPPED


# The quarter pass: runs of four numbers on any knight path of four squares inside a 4 x 4 block.


def parity_open(total: int, odd: int, even: int, lo: int, n: int, const: int) -> bool:
    """Whether a line whose placed numbers add up to ``total`` can still reach ``const`` when
    its ``odd`` empty squares take distinct odd numbers, and its ``even`` ones distinct even
    numbers, of ``lo ... n`` (``lo`` odd: the numbers still to place)."""
    least = total + odd * lo + odd * (odd - 1) + even * (lo + 1) + even * (even - 1)
    hi_odd = n if n % 2 == 1 else n - 1
    hi_even = n if n % 2 == 0 else n - 1
    most = total + odd * hi_odd - odd * (odd - 1) + even * hi_even - even * (even - 1)
    return least <= const <= most


def add_run(
    units: np.ndarray,
    width: int,
    u: int,
    depth: int,
    sign: int,
    odd_sq: np.ndarray,
    line_sum: np.ndarray,
    line_odd: np.ndarray,
    line_even: np.ndarray,
    used: np.ndarray,
) -> None:
    """Place (``sign`` 1) or take back (-1) run ``u`` numbered at ``depth`` (4 depth + 1 ...):
    its numbers added to its lines' sums, its squares taken from their lines' empty ones (of the
    odd numbers' colour, ``odd_sq``, or the other)."""
    for k in range(4):
        s = units[u, k]
        v = 4 * depth + k + 1
        y = s // width
        x = s - y * width
        line_sum[y] += sign * v
        line_sum[-1 - x] += sign * v
        if odd_sq[s]:
            line_odd[y] -= sign
            line_odd[-1 - x] -= sign
        else:
            line_even[y] -= sign
            line_even[-1 - x] -= sign
        used[s] = sign > 0


def lines_open(
    line_sum: np.ndarray,
    line_odd: np.ndarray,
    line_even: np.ndarray,
    lo: int,
    n: int,
    width: int,
    height: int,
    rank_const: int,
    file_const: int,
) -> bool:
    """Whether every rank and file can still reach its constant (:func:`parity_open`)."""
    for i in range(height + width):
        const = rank_const if i < height else file_const
        if not parity_open(line_sum[i], line_odd[i], line_even[i], lo, n, const):
            return False
    return True


def run_walk(
    units: np.ndarray,
    block: np.ndarray,
    mask: np.ndarray,
    succ: np.ndarray,
    nsucc: np.ndarray,
    cover: np.ndarray,
    odd_sq: np.ndarray,
    width: int,
    height: int,
    targets: np.ndarray,
    first: int,
    base: int,
    seq: np.ndarray,
    it: np.ndarray,
    meta: np.ndarray,
    budget: int,
    stop: np.ndarray,
    out: np.ndarray,
) -> int:
    """Walk the quarter-local tours that begin with run ``first``: write each semi-magic one
    into the next row of ``out`` (its squares in visiting order).

    ``units[u]``: the four squares of run u in order, a knight path inside block ``block[u]``,
    ``mask[u]`` its squares as bits ``4 y + x`` of its block; ``succ[s, i]``: the runs whose
    first square is a move from square s, the first ``nsucc[s]`` of them; ``cover[m]``: whether
    the squares ``m`` of a block can be cut into knight paths of four; ``odd_sq[s]``: whether
    square s holds an odd number (the colour of the first square). ``targets``, ``seq``, ``it``,
    ``meta``, the returns: as :func:`quad_walk`; with ``base`` > 0, ``seq[: base + 1]`` is
    placed and kept (the walk of the tours below that prefix: for checks), else ``first`` alone. A branch is cut when a block's empty squares
    cannot be cut into runs, when a block row (or column) can no longer give its runs the sum of
    j its lines need (:func:`sum_open`: every run of a block row adds 16 j + 10 to its four
    ranks together, whatever its path), or when a rank or file can no longer reach its constant
    with the numbers still to place, odd and even apart (:func:`lines_open`).
    """
    n = width * height
    nq = n // 4
    bw = width // 4
    bh = height // 4
    rank_const = width * (n + 1) // 2
    file_const = height * (n + 1) // 2
    line_sum = np.zeros(height + width, dtype=np.int64)
    line_odd = np.zeros(height + width, dtype=np.int64)
    line_even = np.zeros(height + width, dtype=np.int64)
    for s in range(n):
        y = s // width
        x = s - y * width
        if odd_sq[s]:
            line_odd[y] += 1
            line_odd[-1 - x] += 1
        else:
            line_even[y] += 1
            line_even[-1 - x] += 1
    row_j = np.zeros(bh, dtype=np.int64)
    row_n = np.zeros(bh, dtype=np.int64)
    col_j = np.zeros(bw, dtype=np.int64)
    col_n = np.zeros(bw, dtype=np.int64)
    empty = np.full(bw * bh, 0xFFFF, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    meta[WRITTEN] = 0
    depth = meta[DEPTH]
    if depth == -2:  # walked to its end already
        return DONE
    fresh = depth < 0
    if fresh:
        seq[0] = first
        depth = base
    for d in range(depth + 1):
        b = block[seq[d]]
        row_j[b // bw] += d
        row_n[b // bw] += 1
        col_j[b % bw] += d
        col_n[b % bw] += 1
        empty[b] ^= mask[seq[d]]
        add_run(units, width, seq[d], d, 1, odd_sq, line_sum, line_odd, line_even, used)
    spent = 0
    while True:
        if fresh:
            fresh = False
        else:
            nxt = depth + 1
            last = units[seq[depth], 3]
            placed = False
            while it[nxt] < nsucc[last]:
                q = succ[last, it[nxt]]
                it[nxt] += 1
                if empty[block[q]] & mask[q] != mask[q]:
                    continue
                placed = True
                break
            if not placed:  # every option at depth + 1 tried: take back the run at depth
                if depth == base:
                    meta[DEPTH] = -2
                    return DONE
                b = block[seq[depth]]
                row_j[b // bw] -= depth
                row_n[b // bw] -= 1
                col_j[b % bw] -= depth
                col_n[b % bw] -= 1
                empty[b] ^= mask[seq[depth]]
                add_run(units, width, seq[depth], depth, -1, odd_sq, line_sum, line_odd,
                        line_even, used)  # fmt: skip
                depth -= 1
                meta[DEPTH] = depth
                continue
            depth = nxt
            seq[depth] = q
            b = block[q]
            row_j[b // bw] += depth
            row_n[b // bw] += 1
            col_j[b % bw] += depth
            col_n[b % bw] += 1
            empty[b] ^= mask[q]
            add_run(units, width, q, depth, 1, odd_sq, line_sum, line_odd, line_even, used)
            meta[NODES] += 1
            spent += 1
        q = seq[depth]
        b = block[q]
        r = b // bw
        c = b % bw
        ok = cover[empty[b]] != 0
        if ok:
            for i in range(bh):
                if not sum_open(row_j[i], 4 * bw - row_n[i], depth, nq, targets[i]):
                    ok = False
            for i in range(bw):
                if not sum_open(col_j[i], 4 * bh - col_n[i], depth, nq, targets[bh + i]):
                    ok = False
        if ok:
            ok = lines_open(line_sum, line_odd, line_even, 4 * depth + 5, n, width, height,
                            rank_const, file_const)  # fmt: skip
        if ok and depth == nq - 1:  # a semi-magic tour: every line is complete and exact
            row = meta[WRITTEN]
            for d in range(nq):
                for k in range(4):
                    out[row, 4 * d + k] = units[seq[d], k]
            meta[WRITTEN] += 1
            meta[FOUND] += 1
            ok = False
        if ok:
            meta[DEPTH] = depth
            it[depth + 1] = 0
        else:  # take this run back; the loop tries the next option at this depth
            if depth == base:
                meta[DEPTH] = -2
                return DONE
            row_j[r] -= depth
            row_n[r] -= 1
            col_j[c] -= depth
            col_n[c] -= 1
            empty[b] ^= mask[q]
            add_run(units, width, q, depth, -1, odd_sq, line_sum, line_odd, line_even, used)
            depth -= 1
            meta[DEPTH] = depth
        if meta[WRITTEN] == out.shape[0]:
            return FULL
        if spent >= budget or stop[0]:
            return STOPPED
