"""The crossed construction: semi-magic tours on 4m x 4n boards with an odd number of block rows.

The folded construction (:mod:`knightstour.magic.fold`) folds the walk about the line between
the two middle rows of 4 x 4 blocks. With an odd number of block rows (100x100 is 25 x 25
blocks) that line runs through the middle of a row of blocks, and the fold has to *cross* it:

1. *A* walks the block rows below the middle row, as in the fold: a joint unit, then every block
   with its two visits back to back, in snake order, each rank balanced by a dynamic program.
   In A's last row each block makes an **excursion**: between (or after, or before) its own two
   visits, the strands step up into the middle-row block above it for one visit there, on one
   cycle of each *mirror pair* ({0, 1} and {2, 3}: the reflection in the middle line swaps the
   cycles of a pair).
2. *B* is A reflected and walked backwards, as in the fold. Its copy of each excursion visits the
   same middle-row block again, on the reflected cycles: the two A did not use. Run backwards,
   each cycle turns its offsets k into 5 - k, so the block's **files balance by themselves**, and
   each rank y of it gets V(y) - V(3 - y) from A's visit V: the middle row's ranks take an
   antisymmetric vector, two numbers (the dynamic program follows them).
3. *T*, a **turn** of 2 x 3 blocks at the end of A's last row (rows h - 1, h, h + 1, each block
   visited twice), takes the walk from A's end to B's start. Its files balance column by column;
   its upper row mirrors its lower row; its middle row is antisymmetric. Turns were found by a
   depth-first search (``research/turns.py`` in the source tree, about a minute) and a few are
   stored in :data:`TURNS`, in the frame of their nearer column; the dynamic program over A is steered to
   end exactly where a stored turn begins, with the offsets it makes up for.

With **three block rows** (20x12, 28x12, ..., and 12x20, 12x28, ... turned round) A is a
single row, and the joint unit's own two blocks sit under middle-row blocks that nothing else
visits. There the joint unit makes excursions too (:func:`_joint_excursions`): six steps over its
two blocks and the two middle-row blocks above them, in any order, its first step's two squares
a knight's move apart. It leaves a wide spread of offsets, so that on 20x12, where only one
excursion follows it, A still ends where some stored turns begin. (Turned the other way, 12 wide
with an odd number of block rows, A's last row would hold one excursion and start balanced, and
reaches no stored turn.)

The tour ends where B undoes A's joint unit, so it is closed, like the folded ones. Boards of
m x n blocks with n odd and at least 3 and m at least 5 are built (and turned round when it is m
that is odd): 20x12, 20x20, 12x28, 28x36, 100x100, 100x92, 12x396 and so on. Every tour is
validated and its sums checked by the caller (:func:`knightstour.magic.construct.construct`).

>>> from knightstour.numbering import analyse
>>> order = crossed(28, 28, seed=1)
>>> analyse(28, 28, order.tolist()).verdict, order.size
('semi-magic', 784)
"""

from __future__ import annotations

import collections
import random
from functools import lru_cache

import numpy as np

from knightstour.errors import InternalError
from knightstour.magic._blocks import Square, assemble, knight
from knightstour.magic.fold import (
    _MOVES,
    ZERO,
    Step,
    Vec,
    _add,
    _tables,
    _vec,
    capped,
    folded_walk,
    single_moves,
    snake,
    traced,
)

__all__ = ["TURNS", "crossable", "crossed"]

Pair = tuple[int, int]  # the middle-row vector's two free numbers: (V(0) - V(3), V(1) - V(2))
#: An excursion: its steps (0 the block, 1 the middle-row block above; P's and Q's traversals),
#: its exits (relative to the lower block: ranks 4 ... 7 are the middle-row block), the rank
#: offsets of the lower block's two visits, and the middle-row pair of its visit up there.
Excursion = tuple[tuple[tuple[int, int, int], ...], Square, Square, Vec, Pair]
#: A turn in its nearer column's frame (that column's middle-row block at (0, 0) ... (3, 3), the
#: farther column at x 4 ... 7, A's last block at x -4 ... -1 one rank of blocks lower): where
#: A's P and Q end, the offsets A's last row and middle row must have left for it (rank vector,
#: middle-row pair), and its 12 steps (column 0 or 1, block row -1, 0 or 1, P's, Q's traversal).
Turn = tuple[tuple[Square, Square], Vec, Pair, tuple[tuple[int, int, int, int], ...]]

#: The offsets and steps of the fifth and seventh turns, which the tenth and twelfth share (they
#: differ only in where A's strands end).
_TURN_OF_4: tuple[Vec, Pair, tuple[tuple[int, int, int, int], ...]] = (
    (-2, -4, 4, 2),
    (0, 0),
    (
        (0, -1, 3, 14), (0, 0, 6, 15), (1, 0, 2, 15), (1, -1, 21, 28), (0, -1, 20, 24),
        (1, -1, 3, 14), (1, 0, 16, 25), (0, 0, 21, 24), (0, 1, 17, 24), (1, 1, 13, 1),
        (1, 1, 21, 25), (0, 1, 8, 4),
    ),
)  # fmt: skip
_TURN_OF_6: tuple[Vec, Pair, tuple[tuple[int, int, int, int], ...]] = (
    (2, 0, 0, -2),
    (0, 0),
    (
        (0, 1, 0, 17), (0, 0, 5, 20), (0, -1, 5, 20), (1, -1, 0, 13), (1, -1, 22, 30),
        (1, 0, 1, 9), (1, 0, 19, 27), (1, 1, 18, 26), (1, 1, 11, 2), (0, 1, 10, 31),
        (0, 0, 10, 31), (0, -1, 11, 30),
    ),
)  # fmt: skip
#: Turns found by ``find_turn`` (``research/turns.py``): the first seven with seeds 0 to 15;
#: the last five for 20x12, where A has least room, with ``find_turn(seed, wanted=short_reach())``
#: and seeds 1, 2, 4, 7 and 13 (2 to 60 s each; seeds 0 to 29 found only these and the fifth
#: turn, which 20x12 reaches too).
TURNS: tuple[Turn, ...] = (
    (
        ((-2, 3), (-2, 2)),
        (2, -2, 2, -2),
        (4, -4),
        (
            (0, 0, 22, 12), (0, 1, 0, 8), (0, 1, 22, 31), (1, 1, 22, 27), (1, 1, 15, 7),
            (1, 0, 10, 2), (1, -1, 11, 3), (1, 0, 25, 17), (1, -1, 28, 21), (0, -1, 25, 20),
            (0, -1, 11, 3), (0, 0, 25, 7),
        ),
    ),
    (
        ((-1, 3), (-2, 3)),
        (0, 0, 0, 0),
        (0, 0),
        (
            (0, 0, 2, 23), (0, -1, 20, 5), (1, -1, 3, 22), (1, 0, 6, 14), (1, 1, 7, 14),
            (0, 1, 31, 18), (0, 0, 30, 11), (0, 1, 6, 15), (1, 1, 26, 23), (1, 0, 31, 23),
            (1, -1, 30, 11), (0, -1, 30, 11),
        ),
    ),
    (
        ((-2, 0), (-2, 1)),
        (-2, -2, 2, 2),
        (-4, 4),
        (
            (0, 0, 26, 0), (0, -1, 12, 4), (0, -1, 17, 24), (1, -1, 12, 1), (1, -1, 27, 19),
            (1, 0, 8, 0), (1, 0, 21, 29), (1, 1, 17, 25), (1, 1, 2, 11), (0, 1, 30, 19),
            (0, 1, 7, 15), (0, 0, 21, 11),
        ),
    ),
    (
        ((-1, 2), (-1, 3)),
        (2, -2, 2, -2),
        (4, -4),
        (
            (0, 0, 0, 26), (0, -1, 4, 12), (0, -1, 19, 26), (1, -1, 22, 27), (1, 0, 18, 26),
            (1, -1, 4, 12), (1, 0, 1, 9), (1, 1, 0, 8), (1, 1, 28, 21), (0, 1, 24, 21),
            (0, 1, 15, 7), (0, 0, 11, 21),
        ),
    ),
    (
        ((-1, -3), (-1, -2)),
        *_TURN_OF_4,
    ),
    (
        ((-2, 2), (-2, 3)),
        (-2, -2, 2, 2),
        (-4, 4),
        (
            (0, 0, 12, 22), (0, 1, 8, 0), (0, 1, 20, 29), (1, 1, 12, 1), (1, 1, 17, 25),
            (1, 0, 20, 28), (1, 0, 2, 10), (1, -1, 21, 29), (1, -1, 7, 14), (0, -1, 31, 18),
            (0, -1, 3, 11), (0, 0, 7, 25),
        ),
    ),
    (
        ((-2, 3), (-1, 3)),
        *_TURN_OF_6,
    ),
    (
        ((-2, -1), (-2, -4)),
        (0, -2, 2, 0),
        (4, -4),
        (
            (0, -1, 22, 26), (1, -1, 22, 27), (1, 0, 0, 26), (1, -1, 4, 13), (0, -1, 4, 9),
            (0, 0, 1, 9), (0, 0, 19, 27), (0, 1, 15, 6), (1, 1, 15, 2), (1, 0, 11, 21),
            (1, 1, 25, 16), (0, 1, 25, 21),
        ),
    ),
    (
        ((-1, -4), (-1, -1)),
        (2, 4, -4, -2),
        (0, 0),
        (
            (0, -1, 14, 3), (0, 0, 14, 16), (0, 1, 24, 17), (1, 1, 0, 13), (1, 1, 23, 31),
            (1, 0, 4, 12), (1, 0, 18, 26), (1, -1, 22, 30), (1, -1, 14, 7), (0, -1, 19, 30),
            (0, 0, 1, 27), (0, 1, 1, 8),
        ),
    ),
    (
        ((-1, -1), (-1, -4)),
        *_TURN_OF_4,
    ),
    (
        ((-1, 3), (-1, 2)),
        (-2, 0, 0, 2),
        (0, 0),
        (
            (0, 1, 17, 0), (0, 0, 20, 5), (0, -1, 20, 5), (1, -1, 12, 1), (1, -1, 27, 19),
            (1, 0, 8, 0), (1, 0, 21, 29), (1, 1, 17, 25), (1, 1, 2, 11), (0, 1, 31, 10),
            (0, 0, 31, 10), (0, -1, 30, 11),
        ),
    ),
    (
        ((-1, 2), (-1, 3)),
        *_TURN_OF_6,
    ),
)  # fmt: skip

#: States the dynamic program keeps per block below the last row, and in the last row.
_CAP = 200
_CAP_LAST = 600
_ATTEMPTS = 8


def crossable(bw: int, bh: int) -> bool:
    """Whether :func:`crossed` builds a board of ``bw`` x ``bh`` blocks of 4 x 4 as it stands:
    an odd number of block rows, at least 3, and at least 5 block columns (A's last row needs
    room for its excursions to reach a stored turn's offsets). Turn the board round for the other
    side: 12x20 is built as 20x12 turned round.

    >>> crossable(25, 25), crossable(5, 5), crossable(5, 3), crossable(3, 5), crossable(3, 3)
    (True, True, True, False, False)
    """
    return bh % 2 == 1 and bh >= 3 and bw >= 5


def crossed(width: int, height: int, seed: int | None = None) -> np.ndarray:
    """A closed semi-magic knight's tour of ``width`` x ``height`` (square indices, int32).

    Both sides must be multiples of 4 and :func:`crossable` must accept the board of blocks as it
    stands or turned round. The caller validates the result; this function raises
    :class:`~knightstour.errors.InternalError` when its search comes back empty.

    >>> order = crossed(20, 28, seed=3)
    >>> sorted(order.tolist()) == list(range(560))
    True
    """
    bw, bh = width // 4, height // 4
    rng = random.Random(0 if seed is None else seed)
    if crossable(bw, bh):
        return assemble(bw, bh, _walk(bw, bh, rng))
    if crossable(bh, bw):
        order = assemble(bh, bw, _walk(bh, bw, rng))
        x, y = order % height, order // height  # the tour of height x width, turned back
        return (x * width + y).astype(np.int32)
    raise InternalError(f"the crossed construction does not take {width}x{height}")


@lru_cache(maxsize=1)
def _cycles() -> tuple[list[int], list[int]]:
    """Each traversal's cycle, and its reflection left to right (files x -> 3 - x)."""
    travs = _tables().travs
    index = {squares: t for t, (_, squares) in enumerate(travs)}
    flip = [index[tuple((3 - x, y) for x, y in sq)] for _, sq in travs]
    return [c for c, _ in travs], flip


@lru_cache(maxsize=1)
def _excursions() -> dict[tuple[Square, Square], list[Excursion]]:
    """Every excursion unit, by P's and Q's first squares (relative to the lower block)."""
    t = _tables()
    travs, p_off, q_off, mirror = t.travs, t.p_off, t.q_off, t.mirror
    cyc, _ = _cycles()
    pairs = [(p, q) for p in range(32) for q in range(32) if cyc[p] != cyc[q]]
    # the middle visit's cycles: one of each mirror pair, so that B's reflected visit is the rest
    ups = [(p, q) for p, q in pairs if cyc[mirror[p]] not in (cyc[p], cyc[q])]

    def first(s: tuple[int, int], dy: int) -> tuple[Square, Square]:
        (px, py), (qx, qy) = travs[s[0]][1][0], travs[s[1]][1][0]
        return (px, py + 4 * dy), (qx, qy + 4 * dy)

    def last(s: tuple[int, int], dy: int) -> tuple[Square, Square]:
        (px, py), (qx, qy) = travs[s[0]][1][3], travs[s[1]][1][3]
        return (px, py + 4 * dy), (qx, qy + 4 * dy)

    starting: dict[tuple[int, tuple[Square, Square]], list[tuple[int, int]]] = {}
    for dy, group in ((0, pairs), (1, ups)):
        for s in group:
            starting.setdefault((dy, first(s, dy)), []).append(s)

    def onward(s: tuple[int, int], dy: int, dy2: int) -> list[tuple[int, int]]:
        a, b = last(s, dy)
        out: list[tuple[int, int]] = []
        for na in _near(a, dy2):
            for nb in _near(b, dy2):
                out += starting.get((dy2, (na, nb)), ())
        return out

    def ranks(s: tuple[int, int]) -> Vec:
        r, q = p_off[s[0]][0], q_off[s[1]][0]
        return (r[0] + q[0], r[1] + q[1], r[2] + q[2], r[3] + q[3])

    units: dict[tuple[Square, Square], list[Excursion]] = collections.defaultdict(list)
    for shape in ((0, 1, 0), (0, 0, 1), (1, 0, 0)):
        for s1 in pairs if shape[0] == 0 else ups:
            for s2 in onward(s1, shape[0], shape[1]):
                for s3 in onward(s2, shape[1], shape[2]):
                    seq = list(zip(shape, (s1, s2, s3), strict=True))
                    low = [s for dy, s in seq if dy == 0]
                    if len({cyc[low[0][0]], cyc[low[0][1]], cyc[low[1][0]], cyc[low[1][1]]}) < 4:
                        continue
                    up = next(s for dy, s in seq if dy == 1)
                    r1, r2, v = ranks(low[0]), ranks(low[1]), ranks(up)
                    rv = (
                        r1[0] + r2[0] - 10,
                        r1[1] + r2[1] - 10,
                        r1[2] + r2[2] - 10,
                        r1[3] + r2[3] - 10,
                    )
                    steps = tuple((dy, p, q) for dy, (p, q) in seq)
                    exits = last(s3, shape[2])
                    units[first(s1, shape[0])].append(
                        (steps, exits[0], exits[1], rv, (v[0] - v[3], v[1] - v[2]))
                    )
    return dict(units)


#: A joint excursion unit's blocks (blocks 0 and 1 of row 0 and the middle-row blocks above them)
#: and how many visits A makes to each.
_JOINT_BLOCKS = ((0, 0), (1, 0), (0, 1), (1, 1))
_JOINT_VISITS = (2, 2, 1, 1)
JointExcursion = tuple[list[Step], Square, Square, Vec, Pair]


@lru_cache(maxsize=1)
def _joint_excursions() -> list[JointExcursion]:
    """The joint units of a board with a single block row below the middle row (3 block rows).

    There A is that row alone, so the joint unit's two blocks must make excursions too: A visits
    each of them twice (its four cycles) and the middle-row block above each once (one cycle of
    each mirror pair), six steps in any order, the first step's two squares a knight's move apart
    (they become the tour's ends). One unit per outcome: its steps, P's and Q's exits (both
    within a knight's move of block 2's files), the offsets it leaves in the ranks of row 0 and
    its middle-row pair (a breadth-first walk, about 0.3 s, made once).

    >>> steps, pe, qe, r, d = _joint_excursions()[0]
    >>> len(steps), sorted(block for block, _, _ in steps)
    (6, [(0, 0), (0, 0), (0, 1), (1, 0), (1, 0), (1, 1)])
    """
    t = _tables()
    travs, p_off, q_off, mirror = t.travs, t.p_off, t.q_off, t.mirror
    cyc, _ = _cycles()
    up = [
        [cyc[p] != cyc[q] and cyc[mirror[p]] not in (cyc[p], cyc[q]) for q in range(32)]
        for p in range(32)
    ]
    ranks = [
        [_vec([p_off[p][0][k] + q_off[q][0][k] for k in range(4)]) for q in range(32)]
        for p in range(32)
    ]

    def square(b: int, tr: int, k: int) -> Square:
        x, y = travs[tr][1][k]
        return (x + 4 * _JOINT_BLOCKS[b][0], y + 4 * _JOINT_BLOCKS[b][1])

    # the traversals of block b whose first square is a knight's move from s
    onto: dict[tuple[int, Square], list[int]] = collections.defaultdict(list)
    for b in range(4):
        for tr in range(32):
            first = square(b, tr, 0)
            for mx, my in _MOVES:
                onto[(b, (first[0] - mx, first[1] - my))].append(tr)

    State = tuple[tuple[int, int, int, int], Square, Square, Vec, Pair]
    Layer = dict[State, tuple[State | None, list[Step]]]

    def visit(layer: Layer, st: State | None, b: int, p: int, q: int) -> None:
        """Add the state after visiting block ``b`` with P on ``p`` and Q on ``q`` from ``st``."""
        masks, r, d = ((0, 0, 0, 0), ZERO, (0, 0)) if st is None else (st[0], st[3], st[4])
        v = ranks[p][q]
        if b < 2:
            r = _add(r, v)
        else:
            d = (d[0] + v[0] - v[3], d[1] + v[1] - v[2])
        m = list(masks)
        m[b] |= (1 << cyc[p]) | (1 << cyc[q])
        key = ((m[0], m[1], m[2], m[3]), square(b, p, 3), square(b, q, 3), r, d)
        layer.setdefault(key, (st, [(_JOINT_BLOCKS[b], p, q)]))

    layer: Layer = {}
    for b in range(4):
        for p in range(32):
            for q in range(32):
                if (
                    cyc[p] != cyc[q]
                    and (b < 2 or up[p][q])
                    and knight(square(b, p, 0), square(b, q, 0))
                ):
                    visit(layer, None, b, p, q)
    layers = [layer]
    for step in range(5):
        new: Layer = {}
        blocks = range(4) if step < 4 else (1, 3)  # the last step leaves towards block 2
        for st in layer:
            masks, pe, qe = st[0], st[1], st[2]
            for b in blocks:
                m = masks[b]
                if m.bit_count() == 2 * _JOINT_VISITS[b]:
                    continue
                qs = [q for q in onto.get((b, qe), ()) if not m >> cyc[q] & 1]
                for p in onto.get((b, pe), ()):
                    if m >> cyc[p] & 1:
                        continue
                    for q in qs:
                        if cyc[q] != cyc[p] and (b < 2 or up[p][q]):
                            visit(new, st, b, p, q)
        layer = new
        layers.append(layer)
    out: list[JointExcursion] = []
    for st in layer:
        _, pe, qe, r, d = st
        if pe[0] >= 6 and qe[0] >= 6:
            out.append((traced(layers, st), pe, qe, _add(r, (-20, -20, -20, -20)), d))
    return out


def _near(s: Square, dy: int) -> list[Square]:
    """Squares of the block ``dy`` rows of blocks up (relative to the lower block) a knight's
    move from ``s``."""
    out = []
    for mx, my in _MOVES:
        x, y = s[0] + mx, s[1] + my
        if 0 <= x < 4 and 4 * dy <= y < 4 * dy + 4:
            out.append((x, y))
    return out


def _walk(bw: int, bh: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """The lockstep walk of the whole board: A, a stored turn, and B."""
    if not TURNS:  # pragma: no cover - the module ships with its turns
        raise InternalError("the crossed construction has no stored turns")
    turns = list(TURNS)
    rng.shuffle(turns)  # every stored turn once, in the seed's order, before any twice
    for attempt in range(max(_ATTEMPTS, len(turns))):
        walk = _try(bw, bh, rng, turns[attempt % len(turns)])
        if walk is not None:
            return walk
    raise InternalError(f"the crossed construction found no tour of {4 * bw}x{4 * bh}")


def _placed(bw: int, h: int, turn: Turn) -> tuple[tuple[Square, Square], list[Step]]:
    """The turn at the end of A's last row (block row h - 1): A's ends and the turn's steps."""
    right = (h - 1) % 2 == 0  # the snake's direction in A's last row
    near = bw - 2 if right else 1
    _, flip = _cycles()
    ox, oy = 4 * near, 4 * h

    def square(s: Square) -> Square:
        return (ox + s[0] if right else ox + 3 - s[0], oy + s[1])

    ends, _, _, steps = turn
    placed = [
        (
            (near + dc if right else near - dc, h + dy),
            p if right else flip[p],
            q if right else flip[q],
        )
        for dc, dy, p, q in steps
    ]
    return (square(ends[0]), square(ends[1])), placed


def _try(bw: int, bh: int, rng: random.Random, turn: Turn) -> list[tuple[int, int, int]] | None:
    """One attempt: the dynamic program over A steered to end where ``turn`` begins."""
    t = _tables()
    h = bh // 2
    (ends, turn_steps), need_r, need_d = _placed(bw, h, turn), turn[1], turn[2]
    order = snake(bw, h)
    State = tuple[Square, Square, Vec, Pair]
    start: dict[State, tuple[State | None, list[Step]]] = {}
    if h == 1:  # A is a single block row: its joint unit makes excursions too
        units_j = list(_joint_excursions())
        rng.shuffle(units_j)
        for steps, pe, qe, r, d in units_j:
            start.setdefault((pe, qe, r, d), (None, steps))
    else:
        joints = list(t.joints)
        rng.shuffle(joints)
        for steps, pe, qe, r in joints:
            start.setdefault((pe, qe, r, (0, 0)), (None, steps))
    layers = [start]
    states = start
    units = _excursions()
    for i, (x, y) in enumerate(order):
        new: dict[State, tuple[State | None, list[Step]]] = {}
        if y < h - 1:
            row_end = i + 1 < len(order) and order[i + 1][1] != y
            for st in states:
                for pe, qe, r, steps in single_moves(st[0], st[1], st[2], x, y, row_end):
                    new.setdefault((pe, qe, r, st[3]), (st, steps))
            states = capped(new, _CAP, rng, lambda k: sum(map(abs, k[2])))
        else:
            final = i + 1 == len(order)
            ox, oy = 4 * x, 4 * y
            for st in states:
                pe, qe, r, d = st
                rp, rq = (pe[0] - ox, pe[1] - oy), (qe[0] - ox, qe[1] - oy)
                for a in _near(rp, 0) + _near(rp, 1):
                    for b in _near(rq, 0) + _near(rq, 1):
                        for seq, e1, e2, ru, du in units.get((a, b), ()):
                            key = (
                                (e1[0] + ox, e1[1] + oy),
                                (e2[0] + ox, e2[1] + oy),
                                _add(r, ru),
                                (d[0] + du[0], d[1] + du[1]),
                            )
                            if final and key != (ends[0], ends[1], need_r, need_d):
                                continue
                            new.setdefault(key, (st, [((x, y + dy), p, q) for dy, p, q in seq]))

            def gap(k: State) -> int:
                r, d = k[2], k[3]
                return (
                    sum(abs(a - b) for a, b in zip(r, need_r, strict=True))
                    + abs(d[0] - need_d[0])
                    + abs(d[1] - need_d[1])
                )

            states = capped(new, _CAP_LAST, rng, gap)
        layers.append(states)
        if not states:
            return None
    return folded_walk(bw, bh, traced(layers, next(iter(states))), turn_steps)
