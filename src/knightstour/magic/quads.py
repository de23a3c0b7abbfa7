"""The quad pass of the semi-magic search: the tours whose runs of four are quads of 4 x 4 blocks.

A *quad* of a 4 x 4 block is a knight path of four of its squares with one square in each rank
and each file of the block (:func:`block_quads`: 48, the 32 ways round the block's four
transversal 4-cycles, :data:`knightstour.magic._blocks.CYCLES`, and 16 paths that are not
cycles). A *quad tour* puts every run of four numbers 4j + 1 ... 4j + 4 on a quad: Beverley's
semi-magic tour of 1848 is one. On a board of 4m x 4n squares these tours are few enough to walk
them all in seconds (:mod:`knightstour.kernels.magic_quads`), and many semi-magic tours are among
them, so :func:`knightstour.magic.search.search` walks them first, as *range 0*, before the
numbered ranges that hold every tour (which take days on 8x8). The pass is cut into parts by
the tour's first quad (each quad of each block: 192 on 8x8), so it is recorded, resumed and
spread over workers like any range.

>>> w = QuadWalker(8, 8)
>>> w.nparts, w.targets.tolist()
(192, [60, 60, 60, 60])
>>> result = w.run(quad_range(8, 8), 0)
>>> result.done, result.nodes > 0
(True, True)
>>> applies(6, 6), applies(4, 12)
(False, True)
"""

from __future__ import annotations

import itertools
import time
from functools import lru_cache
from typing import Any

import numpy as np

from knightstour.magic._blocks import Square, knight
from knightstour.magic._parts import PartResult, Range

__all__ = ["QUAD_RANGE", "SCHEME", "QuadWalker", "applies", "quad_range", "quad_walker", "scheme"]

#: The number of the quad pass among the ranges (the numbered ranges begin at 1).
QUAD_RANGE = 0
#: The version of the quad walk and its parts, as recorded in a journal (closed-only passes keep
#: their own record: they keep only the closed tours).
SCHEME = "quads/3"
#: The largest board the quad pass takes (as the search).
MAX_AREA = 64


def applies(width: int, height: int) -> bool:
    """Whether the quad pass walks ``width x height``: both sides multiples of 4, at most 64
    squares, and each block row's (and column's) quads able to share the sum their lines need.
    """
    if width % 4 or height % 4 or width * height > MAX_AREA or width * height == 0:
        return False
    return _targets(width, height) is not None


def _targets(width: int, height: int) -> np.ndarray | None:
    """The sum of j the quads of each block row (then block column) must have, or None.

    The quads of a block row put one square in each of its four ranks: over those ranks they
    add up to 16 x (the sum of their j) + 10 a quad, which must be 4 rank constants.
    """
    n = width * height
    bw, bh = width // 4, height // 4
    rank, file = width * (n + 1), height * (n + 1)  # twice the constants
    row_num, col_num = 2 * rank - 40 * bw, 2 * file - 40 * bh  # 16 x the sums of j
    if rank % 2 or file % 2 or row_num % 16 or col_num % 16:
        return None
    return np.array([row_num // 16] * bh + [col_num // 16] * bw, dtype=np.int64)


def quad_range(width: int, height: int, closed: bool = False) -> Range | None:
    """The quad pass of ``width x height`` as a range (number :data:`QUAD_RANGE`), or None."""
    if not applies(width, height):
        return None
    return Range(QUAD_RANGE, -1, -1, 0, closed)


@lru_cache(maxsize=1)
def block_quads() -> tuple[tuple[Square, ...], ...]:
    """Every quad of a 4 x 4 block, ``(x, y)`` squares in order: four squares joined by three
    knight's moves, one in each rank and each file of the block. There are 48: the 32 ways round
    the block's four 4-cycles (4 entries x 2 directions), and 16 paths that are not cycles.

    >>> from knightstour.magic._blocks import CYCLES
    >>> cycles = {frozenset(c) for c in CYCLES}
    >>> len(block_quads()), sum(frozenset(q) in cycles for q in block_quads())
    (48, 32)
    """
    squares = [(x, y) for y in range(4) for x in range(4)]
    out = []
    for path in itertools.permutations(squares, 4):
        moves = all(knight(path[i], path[i + 1]) for i in range(3))
        if moves and len({x for x, _ in path}) == 4 and len({y for _, y in path}) == 4:
            out.append(path)
    return tuple(out)


def scheme(rng: Range) -> str:
    """The journal's name for the quad pass ``rng`` walks."""
    return SCHEME + ("/closed" if rng.closed else "")


class QuadWalker:
    """The compiled quad walk on one board: its tables, and a part walked to its end."""

    #: the journal's name for the walk (:func:`scheme`)
    scheme_name = SCHEME

    def __init__(self, width: int, height: int, *, compiled: bool = True) -> None:
        from knightstour.errors import InvalidInputError
        from knightstour.kernels import jit
        from knightstour.kernels import magic_quads as kq

        targets = _targets(width, height) if applies(width, height) else None
        if targets is None:
            raise InvalidInputError(f"the {self.name} does not walk {width}x{height}")
        self.width, self.height, self.targets = width, height, targets
        self.kq = kq
        self.k = jit.load(kq, compiled=compiled)
        bw = width // 4
        shapes = self.shapes()
        nblocks = bw * (height // 4)
        self.quads = np.zeros((nblocks * len(shapes), 4), dtype=np.int64)
        self.block = np.repeat(np.arange(nblocks, dtype=np.int64), len(shapes))
        for b in range(nblocks):
            ox, oy = 4 * (b % bw), 4 * (b // bw)
            for i, squares in enumerate(shapes):
                self.quads[b * len(shapes) + i] = [(oy + y) * width + ox + x for x, y in squares]
        #: each unit's squares as bits ``4 y + x`` of its block
        self.mask = np.array(
            [sum(1 << (4 * y + x) for x, y in squares) for squares in shapes] * nblocks,
            dtype=np.int64,
        )
        n = width * height
        firsts = [(int(f) % width, int(f) // width) for f in self.quads[:, 0]]
        follow = [
            [q for q, f in enumerate(firsts) if knight((s % width, s // width), f)]
            for s in range(n)
        ]
        self.succ = np.full((n, max(map(len, follow))), -1, dtype=np.int64)
        self.nsucc = np.array([len(f) for f in follow], dtype=np.int64)
        for s, f in enumerate(follow):
            self.succ[s, : len(f)] = f
        #: the parts: part p walks the tours that begin with unit ``firsts[p]``
        self.firsts = self.first_units(len(shapes))
        self.nparts = len(self.firsts)
        #: the board's tables as the walk takes them (:func:`knightstour.kernels.magic_quads.walk`)
        self.tables = (
            self.quads, self.block, self.mask, self.succ, self.nsucc, width, height, targets,
        )  # fmt: skip

    #: what the walk is called in a refusal
    name = "quad pass"

    def shapes(self) -> tuple[tuple[Square, ...], ...]:
        """The units of a 4 x 4 block, squares in order: the quads (:func:`block_quads`)."""
        return block_quads()

    def first_units(self, per_block: int) -> np.ndarray:
        """The units a tour may begin with, one part each: every unit of every block."""
        return np.arange(len(self.quads), dtype=np.int64)

    #: the walk's ``cover`` (:func:`knightstour.kernels.magic_quads.walk`): None, the quad
    #: pass's cuts
    cover: np.ndarray | None = None

    def walk(self, part: int, st: dict[str, np.ndarray], budget: int, stop: np.ndarray,
             out: np.ndarray, base: int = 0) -> int:  # fmt: skip
        """One call of the compiled walk of ``part`` from the state ``st`` (keeping its first
        ``base`` + 1 units): its status."""
        return int(self.k.walk(
            self.tables, self.cover, int(self.firsts[part]), base, st["seq"], st["it"],
            st["meta"], budget, stop, out,
        ))  # fmt: skip

    def run(
        self,
        rng: Range,
        part: int,
        stop: np.ndarray | None = None,
        budget: int = 2**62,
        state: dict[str, Any] | None = None,
    ) -> PartResult:
        """Walk part ``part`` (the tours whose first quad is unit ``part``: each quad of each
        block, :attr:`quads`) to its end, or until ``stop[0]`` is set or ``budget`` nodes are spent;
        from its start, or from the ``state`` a stopped walk of it left. Closed tours only when
        ``rng.closed``."""
        kq = self.kq
        t0 = time.perf_counter()
        stop = np.zeros(1, np.uint8) if stop is None else stop
        nq = self.width * self.height // 4
        if state is not None:
            st = self.restore(part, state)
        else:
            meta = np.zeros(kq.META, dtype=np.int64)
            meta[kq.DEPTH] = -1
            st = {
                "seq": np.zeros(nq, dtype=np.int64),
                "it": np.zeros(nq, dtype=np.int64),
                "meta": meta,
            }
        before = int(st["meta"][kq.NODES])
        out = np.zeros((64, self.width * self.height), dtype=np.int32)
        rows: list[np.ndarray] = []
        while True:
            status = self.walk(part, st, budget, stop, out)
            rows.append(out[: int(st["meta"][kq.WRITTEN])].copy())
            if status != kq.FULL:
                break
        tours = np.concatenate(rows)
        if rng.closed and len(tours):
            w = self.width
            ends = [knight((a % w, a // w), (b % w, b // w)) for a, b in tours[:, [0, -1]]]
            tours = tours[np.array(ends, dtype=bool)]
        done = status == kq.DONE
        meta = st["meta"]
        return PartResult(
            rng.number, part, tours, int(meta[kq.NODES]) - before, time.perf_counter() - t0,
            done, None if done else self.saved(st), int(meta[kq.FOUND]), int(meta[kq.NODES]),
            self.scheme_name + ("/closed" if rng.closed else ""),
        )  # fmt: skip

    def saved(self, st: dict[str, np.ndarray]) -> dict[str, Any]:
        """What a stopped walk keeps of its state ``st`` (:mod:`knightstour.magic.saved`): the
        quads placed, the next option at the depth after them, its nodes and tours so far."""
        meta, depth = st["meta"], int(st["meta"][self.kq.DEPTH])
        return {
            "path": np.array(st["seq"][: depth + 1], dtype=np.int32),
            "cursor": int(st["it"][depth + 1]),
            "nodes": int(meta[self.kq.NODES]),
            "found": int(meta[self.kq.FOUND]),
        }

    def restore(self, part: int, walk: dict[str, Any]) -> dict[str, np.ndarray]:
        """The walk's arrays rebuilt from what a stopped walk of ``part`` kept (:meth:`saved`):
        its quads checked one by one (the part's first, each on the board, disjoint from the
        others, each a successor of the one before), then the cursors. Anything else is an
        :class:`~knightstour.errors.InvalidInputError` saying what does not fit."""
        from knightstour.errors import InvalidInputError

        kq, nq = self.kq, self.width * self.height // 4
        path = np.asarray(walk["path"])
        if path.ndim != 1 or not 1 <= len(path) <= nq - 1:
            raise InvalidInputError(f"its path of {path.size} quads is not a walk of this part")
        path = path.astype(np.int64)
        if not 0 <= part < self.nparts or int(path[0]) != int(self.firsts[part]):
            raise InvalidInputError("its path does not begin with this part's quad")
        if ((path < 0) | (path >= len(self.quads))).any():
            raise InvalidInputError("its path holds quads that are not on the board")
        squares = self.quads[path].ravel()
        if len(set(squares.tolist())) != len(squares):
            raise InvalidInputError("its path holds quads that share squares")
        it = np.zeros(nq, dtype=np.int64)
        for d in range(1, len(path)):
            last = int(self.quads[path[d - 1], 3])
            options = self.succ[last, : self.nsucc[last]]
            at = np.flatnonzero(options == path[d])
            if not len(at):
                raise InvalidInputError(f"its quad {d} does not follow the one before")
            it[d] = int(at[0]) + 1
        depth = len(path) - 1
        cursor = int(walk["cursor"])
        if not 0 <= cursor <= self.nsucc[int(self.quads[path[-1], 3])]:
            raise InvalidInputError(f"its cursor {cursor} is past the options of its depth")
        it[depth + 1] = cursor
        seq = np.zeros(nq, dtype=np.int64)
        seq[: depth + 1] = path
        meta = np.zeros(kq.META, dtype=np.int64)
        meta[kq.DEPTH], meta[kq.NODES], meta[kq.FOUND] = depth, walk["nodes"], walk["found"]
        return {"seq": seq, "it": it, "meta": meta}


@lru_cache(maxsize=4)
def quad_walker(width: int, height: int) -> QuadWalker:
    """This process's quad walker of ``width x height`` (made once)."""
    return QuadWalker(width, height)
