"""The web API of Numbers mode (/api/numbers, /api/numbers/check, /api/numbers/hint): a puzzle
made from board, level and seed without its solution, checks and hints on a player's entries
that agree with the library, the daily puzzle, and bad input as one-line 4xx errors."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from knightstour.board import Board
from knightstour.errors import SearchFailedError
from knightstour.numberpuzzles.exact import completions
from knightstour.numberpuzzles.grid import NumberPuzzle
from knightstour.numberpuzzles.logic import solve_logically
from knightstour.numberpuzzles.play import daily_numbers, make_playable, solution_of
from knightstour.web.app import Limits, create_app


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
    assert h["reason"].startswith("2 numbers written are wrong (Check shows where); without them: ")
    assert lib.solution[h["number"] - 1] == b.parse_square(h["square"])  # still right


def test_the_daily_puzzle_is_the_same_twice(client: TestClient) -> None:
    one = _puzzle(client, daily="true")
    two = _puzzle(client, daily="true", board="9x9", level="expert", seed="5")  # ignored
    assert one == two and one["daily"] is not None
    assert 5 <= one["width"] <= 8 and one["level"] in ("easy", "medium", "hard")
    assert _puzzle(client, daily=one["daily"]) == one  # a share link names the day


def test_a_past_day_s_daily_puzzle_is_that_day_s() -> None:
    client = TestClient(create_app(warm=False))
    day = datetime.date(2026, 1, 1)
    got = _puzzle(client, daily=day.isoformat())
    made = daily_numbers(day)
    assert (got["daily"], got["level"], got["seed"]) == (made["date"], made["level"], made["seed"])
    assert f"{got['width']}x{got['height']}" == made["board"]
    tomorrow = datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=2)
    for text, words in ((tomorrow.isoformat(), "not out yet"), ("2026-13-01", "not a date")):
        r = client.get("/api/numbers", params={"daily": text})
        assert r.status_code == 400 and words in r.json()["error"], r.text


def _grid_body(board: Board, numbers: dict[int, int], **more: Any) -> dict[str, Any]:
    name = board.square_name
    return {"width": board.width, "height": board.height, "givens": {name(s): k for s, k in numbers.items()}, **more}  # fmt: skip


def test_givens_with_no_solution_or_several_are_refused_in_one_line(client: TestClient) -> None:
    b = Board(5, 5)
    p = make_playable("5x5", level="easy", seed=3)
    assert p.solution is not None
    several = {p.solution[0]: 1}  # one given: a great many completions
    one, two = p.solution[0], p.solution[1]
    none = {one: 1, two: 3}  # 3 a knight's move from 1: never on a knight's tour
    assert completions(p.with_givens(none), limit=1).count == 0
    for givens, words in ((several, "more than one solution"), (none, "no solution")):
        for path in ("/api/numbers/check", "/api/numbers/hint"):
            r = client.post(path, json=_grid_body(b, givens))
            assert r.status_code == 400, r.text
            assert words in r.json()["error"] and "\n" not in r.json()["error"]


def test_a_closed_puzzle_is_checked_as_closed(client: TestClient) -> None:
    from knightstour.numberpuzzles.make import make

    p = make(Board(6, 6), level="easy", seed=5, closed=True)
    assert p.solution is not None and p.closed
    b = p.board
    blanks = {b.square_name(s): k for k, s in enumerate(p.solution, 1) if s not in p.givens}
    body = _grid_body(b, dict(p.givens), closed=True, entries=blanks)
    r = client.post("/api/numbers/check", json=body).json()
    assert (r["wrong"], r["solved"]) == ([], True)
    hint = client.post("/api/numbers/hint", json={**body, "entries": {}}).json()
    assert hint["status"] == "hint" and p.solution[hint["number"] - 1] == b.parse_square(
        hint["square"]
    )


def test_the_numbers_sent_must_be_whole_numbers_and_the_seed_exact_in_a_page() -> None:
    client = TestClient(create_app(warm=False))
    for bad in ('"3"', "3.0", "true"):
        raw = '{"width": 5, "height": 5, "givens": {"a1": ' + bad + "}}"
        r = client.post(
            "/api/numbers/check", content=raw, headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 422 and "givens" in r.json()["error"], (bad, r.text)
    r = client.post("/api/numbers/check", json={"width": "5", "height": 5, "givens": {}})
    assert r.status_code == 422 and "width" in r.json()["error"]
    r = client.get("/api/numbers", params={"board": "5x5", "seed": str(2**53)})
    assert r.status_code == 400 and "below 2**53" in r.json()["error"]
    assert _puzzle(client, board="5x5", seed=str(2**53 - 1))["seed"] == 2**53 - 1


def test_the_solution_of_givens_is_searched_within_the_time_given() -> None:
    """Givens the logic cannot finish need the exact search: past its time it gives up
    (SearchFailedError, exit 3 and a one-line error), whatever the route's time left."""
    bare = NumberPuzzle(Board(10, 10), {0: 1, 45: 100})  # a1 and f5: no quick answer
    assert solve_logically(bare).solved is False
    with pytest.raises(SearchFailedError, match="not found in time"):
        solution_of(bare, time_limit=0.0)


# -- the time cap -----------------------------------------------------------------------------


def test_a_puzzle_not_made_within_the_time_cap_is_a_503_in_one_line() -> None:
    """10x10 expert seed 10 needs more than ten seconds of the exact search: with a cap of
    0.2 s the maker stops (HTTP 503, Retry-After, the library's one line), and the worker is
    free for the next request."""
    from knightstour.web.state import ensure_compiled

    ensure_compiled()  # loaded now: the cap is the maker's, not a wait for the kernels
    with TestClient(create_app(Limits(time_limit=0.2), warm=False)) as c:
        r = c.get("/api/numbers", params={"board": "10x10", "level": "expert", "seed": "10"})
        assert r.status_code == 503, r.text
        assert int(r.headers["retry-after"]) >= 1
        assert set(r.json()) == {"error"}
        error = r.json()["error"]
        assert error.startswith("no expert puzzle on 10x10 was made within its time limit")
        assert "try another seed" in error and "\n" not in error
        assert _puzzle(c, board="5x5", level="easy", seed="3")["seed"] == 3


def test_a_request_waits_for_the_kernels_no_longer_than_its_time_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the kernels load (held here until the end), requests are refused at their cap
    (503 with Retry-After, like a wait for a worker) and the loading goes on, once; when it
    ends, requests are answered."""
    import threading

    from knightstour import warm
    from knightstour.web import state

    calls: list[object] = []
    release = threading.Event()

    def loading(progress: object = None, *, only: object = None) -> None:
        calls.append(only)
        assert release.wait(30), "never released"

    monkeypatch.setattr(warm, "warm", loading)
    monkeypatch.setattr(state, "_compiled", threading.Event())
    body = {"width": 5, "height": 5, "givens": {"a1": 1}, "entries": {}}
    try:
        with TestClient(create_app(Limits(time_limit=0.2), warm=False)) as c:
            refused = [
                c.get("/api/numbers", params={"board": "5x5", "level": "easy", "seed": "3"}),
                c.post("/api/numbers/hint", json=body),
                c.get("/api/solve", params={"board": "5x5", "start": "a1"}),
            ]
            for r in refused:
                assert r.status_code == 503, r.text
                assert "still loading" in r.json()["error"] and "retry-after" in r.headers
            release.set()
            assert state._compiled.wait(30)
            assert _puzzle(c, board="5x5", level="easy", seed="3")["seed"] == 3
    finally:
        release.set()
        for t in threading.enumerate():
            if t.name == "knightstour-warm-up":
                t.join(30)
    assert calls == [warm.SOLVER_STEPS]
