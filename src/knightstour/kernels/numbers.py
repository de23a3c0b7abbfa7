"""The exact search of a knight's tour number puzzle: kernels in the subset Numba compiles.

A number puzzle fixes some squares' numbers; a completion numbers every square 1..N so that each
number is a knight's move from the next (and, closed, N from 1). The missing numbers fall into
*gaps*, each a run of numbers between two given ones (the first and last runs of an open puzzle
have a given number at one end only). :func:`run` fills the gaps from a given end a number at a
time, always extending the gap whose next number has the fewest squares left, and counts completions up to a limit
(2 proves uniqueness: it stops at a second), in slices of a node budget, its whole state in
arrays, so the caller can watch a clock between slices.
:mod:`knightstour.numberpuzzles.exact` prepares the steps and loads it through
:mod:`knightstour.kernels.jit`.

Pruning, at every placement of a number on square ``c``:

- a missing number goes on an empty square a knight's move from the number before it in the
  gap's order;
- distance and colour: the gap's far given number (on ``q``) must be reachable in exactly the
  moves left: ``dist[c, q] <= left`` and of the same parity (the knight changes colour at every
  move), with ``dist`` the knight's distance on the board (:func:`distances`);
- dead ends: an empty square beside the square just left must still have two ways in and out
  (empty squares, or numbers still missing a neighbour in the sequence), or one if it may be an
  end of an open tour;
- free paths: the gap's far given number must be in reach over empty squares (a walk from
  ``c`` of at most the moves left);
- cover: each empty square must stay in the reach of some gap still to fill, from the number
  the gap reached last over empty squares and on to its far end by distance and colour
  (``far[r] + dist[r, q] <= left``, of the right parity): a count for each square of the gaps
  that can reach it, lowered as the gaps advance.

>>> import numpy as np
>>> nbr = np.array([[1, -1], [0, 2], [1, -1]], dtype=np.int32)   # a path a - b - c
>>> distances(nbr)[0].tolist()
[0, 1, 2]
"""

from __future__ import annotations

import numpy as np

Array = np.ndarray

__kernels__ = (
    "distances",
    "_hungry",
    "_open_ok",
    "_undo_drops",
    "_fits",
    "_options",
    "_closes",
    "run",
)
__inline__ = ("_hungry", "_open_ok", "_fits")

#: What :func:`run` returns: every completion counted (up to the limit), or the budget spent.
DONE, BUDGET = 0, 2
#: Slots of the int64 ``state`` array: the depth being tried (-1: done), completions found,
#: positions examined, the stamp of the last walk over empty squares.
_T, _FOUND, _NODES, _STAMP = 0, 1, 2, 3
#: Slots of ``state``.
STATE_SLOTS = 4
#: The distance of two squares that no path joins.
FAR = 1 << 20
#: Rows of the int32 ``steps`` array: the number placed, the number it moves on from, the
#: square of the gap's far given number (-1 none), the moves left to it (or the numbers left in
#: a gap with no far end), the gap, and whether the step ends its gap.
NUMBER, FROM, TARGET, LEFT, GAP, ENDS = 0, 1, 2, 3, 4, 5
#: Rows of ``steps``.
STEP_ROWS = 6


def distances(nbr: Array) -> Array:
    """The knight's distance (fewest moves) between every two squares, :data:`FAR` if none."""
    n = nbr.shape[0]
    dist = np.full((n, n), FAR, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    for s in range(n):
        dist[s, s] = 0
        head, tail = 0, 1
        queue[0] = s
        while head < tail:
            c = queue[head]
            head += 1
            for j in range(nbr.shape[1]):
                t = nbr[c, j]
                if t >= 0 and dist[s, t] == FAR:
                    dist[s, t] = dist[s, c] + 1
                    queue[tail] = t
                    tail += 1
    return dist


def _hungry(sq_of: Array, j: int, n: int, closed: bool) -> bool:
    """Whether the number ``j`` still misses a neighbour in the sequence."""
    if j > 1 and sq_of[j - 1] < 0:
        return True
    if j < n and sq_of[j + 1] < 0:
        return True
    if closed and n > 2:
        if j == 1 and sq_of[n] < 0:
            return True
        if j == n and sq_of[1] < 0:
            return True
    return False


def _open_ok(
    r: int, nbr: Array, fill: Array, sq_of: Array, n: int, closed: bool, ends_free: bool
) -> bool:
    """Whether the empty square ``r`` still has two ways in and out (one if ``ends_free``)."""
    ways = 0
    for j in range(nbr.shape[1]):
        t = nbr[r, j]
        if t < 0:
            continue
        if fill[t] == 0 or (fill[t] > 0 and _hungry(sq_of, fill[t], n, closed)):
            ways += 1
            if ways >= 2:
                return True
    return ways == 1 and ends_free


def _undo_drops(t: int, trail: Array, trail_at: Array, gap: int, live: Array, count: Array) -> None:
    """Give back the squares that the placement at depth ``t`` took out of ``gap``'s reach."""
    top = trail_at[t + 1]
    for i in range(trail_at[t], top):
        r = trail[i]
        live[gap, r] = 1
        count[r] += 1
    trail_at[t + 1] = trail_at[t]


def _fits(q: int, target: int, left: int, dist: Array) -> bool:
    """Whether a number on ``q`` can still reach the gap's far given number in time."""
    if target < 0:
        return True
    d = dist[q, target]
    return d <= left and (left - d) % 2 == 0


def _options(step: int, steps: Array, nbr: Array, fill: Array, sq_of: Array, dist: Array) -> int:
    """How many squares the number of ``step`` can go on now (a large number if anywhere)."""
    frm = steps[FROM, step]
    if frm == 0:
        return nbr.shape[0]
    f = sq_of[frm]
    count = 0
    for j in range(nbr.shape[1]):
        q = nbr[f, j]
        if q >= 0 and fill[q] == 0 and _fits(q, steps[TARGET, step], steps[LEFT, step], dist):
            count += 1
    return count


def _closes(nbr: Array, sq_of: Array, n: int, closed: bool) -> bool:
    """Whether a full numbering closes as asked (N a move from 1 on a closed tour)."""
    if not closed or n <= 2:
        return True
    for j in range(nbr.shape[1]):  # noqa: SIM110 (a generator would not compile)
        if nbr[sq_of[n], j] == sq_of[1]:
            return True
    return False


def run(
    nbr: Array,
    dist: Array,
    closed: bool,
    steps: Array,
    gap_at: Array,
    cover_at: Array,
    cover: Array,
    count: Array,
    live: Array,
    trail: Array,
    trail_at: Array,
    seen: Array,
    far: Array,
    queue: Array,
    fill: Array,
    sq_of: Array,
    done: Array,
    choice: Array,
    ci: Array,
    state: Array,
    out: Array,
    limit: int,
    budget: int,
) -> int:
    """Count completions up to ``limit``, the first ``limit`` written into ``out`` (rows of the
    squares of 1..N, index 0 unused); stop after ``budget`` positions (:data:`BUDGET`, resumable).

    ``steps`` (:data:`STEP_ROWS` x the missing numbers, gap after gap: gap ``g``'s steps from
    ``gap_at[g]``) says what each step places, from where and towards what; at each position
    the gap whose next number has the fewest squares left is extended (none: a dead end).
    ``cover[cover_at[g]:cover_at[g + 1]]`` are the squares gap ``g`` can reach at first,
    ``live[g, r]`` whether it still can (from the number it reached last, by distance and
    colour) and ``count[r]`` how many gaps still can reach square ``r``; ``seen``, ``far`` and
    ``queue`` (one a square) are the scratch of the walks over empty squares; a placement that leaves
    an empty square out of every gap's reach is a dead end; ``trail`` keeps the squares each
    placement took out of reach (those of depth ``t`` from ``trail_at[t]``), to give back; ``fill[s]`` is the number on square ``s`` (0 none, -1
    a hole) and ``sq_of[k]`` the square of ``k`` (-1 none), both starting with the given
    numbers; ``done[g]`` counts the numbers of gap ``g`` placed; ``choice`` starts as -1,
    ``ci``, ``done`` and ``state`` as zeros.
    """
    n = sq_of.shape[0] - 1
    m = steps.shape[1]
    gaps = gap_at.shape[0] - 1
    area = nbr.shape[0]
    moves = nbr.shape[1]
    t = state[_T]
    if m == 0:
        if t == 0 and _closes(nbr, sq_of, n, closed):
            for i in range(1, n + 1):
                out[0, i] = sq_of[i]
            state[_FOUND] = 1
        state[_T] = -1
        return DONE
    spent = 0
    while True:
        if t < 0:
            state[_T] = -1
            return DONE
        if spent >= budget:
            state[_T] = t
            return BUDGET
        g = choice[t]
        c = -1
        if g < 0:  # choose the gap to extend: the fewest squares for its next number
            best = area + 1
            for h in range(gaps):
                if done[h] < gap_at[h + 1] - gap_at[h]:
                    o = _options(gap_at[h] + done[h], steps, nbr, fill, sq_of, dist)
                    if o < best:
                        best, g = o, h
                        if o == 0:
                            break
            if best == 0:
                g = -1
            else:
                choice[t] = g
                ci[t] = 0
        if g >= 0:
            step = gap_at[g] + done[g]
            frm = steps[FROM, step]
            target, left = steps[TARGET, step], steps[LEFT, step]
            if frm == 0:  # no number to move on from: any empty square
                while ci[t] < area:
                    q = ci[t]
                    ci[t] += 1
                    if fill[q] == 0:
                        c = q
                        break
            else:
                f = sq_of[frm]
                while ci[t] < moves:
                    q = nbr[f, ci[t]]
                    ci[t] += 1
                    if q >= 0 and fill[q] == 0 and _fits(q, target, left, dist):
                        c = q
                        break
        if c < 0:  # nothing left here: undo the placement before and try its next square
            choice[t] = -1
            t -= 1
            if t >= 0:
                h = choice[t]
                done[h] -= 1
                back = gap_at[h] + done[h]
                _undo_drops(t, trail, trail_at, h, live, count)
                kb = steps[NUMBER, back]
                fill[sq_of[kb]] = 0
                sq_of[kb] = -1
            continue
        k = steps[NUMBER, step]
        spent += 1
        state[_NODES] += 1
        fill[c] = k
        sq_of[k] = c
        done[g] += 1
        ends_free = (not closed) and (sq_of[1] < 0 or sq_of[n] < 0)
        good = True
        if frm > 0:  # the square just left: its empty neighbours lost a way
            f = sq_of[frm]
            for j in range(moves):
                r = nbr[f, j]
                if (
                    r >= 0
                    and fill[r] == 0
                    and not _open_ok(r, nbr, fill, sq_of, n, closed, ends_free)
                ):
                    good = False
                    break
        ended = bool(steps[ENDS, step])
        top = trail_at[t]
        if good and not ended:  # how far each empty square is from here, over empty squares
            stamp = state[_STAMP] + 1
            state[_STAMP] = stamp
            seen[c] = stamp
            far[c] = 0
            queue[0] = c
            head, tail = 0, 1
            to_target = FAR
            while head < tail:
                x = queue[head]
                head += 1
                if far[x] >= left:
                    continue
                for j in range(moves):
                    y = nbr[x, j]
                    if y < 0:
                        continue
                    if y == target and to_target == FAR:
                        to_target = far[x] + 1
                    if fill[y] == 0 and seen[y] != stamp:
                        seen[y] = stamp
                        far[y] = far[x] + 1
                        queue[tail] = y
                        tail += 1
            if target >= 0 and to_target > left:
                good = False
        if good:  # the squares the gap can no longer reach from here
            for i in range(cover_at[g], cover_at[g + 1]):
                r = cover[i]
                if not live[g, r] or fill[r] != 0:
                    continue
                if not ended and seen[r] == state[_STAMP]:
                    d = far[r]
                    if target >= 0:
                        d += dist[r, target]
                        if d <= left and (left - d) % 2 == 0:
                            continue
                    elif d <= left:
                        continue
                live[g, r] = 0
                count[r] -= 1
                trail[top] = r
                top += 1
                if count[r] == 0:
                    good = False
                    break
        trail_at[t + 1] = top
        if good and t == m - 1:
            if _closes(nbr, sq_of, n, closed):
                found = state[_FOUND]
                if found < out.shape[0]:
                    for i in range(1, n + 1):
                        out[found, i] = sq_of[i]
                state[_FOUND] = found + 1
            good = False  # counted: go on to the next
        if not good:
            _undo_drops(t, trail, trail_at, g, live, count)
            done[g] -= 1
            fill[c] = 0
            sq_of[k] = -1
            if state[_FOUND] >= limit:
                state[_T] = -1
                return DONE
            continue
        t += 1
        choice[t] = -1
