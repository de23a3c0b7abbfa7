"""Notation: the text and JSON forms agree with each other and stream in constant memory."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import knightstour as kt
from knightstour import Board, notation


@pytest.mark.slow
def test_streamed_json_is_the_compact_json_of_the_dict() -> None:
    tour = kt.solve("260x260", start="a1", method="warnsdorff", tiebreak="center")
    assert len(tour) > notation.CHUNK  # written in more than one piece
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
    assert web == notation.answer_dict(Board(4, 4), False, answer.reason)


@pytest.mark.parametrize(
    ("board", "closed", "word"), [("8x8", "true", "true"), ("5x5", "true", "false")]
)
def test_answer_json_is_the_same_bytes_in_the_cli_and_the_web(
    capsys: pytest.CaptureFixture[str], board: str, closed: str, word: str
) -> None:
    from fastapi.testclient import TestClient

    from knightstour.cli import main
    from knightstour.web.app import create_app

    params = {"board": board, "closed": closed}
    web = TestClient(create_app(warm=False)).get("/api/exists", params=params)
    main(["exists", board, "--closed", "--format", "json"])
    cli = capsys.readouterr().out
    answer = kt.exists(board, closed=True)
    expected = notation.compact_json(
        notation.answer_dict(kt.parse_board(board), answer.exists, answer.reason)
    )
    assert cli == expected + "\n" and web.content.decode() == expected
    assert f'"exists":{word}' in cli


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


def test_square_index_reads_names_as_the_board_does() -> None:
    b = Board(28, 3)
    names = [b.square_name(q) for q in range(b.area)] + ["AB3", " c2 "]
    assert [notation.square_index(b, n) for n in names] == [b.parse_square(n) for n in names]
    for bad in ("ac1", "a4", "a0", "2,9", "zz"):
        with pytest.raises(kt.InvalidInputError) as by_board:
            b.parse_square(bad)
        with pytest.raises(kt.InvalidInputError) as by_notation:
            notation.square_index(b, bad)
        assert str(by_notation.value) == str(by_board.value)
    shown: dict[int, str] = {}
    assert notation.square_index(b, "AC1", shown) == -2 and shown == {-2: "ac1"}


# -- issue 11: JSON read within limits (item 1, item 8) ----------------------------------------


@pytest.mark.parametrize(
    "text,words",
    [
        ("[" * 100_000, "nested too deeply"),
        ("9" * 5000, "an integer of 5,000 digits"),
        ("{nope", "not JSON"),
    ],
)
def test_load_json_limits(text: str, words: str) -> None:
    with pytest.raises(kt.InvalidInputError, match=words):
        notation.load_json(text)


def test_read_text_stops_at_nul_and_limit() -> None:
    with pytest.raises(notation.InputLimitError, match="NUL"):
        notation.read_text(io.BytesIO(bytes(10**7)), "zero")
    with pytest.raises(notation.InputLimitError, match="larger than 100 bytes"):
        notation.read_text(io.BytesIO(b" " * 10**4), "spaces", limit=100)
    with pytest.raises(kt.InvalidInputError, match="not UTF-8"):
        notation.read_text(io.BytesIO(b"\xff{}"), "latin")


def test_square_names_longer_than_any_board_are_refused() -> None:
    b = Board(5, 5)
    with pytest.raises(notation.InputLimitError, match="100,001 characters"):
        notation.square_index(b, "a" + "1" * 100_000, {})
    shown: dict[int, str] = {}
    assert notation.square_index(b, "a" + "1" * 20, shown) == -2  # off the board: a problem
