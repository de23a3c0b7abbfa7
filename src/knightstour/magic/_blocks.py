"""The 4 x 4 block's knight cycles and the lockstep walk's assembly, shared by the constructions.

The knight's graph of a 4 x 4 block is four 4-cycles (:data:`CYCLES`), each a transversal: one
square in every rank and every file of the block. A *traversal* runs one cycle round from one
of its squares in one direction (4 cycles x 4 squares x 2 directions = 32). A lockstep walk is a
list of steps (block index, P's traversal, Q's traversal); :func:`assemble` turns it into the
tour: P's cycles in order, then Q's backwards.

>>> len(traversals()), traversals()[0]
(32, (0, ((0, 0), (1, 2), (3, 3), (2, 1))))
>>> knight((0, 0), (1, 2)), knight((0, 0), (2, 2))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

__all__ = ["CYCLES", "Square", "assemble", "knight", "traversals"]

Square = tuple[int, int]
#: The four 4-cycles of the 4 x 4 knight's graph, in cycle order, (x, y) inside the block.
CYCLES: tuple[tuple[Square, ...], ...] = (
    ((0, 0), (1, 2), (3, 3), (2, 1)),
    ((3, 0), (2, 2), (0, 3), (1, 1)),
    ((1, 0), (3, 1), (2, 3), (0, 2)),
    ((2, 0), (0, 1), (1, 3), (3, 2)),
)


@lru_cache(maxsize=1)
def traversals() -> tuple[tuple[int, tuple[Square, ...]], ...]:
    """Every (cycle, its four squares in walking order): 4 cycles x 4 entries x 2 directions."""
    out = []
    for c, cycle in enumerate(CYCLES):
        for start in range(4):
            for step in (1, -1):
                out.append((c, tuple(cycle[(start + step * k) % 4] for k in range(4))))
    return tuple(out)


def knight(a: Square, b: Square) -> bool:
    """Whether ``a`` and ``b`` are a knight's move apart."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx == 1 and dy == 2) or (dx == 2 and dy == 1)


def assemble(
    bw: int,
    bh: int,
    steps: list[tuple[int, int, int]],
    travs: Sequence[tuple[int, tuple[Square, ...]]] | None = None,
) -> np.ndarray:
    """The tour of a lockstep walk on ``bw`` x ``bh`` blocks: P's units, then Q's backwards.

    A step's units index ``travs`` (default: :func:`traversals`, the cycles)."""
    travs = traversals() if travs is None else travs
    width = 4 * bw
    out: list[int] = []
    for b, p, _ in steps:
        ox, oy = 4 * (b % bw), 4 * (b // bw)
        out += [(oy + y) * width + ox + x for x, y in travs[p][1]]
    for b, _, q in reversed(steps):
        ox, oy = 4 * (b % bw), 4 * (b // bw)
        out += [(oy + y) * width + ox + x for x, y in reversed(travs[q][1])]
    return np.asarray(out, dtype=np.int32)
