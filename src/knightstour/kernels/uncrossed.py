"""Compiled steps of the longest uncrossed path: a max-plus frontier sweep that remembers moves.

Plain Python in the subset that Numba compiles, loaded through
:func:`knightstour.kernels.jit.load` by :mod:`knightstour.counting.uncrossed`, which builds the
plan these kernels read (docs/geometry.md, *The longest uncrossed path*, describes the method).

The squares are taken one at a time in the sweep's order; a move is decided when its later
square is taken. A state before step ``t`` is three words:

- words 0 and 1: a 4-bit code for each square of the frontier (taken squares that still have
  an untaken neighbour): ``EMPTY`` (no move yet), ``FULL`` (two moves), ``TAIL`` (one move, and
  the other end of its piece is an end of the whole path, gone from the frontier), or a label
  from ``FIRST`` up shared by the two ends of a piece;
- word 2: one bit for each *live* move (a move already decided that crosses some move still to
  be decided): whether the path uses it.

Each state keeps the most moves of any partial path that reaches it (max-plus), the state it
came from and the moves it took at the step (``choice``: one bit a backward move of the square),
so that one optimal path is walked back from the best finished one.

>>> import numpy as np
>>> codes = np.zeros(32, dtype=np.int64)
>>> codes[0], codes[1], codes[2] = FIRST + 7, FULL, FIRST + 7
>>> canonical(codes, 3)
True
>>> codes[:3].tolist()
[3, 1, 3]
>>> pack(codes, 3, np.uint64(5), np.zeros(3, dtype=np.uint64))[0]
np.uint64(787)
"""

from __future__ import annotations

import numpy as np

__kernels__ = (
    "canonical",
    "compact",
    "expand",
    "mix3",
    "no_ends",
    "pack",
    "partner",
    "probe",
    "put",
    "rehash",
    "tails",
)
__inline__ = ("mix3", "no_ends", "partner", "probe", "put", "tails")

EMPTY = 0
FULL = 1
TAIL = 2
FIRST = 3
#: The highest label a 4-bit code holds.
LAST = 15
_FRESH = 100  # a new piece's label before the labels are put in order

_SENTINEL = np.uint64(0xFFFFFFFFFFFFFFFF)


def canonical(codes, n):  # type: ignore[no-untyped-def]
    """Relabel the pieces of ``codes[:n]`` from ``FIRST`` up in order of first appearance.

    False when there are more pieces than a 4-bit code has labels for.
    """
    seen = np.full(_FRESH + 1, -1, dtype=np.int64)
    nxt = FIRST
    for i in range(n):
        c = codes[i]
        if c >= FIRST:
            if seen[c] < 0:
                if nxt > LAST:
                    return False
                seen[c] = nxt
                nxt += 1
            codes[i] = seen[c]
    return True


def pack(codes, n, live, out):  # type: ignore[no-untyped-def]
    """The three words of a state: ``codes[:n]`` four bits each, then the live moves."""
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    for i in range(n):
        c = np.uint64(codes[i])
        if i < 16:
            w0 |= c << np.uint64(4 * i)
        else:
            w1 |= c << np.uint64(4 * (i - 16))
    out[0] = w0
    out[1] = w1
    out[2] = live
    return out


def mix3(a, b, c):  # type: ignore[no-untyped-def]
    h = a * np.uint64(0x9E3779B97F4A7C15)
    h ^= (b + (h >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= (c + (h >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(32))


def probe(tkeys, key):  # type: ignore[no-untyped-def]
    """The row of ``key`` in the open-addressing table ``tkeys`` (its own or the empty one it
    would take); the table's size is a power of two."""
    mask = np.uint64(tkeys.shape[0] - 1)
    h = np.int64(mix3(key[0], key[1], key[2]) & mask)
    while True:
        k0 = tkeys[h, 0]
        if k0 == _SENTINEL:
            return h
        if k0 == key[0] and tkeys[h, 1] == key[1] and tkeys[h, 2] == key[2]:
            return h
        h = np.int64((np.uint64(h) + np.uint64(1)) & mask)


def put(tkeys, tvals, tpred, tchoice, used, key, value, pred, choice):  # type: ignore[no-untyped-def]
    h = probe(tkeys, key)
    if tkeys[h, 0] == _SENTINEL:
        tkeys[h, 0] = key[0]
        tkeys[h, 1] = key[1]
        tkeys[h, 2] = key[2]
        tvals[h] = value
        tpred[h] = pred
        tchoice[h] = choice
        return used + 1
    if value > tvals[h]:
        tvals[h] = value
        tpred[h] = pred
        tchoice[h] = choice
    return used


def no_ends(codes, n, skip1, skip2):  # type: ignore[no-untyped-def]
    """True when no square of ``codes[:n]`` but ``skip1`` and ``skip2`` is a piece's end."""
    for i in range(n):  # noqa: SIM110 (a loop Numba compiles)
        if i != skip1 and i != skip2 and codes[i] >= TAIL:
            return False
    return True


def partner(codes, n, i):  # type: ignore[no-untyped-def]
    """The other end of the piece whose end is ``codes[i]`` (a label)."""
    c = codes[i]
    for j in range(n):
        if j != i and codes[j] == c:
            return j
    return -1


def tails(codes, n):  # type: ignore[no-untyped-def]
    m = 0
    for i in range(n):
        if codes[i] == TAIL:
            m += 1
    return m


def expand(  # type: ignore[no-untyped-def]
    keys,
    vals,
    n,
    start,
    limit,
    step,
    nf,
    nb,
    back_slot,
    back_cross,
    fmap,
    nf_next,
    leave,
    nleave,
    lmap,
    nl_next,
    closed,
    tkeys,
    tvals,
    tpred,
    tchoice,
    used,
    best,
):
    """Take the square of step ``step`` for states ``start..n-1`` into the table of the next step.

    ``nf``: squares of the frontier before the step (the new square takes slot ``nf``);
    ``back_slot[k]``, ``back_cross[k]``: the frontier slot where backward move ``k`` of the new
    square ends and the live moves it crosses; ``fmap``: the slot (before, or ``nf``) each slot
    after the step comes from; ``leave``: the slots that leave the frontier after the step;
    ``lmap[j]``: where live move ``j`` after the step comes from (``>= 0``: the live move of
    that number before, ``-1 - k``: backward move ``k`` of the new square). A finished path or
    cycle that beats ``best[0]`` is written into ``best`` (moves, step, state, choice).

    Returns ``(next, used)``: ``next < n`` when the table reached ``limit`` rows (grow it and
    call again from ``next``: taking a state twice changes nothing).
    """
    codes = np.zeros(40, dtype=np.int64)
    work = np.zeros(40, dtype=np.int64)
    out = np.zeros(40, dtype=np.int64)
    key = np.zeros(3, dtype=np.uint64)
    for i in range(start, n):
        if used >= limit:
            return i, used
        w0 = keys[i, 0]
        w1 = keys[i, 1]
        live = keys[i, 2]
        for s in range(nf):
            if s < 16:
                codes[s] = np.int64((w0 >> np.uint64(4 * s)) & np.uint64(15))
            else:
                codes[s] = np.int64((w1 >> np.uint64(4 * (s - 16))) & np.uint64(15))
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
                if k1 >= 0 and (codes[back_slot[k1]] == FULL or (live & back_cross[k1]) != 0):
                    continue
                if k2 >= 0 and (codes[back_slot[k2]] == FULL or (live & back_cross[k2]) != 0):
                    continue
                for s in range(nf):
                    work[s] = codes[s]
                choice = 0
                added = 0
                finished = False
                dead = False
                if k1 < 0:
                    work[nf] = EMPTY
                elif k2 < 0:
                    choice = 1 << k1
                    added = 1
                    p = back_slot[k1]
                    if work[p] == EMPTY:
                        work[p] = _FRESH
                        work[nf] = _FRESH
                    else:
                        work[nf] = work[p]
                        work[p] = FULL
                else:
                    choice = (1 << k1) | (1 << k2)
                    added = 2
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
                if not finished:
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
                total = value + added
                if finished:
                    if total > best[0]:
                        best[0] = total
                        best[1] = step
                        best[2] = i
                        best[3] = choice
                    continue
                for j in range(nf_next):
                    out[j] = work[fmap[j]]
                if not canonical(out, nf_next):
                    best[4] = 1  # more pieces than labels: the plan promised it cannot happen
                    continue
                nlive = np.uint64(0)
                for j in range(nl_next):
                    src = lmap[j]
                    if src >= 0:
                        bit = (live >> np.uint64(src)) & np.uint64(1)
                    else:
                        kk = -1 - src
                        bit = np.uint64(1) if (choice >> kk) & 1 else np.uint64(0)
                    nlive |= bit << np.uint64(j)
                pack(out, nf_next, nlive, key)
                used = put(tkeys, tvals, tpred, tchoice, used, key, total, i, choice)
    return n, used


def rehash(tkeys, tvals, tpred, tchoice, nkeys, nvals, npred, nchoice):  # type: ignore[no-untyped-def]
    """Move every row of one table into a bigger, empty one."""
    for h in range(tkeys.shape[0]):
        if tkeys[h, 0] != _SENTINEL:
            g = probe(nkeys, tkeys[h])
            nkeys[g, :] = tkeys[h, :]
            nvals[g] = tvals[h]
            npred[g] = tpred[h]
            nchoice[g] = tchoice[h]


def compact(tkeys, tvals, tpred, tchoice, keys, vals, pred, choice):  # type: ignore[no-untyped-def]
    """The table's rows, in table order, into dense arrays; returns how many."""
    m = 0
    for h in range(tkeys.shape[0]):
        if tkeys[h, 0] != _SENTINEL:
            keys[m, :] = tkeys[h, :]
            vals[m] = tvals[h]
            pred[m] = tpred[h]
            choice[m] = tchoice[h]
            m += 1
    return m
