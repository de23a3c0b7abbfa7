"""Chosen ends on narrow boards by the frontier sweep, and closed tours with a chosen end by
divide's construction (issue 30, items 13 and 14): answered, never "unknown".

The sweep's answers are checked against the exact backtracking search on small boards, every
path it builds is validated as a tour between the two squares, and the examples of the issue
(3x300, 3x1000, 5x1001, 150x150 closed) are answered by ``exists`` and ``solve``. Boards of
any length are swept (the tables made where the sweep goes), so long boards 3 and 5 wide past
the old limit of 30,000 squares answer too, and a path that would not fit in memory is refused
in one line, never "unknown".
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


@pytest.mark.slow
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


def test_the_tables_of_a_stretch_are_those_of_the_whole_board() -> None:
    # the arithmetic geometry of a flat board gives the tables the whole board's arrays give,
    # for any stretch; and where it calls a position quiet, its tables are those of the
    # position two rows before (what passing over a stretch relies on)
    fields = ("nback", "cap", "caps", "nleave", "signs", "remain", "rest", "spare")
    boards = [Board(3, 40), Board(5, 30), Board(41, 3), Board(5, 90, holes=frozenset({7, 200}))]
    for b in boards:
        ends = (1, b.area - 3)
        clock = sweep._Clock(b, None)
        whole, rows = sweep._Arrays(b, ends, clock), sweep._Rows(b, ends)
        assert (whole.width, whole.last_real) == (rows.width, rows.last_real)
        assert [rows.square(p) for p in range(rows.n)] == whole.order.tolist()
        full = sweep._tables(whole, 0, whole.n, clock)

        def same(t: sweep._Tables, p: int, u: sweep._Tables, q: int) -> bool:
            i, j = p - t.lo, q - u.lo
            if any(not np.array_equal(getattr(t, f)[i], getattr(u, f)[j]) for f in fields):
                return False
            nb, nl = t.nback[i], t.nleave[i]
            return (
                np.array_equal(t.back[i, :nb], u.back[j, :nb])
                and np.array_equal(t.leaving[i, :nl], u.leaving[j, :nl])
                and np.array_equal(t.ahead[i], u.ahead[j])
            )

        for lo, hi in [(0, rows.n), (5, 17), (rows.n - 20, rows.n)]:
            part = sweep._tables(rows, lo, hi, clock)
            assert all(same(full, p, part, p) for p in range(lo, hi)), (b, lo, hi)
        quiet = [p for p in range(rows.n) if rows.quiet(p)]
        assert quiet, b
        for p in quiet:
            assert same(full, p, full, p - rows.period), (b, p)
            end = rows.quiet_until(p)
            assert rows.quiet(end) and not rows.quiet(end + 1)


@pytest.mark.parametrize("closed", [False, True])
def test_long_three_wide_boards_past_the_old_limit(
    closed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # 3x20000 (60,000 squares; the sweep once stopped at 30,000): b2 to c4 open, b2 to a4
    # (a move apart) closed: yes with a validated tour; b2 to b3: a proved no
    b = Board(3, 20000)
    end = "a4" if closed else "c4"
    answer = kt.exists(b, "b2", end=end, closed=closed)
    assert answer.exists is True and "exact sweep" in answer.reason
    tour = kt.solve(b, "b2", end=end, closed=closed)
    assert (tour.start, tour.end, tour.method, tour.closed) == ("b2", end, "sweep", closed)
    assert len(tour) == b.size and len(set(tour.indices.tolist())) == b.size
    flag = ["--closed"] if closed else []
    assert cli_main(["exists", "3x20000", "--start", "b2", "--end", end, *flag]) == 0
    assert cli_main(["solve", "3x20000", "--start", "b2", "--end", end, *flag]) == 0
    if not closed:
        answer = kt.exists(b, "b2", end="b3")
        assert answer.exists is False and "exact sweep of the board finds none" in answer.reason
        with pytest.raises(kt.NoTourError, match="exact sweep"):
            kt.solve(b, "b2", end="b3")
        assert cli_main(["exists", "3x20000", "--start", "b2", "--end", "b3"]) == 1
        assert cli_main(["solve", "3x20000", "--start", "b2", "--end", "b3"]) == 1
    capsys.readouterr()


def test_any_length_is_decided_and_the_path_is_built_across_the_passed_rows() -> None:
    # the longest 3-wide boards the program takes are decided without tables for their rows
    # (exists keeps nothing), and a path across a million passed-over rows is whole
    b = Board(3, 715_000_000)
    assert kt.exists(b, "b2", end="c4").exists is True
    b = Board(3, 1_000_000)
    tour = kt.solve(b, "b2", end="c4")
    assert (tour.start, tour.end) == ("b2", "c4") and len(tour) == b.size


def test_a_path_too_big_for_memory_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sweep, "available_memory", lambda: 2**30)
    with pytest.raises(kt.InvalidInputError, match="too large: the path between two chosen"):
        kt.solve("3x100000000", "b2", end="c4")
    assert cli_main(["solve", "3x100000000", "--start", "b2", "--end", "c4"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "exists answers without building it" in err
    assert kt.exists("3x100000000", "b2", end="c4").exists is True  # still answered


@pytest.mark.slow
@pytest.mark.parametrize(
    ("end", "closed"),
    # 20 s each alone, 50 s in the default tier's four workers on two cores: both --all (the
    # default tier keeps the proved no below, and the 3-wide paths past the limit above)
    [
        pytest.param("c2", False, marks=pytest.mark.sweep),
        pytest.param("b3", True, marks=pytest.mark.sweep),
    ],
)
def test_long_five_wide_boards_past_the_old_limit(
    end: str, closed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # 5x7000 (35,000 squares) from a1: a validated tour, open or closed, and the CLI's exit 0
    tour = kt.solve("5x7000", "a1", end=end, closed=closed)
    assert (tour.start, tour.end, tour.method, tour.closed) == ("a1", end, "sweep", closed)
    assert len(tour) == 35000
    flag = ["--closed"] if closed else []
    assert cli_main(["exists", "5x7000", "--start", "a1", "--end", end, *flag]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("closed", [False, True])
def test_a_long_five_wide_proved_no(closed: bool, capsys: pytest.CaptureFixture[str]) -> None:
    # the corners a1 and e1 have two moves each, both through c2: inside a path they take both
    # of c2's ends, so a path ending on c2 ends on a1 or e1 too. No path from c2 to a3 (a move
    # apart: no closed tour either), on 5x7000 as on 5x20
    for spec in ("5x20", "5x7000"):
        answer = kt.exists(spec, "c2", end="a3", closed=closed)
        assert answer.exists is False and "exact sweep of the board finds none" in answer.reason
    flag = ["--closed"] if closed else []
    assert cli_main(["solve", "5x7000", "--start", "c2", "--end", "a3", *flag]) == 1
    assert cli_main(["exists", "5x7000", "--start", "c2", "--end", "a3", *flag]) == 1
    capsys.readouterr()


@pytest.mark.slow
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
