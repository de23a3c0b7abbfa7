"""The exact search against a plain enumerator, its limits, and its ends, closed tours and holes."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

import knightstour as kt
from conftest import assert_is_partial_path, assert_is_tour
from enumerator import count_tours, tour_ends, tour_exists
from knightstour import Board, NoTourError, SearchFailedError
from knightstour.kernels.search import FOUND
from knightstour.solvers import backtrack as backtrack_module
from knightstour.solvers.backtrack import Search, exact_search
from tiers import sample

TINY = [Board(w, h) for w in range(1, 21) for h in range(w, 21) if w * h <= 20]


# -- the enumerator itself, pinned to published counts ------------------------------------------


@pytest.mark.slow
def test_enumerator_5x5_has_1728_directed_open_tours() -> None:
    b = Board(5, 5)
    per_start = [count_tours(b, s) for s in b.squares()]
    assert sum(per_start) == 1728
    assert per_start[0] == 304 and per_start[1] == 0 and per_start[12] == 64


def test_enumerator_3x10_has_16_closed_tours() -> None:
    # each closed tour is counted twice from a fixed square, once in each direction
    assert count_tours(Board(3, 10), 0, closed=True) == 2 * 16


def test_enumerator_small_facts() -> None:
    assert count_tours(Board(1, 1), 0) == 1
    assert not tour_exists(Board(3, 3)) and not tour_exists(Board(4, 4))
    assert tour_exists(Board(3, 4), 0) and not tour_exists(Board(3, 4), 3)


# -- exact search against the enumerator ---------------------------------------------------------


def _exact(board: Board, start=None, end=None, closed=False) -> bool:
    """True with a checked tour, False on a proof of absence (the reason names the search)."""
    try:
        path = exact_search(board, start, end, closed)
    except NoTourError as err:
        assert err.reason
        return False
    assert_is_tour(board, path, closed=closed, start=start, end=end)
    return True


def corners_and_drawn(board: Board, drawn: int) -> list[int]:
    """Every square with --all; else the four corners (those not holes) and ``drawn`` more,
    with a fixed seed."""
    w, n = board.width, board.area
    corners = [q for q in (0, w - 1, n - w, n - 1) if q not in board.holes]
    return sample(board.squares(), drawn + 4, seed=n, keep=corners)


@pytest.mark.parametrize("board", TINY, ids=str)
def test_open_from_every_start_matches_enumeration(board: Board) -> None:
    """Every start, and every start of the board turned round (without --all: the corners
    and 4 drawn)."""
    for s in corners_and_drawn(board, 4):
        assert _exact(board, s) == tour_exists(board, s), board.square_name(s)
    turned = Board(board.height, board.width)
    for s in corners_and_drawn(turned, 4):
        x, y = turned.xy(s)
        assert _exact(turned, s) == tour_exists(board, board.index(y, x))


#: The boards of up to 20 squares (none has a closed tour) and three that have: 5x6 (the
#: slowest to enumerate) with --all only.
CLOSED = [*TINY, Board(3, 10), Board(5, 6), Board(3, 12)]


@pytest.mark.parametrize(
    "board",
    sample(CLOSED, 0, seed=0, keep=[b for b in CLOSED if b != Board(5, 6)]),
    ids=str,
)
def test_closed_matches_enumeration(board: Board) -> None:
    assert _exact(board, closed=True) == tour_exists(board, closed=True)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["3x4", "3x7", "4x5", "5x5", "3x8"])
def test_every_start_and_end_pair_matches_enumeration(spec: str) -> None:
    """Every start (without --all: a1 and 4 drawn) to every end."""
    b = kt.parse_board(spec)
    for s in sample(b.squares(), 5, seed=b.area, keep=[0]):
        ends = tour_ends(b, s)
        for e in b.squares():
            if e != s:
                assert _exact(b, s, e) == bool(ends[e]), (b.square_name(s), b.square_name(e))


def test_closed_through_a_given_move_matches_enumeration() -> None:
    b = Board(3, 10)
    for s in (0, 4, 13):
        ends = tour_ends(b, s, closed=True)
        for e in b.moves(s):
            assert _exact(b, s, e, closed=True) == bool(ends[e])


def test_holes_and_other_leapers_match_enumeration() -> None:
    boards = [
        Board(5, 5, holes=frozenset({12})),
        Board(4, 5, holes=frozenset({0, 19})),
        Board(6, 4, holes=frozenset({5, 6})),
        Board(4, 4, holes=frozenset({5})),
        Board(5, 5, leaper=(1, 3)),
        Board(4, 6, leaper=(1, 3)),
        Board(3, 3, leaper=(1, 1)),
    ]
    for b in boards:  # every start with --all; else the corners and 4 drawn
        for s in corners_and_drawn(b, 4):
            assert _exact(b, s) == tour_exists(b, s), (b, b.holes, b.leaper, s)
        assert _exact(b) == tour_exists(b)
        assert _exact(b, closed=True) == tour_exists(b, closed=True)


def test_absence_reasons_say_how() -> None:
    with pytest.raises(NoTourError, match=r"exhaustive search: no tour from b4 on 3x7 \(\d+") as e:
        exact_search(Board(3, 7), Board(3, 7).parse_square("b4"))
    # the count is data too (the puzzle quotes it): the same number the message gives
    assert e.value.positions is not None and e.value.positions > 0
    assert f"({e.value.positions:,} positions examined)" in e.value.reason
    with pytest.raises(NoTourError, match="exhaustive search: no closed tour on 3x8"):
        exact_search(Board(3, 8), closed=True)
    with pytest.raises(NoTourError, match="corner colour, and b1 is not") as e:
        exact_search(Board(5, 5), 1)
    assert e.value.positions is None  # ruled out before any search
    with pytest.raises(NoTourError, match="minority colour"):
        exact_search(Board(4, 4, holes=frozenset({0})), 5)
    with pytest.raises(NoTourError, match="same colour"):
        exact_search(Board(8, 8), 0, 63)
    with pytest.raises(NoTourError, match="is not"):
        exact_search(Board(8, 8), 0, 1, closed=True)


# -- limits: "gave up" is not "proved none" ------------------------------------------------------


def test_node_limit_gives_up_with_a_partial_path() -> None:
    b = Board(12, 12)  # a tour takes 143 positions at least
    with pytest.raises(SearchFailedError, match="node limit") as info:
        exact_search(b, 0, None, False, node_limit=10)
    assert not isinstance(info.value, NoTourError)
    assert_is_partial_path(b, info.value.partial)
    from knightstour.solvers import SolveRequest
    from knightstour.solvers.backtrack import backtrack

    with pytest.raises(kt.KnightsTourError, match="node limit"):
        backtrack(SolveRequest(Board(5, 5), 0), node_limit=0)
    with pytest.raises(kt.InvalidInputError, match="the backtrack method takes no tie-break"):
        kt.solve("5x5", "a1", method="backtrack", tiebreak="first")


def test_time_limit_gives_up() -> None:
    """How soon it gives up is measured by benchmarks/bench_stops.py."""
    b = Board(60, 60)  # a tour takes 3600 positions at least: more than one slice of work
    with pytest.raises(SearchFailedError, match="time limit"):
        exact_search(b, 0, deadline=time.monotonic() - 1)


def test_solve_time_limit_reaches_the_search() -> None:
    with pytest.raises(SearchFailedError, match="gave up"):
        kt.solve("60x60", "a1", method="backtrack", time_limit=1e-9)


# -- ends and closed tours -----------------------------------------------------------------------


def test_8x8_fixed_ends() -> None:
    with pytest.raises(NoTourError, match="same colour"):
        kt.solve("8x8", start="a1", end="h8")
    t = kt.solve("8x8", start="a1", end="g8", method="backtrack")
    assert t.path[0] == "a1" and t.path[-1] == "g8"
    t = kt.solve("8x8", end="g8", method="backtrack")
    assert t.path[-1] == "g8"


def test_closed_tour_from_every_square_of_8x8() -> None:
    b = Board(8, 8)
    for s in b.squares():
        path = exact_search(b, s, closed=True)
        assert_is_tour(b, path, closed=True, start=s)


def test_closed_tour_with_given_end_or_only_an_end() -> None:
    b = Board(6, 6)
    for s, e in [(0, 13), (14, 27), (14, 3)]:
        assert_is_tour(b, exact_search(b, s, e, closed=True), closed=True, start=s, end=e)
    assert_is_tour(b, exact_search(b, None, 20, closed=True), closed=True, end=20)


def test_open_tour_with_only_an_end_is_searched_backwards() -> None:
    b = Board(3, 7)
    for e in b.squares():
        assert _exact(b, None, e) == tour_exists(b, e)


def test_seed_reproducible() -> None:
    a = exact_search(Board(5, 10), 6, seed=3)
    b = exact_search(Board(5, 10), 6, seed=3)
    assert np.array_equal(a, b)


# -- issue 11, item 17: small exact searches pay no compiled-code overhead


def test_small_exact_searches_never_import_numba() -> None:
    """``solve 10x3 --closed``, 8x8 closed backtrack, 6x6 backtrack: answered interpreted."""
    code = (
        "import sys, knightstour as kt\n"
        "kt.solve('10x3', closed=True)\n"
        "kt.solve('8x8', start='a1', method='backtrack', closed=True)\n"
        "kt.solve('6x6', method='backtrack')\n"
        "kt.solve('8x8', end='a1', method='backtrack')\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_interpreted_search_switches_to_compiled_on_the_same_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that outlasts INTERPRETED_SECONDS goes on compiled, finding the same tour."""
    board = Board(6, 6)

    def path(seconds: float) -> tuple[list[int], bool]:
        monkeypatch.setattr(backtrack_module, "INTERPRETED_SECONDS", seconds)
        monkeypatch.setattr(backtrack_module, "INTERPRETED_CHUNK", 3)
        s = Search(board, compiled=False)
        s.begin(14, None)
        assert s.advance(10**6) == FOUND
        return s.path.tolist(), s.compiled

    switched, interpreted = path(0.0), path(1e9)
    assert switched[1] and not interpreted[1]
    assert switched[0] == interpreted[0]
    assert Search(board).compiled  # once loaded, the compiled kernels are used from the start
