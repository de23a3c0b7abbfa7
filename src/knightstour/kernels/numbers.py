"""The exact search of a knight's tour number puzzle: kernels in the subset Numba compiles.

A number puzzle fixes some squares' numbers; a completion numbers every square 1..N so that each
number is a knight's move from the next (and, closed, N from 1). :func:`run` places the numbers
in order, 1 first, and counts completions up to a limit (2 proves uniqueness: it stops at a
second), in slices of a node budget, its whole state in arrays, so the caller can watch a clock
between slices. :mod:`knightstour.numberpuzzles.exact` loads it through
:mod:`knightstour.kernels.jit`.

Pruning, at every placement of number ``k`` on square ``s``:

- a given number goes on its own square, a missing one on an empty square;
- distance and colour: the next given number ``g`` (on ``q``) must be reachable in exactly
  ``g - k`` moves: ``dist[s, q] <= g - k`` and of the same parity (the knight changes colour at
  every move), with ``dist`` the knight's distance on the board (:func:`distances`);
- dead ends: an empty square beside the square just left must still have two ways in and out
  (empty squares, the knight's square, or given numbers still to come), or one if it may be the
  last square;
- left behind: each empty square has a last number that distance and colour allow it (from the
  given numbers around each gap); once that number is placed, the square must be filled
  (``late``: the squares whose last number is ``k``, checked as ``k`` is placed), and before
  the next given number the knight must still reach each empty square whose last number comes
  first, in time (``dist[s, r] <= last[r] - k``).

>>> import numpy as np
>>> nbr = np.array([[1, -1], [0, 2], [1, -1]], dtype=np.int32)   # a path a - b - c
>>> distances(nbr)[0].tolist()
[0, 1, 2]
"""

from __future__ import annotations

import numpy as np

Array = np.ndarray

__kernels__ = ("distances", "_reachable", "_open_ok", "run")
__inline__ = ("_reachable", "_open_ok")

#: What :func:`run` returns: every completion counted (up to the limit), or the budget spent.
DONE, BUDGET = 0, 2
#: Slots of the int64 ``state`` array: the number being placed (0: not begun), completions
#: found, positions examined.
_K, _FOUND, _NODES = 0, 1, 2
#: Slots of ``state``.
STATE_SLOTS = 3
#: The distance of two squares that no path joins.
FAR = 1 << 20


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


def _reachable(s: int, k: int, nextg: Array, where: Array, dist: Array, n: int) -> bool:
    """Whether the next given number after ``k`` can be reached from ``s`` in time."""
    g = nextg[k]
    if g == 0:
        return True
    q = where[g - n] if g > n else where[g]
    d = dist[s, q]
    return d <= g - k and (g - k - d) % 2 == 0


def _open_ok(
    r: int, k: int, nbr: Array, fill: Array, num: Array, head: int, first: int, last_free: bool
) -> bool:
    """Whether the empty square ``r`` keeps enough ways in and out once ``k`` is placed
    (``first``: the square of 1 on a closed tour, which the last number returns to; else -1)."""
    ways = 0
    for j in range(nbr.shape[1]):
        t = nbr[r, j]
        if t < 0:
            continue
        if fill[t] == 0 or t == head or num[t] > k or t == first:  # noqa: SIM109 (compiled)
            ways += 1
            if ways >= 2:
                return True
    return ways == 1 and last_free


def run(
    nbr: Array,
    num: Array,
    where: Array,
    nextg: Array,
    dist: Array,
    closed: bool,
    fill: Array,
    pos: Array,
    ci: Array,
    state: Array,
    late_at: Array,
    late: Array,
    last: Array,
    out: Array,
    limit: int,
    budget: int,
) -> int:
    """Count completions up to ``limit``, the first ``limit`` written into ``out`` (rows of the
    squares of 1..N, index 0 unused); stop after ``budget`` positions (:data:`BUDGET`, resumable).

    ``num[s]`` is the given number of square ``s`` (0 none, -1 a hole); ``where[k]`` the square of
    given ``k`` (-1 none); ``nextg[k]`` the first given number from ``k`` on (above N: wrapped
    round a closed tour; 0: none); ``fill`` starts as ``num``, ``pos`` and ``ci`` as zeros,
    ``state`` as zeros; ``late[late_at[k]:late_at[k + 1]]`` are the empty squares whose last
    possible number is ``k`` (``last[r]`` that number for each square).
    """
    n = pos.shape[0] - 1
    area = nbr.shape[0]
    moves = nbr.shape[1]
    last_free = (not closed) and where[n] < 0
    k = state[_K]
    if k == 0:
        k = 1
        ci[1] = 0
    spent = 0
    while True:
        if spent >= budget:
            state[_K] = k
            return BUDGET
        s = -1
        if k == 1:
            while ci[1] < area:
                c = ci[1]
                ci[1] += 1
                if where[1] >= 0:
                    if c == where[1]:
                        s = c
                        break
                elif fill[c] == 0 and _reachable(c, 1, nextg, where, dist, n):
                    s = c
                    break
        else:
            prev = pos[k - 1]
            while ci[k] < moves:
                c = nbr[prev, ci[k]]
                ci[k] += 1
                if c < 0:
                    continue
                if where[k] >= 0:
                    if c == where[k]:
                        s = c
                        break
                elif fill[c] == 0 and _reachable(c, k, nextg, where, dist, n):
                    s = c
                    break
        if s < 0:  # no candidate left: back to the number before
            if k == 1:
                state[_K] = k
                return DONE
            k -= 1
            if where[k] < 0:
                fill[pos[k]] = 0
            continue
        spent += 1
        state[_NODES] += 1
        pos[k] = s
        if where[k] < 0:
            fill[s] = k
        if k == n:
            ok = True
            if closed and n > 2:
                ok = False
                for j in range(moves):
                    if nbr[s, j] == pos[1]:
                        ok = True
            if ok:
                f = state[_FOUND]
                if f < out.shape[0]:
                    for i in range(1, n + 1):
                        out[f, i] = pos[i]
                state[_FOUND] = f + 1
            if where[k] < 0:
                fill[s] = 0
            if ok and state[_FOUND] >= limit:
                state[_K] = k
                return DONE
            continue
        good = True
        for i in range(late_at[k], late_at[k + 1]):
            if fill[late[i]] == 0:
                good = False
                break
        if good:  # the squares to fill before the next given number: still in reach
            g = nextg[k + 1] if k < n else 0
            top = late_at[n + 1] if g == 0 or g > n else late_at[g]
            for i in range(late_at[k + 1], top):
                r = late[i]
                if fill[r] == 0 and dist[s, r] > last[r] - k:
                    good = False
                    break
        if good and k > 1:  # the square just left is closed now: its empty neighbours lost a way
            prev = pos[k - 1]
            for j in range(moves):
                r = nbr[prev, j]
                if r >= 0 and r != s and fill[r] == 0:
                    first = pos[1] if closed else -1
                    if not _open_ok(r, k, nbr, fill, num, s, first, last_free):
                        good = False
                        break
        if not good:
            if where[k] < 0:
                fill[s] = 0
            continue
        k += 1
        ci[k] = 0
