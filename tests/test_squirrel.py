"""Squirrel & Cull's switching move orderings: tours from every corner of n x n, n = 5..60, the
exception at 74, and the kernel's step-count schedule against a plain square-by-square reading."""

from __future__ import annotations

import numpy as np
import pytest

import knightstour as kt
from conftest import assert_is_partial_path, assert_is_tour
from knightstour import Board, KnightsTourError, SearchFailedError
from knightstour.board import file_name
from knightstour.kernels import walk as _kernels
from knightstour.solvers.squirrel import EXCEPTIONS, PAPER_MOVES, published_rows, schedule
from knightstour.solvers.warnsdorff import Walker


def reference_walk(n: int) -> list[int]:
    """The published rule read plainly, in the paper's frame: ``(row, column)`` from 1, rows
    going down, from the corner (1, 1); ties go to the first move in the ordering of the first
    row whose square is not yet visited. Returned as our indices (file = column, rank = row)."""
    rows = published_rows(n)
    visited = {(1, 1)}
    path = [(1, 1)]

    def moves(sq: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = sq
        out = [(r + dr, c + dc) for dr, dc in PAPER_MOVES]
        return [t for t in out if 1 <= t[0] <= n and 1 <= t[1] <= n and t not in visited]

    while True:
        cands = moves(path[-1])
        if not cands:
            break
        low = min(len(moves(t)) for t in cands)
        ordering = next(o for sq, o in rows if sq is None or sq not in visited)
        r, c = path[-1]
        for k in ordering:
            dr, dc = PAPER_MOVES[int(k) - 1]
            t = (r + dr, c + dc)
            if t in cands and len(moves(t)) == low:
                break
        visited.add(t)
        path.append(t)
    return [(c - 1) + (r - 1) * n for r, c in path]


def walk(board: Board, start: int) -> np.ndarray:
    return Walker(board).walk(start, tiebreak="squirrel", schedule=schedule(board, start)).copy()


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_kernels, "COMPILE_THRESHOLD", 0)


@pytest.mark.parametrize("n", [*range(5, 30), 31, 38, 44, 45, 53, 74])
def test_matches_square_by_square_reading(n: int, compiled: None) -> None:
    assert walk(Board(n, n), 0).tolist() == reference_walk(n)


def test_tours_from_a1_for_n_5_to_60(compiled: None) -> None:
    for n in range(5, 61):
        board = Board(n, n)
        assert_is_tour(board, walk(board, 0), start=0)


def test_74_is_the_exception() -> None:
    assert {74} == EXCEPTIONS
    board = Board(74, 74)
    with pytest.raises(SearchFailedError, match=r"squirrel ties.* 5432 of 5476 squares") as e:
        kt.solve(board, start="a1", method="warnsdorff", tiebreak="squirrel")
    assert_is_partial_path(board, e.value.partial)


@pytest.mark.parametrize("n", [5, 8, 13, 26, 31, 36])
def test_every_corner_mirrors_a1(n: int) -> None:
    board = Board(n, n)
    base = walk(board, 0)
    x, y = base % n, base // n
    for corner in ("a1", f"{file_name(n - 1)}1", f"a{n}", f"{file_name(n - 1)}{n}"):
        tour = kt.solve(board, start=corner, method="warnsdorff", tiebreak="squirrel")
        cx, cy = board.xy(board.parse_square(corner))
        mx = x if cx == 0 else n - 1 - x
        my = y if cy == 0 else n - 1 - y
        assert tour.indices.tolist() == (my * n + mx).tolist()
        assert_is_tour(board, tour.indices, start=board.parse_square(corner))


def test_schedule_shape() -> None:
    for n in range(5, 40):
        orders, cells = schedule(Board(n, n), n - 1)
        assert orders.dtype == cells.dtype == np.int64
        assert orders.shape == (len(published_rows(n)), 8) and len(cells) == len(orders)
        assert all(sorted(row) == list(range(8)) for row in orders.tolist())
        assert cells[-1] == -1 and all(-1 <= c < n * n for c in cells.tolist())
        # from the a1 corner the squares are the paper's, read upside down
        a1_cells = schedule(Board(n, n), 0)[1].tolist()
        want = [
            -1
            if sq is None or not (1 <= sq[0] <= n and 1 <= sq[1] <= n)
            else (sq[1] - 1) + (sq[0] - 1) * n
            for sq, _ in published_rows(n)
        ]
        assert a1_cells == want


def test_compiled_and_interpreted_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board(23, 23)
    slow = walk(board, 22)
    monkeypatch.setattr(_kernels, "COMPILE_THRESHOLD", 0)
    assert np.array_equal(walk(board, 22), slow)


@pytest.mark.parametrize(
    ("board", "start", "why"),
    [
        ("8x6", "a1", "8x6 is not square"),
        ("6x8", "f8", "6x8 is not square"),
        ("8x8", "b1", "b1 is not a corner"),
        ("8x8", "d4", "d4 is not a corner"),
        # boards that may have tours (exists() does not rule them out), but not plain knight boards
        (Board(8, 8, holes=frozenset({28})), "a1", "for the knight on a board without holes"),
        (Board(12, 12, leaper=(2, 3)), "a1", "for the knight on a board without holes"),
    ],
)
def test_refuses_what_it_is_not_defined_for(board: object, start: str, why: str) -> None:
    with pytest.raises(
        KnightsTourError, match="squirrel tie-break is defined for square boards"
    ) as e:
        kt.solve(board, start=start, method="warnsdorff", tiebreak="squirrel")
    assert why in str(e.value)
    assert not isinstance(e.value, SearchFailedError)
