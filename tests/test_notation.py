"""Notation: the text and JSON forms agree with each other and stream in constant memory."""

from __future__ import annotations

import io
import json

import numpy as np

import knightstour as kt
from knightstour import Board, notation


def test_streamed_json_is_the_compact_json_of_the_dict() -> None:
    tour = kt.solve("300x300", start="a1", method="warnsdorff", tiebreak="center")
    f = io.StringIO()
    notation.write_tour_json(f, tour.board, tour.indices, tour.closed, tour.method)
    assert f.getvalue() == notation.compact_json(tour.to_dict()) == tour.to_json()
    assert kt.Tour.from_dict(json.loads(f.getvalue())) == tour


def test_board_and_moves_lines_agree_with_the_path() -> None:
    tour = kt.solve("7x9", start="c3")
    moves = " ".join(notation.moves_lines(tour.board, tour.indices, per_line=5)).split()
    assert moves == tour.path
    rows = [
        [int(v) for v in line.split()] for line in notation.board_lines(tour.board, tour.indices)
    ]
    assert rows == tour.matrix()[::-1].tolist()


def test_no_tour_json_is_shared_by_the_cli_and_the_web() -> None:
    from fastapi.testclient import TestClient

    from knightstour.web.app import create_app

    web = TestClient(create_app(warm=False)).get("/api/solve", params={"board": "4x4"}).json()
    answer = kt.exists("4x4")
    assert web == notation.no_tour_dict(Board(4, 4), False, answer.reason)


def test_start_map_marks_every_square() -> None:
    b = Board(4, 5)
    answers = {q: [True, False, None][q % 3] for q in range(b.area)}
    rows = notation.start_map_rows(b, answers)
    assert len(rows) == 5 and all(len(r) == 4 for r in rows)
    assert rows[-1] == "Y.?Y" and set("".join(rows)) == {"Y", ".", "?"}


def test_square_indices_keep_off_board_squares_for_validation() -> None:
    shown: dict[int, str] = {}
    idx = notation.square_indices(Board(3, 3), ["a1", "d4", (7, 7)], shown)
    assert idx.tolist() == [0, -2, -3] and shown == {-2: "d4", -3: "(7, 7)"}
    assert notation.square_indices(Board(3, 3), np.array([[0, 0], [2, 1]])).tolist() == [0, 5]
