"""The folded construction: semi-magic knight's tours on every 4m x 4n board with an even m or n.

As in :mod:`knightstour.magic.construct`, the tour runs the four 4-cycles of each 4 x 4 block in
*lockstep*: two strands P and Q are always in the same block, each running one cycle round, and
the tour is P followed by Q backwards. Every block is visited twice, so its four cycles carry
numbers adding up to the same total everywhere, and what is left to balance is the *offsets*
(1 ... 4 along each cycle) that land in each rank and file.

The walk here is **folded** about the line across the middle of the board (the board is turned,
if need be, so that this line runs between two rows of blocks):

1. *A* walks the lower half: a joint unit (two blocks, whose first two squares are a knight's
   move apart) and then the blocks one after another in snake order, each block's two visits
   back to back. A dynamic program over the blocks chooses each block's visits so that every
   rank of the lower half gets offsets adding up to 10 per block (the lower half's files need
   not balance).
2. *T*, a 2 x 2 square of blocks across the middle line, turns the walk round: it is searched
   depth-first so that its own files balance and its ranks undo what *A* left in the last row.
3. *B* is *A* reflected in the middle line and walked backwards: each of *A*'s cycles becomes
   the reflected cycle of the mirror block, run the other way. Running a cycle the other way
   turns each offset k into 5 - k, so *B* puts into every file exactly the opposite of what *A*
   put there: every file balances, whatever *A* did. *B*'s ranks mirror *A*'s, balanced too.

The walk ends where *B* undoes the joint unit's first visit, so P's last square and Q's last
square are a knight's move apart (the tour's joint), and so are the tour's two ends: the tour is
closed. Every tour is validated and its sums checked before it leaves.

>>> from knightstour.numbering import analyse
>>> order = folded(16, 16, seed=1)
>>> analyse(16, 16, order.tolist()).verdict, order.size
('semi-magic', 256)
"""

from __future__ import annotations

import collections
import random
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np

from knightstour.errors import InternalError
from knightstour.magic._blocks import Square, assemble, knight, traversals

__all__ = ["foldable", "folded"]

Vec = tuple[int, int, int, int]
Step = tuple[tuple[int, int], int, int]  # (block (x, y), P's traversal, Q's traversal)
ZERO: Vec = (0, 0, 0, 0)
#: Knight's moves.
_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
#: States the dynamic program keeps per block (the most balanced, ties in the seed's order).
_CAP = 200
#: Exit squares of *A* tried for the turn, and the depth-first nodes the turn may use for each.
_TURN_CONFIGS = 16
_TURN_NODES = 200_000


def foldable(bw: int, bh: int) -> bool:
    """Whether :func:`folded` builds a board of ``bw`` x ``bh`` blocks of 4 x 4 as it stands.

    It needs an even number of block rows, and three block columns (four when there are two
    block rows). Turn the board round for the other side.

    >>> foldable(4, 4), foldable(3, 4), foldable(3, 2), foldable(5, 5)
    (True, True, False, False)
    """
    return bh % 2 == 0 and bh >= 2 and bw >= (4 if bh == 2 else 3)


Traversal = tuple[int, tuple[Square, ...]]
Offsets = tuple[Vec, Vec]  # what a traversal puts in each rank and each file of its block
Single = tuple[int, int, int, int, Square, Square, Vec]  # p1, q1, p2, q2, exits, rank offsets
Joint = tuple[list[Step], Square, Square, Vec]  # steps, exits, rank offsets


@dataclass(frozen=True)
class _Units:
    """Traversals, their offsets, and the units the construction is made of."""

    travs: list[Traversal]
    mirror: list[int]  # each traversal's mirror: reflected in the block's middle line, reversed
    p_off: list[Offsets]  # P's offsets 1 ... 4 along the traversal
    q_off: list[Offsets]  # Q's offsets 4 ... 1 (Q is walked backwards in the tour)
    singles: dict[tuple[Square, Square], list[Single]]  # by P's and Q's first squares
    joints: list[Joint]


@lru_cache(maxsize=1)
def _tables() -> _Units:
    """The units, made once (about 0.25 s)."""
    travs = list(traversals())
    index = {squares: t for t, (_, squares) in enumerate(travs)}
    # the mirror traversal: the squares reflected in the block's middle line, run backwards
    mirror = [index[tuple((x, 3 - y) for x, y in reversed(sq))] for _, sq in travs]

    def offsets(t: int, q: bool) -> Offsets:
        rows, cols = [0] * 4, [0] * 4
        for k, (x, y) in enumerate(travs[t][1]):
            v = 4 - k if q else k + 1
            rows[y] += v
            cols[x] += v
        return _vec(rows), _vec(cols)

    p_off = [offsets(t, False) for t in range(32)]
    q_off = [offsets(t, True) for t in range(32)]

    # single-block units: two visits back to back, P and Q each running two of the four cycles
    singles: dict[tuple[Square, Square], list[Single]] = collections.defaultdict(list)
    for p1 in range(32):
        for q1 in range(32):
            c1, c2 = travs[p1][0], travs[q1][0]
            if c1 == c2 or not _opposite(travs[p1][1][0], travs[q1][1][0]):
                continue
            for p2 in range(32):
                for q2 in range(32):
                    if len({c1, c2, travs[p2][0], travs[q2][0]}) < 4:
                        continue
                    if not (
                        knight(travs[p1][1][3], travs[p2][1][0])
                        and knight(travs[q1][1][3], travs[q2][1][0])
                    ):
                        continue
                    r = _vec(
                        [
                            p_off[p1][0][k]
                            + q_off[q1][0][k]
                            + p_off[p2][0][k]
                            + q_off[q2][0][k]
                            - 10
                            for k in range(4)
                        ]
                    )
                    singles[(travs[p1][1][0], travs[q1][1][0])].append(
                        (p1, q1, p2, q2, travs[p2][1][3], travs[q2][1][3], r)
                    )
    # joint units: blocks L (left) and R (right) of one row, visited R, L, L, R; the first
    # visit's two squares are a knight's move apart (they become the tour's ends)
    joints: list[Joint] = []
    for p1 in range(32):
        for q1 in range(32):
            a, b = travs[p1][1][0], travs[q1][1][0]
            if travs[p1][0] == travs[q1][0] or not knight(a, b):
                continue
            _joint_rest(travs, p_off, q_off, p1, q1, joints)
    return _Units(travs, mirror, p_off, q_off, dict(singles), joints)


def _vec(v: list[int]) -> Vec:
    return (v[0], v[1], v[2], v[3])


def _opposite(a: Square, b: Square) -> bool:
    return (a[0] + a[1] + b[0] + b[1]) % 2 == 1


def _joint_rest(
    travs: list[Traversal],
    p_off: list[Offsets],
    q_off: list[Offsets],
    p1: int,
    q1: int,
    out: list[Joint],
) -> None:
    """Append every joint unit whose first visit (in the right block) is P on p1, Q on q1."""
    right = [travs[p1][0], travs[q1][0]]

    def sq(t: int, bx: int) -> Square:
        x, y = travs[t][1][0]
        return (x + 4 * bx, y)

    def ex(t: int, bx: int) -> Square:
        x, y = travs[t][1][3]
        return (x + 4 * bx, y)

    for p2 in range(32):
        for q2 in range(32):
            if travs[p2][0] == travs[q2][0]:
                continue
            if not (knight(ex(p1, 1), sq(p2, 0)) and knight(ex(q1, 1), sq(q2, 0))):
                continue
            left = {travs[p2][0], travs[q2][0]}
            for p3 in range(32):
                for q3 in range(32):
                    if len(left | {travs[p3][0], travs[q3][0]}) < 4:
                        continue
                    if not (knight(ex(p2, 0), sq(p3, 0)) and knight(ex(q2, 0), sq(q3, 0))):
                        continue
                    for p4 in range(32):
                        if travs[p4][0] in right or not knight(ex(p3, 0), sq(p4, 1)):
                            continue
                        for q4 in range(32):
                            if travs[q4][0] in right or travs[q4][0] == travs[p4][0]:
                                continue
                            if not knight(ex(q3, 0), sq(q4, 1)):
                                continue
                            r = _vec(
                                [
                                    sum(p_off[p][0][k] for p in (p1, p2, p3, p4))
                                    + sum(q_off[q][0][k] for q in (q1, q2, q3, q4))
                                    - 20
                                    for k in range(4)
                                ]
                            )
                            steps = [((1, 0), p1, q1), ((0, 0), p2, q2), ((0, 0), p3, q3)]
                            steps.append(((1, 0), p4, q4))
                            out.append((steps, ex(p4, 1), ex(q4, 1), r))


def _entries(pe: Square, qe: Square, bx: int, by: int) -> list[tuple[Square, Square]]:
    """P's and Q's squares in block (bx, by), relative to it, a knight's move on from pe, qe."""

    def near(s: Square) -> list[Square]:
        out = []
        for dx, dy in _MOVES:
            x, y = s[0] + dx - 4 * bx, s[1] + dy - 4 * by
            if 0 <= x < 4 and 0 <= y < 4:
                out.append((x, y))
        return out

    qs = near(qe)
    return [(a, b) for a in near(pe) for b in qs]


def _add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


K = TypeVar("K", bound=Hashable)
Layer = dict[K, tuple[K | None, list[Step]]]


def snake(bw: int, rows: int) -> list[tuple[int, int]]:
    """*A*'s blocks in walking order: block rows 0 ... rows - 1 in snake order, less the joint
    unit's two blocks (the first two of row 0) and the turn's two (the last two of the last row).

    >>> snake(4, 2)
    [(2, 0), (3, 0), (3, 1), (2, 1)]
    """
    order: list[tuple[int, int]] = []
    for y in range(rows):
        xs = list(range(bw)) if y % 2 == 0 else list(range(bw - 1, -1, -1))
        if y == 0:
            xs = xs[2:]  # the joint unit's blocks
        if y == rows - 1:
            xs = xs[:-2]  # the turn's blocks
        order += [(x, y) for x in xs]
    return order


def single_moves(
    pe: Square, qe: Square, r: Vec, x: int, y: int, row_end: bool
) -> Iterator[tuple[Square, Square, Vec, list[Step]]]:
    """Single-block units in block (x, y) entered from P's and Q's squares ``pe``, ``qe``: their
    exits, the open rank's offsets after them (a finished rank must balance), and their steps."""
    singles = _tables().singles
    for a, b in _entries(pe, qe, x, y):
        for p1, q1, p2, q2, pe2, qe2, ru in singles.get((a, b), ()):
            r2 = _add(r, ru)
            if row_end and r2 != ZERO:
                continue
            yield (
                (pe2[0] + 4 * x, pe2[1] + 4 * y),
                (qe2[0] + 4 * x, qe2[1] + 4 * y),
                ZERO if row_end else r2,
                [((x, y), p1, q1), ((x, y), p2, q2)],
            )


def capped(new: Layer[K], cap: int, rng: random.Random, size: Callable[[K], int]) -> Layer[K]:
    """At most ``cap`` states of a layer, the smallest ``size`` first, ties in the seed's order."""
    if len(new) <= cap:
        return new
    items = list(new.items())
    rng.shuffle(items)
    items.sort(key=lambda kv: size(kv[0]))
    return dict(items[:cap])


def traced(layers: list[Layer[K]], last: K) -> list[Step]:
    """The steps that lead to state ``last`` of the final layer, followed back to the first."""
    walk: list[Step] = []
    cur: K | None = last
    for layer in reversed(layers):
        assert cur is not None
        prev, steps = layer[cur]
        walk[:0] = steps
        cur = prev
    return walk


def folded_walk(
    bw: int, bh: int, walk_a: list[Step], turn: list[Step]
) -> list[tuple[int, int, int]]:
    """*A*, the turn, and *B* (*A* reflected in the board's middle line and walked backwards), as
    (block index, P's traversal, Q's traversal) steps."""
    mirror = _tables().mirror
    walk_b = [((bx, bh - 1 - by), mirror[p], mirror[q]) for (bx, by), p, q in reversed(walk_a)]
    return [(by * bw + bx, p, q) for (bx, by), p, q in walk_a + turn + walk_b]


def folded(width: int, height: int, seed: int | None = None) -> np.ndarray:
    """A closed semi-magic knight's tour of ``width`` x ``height`` (square indices, int32).

    Both sides must be multiples of 4 and :func:`foldable` must accept the board of blocks as it
    stands or turned round. The result is validated by the caller
    (:func:`knightstour.magic.construct.construct`); this function raises
    :class:`~knightstour.errors.InternalError` when its search comes back empty.

    >>> order = folded(12, 16, seed=2)
    >>> sorted(order.tolist()) == list(range(192))
    True
    """
    bw, bh = width // 4, height // 4
    if foldable(bw, bh):
        return assemble(bw, bh, _walk(bw, bh, random.Random(0 if seed is None else seed)))
    if foldable(bh, bw):
        order = assemble(bh, bw, _walk(bh, bw, random.Random(0 if seed is None else seed)))
        x, y = order % height, order // height  # the tour of height x width, turned back
        return (x * width + y).astype(np.int32)
    raise InternalError(f"the folded construction does not take {width}x{height}")


def _walk(bw: int, bh: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """The lockstep walk (block index, P's traversal, Q's traversal) of the whole board."""
    for _ in range(8):
        walk = _try(bw, bh, rng)
        if walk is not None:
            return walk
    raise InternalError(f"the folded construction found no tour of {4 * bw}x{4 * bh}")


def _try(bw: int, bh: int, rng: random.Random) -> list[tuple[int, int, int]] | None:
    t = _tables()
    half = bh // 2
    order = snake(bw, half)
    turn_cols = (bw - 2, bw - 1) if (half - 1) % 2 == 0 else (0, 1)

    # the dynamic program over A: state (P's exit, Q's exit, offsets of the open rank) -> back link
    State = tuple[Square, Square, Vec]
    layers: list[dict[State, tuple[State | None, list[Step]]]] = []
    states: dict[State, tuple[State | None, list[Step]]] = {}
    joints = list(t.joints)
    rng.shuffle(joints)
    for steps, pe, qe, r in joints:
        if half == 1 or (order and order[0][1] == 0) or r == ZERO:  # else row 0 is the unit
            states.setdefault((pe, qe, r), (None, steps))
    layers.append(states)
    for i, (x, y) in enumerate(order):
        row_end = i + 1 < len(order) and order[i + 1][1] != y
        new: dict[State, tuple[State | None, list[Step]]] = {}
        for st in states:
            for pe2, qe2, r2, steps in single_moves(st[0], st[1], st[2], x, y, row_end):
                new.setdefault((pe2, qe2, r2), (st, steps))
        states = capped(new, _CAP, rng, lambda k: sum(map(abs, k[2])))
        layers.append(states)
        if not states:
            return None

    # the turn: a 2 x 2 square of blocks across the middle line
    middle = 8 * half  # twice the first rank of the upper half

    def refl(s: Square) -> Square:
        return (s[0], middle - 1 - s[1])

    blocks = [(c, yy) for c in turn_cols for yy in (half - 1, half)]
    by_exit: dict[tuple[Square, Square], dict[Vec, State]] = collections.defaultdict(dict)
    for st in states:
        by_exit[(st[0], st[1])][st[2]] = st
    for ends in sorted(by_exit, key=lambda e: -len(by_exit[e]))[:_TURN_CONFIGS]:
        pe, qe = ends
        wanted = {(-r[0], -r[1], -r[2], -r[3]) for r in by_exit[ends]}
        found = _turn(blocks, ends, (refl(pe), refl(qe)), half, wanted, rng)
        if found is not None:
            low, turn = found
            st = by_exit[ends][(-low[0], -low[1], -low[2], -low[3])]
            return folded_walk(bw, bh, traced(layers, st), turn)
    return None


def _turn(
    blocks: list[tuple[int, int]],
    ends: tuple[Square, Square],
    targets: tuple[Square, Square],
    half: int,
    wanted: set[Vec],
    rng: random.Random,
) -> tuple[Vec, list[Step]] | None:
    """A turn unit and the offsets it puts in the lower row (its upper row mirrors them).

    A depth-first search over the four blocks, each visited twice in lockstep, entered from
    ``ends``; a unit counts when its files balance, its last squares are a knight's move from
    ``targets`` (where *B* goes on), its upper row's offsets are the lower row's reflected and
    negated, and the lower row's offsets are in ``wanted`` (what *A* can make up for).
    """
    t = _tables()
    travs, p_off, q_off = t.travs, t.p_off, t.q_off
    n = len(blocks)
    used: list[set[int]] = [set() for _ in range(n)]
    count = [0] * n
    rows = {half - 1: [0] * 4, half: [0] * 4}
    cols: dict[int, list[int]] = {bx: [0] * 4 for bx, _ in blocks}
    steps: list[Step] = []
    found: list[tuple[Vec, list[Step]]] = []
    nodes = [0]

    def square(b: int, t_: int, k: int) -> Square:
        x, y = travs[t_][1][k]
        return (x + 4 * blocks[b][0], y + 4 * blocks[b][1])

    def rec(i: int, pe: Square, qe: Square, last: int | None) -> None:
        nodes[0] += 1
        if nodes[0] > _TURN_NODES or found:
            return
        if i == 2 * n:
            if not (knight(pe, targets[0]) and knight(qe, targets[1])) or any(
                any(v - 20 for v in c) for c in cols.values()
            ):
                return
            low = _vec([v - 20 for v in rows[half - 1]])
            high = _vec([v - 20 for v in rows[half]])
            if high == (-low[3], -low[2], -low[1], -low[0]) and low in wanted:
                found.append((low, list(steps)))
            return
        order = list(range(n))
        rng.shuffle(order)
        for b in order:
            if count[b] == 2:
                continue
            if last is not None:
                (x0, y0), (x1, y1) = blocks[last], blocks[b]
                if abs(x0 - x1) + abs(y0 - y1) > 1:
                    continue
            for p in range(32):
                if travs[p][0] in used[b] or not knight(pe, square(b, p, 0)):
                    continue
                for q in range(32):
                    cq = travs[q][0]
                    if cq in used[b] or cq == travs[p][0] or not knight(qe, square(b, q, 0)):
                        continue
                    used[b].update((travs[p][0], cq))
                    count[b] += 1
                    steps.append((blocks[b], p, q))
                    by, bx = blocks[b][1], blocks[b][0]
                    for k in range(4):
                        rows[by][k] += p_off[p][0][k] + q_off[q][0][k]
                        cols[bx][k] += p_off[p][1][k] + q_off[q][1][k]
                    rec(i + 1, square(b, p, 3), square(b, q, 3), b)
                    for k in range(4):
                        rows[by][k] -= p_off[p][0][k] + q_off[q][0][k]
                        cols[bx][k] -= p_off[p][1][k] + q_off[q][1][k]
                    steps.pop()
                    count[b] -= 1
                    used[b].difference_update((travs[p][0], cq))

    rec(0, ends[0], ends[1], None)
    return found[0] if found else None
