"""The ``enumerate`` counting method: published figures, agreement with the frontier dynamic
program and with the naive test enumerator, its limits, time limit and progress."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from tests.enumerator import count_tours

import knightstour as kt
from knightstour import published
from knightstour.board import Board
from knightstour.counting import enumerate as en
from knightstour.counting import known
from knightstour.errors import InputLimitError, InvalidInputError, SearchFailedError
from knightstour.library.canonical import canonical_form, symmetries, unpack
from knightstour.published import Figure
from tiers import sample

#: The published figures (knightstour/data/published.json) small enough to enumerate quickly:
#: board, closed. A figure's number is compared in its undirected form (``counting.known``).
ENUMERATED = {
    ("3x10", True),
    ("3x12", True),
    ("6x6", True),
    ("3x7", False),
    ("3x8", False),
    ("4x5", False),
    ("4x6", False),
    ("5x5", False),
}
FIGURES = [f for f in published.figures() if (f.spec, f.closed) in ENUMERATED]


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.convention.replace(" ", "-"))
def test_published_figures(figure: Figure) -> None:
    b = Board(figure.width, figure.height)
    start = None if figure.start is None else b.index(*figure.start)
    undirected = known(b, closed=figure.closed, start=start, directed=False)
    assert undirected is not None and undirected.source == "published"
    got = kt.count(b, closed=figure.closed, start=start, directed=False, method="enumerate")
    assert got == undirected.count


def test_every_enumerated_board_has_its_figure() -> None:
    assert {(f.spec, f.closed) for f in FIGURES} == ENUMERATED


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "closed"),
    [
        ("3x4", False),
        ("3x7", False),
        ("4x5", False),
        ("5x5", False),
        ("5x6", False),
        ("4x8", False),
        ("3x10", True),
        ("3x14", True),
        ("5x6", True),
        ("6x6", True),
        ("4x7", True),  # no closed tour on 4 x n: 0 both ways
    ],
)
def test_agrees_with_the_frontier(board: str, closed: bool) -> None:
    both = {
        m: kt.count(board, closed=closed, directed=False, method=m)
        for m in ("frontier", "enumerate")
    }
    assert both["frontier"] == both["enumerate"]


@pytest.mark.parametrize(
    ("board", "start", "end", "closed"),
    [
        ("5x5", "a1", None, False),
        ("5x5", "b2", None, False),
        ("5x5", "a1", "e5", False),
        ("5x5", "a1", "c3", False),
        ("4x5", "a2", None, False),
        ("3x8", "b1", "b8", False),
        ("5x6", "a1", None, True),
        ("6x6", "c3", "e4", True),  # closed tours using the move c3-e4
        ("3x10", "a1", "c2", True),
    ],
)
def test_ends_agree_with_the_frontier(
    board: str, start: str, end: str | None, closed: bool
) -> None:
    both = {
        m: kt.count(board, closed=closed, start=start, end=end, method=m)
        for m in ("frontier", "enumerate")
    }
    assert both["frontier"] == both["enumerate"]


@pytest.mark.parametrize("spec", ["3x4", "4x5", "5x5"])
def test_agrees_with_the_naive_enumerator_square_by_square(spec: str) -> None:
    """Directed tours from every start square, against tests/enumerator.py (no pruning);
    without --all, the corners and 6 drawn."""
    b = kt.Board(*map(int, spec.split("x")))
    w, n = b.width, b.area
    for s in sample(range(n), 10, seed=n, keep=[0, w - 1, n - w, n - 1]):
        assert kt.count(b, start=s, method="enumerate") == count_tours(b, s), b.square_name(s)


def test_closed_from_a_start_to_an_end_agrees_with_the_naive_enumerator() -> None:
    b = Board(3, 10)
    a1 = 0
    naive = sum(count_tours(b, a1, e) for e in b.moves(a1))  # directed closed tours from a1
    assert naive == kt.count(b, closed=True, start="a1", method="enumerate") == 32


def test_one_square_and_no_tour() -> None:
    assert kt.count("1x1", method="enumerate") == 1
    assert kt.count("1x1", closed=True, method="enumerate") == 0
    assert kt.count("3x3", method="enumerate") == 0
    assert en.count_paths(Board(3, 3), (), False) == 0  # past the theory too
    assert en.count_paths(Board(4, 4), (), True) == 0
    assert en.count_paths(Board(2, 3), (), False) == 0


def test_holes_and_other_leapers_by_brute_force() -> None:
    """Boards the frontier does not take (holes, a giraffe) against the naive enumerator."""
    holed = Board(4, 5, holes=frozenset({0, 19}))
    assert en.count_paths(holed, (1,), False) == count_tours(holed, 1)
    total = sum(count_tours(holed, s) for s in holed.squares())
    assert en.count_paths(holed, (), False) * 2 == total > 0
    camel = Board(5, 6, leaper=(1, 3))
    total = sum(count_tours(camel, s) for s in camel.squares())
    assert en.count_paths(camel, (), False) * 2 == total


@pytest.mark.parametrize(
    ("board", "closed"),
    [("8x8", False), ("6x7", False), ("6x8", True), ("3x16", True)],
)
def test_big_boards_are_refused_in_one_line(board: str, closed: bool) -> None:
    with pytest.raises(InputLimitError) as e:
        kt.count(board, closed=closed, method="enumerate")
    message = str(e.value)
    assert "\n" not in message and board in message and "frontier method" in message


def test_the_limits_let_the_cross_check_boards_through() -> None:
    for board, closed in (("6x6", False), ("4x9", False), ("6x7", True), ("3x14", True)):
        en.check_size(kt.Board(*map(int, board.split("x"))), closed)


def test_bad_ends_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        en.count_paths(Board(5, 5), (0,), True)
    with pytest.raises(InvalidInputError):
        en.count_paths(Board(5, 5), (0, 0), False)


def test_time_limit() -> None:
    """How soon it gives up is measured by benchmarks/bench_stops.py."""
    with pytest.raises(SearchFailedError, match="time limit") as e:
        kt.count("6x6", method="enumerate", time_limit=0.05)
    assert "\n" not in str(e.value)


def test_progress_counts_the_parts() -> None:
    seen: list[tuple[int, int]] = []
    kt.count("5x5", method="enumerate", progress=lambda d, t: seen.append((d, t)))
    total = seen[0][1]
    assert seen[0] == (0, total) and seen[-1] == (total, total) and total >= 100
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(seen))


# -- representatives: one tour per class ---------------------------------------------------


def _classes(board: Board, tours: np.ndarray, closed: bool) -> set[bytes]:
    """The canonical form of each tour, by the library's reference definition."""
    return {canonical_form(board, t, closed)[0] for t in tours}


@pytest.mark.parametrize(
    ("spec", "closed", "classes"),
    [("5x5", False, 112), ("3x10", True, 6), ("4x5", False, 22), ("3x12", True, 44)],
)
def test_representatives_are_the_canonical_forms(spec: str, closed: bool, classes: int) -> None:
    b = kt.Board(*map(int, spec.split("x")))
    tours = np.concatenate(list(en.representatives(b, closed, batch=7)))
    assert len(tours) == classes
    assert len(_classes(b, tours, closed)) == classes  # all different classes
    for t in tours:  # each valid and its own canonical form
        kt.Tour(b, t, closed=closed)
        key, _ = canonical_form(b, t, closed)
        assert unpack(b, key).tolist() == t.tolist()


def test_representatives_from_a_start() -> None:
    b = Board(5, 5)
    tours = np.concatenate(list(en.representatives(b, False, start=0)))
    assert (tours[:, 0] == 0).all() and len(tours) == len(_classes(b, tours, False))
    # every class with a tour from a1: the classes of the 304 tours from a1
    everything = np.concatenate(list(en.representatives(b, False)))
    with_a1 = set()
    perms, _ = symmetries(5, 5)
    for t in everything:
        images = [perms[g][t] for g in range(8)]
        if any(im[0] == 0 or im[-1] == 0 for im in images):
            with_a1.add(tuple(t))
    assert len(tours) == len(with_a1)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "closed", "expected"),
    sample([("6x6", False, None), ("6x7", True, None), ("4x9", False, 189_688)], 1, seed=3),
)
def test_the_largest_boards_it_takes(board: str, closed: bool, expected: int | None) -> None:
    """6 x 6 open (A165134 / 2), 6 x 7 closed (A175881): the published figures (None), about
    5 s each; 4 x 9 open: the frontier's figure. One of the three drawn; all with --all."""
    if expected is None:
        expected = known(board, closed=closed, directed=False).count  # type: ignore[union-attr]
    got = kt.count(board, closed=closed, directed=False, method="enumerate")
    assert got == expected
