"""Warnsdorff's rule: every tie-break through one shared correctness check, against a plain
reference implementation, compiled and interpreted alike."""

from __future__ import annotations

import contextlib
import itertools

import numpy as np
import pytest

import knightstour as kt
from conftest import assert_is_partial_path, assert_is_tour
from knightstour import Board, SearchFailedError
from knightstour.kernels import walk as _kernels
from knightstour.solvers import SolveRequest
from knightstour.solvers.warnsdorff import TIEBREAKS, Walker, warnsdorff

PLAIN = ("first", "center", "lookahead")
BOARDS = [Board(n, n) for n in range(5, 21)] + [
    Board(5, 8),
    Board(8, 5),
    Board(7, 12),
    Board(12, 7),
    Board(3, 12),
]


def reference_walk(board: Board, start: int, tiebreak: str) -> list[int]:
    """Warnsdorff's rule written plainly, from the definitions, for comparison."""
    visited = {start}
    path = [start]
    cx, cy = (board.width - 1) / 2, (board.height - 1) / 2

    def onward(s: int) -> int:
        return sum(t not in visited for t in board.moves(s))

    while len(path) < board.size:
        cands = [t for t in board.moves(path[-1]) if t not in visited]
        if not cands:
            break
        low = min(onward(t) for t in cands)
        tied = [t for t in cands if onward(t) == low]
        if tiebreak == "center":
            far = max((board.xy(t)[0] - cx) ** 2 + (board.xy(t)[1] - cy) ** 2 for t in tied)
            tied = [
                t for t in tied if (board.xy(t)[0] - cx) ** 2 + (board.xy(t)[1] - cy) ** 2 == far
            ]
        elif tiebreak == "lookahead":

            def second(t: int) -> int:
                return sum(onward(u) for u in board.moves(t) if u not in visited)

            low2 = min(second(t) for t in tied)
            tied = [t for t in tied if second(t) == low2]
        nxt = tied[0]
        visited.add(nxt)
        path.append(nxt)
    return path


@pytest.mark.parametrize("tiebreak", PLAIN)
@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_matches_reference(board: Board, tiebreak: str) -> None:
    got = Walker(board).walk(0, tiebreak=tiebreak).tolist()
    assert got == reference_walk(board, 0, tiebreak)


@pytest.mark.parametrize("tiebreak", TIEBREAKS)
@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_shared_correctness_check(board: Board, tiebreak: str) -> None:
    """A tour, or SearchFailedError saying how far it got, with a valid partial path."""
    if tiebreak == "squirrel" and board.width != board.height:
        with pytest.raises(kt.KnightsTourError, match="square boards"):
            kt.solve(board, start="a1", method="warnsdorff", tiebreak=tiebreak)
        return
    try:
        seed = {"seed": 3} if tiebreak == "random" else {}  # refused where it would be ignored
        tour = kt.solve(board, start="a1", method="warnsdorff", tiebreak=tiebreak, **seed)
    except SearchFailedError as e:
        assert e.partial is not None and 0 < len(e.partial) < board.size
        assert f"{len(e.partial)} of {board.size} squares" in str(e)
        assert_is_partial_path(board, e.partial)
    else:
        assert_is_tour(board, tour.indices, start=0)
        assert tour.method == "warnsdorff"


@pytest.mark.parametrize("tiebreak", ["first", "center", "random", "lookahead"])
def test_compiled_and_interpreted_agree(tiebreak: str, monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board(23, 17)
    slow = Walker(board).walk(5, tiebreak=tiebreak, seed=11).copy()
    monkeypatch.setattr(_kernels, "COMPILE_THRESHOLD", 0)
    fast = Walker(board).walk(5, tiebreak=tiebreak, seed=11).copy()
    assert np.array_equal(slow, fast)


def test_random_ties_are_seeded() -> None:
    a = kt.solve("10x10", start="a1", method="warnsdorff", tiebreak="random", seed=1, closed=True)
    b = kt.solve("10x10", start="a1", method="warnsdorff", tiebreak="random", seed=1, closed=True)
    assert a == b
    paths = set()
    for seed in range(20):
        with contextlib.suppress(SearchFailedError):
            paths.add(
                tuple(
                    kt.solve(
                        "8x8", start="a1", method="warnsdorff", tiebreak="random", seed=seed
                    ).path
                )
            )
    assert len(paths) >= 5


@pytest.mark.parametrize("start", ["a1", "d4", "h8", "b7"])
def test_closed_tours_by_retries(start: str) -> None:
    t = kt.solve("8x8", start=start, closed=True, method="warnsdorff")
    assert_is_tour(t.board, t.indices, closed=True, start=t.board.parse_square(start))


def test_fixed_end() -> None:
    b = Board(8, 8)
    t = kt.solve(b, start="a1", end="g8", method="warnsdorff")
    assert_is_tour(b, t.indices, start=0, end=b.parse_square("g8"))


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12])
def test_roths_rule_from_a1_is_stuck_on_11x11_only_of_these(n: int) -> None:
    """Roth's rule (center ties, then move order) from a1: see benchmarks/bench_roth.py."""
    path = Walker(Board(n, n)).walk(0, tiebreak="center")
    assert (path.size == n * n) is (n != 11)


def test_stuck_reports_coverage() -> None:
    b = Board(100, 100)
    with pytest.raises(SearchFailedError, match=r"covering \d+ of 10000 squares") as e:
        warnsdorff(SolveRequest(b, 0, tiebreak="first"))
    assert_is_partial_path(b, e.value.partial)


def test_gives_up_on_closed_when_attempts_run_out() -> None:
    with pytest.raises(SearchFailedError, match="closed tour"):
        warnsdorff(SolveRequest(Board(5, 6), 0, closed=True, tiebreak="first"), attempts=1)


def test_unknown_tiebreak() -> None:
    with pytest.raises(kt.KnightsTourError, match="unknown tie-break 'nearest'"):
        kt.solve("8x8", method="warnsdorff", tiebreak="nearest")


def test_holes_and_camel_work_unchanged() -> None:
    holed = Board(8, 8, holes=frozenset({27, 28}))
    t = kt.solve(holed, start="a1", method="warnsdorff", tiebreak="center")
    assert len(t) == 62 and not {27, 28} & set(t.indices.tolist())
    camel = Board(8, 8, leaper=(1, 3))
    path = Walker(camel).walk(0, tiebreak="center")
    assert all(camel.is_move(int(a), int(b)) for a, b in itertools.pairwise(path))


def test_parity_refuses_unbalanced_holes() -> None:
    with pytest.raises(kt.NoTourError, match="30 squares of one colour and 32"):
        kt.solve(Board(8, 8, holes=frozenset({27, 36})), method="warnsdorff")


@pytest.mark.parametrize("tiebreak", [None, "first", "center", "lookahead", "squirrel"])
def test_a_seed_that_would_be_ignored_is_refused(tiebreak: str | None) -> None:
    """An open tour without an end is one fixed walk unless ties are random: refuse, don't ignore."""
    with pytest.raises(kt.InvalidInputError, match="add tiebreak='random'") as info:
        kt.solve("8x8", method="warnsdorff", tiebreak=tiebreak, seed=5)
    assert "\n" not in str(info.value)
    # where the seed steers something, it is taken: random ties, and the retries of closed tours
    # and of tours to an end square
    kt.solve("8x8", method="warnsdorff", tiebreak="random", seed=5)
    kt.solve("8x8", start="a1", method="warnsdorff", tiebreak=tiebreak, seed=5, closed=True)
    kt.solve("8x8", start="a1", end="a8", method="warnsdorff", tiebreak=tiebreak, seed=5)
    # auto: a seed asks for seeded random ties (different seeds, different tours); with another
    # tie-break it would be ignored, so it is refused there too
    if tiebreak is None:
        tours = {tuple(kt.solve("8x8", start="a1", seed=s).path) for s in (5, 6, 7)}
        assert len(tours) == 3
        assert kt.solve("8x8", start="a1", seed=5).path == kt.solve("8x8", start="a1", seed=5).path
    else:
        with pytest.raises(kt.InvalidInputError, match="a seed steers only random tie-breaks"):
            kt.solve("8x8", start="a1", tiebreak=tiebreak, seed=5)


# -- issue 11, item 13: a time limit stops a walk where it is (it ran 1.53 s for 0.2 s)


@pytest.mark.parametrize("tiebreak", ["center", "random", "squirrel"])
def test_a_walk_in_steps_is_the_same_walk(tiebreak: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from knightstour.solvers import warnsdorff as w
    from knightstour.solvers.squirrel import schedule

    board = Board(60, 60)
    sched = schedule(board, 0) if tiebreak == "squirrel" else None
    whole = Walker(board).walk(0, tiebreak=tiebreak, seed=3, schedule=sched).copy()
    monkeypatch.setattr(w, "STEP", 97)
    walker = Walker(board)
    steps = walker.walk(
        0, tiebreak=tiebreak, seed=3, schedule=sched, deadline=time.monotonic() + 60
    )
    assert steps.tolist() == whole.tolist() and not walker.stopped


def test_a_walk_stops_at_its_deadline() -> None:
    import time

    from knightstour.solvers import SolveRequest
    from knightstour.solvers import warnsdorff as w

    board = Board(3000, 3000)  # a walk of about 0.2 s
    walker = Walker(board)
    path = walker.walk(0, deadline=time.monotonic() - 1)
    assert walker.stopped and path.size == w.STEP
    with pytest.raises(SearchFailedError, match="time limit") as err:
        warnsdorff(SolveRequest(board, start=0, deadline=time.monotonic() + 0.05))
    assert err.value.partial is not None and 0 < len(err.value.partial) < board.size


def test_solve_keeps_time_to_validate_within_its_limit() -> None:
    """The methods' deadline leaves time for the Tour's validation, linear in the board."""
    import time

    from knightstour.solvers import CHECK_SECONDS_PER_SQUARE, _deadline

    board = Board(8000, 8000)  # a walk of more than a second
    assert _deadline(board, 1.0) <= time.monotonic() + 1.0 - CHECK_SECONDS_PER_SQUARE * board.size
    with pytest.raises(SearchFailedError, match="time limit"):
        kt.solve(board, start="a1", method="warnsdorff", time_limit=0.5)
