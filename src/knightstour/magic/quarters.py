"""The quarter pass of the semi-magic search: every tour whose runs of four stay in a 4 x 4 block.

A *quarter-local* tour puts every run of four numbers 4j + 1 ... 4j + 4 on a knight path of four
squares inside one 4 x 4 block (a quarter of 8x8), any such path: a 4 x 4 block has 208 of them
(104 paths walked either way, on 92 sets of squares), of which the quad pass
(:mod:`knightstour.magic.quads`) takes the 48 with one square in each rank and file of the
block. The family holds every quad tour and classes that no quad tour reaches.

Three facts make it small enough to walk whole:

- every run of a block row adds 16 j + 10 to the row's four ranks together, whatever its path,
  so the runs of each block row (and column) must have the same sum of j as the quads' (60 on
  8x8), the quad pass's cut (:func:`knightstour.kernels.magic_quads.sum_open`);
- a block's empty squares must still be cut into knight paths of four (a table over the 65,536
  sets of a block's squares, :func:`covers`; 65 ways to cut a whole block);
- a rank or file must still reach its constant with the numbers left, odd numbers on the first
  square's colour and even on the other (:func:`knightstour.kernels.magic_quads.parity_open`).

The board's rotations carry each block to each other one and keep a tour quarter-local and
semi-magic, so the pass walks only the tours whose first run lies in the first block (the one
of a1): its parts are that block's 208 runs. Every class of the family has a tour among them.

>>> w = QuarterWalker(8, 8)
>>> w.nparts, len(w.quads), int(covers().sum())
(208, 832, 1539)
>>> w.run(quarter_range(8, 8), 0).done
True
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from knightstour.magic._blocks import Square, knight
from knightstour.magic._parts import Range
from knightstour.magic.quads import QuadWalker, applies

__all__ = ["QUARTER_RANGE", "SCHEME", "QuarterWalker", "block_paths", "covers", "quarter_range"]

#: The number of the quarter pass among the ranges (the quad pass is 0, the numbered ranges
#: begin at 1).
QUARTER_RANGE = -1
#: The version of the quarter walk and its parts, as recorded in a journal.
SCHEME = "quarters/1"


def quarter_range(width: int, height: int, closed: bool = False) -> Range | None:
    """The quarter pass of ``width x height`` as a range (number :data:`QUARTER_RANGE`), or
    None where it does not apply (as the quad pass: 4m x 4n boards of up to 64 squares)."""
    if not applies(width, height):
        return None
    return Range(QUARTER_RANGE, -1, -1, 0, closed)


def scheme(rng: Range) -> str:
    """The journal's name for the quarter pass ``rng`` walks."""
    return SCHEME + ("/closed" if rng.closed else "")


@lru_cache(maxsize=1)
def block_paths() -> tuple[tuple[Square, ...], ...]:
    """Every knight path of four squares inside a 4 x 4 block, ``(x, y)`` squares in order.

    >>> paths = block_paths()
    >>> len(paths), len({frozenset(p) for p in paths})
    (208, 92)
    """
    squares = [(x, y) for y in range(4) for x in range(4)]
    return tuple(
        p
        for p in itertools.permutations(squares, 4)
        if all(knight(p[i], p[i + 1]) for i in range(3))
    )


@lru_cache(maxsize=1)
def covers() -> np.ndarray:
    """For every set of a block's squares (bit ``4 y + x``), whether it can be cut into knight
    paths of four (uint8, 65,536 entries; the empty set can).

    >>> c = covers()
    >>> bool(c[0xFFFF]), bool(c[0]), bool(c[0b1111])
    (True, True, False)
    """
    sets = sorted({sum(1 << (4 * y + x) for x, y in p) for p in block_paths()})
    out = np.zeros(1 << 16, dtype=np.uint8)
    out[0] = 1
    by_low: dict[int, list[int]] = {}
    for m in sets:
        by_low.setdefault(m & -m, []).append(m)
    # in order of size: a set can be cut when its lowest square's path leaves a set that can
    for m in sorted(range(1, 1 << 16), key=lambda v: bin(v).count("1")):
        if bin(m).count("1") % 4:
            continue
        low = m & -m
        out[m] = any(s & m == s and out[m ^ s] for s in by_low.get(low, ()))
    return out


class QuarterWalker(QuadWalker):
    """The compiled quarter walk on one board: its tables, and a part walked to its end."""

    scheme_name = SCHEME
    name = "quarter pass"

    def __init__(self, width: int, height: int, *, compiled: bool = True) -> None:
        super().__init__(width, height, compiled=compiled)
        self.cover = covers()

    def below(self, prefix: list[int]) -> np.ndarray:
        """Every semi-magic tour (rows of squares) that begins with the runs ``prefix`` (indices
        into ``quads``, the first one of the first block), walked with every cut: what a test
        compares with a walk without cuts.

        >>> w = quarter_walker(8, 8)
        >>> w.below([0]).shape[1]
        64
        """
        kq = self.kq
        nq = self.width * self.height // 4
        st = {"seq": np.zeros(nq, dtype=np.int64), "it": np.zeros(nq, dtype=np.int64),
              "meta": np.zeros(kq.META, dtype=np.int64)}  # fmt: skip
        st["seq"][: len(prefix)] = prefix
        st["meta"][kq.DEPTH] = -1
        out = np.zeros((64, self.width * self.height), dtype=np.int32)
        rows = []
        part = int(np.flatnonzero(self.firsts == prefix[0])[0])
        while True:
            status = self.walk(part, st, 2**62, np.zeros(1, np.uint8), out, len(prefix) - 1)
            rows.append(out[: int(st["meta"][kq.WRITTEN])].copy())
            if status != kq.FULL:
                return np.concatenate(rows)

    def shapes(self) -> tuple[tuple[Square, ...], ...]:
        """The units of a 4 x 4 block: every knight path of four squares (:func:`block_paths`)."""
        return block_paths()

    def first_units(self, per_block: int) -> np.ndarray:
        """The runs of one block of each orbit of blocks under the board's symmetries (the first
        block alone on 8x8): each tour has an image that begins in one of them."""
        from knightstour.board import symmetries

        w, bw = self.width, self.width // 4
        perms, _ = symmetries(w, self.height)
        firsts: list[int] = []
        for b in range(len(self.quads) // per_block):
            corner = (4 * (b // bw)) * w + 4 * (b % bw)  # a square of block b
            images = {int(g[corner]) % w // 4 + int(g[corner]) // w // 4 * bw for g in perms}
            if b == min(images):
                firsts += range(b * per_block, (b + 1) * per_block)
        return np.array(firsts, dtype=np.int64)


@lru_cache(maxsize=4)
def quarter_walker(width: int, height: int) -> QuarterWalker:
    """This process's quarter walker of ``width x height`` (made once)."""
    return QuarterWalker(width, height)
