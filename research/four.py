"""The four-strand construction: semi-magic tours on 4m x 4m boards, four strands abreast.

Four strands A, B, C and D walk the board's 4 x 4 blocks together along one path of blocks,
each block visited once by all four: at step i each takes one *unit* of block ``path[i]`` (one
of its 4-cycles walked round, or one of its open transversal paths), the four units covering the
block. With K blocks the tour is A, then B backwards, then C, then D backwards, so A's unit at
step i holds the numbers 4j + 1 ... 4j + 4 of j = i, B's of j = 2K - 1 - i, C's of j = 2K + i and
D's of j = 4K - 1 - i. Those four j add up to 8K - 2 in every block, so the j part of every rank
and file is the same; the compiled walk (:mod:`research._four_kernels`) chooses the
path and the units so that the offsets 1 ... 4 share out equally over the ranks of every block
row and the files of every block column, the strands join up, and (for a magic tour) both long
diagonals add up to the constant.

The diagonals are why it was built: it is the project's second search for a magic 12x12 tour.
A diagonal square of A's unit at step i holds
4i + k + 1 and one of D's at the same step 4(4K - 1 - i) + k' + 1: the two add up to
16K - 2 + k + k', whatever i is, and B's and C's likewise. So a block whose diagonal squares are
shared that way puts numbers on the diagonal that do not depend on where the path takes it, and
the diagonal's sum is a matter of the units' places k; the two-strand construction
(:mod:`knightstour.magic.construct`) has no such pairs (its P and Q units at one step hold k and
k' of different parities, and every paired block adds 2 to the diagonal, so three give 6).
Walked whole along every path of blocks with steps between side-by-side blocks (five up to the
board's symmetries), in every plan and on both colours, it finds semi-magic tours along some of
them and no magic one (``python -m research.magic_patterns four``; ``research/tests/test_four.py``
walks a part of it).

>>> w = four_walker(3, 0)
>>> status, steps, nodes = w.walk(1, check=False, path=(0, 1, 2, 5, 8, 7, 4, 3, 6))
>>> from knightstour.numbering import analyse
>>> analyse(12, 12, assemble_four(3, steps, w.travs).tolist()).verdict
'semi-magic'

The strands may also take the quarters in other directions (:data:`PLANS`): two forwards and
two backwards keep every block's four j adding up to the same.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from knightstour.magic._blocks import knight
from research.blocks import tables

__all__ = ["PLANS", "FourWalker", "assemble_four", "assemble_strands", "four_walker"]

#: The directions in which the four strands may take the tour's quarters (1 along the path of
#: blocks, -1 backwards): two each way, so that every block's four j add up to the same.
PLANS: tuple[tuple[int, ...], ...] = (
    (1, -1, 1, -1),
    (1, 1, -1, -1),
    (1, -1, -1, 1),
    (-1, 1, 1, -1),
    (-1, 1, -1, 1),
    (-1, -1, 1, 1),
)

#: A walk's outcome (as the kernel's): a tour found; the budget spent; walked whole.
FOUND, SPENT, EXHAUSTED = 1, 0, -1


class FourWalker:
    """The compiled four-strand walk on ``bw`` x ``bw`` blocks, every unit starting on colour
    ``colour`` (the colour of the tour's odd numbers), with the units of ``tables``
    (:func:`research.blocks.tables` ``(True)``: the cycles' 32 traversals and the 16 open paths)."""

    def __init__(
        self, bw: int, colour: int, tables: object, dirs: tuple[int, ...] = (1, -1, 1, -1)
    ) -> None:
        from knightstour.kernels import jit
        from research import _four_kernels as kf

        self.k = jit.load(kf, compiled=True)
        self.bw, self.colour = bw, colour
        self.dirs = np.array(dirs, dtype=np.int64)
        travs, masks = tables.travs, tables.masks  # type: ignore[attr-defined]
        nu = len(travs)
        self.travs = travs
        self.lsq = np.array([[list(s) for s in squares] for _, squares in travs], dtype=np.int64)
        self.mask = np.array(masks, dtype=np.int64)
        mine = [u for u, (_, sq) in enumerate(travs) if (sq[0][0] + sq[0][1]) % 2 == colour]
        width = 4 * bw
        nblocks = bw * bw
        starts: list[list[list[int]]] = [[[] for _ in range(nblocks)] for _ in range(width**2)]
        ends: list[list[list[int]]] = [[[] for _ in range(nblocks)] for _ in range(width**2)]
        for b in range(nblocks):
            ox, oy = 4 * (b % bw), 4 * (b // bw)
            for u in mine:
                first, last = travs[u][1][0], travs[u][1][3]
                for s in range(width**2):
                    here = (s % width, s // width)
                    if knight(here, (ox + first[0], oy + first[1])):
                        starts[s][b].append(u)
                    if knight(here, (ox + last[0], oy + last[1])):
                        ends[s][b].append(u)
        self.mine = np.array(mine, dtype=np.int64)
        self.starts, self.nstarts = _packed(starts)
        self.ends, self.nends = _packed(ends)
        firsts = []
        for a in mine:
            for b_ in mine:
                for c in mine:
                    if masks[a] & masks[b_] or masks[c] & (masks[a] | masks[b_]):
                        continue
                    rest = 0xFFFF ^ masks[a] ^ masks[b_] ^ masks[c]
                    firsts += [(a, b_, c, d) for d in mine if masks[d] == rest]
        self.firsts = np.array(firsts, dtype=np.int64).reshape(-1, 4)
        self.room = max(nblocks * len(firsts), 1 << 12)
        self.magic = width * (width * width + 1) // 2
        #: with ``check``, also keep each diagonal block's numbers there independent of its step
        #: (a narrower search, see :func:`research._four_kernels.balanced`)
        self.even = False
        del nu

    def walk(
        self,
        seed: int,
        *,
        check: bool,
        budget: int = 2**62,
        path: tuple[int, ...] | None = None,
    ) -> tuple[int, list[tuple[int, ...]] | None, int]:
        """One walk in the random order of ``seed``: (outcome, the steps (block, A's, B's, C's,
        D's unit) of the tour found or None, nodes). ``check``: both long diagonals must add up
        to the magic constant. ``path``: the blocks in the order the strands visit them (None:
        the walk chooses them too)."""
        nblocks = self.bw * self.bw
        fixed = np.full(nblocks, -1, dtype=np.int64) if path is None else np.array(path)
        opts = np.zeros((nblocks, self.room, 5), dtype=np.int64)
        out = np.zeros((nblocks, 5), dtype=np.int64)
        meta = np.zeros(1, dtype=np.int64)
        status = int(
            self.k.four_walk(
                self.bw, self.dirs, fixed.astype(np.int64), self.lsq, self.mask, self.starts, self.nstarts, self.ends, self.nends,
                self.firsts, bool(check), self.even, self.magic, int(seed) % 2**32, int(budget), opts, out,
                meta,
            )
        )  # fmt: skip
        steps = [tuple(int(v) for v in row) for row in out] if status == FOUND else None
        return status, steps, int(meta[0])

    def walk_paths(
        self, seed: int, paths: list[tuple[int, ...]], *, check: bool, budget: int = 2**62
    ) -> tuple[int, np.ndarray | None, int]:
        """A walk with strand s on path of blocks ``paths[s]`` (see
        :func:`research._four_kernels.pairs_walk`): (outcome, the units ``[i, s]``
        of the tour found or None, nodes). A strand going forwards and one going backwards
        share each path, so that every block's four j add up to the same.

        >>> w = four_walker(3, 1, (-1, 1, -1, 1))
        >>> status, units, nodes = w.walk_paths(3, [P1, P2, P2, P1], check=False)
        >>> from knightstour.numbering import analyse
        >>> order = assemble_strands(3, [P1, P2, P2, P1], units, w.travs, (-1, 1, -1, 1))
        >>> analyse(12, 12, order.tolist()).verdict
        'semi-magic'
        """
        nblocks = self.bw * self.bw
        arr = np.array(paths, dtype=np.int64).reshape(4, nblocks)
        for s in range(4):
            partners = [
                t for t in range(4) if (arr[t] == arr[s]).all() and self.dirs[t] != self.dirs[s]
            ]
            if sorted(arr[s].tolist()) != list(range(nblocks)) or not partners:
                raise ValueError(
                    f"strand {s}'s path must visit every block once and be shared with a strand going the other way"
                )
        out = np.zeros((nblocks, 4), dtype=np.int64)
        meta = np.zeros(1, dtype=np.int64)
        status = int(
            self.k.pairs_walk(
                self.bw, self.dirs, arr, self.lsq, self.mask, self.mine, self.starts, self.nstarts, self.ends,
                self.nends, bool(check), self.magic, int(seed) % 2**32, int(budget), out, meta,
            )
        )  # fmt: skip
        return status, (out if status == FOUND else None), int(meta[0])


#: Two paths of blocks of a 12x12 board (3 x 3 blocks) along which :meth:`FourWalker.walk_paths`
#: finds semi-magic tours with the strands going (-1, 1, -1, 1): A and D on ``P1``, B and C on
#: ``P2``.
P1: tuple[int, ...] = (4, 5, 2, 1, 0, 3, 6, 7, 8)
P2: tuple[int, ...] = (0, 1, 2, 5, 4, 3, 6, 7, 8)


def _packed(lists: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Ragged lists ``lists[s][b]`` as one padded array and their lengths."""
    most = max(1, max(len(units) for per in lists for units in per))
    arr = np.zeros((len(lists), len(lists[0]), most), dtype=np.int64)
    lengths = np.zeros((len(lists), len(lists[0])), dtype=np.int64)
    for s, per in enumerate(lists):
        for b, units in enumerate(per):
            arr[s, b, : len(units)] = units
            lengths[s, b] = len(units)
    return arr, lengths


def assemble_four(
    bw: int, steps: list[tuple[int, ...]], travs: object, dirs: tuple[int, ...] = (1, -1, 1, -1)
) -> np.ndarray:
    """The tour of a four-strand walk: each strand's units in turn, in the order of the steps
    (``dirs[s]`` 1) or backwards (-1)."""
    path = [step[0] for step in steps]
    return assemble_strands(bw, [path] * 4, [step[1:] for step in steps], travs, dirs)


def assemble_strands(
    bw: int,
    paths: list[list[int]] | np.ndarray,
    units: list[tuple[int, ...]] | np.ndarray,
    travs: object,
    dirs: tuple[int, ...],
) -> np.ndarray:
    """The tour of four strands, strand s in block ``paths[s][i]`` with unit ``units[i][s]`` at
    step i: each strand's units in turn, along its path (``dirs[s]`` 1) or backwards (-1)."""
    width = 4 * bw
    order: list[int] = []
    for s in range(4):
        strand = []
        for i, b in enumerate(paths[s]):
            ox, oy = 4 * (int(b) % bw), 4 * (int(b) // bw)
            walk = travs[int(units[i][s])][1]  # type: ignore[index]
            strand.append([(oy + y) * width + ox + x for x, y in walk])
        for unit in strand if dirs[s] > 0 else strand[::-1]:
            order += unit
    return np.asarray(order, dtype=np.int32)


@lru_cache(maxsize=16)
def four_walker(bw: int, colour: int, dirs: tuple[int, ...] = (1, -1, 1, -1)) -> FourWalker:
    """This process's four-strand walker (made once)."""
    return FourWalker(bw, colour, tables(True), dirs)
