"""The kernels of the start passes of the semi-magic search: a one-ended walk on bit boards.

Plain Python in the subset Numba compiles, listed in ``__kernels__`` and loaded through
:mod:`knightstour.kernels.jit`; :mod:`knightstour.magic.starts` drives them. A board has at most
64 squares, so a set of squares is one 64-bit word (bit ``q`` for square ``q``).

1 is put on a start square and 2, 3, ... each a knight move from the last (the *head*); the
square of the last number is wherever the walk ends, except the squares the board's end mask
bans. The colour of a square fixes the parity of its number. The cuts, each plainly safe (a
branch is cut only when it has no completion):

- **links**: an empty square's links are its neighbours that are empty or the head. An empty
  square with one link can only be the end, so at most one may have one, none may have none,
  and the end must be a square the end mask allows (the last number's colour, not banned);
- **forced moves**: a neighbour of the head with two links becomes an end unless the walk goes
  there now: with an end already known, or where it may not end, it must come next; three such
  squares, or two with an end known, end the branch;
- **line sums**: a rank or file with ``a`` empty squares for odd numbers and ``b`` for even ones
  must still reach its constant with numbers above the head's, no two of them consecutive (a
  knight never moves within a rank or a file), each at least the head's number plus the knight
  distance from the head to the line: ``thr[a, b, need]`` is the largest first number from
  which such numbers can add up to as little as ``need``, ``most[a, b]`` the most they can add
  up to (tables made once a board, :func:`knightstour.magic.starts.line_tables`);
- **closed tours** (``meta[CLOSED]``): the end must be a neighbour of the start, so one of them
  must stay empty until the end.

The bit boards. Each depth keeps a row of ``bits`` (:data:`E`, :data:`P0`... and the line
words from :data:`ML`), written when its number is placed, so that taking a number off restores
nothing but its lines' sums:

- the empty squares, and their links as four bit planes (a square's count in binary, one plane a
  bit): the head's move takes one link from each empty neighbour of the old head at once (a
  subtraction with borrow across the planes), and the squares with one link, with two, with
  none are a few operations on the planes;
- each line's largest first number (``thr``, at most ``CAP``) plus one, one byte a line, seven
  lines a word: with ``kq[q]`` holding ``127`` less the knight distance from ``q`` to each
  line, a byte of ``word + kq[q] - v`` below 128 is a line that numbers from ``v`` up cannot
  fill, tested for seven lines at once (no byte carries or borrows: with ``v`` below the last
  number, the only time the test runs, and every distance at most ``n - 1``, which the walker
  checks, every byte stays in 0..255).

The candidates come fewest links first, ties in increasing square order (the order of the
neighbour table), the same order, the same cuts and so the same tree as the walk on arrays that
came before (scheme ``starts/1``).

>>> popcount(0b1011), int(ctz(0b1000)), popcount(-1)
(3, 3, 64)
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("line_byte", "fill", "place", "unplace", "candidates", "walk", "probe")
#: Compiled into the kernels that call them (see :mod:`knightstour.kernels.magic_search`).
__inline__ = ("line_byte", "fill", "place", "unplace", "candidates")
#: Compiled without reference counting: the walk makes no array, and reads many out of tuples.
__borrow__ = ("walk",)
#: Replaced by the processor's instructions when compiled (:mod:`knightstour.kernels.jit`).
__intrinsics__ = ("popcount", "ctz")

#: Statuses of :func:`walk`: the part is finished; the budget ran out (or a stop was asked); the
#: output is full.
DONE, BUDGET, FULL = 0, 1, 2

#: Slots of the int64 ``meta`` array: the depth (the index of the head in ``placed``), the
#: depth the part starts from, nodes tried, tours found, tours written by the last call, closed
#: tours only (1).
DEPTH, BASE, NODES, FOUND, WRITTEN, CLOSED = 0, 1, 2, 3, 4, 5
META = 6

#: Columns of a row of ``bits``: the empty squares, the four planes of their links (bit 0 to 3
#: of each count), then the line words.
E, P0, P1, P2, P3, ML = 0, 1, 2, 3, 4, 5
#: Lines a line word holds (a byte each; the top byte stays 0, so no word overflows).
PER_WORD = 7
#: The largest first number a line byte holds (``thr`` above it cuts no more than it does).
CAP = 127
#: Bit 0 as an int64 (a plain 1 << 63 would be 2**63 when interpreted, not a 64-bit word).
ONE = np.int64(1)
#: Seven bytes of 1, and their top bits.
ONES = 0x01010101010101
HIGH = 0x80808080808080
#: The end mask, and the start's neighbours (closed tours), in the board's ``masks``.
ENDS, RING = 0, 1

#: The board's arrays as one tuple ``board`` (made once a start): each square's neighbours as a
#: mask, each square's rank and file (files numbered on from the ranks), what a number on each
#: square takes from its lines' index of squares (``top`` for an odd number, 1 for an even
#: one), the two masks (:data:`ENDS`, :data:`RING`), the line bytes (``lb[a * top + b, need]``:
#: a line's byte when it needs ``need`` from ``a`` odd and ``b`` even numbers, made from
#: ``thr``), ``most`` by the same index, each square's distance bytes
#: (``127 - distance`` to each line, :data:`PER_WORD` a word), and where each square's two
#: lines sit among the line words (word, shift, word, shift).
BOARD = ("nbm", "lines", "step", "masks", "lb", "most", "kq", "qpos")
#: The walk's arrays as one tuple ``state``: the bit boards of each depth, each line as one word
#: (:func:`line_word`), the square of each number (``placed[d]`` holds d + 1), the candidates
#: at each depth (their number, the next to try), and ``meta``.
STATE = ("bits", "line", "placed", "cand", "ncand", "ci", "meta")
#: Where :data:`STATE`'s arrays sit in the tuple.
BITS, LINE, PLACED, CAND, NCAND, CI, METAS = range(7)
#: A line word: what the line still needs (plus :data:`OFFSET`) above its 8 low bits, the
#: index ``a * top + b`` of its ``a`` empty squares for odd and ``b`` for even numbers in them.
OFFSET = 1 << 12


def popcount(x: int) -> int:
    """The set bits of the 64-bit word ``x`` (compiled: one instruction)."""
    return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


def ctz(x: int) -> np.int64:
    """The index of the lowest set bit of ``x`` (not 0; compiled: one instruction)."""
    x = int(x) & 0xFFFFFFFFFFFFFFFF
    return np.int64((x & -x).bit_length() - 1)  # an int64, as compiled: 1 << it stays in 64 bits


def line_byte(lb: np.ndarray, ab: int, need: int) -> int:
    """A line's byte (``lb``, see :data:`BOARD`) when it needs ``need`` more from the squares
    of index ``ab``: 0 when it needs less than nothing."""
    return lb[ab, need] if need >= 0 else 0


def line_word(need: int, ab: int) -> int:
    """A line's word (:data:`STATE`'s ``line``): it needs ``need`` more from the squares of
    index ``ab`` (``a * top + b``).

    >>> w = line_word(200, 7)
    >>> (w >> 8) - OFFSET, w & 255
    (200, 7)
    """
    return ((need + OFFSET) << 8) | ab


def place(q: int, d: int, board: tuple, state: tuple, fill_next: bool = False) -> bool:
    """Put the next number (``d + 2``) on the empty square ``q``, a move from the head
    ``placed[d]``, and write the bit boards of depth ``d + 1`` (and its candidates with
    ``fill_next``); False when a cut ends the branch there (nothing the walk reads changed:
    the row of depth ``d + 1`` is free until the number stays).

    Squares are masked to 0..63 and lines to 0..31 (what a board of the start passes has) so
    that the compiler knows them not negative, and checks no index for wrapping around."""
    nbm, lines, step, masks, lb, most, kq, qpos = board
    bits, line, placed, meta = state[0], state[1], state[2], state[6]
    n = placed.size
    v = d + 2
    q = q & 63
    l0 = lines[q, 0] & 31
    l1 = lines[q, 1] & 31
    take = (v << 8) + step[q]
    y0 = line[l0] - take
    y1 = line[l1] - take
    need0 = (y0 >> 8) - OFFSET
    need1 = (y1 >> 8) - OFFSET
    ab0 = y0 & 255
    ab1 = y1 & 255
    if v < n and (need0 > most[ab0] or need1 > most[ab1]):
        return False
    # the line words of depth d + 1 (a row past the depth is free until the number stays)
    r = d + 1
    w0 = qpos[q, 0]
    s0 = qpos[q, 1]
    w1 = qpos[q, 2]
    s1 = qpos[q, 3]
    x0 = line_byte(lb, ab0, need0)
    x1 = line_byte(lb, ab1, need1)
    vv = v * ONES
    for j in range(bits.shape[1] - ML):
        w = bits[d, ML + j]
        if j == w0:
            w = (w & ~(255 << s0)) | (x0 << s0)
        if j == w1:
            w = (w & ~(255 << s1)) | (x1 << s1)
        bits[r, ML + j] = w
        # every line: the least its numbers can add up to, from v + its distance from q
        if v < n and ((w + kq[q, j] - vv) & HIGH) != HIGH:
            return False
    # the links: each empty neighbour of the old head loses one
    e = bits[d, E] & ~(ONE << q)
    m = nbm[placed[d] & 63] & e
    p0 = bits[d, P0]
    p1 = bits[d, P1]
    p2 = bits[d, P2]
    n0 = p0 ^ m
    borrow = m & ~p0
    n1 = p1 ^ borrow
    borrow &= ~p1
    n2 = p2 ^ borrow
    borrow &= ~p2
    n3 = bits[d, P3] ^ borrow
    high = n1 | n2 | n3
    one = e & n0 & ~high
    if (one & m & ~masks[ENDS]) != 0:
        return False  # a square left with one link where the walk may not end
    if v < n and (
        (e & ~(n0 | high)) != 0
        or popcount(one) > 1
        or (meta[CLOSED] == 1 and (e & masks[RING]) == 0)
    ):
        return False
    line[l0] = y0
    line[l1] = y1
    bits[r, E] = e
    bits[r, P0] = n0
    bits[r, P1] = n1
    bits[r, P2] = n2
    bits[r, P3] = n3
    if fill_next:
        fill(r, q, e, n0, n1, n2, n3, board, state)
    return True


def unplace(q: int, d: int, board: tuple, state: tuple) -> None:
    """Take the number ``d + 2`` off ``q``: its lines as before (the bit boards of depth ``d``
    are still in their row)."""
    lines, step, line = board[1], board[2], state[1]
    q = q & 63
    take = ((d + 2) << 8) + step[q]
    line[lines[q, 0] & 31] += take
    line[lines[q, 1] & 31] += take


def candidates(d: int, board: tuple, state: tuple) -> None:
    """Fill level ``d`` with the squares the walk may take after ``placed[d]``: fewest links
    first (ties in square order), or the one forced move."""
    bits, placed = state[0], state[2]
    fill(d, placed[d], bits[d, E], bits[d, P0], bits[d, P1], bits[d, P2], bits[d, P3], board,
         state)  # fmt: skip


def fill(
    d: int, h: int, e: int, p0: int, p1: int, p2: int, p3: int, board: tuple, state: tuple
) -> None:
    """:func:`candidates` of depth ``d`` from its head ``h``, empty squares ``e`` and link
    planes ``p0`` to ``p3`` as they are (:func:`place` has them at hand)."""
    nbm, masks = board[0], board[3]
    placed, cand, ncand, ci = state[2], state[3], state[4], state[5]
    free = placed.size - 1 - d
    ci[d] = 0
    ncand[d] = 0
    if free == 0:
        return
    c = nbm[h & 63] & e
    if free == 1:
        c &= masks[ENDS]
        if c != 0:
            cand[d, 0] = ctz(c)
            ncand[d] = 1
        return
    one = e & p0 & ~(p1 | p2 | p3)
    two = ~p0 & p1 & ~(p2 | p3)
    low = popcount(one)
    c &= ~one  # a square with one link is the end: only the last number goes there
    t = c & two
    nt = popcount(t)
    f = t if low == 1 else t & ~masks[ENDS]  # each must come next, or be the end
    nf = popcount(f)
    if nf > 1:
        return
    if nf == 1:
        if low + nt - 1 <= 1:
            cand[d, 0] = ctz(f)
            ncand[d] = 1
        return
    if nt >= 3:
        return
    k = 0
    while t != 0:
        r = ctz(t)
        cand[d, k] = r
        k += 1
        t ^= ONE << r
    if nt == 2:  # one of the two comes next, the other is the end
        ncand[d] = 2
        return
    rest = c & ~two
    a = 3
    while rest != 0:  # by links, 3 up
        m = rest & (p0 if a & 1 else ~p0) & (p1 if a & 2 else ~p1) & (p2 if a & 4 else ~p2)
        m &= p3 if a & 8 else ~p3
        rest ^= m
        while m != 0:
            r = ctz(m)
            cand[d, k] = r
            k += 1
            m ^= ONE << r
        a += 1
    ncand[d] = k


def walk(
    board: tuple, state: tuple, budget: int, stop: np.ndarray, split: int, out: np.ndarray
) -> int:
    """Walk on from ``state`` until the part is done (:data:`DONE`), ``budget`` nodes were tried
    or ``stop[0]`` was set (:data:`BUDGET`), or ``out`` is full (:data:`FULL`).

    Each tour found is written to the next row of ``out`` as its squares in order. With ``split``
    above the part's depth, the walk writes instead the squares placed when the head reaches
    that depth (the prefixes of the parts below), and goes no deeper.
    """
    placed, cand, ncand, ci, meta = state[2], state[3], state[4], state[5], state[6]
    n = placed.size
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
            if not place(q, d, board, state, True):
                continue
            d += 1
            placed[d] = q
            if d == n - 1 or d == split:
                w = meta[WRITTEN]
                if w >= out.shape[0]:
                    d -= 1
                    unplace(q, d, board, state)
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
                unplace(q, d, board, state)
                continue
        else:
            if d == base:
                meta[DEPTH] = d
                meta[NODES] += nodes
                return DONE
            q = placed[d]
            d -= 1
            unplace(q, d, board, state)


def probe(board: tuple, state: tuple, seed: int, probes: int, out: np.ndarray) -> None:
    """Knuth's estimate of the walk below ``state``: ``out[i]`` the nodes the i-th of ``probes``
    random descents estimates (the candidates tried at each depth times the product of the
    branchings above, each a count of the candidates that pass the cuts). The state is left as
    it was."""
    placed, cand, ncand, meta = state[2], state[3], state[4], state[6]
    np.random.seed(seed)
    n = placed.size
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
            for i in range(ncand[d]):
                q = cand[d, i]
                if place(q, d, board, state):
                    good[g] = q
                    g += 1
                    unplace(q, d, board, state)
            if g == 0 or d + 1 == n - 1:
                break
            q = good[np.random.randint(g)]
            weight *= g
            place(q, d, board, state)
            d += 1
            placed[d] = q
        out[p] = total
        while d > base:
            q = placed[d]
            d -= 1
            unplace(q, d, board, state)
        candidates(base, board, state)
