"""The kernels of the semi-magic tour search: a two-ended depth-first walk with line-sum bounds.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here). :mod:`knightstour.magic.search` drives
them.

The squares of 1 and of N (the last number) are fixed first; the walk then grows two paths at
once, the low one placing 2, 3, ... and the high one N - 1, N - 2, ..., taking turns, until the
numbers meet in the middle. The numbers still to place are always one run ``lo..hi``, so every
rank and file can be bounded in constant time. The cuts, each plainly safe (a branch is cut only
when it has no completion):

- **line sums**: a line (rank or file) with ``a`` empty squares for odd numbers and ``b`` for
  even ones (the knight changes colour every move, so the colour of a square fixes the parity of
  its number) must still reach its constant with ``a`` distinct odd and ``b`` distinct even
  numbers of ``lo..hi``: between the smallest and the largest such sums (:func:`line_ok`);
- **links**: every empty square will lie inside the middle of the tour, with two neighbours on
  it, which are empty squares or the two heads; ``avail[r]`` counts them, and fewer than two is a
  dead end;
- **forced moves**: an empty neighbour of a head with exactly two links must come next from that
  head; two such squares, or one that would have to join both heads while other squares are
  left, end the branch.

>>> import numpy as np
>>> line_ok(1, 1, 7, 1, 6)      # one odd and one even number of 1..6 adding up to 7
True
>>> line_ok(2, 0, 2, 1, 6)      # two distinct odd numbers cannot add up to 2
False
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "line_ok",
    "group_ok",
    "mark_lines",
    "relink",
    "lines_ok",
    "place",
    "unplace",
    "candidates",
    "setup",
    "walk",
)
#: Compiled into the kernels that call them: a call that hands over the ``board`` and ``state``
#: tuples would count the references of every array in them, once a node.
__inline__ = ("mark_lines", "relink", "lines_ok", "place", "unplace", "candidates")

#: Statuses of :func:`walk`: the part is finished; the budget ran out (or a stop was asked); the
#: output is full.
DONE, BUDGET, FULL = 0, 1, 2

#: Slots of the int64 ``meta`` array: the depth (placements after the two ends), the depth the
#: part starts from (the walk never goes back past it), nodes tried, tours found, tours written
#: by the last call, the low and high numbers placed so far, empty squares left.
DEPTH, BASE, NODES, FOUND, WRITTEN, LO, HI, FREE, ROWS = 0, 1, 2, 3, 4, 5, 6, 7, 8
META = 9

#: The arrays of the board, handed to every kernel from :func:`place` on as one tuple ``board`` (the
#: caller makes it once): the front that places each number after the two ends (0 low, 1 high),
#: the compact neighbour table and its row lengths, the adjacency matrix, each square's two
#: lines (rank, then file, numbered on from the ranks) and each line's constant.
BOARD = ("side", "nbr", "nn", "adj", "lines", "const")
#: The arrays of a walk, handed to every kernel from :func:`place` on as one tuple ``state`` (the
#: caller keeps them from call to call): which squares take odd numbers, each square's number
#: (0: empty), its links, each line's sum and its empty squares for odd and for even numbers,
#: the two heads, the square placed at each depth and the head before it, the candidates at
#: each depth (their number, the next to try), ``meta`` (:data:`META` slots) and the scratch of
#: :func:`group_ok`.
STATE = (
    "odd", "num", "avail", "lsum", "lodd", "leven", "head", "placed", "prev", "cand", "ncand",
    "ci", "meta", "work",
)  # fmt: skip


def line_ok(a: int, b: int, need: int, lo: int, hi: int) -> bool:
    """Whether ``a`` distinct odd and ``b`` distinct even numbers of ``lo..hi`` can add up to
    ``need``: it lies between the sums of the smallest and of the largest of them."""
    oa = lo if lo % 2 == 1 else lo + 1
    ob = hi if hi % 2 == 1 else hi - 1
    ea = lo if lo % 2 == 0 else lo + 1
    eb = hi if hi % 2 == 0 else hi - 1
    least = a * oa + a * (a - 1) + b * ea + b * (b - 1)
    most = a * ob - a * (a - 1) + b * eb - b * (b - 1)
    return least <= need <= most


def group_ok(
    l0: int,
    l1: int,
    lodd: np.ndarray,
    leven: np.ndarray,
    const: np.ndarray,
    lsum: np.ndarray,
    lo: int,
    hi: int,
    key: np.ndarray,
    order: np.ndarray,
) -> bool:
    """Whether the lines ``l0..l1 - 1`` (all ranks, or all files: each number lands in one of
    them) can reach their constants together: the lines with the least room above (below) their
    needs, taken together, need no more (less) than the largest (smallest) numbers left."""
    oa = lo if lo % 2 == 1 else lo + 1
    ob = hi if hi % 2 == 1 else hi - 1
    ea = lo if lo % 2 == 0 else lo + 1
    eb = hi if hi % 2 == 0 else hi - 1
    for up in range(2):
        c = 0
        for li in range(l0, l1):
            a = lodd[li]
            b = leven[li]
            if a + b == 0:
                continue
            need = const[li] - lsum[li]
            if up:
                room = a * ob - a * (a - 1) + b * eb - b * (b - 1) - need
            else:
                room = need - (a * oa + a * (a - 1) + b * ea + b * (b - 1))
            j = c
            while j > 0 and key[j - 1] > room:
                key[j] = key[j - 1]
                order[j] = order[j - 1]
                j -= 1
            key[j] = room
            order[j] = li
            c += 1
        ta = 0
        tb = 0
        tneed = 0
        for j in range(c):
            li = order[j]
            ta += lodd[li]
            tb += leven[li]
            tneed += const[li] - lsum[li]
            if up:
                if tneed > ta * ob - ta * (ta - 1) + tb * eb - tb * (tb - 1):
                    return False
            elif tneed < ta * oa + ta * (ta - 1) + tb * ea + tb * (tb - 1):
                return False
    return True


def mark_lines(
    q: int,
    v: int,
    step: int,
    lines: np.ndarray,
    odd: np.ndarray,
    lsum: np.ndarray,
    lodd: np.ndarray,
    leven: np.ndarray,
) -> None:
    """Number ``v`` put on the square ``q`` (``step`` 1) or taken off it (``step`` -1): the sums
    and the empty squares of its lines."""
    for j in range(lines.shape[1]):
        li = lines[q, j]
        lsum[li] += step * v
        if odd[q]:
            lodd[li] -= step
        else:
            leven[li] -= step


def relink(
    h: int, step: int, nbr: np.ndarray, nn: np.ndarray, num: np.ndarray, avail: np.ndarray
) -> bool:
    """The empty neighbours of ``h`` gain (``step`` 1) or lose (``step`` -1) the link to it, as
    ``h`` stops or starts being a head; whether one is left with fewer than two links."""
    short = False
    for k in range(nn[h]):
        r = nbr[h, k]
        if num[r] == 0:
            avail[r] += step
            if avail[r] < 2:
                short = True
    return short


def lines_ok(
    lo: int, hi: int, const: np.ndarray, lsum: np.ndarray, lodd: np.ndarray, leven: np.ndarray
) -> bool:
    """Whether every line can still reach its constant with the numbers ``lo..hi``
    (:func:`line_ok`)."""
    for li in range(const.size):
        if not line_ok(lodd[li], leven[li], const[li] - lsum[li], lo, hi):
            return False
    return True


def place(q: int, s: int, board: tuple[np.ndarray, ...], state: tuple[np.ndarray, ...]) -> bool:
    """Put the next number of front ``s`` (0 low, 1 high) on the empty square ``q`` of the walk
    ``state`` (:data:`STATE`) on ``board`` (:data:`BOARD`); False (and nothing changed) when a
    cut ends the branch there."""
    _, nbr, nn, _, lines, const = board
    odd, num, avail, lsum, lodd, leven, head, _, _, _, _, _, meta, work = state
    v = meta[LO] + 1 if s == 0 else meta[HI] - 1
    h = head[s]
    num[q] = v
    if s == 0:
        meta[LO] = v
    else:
        meta[HI] = v
    meta[FREE] -= 1
    mark_lines(q, v, 1, lines, odd, lsum, lodd, leven)
    bad = relink(h, -1, nbr, nn, num, avail)
    head[s] = q
    if not bad:
        lo = meta[LO] + 1
        hi = meta[HI] - 1
        if not lines_ok(lo, hi, const, lsum, lodd, leven):
            bad = True
        else:
            nl = const.size
            key = work[:nl]
            order = work[nl:]
            rows = meta[ROWS]
            if not group_ok(0, rows, lodd, leven, const, lsum, lo, hi, key, order) or not group_ok(
                rows, nl, lodd, leven, const, lsum, lo, hi, key, order
            ):
                bad = True
    if bad:
        unplace(q, s, h, board, state)
        return False
    return True


def unplace(
    q: int, s: int, h: int, board: tuple[np.ndarray, ...], state: tuple[np.ndarray, ...]
) -> None:
    """Take front ``s``'s last number off ``q``, making ``h`` its head again."""
    _, nbr, nn, _, lines, _ = board
    odd, num, avail, lsum, lodd, leven, head, _, _, _, _, _, meta, _ = state
    v = num[q]
    relink(h, 1, nbr, nn, num, avail)
    mark_lines(q, v, -1, lines, odd, lsum, lodd, leven)
    num[q] = 0
    head[s] = h
    if s == 0:
        meta[LO] = v - 1
    else:
        meta[HI] = v + 1
    meta[FREE] += 1


def candidates(
    d: int, s: int, board: tuple[np.ndarray, ...], state: tuple[np.ndarray, ...]
) -> None:
    """Fill level ``d`` with the squares front ``s`` may take next, fewest links first."""
    _, nbr, nn, adj, _, _ = board
    _, num, avail, _, _, _, head, _, _, cand, ncand, ci, meta, _ = state
    h = head[s]
    g = head[1 - s]
    ci[d] = 0
    ncand[d] = 0
    free = meta[FREE]
    forced = -1
    c = 0
    for k in range(nn[h]):
        r = nbr[h, k]
        if num[r] != 0:
            continue
        if free == 1:
            if adj[r, g]:
                cand[d, 0] = r
                ncand[d] = 1
            return
        if avail[r] == 2:
            if adj[r, g] or forced >= 0:
                return  # it would have to join both heads, or two squares must come next
            forced = r
        # insertion by links, fewest first
        j = c
        while j > 0 and avail[cand[d, j - 1]] > avail[r]:
            cand[d, j] = cand[d, j - 1]
            j -= 1
        cand[d, j] = r
        c += 1
    if forced >= 0:
        cand[d, 0] = forced
        ncand[d] = 1
    else:
        ncand[d] = c


def setup(
    first: int,
    last: int,
    prefix: np.ndarray,
    board: tuple[np.ndarray, ...],
    state: tuple[np.ndarray, ...],
) -> bool:
    """The ``state`` (:data:`STATE`) of a walk with 1 on ``first``, the last number on ``last``
    and then the squares of ``prefix`` taken in turn by the fronts ``side[0], side[1], ...``;
    False when that start is already cut (the walk then has nothing to do)."""
    side, nbr, nn, adj, lines, const = board
    odd, num, avail, lsum, lodd, leven, head, placed, prev, cand, ncand, _, meta, _ = state
    n = num.size
    meta[:] = 0
    num[:] = 0
    lsum[:] = 0
    lodd[:] = 0
    leven[:] = 0
    for q in range(n):
        for j in range(lines.shape[1]):
            if odd[q]:
                lodd[lines[q, j]] += 1
            else:
                leven[lines[q, j]] += 1
    rows = 0
    for q in range(n):
        rows = max(rows, lines[q, 0] + 1)
    meta[ROWS] = rows
    num[first] = 1
    num[last] = n
    mark_lines(first, 1, 1, lines, odd, lsum, lodd, leven)
    mark_lines(last, n, 1, lines, odd, lsum, lodd, leven)
    meta[LO] = 1
    meta[HI] = n
    meta[FREE] = n - 2
    head[0] = first
    head[1] = last
    for r in range(n):
        c = 0
        for k in range(nn[r]):
            if num[nbr[r, k]] == 0 or nbr[r, k] == first or nbr[r, k] == last:
                c += 1
        avail[r] = c
    for r in range(n):
        if num[r] == 0 and avail[r] < 2:
            return False
    if n == 2:
        return bool(adj[first, last])
    if not lines_ok(meta[LO] + 1, meta[HI] - 1, const, lsum, lodd, leven):
        return False
    for d in range(prefix.size):
        s = side[d]
        candidates(d, s, board, state)
        ok = False
        for i in range(ncand[d]):
            if cand[d, i] == prefix[d]:
                ok = True
        if not ok:
            return False
        prev[d] = head[s]
        if not place(prefix[d], s, board, state):
            return False
        placed[d] = prefix[d]
    meta[DEPTH] = prefix.size
    meta[BASE] = prefix.size
    if meta[FREE] > 0:
        candidates(prefix.size, side[prefix.size], board, state)
    return True


def walk(
    board: tuple[np.ndarray, ...],
    state: tuple[np.ndarray, ...],
    budget: int,
    stop: np.ndarray,
    split: int,
    out: np.ndarray,
) -> int:
    """Walk on from the ``state`` (:data:`STATE`) until the part is done (:data:`DONE`),
    ``budget`` nodes were tried or ``stop[0]`` was set (:data:`BUDGET`), or ``out`` is full
    (:data:`FULL`).

    Each tour found is written to the next row of ``out`` as the squares in visiting order. With
    ``split`` above the part's depth, the walk writes instead the squares placed when it reaches
    that depth (the prefixes of the parts below), and goes no deeper.
    """
    side = board[0]
    _, num, _, _, _, _, head, placed, prev, cand, ncand, ci, meta, _ = state
    n = num.size
    total = n - 2
    d = meta[DEPTH]
    base = meta[BASE]
    meta[WRITTEN] = 0
    if d == total or (d == base and meta[FREE] == 0):
        # a part whose prefix already places every number
        if meta[NODES] == 0 and d == total:
            meta[NODES] = 1
            if out.shape[0] == 0:
                return FULL
            for r in range(n):
                out[0, num[r] - 1] = r
            meta[FOUND] += 1
            meta[WRITTEN] = 1
        return DONE
    nodes = 0
    while True:
        if ci[d] < ncand[d]:
            if nodes >= budget or ((nodes & 4095) == 0 and stop[0]):
                meta[DEPTH] = d
                meta[NODES] += nodes
                return BUDGET
            q = cand[d, ci[d]]
            ci[d] += 1
            nodes += 1
            s = side[d]
            h = head[s]
            if not place(q, s, board, state):
                continue
            prev[d] = h
            placed[d] = q
            d += 1
            if d in (total, split):
                w = meta[WRITTEN]
                if w >= out.shape[0]:
                    d -= 1
                    unplace(q, s, h, board, state)
                    ci[d] -= 1
                    nodes -= 1
                    meta[DEPTH] = d
                    meta[NODES] += nodes
                    return FULL
                if d == total:
                    for r in range(n):
                        out[w, num[r] - 1] = r
                    meta[FOUND] += 1
                else:
                    for i in range(d):
                        out[w, i] = placed[i]
                meta[WRITTEN] = w + 1
                d -= 1
                unplace(q, s, h, board, state)
                continue
            candidates(d, side[d], board, state)
        else:
            if d == base:
                meta[DEPTH] = d
                meta[NODES] += nodes
                return DONE
            d -= 1
            s = side[d]
            unplace(placed[d], s, prev[d], board, state)
