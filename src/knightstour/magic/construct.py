"""Constructions of semi-magic knight's tours from the four 4-cycles of each 4 x 4 block.

The knight's graph of a 4 x 4 block is four 4-cycles (``_blocks.CYCLES``), each a transversal: one
square in every rank and every file of the block. A tour that runs each cycle round in one go
(three moves round it, one knight's move on to the next cycle) numbers the j-th cycle it visits
4j + 1 ... 4j + 4. So a rank adds up to 4 x (the sum of the j of the cycles of its block row) plus
the *offsets* 1 ... 4 that land in it.

The scheme here makes the first part equal everywhere by **pairing**: two strands P and Q walk
through the blocks side by side, always in the same block at the same step (the *block pattern*
``beta``: every block twice), P taking one cycle there and Q another; the tour is P followed by Q
backwards. The cycle P visits at step i gets j = i and the one Q visits gets j = K - 1 - i (K
cycles in all), so the four cycles of every block add up to 2(K - 1): every rank of a block row
and every file of a block column get the same cycle part. What is left, that the offsets of each
block row (and block column) share out equally over its four ranks (files), and that P's last
square is a knight's move from Q's (the *joint* in the middle of the tour), is found by a
depth-first search over the cycles' entries and directions along a fixed block pattern, which cuts
a branch as soon as a block row or column is complete and unbalanced, or its last open block
cannot balance it. It walks the pattern backwards from the joint (:func:`_reversed_walk` turns
the walk round again), so that the joint is checked on the first step. A magic tour
(``diagonal=True``) may also take the block's open transversal paths (:func:`_paths`): with whole
cycles no diagonal of 12x12 adds up to 870 (docs/magic.md); both diagonals are added up on the
tour's own numbers and checked when their last squares are numbered.

Every tour is validated as a knight's tour and its sums checked (:func:`knightstour.numbering.analyse`)
before it is returned. ``seed`` picks the search order and one of the board's symmetries (and the
reversed numbering, k -> N + 1 - k): all keep a tour semi-magic, and magic.

Theorems used by :func:`constructible` (proofs in its docstring): a side of odd length rules out a
semi-magic tour (colour parity); the rank and file constants must be whole numbers; boards with no
knight's tour at all (the open-tour theorem).

>>> order = construct(12, 12)
>>> from knightstour.numbering import analyse
>>> analyse(12, 12, order).verdict, order.dtype.name, order.size
('semi-magic', 'int32', 144)
>>> constructible(8, 8, diagonal=True).split(":")[0]
'no magic tour on 8x8'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.errors import InternalError, InvalidInputError
from knightstour.magic._blocks import _tables, assemble, knight
from knightstour.magic.cross import crossable, crossed
from knightstour.magic.fold import foldable, folded
from knightstour.magic.lockstep import LockstepWalker, diagonal_blocks
from knightstour.numbering import analyse
from knightstour.theory import open_tour_theorem, semi_magic_obstruction
from knightstour.tour import validate

__all__ = ["MAX_SIDE", "construct", "constructible"]

#: The largest side :func:`construct` considers (refused before any memory is spent).
MAX_SIDE = 400


#: Block patterns by (block columns, block rows): each block index (y * columns + x) twice, in
#: the order the two strands visit them. Found by the author's search over block patterns;
#: the tours themselves are searched afresh on every call.
_PATTERNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (2, 2): ((0, 2, 3, 1, 3, 1, 0, 2),),
    (3, 2): ((4, 5, 2, 1, 0, 3, 0, 3, 4, 5, 2, 1),),
    (3, 3): (
        (8, 7, 6, 6, 7, 8, 5, 2, 5, 4, 1, 0, 0, 3, 3, 4, 1, 2),
        (4, 5, 5, 4, 7, 8, 8, 7, 6, 3, 6, 3, 0, 0, 1, 2, 2, 1),
    ),
}
#: Block patterns along which a fully (diagonally) magic tour has been found; (3, 3) is 12x12.
_MAGIC_PATTERNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}

#: Nodes one search attempt may visit before it restarts in another order (semi-magic; a magic
#: tour's pattern is walked whole by the compiled lockstep walk, in milliseconds).
_BUDGET = 20_000
_ATTEMPTS = 400


def _covered() -> str:
    sizes = sorted({(4 * w, 4 * h) for w, h in _PATTERNS} | {(4 * h, 4 * w) for w, h in _PATTERNS})
    return ", ".join(f"{w}x{h}" for w, h in sizes)


def constructible(width: int, height: int, diagonal: bool = False) -> str | None:
    """None when :func:`construct` can build a ``width`` x ``height`` tour, else the reason why not.

    Theorems (each refusal names the one it uses):

    1. *A side of odd length (the other at least 2) allows no semi-magic tour.* The knight changes
       colour every move, so the odd numbers all stand on one colour. A rank of odd length holds
       one more square of one colour than of the other, and the next rank the reverse, so the two
       hold different numbers of odd numbers: their sums differ in parity. Files likewise.
    2. *Every rank must add up to N(N + 1)/(2 x height)* (and every file to N(N + 1)/(2 x width)):
       when that is not a whole number there is no semi-magic numbering at all.
    3. *A board with no knight's tour* (the open-tour theorem: 1 x n, 2 x n, 3 x 3, 3 x 5, 3 x 6,
       4 x 4) has no semi-magic one.
    4. *Both sides 2 more than a multiple of 4* (6x6, 6x10, 10x10, ...) allow no semi-magic tour
       (Jelliss 2003; :func:`knightstour.theory.semi_magic_obstruction` gives the argument).

    The census of Stertenbrink, Meyrignac and Mackay (2003) found all 140 semi-magic tours of 8x8
    up to symmetry, none of them magic. Other sizes are refused as "no construction", which claims
    nothing about whether such tours exist.

    >>> constructible(12, 12) is None
    True
    >>> constructible(5, 6)
    'no semi-magic tour on 5x6: its 30 numbers add up to 465, and 465 / 6 ranks = 77.5 is not a whole number'
    >>> constructible(7, 7).split(";")[0]
    'no semi-magic tour on 7x7: the knight changes colour every move, so every odd number stands on one colour'
    >>> constructible(4, 4)
    "no semi-magic tour on 4x4, as it has no knight's tour at all: one of the four exceptions of the open-tour theorem (3x3, 3x5, 3x6, 4x4; Conrad et al. 1994), confirmed by exhaustive search"
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InvalidInputError(f"board {name} must be a whole number, not {value!r}")
        if value < 1:
            raise InvalidInputError(f"board {name} must be at least 1, got {value}")
    width, height = int(width), int(height)
    spec = f"{width}x{height}"
    if max(width, height) > MAX_SIDE:
        return (
            f"no construction for {spec}: constructions are only attempted on sides up to "
            f"{MAX_SIDE}"
        )
    existence = open_tour_theorem(Board(width, height))
    if existence.exists is False:
        why = existence.reason.removeprefix(f"no tour on {spec}: ")
        return f"no semi-magic tour on {spec}, as it has no knight's tour at all: {why}"
    if width == height == 1:
        return None
    n = width * height
    total = n * (n + 1) // 2
    if total % width or total % height:
        return f"no semi-magic tour on {spec}: its {n} numbers add up to {total}, and " + _share(
            total, width, height
        )
    if width % 2 or height % 2:
        side = "files" if height % 2 else "ranks"
        return (
            f"no semi-magic tour on {spec}: the knight changes colour every move, so every odd "
            f"number stands on one colour; {side} of odd length alternate between one more and "
            f"one fewer square of that colour, so neighbouring {side} hold different numbers of "
            f"odd numbers and their sums differ in parity"
        )
    ruled_out = semi_magic_obstruction(width, height)
    if ruled_out is not None:
        return ruled_out
    if diagonal and width != height:
        return f"no magic tour on {spec}: a magic tour needs a square board (two long diagonals)"
    if diagonal and width == 8:
        return (
            "no magic tour on 8x8: the census by Stertenbrink, Meyrignac and Mackay (2003) found "
            "all 140 semi-magic tours of 8x8 up to symmetry, and none of them is magic"
        )
    if width % 4 or height % 4:
        return (
            f"no construction for {spec}: the construction tiles the board with 4x4 blocks, so "
            f"both sides must be multiples of 4"
        )
    key = _key(width // 4, height // 4)
    if diagonal:
        if key not in _MAGIC_PATTERNS:
            if not _MAGIC_PATTERNS:
                return (
                    f"no construction for a magic tour on {spec} yet: no diagonally magic block "
                    f"pattern is known (docs/magic.md says how the search for one stands)"
                )
            magic = ", ".join(f"{4 * w}x{4 * h}" for w, h in sorted(_MAGIC_PATTERNS))
            return (
                f"no construction for a magic tour on {spec}: the construction knows diagonally "
                f"magic block patterns only for these sizes: {magic}"
            )
        return None
    if key in _PATTERNS or _foldable(width // 4, height // 4):
        return None
    return (
        f"no construction for {spec} yet: the constructions tile the board with 4x4 blocks and "
        f"need at least 2 of them along each side ({width // 4} x {height // 4} here)"
    )


def _foldable(bw: int, bh: int) -> bool:
    """Whether the folded or the crossed construction builds ``bw`` x ``bh`` blocks."""
    return foldable(bw, bh) or foldable(bh, bw) or crossable(bw, bh) or crossable(bh, bw)


def _share(total: int, width: int, height: int) -> str:
    """The end of theorem 2's reason: the line constants that are not whole numbers."""
    bad = [
        f"{total} / {count} {name} = {total / count:g}"
        for count, name in ((height, "ranks"), (width, "files"))
        if total % count
    ]
    return " and ".join(bad) + " is not a whole number"


def _key(bw: int, bh: int) -> tuple[int, int]:
    """The stored pattern size for a bw x bh block board (patterns are kept wide, not tall)."""
    return (bw, bh) if bw >= bh else (bh, bw)


def construct(
    width: int, height: int, *, diagonal: bool = False, seed: int | None = None
) -> np.ndarray:
    """A semi-magic knight's tour of ``width`` x ``height`` (magic too when ``diagonal``).

    Returns the square indices (``y * width + x``) in visiting order, an int32 array, validated
    as a tour and checked for its sums. ``seed`` picks the search order, a symmetry of the board
    and the direction of numbering; None is a fixed default. Refuses (:class:`InvalidInputError`)
    the sizes :func:`constructible` refuses, with its reason.

    >>> a, b = construct(8, 12, seed=1), construct(8, 12, seed=2)
    >>> bool((a != b).any()), sorted(a.tolist()) == list(range(96))
    (True, True)
    """
    reason = constructible(width, height, diagonal)
    if reason is not None:
        raise InvalidInputError(reason)
    width, height = int(width), int(height)
    if width == height == 1:
        return _checked(width, height, np.zeros(1, dtype=np.int32), diagonal)
    bw, bh = width // 4, height // 4
    key = _key(bw, bh)
    if not diagonal and _foldable(bw, bh):
        fold = foldable(bw, bh) or foldable(bh, bw)
        order = (folded if fold else crossed)(width, height, seed=seed)
        variant = random.Random(0 if seed is None else seed).randrange(8 if width == height else 4)
        return _checked(width, height, _symmetry(order, width, height, variant), diagonal)
    patterns = (_MAGIC_PATTERNS if diagonal else _PATTERNS)[key]
    rng = random.Random(0 if seed is None else seed)
    images = 8 if width == height else 4
    variant = rng.randrange(2 * images)
    steps = None
    if diagonal:  # walked whole by the compiled lockstep walk, P's units on either colour
        walker = _magic_walker(key)
        start = rng.randrange(2 * len(patterns))
        for attempt in range(2 * len(patterns)):
            beta = patterns[(start + attempt) // 2 % len(patterns)]
            colour = (start + attempt) % 2
            steps = walker.walk(beta[::-1], colour, check=True, seed=rng.getrandbits(32))[1]
            if steps is not None:
                break
    else:
        for attempt in range(_ATTEMPTS):
            beta = patterns[(attempt + rng.randrange(len(patterns))) % len(patterns)]
            order_rng = random.Random(rng.getrandbits(64))
            # searched backwards from the joint, so that the joint is the first step's check (a
            # cheap filter) rather than the last's (a whole walk wasted when it fails)
            steps = _search(key[0], key[1], beta[::-1], order_rng, diagonal, _BUDGET)
            if steps is not None:
                break
    if steps is None:  # pragma: no cover - every stored pattern holds tours
        raise InternalError(f"the construction found no tour on {width}x{height}")
    order = _assemble(key[0], key[1], _reversed_walk(steps, diagonal), diagonal)
    if key != (bw, bh):
        order = _transpose(order, 4 * key[0], 4 * key[1])
    order = _symmetry(order, width, height, variant)
    return _checked(width, height, order, diagonal)


@lru_cache(maxsize=2)
def _magic_walker(key: tuple[int, int]) -> LockstepWalker:
    """The compiled lockstep walk of a magic tour on ``key`` blocks (open transversal paths in
    the blocks on a long diagonal)."""
    return LockstepWalker(key[0], key[1], _tables(True), path_blocks=diagonal_blocks(key[0]))


def _checked(width: int, height: int, order: np.ndarray, diagonal: bool) -> np.ndarray:
    """``order`` as int32 after validating it as a tour with the sums asked for."""
    order = np.ascontiguousarray(order, dtype=np.int32)
    try:
        validate(Board(width, height), order)
    except InvalidInputError as exc:  # pragma: no cover - a bug, never the caller's input
        raise InternalError(f"the construction made something that is not a tour: {exc}") from exc
    verdict = analyse(width, height, order.tolist()).verdict
    if verdict not in (("magic",) if diagonal else ("semi-magic", "magic")):
        raise InternalError(f"the constructed tour of {width}x{height} is {verdict}")
    return order


# -- the search -----------------------------------------------------------------------------------


def _search(
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

    Semi-magic tours take whole cycles as units (``_tables()``); magic ones (``diagonal``) may
    also take the open transversal paths (``_tables(True)``): with whole cycles no diagonal of
    12x12 can add up to 870 (docs/magic.md).
    """
    tables = _tables(diagonal)
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


def _reversed_walk(
    steps: list[tuple[int, int, int]], paths: bool = False
) -> list[tuple[int, int, int]]:
    """The same walk run the other way: the steps in reverse order, each unit walked backwards.

    Every block keeps its four units, and a unit walked backwards puts 5 - k where it put k, so
    every line that was balanced stays balanced; the first step's joint becomes the last's.
    """
    travs = _tables(paths).travs
    index = {squares: t for t, (_, squares) in enumerate(travs)}
    back = [index[squares[::-1]] for _, squares in travs]
    return [(b, back[p], back[q]) for b, p, q in reversed(steps)]


def _assemble(bw: int, bh: int, steps: list[tuple[int, int, int]], paths: bool) -> np.ndarray:
    """The tour of a lockstep walk whose units come from ``_tables(paths)``: P, then Q backwards."""
    return assemble(bw, bh, steps, _tables(paths).travs if paths else None)


def _transpose(order: np.ndarray, width: int, height: int) -> np.ndarray:
    """The same tour on the ``height`` x ``width`` board, files and ranks exchanged."""
    x, y = order % width, order // width
    return (x * height + y).astype(np.int32)


def _symmetry(order: np.ndarray, width: int, height: int, variant: int) -> np.ndarray:
    """One of the board's symmetries (8 on a square, 4 on a rectangle) and maybe reversed."""
    perms, _ = symmetries(width, height)
    out = perms[variant % len(perms)][order].astype(np.int32)
    return out[::-1].copy() if variant >= len(perms) else out
