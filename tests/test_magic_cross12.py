"""Semi-magic tours 12 wide with an odd number of 4x4 blocks along the other side (12x20, 12x28,
and turned round): the crossed construction on three block rows, each tour checked from scratch."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from knightstour.cli import main
from knightstour.magic._blocks import CYCLES, knight, traversals
from knightstour.magic.construct import construct, constructible
from knightstour.magic.cross import crossable, crossed
from tiers import sample

SIZES = [(12, 20), (20, 12), (12, 28), (28, 12), (12, 36), (44, 12)]
SEEDS = (1, 2)


def assert_closed_semi_magic(width: int, height: int, order: np.ndarray) -> None:
    """A closed knight's tour whose every rank and every file adds up to its constant.

    Plain Python, nothing from the package: the constants are the total 1 + ... + n shared out
    over the ranks (and over the files)."""
    squares = [int(v) for v in order]
    n = width * height
    assert sorted(squares) == list(range(n))
    for a, b in itertools.pairwise([*squares, squares[0]]):  # the closing move too
        assert sorted((abs(a % width - b % width), abs(a // width - b // width))) == [1, 2]
    total = n * (n + 1) // 2
    assert total % height == 0 and total % width == 0
    ranks, files = [0] * height, [0] * width
    for number, square in enumerate(squares, start=1):
        ranks[square // width] += number
        files[square % width] += number
    assert ranks == [total // height] * height
    assert files == [total // width] * width


_CACHE: dict[tuple[int, int, int], np.ndarray] = {}


def built(width: int, height: int, seed: int) -> np.ndarray:
    if (width, height, seed) not in _CACHE:
        _CACHE[(width, height, seed)] = construct(width, height, seed=seed)
    return _CACHE[(width, height, seed)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "height", "seed"),
    sample(
        [(*s, seed) for s in SIZES for seed in SEEDS], 2, seed=12, keep=[(12, 20, 1), (20, 12, 2)]
    ),
)  # all of them with --all
def test_twelve_wide_boards_are_built_closed_and_semi_magic(
    width: int, height: int, seed: int
) -> None:
    assert constructible(width, height) is None
    assert_closed_semi_magic(width, height, built(width, height, seed))


@pytest.mark.sweep  # --all (make test-all): the boards above are built the same way
def test_a_long_twelve_wide_board_is_built() -> None:
    assert_closed_semi_magic(12, 100, construct(12, 100, seed=3))


def test_seeds_give_different_tours_not_just_images() -> None:
    """The walks themselves differ (construct() then also turns them by one of the symmetries)."""
    for width, height in [(20, 12), (12, 20)]:  # as the blocks stand, and turned round
        a, b = (crossed(width, height, seed=seed) for seed in SEEDS)
        assert not np.array_equal(a, b)


def test_the_command_builds_and_stores_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    code = main(["magic", "12x20", "--count", "1", "--db", db, "--format", "json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["built"] == 1
    tour = out["tours"][0]
    order = np.array([y * 12 + x for x, y in tour["xy"]])
    assert_closed_semi_magic(12, 20, order)


def test_crossable_takes_three_block_rows_with_five_columns_or_more() -> None:
    assert crossable(5, 3) and crossable(7, 3) and crossable(99, 3)
    assert not crossable(3, 5) and not crossable(3, 3) and not crossable(3, 7)
    assert crossable(5, 5) and not crossable(5, 1) and not crossable(5, 4)


def test_the_joint_excursion_units_hold_what_they_claim() -> None:
    """Each unit: P and Q a knight's move on at every step, its first two squares a move apart
    (the tour's ends), blocks (0, 0) and (1, 0) on their four cycles, each middle-row block above
    them visited once on one cycle of each mirror pair ({0, 1}, {2, 3}: the reflection in the
    block's middle line swaps them), the exits, rank offsets and middle-row pair it claims."""
    from knightstour.magic.cross import _joint_excursions

    travs = traversals()
    mirror_pair = {}
    for c, cycle in enumerate(CYCLES):
        image = {(x, 3 - y) for x, y in cycle}
        mirror_pair[c] = next(m for m, other in enumerate(CYCLES) if set(other) == image)
    assert mirror_pair == {0: 1, 1: 0, 2: 3, 3: 2}
    units = _joint_excursions()
    assert len(units) > 100
    for steps, pe, qe, r, d in units:
        assert len(steps) == 6
        cycles: dict[tuple[int, int], list[int]] = {}
        ranks, pair = [0] * 4, [0, 0]
        last: tuple[tuple[int, int], tuple[int, int]] | None = None
        for (bx, by), p, q in steps:
            sp = [(x + 4 * bx, y + 4 * by) for x, y in travs[p][1]]
            sq = [(x + 4 * bx, y + 4 * by) for x, y in travs[q][1]]
            if last is None:
                assert knight(sp[0], sq[0])
            else:
                assert knight(last[0], sp[0]) and knight(last[1], sq[0])
            assert all(knight(a, b) for a, b in itertools.pairwise(sp))
            assert all(knight(a, b) for a, b in itertools.pairwise(sq))
            cycles.setdefault((bx, by), []).extend((travs[p][0], travs[q][0]))
            v = [0] * 4
            for k, ((_, y), (_, w)) in enumerate(zip(sp, sq, strict=True)):
                v[y - 4 * by] += k + 1  # P's offsets run 1 ... 4, Q's 4 ... 1
                v[w - 4 * by] += 4 - k
            if by == 0:
                ranks = [a + b for a, b in zip(ranks, v, strict=True)]
            else:
                pair = [pair[0] + v[0] - v[3], pair[1] + v[1] - v[2]]
            last = (sp[-1], sq[-1])
        assert sorted(cycles) == [(0, 0), (0, 1), (1, 0), (1, 1)]
        assert sorted(cycles[(0, 0)]) == sorted(cycles[(1, 0)]) == [0, 1, 2, 3]
        for up in ((0, 1), (1, 1)):
            a, b = cycles[up]
            assert mirror_pair[a] != b and a != b
        assert last == (pe, qe)
        assert list(r) == [v - 20 for v in ranks] and list(d) == pair
