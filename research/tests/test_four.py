"""The four-strand construction (research/four.py)."""

from __future__ import annotations

import numpy as np
import pytest

from knightstour.board import Board
from knightstour.numbering import analyse
from knightstour.tour import validate
from research import _four_kernels as kf
from research.four import (
    EXHAUSTED,
    FOUND,
    P1,
    P2,
    PLANS,
    SPENT,
    assemble_four,
    assemble_strands,
    four_walker,
)

SNAKE = (0, 1, 2, 5, 8, 7, 4, 3, 6)


def numbers(order: np.ndarray, n: int) -> np.ndarray:
    grid = np.zeros(n * n, dtype=np.int64)
    grid[order] = np.arange(1, n * n + 1)
    return grid


@pytest.mark.parametrize("colour", [0, 1])
def test_a_four_strand_tour_is_semi_magic_and_made_as_described(colour: int) -> None:
    w = four_walker(3, colour)
    status, steps, nodes = w.walk(1, check=False, path=SNAKE)
    assert status == FOUND and steps is not None and nodes > 0
    assert [s[0] for s in steps] == list(SNAKE)
    order = assemble_four(3, steps, w.travs)
    validate(Board(12, 12), order)
    m = analyse(12, 12, order.tolist())
    assert m.verdict == "semi-magic" and set(m.ranks) == set(m.files) == {870}
    num = numbers(order, 12)
    for i, (b, *units) in enumerate(steps):  # strand s's unit at step i holds its quarter's j
        ox, oy = 4 * (b % 3), 4 * (b // 3)
        covered = set()
        for s, u in enumerate(units):
            j = s * 9 + (i if s % 2 == 0 else 8 - i)
            squares = [(oy + y) * 12 + ox + x for x, y in w.travs[u][1]]
            assert num[squares].tolist() == [4 * j + 1, 4 * j + 2, 4 * j + 3, 4 * j + 4]
            covered |= set(squares)
        assert len(covered) == 16  # the four units cover the block


def test_every_plan_gives_every_block_the_same_sum_of_j() -> None:
    for dirs in PLANS:
        assert sorted(dirs) == [-1, -1, 1, 1]
        sums = {sum(kf.j_of(s, i, 9, dirs[s] > 0) for s in range(4)) for i in range(9)}
        assert len(sums) == 1
        assert sorted(kf.j_of(s, i, 9, dirs[s] > 0) for s in range(4) for i in range(9)) == list(
            range(36)
        )


@pytest.mark.parametrize("path", [SNAKE, (0, 1, 4, 3, 6, 7, 8, 5, 2)])
def test_no_magic_tour_along_these_paths(path: tuple[int, ...]) -> None:
    """Part of what ``python -m research.magic_patterns four`` walks whole: the plan that is quickest."""
    for colour in (0, 1):
        w = four_walker(3, colour, (-1, 1, -1, 1))
        status, steps, nodes = w.walk(1, check=True, path=path)
        assert status == EXHAUSTED and steps is None and nodes > 100_000
        # the same walk without the diagonals' check finds semi-magic tours
        status, steps, _ = w.walk(1, check=False, path=path)
        assert status == FOUND
        order = assemble_four(3, steps, w.travs, (-1, 1, -1, 1))
        validate(Board(12, 12), order)
        assert analyse(12, 12, order.tolist()).verdict == "semi-magic"


def test_compiled_and_plain_walks_agree() -> None:
    """The kernels compiled and as plain Python: the same outcome after the same nodes."""
    from knightstour.kernels import jit

    w = four_walker(3, 0)
    compiled = w.walk(5, check=True, budget=400, path=SNAKE)
    saved = w.k
    w.k = jit.load(kf, compiled=False)
    try:
        plain = w.walk(5, check=True, budget=400, path=SNAKE)
    finally:
        w.k = saved
    assert compiled == plain == (SPENT, None, 400)


PAIRS_DIRS = (-1, 1, -1, 1)
OWN = [P1, P2, P2, P1]  # A and D on one path, B and C on another


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strands_on_two_paths_make_semi_magic_tours_as_described(seed: int) -> None:
    assert P1 != P2
    w = four_walker(3, 1, PAIRS_DIRS)
    status, units, nodes = w.walk_paths(seed, OWN, check=False, budget=20_000_000)
    assert status == FOUND and units is not None and nodes > 0
    order = assemble_strands(3, OWN, units, w.travs, PAIRS_DIRS)
    validate(Board(12, 12), order)
    grid = numbers(order, 12).reshape(12, 12)
    assert (grid.sum(axis=0) == 870).all() and (grid.sum(axis=1) == 870).all()
    assert analyse(12, 12, order.tolist()).verdict in ("semi-magic", "magic")
    covered: dict[int, int] = {}
    for s in range(4):
        for i in range(9):
            j = kf.j_of(s, i, 9, PAIRS_DIRS[s] > 0)
            b = OWN[s][i]
            for k, (x, y) in enumerate(w.travs[units[i][s]][1]):
                square = (4 * (b // 3) + y) * 12 + 4 * (b % 3) + x
                assert grid.flat[square] == 4 * j + k + 1  # strand s's unit of j, in its block
                covered[square] = covered.get(square, 0) + 1
    assert len(covered) == 144 and set(covered.values()) == {1}


def test_every_path_must_be_shared_with_a_strand_going_the_other_way() -> None:
    w = four_walker(3, 1, PAIRS_DIRS)
    with pytest.raises(ValueError, match="strand 0"):
        w.walk_paths(1, [P1, P2, P1, P2], check=False, budget=10)  # A and C both go backwards
    with pytest.raises(ValueError, match="strand 0"):
        w.walk_paths(1, [(0,) * 9, P2, P2, (0,) * 9], check=False, budget=10)


def test_compiled_and_plain_walks_on_two_paths_agree() -> None:
    from knightstour.kernels import jit

    w = four_walker(3, 1, PAIRS_DIRS)
    compiled = w.walk_paths(4, OWN, check=True, budget=300)
    saved = w.k
    w.k = jit.load(kf, compiled=False)
    try:
        plain = w.walk_paths(4, OWN, check=True, budget=300)
    finally:
        w.k = saved
    assert compiled[0] == plain[0] == SPENT and compiled[2] == plain[2] == 300
