"""Kernels of the frontier dynamic program (plain Python in the subset Numba compiles).

The sweep visits the squares in order. After square ``i`` the state holds, for each of the last
``B`` squares (``B`` the longest move in sweep order), one digit:

- ``EMPTY`` (0): no tour move touches the square yet;
- ``DONE`` (1): the square needs no more moves (two of them, or it left the frontier, or it is a
  hole, or it is a required end that has its one move);
- ``TERM`` (2): one move so far, and the other end of its piece of path is an end of the tour;
- a label (3 and up): one move so far, and the other end of its piece is the square with the same
  label.

Labels are renumbered in order of first appearance, so equal frontiers have equal keys. The key
packs the digits in base ``radix`` (16 for shifts when ``B`` <= 15), with the number of free tour
ends used so far as the top digit. Counts are exact: ``K`` 64-bit limbs a state, added with carry;
a carry out of the top limb is reported, and the caller widens the counts and runs the step again.

A step takes every state through square ``i``: choose which of the moves back to earlier squares
of the frontier the tour uses (none, one or two), join the pieces, then let the squares whose last
move has been decided leave the frontier (each must be ``DONE``, or become one of the tour's two
free ends). A piece whose two ends are both tour ends (or a closed cycle) is a whole tour: it is
counted if every square is covered, and the state ends there.
"""

from __future__ import annotations

import numpy as np

#: Functions the loader replaces by compiler intrinsics when it compiles (no-ops here).
__intrinsics__ = ("prefetch",)

#: Kernels compiled into their callers (:mod:`knightstour.kernels.jit`): ``successors`` runs
#: once per state, and a call would take and give back a reference to each of its arrays.
__inline__ = ("successors",)

#: Kernels compiled without reference counting of their arrays (they make none): a count
#: taken and given back on every state costs more than the state's own work.
__borrow__ = (
    "expand_to", "successors", "pack", "mirror_key", "decode", "apply_edge", "_finish", "leave",
    "all_done", "move_code", "shard_of", "add_wide",
)  # fmt: skip

#: How many new states wait for their table rows to arrive in the cache before they are added.
BATCH = 64
#: How many states ahead :func:`insert_rows` prefetches the table row of the state it will add
#: (a power of two).
AHEAD = 16

__kernels__ = (
    "_finish",
    "split",
    "compact",
    "decode",
    "hash_slot",
    "add_into",
    "insert",
    "insert_at",
    "apply_edge",
    "leave",
    "all_done",
    "pack",
    "mirror_key",
    "successors",
    "move_code",
    "_scratch",
    "fill_limit",
    "_into",
    "expand",
    "expand_links",
    "link",
    "merge",
    "shard_of",
    "join_moves",
    "mix",
    "table_slot",
    "add_wide",
    "put",
    "expand_to",
    "insert_rows",
    "rehash",
    "owners",
)

#: The fields of a square's step, the one tuple the kernels take a square by, in order: the
#: sweep's, then the square's (:func:`expand` says what each holds).
STEP = (
    "width", "radix", "powers", "free_ends", "closed", "final", "back", "nback", "cap",
    "caps_window", "leaving", "nleave", "signs", "remain", "ahead", "rest", "spare",
)  # fmt: skip

EMPTY = 0
DONE = 1
TERM = 2
FIRST_LABEL = 3

# outcomes of apply_edge and leave
OK = 0
DEAD = 1
WHOLE = 2  # a path between two tour ends, covering the frontier
CYCLE = 3

_SENTINEL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NO_CHECK = -(1 << 40)  # rest: the colour check is off


def decode(key, width, radix, slots):  # type: ignore[no-untyped-def]
    """Unpack ``key`` into ``slots[1..width]`` (slot k is the square k before the new one).

    Returns the number of free tour ends used (the top digit). ``slots[0]`` is left alone.
    """
    k = key
    if radix == 16:
        for d in range(width):
            slots[d + 1] = np.int64(k & np.uint64(15))
            k = k >> np.uint64(4)
    else:
        r = np.uint64(radix)
        for d in range(width):
            slots[d + 1] = np.int64(k % r)
            k = k // r
    return np.int64(k)


def mix(key):  # type: ignore[no-untyped-def]
    """``key``'s bits mixed (a multiply-shift hash) for the tables' slots."""
    h = key ^ (key >> np.uint64(31))
    h = h * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(29))


def hash_slot(key, mask):  # type: ignore[no-untyped-def]
    """Where ``key`` starts probing in a table of ``mask + 1`` slots (a power of two)."""
    return np.int64(mix(key) & np.uint64(mask))


def table_slot(key, size):  # type: ignore[no-untyped-def]
    """Where ``key`` starts probing in a table of ``size`` slots (any size): the mixed key
    scaled to the table, ``mix(key) * size >> 64``, so that the slots follow the mixed keys'
    order and a table grows in one pass that writes in order (:func:`rehash`)."""
    h = mix(key)
    n = np.uint64(size)
    if n >> np.uint64(32):  # 2**32 rows or more: the remainder (no such table is made here)
        return np.int64(h % n)
    low = (h & np.uint64(0xFFFFFFFF)) * n
    return np.int64(((h >> np.uint64(32)) * n + (low >> np.uint64(32))) >> np.uint64(32))


def shard_of(key, shards):  # type: ignore[no-untyped-def]
    """Which of ``shards`` parts a state belongs to (a hash independent of :func:`hash_slot`)."""
    h = key * np.uint64(0xD6E8FEB86659FD93)
    h = h ^ (h >> np.uint64(32))
    return np.int64(h % np.uint64(shards))


def add_into(dest, drow, src, srow, limbs):  # type: ignore[no-untyped-def]
    """``dest[drow] += src[srow]`` over ``limbs`` 64-bit limbs; True when it overflows."""
    carry = np.uint64(0)
    for j in range(limbs):
        a = dest[drow, j]
        b = src[srow, j]
        s = a + b
        c1 = s < a
        t = s + carry
        c2 = t < s
        dest[drow, j] = t
        carry = np.uint64(1) if (c1 or c2) else np.uint64(0)
    return carry != np.uint64(0)


def prefetch(table, row):  # type: ignore[no-untyped-def]
    """Ask for ``table[row]`` to be brought into the cache (compiled: an LLVM prefetch)."""


def insert(table, used, key, src, srow, limbs):  # type: ignore[no-untyped-def]
    """Add ``src[srow]`` to ``key``'s counts in the open-addressing ``table``.

    A row of the table is the key then its count limbs (one cache line for both). Returns
    ``(new_used, overflowed)``; the caller keeps the table under 3/4 full.
    """
    return insert_at(table, used, key, hash_slot(key, table.shape[0] - 1), src, srow, limbs)


def insert_at(table, used, key, h, src, srow, limbs):  # type: ignore[no-untyped-def]
    """:func:`insert` with the key's hash slot ``h`` already known."""
    mask = table.shape[0] - 1
    while True:
        k = table[h, 0]
        if k == key:
            carry = np.uint64(0)
            for j in range(limbs):
                a = table[h, j + 1]
                s = a + src[srow, j]
                c1 = s < a
                t = s + carry
                table[h, j + 1] = t
                carry = np.uint64(1) if (c1 or t < s) else np.uint64(0)
            return used, carry != np.uint64(0)
        if k == _SENTINEL:
            table[h, 0] = key
            for j in range(limbs):
                table[h, j + 1] = src[srow, j]
            return used + 1, False
        h = (h + 1) & mask


def apply_edge(slots, mate, caps, u, v, fresh):  # type: ignore[no-untyped-def]
    """Put the move between slots ``u`` and ``v`` into the tour (both are not ``DONE``).

    ``mate[k]``: for a labelled slot, the slot of its piece's other end (kept up to date here).
    ``caps[k]`` is 1 for a required tour end, else 2. ``fresh`` is an unused label.
    Returns OK, CYCLE (the move closes a cycle) or WHOLE (it joins two tour ends).
    """
    if slots[u] >= FIRST_LABEL and mate[u] == v:  # u and v end one piece: a cycle
        slots[u] = DONE
        slots[v] = DONE
        return CYCLE
    # each end takes one more move; the far end of its piece seen from the move: a slot, or -1
    # for a tour end. A piece end is then done (its far end: its mate, or a tour end for TERM);
    # an untouched square that is a required end is done and is that tour end, any other is
    # the far end itself
    xu = u
    xv = v
    for k in (u, v):
        a = slots[k]
        x = k
        if a != EMPTY:
            slots[k] = DONE
            x = -1 if a == TERM else mate[k]
        elif caps[k] == 1:
            slots[k] = DONE
            x = -1
        if k == u:
            xu = x
        else:
            xv = x
    if xu == -1 and xv == -1:
        return WHOLE
    if xu == -1:
        slots[xv] = TERM
    elif xv == -1:
        slots[xu] = TERM
    else:
        slots[xu] = fresh
        slots[xv] = fresh
        mate[xu] = xv
        mate[xv] = xu
    return OK


def all_done(slots, width):  # type: ignore[no-untyped-def]
    """True when every slot ``0..width`` is ``DONE``."""
    for m in range(width + 1):  # noqa: SIM110 (Numba compiles loops, not all())
        if slots[m] != DONE:
            return False
    return True


def leave(slots, mate, k, ends, free_ends):  # type: ignore[no-untyped-def]
    """Slot ``k``'s square has had its last move decided. Returns ``(outcome, ends)``.

    ``DONE`` stays; ``EMPTY`` is dead (a square no tour visits); a piece end becomes a free end
    of the tour if one is left: a label's partner becomes ``TERM``, and a ``TERM`` square makes
    the piece a whole tour (WHOLE).
    """
    v = slots[k]
    if v == DONE:
        return OK, ends
    if v == EMPTY or ends >= free_ends:
        return DEAD, ends
    if v == TERM:
        slots[k] = DONE
        return WHOLE, ends + 1
    slots[k] = DONE
    slots[mate[k]] = TERM
    return OK, ends + 1


def _finish(slots, mate, width, leaving, nleave, ends, free_ends, final):  # type: ignore[no-untyped-def]
    """After the moves of the new square: the leaving squares; OK/DEAD/WHOLE and the ends."""
    for q in range(nleave):
        outcome, ends = leave(slots, mate, leaving[q], ends, free_ends)
        if outcome == DEAD:
            return DEAD, ends
        if outcome == WHOLE:
            if final and all_done(slots, width):
                return WHOLE, ends
            return DEAD, ends
    if slots[width] != DONE:  # the oldest square drops out of the frontier now
        return DEAD, ends
    return OK, ends


def pack(
    slots,
    width,
    signs,
    caps,
    remain,
    ahead,
    rest,
    spare,
    free_left,
    ends,
    powers,
    label,
):  # type: ignore[no-untyped-def]
    """The key of ``slots[0..width-1]`` with ``ends``, or the sentinel when colours rule it out.

    One pass: labels renumbered in order of appearance (label v to ``label[v]``, a work array
    of ``radix + 2`` at least), digits packed with ``powers`` (radix**d), and the colour check
    of :func:`pack`.
    """
    d = rest if rest != _NO_CHECK else 0
    r = spare
    need = 0  # squares with one move left: each must be a free tour end
    open_slots = 0  # bit k: slot k can still take a move
    nxt = FIRST_LABEL
    key = np.uint64(ends) * powers[width]
    got = np.int64(0)  # bit v: label v seen in this pass (renumbered to label[v])
    # without branches: a slot's kind is as likely one as another, and mispredicted branches
    # cost more than the arithmetic of every kind
    for k in range(width):
        v = slots[k]
        empty = np.int64(v == EMPTY)
        piece = np.int64(v >= TERM)
        named = np.int64(v > TERM)
        open_slots |= np.int64(v != DONE) << k
        d += signs[k] * (2 * empty + piece)
        end = np.int64(caps[k] == 1)
        r += empty & end
        need += empty & (1 - end) & np.int64(remain[k] < 2)
        first = named & (1 - ((got >> v) & 1))
        got |= named << v
        was = label[v]
        now = was + first * (nxt - was)
        label[v] = now
        nxt += first
        key += np.uint64(v + named * (now - v)) * powers[k]
    # squares not swept yet with at most one move to a later square (ahead[j, 0]), not required
    # ends: they need the frontier squares they have moves to (bit mask ahead[j, 1]) to be open
    for j in range(ahead.shape[0]):
        m = ahead[j, 1] & open_slots
        if ahead[j, 0] == 0:
            if m == 0:
                return _SENTINEL
            if m & (m - 1) == 0:
                need += 1
        elif m == 0:
            need += 1
    if need > free_left:
        return _SENTINEL
    if d < 0:
        d = -d
    if rest != _NO_CHECK and (d > r or (r - d) % 2 != 0):
        return _SENTINEL
    return key


def mirror_key(key, width, radix, powers, mirror, digits, label):  # type: ignore[no-untyped-def]
    """The smaller of ``key`` and the key of its mirror image (slot ``d`` goes to ``mirror[d]``).

    The mirror image's labels are renumbered in order of appearance, as :func:`pack` does;
    ``digits`` (``width + 1``) and ``label`` (``radix + 3``) are int64 work arrays.
    """
    ends = decode(key, width, radix, digits)  # slot d in digits[d + 1]
    for v in range(radix + 3):
        label[v] = 0
    nxt = FIRST_LABEL
    image = np.uint64(ends) * powers[width]
    for e in range(width):
        v = digits[mirror[e] + 1]  # the image's slot e holds what slot mirror[e] held
        if v > TERM:
            if label[v] == 0:
                label[v] = nxt
                nxt += 1
            v = label[v]
        image += np.uint64(v) * powers[e]
    return image if image < key else key


def successors(key, step, scratch, stamp):  # type: ignore[no-untyped-def]
    """The states one state ``key`` becomes through one square, and the moves that make each.

    ``step``: the square, as :func:`expand` takes it (:data:`STEP`); ``scratch``: the work
    arrays of :func:`_scratch`. Writes each successor's key to ``out_keys`` (the sentinel for a
    whole tour, which ends there) and its moves back to ``out_moves`` (:func:`move_code` of the
    two slots the new square joins, 0 for none). Returns ``(how many, stamp)``: ``stamp`` marks
    labels seen (pass the last one back in).
    """
    (width, radix, powers, free_ends, closed, final, back, nback, cap, caps_window, leaving,
     nleave, signs, remain, ahead, rest, spare) = step  # fmt: skip
    slots, work, mates, mate, first, seen, label, avail, leaves, out_keys, out_moves, _ = scratch
    n = 0
    ends = decode(key, width, radix, slots)
    slots[0] = DONE if cap == 0 else EMPTY
    stamp += 1
    for k in range(1, width + 1):  # each label's two slots point at each other
        v = slots[k]
        if v > TERM:
            if seen[v] == stamp:
                mates[k] = first[v]
                mates[first[v]] = k
            else:
                seen[v] = stamp
                first[v] = k
    # a leaving square of the frontier that is untouched, or a piece end when no free tour
    # end is left, dies unless the new square moves to it: those moves are a must
    na = 0
    must = 0
    for q in range(nback):
        k = back[q]
        v = slots[k]
        if v != DONE:
            if cap > 0:
                avail[na] = k
                if leaves[k] and (v == EMPTY or ends >= free_ends):
                    must |= 1 << na
                na += 1
            elif leaves[k] and (v == EMPTY or ends >= free_ends):
                return n, stamp
    # c1 == c2 == -1: no move back; c2 == c1: one move; c2 > c1: two moves
    for c1 in range(-1, na):
        top = na if (c1 >= 0 and cap >= 2) else c1 + 1
        for c2 in range(c1, top):
            chosen = 0
            if c1 >= 0:
                chosen = (1 << c1) | (1 << c2)
            if chosen & must != must:
                continue
            for m in range(width + 1):
                work[m] = slots[m]
                mate[m] = mates[m]
            outcome = OK
            moves = 0
            if c1 >= 0:
                moves = move_code(avail[c1], avail[c2])
                outcome = apply_edge(work, mate, caps_window, 0, avail[c1], radix)
                if c2 != c1:
                    if outcome != OK:
                        continue  # the first move already closed the tour
                    outcome = apply_edge(work, mate, caps_window, 0, avail[c2], radix + 1)
            if outcome == CYCLE and not closed:
                continue
            e2 = ends
            if outcome == OK:
                outcome, e2 = _finish(work, mate, width, leaving, nleave, e2, free_ends, final)
                if outcome == DEAD:
                    continue
            elif not (final and all_done(work, width)):
                continue  # a tour closed before every square was covered
            if outcome != OK:
                out_keys[n] = _SENTINEL
                out_moves[n] = moves
                n += 1
                continue
            newkey = pack(
                work,
                width,
                signs,
                caps_window,
                remain,
                ahead,
                rest,
                spare + free_ends - e2,
                free_ends - e2,
                e2,
                powers,
                label,
            )
            if newkey == _SENTINEL:
                continue
            out_keys[n] = newkey
            out_moves[n] = moves
            n += 1
    return n, stamp


def move_code(k1, k2):  # type: ignore[no-untyped-def]
    """The moves back of a new square to frontier slots ``k1`` and ``k2`` (equal: one move) as
    one number, ``k1 * 32 + k2 + 1`` (0 stands for no move; slots are below 32)."""
    return k1 * 32 + k2 + 1


def _scratch(step):  # type: ignore[no-untyped-def]
    """The work arrays of :func:`successors`: eight int64 arrays of ``max(width, radix) + 3``
    (``slots`` .. ``avail``: separate arrays, not rows of one, since a view made at each call
    costs reference counting), ``leaves`` (``leaves[k]``: slot k's square leaves after this
    one), and ``out_keys``, ``out_moves`` with room for the successors of a state,
    ``(nback + 1) * (nback + 2) // 2``, and ``digits`` (int64, ``width + 1``: the slots of a
    key read whole, for :func:`mirror_key`)."""
    width, radix, nback, leaving, nleave = (
        step[0],
        step[1],
        step[7],
        step[10],
        step[11],
    )  # (:data:`STEP`)
    n = max(width, radix) + 3
    leaves = np.zeros(width + 1, dtype=np.bool_)
    for q in range(nleave):
        leaves[leaving[q]] = True
    room = (nback + 1) * (nback + 2) // 2 + 1
    return (
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        leaves,
        np.zeros(room, dtype=np.uint64),
        np.zeros(room, dtype=np.int64),
        np.zeros(width + 1, dtype=np.int64),
    )


def fill_limit(table):  # type: ignore[no-untyped-def]
    """The most states the open-addressing ``table`` holds before it must grow: 3/4 of its
    rows (its probes stay short)."""
    return (table.shape[0] * 3) // 4


def _into(step, table):  # type: ignore[no-untyped-def]
    """What a step of states into the open-addressing ``table`` starts from, for
    :func:`expand` and :func:`expand_links` alike: the work arrays of :func:`successors`
    (:func:`_scratch`), :func:`fill_limit` and the mask of the table's hash slots."""
    return _scratch(step), fill_limit(table), table.shape[0] - 1


def expand(keys, counts, nkeys, limbs, step, mirror, table, total):  # type: ignore[no-untyped-def]
    """Take states ``keys[:nkeys]`` (with ``counts``) through one square into the table.

    ``step``: the square and the sweep, a tuple of the fields :data:`STEP` names: ``width``
    and ``radix`` of the keys; ``powers[d]``: radix**d; ``free_ends``: the tour ends the
    sweep may leave free; ``closed``: count cycles; ``final``: every square of the board has
    been swept after this one; ``back[:nback]``: the slots (1..width) of the square's moves
    back into the frontier; ``cap``: 0 for a hole, 1 for a required tour end, 2 otherwise;
    ``caps_window[k]``: the same for slot k's square; ``leaving[:nleave]``: slots whose
    squares leave after this square; ``signs``, ``rest``, ``spare``: the colour check of
    :func:`pack` (``spare`` without the free ends used); ``remain[k]``: slot k's moves to
    squares not swept yet; ``ahead``: the squares not swept yet that need frontier squares
    open (:func:`pack`). ``mirror``: the slots' mirror images where the sweep maps onto itself
    after this square (each new state is then kept as :func:`mirror_key`), else
    ``mirror[0] == -1``. Whole tours are added to ``total`` (one row of limbs). Returns
    ``(used, status)``: status 0, 1 when a count overflowed ``limbs`` limbs, 2 when the table
    filled up (grow it and retry).
    """
    width, radix, powers = step[0], step[1], step[2]  # (:data:`STEP`)
    scratch, limit, mask = _into(step, table)
    label, out_keys, digits = scratch[6], scratch[9], scratch[11]  # (:func:`_scratch`)
    used = np.int64(0)
    stamp = np.int64(0)
    # new states wait in a batch while their table rows are prefetched
    bkey = np.zeros(BATCH, dtype=np.uint64)
    bslot = np.zeros(BATCH, dtype=np.int64)
    bsrc = np.zeros(BATCH, dtype=np.int64)
    nb = 0
    mirrored = mirror[0] >= 0
    for s in range(nkeys):
        made, stamp = successors(keys[s], step, scratch, stamp)
        for j in range(made):
            newkey = out_keys[j]
            if newkey == _SENTINEL:
                if add_into(total, 0, counts, s, limbs):
                    return used, 1
                continue
            if mirrored:
                newkey = mirror_key(newkey, width, radix, powers, mirror, digits, label)
            h = hash_slot(newkey, mask)
            prefetch(table, h)
            bkey[nb] = newkey
            bslot[nb] = h
            bsrc[nb] = s
            nb += 1
            if nb == BATCH:
                for i in range(nb):
                    used, over = insert_at(table, used, bkey[i], bslot[i], counts, bsrc[i], limbs)
                    if over:
                        return used, 1
                nb = 0
                if used > limit:
                    return used, 2
    for j in range(nb):
        used, over = insert_at(table, used, bkey[j], bslot[j], counts, bsrc[j], limbs)
        if over:
            return used, 1
    if used > limit:
        return used, 2
    return used, 0


def expand_links(keys, nkeys, step, table, whole):  # type: ignore[no-untyped-def]
    """:func:`expand` keeping, for each new state, how one path reaches it, instead of counts.

    A row of ``table`` is a new state's key, then ``link(s, moves)``: the index ``s`` in
    ``keys`` of the first state seen to become it, and the moves that made it. ``whole[0]`` is
    set to the link of the first whole tour made (it stays as it was when none is). Returns
    ``(used, status)``: status 0, or 2 when the table filled up (grow it and retry).
    """
    scratch, limit, mask = _into(step, table)
    out_keys, out_moves = scratch[9], scratch[10]  # (:func:`_scratch`)
    used = np.int64(0)
    stamp = np.int64(0)
    for s in range(nkeys):
        made, stamp = successors(keys[s], step, scratch, stamp)
        for j in range(made):
            newkey = out_keys[j]
            value = link(s, out_moves[j])
            if newkey == _SENTINEL:
                if whole[0] == _SENTINEL:
                    whole[0] = value
                continue
            h = hash_slot(newkey, mask)
            while True:
                k = table[h, 0]
                if k == newkey:
                    break
                if k == _SENTINEL:
                    table[h, 0] = newkey
                    table[h, 1] = value
                    used += 1
                    break
                h = (h + 1) & mask
            if used > limit:
                return used, 2
    return used, 0


def link(s, moves):  # type: ignore[no-untyped-def]
    """A state's index ``s`` and the moves that take it on, as one number (moves: 16 bits)."""
    return (np.uint64(s) << np.uint64(16)) | np.uint64(moves)


def merge(keys, counts, nkeys, limbs, table, used):  # type: ignore[no-untyped-def]
    """Add states ``keys[:nkeys]`` into the table. Returns ``(used, status)`` as :func:`expand`."""
    limit = fill_limit(table)
    for s in range(nkeys):
        used, over = insert(table, used, keys[s], counts, s, limbs)
        if over:
            return used, 1
        if used > limit:
            return used, 2
    return used, 0


def split(keys, counts, nkeys, shards, out_keys, out_counts, offsets):  # type: ignore[no-untyped-def]
    """Group states ``keys[:nkeys]`` by :func:`shard_of` into ``out_*``: part p is
    ``offsets[p]:offsets[p + 1]``."""
    limbs = counts.shape[1]
    sizes = np.zeros(shards, dtype=np.int64)
    for s in range(nkeys):
        sizes[shard_of(keys[s], shards)] += 1
    offsets[0] = 0
    for p in range(shards):
        offsets[p + 1] = offsets[p] + sizes[p]
        sizes[p] = offsets[p]
    for s in range(nkeys):
        p = shard_of(keys[s], shards)
        d = sizes[p]
        out_keys[d] = keys[s]
        for j in range(limbs):
            out_counts[d, j] = counts[s, j]
        sizes[p] = d + 1


def compact(table, keys, counts):  # type: ignore[no-untyped-def]
    """Copy the table's states into ``keys`` and ``counts`` (in table order); returns how many."""
    limbs = table.shape[1] - 1
    d = 0
    for h in range(table.shape[0]):
        if table[h, 0] != _SENTINEL:
            keys[d] = table[h, 0]
            for j in range(limbs):
                counts[d, j] = table[h, j + 1]
            d += 1
    return d


def join_moves(codes, start, m, rowlen, width, transposed, nb, path):  # type: ignore[no-untyped-def]
    """Join each sweep position's moves back into the path they make, from position ``start``.

    ``codes[p]``: the moves of position ``p`` back (0 none, else ``move_code``: ``1 + 32 k1 +
    k2``, a move to ``p - k1`` and one to ``p - k2``, one move when they are equal); ``nb`` is a
    zeroed ``(len(codes), 2)`` int8 work array (each position's two neighbours on the path as
    offsets). ``path[:m]`` gets the path's squares in order: sweep positions turned into square
    indices (rows of ``rowlen``; ``transposed``: a row of the sweep is a file of the board,
    ``width`` its number of files). Returns the number of squares written (``m`` when the moves
    make one path through every square).
    """
    n = codes.shape[0]
    for p in range(n):
        code = np.int64(codes[p])
        if code == 0:
            continue
        k1 = (code - 1) // 32
        k2 = (code - 1) % 32
        for j in range(2):
            k = k1 if j == 0 else k2
            if j == 1 and k2 == k1:
                break
            q = p - k
            if nb[p, 0] == 0:
                nb[p, 0] = -k
            else:
                nb[p, 1] = -k
            if nb[q, 0] == 0:
                nb[q, 0] = k
            else:
                nb[q, 1] = k
    prev = np.int64(-1)
    here = np.int64(start)
    for i in range(m):
        if transposed:
            path[i] = (here % rowlen) * width + here // rowlen
        else:
            path[i] = here
        a = here + np.int64(nb[here, 0])
        b = here + np.int64(nb[here, 1])
        nxt = b if a == prev else a
        if nxt == here or (i + 1 < m and nb[here, 0] == 0):
            return i + 1
        prev = here
        here = nxt
    return m


# -- a step adding its new states straight into their owners' tables ---------------------------


def add_wide(dest, drow, off, dlimbs, src, srow, slimbs):  # type: ignore[no-untyped-def]
    """``dest[drow, off:off + dlimbs] += src[srow, :slimbs]`` (``slimbs <= dlimbs``, the
    missing limbs zero); True when it carries out of the top limb."""
    carry = np.uint64(0)
    for j in range(dlimbs):
        a = dest[drow, off + j]
        b = src[srow, j] if j < slimbs else np.uint64(0)
        if j >= slimbs and carry == np.uint64(0):
            break  # nothing more to add
        s = a + b
        c1 = s < a
        t = s + carry
        c2 = t < s
        dest[drow, off + j] = t
        carry = np.uint64(1) if (c1 or c2) else np.uint64(0)
    return carry != np.uint64(0)


def put(table, key, h, src, srow, slimbs):  # type: ignore[no-untyped-def]
    """Add ``src[srow]`` (``slimbs`` limbs) to ``key``'s counts in ``table`` (a row: the key,
    then its limbs; any number of rows, probed from slot ``h``; the caller keeps a free row).

    Returns ``(row, new, carry)``: the key's row, whether it was new, whether its count
    carried out of the table's top limb (the limbs then hold the sum less ``2**(64*limbs)``).
    """
    size = table.shape[0]
    tlimbs = table.shape[1] - 1
    while True:
        k = table[h, 0]
        if k == key:
            return h, False, add_wide(table, h, 1, tlimbs, src, srow, slimbs)
        if k == _SENTINEL:
            table[h, 0] = key
            for j in range(tlimbs):
                table[h, j + 1] = src[srow, j] if j < slimbs else np.uint64(0)
            return h, True, False
        h += 1
        if h == size:
            h = 0


def expand_to(  # type: ignore[no-untyped-def]
    keys, counts, start, nkeys, step, mirror, bkeys, bsrc, bfill, total, scratch
):
    """:func:`expand` from state ``start`` on, each new state put in the buffer of the piece
    that owns it (:func:`shard_of` over ``bkeys.shape[0]`` pieces) rather than in a table.

    Buffer ``q`` holds ``bfill[q]`` new states: ``bkeys[q, i]`` made from state
    ``bsrc[q, i]`` (whose counts it takes). Stops before a state whose new states might not
    fit in a buffer, and returns its index (``nkeys`` when every state was taken); the caller
    empties the buffers into the owners' tables (:func:`insert_rows`) and calls again from
    there. Whole tours are added to ``total`` (one row, a limb wider than ``counts``: it
    cannot carry out). ``scratch`` (:func:`_scratch`): the caller's work arrays, made once for
    all its calls (this kernel makes no array).
    """
    width, radix, powers = step[0], step[1], step[2]  # (:data:`STEP`)
    seen, label, out_keys, digits = scratch[5], scratch[6], scratch[9], scratch[11]
    for v in range(seen.shape[0]):  # the stamps of an earlier call would be taken for this one's
        seen[v] = 0
    shards = bkeys.shape[0]
    limit = bkeys.shape[1] - out_keys.shape[0]  # a state makes fewer than out_keys.shape[0]
    limbs = counts.shape[1]
    wide = total.shape[1]
    fullest = np.int64(0)
    for q in range(shards):
        fullest = max(fullest, bfill[q])
    stamp = np.int64(0)
    mirrored = mirror[0] >= 0
    for s in range(start, nkeys):
        if fullest > limit:
            return s
        made, stamp = successors(keys[s], step, scratch, stamp)
        for j in range(made):
            newkey = out_keys[j]
            if newkey == _SENTINEL:
                add_wide(total, 0, 0, wide, counts, s, limbs)
                continue
            if mirrored:
                newkey = mirror_key(newkey, width, radix, powers, mirror, digits, label)
            q = shard_of(newkey, shards)
            f = bfill[q]
            bkeys[q, f] = newkey
            bsrc[q, f] = s
            bfill[q] = f + 1
            if f + 1 > fullest:
                fullest = f + 1
    return nkeys


def insert_rows(table, used, limit, bkeys, bsrc, start, n, counts):  # type: ignore[no-untyped-def]
    """Add the new states ``bkeys[start:n]``, each with the counts ``counts[bsrc[i]]``, into
    ``table`` (:func:`put`; the row of the state :data:`AHEAD` places on is prefetched while
    each is added).

    Returns ``(used, next, status, row)``: status 0 when all were added; 2 when the table would
    hold more than ``limit`` states (grow it, go on from ``next``); 1 when the count of
    ``table[row]`` carried out of its top limb (widen the table, put the carry in the new
    limb, go on from ``next``).
    """
    size = table.shape[0]
    slimbs = counts.shape[1]
    ring = np.zeros(AHEAD, dtype=np.int64)  # the rows of the states on their way
    for j in range(start, n + AHEAD):  # state j's row asked for, state j - AHEAD's added
        i = j - AHEAD
        h = ring[i & (AHEAD - 1)]  # read before state j takes its place in the ring
        if j < n:
            g = table_slot(bkeys[j], size)
            prefetch(table, g)
            ring[j & (AHEAD - 1)] = g
        if i < start:
            continue
        if used >= limit:
            return used, i, 2, -1
        row, new, carry = put(table, bkeys[i], h, counts, bsrc[i], slimbs)
        if new:
            used += 1
        if carry:
            return used, i + 1, 1, row
    return used, n, 0, -1


def rehash(old, new):  # type: ignore[no-untyped-def]
    """Put every state of the table ``old`` into the empty table ``new`` (as many limbs or
    more, any number of rows); returns how many."""
    size = new.shape[0]
    limbs = old.shape[1] - 1
    wide = new.shape[1] - 1
    used = 0
    for r in range(old.shape[0]):
        key = old[r, 0]
        if key == _SENTINEL:
            continue
        h = table_slot(key, size)
        while new[h, 0] != _SENTINEL:
            h += 1
            if h == size:
                h = 0
        new[h, 0] = key
        for j in range(wide):
            new[h, j + 1] = old[r, j + 1] if j < limbs else np.uint64(0)
        used += 1
    return used


def owners(keys, nkeys, shards, out):  # type: ignore[no-untyped-def]
    """``out[s]``: the piece that owns state ``keys[s]`` (:func:`shard_of`), for ``s < nkeys``."""
    for s in range(nkeys):
        out[s] = shard_of(keys[s], shards)
