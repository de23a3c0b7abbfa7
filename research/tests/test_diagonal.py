"""Why magic 12x12 tours are hard to build: the open transversal paths and the diagonals' sums."""

from __future__ import annotations

import itertools

from knightstour.magic._blocks import CYCLES, knight
from research.blocks import paths, tables


def test_the_open_transversal_paths() -> None:
    """Eight open paths (16 walks) besides the four cycles: one square in every rank and file of
    the block, knight's moves between, one square on each long diagonal of the block."""
    walks = paths()
    assert len(walks) == 16 and len({frozenset(w) for w in walks}) == 8
    for walk in walks:
        assert sorted(x for x, _ in walk) == sorted(y for _, y in walk) == [0, 1, 2, 3]
        assert all(knight(a, b) for a, b in itertools.pairwise(walk))
        assert not knight(walk[0], walk[-1])  # open: not one of the cycles
        assert sum(x == y for x, y in walk) == sum(x + y == 3 for x, y in walk) == 1
        assert walk[::-1] in walks
    for cycle in CYCLES:
        assert {sum(x == y for x, y in cycle), sum(x + y == 3 for x, y in cycle)} <= {0, 2}
    sets = {frozenset(w) for w in walks} | {frozenset(c) for c in CYCLES}
    cuts = [c for c in itertools.combinations(sets, 4) if len(frozenset().union(*c)) == 16]
    assert len(sets) == 12 and len(cuts) == 7  # the ways to cut a block into four units


def test_what_a_block_adds_to_the_main_diagonal() -> None:
    """With P's units on even squares the main diagonal adds up to 864 plus, over its squares,
    Q's 4i + k + 1 minus P's 4i + k (i the step from the joint, k the place in the unit); 870
    needs 6. A block cut into whole cycles, or into open paths, adds 4 plus a multiple of 8; one
    that mixes them adds 2 plus a multiple of 4: so an odd number of mixed blocks is needed."""
    t = tables(True)
    by_mask: dict[int, list[tuple[int, int]]] = {}
    for p, q in t.vec:
        by_mask.setdefault(t.masks[p] | t.masks[q], []).append((p, q))

    def even_start(u: int) -> bool:
        return sum(t.travs[u][1][0]) % 2 == 0

    adds: dict[str, set[int]] = {"whole": set(), "mixed": set()}
    for p1, q1 in t.vec:
        for p2, q2 in by_mask[0xFFFF ^ t.masks[p1] ^ t.masks[q1]]:
            if not (even_start(p1) and even_start(p2)) or even_start(q1) or even_start(q2):
                continue
            cycles = {t.travs[u][0] < 4 for u in (p1, q1, p2, q2)}
            for i1, i2 in ((0, 5), (3, 4), (9, 2)):
                add = 0
                for i, p, q in ((i1, p1, q1), (i2, p2, q2)):
                    add -= sum(4 * i + k for k, (x, y) in enumerate(t.travs[p][1]) if x == y)
                    add += sum(4 * i + k + 1 for k, (x, y) in enumerate(t.travs[q][1]) if x == y)
                adds["whole" if len(cycles) == 1 else "mixed"].add(add)
    assert {a % 8 for a in adds["whole"]} == {4}
    assert {a % 4 for a in adds["mixed"]} == {2}


def test_paired_diagonal_units_never_make_a_magic_diagonal() -> None:
    """Why the magic search checks the diagonals' own numbers: had P's and Q's units at every step
    in a diagonal block equally many squares of each diagonal, their cycle parts would add up to
    840 and the offsets would have to add up to 30; but every such block puts offsets adding up to
    8 on one diagonal and 12 on the other (P's units start on one colour, Q's on the other), so
    three blocks give 24 or 36."""
    t = tables(True)

    def colour(u: int) -> int:
        return sum(t.travs[u][1][0]) % 2

    found = set()
    for c in (0, 1):
        pairs = [
            (p, q)
            for p, q in t.vec
            if t.diag[p] == t.diag[q] and colour(p) == c and colour(q) == 1 - c
        ]
        for (p1, q1), (p2, q2) in itertools.product(pairs, repeat=2):
            if t.masks[p1] | t.masks[q1] | t.masks[p2] | t.masks[q2] != 0xFFFF:
                continue  # four units of four squares that cover the block: a partition
            sums = [0, 0]
            for u, offsets in (
                (p1, (1, 2, 3, 4)),
                (q1, (4, 3, 2, 1)),
                (p2, (1, 2, 3, 4)),
                (q2, (4, 3, 2, 1)),
            ):
                for (x, y), o in zip(t.travs[u][1], offsets, strict=True):
                    sums[0] += o if x == y else 0
                    sums[1] += o if x + y == 3 else 0
            found.add((c, *sums))
    assert found == {(0, 8, 12), (1, 12, 8)}
