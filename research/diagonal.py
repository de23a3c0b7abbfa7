"""The construction's depth-first search with the diagonals' bookkeeping, and without a pattern.

:func:`knightstour.magic.construct._search` walks the two strands P and Q along a stored block
pattern and balances ranks and files. This is the search it grew from, kept for the experiments:
with ``diagonal`` it also takes the blocks' open transversal paths (:func:`research.blocks.paths`)
and adds up both long diagonals on the tour's own numbers, checking each when its last square is
numbered (a magic tour); with no pattern (``beta`` None) it chooses the blocks as it goes, a
search over block patterns too (``python -m research.magic_patterns free``; the stored patterns
of the package were found that way). The package's search is this one without both.

>>> import random
>>> from knightstour.magic.construct import _PATTERNS
>>> from knightstour.numbering import analyse
>>> steps = search(2, 2, _PATTERNS[(2, 2)][0][::-1], random.Random(1), False, 20_000)
>>> analyse(8, 8, assembled(2, 2, walked_back(steps, False), False).tolist()).verdict
'semi-magic'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from knightstour.magic._blocks import assemble, knight
from knightstour.magic.construct import _reversed_walk
from research.blocks import tables as unit_tables

__all__ = ["assembled", "search", "walked_back"]


def walked_back(
    steps: list[tuple[int, int, int]], paths: bool = False
) -> list[tuple[int, int, int]]:
    """The walk run the other way (the package's ``_reversed_walk``) over the units of
    ``unit_tables(paths)``."""
    return _reversed_walk(steps, unit_tables(paths).travs)


def assembled(bw: int, bh: int, steps: list[tuple[int, int, int]], paths: bool) -> np.ndarray:
    """The tour of a lockstep walk whose units come from ``unit_tables(paths)``: P, then Q
    backwards."""
    return assemble(bw, bh, steps, unit_tables(paths).travs)


def search(
    bw: int,
    bh: int,
    beta: Sequence[int] | None,
    rng: random.Random,
    diagonal: bool,
    budget: int,
    stats: dict[str, int] | None = None,
) -> list[tuple[int, int, int]] | None:
    """One depth-first attempt along the block pattern ``beta``: (block, P's, Q's unit) a step.

    With ``beta`` None the search chooses the blocks as it goes (a search over block patterns
    too): each step in a block visited fewer than twice, the one before or a neighbour of it.

    Cuts a branch when a block row or column is complete and unbalanced, when its one open block
    cannot balance it any more, or (``diagonal``) when a long diagonal can no longer reach the
    magic constant. Gives up after ``budget`` nodes (the caller restarts in another order).
    ``stats``, if given, gets the number of nodes visited under ``"nodes"``.

    Semi-magic tours take whole cycles as units (``unit_tables()``); magic ones (``diagonal``) may
    also take the open transversal paths (``unit_tables(True)``): with whole cycles no diagonal of
    12x12 can add up to 870 (docs/magic.md).
    """
    tables = unit_tables(diagonal)
    travs, masks, vec, need_r, need_c = tables[:5]
    units = len(travs)
    nblocks = bw * bh
    squares = [
        [tuple((x + 4 * (b % bw), y + 4 * (b // bw)) for x, y in travs[t][1]) for t in range(units)]
        for b in range(nblocks)
    ]
    all_r = set().union(*need_r.values())
    all_c = set().union(*need_c.values())
    visits = [0] * nblocks
    first: list[tuple[int, int] | None] = [None] * nblocks
    used = [0] * nblocks
    row_sum = [[0] * 4 for _ in range(bh)]
    col_sum = [[0] * 4 for _ in range(bw)]
    row_open, col_open = [bw] * bh, [bh] * bw
    cycles = 4 * nblocks
    n = 4 * bw
    magic = n * (n * n + 1) // 2
    on_diag = [(b % bw == b // bw, b % bw + b // bw == bw - 1) for b in range(nblocks)]
    tracked = [diagonal and (d or a) for d, a in on_diag]
    diag, diag_done = [0, 0], [0, 0]
    path: list[tuple[int, int, int]] = []
    nodes = 0

    def balanced(line_open: int, sums: list[int], blocks: list[int], need: dict) -> bool:
        if line_open == 0:
            return not any(sums)
        if line_open > 1:
            return True
        want = tuple(-v for v in sums)
        b = next(b for b in blocks if visits[b] < 2)
        pair = first[b]
        if pair is None:
            return want in (all_r if need is need_r else all_c)
        return want in need[pair]

    def ok(b: int) -> bool:
        y, x = divmod(b, bw)
        row = [y * bw + i for i in range(bw)]
        col = [i * bw + x for i in range(bh)]
        return balanced(row_open[y], row_sum[y], row, need_r) and balanced(
            col_open[x], col_sum[x], col, need_c
        )

    def diag_step(b: int, i: int, p: int, q: int) -> list[tuple[int, int]]:
        """(sum, squares) that step ``i``'s two units put on the main and the anti-diagonal.

        The numbers are the tour's, after the caller turns the walk round (:func:`_reversed_walk`):
        P's k-th square at step i holds 2 cycles - 4i - k, Q's 2 cycles + 1 + 4i + k.
        """
        s, c = [0, 0], [0, 0]
        for k in range(4):
            for v, (x, y) in (
                (2 * cycles - 4 * i - k, travs[p][1][k]),
                (2 * cycles + 1 + 4 * i + k, travs[q][1][k]),
            ):
                for d, on in enumerate((x == y, x + y == 3)):
                    if on and on_diag[b][d]:
                        s[d] += v
                        c[d] += 1
        return [(s[d], c[d]) for d in range(2)]

    def diag_ok() -> bool:
        """Whether each long diagonal, once all its squares are numbered, adds up to the constant."""
        return all(diag_done[d] < n or diag[d] == magic for d in range(2))

    def step(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if i == 2 * nblocks:
            return True
        if beta is not None:
            return in_block(i, beta[i])
        # no pattern: the next block is any block visited fewer than twice that a knight's move
        # can reach: the one before or one of its (up to) eight neighbours
        if path:
            y0, x0 = divmod(path[-1][0], bw)
            near = [
                y * bw + x
                for y in range(max(0, y0 - 1), min(bh, y0 + 2))
                for x in range(max(0, x0 - 1), min(bw, x0 + 2))
            ]
        else:
            near = list(range(nblocks))
        near = [b for b in near if visits[b] < 2]
        rng.shuffle(near)
        for b in near:
            if in_block(i, b):
                return True
            if nodes > budget:
                return False
        return False

    def in_block(i: int, b: int) -> bool:
        free = [t for t in range(units) if not masks[t] & used[b]]
        if path:
            pb, pp, pq = path[-1]
            p_end, q_end = squares[pb][pp][3], squares[pb][pq][3]
            ps = [t for t in free if knight(p_end, squares[b][t][0])]
            qs0 = [t for t in free if knight(q_end, squares[b][t][0])]
        else:
            ps, qs0 = list(free), free
        rng.shuffle(ps)
        for p in ps:
            qs = [t for t in qs0 if not masks[t] & masks[p]]
            if visits[b] == 0 and units > 32:
                qs = [t for t in qs if 0xFFFF ^ masks[p] ^ masks[t] in tables.cover]
            rng.shuffle(qs)
            for q in qs:
                # P's units all start on one colour and Q's on the other, or no joint exists
                if (sum(squares[b][p][0]) + sum(squares[b][q][0])) % 2 == 0:
                    continue
                if i == 0 and not knight(squares[b][p][0], squares[b][q][0]):
                    continue  # the joint (the walk is reversed by the caller)
                if _place(i, b, p, q):
                    if step(i + 1):
                        return True
                    _unplace(b, p, q)
                if nodes > budget:
                    return False
        return False

    undo: list[tuple] = []

    def _place(i: int, b: int, p: int, q: int) -> bool:
        used[b] |= masks[p] | masks[q]
        visits[b] += 1
        path.append((b, p, q))
        y, x = divmod(b, bw)
        dr = dc = dd = None
        if visits[b] == 1:
            first[b] = (p, q)
        else:
            r1, c1 = vec[first[b]]
            r2, c2 = vec[(p, q)]
            dr, dc = (r1 + r2 - 10).tolist(), (c1 + c2 - 10).tolist()
            for k in range(4):
                row_sum[y][k] += dr[k]
                col_sum[x][k] += dc[k]
            row_open[y] -= 1
            col_open[x] -= 1
        if tracked[b]:
            dd = diag_step(b, i, p, q)
            for d, (v, c) in enumerate(dd):
                diag[d] += v
                diag_done[d] += c
        undo.append((dr, dc, dd))
        good = ok(b) and (dd is None or diag_ok())
        if not good:
            _unplace(b, p, q)
        return good

    def _unplace(b: int, p: int, q: int) -> None:
        dr, dc, dd = undo.pop()
        y, x = divmod(b, bw)
        if dr is None:
            first[b] = None
        else:
            for k in range(4):
                row_sum[y][k] -= dr[k]
                col_sum[x][k] -= dc[k]
            row_open[y] += 1
            col_open[x] += 1
        if dd is not None:
            for d, (v, c) in enumerate(dd):
                diag[d] -= v
                diag_done[d] -= c
        visits[b] -= 1
        path.pop()
        used[b] &= ~(masks[p] | masks[q])

    found = step(0)
    if stats is not None:
        stats["nodes"] = nodes
    return list(path) if found else None
