"""The web API of Numbers mode (/api/numbers, /api/numbers/check, /api/numbers/hint): a puzzle
made from board, level and seed without its solution, checks and hints on a player's entries
that agree with the library, the daily puzzle, and bad input as one-line 4xx errors."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from knightstour.board import Board
from knightstour.numberpuzzles.exact import completions
from knightstour.numberpuzzles.play import make_playable
from knightstour.web.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(warm=False))


def _puzzle(client: TestClient, **params: str) -> dict[str, Any]:
    r = client.get("/api/numbers", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def _body(p: dict[str, Any], entries: dict[str, int]) -> dict[str, Any]:
    return {"width": p["width"], "height": p["height"], "givens": p["givens"], "entries": entries}


def test_a_puzzle_has_its_givens_and_no_solution(client: TestClient) -> None:
    p = _puzzle(client, board="6x6", level="easy", seed="11")
    assert (p["width"], p["height"], p["level"], p["seed"], p["size"]) == (6, 6, "easy", 11, 36)
    assert "path" not in p and "xy" not in p and "solution" not in p
    lib = make_playable("6x6", level="easy", seed=11)
    b = lib.board
    assert p["givens"] == {b.square_name(s): k for s, k in lib.givens.items()}
    assert _puzzle(client, board="6x6", level="easy", seed="11") == p  # the seed makes it again


def test_check_agrees_with_the_unique_solution(client: TestClient) -> None:
    p = _puzzle(client, board="5x5", level="easy", seed="3")
    lib = make_playable("5x5", level="easy", seed=3)
    proof = completions(lib, limit=2)
    assert proof.unique
    b = Board(5, 5)
    solution = {b.square_name(s): k for k, s in enumerate(proof.solutions[0], start=1)}
    assert all(solution[name] == k for name, k in p["givens"].items())
    blanks = {name: k for name, k in solution.items() if name not in p["givens"]}
    right = client.post("/api/numbers/check", json=_body(p, blanks)).json()
    assert (right["wrong"], right["filled"], right["solved"]) == ([], True, True)
    some = dict(list(blanks.items())[:3])
    planted = next(iter(some))
    some[planted] = some[planted] % 25 + 1
    partial = client.post("/api/numbers/check", json=_body(p, some)).json()
    assert (partial["wrong"], partial["filled"], partial["solved"]) == ([planted], False, False)


def test_the_hint_is_a_deduction_in_words_with_its_squares(client: TestClient) -> None:
    p = _puzzle(client, board="5x5", level="easy", seed="3")
    h = client.post("/api/numbers/hint", json=_body(p, {})).json()
    assert h["status"] == "hint" and h["square"] in h["squares"]
    assert str(h["number"]) in h["reason"] and h["square"] in h["reason"]
    assert h["square"] not in p["givens"]
    lib = make_playable("5x5", level="easy", seed=3)
    assert lib.solution is not None
    assert lib.solution[h["number"] - 1] == Board(5, 5).parse_square(h["square"])  # it is right


def test_a_hint_leaves_out_the_wrong_numbers_and_says_how_many(client: TestClient) -> None:
    """Wrong numbers written are counted, not named, and no deduction is drawn from them: with
    the hinted number written on another square and another number on the hinted square, the
    hint is still the solution's."""
    p = _puzzle(client, board="5x5", level="easy", seed="3")
    lib = make_playable("5x5", level="easy", seed=3)
    assert lib.solution is not None
    b = Board(5, 5)
    first = client.post("/api/numbers/hint", json=_body(p, {})).json()
    assert first["wrong"] == 0
    k, square = first["number"], first["square"]
    other = next(n for n in map(b.square_name, range(25)) if n not in p["givens"] and n != square)
    planted = {other: k, square: k % 25 + 1}  # both wrong: k belongs on square
    h = client.post("/api/numbers/hint", json=_body(p, planted)).json()
    assert h["status"] == "hint" and h["wrong"] == 2
    assert h["reason"].startswith("2 numbers written are wrong") and other not in h["reason"]
    assert lib.solution[h["number"] - 1] == b.parse_square(h["square"])  # still right


def test_the_daily_puzzle_is_the_same_twice(client: TestClient) -> None:
    one = _puzzle(client, daily="true")
    two = _puzzle(client, daily="true", board="9x9", level="expert", seed="5")  # ignored
    assert one == two and one["daily"] is not None
    assert 5 <= one["width"] <= 8 and one["level"] in ("easy", "medium", "hard")


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"board": "4x4"}, 400, "sides 5 to 10"),
        ({"board": "12x12"}, 400, "sides 5 to 10"),
        ({"board": "8x8", "level": "silly"}, 422, "level"),
        ({"board": "eight"}, 422, "board"),
        ({"board": "6x6", "seed": "-1"}, 422, "seed"),
    ],
)
def test_bad_puzzle_requests_are_one_line_errors(
    client: TestClient, params: dict[str, str], status: int, words: str
) -> None:
    r = client.get("/api/numbers", params=params)
    assert r.status_code == status
    message = r.json()["error"]
    assert words in message and "\n" not in message and list(r.json()) == ["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"not json", 400, "not JSON"),
        (b'{"width": 5, "height": 5}', 422, "givens"),
        (b'{"width": 5, "height": 5, "givens": {"z9": 1}}', 400, "z9"),
        (b'{"width": 5, "height": 5, "givens": {"a1": 1}, "entries": {"b3": 26}}', 400, "1 to 25"),
        (b'{"width": 11, "height": 11, "givens": {"a1": 1}}', 400, "sides 5 to 10"),
        (b'{"width": 5, "height": 5, "givens": {}, "entries": {}, "x": "' + b"a" * 20_000 + b'"}',
         413, "larger"),
    ],
)  # fmt: skip
def test_bad_check_and_hint_bodies_are_one_line_errors(
    client: TestClient, body: bytes, status: int, words: str
) -> None:
    for path in ("/api/numbers/check", "/api/numbers/hint"):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == status, (path, r.text)
        message = r.json()["error"]
        assert words in message and "\n" not in message
