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
from typing import NamedTuple

import numpy as np

__all__ = ["CYCLES", "Square", "assemble", "knight", "traversals"]  # and the unit tables

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


class _Tables(NamedTuple):
    """The units a strand may take in a block, and what pairs of them do to ranks and files."""

    #: (set, squares in walking order): a cycle's number (0 ... 3), or a unit of another set
    travs: list[tuple[int, tuple[Square, ...]]]
    #: the squares of each unit as a 16-bit mask (bit 4y + x)
    masks: list[int]
    #: (P's unit, Q's unit) -> the offsets they put in the block's 4 ranks and 4 files
    vec: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]
    #: for a block's first pair, the rank (file) balances its second pair can leave
    need_r: dict[tuple[int, int], set[tuple[int, ...]]]
    need_c: dict[tuple[int, int], set[tuple[int, ...]]]


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The cycles' 32 traversals as units (:func:`traversals`), and their pairs' balances.

    >>> t = _tables()
    >>> len(t.travs), len(t.vec)
    (32, 768)
    """
    return _unit_tables(traversals())


def _unit_tables(units: Sequence[tuple[int, tuple[Square, ...]]]) -> _Tables:
    """Units and, for a block's first pair of units, the balances its second pair allows.

    A unit is (set, its four squares in order), one square in every rank and file of the block.
    A *pair* (p, q) is P's and Q's units in one block at one step, two that share no square; its
    rank and file vectors hold the offsets it puts in each rank and file (P: 1 ... 4 along its
    squares, Q: 4 ... 1, since Q is walked backwards in the tour).
    """
    travs = list(units)
    masks = [sum(1 << (4 * y + x) for x, y in sq) for _, sq in travs]
    vec: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for p, (_, sp) in enumerate(travs):
        for q, (_, sq) in enumerate(travs):
            if masks[p] & masks[q]:
                continue
            rows, cols = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
            for k in range(4):
                rows[sp[k][1]] += k + 1
                cols[sp[k][0]] += k + 1
                rows[sq[k][1]] += 4 - k
                cols[sq[k][0]] += 4 - k
            vec[(p, q)] = (rows, cols)
    by_squares: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
    for (p, q), v in vec.items():
        by_squares.setdefault(masks[p] | masks[q], []).append(v)
    need_r: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    need_c: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    for (p, q), (r1, c1) in vec.items():
        rest = by_squares.get(0xFFFF ^ masks[p] ^ masks[q], [])
        need_r[(p, q)] = {tuple((r1 + r2 - 10).tolist()) for r2, _ in rest}
        need_c[(p, q)] = {tuple((c1 + c2 - 10).tolist()) for _, c2 in rest}
    return _Tables(travs, masks, vec, need_r, need_c)
