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
the walk round again), so that the joint is checked on the first step. Magic tours (both long
diagonals on the constant too) are not built: the searches for them are experiments kept out of
the package (``research/`` in the source tree, docs/magic.md).

Every tour is validated as a knight's tour and its sums checked (:func:`knightstour.numbering.analyse`)
before it is returned. ``seed`` picks the search order and one of the board's symmetries (and the
reversed numbering, k -> N + 1 - k): all keep a tour semi-magic, and magic.

The theorems that rule a board out are :func:`knightstour.theory.semi_magic_verdict`'s; the
census of 8x8 (:func:`knightstour.published.census`) rules out its magic tours.

>>> order = construct(12, 12)
>>> from knightstour.numbering import analyse
>>> analyse(12, 12, order).verdict, order.dtype.name, order.size
('semi-magic', 'int32', 144)
>>> constructible(8, 8, diagonal=True).split(":")[0]
'no magic tour on 8x8'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.errors import InternalError, InvalidInputError
from knightstour.magic._blocks import Square, _tables, assemble, knight
from knightstour.magic.cross import crossable, crossed
from knightstour.magic.fold import foldable, folded
from knightstour.numbering import analyse
from knightstour.published import census
from knightstour.theory import semi_magic_verdict
from knightstour.tour import validate

__all__ = ["MAX_SIDE", "construct", "constructible", "construction", "pattern_walks"]

#: The largest side :func:`construct` considers (refused before any memory is spent).
MAX_SIDE = 400


#: Block patterns by (block columns, block rows): each block index (y * columns + x) twice, in
#: the order the two strands visit them. Found by a search over block patterns (the search below
#: choosing its blocks as it goes, research/ in the source tree); the tours themselves are
#: searched afresh on every call.
_PATTERNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (2, 2): ((0, 2, 3, 1, 3, 1, 0, 2),),
    (3, 2): ((4, 5, 2, 1, 0, 3, 0, 3, 4, 5, 2, 1),),
    (3, 3): (
        (8, 7, 6, 6, 7, 8, 5, 2, 5, 4, 1, 0, 0, 3, 3, 4, 1, 2),
        (4, 5, 5, 4, 7, 8, 8, 7, 6, 3, 6, 3, 0, 0, 1, 2, 2, 1),
    ),
}
#: Nodes one search attempt may visit before it restarts in another order.
_BUDGET = 20_000
_ATTEMPTS = 400


def constructible(width: int, height: int, diagonal: bool = False) -> str | None:
    """None when :func:`construct` can build a ``width`` x ``height`` tour, else the reason why not.

    A board that a theorem rules out gets the theorem's reason
    (:func:`knightstour.theory.semi_magic_verdict`: no knight's tour at all, a side of odd
    length, both sides 2 more than a multiple of 4). A magic tour (``diagonal``) needs a square
    board; on 8x8 the published census (:func:`knightstour.published.census`) found none; no
    construction of one is known on bigger boards. Other sizes are refused as "no
    construction", which claims nothing about whether such tours exist.

    >>> constructible(12, 12) is None
    True
    >>> constructible(5, 6).split(":")[0]
    'no semi-magic tour on 5x6'
    >>> constructible(4, 4)
    "no semi-magic tour on 4x4, as it has no knight's tour at all: one of the four exceptions of the open-tour theorem (3x3, 3x5, 3x6, 4x4; Conrad et al. 1994), confirmed by exhaustive search"
    >>> constructible(8, 10)
    'no construction for 8x10: the construction tiles the board with 4x4 blocks, so both sides must be multiples of 4'
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
    ruled_out = semi_magic_verdict(Board(width, height))
    if ruled_out is not None:
        return ruled_out.reason
    if width == height == 1:
        return None
    if diagonal:
        return _no_magic(width, height)
    if width % 4 or height % 4:
        return (
            f"no construction for {spec}: the construction tiles the board with 4x4 blocks, so "
            f"both sides must be multiples of 4"
        )
    if _key(width // 4, height // 4) in _PATTERNS or _foldable(width // 4, height // 4):
        return None
    return (
        f"no construction for {spec} yet: the constructions tile the board with 4x4 blocks and "
        f"need at least 2 of them along each side ({width // 4} x {height // 4} here)"
    )


def construction(width: int, height: int) -> tuple[str, bool | None]:
    """Which construction builds ``width`` x ``height`` (a size :func:`constructible` takes), and
    whether its tours are closed: True for all, False for none, None when they may be either.

    The folded and the crossed constructions close every tour (their last square undoes the
    joint unit's first). The stored block patterns were walked whole (:func:`pattern_walks`):
    every tour of the 8x8 and 8x12 patterns is closed, and none of the 12x12 patterns' (they hold six
    classes of semi-magic tours in all, every one open).

    >>> construction(16, 16), construction(12, 12), construction(8, 12)
    (('the folded construction', True), ('the stored block patterns', False), ('the stored block patterns', True))
    """
    bw, bh = width // 4, height // 4
    if foldable(bw, bh) or foldable(bh, bw):
        return "the folded construction", True
    if crossable(bw, bh) or crossable(bh, bw):
        return "the crossed construction", True
    return "the stored block patterns", _PATTERNS_CLOSED.get(_key(bw, bh))


#: Whether every tour of a stored pattern size is closed (True) or none is (False), as walking
#: the patterns whole shows (:func:`pattern_walks`; tests/test_magic_construct.py checks it).
_PATTERNS_CLOSED: dict[tuple[int, int], bool] = {(2, 2): True, (3, 2): True, (3, 3): False}


def pattern_walks(width: int, height: int) -> list[np.ndarray]:
    """Every tour the stored block patterns of ``width`` x ``height`` hold (8x8, 8x12, 12x12:
    the sizes built from them), as built before a seed's symmetry: the search of
    :func:`construct` walked whole, without a budget. Seconds on 12x12.

    >>> len(pattern_walks(8, 8)) > 0
    True
    """
    key = _key(width // 4, height // 4)
    if (width % 4, height % 4) != (0, 0) or key not in _PATTERNS or _foldable(*key):
        raise InvalidInputError(f"no stored block pattern builds {width}x{height}")
    out: list[np.ndarray] = []
    travs = _tables().travs
    for beta in _PATTERNS[key]:
        walks: list[list[tuple[int, int, int]]] = []
        _search(key[0], key[1], beta[::-1], random.Random(0), None, every=walks.append)
        for steps in walks:
            order = assemble(key[0], key[1], _reversed_walk(steps, travs))
            if key != (width // 4, height // 4):
                order = _transpose(order, 4 * key[0], 4 * key[1])
            out.append(_checked(width, height, order, False))
    return out


def _no_magic(width: int, height: int) -> str:
    """Why no magic tour of ``width`` x ``height`` (both sides even, no theorem against a
    semi-magic one) is built."""
    spec = f"{width}x{height}"
    if width != height:
        return f"no magic tour on {spec}: a magic tour needs a square board (two long diagonals)"
    if spec == census().board:
        return census().no_magic_reason
    return (
        f"no construction for a magic tour on {spec} yet: no diagonally magic block pattern is "
        f"known (docs/magic.md says how the search for one stands)"
    )


def _foldable(bw: int, bh: int) -> bool:
    """Whether the folded or the crossed construction builds ``bw`` x ``bh`` blocks."""
    return foldable(bw, bh) or foldable(bh, bw) or crossable(bw, bh) or crossable(bh, bw)


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
    the sizes :func:`constructible` refuses, with its reason (every magic tour but 1x1's).

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
    rng = random.Random(0 if seed is None else seed)
    if _foldable(bw, bh):
        fold = foldable(bw, bh) or foldable(bh, bw)
        order = (folded if fold else crossed)(width, height, seed=seed)
        variant = rng.randrange(8 if width == height else 4)
        return _checked(width, height, _symmetry(order, width, height, variant), diagonal)
    key = _key(bw, bh)
    patterns = _PATTERNS[key]
    variant = rng.randrange(2 * (8 if width == height else 4))
    steps = None
    for attempt in range(_ATTEMPTS):
        beta = patterns[(attempt + rng.randrange(len(patterns))) % len(patterns)]
        order_rng = random.Random(rng.getrandbits(64))
        # searched backwards from the joint, so that the joint is the first step's check (a
        # cheap filter) rather than the last's (a whole walk wasted when it fails)
        steps = _search(key[0], key[1], beta[::-1], order_rng, _BUDGET)
        if steps is not None:
            break
    if steps is None:  # pragma: no cover - every stored pattern holds tours
        raise InternalError(f"the construction found no tour on {width}x{height}")
    order = assemble(key[0], key[1], _reversed_walk(steps, _tables().travs))
    if key != (bw, bh):
        order = _transpose(order, 4 * key[0], 4 * key[1])
    order = _symmetry(order, width, height, variant)
    return _checked(width, height, order, diagonal)


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
    beta: Sequence[int],
    rng: random.Random,
    budget: int | None,
    every: Callable[[list[tuple[int, int, int]]], None] | None = None,
) -> list[tuple[int, int, int]] | None:
    """One depth-first attempt along the block pattern ``beta``: (block, P's, Q's unit) a step.

    The units are the cycles' traversals (``_tables()``). Cuts a branch when a block row or
    column is complete and unbalanced, or when its one open block cannot balance it any more.
    Gives up after ``budget`` nodes (the caller restarts in another order; None: no limit).
    With ``every``, hands it each complete walk and goes on to the end (then returns None).
    """
    tables = _tables()
    travs, masks, vec, need_r, need_c = tables
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
    path: list[tuple[int, int, int]] = []
    undo: list[tuple[list[int], list[int]] | None] = []
    nodes = 0

    def balanced(
        line_open: int,
        sums: list[int],
        blocks: list[int],
        need: dict[tuple[int, int], set[tuple[int, ...]]],
        every: set[tuple[int, ...]],
    ) -> bool:
        if line_open == 0:
            return not any(sums)
        if line_open > 1:
            return True
        want = tuple(-v for v in sums)
        b = next(b for b in blocks if visits[b] < 2)
        pair = first[b]
        return want in (every if pair is None else need[pair])

    def ok(b: int) -> bool:
        y, x = divmod(b, bw)
        row = [y * bw + i for i in range(bw)]
        col = [i * bw + x for i in range(bh)]
        return balanced(row_open[y], row_sum[y], row, need_r, all_r) and balanced(
            col_open[x], col_sum[x], col, need_c, all_c
        )

    def step(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if budget is not None and nodes > budget:
            return False
        if i == 2 * nblocks:
            if every is None:
                return True
            every(list(path))
            return False
        return in_block(i, beta[i])

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
            rng.shuffle(qs)
            for q in qs:
                # P's units all start on one colour and Q's on the other, or no joint exists
                if (sum(squares[b][p][0]) + sum(squares[b][q][0])) % 2 == 0:
                    continue
                if i == 0 and not knight(squares[b][p][0], squares[b][q][0]):
                    continue  # the joint (the walk is reversed by the caller)
                if _place(b, p, q):
                    if step(i + 1):
                        return True
                    _unplace(b, p, q)
                if budget is not None and nodes > budget:
                    return False
        return False

    def _place(b: int, p: int, q: int) -> bool:
        used[b] |= masks[p] | masks[q]
        visits[b] += 1
        path.append((b, p, q))
        y, x = divmod(b, bw)
        first_pair = first[b]
        if first_pair is None:
            first[b] = (p, q)
            undo.append(None)
        else:
            r1, c1 = vec[first_pair]
            r2, c2 = vec[(p, q)]
            dr, dc = (r1 + r2 - 10).tolist(), (c1 + c2 - 10).tolist()
            for k in range(4):
                row_sum[y][k] += dr[k]
                col_sum[x][k] += dc[k]
            row_open[y] -= 1
            col_open[x] -= 1
            undo.append((dr, dc))
        if not ok(b):
            _unplace(b, p, q)
            return False
        return True

    def _unplace(b: int, p: int, q: int) -> None:
        change = undo.pop()
        y, x = divmod(b, bw)
        if change is None:
            first[b] = None
        else:
            dr, dc = change
            for k in range(4):
                row_sum[y][k] -= dr[k]
                col_sum[x][k] -= dc[k]
            row_open[y] += 1
            col_open[x] += 1
        visits[b] -= 1
        path.pop()
        used[b] &= ~(masks[p] | masks[q])

    return list(path) if step(0) else None


def _reversed_walk(
    steps: list[tuple[int, int, int]], travs: Sequence[tuple[int, tuple[Square, ...]]]
) -> list[tuple[int, int, int]]:
    """The same walk run the other way: the steps in reverse order, each unit (of ``travs``)
    walked backwards.

    Every block keeps its four units, and a unit walked backwards puts 5 - k where it put k, so
    every line that was balanced stays balanced; the first step's joint becomes the last's.
    """
    index = {squares: t for t, (_, squares) in enumerate(travs)}
    back = [index[squares[::-1]] for _, squares in travs]
    return [(b, back[p], back[q]) for b, p, q in reversed(steps)]


def _transpose(order: np.ndarray, width: int, height: int) -> np.ndarray:
    """The same tour on the ``height`` x ``width`` board, files and ranks exchanged."""
    x, y = order % width, order // width
    return (x * height + y).astype(np.int32)


def _symmetry(order: np.ndarray, width: int, height: int, variant: int) -> np.ndarray:
    """One of the board's symmetries (8 on a square, 4 on a rectangle) and maybe reversed."""
    perms, _ = symmetries(width, height)
    out = perms[variant % len(perms)][order].astype(np.int32)
    return out[::-1].copy() if variant >= len(perms) else out
