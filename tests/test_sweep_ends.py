"""Chosen ends on narrow boards by the frontier sweep, and closed tours with a chosen end by
divide's construction (issue 30, items 13 and 14): answered, never "unknown".

The sweep's answers are checked against the exact backtracking search on small boards, every
path it builds is validated as a tour between the two squares, and the examples of the issue
(3x300, 3x1000, 5x1001, 150x150 closed) are answered by ``exists`` and ``solve``.
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import knightstour as kt
import tiers
from knightstour import theory
from knightstour.board import Board, parse_board
from knightstour.cli import main as cli_main
from knightstour.solvers import sweep
from knightstour.solvers.backtrack import exact_search


def _searched(b: Board, s: int, e: int) -> bool:
    """The exact backtracking search's answer: a path from ``s`` to ``e``?"""
    try:
        exact_search(b, s, e, False)
    except kt.NoTourError:
        return False
    return True


def _pairs(b: Board) -> list[tuple[int, int]]:
    """Every pair of distinct squares that colour parity leaves possible."""
    return [
        (s, e)
        for s, e in itertools.permutations(range(b.area), 2)
        if theory.colour_parity(b, s, e, False) is None
    ]


def _check(b: Board, s: int, e: int) -> bool:
    """The sweep's path (validated) or None, its decision, and the search's answer agree."""
    path = sweep.between(b, s, e)
    found = path is not None
    if found:
        assert path is not None
        tour = kt.Tour(b, path)
        assert int(tour.indices[0]) == s and int(tour.indices[-1]) == e
    assert sweep.decide(b, s, e) is found
    assert _searched(b, s, e) is found, (b.spec, b.square_name(s), b.square_name(e))
    return found


SMALL = ["3x4", "3x7", "4x5", "5x5", "3x10", "4x6", "5x6"]


@pytest.mark.parametrize("spec", SMALL)
def test_sampled_pairs_agree_with_the_exact_search(spec: str) -> None:
    b = parse_board(spec)
    pairs = tiers.sample(_pairs(b), 24, seed=30, keep=[(0, b.area - 1)])
    answers = {_check(b, s, e) for s, e in pairs if s != e}
    assert answers  # the sample is not empty


@pytest.mark.sweep
@pytest.mark.parametrize("spec", ["3x8", "3x12", "4x7", "5x7", "4x8"])
def test_every_pair_agrees_with_the_exact_search(spec: str) -> None:
    b = parse_board(spec)
    found = [_check(b, s, e) for s, e in _pairs(b)]
    assert any(found)  # (on 5x7 every pair colour parity allows is joined)


def test_closed_tours_through_a_move_are_paths_between_its_squares() -> None:
    b = Board(3, 10)
    for s in (0, 1, 4, 13):
        for e in b.moves(s):
            answer = kt.exists(b, s, end=e, closed=True)
            assert answer.exists is _searched(b, s, e), answer.reason
            if answer.exists:
                tour = kt.solve(b, s, end=e, closed=True)
                assert tour.closed and tour.method == "sweep"
            else:
                with pytest.raises(kt.NoTourError, match="exact sweep"):
                    kt.solve(b, s, end=e, closed=True)


def test_a_proved_no_says_why_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    b = Board(3, 10)
    answer = kt.exists(b, "a1", end="a8")
    assert answer.exists is False and not _searched(b, 0, 21)
    assert answer.reason == (
        "no tour from a1 to a8 on 3x10: no Hamiltonian path between a1 and a8, the exact sweep "
        "of the board finds none"
    )
    assert cli_main(["solve", "3x10", "--start", "a1", "--end", "a8"]) == 1
    assert cli_main(["exists", "3x10", "--start", "a1", "--end", "a8"]) == 1
    out = capsys.readouterr()
    assert "exact sweep" in out.err + out.out


def test_three_wide_examples_of_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    answer = kt.exists("3x300", start="c1", end="a2")
    assert answer.exists is True and "exact sweep" in answer.reason
    tour = kt.solve("3x300", start="c1", end="a2")
    assert (tour.start, tour.end, tour.method) == ("c1", "a2", "sweep")
    assert cli_main(["exists", "3x300", "--start", "c1", "--end", "a2"]) == 0
    capsys.readouterr()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "s", "e"),
    [
        ("3x1000", "b2", "c4"),
        pytest.param("5x1001", "c795", "c755", marks=pytest.mark.sweep),  # ten seconds: --all
    ],
)
def test_long_examples_of_the_issue(spec: str, s: str, e: str) -> None:
    assert kt.exists(spec, start=s, end=e).exists is True
    tour = kt.solve(spec, start=s, end=e)
    assert (tour.start, tour.end) == (s, e) and len(tour) == parse_board(spec).size


@pytest.mark.slow
def test_closed_with_a_chosen_end_is_built_on_big_boards() -> None:
    answer = kt.exists("150x150", start="d121", end="f122", closed=True)
    assert answer.exists is True and "by construction" in answer.reason
    tour = kt.solve("150x150", start="d121", end="f122", closed=True)
    assert tour.closed and (tour.start, tour.end, tour.method) == ("d121", "f122", "divide")


def test_closed_with_an_end_off_a_move_is_a_proved_no() -> None:
    for spec in ("150x150", "5x20"):
        answer = kt.exists(spec, start="a1", end="a2", closed=True)
        assert answer.exists is False and "knight's move from its start" in answer.reason
        with pytest.raises(kt.NoTourError, match="knight's move"):
            kt.solve(spec, start="a1", end="a2", closed=True)


def test_square_boards_from_6_closed_with_a_chosen_end_are_answered() -> None:
    for n in (6, 8, 10, 12):
        b = Board(n, n)
        for s in tiers.sample(range(b.area), 3, seed=n, keep=[0]):
            for e in b.moves(s)[:2]:
                answer = kt.exists(b, s, end=e, closed=True)
                assert answer.exists is True, answer.reason
                tour = kt.solve(b, s, end=e, closed=True)
                assert tour.closed and int(tour.indices[-1]) == e


def test_a_deadline_stops_the_sweep() -> None:
    with pytest.raises(kt.SearchFailedError, match="time limit"):
        sweep.between(Board(5, 200), 0, 7, deadline=time.monotonic() - 1)


def test_the_ways_back_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep, "LINK_BYTES", 64)
    b = Board(3, 40)
    with pytest.raises(kt.InvalidInputError, match="MiB of the sweep's states"):
        sweep.between(b, 2, 3)
    assert sweep.decide(b, 2, 3) is True  # deciding keeps no ways back


def test_repeating_rows_are_passed_over_with_the_same_answer() -> None:
    # a long board whose middle rows repeat: the path built across them is a valid tour, and
    # the answer matches the one on a board short enough that nothing is passed over
    for h in (40, 41, 300):
        b = Board(4, h)
        path = sweep.between(b, 0, b.area - 1)
        found = path is not None
        if found:
            assert path is not None
            kt.Tour(b, path)
        assert found is sweep.decide(b, 0, b.area - 1)
    short, long_ = Board(3, 30), Board(3, 300)
    assert sweep.decide(short, 2, 3) is sweep.decide(long_, 2, 3) is True
    assert isinstance(sweep.between(long_, 2, 3), np.ndarray)
