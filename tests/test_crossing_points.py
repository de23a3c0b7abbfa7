"""Where a tour's moves cross (issue 33, item 1's web part): ``geometry.crossing_points``
against a plain pair-by-pair check, and the points the web board marks, in the answers of
``/api/solve?metrics=true`` and ``/api/library/tours/ID``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import knightstour as kt
from knightstour.board import Board
from knightstour.library.generate import generate
from knightstour.library.store import Library
from knightstour.web.app import create_app


@pytest.fixture(scope="module")
def lib_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crossings") / "tours.db"
    with Library(path) as lib:
        generate("6x6", 5, closed=True, seed=2, db=lib, workers=1)
    return path


def test_crossing_points_are_where_two_moves_cross() -> None:
    """Every point is on two moves of the path that share no square, the later one numbered;
    as many points as crossings; checked pair by pair with the plain segment test."""
    from knightstour.geometry import crossing_points, segments_cross

    for board, closed in (
        (Board(6, 6), True),
        (Board(5, 7), False),
        (Board(10, 10, leaper="giraffe"), False),
        (Board(8, 8, holes=["d4", "e4"]), False),
    ):
        t = kt.solve(board, closed=closed)
        pts = crossing_points(board, t.indices, closed)
        assert len(pts) == t.metrics().crossings
        xy = [(int(s) % board.width, int(s) // board.width) for s in t.indices]
        moves = list(zip(xy, xy[1:] + xy[:1] if closed else xy[1:], strict=False))
        pairs = [
            (i, j)
            for i in range(len(moves))
            for j in range(i + 1, len(moves))
            if not set(moves[i]) & set(moves[j]) and segments_cross(*moves[i], *moves[j])
        ]
        assert sorted(k for *_, k in pts) == sorted(j + 1 for _, j in pairs)
        for x, y, k in pts:
            (ax, ay), (bx, by) = moves[k - 1]
            cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            assert abs(cross) < 1e-5 and min(ax, bx) <= x <= max(ax, bx)


def test_the_api_gives_the_points_to_mark(lib_path: Path) -> None:
    api = TestClient(create_app(warm=False, library=lib_path))
    data = api.get("/api/solve", params={"board": "6x6", "start": "a1", "metrics": "true"}).json()
    pts = data["metrics"]["crossing_points"]
    assert len(pts) == data["metrics"]["crossings"] == kt.Tour.from_dict(data).metrics().crossings
    plain = api.get("/api/solve", params={"board": "6x6", "start": "a1"}).json()
    assert "metrics" not in plain and "crossing_points" not in plain
    one = api.get("/api/library/tours/1").json()
    assert len(one["crossing_points"]) == one["crossings"]
