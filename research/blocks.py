"""The units of a 4 x 4 block the magic searches take: the cycles' traversals and the open paths.

The construction of semi-magic tours (:mod:`knightstour.magic.construct`) runs whole 4-cycles of
each block. A magic tour of 12x12 cannot be made of whole cycles (docs/magic.md), so the searches
here also take the block's *open transversal paths*: four squares, one in every rank and file of
the block, each a knight's move from the one before, that are not one of its cycles.

>>> len(paths()), paths()[0]
(16, ((0, 0), (1, 2), (3, 1), (2, 3)))
>>> t = tables(True)
>>> len(t.travs), len(t.cover), t.diag[32]
(48, 30, (1, 1))
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import NamedTuple

import numpy as np

from knightstour.magic._blocks import CYCLES, Square, _unit_tables, knight, traversals

__all__ = ["Tables", "paths", "tables"]


class Tables(NamedTuple):
    """The units a strand may take in a block, and what pairs of them do to ranks and files."""

    #: (set, squares in walking order): a cycle's number (0 ... 3) or a path's (4 ... 11)
    travs: list[tuple[int, tuple[Square, ...]]]
    #: the squares of each unit as a 16-bit mask (bit 4y + x)
    masks: list[int]
    #: (P's unit, Q's unit) -> the offsets they put in the block's 4 ranks and 4 files
    vec: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]
    #: for a block's first pair, the rank (file) balances its second pair can leave
    need_r: dict[tuple[int, int], set[tuple[int, ...]]]
    need_c: dict[tuple[int, int], set[tuple[int, ...]]]
    #: the masks of 8 squares that two disjoint units cover (a block's second visit)
    cover: frozenset[int]
    #: squares of each unit on the block's main diagonal (x == y) and anti-diagonal (x + y == 3)
    diag: list[tuple[int, int]]


@lru_cache(maxsize=1)
def paths() -> tuple[tuple[Square, ...], ...]:
    """The 16 walks of a 4 x 4 block's transversal knight paths that are not one of its cycles.

    Twelve sets of squares are transversal paths: the four cycles and eight open paths, each
    walked from either end. Each open path holds one square of each long diagonal of the block (a
    cycle holds two or none), which is what a magic tour needs.
    """
    cycles = {frozenset(c) for c in CYCLES}
    out = set()
    for files in permutations(range(4)):
        squares = [(x, files[x]) for x in range(4)]
        for walk in permutations(squares):
            if frozenset(walk) not in cycles and all(map(knight, walk, walk[1:])):
                out.add(walk)
    return tuple(sorted(out))


@lru_cache(maxsize=2)
def tables(with_paths: bool = False) -> Tables:
    """The 32 traversals of the cycles (and with ``with_paths`` the 16 walks of :func:`paths`)
    as units, with the package's pair tables (``knightstour.magic._blocks._unit_tables``), the
    squares two disjoint units cover, and each unit's squares on the block's diagonals."""
    travs = list(traversals())
    if with_paths:
        by_set: dict[frozenset[Square], int] = {}
        for walk in paths():
            travs.append((by_set.setdefault(frozenset(walk), 4 + len(by_set)), walk))
    t = _unit_tables(travs)
    cover = frozenset(t.masks[p] | t.masks[q] for p, q in t.vec)
    diag = [(sum(x == y for x, y in sq), sum(x + y == 3 for x, y in sq)) for _, sq in travs]
    return Tables(t.travs, t.masks, t.vec, t.need_r, t.need_c, cover, diag)
