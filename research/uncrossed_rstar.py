"""How tight could a bound on the rest of the board be? R*(t) against the sweep's bound.

R*(t): the most moves decided at steps t, t + 1, ... by any uncrossed path of the board, exactly
(the sweep of :mod:`knightstour.counting.uncrossed` with every state kept and the moves decided
before step t not counted), printed beside the bound the sweep uses there (``rest[t - 1]``: the
most moves the steps from t on can add, from the forest windows). For each line's first step:

    python -m research.uncrossed_rstar 7x7 [--closed]

On 7x7 open (about 7 s a line here): from line 3, R* = 22 against the bound's 30; from line 4,
19 against 24; from line 5, 15 against 18. But R* from line 2 is already 24, the answer: the
exact static bound is as hard as the problem, and only a cheap upper bound on it can pay.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np


def most_after(spec: str, closed: bool, t0: int) -> int:
    """R*(t0): every state kept; the values set to 0 before step ``t0``."""
    from knightstour.counting import uncrossed as u
    from knightstour.kernels import jit

    p = u.plan(spec)
    k = jit.load(u._KERNELS, compiled=True)
    none = np.zeros(0, dtype=np.int64)
    keys = np.zeros((1, 2), dtype=np.uint64)
    vals = np.zeros(1, dtype=np.int32)
    start = -1 if closed else 0
    best = np.array([start, -1, 0, 0, 0], dtype=np.int64)
    for t in range(len(p.order)):
        if t == t0:
            vals[:] = 0
            best[0] = start
        n = keys.shape[0]
        size = 1 << max(10, math.ceil(math.log2(max(1, 3 * n))))
        table, used, nxt = u._table(size), 0, 0
        while True:
            nxt, used = k.expand(
                keys, vals, n, nxt, int(size * 0.7), t, p.nf[t], len(p.back[t]),
                p.back_slot[t], p.back_bit[t], p.npend[t], p.pmap[t], p.pcross[t], p.pmask[t],
                p.stuckable[t], p.fmap[t], p.leave[t], closed, False, -1, u._NO_BOUND, none,
                none, table, used, best,
            )  # fmt: skip
            if nxt >= n:
                break
            bigger = u._table(2 * size)
            k.rehash(table, bigger)
            table, size = bigger, 2 * size
        keys = np.empty((used, 2), dtype=np.uint64)
        vals = np.empty(used, dtype=np.int32)
        k.compact(table, keys, vals, np.empty(used, np.int32), np.empty(used, np.uint8))
        if t < t0:
            best[0] = start  # a path finished before t0 adds nothing after it
    return int(best[0])


def main() -> None:
    from knightstour.counting import uncrossed as u

    spec, closed = sys.argv[1], "--closed" in sys.argv
    p = u.plan(spec)
    rest = u._bounds(p)
    w = min(p.board.width, p.board.height)
    for line in range(1, len(p.order) // w):
        t0 = line * w
        began = time.perf_counter()
        r = most_after(spec, closed, t0)
        print(f"{spec} {'closed' if closed else 'open'}, from line {line + 1} (step {t0}): "
              f"R* = {r}, the sweep's bound {rest[t0 - 1]} "
              f"({time.perf_counter() - began:.1f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
