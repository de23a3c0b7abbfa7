"""The kernel of the quad and quarter passes: a depth-first walk over tours made of quads (or
runs) of the 4 x 4 blocks.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit` (no Numba import here). :mod:`knightstour.magic.quads` and
:mod:`knightstour.magic.quarters` drive it; the quarter pass walks runs, any knight path of four
squares inside a block, with cuts of its own (:func:`walk`).

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
    "line_open", "sum_open", "offsets_open", "parity_open", "lines_open", "place", "still_open",
    "walk",
)  # fmt: skip

#: Kernels compiled into :func:`walk` (:mod:`knightstour.kernels.jit`): each runs once or
#: twice a node, and a call would take and give back a reference to each of its arrays.
__inline__ = ("place", "still_open")

#: Rows of the walk's ``held`` array (:func:`place`), each indexed by line (the ranks from the
#: front, the files from the back, ``-1 - x``), by block row then block column, or by block:
#: the sums of the lines' numbers; two counts a line, the pass's own (the quad pass: the
#: squares filled and their offsets, their places 1 ... 4 in their quads; the quarter pass: the
#: empty squares of the odd numbers' colour and of the other); the sums of j of the block rows
#: and columns; their units placed; each block's empty squares (bits ``4 y + x``).
SUMS, FILLED, OFFSETS, BLOCK_J, PLACED, EMPTY = 0, 1, 2, 3, 4, 5
ODD, EVEN = FILLED, OFFSETS

#: Slots of the walk's ``meta`` array: the depth of the walk (-1: not begun), the nodes placed,
#: the tours found, the rows written into ``out`` by the last call.
DEPTH, NODES, FOUND, WRITTEN = 0, 1, 2, 3
#: Length of ``meta``.
META = 4
#: What :func:`walk` returns: the walk is over; it stopped (budget or stop flag); ``out`` is
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


def lines_open(held: np.ndarray, lo: int, n: int, width: int, height: int) -> bool:
    """Whether every rank and file can still reach its constant (:func:`parity_open`): ``held``
    as the quarter pass keeps it (:func:`place`)."""
    rank_const = width * (n + 1) // 2
    file_const = height * (n + 1) // 2
    for i in range(height + width):
        const = rank_const if i < height else file_const
        if not parity_open(held[SUMS, i], held[ODD, i], held[EVEN, i], lo, n, const):
            return False
    return True


def place(
    tables: tuple, u: int, depth: int, sign: int, held: np.ndarray, cover: np.ndarray | None,
) -> None:  # fmt: skip
    """Place (``sign`` 1) or take back (-1) unit ``u`` numbered at ``depth`` (4 depth + 1 ...)
    in ``held`` (its rows: :data:`SUMS` ...; the other arguments: :func:`walk`'s)."""
    units, block, mask, width, height = tables[0], tables[1], tables[2], tables[5], tables[6]
    bw = width // 4
    b = block[u]
    r = b // bw
    c = height // 4 + b % bw
    held[BLOCK_J, r] += sign * depth
    held[PLACED, r] += sign
    held[BLOCK_J, c] += sign * depth
    held[PLACED, c] += sign
    held[EMPTY, b] ^= mask[u]
    for k in range(4):
        s = units[u, k]
        v = 4 * depth + k + 1
        y = s // width
        x = s - y * width
        held[SUMS, y] += sign * v
        held[SUMS, -1 - x] += sign * v
        if cover is None:
            held[FILLED, y] += sign
            held[FILLED, -1 - x] += sign
            held[OFFSETS, y] += sign * (k + 1)
            held[OFFSETS, -1 - x] += sign * (k + 1)
        else:  # a knight's move changes colour: v and 1 are on one colour when v is odd
            side = ODD if v % 2 else EVEN
            held[side, y] -= sign
            held[side, -1 - x] -= sign


def still_open(
    tables: tuple, q: int, depth: int, held: np.ndarray, cover: np.ndarray | None,
    need: np.ndarray,
) -> bool:  # fmt: skip
    """Whether the tours that go on from unit ``q``, placed at ``depth``, can still be
    semi-magic (the cuts of the module's docstring; :func:`walk` for the quarter pass's):
    ``held`` as :func:`place` keeps it; ``need``: a work array of 4."""
    units, block, width, height, targets = tables[0], tables[1], tables[5], tables[6], tables[7]
    n = width * height
    nq = n // 4
    bw = width // 4
    bh = height // 4
    b = block[q]
    if cover is not None and cover[held[EMPTY, b]] == 0:
        return False  # its block's empty squares cannot be cut into runs
    # every block row (and column) must still reach its sum of j: its units to come take
    # distinct depths after this one
    for i in range(bh + bw):
        units_in = 4 * bw if i < bh else 4 * bh
        if not sum_open(held[BLOCK_J, i], units_in - held[PLACED, i], depth, nq, targets[i]):
            return False
    if cover is not None:
        return lines_open(held, 4 * depth + 5, n, width, height)
    rank_const = width * (n + 1) // 2
    file_const = height * (n + 1) // 2
    for k in range(4):
        s = units[q, k]
        y = s // width
        x = s - y * width
        if not line_open(held[SUMS, y], width - held[FILLED, y], depth, nq, rank_const):
            return False
        if not line_open(held[SUMS, -1 - x], height - held[FILLED, -1 - x], depth, nq, file_const):
            return False
    # the offsets the four ranks of its block row, and the four files of its block column,
    # still need from the quads to come there
    r = b // bw
    c = b % bw
    for k in range(4):
        need[k] = 10 * bw - held[OFFSETS, 4 * r + k]
    if not offsets_open(need, 4 * bw - held[PLACED, r]):
        return False
    for k in range(4):
        need[k] = 10 * bh - held[OFFSETS, -1 - (4 * c + k)]
    return offsets_open(need, 4 * bh - held[PLACED, bh + c])


def walk(
    tables: tuple,
    cover: np.ndarray | None,
    first: int,
    base: int,
    seq: np.ndarray,
    it: np.ndarray,
    meta: np.ndarray,
    budget: int,
    stop: np.ndarray,
    out: np.ndarray,
) -> int:
    """Walk the tours that begin with unit ``first``: write each semi-magic one into the next
    row of ``out`` (its squares in visiting order).

    ``tables``: ``(units, block, mask, succ, nsucc, width, height, targets)``. ``units[u]``: the
    four squares of unit u in order, a knight path inside block ``block[u]`` (``y * (width //
    4) + x`` of the blocks), ``mask[u]`` its squares as bits ``4 y + x`` of its block;
    ``succ[s, i]``: the units whose first square is a move from square s, the first
    ``nsucc[s]`` of them. ``targets``: the sum of j each block row, then each block column,
    must reach. ``seq`` (the unit of each depth), ``it`` (the next option to try at each depth)
    and ``meta`` (:data:`META`, its depth -1 to begin) hold the walk, so that a call goes on
    where the last stopped; with ``base`` > 0, ``seq[: base + 1]`` is placed and kept (the walk
    of the tours below that prefix: for checks), else ``first`` alone. Returns :data:`DONE`,
    :data:`STOPPED` (``budget`` nodes more, or ``stop[0]`` set) or :data:`FULL`.

    ``cover`` None: the quad pass, its units quads, its cuts the module docstring's. Else the
    quarter pass, ``cover[m]``: whether the squares ``m`` of a block can be cut into knight
    paths of four. A branch is cut when a block's empty squares cannot be cut into runs, when a
    block row (or column) can no longer give its runs the sum of j its lines need
    (:func:`sum_open`: every run of a block row adds 16 j + 10 to its four ranks together,
    whatever its path), or when a rank or file can no longer reach its constant with the
    numbers still to place, odd and even apart (:func:`lines_open`; the odd numbers lie on the
    colour of the first square).
    """
    units, block, mask, succ, nsucc, width, height = tables[:7]
    n = width * height
    nq = n // 4
    bw = width // 4
    bh = height // 4
    held = np.zeros((EMPTY + 1, max(height + width, bw * bh)), dtype=np.int64)
    if cover is not None:  # every square of every line empty, of the odd numbers' colour or not
        odd = (units[first, 0] % width + units[first, 0] // width) % 2
        for s in range(n):
            y = s // width
            x = s - y * width
            side = ODD if (x + y) % 2 == odd else EVEN
            held[side, y] += 1
            held[side, -1 - x] += 1
    held[EMPTY, : bw * bh] = 0xFFFF
    need = np.zeros(4, dtype=np.int64)
    meta[WRITTEN] = 0
    depth = meta[DEPTH]
    if depth == -2:  # walked to its end already
        return DONE
    fresh = depth < 0
    if fresh:  # begin: the first unit (and the prefix kept), then its successors
        seq[0] = first
        depth = base
    # the placed units, added up again (a call may go on from a stopped walk)
    for d in range(depth + 1):
        place(tables, seq[d], d, 1, held, cover)
    spent = 0
    while True:
        if fresh:
            fresh = False
        else:
            # the next option at depth + 1, or back up
            nxt = depth + 1
            last = units[seq[depth], 3]
            placed = False
            while it[nxt] < nsucc[last]:
                q = succ[last, it[nxt]]
                it[nxt] += 1
                if held[EMPTY, block[q]] & mask[q] == mask[q]:
                    placed = True
                    break
            if not placed:  # every option at depth + 1 tried: take back the unit at depth
                if depth == base:
                    meta[DEPTH] = -2  # over
                    return DONE
                place(tables, seq[depth], depth, -1, held, cover)
                depth -= 1
                meta[DEPTH] = depth
                continue
            depth = nxt
            seq[depth] = q
            place(tables, q, depth, 1, held, cover)
            meta[NODES] += 1
            spent += 1
        q = seq[depth]
        ok = still_open(tables, q, depth, held, cover, need)
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
        else:  # take this unit back; the loop tries the next option at this depth
            if depth == base:
                meta[DEPTH] = -2
                return DONE
            place(tables, q, depth, -1, held, cover)
            depth -= 1
            meta[DEPTH] = depth
        if meta[WRITTEN] == out.shape[0]:
            return FULL
        if spent >= budget or stop[0]:
            return STOPPED
