"""The kernels of the start passes of the semi-magic search: a one-ended walk, the end left free.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit`; :mod:`knightstour.magic.starts` drives them.

1 is put on a start square and 2, 3, ... each a knight move from the last (the *head*); the
square of the last number is wherever the walk ends, except the squares ``endok`` bans. The
colour of a square fixes the parity of its number. The cuts, each plainly safe (a branch is cut
only when it has no completion):

- **links**: ``avail[r]`` counts an empty square's neighbours that are empty or the head. An
  empty square with one link can only be the end, so at most one may have one, none may have
  none, and the end must be a square ``endok`` allows (the last number's colour, not banned);
- **forced moves**: a neighbour of the head with two links becomes an end unless the walk goes
  there now: with an end already known, or where it may not end, it must come next; three such
  squares, or two with an end known, end the branch;
- **line sums**: a rank or file with ``a`` empty squares for odd numbers and ``b`` for even ones
  must still reach its constant with numbers above the head's, no two of them consecutive (a
  knight never moves within a rank or a file), each at least the head's number plus the knight
  distance from the head to the line (``dl``): ``thr[a, b, need]`` is the largest first number
  from which such numbers can add up to as little as ``need``, ``most[a, b]`` the most they can
  add up to (tables made once a board, :func:`knightstour.magic.starts.line_tables`);
- **closed tours** (``meta[CLOSED]``): the end must be a neighbour of the start (``ring``), so
  one of them must stay empty until the end.

>>> import numpy as np
>>> nbr = np.array([[1, -1], [0, 2], [1, -1]]); nn = np.array([1, 2, 1])
>>> num = np.array([1, 0, 0]); avail = np.array([0, 2, 1]); meta = np.zeros(META, np.int64)
>>> relink(0, -1, nbr, nn, num, avail, np.ones(3, np.int64), meta), avail.tolist()
(False, [0, 1, 1])
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("relink", "place", "vacate", "unplace", "candidates", "walk", "probe")
#: Compiled into the kernels that call them (see :mod:`knightstour.kernels.magic_search`).
__inline__ = ("relink", "place", "vacate", "unplace", "candidates")
#: Compiled without reference counting: the walk makes no array, and reads many out of tuples.
__borrow__ = ("walk",)

#: Statuses of :func:`walk`: the part is finished; the budget ran out (or a stop was asked); the
#: output is full.
DONE, BUDGET, FULL = 0, 1, 2

#: Slots of the int64 ``meta`` array: the depth (the index of the head in ``placed``), the
#: depth the part starts from, nodes tried, tours found, tours written by the last call, empty
#: squares with one link, with none, empty neighbours of the start, closed tours only (1).
DEPTH, BASE, NODES, FOUND, WRITTEN, NLOW, NZERO, RING, CLOSED = 0, 1, 2, 3, 4, 5, 6, 7, 8
META = 9

#: The board's arrays as one tuple ``board`` (made once a start): the compact neighbour table
#: and its row lengths, each square's rank and file (files numbered on from the ranks), each
#: line's constant, the squares the walk may end on, the line tables, the knight distance from
#: each square to each line, the start's neighbours (closed tours).
BOARD = ("nbr", "nn", "lines", "const", "endok", "thr", "most", "dl", "ring")
#: The walk's arrays as one tuple ``state``: which squares take odd numbers, each square's
#: number (0: empty), its links, each line's sum and its empty squares for odd and for even
#: numbers, the square of each number (``placed[d]`` holds d + 1), the candidates at each depth
#: (their number, the next to try), ``meta`` and each line's largest first number (``thr``).
STATE = (
    "odd", "num", "avail", "lsum", "lodd", "leven", "placed", "cand", "ncand", "ci", "meta",
    "maxlo",
)  # fmt: skip


def relink(
    h: int,
    step: int,
    nbr: np.ndarray,
    nn: np.ndarray,
    num: np.ndarray,
    avail: np.ndarray,
    endok: np.ndarray,
    meta: np.ndarray,
) -> bool:
    """The empty neighbours of ``h`` lose (``step`` -1) or regain (1) their link to it, the
    counts of squares with one link and with none kept; whether a square left with one link
    may not be the end."""
    bad = False
    for k in range(nn[h]):
        r = nbr[h, k]
        if num[r] != 0:
            continue
        a = avail[r]
        if step < 0:
            avail[r] = a - 1
            if a == 2:
                meta[NLOW] += 1
                if not endok[r]:
                    bad = True
            elif a == 1:
                meta[NLOW] -= 1
                meta[NZERO] += 1
        else:
            avail[r] = a + 1
            if a == 1:
                meta[NLOW] -= 1
            elif a == 0:
                meta[NZERO] -= 1
                meta[NLOW] += 1
    return bad


def place(q: int, h: int, v: int, board: tuple, state: tuple) -> bool:
    """Put ``v`` on the empty square ``q``, a move from the head ``h``; False (and nothing
    changed) when a cut ends the branch there. The line cuts come first, read before anything
    is written: a branch they end costs no writing back (most of the branches cut end there)."""
    nbr, nn, lines, const, endok, thr, most, dl, ring = board
    odd, num, avail, lsum, lodd, leven, _, _, _, _, meta, maxlo = state
    n = num.size
    l0 = lines[q, 0]
    l1 = lines[q, 1]
    o = odd[q]
    a0 = lodd[l0] - o
    b0 = leven[l0] - (1 - o)
    a1 = lodd[l1] - o
    b1 = leven[l1] - (1 - o)
    need0 = const[l0] - lsum[l0] - v
    need1 = const[l1] - lsum[l1] - v
    if v < n and (need0 > most[a0, b0] or need1 > most[a1, b1]):
        return False
    top = thr.shape[2]
    m0 = thr[a0, b0, need0] if 0 <= need0 < top else -1
    m1 = thr[a1, b1, need1] if 0 <= need1 < top else -1
    if v < n:  # every line: the least its numbers can add up to, from v + its distance from q
        old0 = maxlo[l0]
        old1 = maxlo[l1]
        maxlo[l0] = m0
        maxlo[l1] = m1
        least = maxlo[0] - dl[q, 0]
        for li in range(1, const.size):
            least = min(least, maxlo[li] - dl[q, li])
        if least < v:
            maxlo[l0] = old0
            maxlo[l1] = old1
            return False
    else:
        maxlo[l0] = m0
        maxlo[l1] = m1
    num[q] = v
    lsum[l0] += v
    lsum[l1] += v
    lodd[l0] = a0
    leven[l0] = b0
    lodd[l1] = a1
    leven[l1] = b1
    if avail[q] == 1:
        meta[NLOW] -= 1
    if ring[q]:
        meta[RING] -= 1
    bad = relink(h, -1, nbr, nn, num, avail, endok, meta)
    if not bad and v < n:
        bad = meta[NZERO] > 0 or meta[NLOW] > 1 or (meta[CLOSED] == 1 and meta[RING] == 0)
    if bad:
        unplace(q, h, board, state)
        return False
    return True


def vacate(q: int, board: tuple, state: tuple) -> None:
    """Take the number off ``q``: its lines and counts as before it was put there (the links
    are :func:`unplace`'s)."""
    lines, const, thr, ring = board[2], board[3], board[5], board[8]
    odd, num, avail, lsum, lodd, leven, meta, maxlo = (
        state[0], state[1], state[2], state[3], state[4], state[5], state[10], state[11],
    )  # fmt: skip
    v = num[q]
    for j in range(2):
        li = lines[q, j]
        lsum[li] -= v
        if odd[q]:
            lodd[li] += 1
        else:
            leven[li] += 1
        need = const[li] - lsum[li]
        maxlo[li] = thr[lodd[li], leven[li], need] if 0 <= need < thr.shape[2] else -1
    if avail[q] == 1:
        meta[NLOW] += 1
    if ring[q]:
        meta[RING] += 1
    num[q] = 0


def unplace(q: int, h: int, board: tuple, state: tuple) -> None:
    """Take the last number off ``q``, ``h`` the head again."""
    relink(h, 1, board[0], board[1], state[1], state[2], board[4], state[10])
    vacate(q, board, state)


def candidates(d: int, board: tuple, state: tuple) -> None:
    """Fill level ``d`` with the squares the walk may take after ``placed[d]``: fewest links
    first, or the one forced move."""
    nbr, nn, endok = board[0], board[1], board[4]
    num, avail, placed, cand, ncand, ci, meta = (
        state[1], state[2], state[6], state[7], state[8], state[9], state[10],
    )  # fmt: skip
    h = placed[d]
    free = num.size - 1 - d
    ci[d] = 0
    ncand[d] = 0
    if free == 0:
        return
    c = 0
    two = 0
    forced = -1
    nforced = 0
    low = meta[NLOW]
    for k in range(nn[h]):
        r = nbr[h, k]
        if num[r] != 0:
            continue
        if free == 1:
            if endok[r]:
                cand[d, 0] = r
                ncand[d] = 1
            return
        a = avail[r]
        if a == 1:
            continue  # the end: only the last number goes there
        if a == 2:
            two += 1
            if low == 1 or not endok[r]:
                forced = r
                nforced += 1
        j = c
        while j > 0 and avail[cand[d, j - 1]] > a:
            cand[d, j] = cand[d, j - 1]
            j -= 1
        cand[d, j] = r
        c += 1
    if nforced > 1:
        return
    if nforced == 1:
        if low + two - 1 <= 1:
            cand[d, 0] = forced
            ncand[d] = 1
        return
    if two >= 3:
        return
    if two == 2:  # one of the two comes next, the other is the end
        m = 0
        for i in range(c):
            r = cand[d, i]
            if avail[r] == 2:
                cand[d, m] = r
                m += 1
        ncand[d] = m
        return
    ncand[d] = c


def walk(
    board: tuple, state: tuple, budget: int, stop: np.ndarray, split: int, out: np.ndarray
) -> int:
    """Walk on from ``state`` until the part is done (:data:`DONE`), ``budget`` nodes were tried
    or ``stop[0]`` was set (:data:`BUDGET`), or ``out`` is full (:data:`FULL`).

    Each tour found is written to the next row of ``out`` as its squares in order. With ``split``
    above the part's depth, the walk writes instead the squares placed when the head reaches
    that depth (the prefixes of the parts below), and goes no deeper.
    """
    num, placed, cand, ncand, ci, meta = (
        state[1], state[6], state[7], state[8], state[9], state[10],
    )  # fmt: skip
    n = num.size
    d = meta[DEPTH]
    base = meta[BASE]
    meta[WRITTEN] = 0
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
            h = placed[d]
            if not place(q, h, d + 2, board, state):
                continue
            d += 1
            placed[d] = q
            if d == n - 1 or d == split:
                w = meta[WRITTEN]
                if w >= out.shape[0]:
                    d -= 1
                    unplace(q, h, board, state)
                    ci[d] -= 1
                    nodes -= 1
                    meta[DEPTH] = d
                    meta[NODES] += nodes
                    return FULL
                for i in range(d + 1):
                    out[w, i] = placed[i]
                if d == n - 1:
                    meta[FOUND] += 1
                meta[WRITTEN] = w + 1
                d -= 1
                unplace(q, h, board, state)
                continue
            candidates(d, board, state)
        else:
            if d == base:
                meta[DEPTH] = d
                meta[NODES] += nodes
                return DONE
            q = placed[d]
            d -= 1
            unplace(q, placed[d], board, state)


def probe(board: tuple, state: tuple, seed: int, probes: int, out: np.ndarray) -> None:
    """Knuth's estimate of the walk below ``state``: ``out[i]`` the nodes the i-th of ``probes``
    random descents estimates (the candidates tried at each depth times the product of the
    branchings above, each a count of the candidates that pass the cuts). The state is left as
    it was."""
    num, placed, cand, ncand, meta = state[1], state[6], state[7], state[8], state[10]
    np.random.seed(seed)
    n = num.size
    base = meta[BASE]
    good = np.empty(8, np.int64)
    for p in range(probes):
        d = base
        total = 0.0
        weight = 1.0
        while True:
            candidates(d, board, state)
            total += weight * ncand[d]
            g = 0
            h = placed[d]
            for i in range(ncand[d]):
                q = cand[d, i]
                if place(q, h, d + 2, board, state):
                    good[g] = q
                    g += 1
                    unplace(q, h, board, state)
            if g == 0 or d + 1 == n - 1:
                break
            q = good[np.random.randint(g)]
            weight *= g
            place(q, h, d + 2, board, state)
            d += 1
            placed[d] = q
        out[p] = total
        while d > base:
            q = placed[d]
            d -= 1
            unplace(q, placed[d], board, state)
        candidates(base, board, state)
