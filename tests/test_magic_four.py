"""The four-strand construction (magic/four.py)."""

from __future__ import annotations

import numpy as np
import pytest

from knightstour.board import Board
from knightstour.magic import _four_kernels as kf
from knightstour.magic.four import EXHAUSTED, FOUND, PLANS, SPENT, assemble_four, four_walker
from knightstour.numbering import analyse
from knightstour.tour import validate

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
    """Part of what ``tools/magic_patterns.py four`` walks whole: the plan that is quickest."""
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
    from knightstour.solvers import _jit

    w = four_walker(3, 0)
    compiled = w.walk(5, check=True, budget=400, path=SNAKE)
    saved = w.k
    w.k = _jit.load(kf, compiled=False)
    try:
        plain = w.walk(5, check=True, budget=400, path=SNAKE)
    finally:
        w.k = saved
    assert compiled == plain == (SPENT, None, 400)
