"""The compiled lockstep walk of the block construction (research/lockstep.py)."""

from __future__ import annotations

import numpy as np
import pytest

from knightstour.board import Board
from knightstour.magic.construct import _PATTERNS
from knightstour.numbering import analyse
from knightstour.tour import validate
from research import _lockstep_kernels as kl
from research.blocks import tables
from research.diagonal import assembled, walked_back
from research.lockstep import EXHAUSTED, FOUND, SPENT, LockstepWalker, diagonal_blocks


def tour_of(bw: int, bh: int, steps: list[tuple[int, int, int]]) -> np.ndarray:
    return assembled(bw, bh, walked_back(steps, True), True)


@pytest.mark.parametrize("colour", [0, 1])
@pytest.mark.parametrize("beta", _PATTERNS[(3, 3)])
def test_the_stored_patterns_hold_semi_magic_tours_and_no_magic_one(
    beta: tuple[int, ...], colour: int
) -> None:
    walker = LockstepWalker(3, 3, tables(True), path_blocks=diagonal_blocks(3))
    status, steps, nodes = walker.walk(beta[::-1], colour, check=False, seed=colour)
    assert status == FOUND and steps is not None and nodes > 0
    assert [b for b, _, _ in steps] == list(beta[::-1])
    order = tour_of(3, 3, steps)
    validate(Board(12, 12), order)
    m = analyse(12, 12, order.tolist())
    assert m.verdict == "semi-magic" and set(m.ranks) == set(m.files) == {870}
    # walked whole with the diagonals checked: nothing (the patterns' diagonals cannot add up)
    status, steps, nodes = walker.walk(beta[::-1], colour, check=True)
    assert status == EXHAUSTED and steps is None and nodes > 0


def test_compiled_and_plain_walks_agree() -> None:
    """The kernels compiled and as plain Python: the same tour, the same count of nodes."""
    from knightstour.kernels import jit

    beta = _PATTERNS[(2, 2)][0][::-1]
    walker = LockstepWalker(2, 2, tables(True), path_blocks=range(4))
    compiled = walker.walk(beta, 0, check=False, seed=3)
    walker.k = jit.load(kl, compiled=False)
    plain = walker.walk(beta, 0, check=False, seed=3)
    assert compiled == plain and compiled[0] == FOUND
    order = tour_of(2, 2, compiled[1])
    validate(Board(8, 8), order)
    assert analyse(8, 8, order.tolist()).verdict == "semi-magic"


def test_the_budget_stops_a_walk() -> None:
    walker = LockstepWalker(3, 3, tables(True), path_blocks=diagonal_blocks(3))
    status, steps, nodes = walker.walk(_PATTERNS[(3, 3)][0][::-1], 0, check=True, budget=50)
    assert (status, steps, nodes) == (SPENT, None, 50)


def test_only_the_path_blocks_take_paths() -> None:
    walker = LockstepWalker(3, 3, tables(True), path_blocks=(4,))
    assert walker.allowed[:, :32].all()
    assert walker.allowed[4].all() and not walker.allowed[[0, 1, 2, 3, 5, 6, 7, 8], 32:].any()
    assert diagonal_blocks(4) == (0, 3, 5, 6, 9, 10, 12, 15)
