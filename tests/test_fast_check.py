"""The compiled check of long sequences names exactly the problems the vectorised one names: every
kind of broken tour, on wide, narrow and shaped boards, in one piece or in two halves at once."""

from __future__ import annotations

import numpy as np
import pytest

import knightstour as kt
from knightstour import tour as tour_module
from knightstour.board import Board
from knightstour.kernels import jit
from knightstour.kernels import walk as _kernels
from knightstour.tour import find_problems


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    jit.load(_kernels, compiled=True)  # the check runs compiled only once they are loaded


def both(board: Board, seq: np.ndarray, closed: bool = False) -> list[str]:
    """The problems found with the compiled check and without; they must agree."""
    fast = [str(p) for p in find_problems(board, seq, closed)]
    saved = tour_module.FAST_CHECK_MIN
    tour_module.FAST_CHECK_MIN = 1 << 62  # no sequence is long enough for the compiled check
    try:
        slow = [str(p) for p in find_problems(board, seq, closed)]
    finally:
        tour_module.FAST_CHECK_MIN = saved
    assert fast == slow
    return fast


def broken(seq: np.ndarray, rng: np.random.Generator, area: int) -> list[np.ndarray]:
    n = seq.size
    i, j = sorted(rng.choice(n, 2, replace=False))
    out = []
    a = seq.copy()
    a[j] = a[i]  # a repeat (and non-moves around it)
    out.append(a)
    a = seq.copy()
    a[i], a[j] = a[j], a[i]  # a swap: every square once, but broken moves
    out.append(a)
    a = seq.copy()
    a[i] = area + 5  # off the board
    out.append(a)
    a = seq.copy()
    a[j] = -1
    out.append(a)
    out.append(seq[: n - 7])  # a path short of a tour
    out.append(seq[7:])
    out.append(np.concatenate([seq, seq[:1]]))  # one too many
    out.append(seq[::-1])  # reversed (a tour still)
    return out


@pytest.mark.parametrize(
    "board",
    [Board(80, 80), Board(3, 3000), Board(4, 2500), Board(70, 90, leaper=(2, 3)), Board(101, 99)],
    ids=str,
)
def test_agrees_with_the_vectorised_check(board: Board) -> None:
    try:
        seq = np.asarray(kt.solve(board, start="a1").indices)
        assert both(board, seq) == []
    except kt.SearchFailedError as e:  # a path, not a tour: the same answers all the same
        seq = np.asarray(e.partial.indices)
        assert len(both(board, seq)) == 1
    rng = np.random.default_rng(board.area)
    for bad in broken(seq, rng, board.area):
        both(board, bad)
        both(board, bad.astype(np.int64))
    both(board, seq, closed=True)


def test_closed_and_not_closed() -> None:
    board = Board(64, 64)
    t = kt.solve(board, start="a1", closed=True, method="divide")
    assert both(board, np.asarray(t.indices), closed=True) == []
    rolled = np.roll(np.asarray(t.indices), 5)
    assert both(board, rolled, closed=True) == []
    opened = kt.solve(board, start="a1", method="warnsdorff")
    problems = both(board, np.asarray(opened.indices), closed=True)
    assert len(problems) == 1 and problems[0].startswith("not closed")


def test_holes() -> None:
    board = Board(70, 70, holes=frozenset({70 * 35 + 35, 70 * 10 + 3}))
    t = kt.solve(board, start="a1", method="warnsdorff")
    seq = np.asarray(t.indices)
    assert both(board, seq) == []
    a = seq.copy()
    a[100] = 70 * 35 + 35  # onto a hole
    assert both(board, a)
    assert both(board, seq[:-50])


def test_in_two_halves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tour_module, "_CHECK_IN_HALVES", 1 << 12)
    board = Board(90, 90)
    seq = np.asarray(kt.solve(board, start="a1").indices)
    assert both(board, seq) == []
    rng = np.random.default_rng(1)
    for bad in broken(seq, rng, board.area):
        both(board, bad)
    # the same square in both halves: a race the count of flags catches
    a = seq.copy()
    a[-1] = a[10]
    assert any("twice" in p for p in both(board, a))


def test_a_short_path_on_a_huge_board_costs_little() -> None:
    board = Board(20000, 20000)
    path = kt.solve("70x70", start="a1", method="warnsdorff").indices
    x, y = path % 70, path // 70
    seq = (y * 20000 + x).astype(np.int32)
    problems = both(board, seq)
    assert len(problems) == 1 and problems[0].startswith("399,995,100 squares are never visited")
