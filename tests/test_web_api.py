"""The web board's JSON API, in process: contracts, errors, limits, puzzle mode, pictures."""

from __future__ import annotations

import asyncio
import itertools
import re
import threading
from pathlib import Path

import httpx
import numpy as np
import pytest
from fastapi.testclient import TestClient

import knightstour as kt
from conftest import assert_is_tour
from knightstour.cli import main
from knightstour.errors import SearchFailedError
from knightstour.puzzle import assess, parse_position
from knightstour.web.app import Limits, create_app
from knightstour.web.server import bind
from knightstour.web.state import ensure_compiled

TOUR_KEYS = {"width", "height", "closed", "method", "path", "xy"}
NO_TOUR_KEYS = {"width", "height", "exists", "reason"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    with TestClient(create_app(warm=False)) as c:
        yield c


def indices(board: kt.Board, path: list[str]) -> np.ndarray:
    return np.array([board.parse_square(s) for s in path])


# -- /api/solve -------------------------------------------------------------------------------


def test_solve_returns_the_contract_tour_json(client: TestClient) -> None:
    r = client.get("/api/solve?board=8x8&start=a1&end=&closed=true&method=auto&tiebreak=&seed=")
    assert r.status_code == 200
    data = r.json()
    assert set(data) == TOUR_KEYS
    assert (data["width"], data["height"], data["closed"]) == (8, 8, True)
    b = kt.Board(8, 8)
    assert_is_tour(b, indices(b, data["path"]), closed=True, start=0)
    assert data["xy"] == [list(b.xy(b.parse_square(s))) for s in data["path"]]
    assert kt.Tour.from_dict(data).closed
    assert "solve;dur=" in r.headers["server-timing"]


@pytest.mark.parametrize(
    ("params", "start", "end"),
    [
        ({"board": "5x5", "start": "c3"}, "c3", None),
        ({"board": "3x4", "start": "a1", "method": "backtrack"}, "a1", None),
        ({"board": "6x6", "start": "a1", "end": "f5"}, "a1", "f5"),
        ({"board": "10x3", "start": "0,0", "closed": "1"}, "a1", None),
        ({"board": "8", "start": "d4", "tiebreak": "random", "seed": "7"}, "d4", None),
    ],
)
def test_solve_variants_are_tours(
    client: TestClient, params: dict[str, str], start: str, end: str | None
) -> None:
    data = client.get("/api/solve", params=params).json()
    b = kt.Board(data["width"], data["height"])
    closed = params.get("closed") == "1"
    assert data["closed"] is closed
    assert_is_tour(
        b,
        indices(b, data["path"]),
        closed=closed,
        start=b.parse_square(start),
        end=None if end is None else b.parse_square(end),
    )


def test_seeded_random_tiebreak_is_reproducible(client: TestClient) -> None:
    params = {"board": "12x12", "start": "e5", "method": "warnsdorff", "tiebreak": "random"}
    a = client.get("/api/solve", params={**params, "seed": "3"}).json()["path"]
    b = client.get("/api/solve", params={**params, "seed": "3"}).json()["path"]
    assert a == b


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"board": "4x4"}, "no tour on 4x4"),
        ({"board": "5x5", "start": "b1"}, "no tour from b1 on 5x5"),
        ({"board": "5x5", "closed": "true"}, "no closed tour on 5x5"),
        ({"board": "8x8", "start": "a1", "end": "h8"}, "same colour"),
    ],
)
def test_no_tour_is_http_200_with_the_reason(
    client: TestClient, params: dict[str, str], reason: str
) -> None:
    r = client.get("/api/solve", params=params)
    assert r.status_code == 200
    data = r.json()
    assert set(data) == NO_TOUR_KEYS and data["exists"] is False
    assert reason in data["reason"]


def test_a_search_that_gives_up_says_exists_null(client: TestClient) -> None:
    params = {"board": "5x6", "start": "c3", "method": "warnsdorff", "tiebreak": "first"}
    data = client.get("/api/solve", params=params).json()
    assert set(data) == NO_TOUR_KEYS | {"partial"} and data["exists"] is None
    assert "stuck" in data["reason"]
    # the partial path: knight's moves from c3, every square once, path and xy agreeing
    partial = data["partial"]
    assert set(partial) == {"path", "xy"} and partial["path"][0] == "c3"
    b = kt.Board(5, 6)
    squares = indices(b, partial["path"])
    assert 1 < len(squares) < 30 and len(set(squares.tolist())) == len(squares)
    assert all(int(q) in b.moves(int(p)) for p, q in itertools.pairwise(squares))
    assert partial["xy"] == [list(b.xy(int(s))) for s in squares]


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"board": "banana"}, 422, "board: 'banana' is not a board spec"),
        ({"board": "8x8", "start": "c-3"}, 422, "start: 'c-3' is not a square"),
        ({"board": "9999999999x2"}, 400, "9999999999x2 is too large"),
        ({"board": "0x8"}, 400, "width must be at least 1"),
        ({"board": "8x8", "start": "z9"}, 400, "z9 is off the 8x8 board"),
        ({"board": "8x8", "end": "a0"}, 400, "a0"),
        ({"board": "8x8", "seed": "-1"}, 422, "seed: '-1' is not a non-negative integer"),
        ({"board": "8x8", "seed": "x"}, 422, "seed"),
        ({"board": "8x8", "method": "magic"}, 422, "method"),
        ({"board": "8x8", "tiebreak": "coin"}, 422, "tiebreak"),
        ({"board": "8x8", "closed": "maybe"}, 422, "closed"),
        ({"board": "8x8", "time_limit": "-2"}, 422, "time_limit"),
        ({"board": "101x100"}, 400, "10,100 squares, more than the 10,000"),
        ({}, 422, "board"),
    ],
)
def test_bad_input_is_4xx_naming_the_problem(
    client: TestClient, params: dict[str, str], status: int, words: str
) -> None:
    r = client.get("/api/solve", params=params)
    assert r.status_code == status
    assert set(r.json()) == {"error"}
    assert words in r.json()["error"]


def test_the_time_cap_bounds_every_search(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []
    real = kt.solve

    def spy(*args, **kwargs):
        seen.append(kwargs.get("time_limit"))
        return real(*args, **kwargs)

    monkeypatch.setattr(kt, "solve", spy)
    ensure_compiled()  # loaded first: a request waits for the kernels within its cap, or is 503
    with TestClient(create_app(Limits(time_limit=0.75), warm=False)) as c:
        c.get("/api/solve", params={"board": "6x6"})
        c.get("/api/solve", params={"board": "6x6", "time_limit": "60"})
        c.get("/api/solve", params={"board": "6x6", "time_limit": "0.25"})
    # the cap counts from the request's arrival: the search gets what is left of it, never more
    assert len(seen) == 3
    for got, cap in zip(seen, [0.75, 0.75, 0.25], strict=True):
        assert got is not None and 0 < got <= cap


def test_a_slow_solve_does_not_block_other_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solves run in worker threads: a quick request answers while a slow one is running (the
    slow one is held until the quick one has answered: were the quick one queued behind it,
    neither would answer). benchmarks/bench_web.py measures how quickly, under load."""
    real = kt.solve
    running, release = threading.Event(), threading.Event()

    def slow_on_9x9(board, *args, **kwargs):
        if kt.parse_board(board).spec == "9x9":
            running.set()
            assert release.wait(60), "never released"
        return real(board, *args, **kwargs)

    monkeypatch.setattr(kt, "solve", slow_on_9x9)
    app = create_app(warm=False)

    async def scenario() -> tuple[bool, bool]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:

            async def solved(board: str) -> None:
                r = await c.get("/api/solve", params={"board": board, "start": "a1"})
                assert r.status_code == 200 and len(r.json()["path"]) == r.json()["width"] ** 2

            slow = asyncio.create_task(solved("9x9"))
            while not running.is_set():
                await asyncio.sleep(0.01)
            try:
                await asyncio.wait_for(solved("6x6"), timeout=30)
            finally:
                held = not slow.done()
                release.set()
            await slow
            return held, slow.done()

    held, done = asyncio.run(scenario())
    assert held and done  # the quick one answered while the slow one was still held


# -- /api/exists ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "answer"),
    [
        ({"board": "8x8", "start": "a1", "closed": "true"}, True),
        ({"board": "5x5", "start": "b1"}, False),
        ({"board": "3x3"}, False),
        ({"board": "5x1000", "start": "a1", "end": "b3"}, None),  # no construction (issue 16)
        ({"board": "40000x50000"}, True),
    ],
)
def test_exists(client: TestClient, params: dict[str, str], answer: bool | None) -> None:
    r = client.get("/api/exists", params=params)
    assert r.status_code == 200
    data = r.json()
    assert set(data) == NO_TOUR_KEYS
    assert data["exists"] is answer and data["reason"]


def test_exists_bad_input(client: TestClient) -> None:
    r = client.get("/api/exists", params={"board": "8x8", "start": "q1"})
    assert r.status_code == 400 and "q1" in r.json()["error"]


# -- /api/puzzle ------------------------------------------------------------------------------


def test_puzzle_playing_gives_a_hint_that_can_still_be_completed(client: TestClient) -> None:
    data = client.get("/api/puzzle", params={"board": "6x6", "path": "a1,c2,e1"}).json()
    assert data["status"] == "playing"
    assert data["path"] == ["a1", "c2", "e1"]
    assert set(data["moves"]) == {"f3", "d3"}
    assert data["hint"] in data["moves"]
    b = kt.Board(6, 6)
    after = parse_position(b, ["a1", "c2", "e1", data["hint"]])
    assert assess(after, time_limit=10).status == "playing"


def test_puzzle_start_hint(client: TestClient) -> None:
    data = client.get("/api/puzzle", params={"board": "5x5"}).json()
    assert data["status"] == "playing" and data["path"] == [] and len(data["moves"]) == 25
    assert kt.exists("5x5", start=data["hint"]).exists is not False


def test_puzzle_lost_position_is_reported(client: TestClient) -> None:
    data = client.get("/api/puzzle", params={"board": "5x5", "path": "a1,b3,d2,c4"}).json()
    assert data["status"] == "lost" and data["hint"] is None
    assert "cannot all be visited from c4: the exact search proves it" in data["reason"]


def test_puzzle_stuck(client: TestClient) -> None:
    ring = "a1,c2,a3,b1,c3,a2,c1,b3"
    data = client.get("/api/puzzle", params={"board": "3x3", "path": ring}).json()
    assert data["status"] == "stuck" and data["moves"] == []


def test_puzzle_won_open_and_closed(client: TestClient) -> None:
    tour = kt.solve("6x6", start="a1", closed=True)
    path = ",".join(tour.path)
    for closed in ("false", "true"):
        params = {"board": "6x6", "path": path, "closed": closed}
        data = client.get("/api/puzzle", params=params).json()
        assert data["status"] == "won", data


def test_puzzle_closed_challenge_is_lost_when_the_end_cannot_return(client: TestClient) -> None:
    open_data = client.get(
        "/api/puzzle", params={"board": "5x5", "path": ",".join(kt.solve("5x5", start="a1").path)}
    ).json()
    assert open_data["status"] == "won"
    closed_data = client.get(
        "/api/puzzle",
        params={
            "board": "5x5",
            "path": ",".join(kt.solve("5x5", start="a1").path),
            "closed": "true",
        },
    ).json()
    assert closed_data["status"] == "lost" and "not closed" in closed_data["reason"]


def test_puzzle_closed_challenge_hint_leads_back_to_the_start(client: TestClient) -> None:
    b = kt.Board(6, 6)
    path = ["a1", "b3", "c5"]
    for _ in range(33):
        data = client.get(
            "/api/puzzle", params={"board": "6x6", "path": ",".join(path), "closed": "true"}
        ).json()
        assert data["status"] == "playing", data
        path.append(data["hint"])
    seq = indices(b, path)
    assert_is_tour(b, seq, closed=True, start=0)
    final = client.get(
        "/api/puzzle", params={"board": "6x6", "path": ",".join(path), "closed": "true"}
    ).json()
    assert final["status"] == "won"


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"board": "8x8", "path": "a1,c3"}, "move 2 (a1 to c3) is not a knight's move"),
        ({"board": "8x8", "path": "a1,c2,a1"}, "a1 is visited twice"),
        ({"board": "8x8", "path": "a1,k2"}, "move 2"),
        ({"board": "8x8", "path": "a1;c2"}, "path: 'a1;c2' is not squares"),
        ({"board": "21x20"}, "puzzle mode"),
    ],
)
def test_puzzle_bad_input(client: TestClient, params: dict[str, str], words: str) -> None:
    r = client.get("/api/puzzle", params=params)
    assert r.status_code in (400, 422) and words in r.json()["error"]


# -- /api/render ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "magic", "media"),
    [
        ("svg", b"<svg", "image/svg+xml"),
        ("png", b"\x89PNG", "image/png"),
        ("gif", b"GIF8", "image/gif"),
    ],
)
def test_render_pictures(client: TestClient, fmt: str, magic: bytes, media: str) -> None:
    tour = kt.solve("6x6", start="a1").to_dict()
    r = client.post(f"/api/render/{fmt}", json=tour)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith(media)
    assert magic in r.content[:200]
    assert f'filename="tour-6x6-a1.{fmt}"' in r.headers["content-disposition"]


def test_render_refuses_what_is_not_a_tour(client: TestClient) -> None:
    r = client.post("/api/render/svg", json={"width": 5, "height": 5, "path": ["a1", "c2", "a1"]})
    assert r.status_code == 400 and "not a valid tour" in r.json()["error"]
    r = client.post("/api/render/svg", json={"width": "x", "height": 5, "path": []})
    assert r.status_code == 422 and "width" in r.json()["error"]


def test_render_caps(client: TestClient) -> None:
    big = kt.solve("60x60", start="a1", method="warnsdorff").to_dict()
    r = client.post("/api/render/gif", json=big)
    assert r.status_code == 400 and "animated GIF" in r.json()["error"]
    r = client.post("/api/render/svg", json={"width": 1000, "height": 1000, "path": ["a1"]})
    assert r.status_code == 400 and "10,000" in r.json()["error"]


# -- the rest ---------------------------------------------------------------------------------


def test_page_static_files_limits_and_schema(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "static/app.js" in page.text and "Knight's tours" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/api/limits").json()["max_squares"] == Limits().max_squares
    schema = client.get("/openapi.json").json()
    assert {"/api/solve", "/api/exists", "/api/puzzle", "/api/render/{fmt}"} <= set(schema["paths"])
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "error" in missing.json()


def test_limits_must_be_positive() -> None:
    with pytest.raises(kt.KnightsTourError, match="workers"):
        Limits(workers=0)


def test_internal_errors_are_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise ZeroDivisionError

    monkeypatch.setattr(kt, "solve", broken)
    with TestClient(create_app(warm=False), raise_server_exceptions=False) as c:
        r = c.get("/api/solve", params={"board": "5x5"})
    assert r.status_code == 500 and "ZeroDivisionError" in r.json()["error"]


def test_search_failed_from_the_solver_is_exists_null(monkeypatch: pytest.MonkeyPatch) -> None:
    def gives_up(*args, **kwargs):
        raise SearchFailedError("the time limit was reached")

    monkeypatch.setattr(kt, "solve", gives_up)
    with TestClient(create_app(warm=False)) as c:
        data = c.get("/api/solve", params={"board": "5x5"}).json()
    assert data == {"width": 5, "height": 5, "exists": None, "reason": "the time limit was reached"}


# -- knightstour serve ------------------------------------------------------------------------


def test_serve_has_help_and_checks_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--help"])
    assert e.value.code == 0 and "--port" in capsys.readouterr().out
    assert main(["serve", "--port", "70000"]) == 2
    assert "a port is 0 to 65535" in capsys.readouterr().err


def test_serve_reports_a_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    sock = bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    finally:
        sock.close()
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_serve_with_a_library_gives_the_gallerys_address(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`serve --db` said only where the board is (issue 30, item 12)."""
    import uvicorn

    from knightstour.library import Library

    db = str(tmp_path / "t.db")
    Library(db).close()
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # no serving
    assert main(["serve", "--port", "0", "--db", db]) == 0
    line = capsys.readouterr().out.strip()
    url = re.search(r"the board is at (http://127\.0\.0\.1:\d+)/", line).group(1)
    assert f"; the gallery of {db} at {url}/gallery (API docs at {url}/docs)" in line
    assert main(["serve", "--port", "0"]) == 0
    assert "gallery" not in capsys.readouterr().out


# -- warming up -------------------------------------------------------------------------------


def test_the_app_warms_the_solver_steps_of_warm_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from knightstour import warm
    from knightstour.web import state

    calls: list[object] = []
    monkeypatch.setattr(warm, "warm", lambda progress=None, *, only=None: calls.append(only))
    monkeypatch.setattr(state, "_compiled", threading.Event())
    with TestClient(create_app()) as c:  # start-up warms in the background, a search waits
        assert c.get("/api/solve", params={"board": "5x5", "start": "a1"}).status_code == 200
        c.get("/api/solve", params={"board": "6x6", "start": "a1"})
    assert calls == [warm.SOLVER_STEPS]
    assert set(warm.SOLVER_STEPS) == {name for name, _ in warm.STEPS} - {
        "library generate and import",
        "magic search",  # the web app does not search for semi-magic tours
        "magic constructions' walks",  # nor build magic tours
        "text of huge tours",  # nor write the command line's text of huge tours
        "longest uncrossed path",  # nor find uncrossed paths
    }


def test_warm_only_makes_the_steps_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from knightstour import warm

    made: list[str] = []
    fake = tuple((name, lambda name=name: made.append(name)) for name in "abc")
    monkeypatch.setattr(warm, "STEPS", fake)
    # the check that every kernel module was compiled applies only to the whole list
    assert [name for name, _ in warm.warm(only={"c", "a"})] == ["a", "c"] == made
    with pytest.raises(kt.InvalidInputError, match="no warm step named 'd'"):
        warm.warm(only=["d"])


def test_a_failed_warm_up_is_logged_not_a_failed_search(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import threading

    from knightstour import warm
    from knightstour.web import state

    calls: list[object] = []

    def broken(progress: object = None, *, only: object = None) -> None:
        calls.append(only)
        raise kt.errors.InternalError("warm: exact search failed: broken")

    monkeypatch.setattr(warm, "warm", broken)
    monkeypatch.setattr(state, "_compiled", threading.Event())
    with TestClient(create_app(warm=False)) as c:
        for board in ("5x5", "6x6"):
            r = c.get("/api/solve", params={"board": board, "start": "a1"})
            assert r.status_code == 200 and "path" in r.json()
    assert calls == [warm.SOLVER_STEPS]
    assert "warming up the searches failed" in caplog.text
