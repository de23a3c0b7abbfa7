"""The search that found the crossed construction's stored turns (``knightstour.magic.cross.TURNS``).

A *turn* of the crossed construction is a walk of 2 x 3 blocks that takes the strands from A's
end to B's start (``knightstour/magic/cross.py`` says what it must balance). The package builds
its tours from the twelve turns stored with it; this is the depth-first search that found them,
kept to reproduce them:

    python -m research.turns              # reruns the searches of seeds 0, 1 and 4, timed

>>> from knightstour.magic.cross import TURNS
>>> find_turn(0) in TURNS
True
"""

from __future__ import annotations

import collections
import random
import sys
import time

from knightstour.magic._blocks import Square, knight
from knightstour.magic.cross import (
    TURNS,
    Pair,
    Turn,
    _cycles,
    _excursions,
    _joint_excursions,
    _near,
)
from knightstour.magic.fold import Vec, _add, _tables

__all__ = ["find_turn", "short_reach"]


def short_reach() -> dict[tuple[Square, Square], set[tuple[Vec, Pair]]]:
    """What A can leave for the turn on 20x12 (5 x 3 blocks), the board where it has least room:
    A's ends in the turn's frame -> every (rank vector, middle-row pair) a turn there must make up
    for. A is a joint excursion unit and one excursion; :func:`find_turn` takes this as ``wanted``.

    >>> reach = short_reach()
    >>> any(turn[0] in reach and turn[1:3] in reach[turn[0]] for turn in TURNS)
    True
    """
    units = _excursions()
    out: dict[tuple[Square, Square], set[tuple[Vec, Pair]]] = collections.defaultdict(set)
    for _, pe, qe, r, d in _joint_excursions():
        rp, rq = (pe[0] - 8, pe[1]), (qe[0] - 8, qe[1])  # relative to block 2
        for a in _near(rp, 0) + _near(rp, 1):
            for b in _near(rq, 0) + _near(rq, 1):
                for _, e1, e2, ru, du in units.get((a, b), ()):
                    ends = ((e1[0] - 4, e1[1] - 4), (e2[0] - 4, e2[1] - 4))
                    out[ends].add((_add(r, ru), (d[0] + du[0], d[1] + du[1])))
    return dict(out)


def find_turn(
    seed: int,
    budget: int = 200_000,
    tries: int = 40,
    wanted: dict[tuple[Square, Square], set[tuple[Vec, Pair]]] | None = None,
) -> Turn | None:
    """Search for a turn (the depth-first search that found :data:`TURNS`; about a minute).

    From ``tries`` of the places an excursion can leave A's strands (in the seed's order), it
    walks the 2 x 3 blocks, each twice, on cycles the block has not used, each step a knight's
    move on for P and for Q, and keeps the first walk that ends a knight's move from where B
    begins (the reflection of A's ends), balances the files of both its columns, mirrors its
    lower row's ranks in its upper row and has an antisymmetric middle row. A column and the
    middle row are checked as soon as they are complete. With ``wanted`` (A's ends -> the offsets
    A can leave there, as :func:`short_reach` gives) it starts only from those ends and keeps only
    a turn that makes up for offsets A can leave, checking its lower row as soon as it is complete.
    """
    rng = random.Random(seed)
    exits = sorted(
        {
            ((e1[0] - 4, e1[1] - 4), (e2[0] - 4, e2[1] - 4))
            for units in _excursions().values()
            for _, e1, e2, _, _ in units
        }
        if wanted is None
        else wanted
    )
    rng.shuffle(exits)
    for ends in exits[:tries]:
        turn = _turn_from(ends, rng, budget, None if wanted is None else wanted[ends])
        if turn is not None:
            return turn
    return None


BLOCKS = tuple((dc, dy) for dc in (0, 1) for dy in (-1, 0, 1))


def _turn_from(
    ends: tuple[Square, Square],
    rng: random.Random,
    budget: int,
    wanted: set[tuple[Vec, Pair]] | None = None,
) -> Turn | None:
    """The first turn the depth-first search finds from A's ends ``ends`` (turn frame), one that
    makes up for offsets in ``wanted`` (rank vector, middle-row pair) when that is given."""
    t = _tables()
    travs, p_off, q_off = t.travs, t.p_off, t.q_off
    cyc, _ = _cycles()
    targets = ((ends[0][0], 3 - ends[0][1]), (ends[1][0], 3 - ends[1][1]))  # reflected
    n = len(BLOCKS)
    used: list[set[int]] = [set() for _ in BLOCKS]
    count = [0] * n
    rows = {dy: [0] * 4 for dy in (-1, 0, 1)}
    cols = {dc: [0] * 4 for dc in (0, 1)}
    steps: list[tuple[int, int, int, int]] = []
    found: list[Turn] = []
    nodes = [0]

    def square(b: int, tr: int, k: int) -> Square:
        x, y = travs[tr][1][k]
        return (x + 4 * BLOCKS[b][0], y + 4 * BLOCKS[b][1])

    need_rs = set() if wanted is None else {r for r, _ in wanted}  # read when wanted is given

    def pruned(dc: int) -> bool:
        column_done = sum(count[j] for j in range(n) if BLOCKS[j][0] == dc) == 6
        if column_done and any(v != 30 for v in cols[dc]):
            return True
        mid = [v - 20 for v in rows[0]]
        mid_done = count[1] + count[4] == 4  # blocks (0, 0) and (1, 0)
        if mid_done and mid != [mid[0], mid[1], -mid[1], -mid[0]]:
            return True
        if wanted is None or count[0] + count[3] < 4:  # the lower row is not complete
            return False
        need_r = (20 - rows[-1][0], 20 - rows[-1][1], 20 - rows[-1][2], 20 - rows[-1][3])
        return need_r not in need_rs or (mid_done and (need_r, (-mid[0], -mid[1])) not in wanted)

    def finish(pe: Square, qe: Square) -> None:
        low, mid, high = ([v - 20 for v in rows[dy]] for dy in (-1, 0, 1))
        joined = knight(pe, targets[0]) and knight(qe, targets[1])
        if joined and high == [-low[3], -low[2], -low[1], -low[0]]:
            need_r = (-low[0], -low[1], -low[2], -low[3])
            if wanted is None or (need_r, (-mid[0], -mid[1])) in wanted:
                found.append((ends, need_r, (-mid[0], -mid[1]), tuple(steps)))

    def rec(pe: Square, qe: Square, last: int | None) -> None:
        nodes[0] += 1
        if nodes[0] > budget or found:
            return
        if len(steps) == 2 * n:
            finish(pe, qe)
            return
        order = list(range(n))
        rng.shuffle(order)
        for b in order:
            dc, dy = BLOCKS[b]
            if count[b] == 2 or (
                last is not None and abs(dc - BLOCKS[last][0]) + abs(dy - BLOCKS[last][1]) > 1
            ):
                continue
            for p in range(32):
                if cyc[p] in used[b] or not knight(pe, square(b, p, 0)):
                    continue
                for q in range(32):
                    if cyc[q] in used[b] or cyc[q] == cyc[p] or not knight(qe, square(b, q, 0)):
                        continue
                    used[b].update((cyc[p], cyc[q]))
                    count[b] += 1
                    steps.append((dc, dy, p, q))
                    for k in range(4):
                        rows[dy][k] += p_off[p][0][k] + q_off[q][0][k]
                        cols[dc][k] += p_off[p][1][k] + q_off[q][1][k]
                    if not pruned(dc):
                        rec(square(b, p, 3), square(b, q, 3), b)
                    for k in range(4):
                        rows[dy][k] -= p_off[p][0][k] + q_off[q][0][k]
                        cols[dc][k] -= p_off[p][1][k] + q_off[q][1][k]
                    steps.pop()
                    count[b] -= 1
                    used[b].difference_update((cyc[p], cyc[q]))

    rec(ends[0], ends[1], None)
    return found[0] if found else None


def main(seeds: tuple[int, ...] = (0, 1, 4)) -> None:
    """Rerun the searches that found the first stored turns, and time them."""
    for seed in seeds:
        t0 = time.perf_counter()
        turn = find_turn(seed)
        took = time.perf_counter() - t0
        what = "one of the stored turns" if turn in TURNS else turn
        print(f"find_turn(seed={seed}): {took:.1f} s, {what}")


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or (0, 1, 4))
