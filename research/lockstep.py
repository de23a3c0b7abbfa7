"""The lockstep walk of the block construction along one block pattern, compiled.

The construction of :mod:`knightstour.magic.construct` walks two strands, P and Q, through the
4 x 4 blocks side by side, each block twice, each strand taking one *unit* of the block at every
step (a traversal of one of its 4-cycles, or one of its open transversal paths). Along a given
block pattern the choices left are the units; :class:`LockstepWalker` walks them all in
compiled code (:mod:`research._lockstep_kernels`), fast enough to walk a pattern whole in
milliseconds: ``python -m research.magic_patterns`` walks thousands of patterns with it in
search of a magic 12x12 tour.

>>> from knightstour.magic.construct import _PATTERNS
>>> from research.blocks import tables
>>> w = LockstepWalker(3, 3, tables(True), path_blocks=diagonal_blocks(3))
>>> found = [w.walk(_PATTERNS[(3, 3)][0][::-1], colour, check=False) for colour in (0, 1)]
>>> [status for status, _, _ in found]
[1, 1]
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from knightstour.magic._blocks import knight

__all__ = ["LockstepWalker", "diagonal_blocks"]

#: A walk's outcome (as the kernel's): a tour found; the budget spent; the pattern walked whole.
FOUND, SPENT, EXHAUSTED = 1, 0, -1


def diagonal_blocks(bw: int) -> tuple[int, ...]:
    """The blocks of ``bw`` x ``bw`` blocks on a long diagonal of the board.

    >>> diagonal_blocks(3)
    (0, 2, 4, 6, 8)
    """
    return tuple(b for b in range(bw * bw) if b % bw == b // bw or b % bw + b // bw == bw - 1)


class LockstepWalker:
    """The compiled lockstep walk on ``bw`` x ``bh`` blocks, with the units of ``tables``.

    ``tables`` is a unit table (:func:`research.blocks.tables`): its first 32
    units are the cycles' traversals, any further ones open transversal paths, which only the
    blocks in ``path_blocks`` take (a magic tour needs them on the long diagonals; elsewhere they
    multiply the walk).
    """

    def __init__(self, bw: int, bh: int, tables: Any, *, path_blocks: Collection[int] = ()) -> None:
        from knightstour.kernels import jit
        from research import _lockstep_kernels as kl

        self.k = jit.load(kl, compiled=True)
        self.bw, self.bh = bw, bh
        travs, masks = tables.travs, tables.masks
        nu = len(travs)
        nblocks = bw * bh
        self.lsq = np.array([[list(s) for s in squares] for _, squares in travs], dtype=np.int64)
        self.mask = np.array(masks, dtype=np.int64)
        self.colour = np.array([(sq[0][0] + sq[0][1]) % 2 for _, sq in travs], dtype=np.int64)
        self.vr = np.zeros((nu, nu, 4), dtype=np.int64)
        self.vc = np.zeros((nu, nu, 4), dtype=np.int64)
        for (p, q), (r, c) in tables.vec.items():
            self.vr[p, q], self.vc[p, q] = r, c
        self.allowed = np.zeros((nblocks, nu), dtype=np.bool_)
        self.kind = np.zeros(nblocks, dtype=np.int64)
        for b in range(nblocks):
            self.allowed[b, :32] = True
            if b in path_blocks:
                self.allowed[b] = True
                self.kind[b] = 1
        # the squares two units of a block may cover: cycles only, or any units
        self.cover = np.zeros((2, 1 << 16), dtype=np.bool_)
        for p in range(nu):
            for q in range(nu):
                if not masks[p] & masks[q]:
                    self.cover[1, masks[p] | masks[q]] = True
                    if p < 32 and q < 32:
                        self.cover[0, masks[p] | masks[q]] = True
        # the units of each block whose first square is a move from each square
        width, height = 4 * bw, 4 * bh
        follow: list[list[list[int]]] = [
            [[] for _ in range(nblocks)] for _ in range(width * height)
        ]
        for b in range(nblocks):
            ox, oy = 4 * (b % bw), 4 * (b // bw)
            for u, (_, squares) in enumerate(travs):
                fx, fy = ox + squares[0][0], oy + squares[0][1]
                for s in range(width * height):
                    if knight((s % width, s // width), (fx, fy)):
                        follow[s][b].append(u)
        most = max(len(units) for per in follow for units in per)
        self.succ = np.zeros((width * height, nblocks, most), dtype=np.int64)
        self.nsucc = np.zeros((width * height, nblocks), dtype=np.int64)
        for s, per in enumerate(follow):
            for b, units in enumerate(per):
                self.succ[s, b, : len(units)] = units
                self.nsucc[s, b] = len(units)
        n = 4 * bw
        self.magic = n * (n * n + 1) // 2

    def walk(
        self,
        beta: tuple[int, ...],
        p_colour: int,
        *,
        check: bool,
        seed: int | None = None,
        budget: int = 2**62,
    ) -> tuple[int, list[tuple[int, int, int]] | None, int]:
        """Walk the pattern ``beta`` (search order: the joint's block first), P's units starting
        on colour ``p_colour``: (outcome, the steps (block, P's unit, Q's unit) of the tour found
        or None, nodes). ``check``: both long diagonals add up to the magic constant. ``seed``
        shuffles the order in which the units are tried (None: the table's order)."""
        succ, order = self.succ, np.arange(len(self.lsq), dtype=np.int64)
        if seed is not None:
            rng = np.random.default_rng(seed)
            most = self.succ.shape[2]
            # each list in a random order, its empty places kept at its end
            key = rng.random(self.succ.shape)
            key[np.arange(most) >= self.nsucc[..., None]] = 2.0
            succ = np.take_along_axis(self.succ, np.argsort(key, axis=2), axis=2)
            order = rng.permutation(len(self.lsq)).astype(np.int64)
        out = np.zeros((len(beta), 3), dtype=np.int64)
        meta = np.zeros(1, dtype=np.int64)
        status = int(
            self.k.lockstep_walk(
                np.asarray(beta, dtype=np.int64), self.bw, self.allowed, self.kind, self.lsq,
                self.mask, self.colour, self.vr, self.vc, self.cover, int(p_colour), succ,
                self.nsucc, order, bool(check), self.magic, int(budget), out, meta,
            )
        )  # fmt: skip
        steps = [(int(b), int(p), int(q)) for b, p, q in out] if status == FOUND else None
        return status, steps, int(meta[0])
