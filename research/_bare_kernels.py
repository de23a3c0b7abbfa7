"""A bare knight-path walk in the start passes' style: the floor of their cost a node.

The same arrays and the same kind of loop as :mod:`knightstour.kernels.magic_starts` (a square's
number, its links, a candidate cursor a depth), and one cut only: no empty square may be left
without a link. ``python -m research.starts_speed --bare`` times it against the product's walk.

>>> import numpy as np
>>> from knightstour.board import Board
>>> from knightstour.kernels.enumerate import compact_neighbours
>>> nbr, nn = (a.astype(np.int64) for a in compact_neighbours(Board(5, 5).neighbour_table()))
>>> bare(nbr, nn, 0, 10**9) > 0
True
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("bare",)


def bare(nbr: np.ndarray, nn: np.ndarray, start: int, budget: int) -> int:
    """Walk knight paths from ``start`` depth first for ``budget`` nodes (or all of them):
    the nodes tried."""
    n = nn.size
    num = np.zeros(n, np.int64)
    avail = nn.copy()
    placed = np.zeros(n, np.int64)
    ci = np.zeros(n, np.int64)
    num[start] = 1
    for k in range(nn[start]):
        avail[nbr[start, k]] -= 1
    d = 0
    nodes = 0
    while nodes < budget:
        h = placed[d] if d else start
        if ci[d] < nn[h]:
            q = nbr[h, ci[d]]
            ci[d] += 1
            if num[q] != 0:
                continue
            nodes += 1
            num[q] = d + 2
            bad = False
            for k in range(nn[q]):
                r = nbr[q, k]
                avail[r] -= 1
                if num[r] == 0 and avail[r] == 0 and d + 2 < n - 1:
                    bad = True
            if bad or d + 1 == n - 1:
                for k in range(nn[q]):
                    avail[nbr[q, k]] += 1
                num[q] = 0
                continue
            d += 1
            placed[d] = q
            ci[d] = 0
        else:
            if d == 0:
                break
            q = placed[d]
            for k in range(nn[q]):
                avail[nbr[q, k]] += 1
            num[q] = 0
            d -= 1
    return nodes
