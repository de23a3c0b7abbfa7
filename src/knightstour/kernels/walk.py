"""Hot loops of Warnsdorff's rule: plain Python in the subset that Numba compiles.

One walk serves every board. On a flat board (any leaper, holes or not) it works on a
:class:`~knightstour.board.PaddedGrid`: the board inside a border of blocked cells, so that a
move is one addition and never needs a bounds check. On a wrapped or 3-D board it works on the
neighbour table, whose missing moves lead to one extra cell that is always taken. Either way the
walk keeps one byte a cell (:func:`flat_cells`, :func:`table_cells`): the onward count of a
free cell, or :data:`TAKEN` for a blocked or visited one, so that a candidate costs one load.
The kernels know nothing of knights: the leaper is a list of offsets.

They are loaded by :mod:`knightstour.kernels.jit`, compiled when the work (squares times walks)
is above :data:`COMPILE_THRESHOLD` and interpreted otherwise, so that ``knightstour solve 8x8``
answers in a blink.

>>> from knightstour.board import Board
>>> b = Board(5, 5)
>>> dxs, dys = (np.array(v) for v in zip(*b.deltas))
>>> c = flat_cells(5, 5, 2, dxs, dys, np.zeros(0, dtype=np.int64)).reshape(9, 9)
>>> c[2:-2, 2:-2].tolist()[:2], int(c[0, 0]) == TAKEN
([[2, 3, 4, 3, 2], [3, 4, 6, 4, 3]], True)
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "flat_cells",
    "table_cells",
    "warnsdorff_walk",
    "visit",
    "image_index",
    "tour_check",
)


def move_rows(
    moves: np.ndarray, dxs: np.ndarray, dys: np.ndarray, orders: np.ndarray, nowhere: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``moves`` (and their steps ``dxs``, ``dys``) in each move order of ``orders`` (rows
    of indices into them), every row filled up to a multiple of 8 with the move ``nowhere``
    (an offset of 0 on a flat board: the current cell, always taken; the sink's column on a
    neighbour table), as :func:`warnsdorff_walk` takes them. Plain NumPy, not a kernel.

    >>> m, x, y = move_rows(np.array([5, 6, 7]), np.array([1, 2, 3]), np.zeros(3, int),
    ...                     np.array([[2, 0, 1]]), 0)
    >>> m.tolist(), x.tolist()
    ([[7, 5, 6, 0, 0, 0, 0, 0]], [[3, 1, 2, 0, 0, 0, 0, 0]])
    """
    nsched, nreal = orders.shape
    width = max(8, -(-nreal // 8) * 8)
    rows = np.full((nsched, width), nowhere, dtype=np.int64)
    rx = np.zeros((nsched, width), dtype=np.int64)
    ry = np.zeros((nsched, width), dtype=np.int64)
    rows[:, :nreal] = np.asarray(moves, dtype=np.int64)[orders]
    if len(dxs):
        rx[:, :nreal] = np.asarray(dxs, dtype=np.int64)[orders]
        ry[:, :nreal] = np.asarray(dys, dtype=np.int64)[orders]
    return rows, rx, ry


#: Slots of the int64 ``state`` of :func:`warnsdorff_walk`: squares visited (0: not begun), the
#: current cell, the schedule row in charge, the random generator's state.
_COUNT, _CUR, _SCHED, _RNG = 0, 1, 2, 3
#: Length of that ``state`` array.
STATE_SIZE = 4

#: A cell of the walk's array that is blocked or visited (free cells hold their onward count).
TAKEN = 0x80
#: Added to the end cell's onward count (at most 48 moves: it stays below :data:`TAKEN`).
_END_BIAS = 0x40

_MASK32 = 0xFFFFFFFF

#: Work (squares times walks) above which the compiled kernels are used.
COMPILE_THRESHOLD = 50_000

#: The tie-break codes of :func:`warnsdorff_walk` (the one place they are written).
TB_FIRST, TB_CENTER, TB_RANDOM, TB_LOOKAHEAD = 0, 1, 2, 3
#: Tie-break name -> code; ``squirrel`` is ``first`` over a schedule of move orders.
TIEBREAK_CODES: dict[str, int] = {
    "first": TB_FIRST,
    "center": TB_CENTER,
    "random": TB_RANDOM,
    "lookahead": TB_LOOKAHEAD,
    "squirrel": TB_FIRST,
}


def flat_cells(
    width: int, height: int, pad: int, dxs: np.ndarray, dys: np.ndarray, holes: np.ndarray
) -> np.ndarray:
    """The walk's cells of a board ``width`` x ``height`` inside a border ``pad`` wide (padded
    index ``(y + pad) * (width + 2 * pad) + x + pad``): each free cell's onward count, else
    :data:`TAKEN` (the border and the ``holes``, padded indices). ``dxs``, ``dys``: the moves.

    Cells farther than ``pad`` from every edge have every move: only the edges are counted, and
    the rest is filled, about as fast as clearing memory.
    """
    pw = width + 2 * pad
    ph = height + 2 * pad
    nm = dxs.size
    # one pass over memory: the border rows, then each rank with its border cells
    cells = np.empty(pw * ph, dtype=np.uint8)
    cells[: pad * pw] = TAKEN
    cells[(pad + height) * pw :] = TAKEN
    for y in range(height):
        row = (y + pad) * pw + pad
        cells[row - pad : row] = TAKEN
        cells[row + width : row + width + pad] = TAKEN
        inner = pad <= y < height - pad
        x = 0
        while x < width:
            if inner and x == pad and width - pad > pad:
                cells[row + pad : row + width - pad] = nm
                x = width - pad
                continue
            d = 0
            for k in range(nm):
                tx = x + dxs[k]
                ty = y + dys[k]
                if 0 <= tx < width and 0 <= ty < height:
                    d += 1
            cells[row + x] = d
            x += 1
    offsets = np.empty(nm, dtype=np.int64)
    for k in range(nm):
        offsets[k] = dys[k] * pw + dxs[k]
    for i in range(holes.size):
        cells[holes[i]] = TAKEN
    for i in range(holes.size):
        h = holes[i]
        for k in range(nm):
            q = h + offsets[k]
            if cells[q] < TAKEN:
                cells[q] -= 1
    return cells


def table_cells(nbr: np.ndarray, blocked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The walk's cells and moves on a neighbour table (``nbr``: -1 for no move).

    Returns the cells (one more than the squares: the last, always taken, is the sink where
    every missing move leads) and the table of moves with each -1 replaced by the sink and one
    more column that always leads there (the walk's moves come in rows of 8: short rows are
    filled up with that column).
    """
    n, k = nbr.shape
    cells = np.full(n + 1, TAKEN, dtype=np.uint8)
    table = np.full((n + 1, k + 1), n, dtype=np.int64)
    for p in range(n):
        for j in range(k):
            q = nbr[p, j]
            if q >= 0:
                table[p, j] = q
    for p in range(n):
        if blocked[p]:
            continue
        d = 0
        for j in range(k):
            q = table[p, j]
            if q < n and not blocked[q]:
                d += 1
        cells[p] = d
    return cells, table


def warnsdorff_walk(
    cells: np.ndarray,
    moves: np.ndarray,
    table: np.ndarray,
    dxs: np.ndarray,
    dys: np.ndarray,
    key: np.ndarray,
    nreal: int,
    switch_cells: np.ndarray,
    start: int,
    end: int,
    n_squares: int,
    tiebreak: int | np.int64,
    seed: int | np.int64,
    pwidth: int,
    pad: int,
    width: int,
    height: int,
    out: np.ndarray,
    st: np.ndarray,
    limit: int,
) -> int:
    """Walk by Warnsdorff's rule from cell ``start`` until ``limit`` squares are visited in
    all; returns the squares visited so far: fewer than ``limit`` (and ``n_squares``) when the
    walk is stuck.

    ``cells`` (:func:`flat_cells` or :func:`table_cells`) is consumed in place. ``moves`` holds
    one row per move order of the schedule, each a multiple of 8 long (:func:`move_rows`), its
    first ``nreal`` entries the moves in that order and the rest moves that lead nowhere. On a
    flat board ``table`` is empty, a move is an offset between padded cells, and ``dxs``,
    ``dys`` (rows like ``moves``) are its steps on the board; on a neighbour table a move is a
    column of ``table`` and ``key[q]`` is how far square ``q`` lies from the centre. Row ``j``
    of the schedule rules until the walk lands on cell ``switch_cells[j]``, then the next row
    whose cell is still unvisited takes over (a cell of -1 is never reached; one row is a fixed
    order, several are Squirrel & Cull's switching orders). Among the candidates of fewest
    onward moves, the tie-break picks: ``first`` in order, ``center`` farthest from the centre
    (Roth), ``random`` uniformly (reservoir sampling, seeded), ``lookahead`` the smallest sum of
    its unvisited neighbours' onward counts (Warnsdorff's double look-ahead, after Pohl 1967),
    then first in order. When ``end >= 0`` that cell is kept for the last move. ``out``
    receives board indices (``y * width + x``) in visit order.

    ``st`` (int64, :data:`STATE_SIZE`, zeros to begin a walk) holds where the walk is, so that
    the next call goes on from there: a caller that looks at the clock walks in steps, each
    call with a larger ``limit``; a whole walk is one call with ``limit = n_squares``.

    The end cell carries :data:`_END_BIAS` on its onward count, so that it is chosen only when
    it is the sole candidate: then the walk is over (the last move) or stuck, as if it had been
    left out. The candidates of a step are scanned 8 at a time in a loop that runs at least
    once (the compiler unrolls it: the knight's walk is one pass).
    """
    flat = table.shape[0] == 0
    nm = moves.shape[1]
    cx = width - 1
    cy = height - 1
    nsched = switch_cells.size
    if st[_COUNT] == 0:
        # xorshift32 on plain ints: the same numbers compiled or interpreted, on every platform
        state = (seed * 2654435761 + 0x6D2B79F5) & _MASK32
        if state == 0:
            state = 1
        cur = start
        count = 1
        sched = 0
        cells[cur] = TAKEN
        if end >= 0:
            cells[end] += _END_BIAS
    else:
        count = st[_COUNT]
        cur = st[_CUR]
        sched = st[_SCHED]
        state = st[_RNG]
    # the current square's board coordinates (flat boards: kept up to date move by move)
    x = cur % pwidth - pad
    y = cur // pwidth - pad
    if count == 1:
        out[0] = y * width + x if flat else cur
    if limit > n_squares:
        limit = n_squares
    cand = np.empty(nm, dtype=np.int64)
    cand_j = np.empty(nm, dtype=np.int64)
    stuck = False
    while count < limit and not stuck:
        # one stretch of the walk under one move order: its rows stay put (in registers)
        mrow = moves[sched]
        xrow = dxs[sched]
        yrow = dys[sched]
        switch = switch_cells[sched] if sched + 1 < nsched else -1
        while count < limit:
            best = -1
            bj = 0
            bd = np.int64(1 << 30)
            bkey = np.int64(-1)
            nties = 0
            ncand = 0
            j0 = 0
            while True:
                for j in range(j0, j0 + 8):
                    q = cur + mrow[j] if flat else table[cur, mrow[j]]
                    c = cells[q]
                    if c >= TAKEN:
                        continue
                    c -= 1
                    cells[q] = c
                    d = np.int64(c)
                    if tiebreak == TB_CENTER:
                        if d <= bd:
                            if flat:
                                kx = 2 * (x + xrow[j]) - cx
                                ky = 2 * (y + yrow[j]) - cy
                                kq = kx * kx + ky * ky
                            else:
                                kq = key[q]
                            if d < bd or kq > bkey:
                                bd = d
                                bkey = kq
                                best = q
                                bj = j
                    elif tiebreak == TB_FIRST or tiebreak == TB_LOOKAHEAD:  # noqa: SIM109 (Numba)
                        if d < bd:
                            bd = d
                            best = q
                            bj = j
                        if tiebreak == TB_LOOKAHEAD:
                            cand[ncand] = q
                            cand_j[ncand] = j
                            ncand += 1
                    else:
                        if d < bd:
                            bd = d
                            best = q
                            bj = j
                            nties = 1
                        elif d == bd:
                            nties += 1
                            state ^= (state << 13) & _MASK32
                            state ^= state >> 17
                            state ^= (state << 5) & _MASK32
                            # unsigned (a signed remainder pays for Python's sign rule; the
                            # same number here) and branch-free: the draw is a coin that a
                            # branch predictor cannot learn
                            take = np.uint32(state) % np.uint32(nties) == 0
                            best = q if take else best
                            bj = j if take else bj
                j0 += 8
                if j0 >= nm:
                    break
            if best < 0 or (best == end and count < n_squares - 1):
                # no way on; or the end square is the only one, before the last move
                stuck = True
                break
            if tiebreak == TB_LOOKAHEAD:
                bsum = np.int64(1 << 30)
                for i in range(ncand):
                    q = cand[i]
                    if cells[q] != bd:
                        continue
                    s = np.int64(0)
                    for k in range(nreal):
                        r2 = q + mrow[k] if flat else table[q, mrow[k]]
                        c = cells[r2]
                        if c < TAKEN:
                            s += np.int64(c) if r2 != end else np.int64(c) - _END_BIAS
                    if s < bsum:
                        bsum = s
                        best = q
                        bj = cand_j[i]
            cur = best
            cells[cur] = TAKEN
            if flat:
                x += xrow[bj]
                y += yrow[bj]
                out[count] = y * width + x
            else:
                out[count] = cur
            count += 1
            if cur == switch:
                sched += 1
                while (
                    sched + 1 < nsched
                    and switch_cells[sched] >= 0
                    and cells[switch_cells[sched]] >= TAKEN
                ):
                    sched += 1
                break
    st[_COUNT] = count
    st[_CUR] = cur
    st[_SCHED] = sched
    st[_RNG] = state
    return count


def visit(q: int, nbr: np.ndarray, vis: np.ndarray, deg: np.ndarray, on: int) -> None:
    """A depth-first search steps onto square ``q`` (``on`` 1) or back off it (``on`` 0):
    ``vis[q] = on``, and each neighbour of ``q`` (``nbr``: a neighbour table, -1 for no move)
    has one unvisited neighbour fewer (``deg``, the onward counts of Warnsdorff's rule), or
    one more again.

    >>> nbr, vis, deg = np.array([[1, -1], [0, -1]]), np.zeros(2, np.uint8), np.ones(2, int)
    >>> visit(0, nbr, vis, deg, 1); vis.tolist(), deg.tolist()
    ([1, 0], [1, 0])
    """
    vis[q] = on
    step = 1 - 2 * on
    for k in range(nbr.shape[1]):
        r = nbr[q, k]
        if r >= 0:
            deg[r] += step


def image_index(i: int, k: int, d: int, n: int, closed: bool) -> int:
    """Where square ``i`` of an image of a tour of ``n`` squares is read from in the tour: walked
    forwards (``d`` 0) or backwards (``d`` 1), and a closed tour's image started from its square
    ``k`` (the canonical forms of the library and the enumerator's least images).

    >>> image_index(0, 0, 1, 5, False), image_index(1, 3, 0, 5, True), image_index(4, 3, 1, 5, True)
    (4, 4, 4)
    """
    if closed:
        idx = k + i if d == 0 else k - i
        if idx >= n:
            idx -= n
        elif idx < 0:
            idx += n
        return idx
    return i if d == 0 else n - 1 - i


# -- validation -------------------------------------------------------------------------------


def tour_check(
    seq: np.ndarray,
    lo: int,
    hi: int,
    width: int,
    area: int,
    holes: np.ndarray,
    dx_of: np.ndarray,
    legs: np.ndarray,
    seen: np.ndarray,
    bits: bool,
) -> bool:
    """Whether ``seq[lo:hi]`` (and the move into it from ``seq[lo - 1]``) lies on the board, off
    the ``holes`` (a flag a square, or empty), visits no square of ``seen`` (so none twice) and
    moves by a leaper's move; marks ``seen`` (a flag a square, or with ``bits`` a bit a square,
    least significant first: 8 times less memory to touch, for one thread).

    A move ``d = q - p`` of a board ``width`` wide is ``dy * width + dx``; when the board is
    wider than twice the longer leg, ``d`` alone tells ``dx`` (``dx_of[d + span]``, 0 for no
    move, ``span = len(dx_of) // 2``), and the file is carried along move by move: no division.
    Narrower boards divide. ``legs`` is the leaper ``(a, b)``. Two halves checked at once share
    ``seen`` and may both miss a square they both visit: the caller counts ``seen`` then.
    """
    nh = holes.size
    span = dx_of.size // 2
    a = legs[0]
    b = legs[1]
    narrow = width <= 2 * b
    start = lo - 1 if lo > 0 else lo
    p = seq[start]
    if p < 0 or p >= area or (nh > 0 and holes[p]):
        return False
    if start == lo:
        if bits:
            if seen[p >> 3] & (1 << (p & 7)):
                return False
            seen[p >> 3] |= 1 << (p & 7)
        else:
            if seen[p]:
                return False
            seen[p] = 1
    x = p % width
    for i in range(start + 1, hi):
        q = seq[i]
        if q < 0 or q >= area or (nh > 0 and holes[q]):
            return False
        if bits:
            byte = q >> 3
            bit = 1 << (q & 7)
            if seen[byte] & bit:
                return False
            seen[byte] |= bit
        else:
            if seen[q]:
                return False
            seen[q] = 1
        d = q - p
        if narrow:
            nx = q % width
            ax = abs(nx - x)
            ay = abs(q // width - p // width)
            if not ((ax == a and ay == b) or (ax == b and ay == a)):
                return False
            x = nx
        else:
            if d < -span or d > span:
                return False
            dx = dx_of[d + span]
            x += dx
            if dx == 0 or x < 0 or x >= width:
                return False
        p = q
    return True
