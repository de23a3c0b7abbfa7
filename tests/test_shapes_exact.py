"""``auto`` answers every shaped board of the survey family: a validated tour or a proved no.

The family is that of ``benchmarks/bench_shapes_exact.py`` (every leaper (a, b) with
0 <= a < b <= 4, flat, cylinder and torus, hole patterns, 3-D boards), cut to the boards of at
most :data:`AREA` squares so that the file runs in well under a minute; the benchmark runs it up
to 64. The exact search is checked against the plain enumerator of ``tests/enumerator.py`` on the
small boards, and the theory's new facts (independent lines, their halves, the 4-row cylinders)
against the exact search.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import knightstour as kt
from enumerator import tour_exists
from knightstour.board import Board
from knightstour.solvers.backtrack import exact_search
from knightstour.theory import independent_lines, line_obstruction, verdict

#: Boards of the family up to this many squares are solved here (the benchmark goes to 64).
AREA = 64
#: ... and checked against the plain enumerator up to this many.
ENUMERATED = 20
LEAPERS = tuple((a, b) for b in range(1, 5) for a in range(b))
WRAPS = (None, "cylinder", "torus")


def rectangles(max_area: int) -> list[Board]:
    boards = []
    for wrap in WRAPS:
        for leaper in LEAPERS:
            for w, h in itertools.product(range(1, 9), repeat=2):
                if w * h <= max_area and (wrap == "cylinder" or w <= h):
                    boards.append(Board(w, h, leaper=leaper, wrap=wrap))
    return boards


def shaped(max_area: int) -> list[Board]:
    boards = []
    rng = random.Random(1)
    for wrap in WRAPS:
        for leaper in ((1, 2), (2, 3), (1, 4)):
            kw = {"leaper": leaper, "wrap": wrap}
            boards += [
                Board(8, 8, holes=["d4", "d5", "e4", "e5"], **kw),
                Board(6, 6, holes=["c3", "d4"], **kw),
                Board(5, 5, holes=["c3"], **kw),
                Board(7, 7, **kw).with_corners(1),
                Board(8, 8, **kw).with_corners(2),
            ]
            for w, h, k in ((6, 6, 2), (7, 7, 3), (8, 8, 4)):
                boards.append(Board(w, h, holes=frozenset(rng.sample(range(w * h), k)), **kw))
    return [b for b in boards if b.area <= max_area]


def solids(max_area: int) -> list[Board]:
    sizes = ((2, 2, 4), (2, 3, 3), (2, 3, 4), (3, 3, 3), (2, 4, 4), (3, 3, 4), (4, 4, 4))
    return [
        Board(w, h, leaper=leaper, depth=d)
        for leaper in LEAPERS
        for w, h, d in sizes
        if w * h * d <= max_area
    ]


def answer(board: Board, closed: bool) -> str:
    """``tour`` (validated) or ``none`` (with a reason) from ``kt.solve``; anything else fails."""
    try:
        tour = kt.solve(board, closed=closed)
    except kt.NoTourError as e:
        assert e.reason, board.description
        return "none"
    assert len(tour) == board.size and tour.closed == (closed and board.size > 1)
    return "tour"


FAMILY = rectangles(AREA) + shaped(AREA) + solids(AREA)


@pytest.mark.parametrize(
    "group", ["flat", "cylinder", "torus", "holes", "3-D"], ids=lambda g: g.replace("-", "")
)
def test_auto_answers_every_board_of_the_family(group: str) -> None:
    boards = [
        b
        for b in FAMILY
        if (group == "3-D" and b.depth > 1)
        or (group == "holes" and b.holes and b.depth == 1)
        or (not b.holes and b.depth == 1 and (b.wrap or "flat") == group)
    ]
    assert boards
    for board in boards:
        for closed in (False, True):
            said = answer(board, closed)  # never SearchFailedError
            known = kt.exists(board, closed=closed)
            assert known.exists is (said == "tour"), (board.description, closed, known.reason)


def test_the_zebra_cylinder_that_gave_up() -> None:
    board = Board(7, 7, leaper="zebra", wrap="cylinder")
    for closed in (False, True):
        with pytest.raises(kt.NoTourError, match="ranks 1, 2, 6 and 7, which hold 28"):
            kt.solve(board, closed=closed)


# -- against the plain enumerator ----------------------------------------------------------------


def small_boards() -> list[Board]:
    boards = [b for b in rectangles(ENUMERATED) if b.size >= 2]
    boards += [b for b in shaped(ENUMERATED)]
    boards += [Board(w, h, holes=["a1"], wrap=wrap) for w, h in ((3, 5), (4, 4)) for wrap in WRAPS]
    boards += [Board(2, 2, depth=4), Board(2, 2, depth=3, leaper=(1, 3))]
    return boards


def test_the_exact_search_agrees_with_the_enumerator() -> None:
    """The search alone (no theory beyond colour counts) on every small board of the family."""
    for board in small_boards():
        for closed in (False, True):
            try:
                exact_search(board, closed=closed)
                found = True
            except kt.NoTourError:
                found = False
            assert found is tour_exists(board, closed=closed), (board.description, closed)


def test_the_exact_search_agrees_with_the_enumerator_from_each_square() -> None:
    boards = [
        Board(4, 4, wrap="cylinder"),
        Board(4, 3, wrap="cylinder"),
        Board(3, 4, wrap="torus"),
        Board(5, 3, leaper=(2, 3), wrap="cylinder"),
        Board(4, 4, leaper=(1, 4), wrap="cylinder"),
        Board(3, 5, leaper=(1, 3), wrap="cylinder"),
        Board(4, 4, holes=["b2"], leaper=(0, 1)),
        Board(2, 3, depth=2),
    ]
    for board in boards:
        for s in board.squares():
            try:
                exact_search(board, s)
                found = True
            except kt.NoTourError:
                found = False
            assert found is tour_exists(board, s), (board.description, board.square_name(s))


def test_the_four_wide_knight_on_a_cylinder() -> None:
    """On a cylinder 4 round, the outer files are a knight's move apart across the seam: the
    search must not treat them as the outer lines of a flat board four wide."""
    for h in (3, 4, 5):
        board = Board(4, h, wrap="cylinder")
        for closed in (False, True):
            assert (kt.exists(board, closed=closed).exists is True) is tour_exists(
                board, closed=closed
            ), (board.description, closed)


# -- the independent lines ------------------------------------------------------------------------


def test_lines_hold_no_move() -> None:
    for board in rectangles(40) + solids(40):
        lines = independent_lines(board)
        if lines is None:
            continue
        table = board.neighbours
        on = np.flatnonzero(lines.mask)
        assert lines.count == on.size
        assert not lines.mask[table[on][table[on] >= 0]].any(), board.description


def test_line_verdicts_against_the_enumerator() -> None:
    said = 0
    for board in rectangles(ENUMERATED) + shaped(ENUMERATED) + solids(ENUMERATED):
        for closed in (False, True):
            no = line_obstruction(board, closed=closed)
            if no is not None:
                said += 1
                assert not tour_exists(board, closed=closed), (board.description, no.reason)
    assert said > 20


def test_the_halves_of_an_open_tour() -> None:
    """8x8 zebra on a cylinder: ranks 1, 2, 6, 7 hold half the squares, of both colours; an open
    tour would be two halves joined by one move, and none join."""
    board = Board(8, 8, leaper="zebra", wrap="cylinder")
    assert verdict(board).exists is None
    with pytest.raises(kt.NoTourError, match="no such pair of halves joins up"):
        exact_search(board)
    six = Board(6, 6, leaper="giraffe", wrap="cylinder")
    with pytest.raises(kt.NoTourError, match="halves"):
        exact_search(six)
    # a board where the halves join: the tour found is valid and starts on the lines
    for board in (Board(6, 4, leaper=(1, 2), wrap="cylinder"), Board(4, 6, leaper=(1, 4))):
        lines = independent_lines(board)
        if lines is None or 2 * lines.count != board.size:
            continue
        try:
            path = exact_search(board)
        except kt.NoTourError:
            assert not tour_exists(board)
            continue
        kt.Tour(board, path)
        assert lines.mask[path[0]] and lines.mask[path[-1]]


# -- cylinders ------------------------------------------------------------------------------------


def test_closed_knight_tours_on_every_cylinder_up_to_64_squares() -> None:
    """W x H with the width wrapping round (W squares round, H ranks long), by exhaustive search:
    a closed knight's tour exists exactly when the board has at least 3 squares, H is not 1, and
    H is not 2 or 4 with W even. The theory agrees wherever it speaks, and proves the no's of
    H = 2 and 4 with W even by itself (squares no chain joins; the outer ranks' argument)."""
    for w, h in itertools.product(range(1, 65), repeat=2):
        if w * h > 64:
            continue
        board = Board(w, h, wrap="cylinder")
        try:
            exact_search(board, closed=True)
            found = True
        except kt.NoTourError:
            found = False
        expected = w * h >= 3 and h != 1 and not (h in (2, 4) and w % 2 == 0)
        assert found is expected, board.description
        said = verdict(board, closed=True)
        assert said.exists is None or said.exists is found, (board.description, said.reason)
        if h in (2, 4) and w % 2 == 0:
            assert said.exists is False, board.description
        if h == 4 and w % 2 == 0:
            assert "ranks 1 and 4" in said.reason
