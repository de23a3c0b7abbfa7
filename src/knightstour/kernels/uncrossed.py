"""Compiled steps of the longest uncrossed path: a max-plus frontier sweep that remembers moves.

Plain Python in the subset that Numba compiles, loaded through
:func:`knightstour.kernels.jit.load` by :mod:`knightstour.counting.uncrossed`, which builds the
plan these kernels read (docs/geometry.md, *The longest uncrossed path*, describes the method).

The squares are taken one at a time in the sweep's order; a move is decided when its later
square is taken. A state before step ``t`` is two words, a stream of bits:

- a 4-bit code for each square of the frontier (taken squares that still have an untaken
  neighbour): ``EMPTY`` (no move yet), ``FULL`` (can take no more moves: two moves, or every
  move still to come to it is blocked), ``TAIL`` (one move, and the other end of its piece is
  an end of the whole path, gone from the frontier), or a label from ``FIRST`` up shared by the
  two ends of a piece;
- then one bit for each *pending* move (a move still to be decided that some move already
  decided crosses, and whose taken square is not full): whether a move of the path crosses it,
  so that it can no longer be taken.

Each state keeps the most moves of any partial path that reaches it (max-plus), the state it
came from and the moves it took at the step (``choice``: one bit a backward move of the square),
so that one optimal path is walked back from the best finished one.

>>> import numpy as np
>>> codes = np.zeros(32, dtype=np.int64)
>>> codes[0], codes[1], codes[2] = FIRST + 7, FULL, FIRST + 7
>>> relabel(codes, 3, np.full(_FRESH + 1, -1, dtype=np.int64))
True
>>> codes[:3].tolist()
[3, 1, 3]
>>> key = pack(codes, 3, np.uint64(5), np.zeros(2, dtype=np.uint64))
>>> int(key[0]), int(key[1])
(21267, 0)
>>> blocked_of(key, 3, 3)
np.uint64(5)
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "blocked_of",
    "compact",
    "expand",
    "mix2",
    "no_ends",
    "pack",
    "partner",
    "probe",
    "put",
    "put_at",
    "rehash",
    "relabel",
    "tails",
)
__inline__ = (
    "blocked_of", "mix2", "no_ends", "partner", "probe", "put", "put_at", "relabel", "tails",
)  # fmt: skip
__intrinsics__ = ("prefetch",)

EMPTY = 0
FULL = 1
TAIL = 2
FIRST = 3
#: The highest label a 4-bit code holds.
LAST = 15
_FRESH = 100  # a new piece's label before the labels are put in order

_SENTINEL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: How many new states wait while their table rows are prefetched (a power of two).
AHEAD = 16
#: The bit of a choice that says the state kept is the mirror image of the one the choice made.
MIRRORED = 128
#: A table row is three words: the key's two, then ``pred << META_PRED | moves << 8 | choice``
#: (moves below 2^24, the state before below 2^32: a step's states are numbered in int32), so
#: that a probe touches one row.
META_PRED = 32
#: The moves' field of that word (24 bits: the sweep refuses boards of :data:`MAX_MOVES` squares).
MOVES = np.uint64(0xFFFFFF)
#: Boards of this many squares or more would overflow the moves' field.
MAX_MOVES = 1 << 24


def relabel(codes: np.ndarray, n: int, seen: np.ndarray) -> bool:
    """Relabel the pieces of ``codes[:n]`` from ``FIRST`` up in order of first appearance.

    False when there are more pieces than a 4-bit code has labels for. ``seen`` (``_FRESH + 1``
    entries, all -1) is its work, left all -1 again, so that the hot loop allocates nothing.
    """
    nxt = FIRST
    ok = True
    for i in range(n):
        c = codes[i]
        if c >= FIRST:
            if seen[c] < 0:
                if nxt > LAST:
                    ok = False
                    break
                seen[c] = nxt
                nxt += 1
            codes[i] = seen[c]
    for c in range(FIRST, LAST + 1):  # a state's labels, and a new piece's
        seen[c] = -1
    seen[_FRESH] = -1
    return ok


def pack(codes: np.ndarray, n: int, blocked: np.uint64, out: np.ndarray) -> np.ndarray:
    """The two words of a state: ``codes[:n]`` four bits each, then the pending moves' bits."""
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    for i in range(n):
        c = np.uint64(codes[i])
        if i < 16:
            w0 |= c << np.uint64(4 * i)
        else:
            w1 |= c << np.uint64(4 * (i - 16))
    at = 4 * n
    if at >= 64:
        w1 |= blocked << np.uint64(at - 64)
    elif at == 0:
        w0 = blocked
    else:
        w0 |= blocked << np.uint64(at)
        w1 |= blocked >> np.uint64(64 - at)
    out[0] = w0
    out[1] = w1
    return out


def blocked_of(key: np.ndarray, n: int, npend: int) -> np.uint64:
    """The pending moves' bits of a state of ``n`` frontier squares and ``npend`` pending moves."""
    at = 4 * n
    if at >= 64:
        b = key[1] >> np.uint64(at - 64)
    elif at == 0:
        b = key[0]
    else:
        b = (key[0] >> np.uint64(at)) | (key[1] << np.uint64(64 - at))
    if npend < 64:
        b &= (np.uint64(1) << np.uint64(npend)) - np.uint64(1)
    return b


def mix2(a: np.uint64, b: np.uint64) -> np.uint64:
    h = a * np.uint64(0x9E3779B97F4A7C15)
    h ^= (b + (h >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    h *= np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(32))


def probe(tkeys: np.ndarray, key: np.ndarray) -> np.int64:
    """The row of ``key`` in the open-addressing table ``tkeys`` (its own or the empty one it
    would take); the table's size is a power of two, a row's first two words its key."""
    mask = np.uint64(tkeys.shape[0] - 1)
    h = np.int64(mix2(key[0], key[1]) & mask)
    while True:
        k0 = tkeys[h, 0]
        if k0 == _SENTINEL:
            return h
        if k0 == key[0] and tkeys[h, 1] == key[1]:
            return h
        h = np.int64((np.uint64(h) + np.uint64(1)) & mask)


def prefetch(table, row):  # type: ignore[no-untyped-def]
    """Ask for ``table[row]`` to be brought into the cache (compiled: an LLVM prefetch)."""


def put_at(tab: np.ndarray, used: int, k0: np.uint64, k1: np.uint64, h: np.int64,
           meta: np.uint64) -> int:  # fmt: skip
    """:func:`put` of the key ``(k0, k1)`` whose probe starts at row ``h`` (its hash's), with
    its ``meta`` word made: the insert that waited while its row was prefetched."""
    mask = np.int64(tab.shape[0] - 1)
    while True:
        r0 = tab[h, 0]
        if r0 == _SENTINEL:
            tab[h, 0] = k0
            tab[h, 1] = k1
            tab[h, 2] = meta
            return used + 1
        if r0 == k0 and tab[h, 1] == k1:
            if (meta >> np.uint64(8)) & MOVES > (tab[h, 2] >> np.uint64(8)) & MOVES:
                tab[h, 2] = meta
            return used
        h = (h + 1) & mask


def put(tab: np.ndarray, used: int, key: np.ndarray, value: int, pred: int, choice: int) -> int:
    """Keep ``key`` with ``value`` moves (the most of any partial path reaching it), the state
    it came from and its choice: a new row, or a better value for a row there (max-plus)."""
    h = probe(tab, key)
    meta = np.uint64(pred) << np.uint64(META_PRED) | np.uint64(value) << np.uint64(8)
    meta |= np.uint64(choice)
    if tab[h, 0] == _SENTINEL:
        tab[h, 0] = key[0]
        tab[h, 1] = key[1]
        tab[h, 2] = meta
        return used + 1
    if value > np.int64((tab[h, 2] >> np.uint64(8)) & MOVES):
        tab[h, 2] = meta
    return used


def no_ends(codes: np.ndarray, n: int, skip1: int, skip2: int) -> bool:
    """True when no square of ``codes[:n]`` but ``skip1`` and ``skip2`` is a piece's end."""
    for i in range(n):  # noqa: SIM110 (a loop Numba compiles)
        if i != skip1 and i != skip2 and codes[i] >= TAIL:
            return False
    return True


def partner(codes: np.ndarray, n: int, i: int) -> int:
    """The other end of the piece whose end is ``codes[i]`` (a label)."""
    c = codes[i]
    for j in range(n):
        if j != i and codes[j] == c:
            return j
    return -1


def tails(codes: np.ndarray, n: int) -> int:
    m = 0
    for i in range(n):
        if codes[i] == TAIL:
            m += 1
    return m


def expand(
    keys: np.ndarray,
    vals: np.ndarray,
    n: int,
    start: int,
    limit: int,
    step: int,
    nf: int,
    nb: int,
    back_slot: np.ndarray,
    back_bit: np.ndarray,
    npend: int,
    pmap: np.ndarray,
    pcross: np.ndarray,
    pmask: np.ndarray,
    stuckable: np.ndarray,
    fmap: np.ndarray,
    leave: np.ndarray,
    closed: bool,
    forest: bool,
    floor: int,
    rest: int,
    mirror_slot: np.ndarray,
    mirror_pending: np.ndarray,
    tab: np.ndarray,
    used: int,
    best: np.ndarray,
) -> tuple[int, int]:
    """Take the square of step ``step`` for states ``start..n-1`` into the table of the next step.

    ``nf``: squares of the frontier before the step (the new square takes slot ``nf``);
    ``back_slot[k]``, ``back_bit[k]``: the frontier slot where backward move ``k`` of the new
    square ends and its pending bit (0 when no move decided crosses it); ``npend``: the pending
    moves before the step; ``pmap[j]``: where pending move ``j`` after the step comes from (its
    number before, or -1: new); ``pcross[k]``: the pending moves after the step that backward
    move ``k`` crosses; ``pmask[j]``: the pending moves of frontier slot ``j`` after the step;
    ``stuckable[j]``: every move still to come to that slot is pending (so the slot can take no
    more moves when all of them are blocked); ``fmap``: the slot (before, or ``nf``) each slot
    after the step comes from; ``leave``: the slots that leave the frontier after the step.

    ``forest``: the relaxation that bounds the rest of a board: any set of moves, no two
    crossing, at most two at a square (pieces and cycles alike: a code is the number of moves,
    ``FULL`` for two), ``best[0]`` the most moves of any state.

    Branch and bound: a state after the step whose moves plus ``rest`` (at most as many moves
    as the steps after it can add) is no more than ``floor`` (a length already known to be
    reached) or than ``best[0]`` is dropped. A finished path or cycle that beats ``best[0]``
    is written into ``best`` (moves, step, state, choice).

    ``mirror_slot``, ``mirror_pending`` (empty but after a step that ends a line, on a board with
    no holes): the slot and the pending move of each one's mirror image. A new state is then
    kept as the least of itself and its mirror image, and its choice gets bit :data:`MIRRORED`
    when that is the image (the walk back mirrors the moves before it).

    Returns ``(next, used)``: ``next < n`` when the table reached ``limit`` rows (grow it and
    call again from ``next``: taking a state twice changes nothing).
    """
    nf_next = fmap.shape[0]
    np_next = pmap.shape[0]
    nleave = leave.shape[0]
    codes = np.zeros(40, dtype=np.int64)
    work = np.zeros(40, dtype=np.int64)
    out = np.zeros(40, dtype=np.int64)
    image = np.zeros(40, dtype=np.int64)
    seen = np.full(_FRESH + 1, -1, dtype=np.int64)
    # new states wait in a ring while their table rows are prefetched (AHEAD of them at most)
    ring_k0 = np.zeros(AHEAD, dtype=np.uint64)
    ring_k1 = np.zeros(AHEAD, dtype=np.uint64)
    ring_meta = np.zeros(AHEAD, dtype=np.uint64)
    ring_h = np.zeros(AHEAD, dtype=np.int64)
    waiting = 0  # states in the ring
    head = 0  # the ring's next free place
    rmask = np.uint64(tab.shape[0] - 1)
    key = np.zeros(2, dtype=np.uint64)
    key2 = np.zeros(2, dtype=np.uint64)
    mirrored = mirror_slot.shape[0] > 0
    for i in range(start, n):
        if used >= limit:
            for _ in range(waiting):  # the states of the states before i, all added
                q = (head - waiting) & (AHEAD - 1)
                used = put_at(tab, used, ring_k0[q], ring_k1[q], ring_h[q], ring_meta[q])
                waiting -= 1
            return i, used
        w0 = keys[i, 0]
        w1 = keys[i, 1]
        for s in range(nf):
            if s < 16:
                codes[s] = np.int64((w0 >> np.uint64(4 * s)) & np.uint64(15))
            else:
                codes[s] = np.int64((w1 >> np.uint64(4 * (s - 16))) & np.uint64(15))
        blk = blocked_of(keys[i], nf, npend)
        kept = np.uint64(0)  # the pending bits that stay pending, renumbered
        for j in range(np_next):
            src = pmap[j]
            if src >= 0 and (blk >> np.uint64(src)) & np.uint64(1):
                kept |= np.uint64(1) << np.uint64(j)
        value = vals[i]
        # every subset of at most two backward moves of the new square
        for a in range(-1, nb):
            for b in range(a, nb):
                if a == -1 and b != -1:
                    continue  # the empty choice is (a, b) = (-1, -1) only
                if a >= 0 and b == a:
                    k1 = a
                    k2 = -1
                elif a == -1:
                    k1 = -1
                    k2 = -1
                else:
                    k1 = a
                    k2 = b
                if k1 >= 0 and (codes[back_slot[k1]] == FULL or (blk & back_bit[k1]) != 0):
                    continue
                if k2 >= 0 and (codes[back_slot[k2]] == FULL or (blk & back_bit[k2]) != 0):
                    continue
                total = value + (0 if k1 < 0 else 1) + (0 if k2 < 0 else 1)
                if total + rest <= floor or total + rest <= best[0]:
                    continue  # cannot beat a length already reached
                for s in range(nf):
                    work[s] = codes[s]
                choice = 0
                finished = False
                dead = False
                nblk = kept
                if forest:
                    work[nf] = EMPTY
                    for kk in range(2):
                        k = k1 if kk == 0 else k2
                        if k >= 0:
                            choice |= 1 << k
                            nblk |= pcross[k]
                            p = back_slot[k]
                            work[p] = TAIL if work[p] == EMPTY else FULL
                            work[nf] = TAIL if work[nf] == EMPTY else FULL
                    for j in range(nf_next):
                        out[j] = work[fmap[j]]
                        if out[j] != FULL and stuckable[j] and (nblk & pmask[j]) == pmask[j]:
                            out[j] = FULL
                    if total > best[0]:
                        best[0] = total
                elif k1 < 0:
                    work[nf] = EMPTY
                elif k2 < 0:
                    choice = 1 << k1
                    nblk |= pcross[k1]
                    p = back_slot[k1]
                    if work[p] == EMPTY:
                        work[p] = _FRESH
                        work[nf] = _FRESH
                    else:
                        work[nf] = work[p]
                        work[p] = FULL
                else:
                    choice = (1 << k1) | (1 << k2)
                    nblk |= pcross[k1] | pcross[k2]
                    p = back_slot[k1]
                    q = back_slot[k2]
                    cp = work[p]
                    cq = work[q]
                    work[nf] = FULL
                    if cp == EMPTY and cq == EMPTY:
                        work[p] = _FRESH
                        work[q] = _FRESH
                    elif cp == EMPTY:
                        work[p] = cq
                        work[q] = FULL
                    elif cq == EMPTY:
                        work[q] = cp
                        work[p] = FULL
                    elif cp == cq and cp >= FIRST:
                        # the two ends of one piece: a cycle
                        if closed and no_ends(work, nf, p, q):
                            finished = True
                        else:
                            dead = True
                    elif cp == TAIL and cq == TAIL:
                        # two pieces each with a path end: the whole path
                        if (not closed) and no_ends(work, nf, p, q):
                            finished = True
                        else:
                            dead = True
                    else:
                        if cp == TAIL:
                            r = partner(work, nf, q)
                            work[r] = TAIL
                        elif cq == TAIL:
                            r = partner(work, nf, p)
                            work[r] = TAIL
                        else:
                            r = partner(work, nf, q)
                            work[r] = cp
                        work[p] = FULL
                        work[q] = FULL
                if dead:
                    continue
                if not (finished or forest):
                    # the squares that leave the frontier
                    for j in range(nleave):
                        s = leave[j]
                        c = work[s]
                        if c <= FULL:  # EMPTY or FULL
                            continue
                        if closed:
                            dead = True
                            break
                        if c == TAIL:
                            # this end was the last end of its piece: the whole path
                            if no_ends(work, nf + 1, s, -1):
                                finished = True
                            else:
                                dead = True
                            break
                        r = partner(work, nf + 1, s)
                        work[r] = TAIL
                        work[s] = EMPTY
                        if tails(work, nf + 1) > 2:
                            dead = True
                            break
                if dead:
                    continue
                if not (finished or forest):
                    for j in range(nf_next):
                        out[j] = work[fmap[j]]
                    # the squares that can take no more move: full, and an end of a piece
                    # there is an end of the whole path (as if it had left the frontier)
                    changed = True
                    while changed and not (dead or finished):
                        changed = False
                        for j in range(nf_next):
                            c = out[j]
                            if c == FULL or not stuckable[j] or (nblk & pmask[j]) != pmask[j]:
                                continue
                            changed = True
                            r = partner(out, nf_next, j) if c >= FIRST else -1
                            out[j] = FULL
                            if c == EMPTY:
                                continue
                            if closed:
                                dead = True
                                break
                            if c == TAIL:
                                if no_ends(out, nf_next, j, -1):
                                    finished = True
                                else:
                                    dead = True
                                break
                            out[r] = TAIL
                            if tails(out, nf_next) > 2:
                                dead = True
                                break
                if dead:
                    continue
                if finished:
                    if total > best[0]:
                        best[0] = total
                        best[1] = step
                        best[2] = i
                        best[3] = choice
                    continue
                if not relabel(out, nf_next, seen):
                    best[4] = 1  # more pieces than labels: the plan promised it cannot happen
                    continue
                for j in range(nf_next):
                    if out[j] == FULL:
                        nblk &= ~pmask[j]  # a full square's moves need no bits
                pack(out, nf_next, nblk, key)
                if mirrored:
                    for j in range(nf_next):
                        image[j] = out[mirror_slot[j]]
                    relabel(image, nf_next, seen)
                    iblk = np.uint64(0)
                    for j in range(np_next):
                        if (nblk >> np.uint64(mirror_pending[j])) & np.uint64(1):
                            iblk |= np.uint64(1) << np.uint64(j)
                    pack(image, nf_next, iblk, key2)
                    if key2[1] < key[1] or (key2[1] == key[1] and key2[0] < key[0]):
                        key[0] = key2[0]
                        key[1] = key2[1]
                        choice |= MIRRORED
                if waiting == AHEAD:  # the oldest, its row asked for AHEAD states ago
                    q = (head - AHEAD) & (AHEAD - 1)
                    used = put_at(tab, used, ring_k0[q], ring_k1[q], ring_h[q], ring_meta[q])
                    waiting -= 1
                h = np.int64(mix2(key[0], key[1]) & rmask)
                prefetch(tab, h)
                ring_k0[head] = key[0]
                ring_k1[head] = key[1]
                ring_h[head] = h
                meta = np.uint64(i) << np.uint64(META_PRED) | np.uint64(total) << np.uint64(8)
                ring_meta[head] = meta | np.uint64(choice)
                head = (head + 1) & (AHEAD - 1)
                waiting += 1
    for _ in range(waiting):
        q = (head - waiting) & (AHEAD - 1)
        used = put_at(tab, used, ring_k0[q], ring_k1[q], ring_h[q], ring_meta[q])
        waiting -= 1
    return n, used


def rehash(tab: np.ndarray, bigger: np.ndarray) -> None:
    """Move every row of one table into a bigger, empty one."""
    for h in range(tab.shape[0]):
        if tab[h, 0] != _SENTINEL:
            g = probe(bigger, tab[h])
            bigger[g, 0] = tab[h, 0]
            bigger[g, 1] = tab[h, 1]
            bigger[g, 2] = tab[h, 2]


def compact(
    tab: np.ndarray, keys: np.ndarray, vals: np.ndarray, pred: np.ndarray, choice: np.ndarray
) -> int:
    """The table's rows, in table order, into dense arrays; returns how many."""
    m = 0
    for h in range(tab.shape[0]):
        if tab[h, 0] != _SENTINEL:
            keys[m, 0] = tab[h, 0]
            keys[m, 1] = tab[h, 1]
            meta = tab[h, 2]
            vals[m] = np.int32((meta >> np.uint64(8)) & MOVES)
            pred[m] = np.int32(meta >> np.uint64(META_PRED))
            choice[m] = np.uint8(meta & np.uint64(0xFF))
            m += 1
    return m
