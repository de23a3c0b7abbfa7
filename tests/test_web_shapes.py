"""The web API on shaped boards (issue 14): counts with holes and other pieces, the counting's
own reason for wrapped and 3-D boards, and solve, puzzle and pictures on 3-D boards."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import knightstour as kt
from knightstour.board import Board
from knightstour.counting import count_request
from knightstour.errors import InvalidInputError
from knightstour.web.app import Limits, create_app
from test_web_count import KEYS as PLAIN_KEYS


@pytest.fixture
def client() -> TestClient:
    # a count budget no busy machine runs out of: what is counted is under test, not how fast
    with TestClient(create_app(Limits(count_time_limit=120), warm=False)) as c:
        yield c


def count(client: TestClient, **params: str) -> dict:
    r = client.get("/api/count", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def brute_force(board: Board, start: int | None = None) -> int:
    """Directed open tours of ``board`` (from ``start``), by walking every path: independent of
    the counting package."""
    squares = list(board.squares())
    moves = {s: board.moves(s) for s in squares}
    found = 0

    def walk(square: int, seen: set[int]) -> None:
        nonlocal found
        if len(seen) == len(squares):
            found += 1
            return
        for t in moves[square]:
            if t not in seen:
                seen.add(t)
                walk(t, seen)
                seen.discard(t)

    for s in squares if start is None else [start]:
        walk(s, {s})
    return found


# -- counts on shaped boards ------------------------------------------------------------------


def test_a_holed_board_is_counted_and_matches_a_brute_force(client: TestClient) -> None:
    board = Board(4, 5, holes=frozenset({0}))
    expected = brute_force(board)
    data = count(client, board="4x5", holes="a1")
    assert expected > 0
    assert (data["count"], data["count_text"], data["known"]) == (expected, str(expected), True)
    assert (data["source"], data["method"], data["cached"]) == ("computed", "frontier", False)
    assert data["holes"] == ["a1"] and set(data) == PLAIN_KEYS | {"holes"}
    assert data["convention"] == (
        "directed open tours on 4x5 holes=a1 (each path counted in both directions)"
    )
    start = board.parse_square("b1")
    data = count(client, board="4x5", holes="a1", start="b1")
    assert data["count"] == brute_force(board, start)
    assert data["convention"] == "open tours on 4x5 holes=a1 from b1"


def test_a_holed_board_matches_the_enumerator(client: TestClient) -> None:
    board = Board(5, 5, holes=frozenset({0, 24}))
    expected = kt.count(board, method="enumerate")
    assert expected > 0
    assert count(client, board="5x5", holes="a1,e5")["count"] == expected
    undirected = count(client, board="5x5", holes="e5, a1", directed="false")
    assert undirected["count"] == kt.count(board, directed=False, method="enumerate")
    assert undirected["count"] == expected // 2


def test_the_cache_tells_a_holed_board_from_the_plain_one(client: TestClient) -> None:
    plain = count(client, board="5x5")
    holed = count(client, board="5x5", holes="c3")
    assert plain["count"] == 1728 and plain["cached"] is False
    assert holed["count"] == kt.count(Board(5, 5, holes=frozenset({12}))) != 1728
    assert holed["cached"] is False
    assert count(client, board="5x5", holes="c3")["cached"] is True
    assert set(plain) == PLAIN_KEYS  # a plain board's answer is as it always was


def test_another_piece_is_counted_or_ruled_out_by_theory(client: TestClient) -> None:
    data = count(client, board="5x5", leaper="zebra")
    assert (data["count"], data["source"], data["leaper"]) == (0, "theory", [2, 3])
    assert "no tour on 5x5 leaper=2,3" in data["reason"]
    camel = count(client, board="4x4", leaper="1,3", closed="true", directed="false")
    assert camel["count"] == kt.count(Board(4, 4, leaper=(1, 3)), closed=True, directed=False)


def test_published_figures_are_for_the_plain_board_only(client: TestClient) -> None:
    assert count(client, board="7x7")["published"]["value"] == 165_575_218_320
    holed = count(client, board="7x7", holes="d4")
    assert holed["count"] is None and holed["source"] is None and holed["published"] is None
    assert "7x7 holes=d4 is too large to count here" in holed["reason"]


def test_a_shaped_count_has_the_plain_counts_time_budget() -> None:
    lim = Limits(count_time_limit=0.3)
    with TestClient(create_app(lim, warm=False)) as c:
        kt.count("5x5")  # the kernels loaded: the budget goes to counting
        data = count(c, board="6x6", holes="a1")
        assert data["count"] is None and data["known"] is False
        assert "counting 6x6 holes=a1 takes longer than the 0.3 s" in data["reason"]
        # remembered as too slow once a try has spent half its budget counting (a try that a
        # loaded machine kept from its first square is not taken as the count's measure)
        again = [count(c, board="6x6", holes="a1") for _ in range(5)]
        assert any(d["cached"] for d in again), again
        assert all(d["count"] is None for d in again)


@pytest.mark.parametrize(
    ("params", "board"),
    [
        ({"board": "4x4x4"}, Board(4, 4, depth=4)),
        ({"board": "6x6", "wrap": "torus", "start": "a1"}, Board(6, 6, wrap="torus")),
        ({"board": "5x6", "wrap": "cylinder", "closed": "true"}, Board(5, 6, wrap="cylinder")),
    ],
)
def test_wrapped_and_3d_boards_say_why_they_are_not_counted(
    client: TestClient, params: dict[str, str], board: Board
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        count_request(board)
    data = count(client, **params)
    assert data["count"] is None and data["known"] is False and data["source"] is None
    assert data["reason"] == str(refused.value).splitlines()[0]
    assert data["width"] == board.width and data.get("depth", 1) == board.depth
    assert data.get("wrap") == board.wrap


@pytest.mark.slow
def test_bad_squares_of_a_3d_board_are_still_refused(client: TestClient) -> None:
    r = client.get("/api/count", params={"board": "4x4x4", "start": "a1:9"})
    assert r.status_code == 400 and "off the 4x4x4 board" in r.json()["error"]
    r = client.get("/api/count", params={"board": "5x5", "holes": "c3", "start": "c3"})
    assert r.status_code == 400 and "hole" in r.json()["error"]


# -- 3-D boards: solve, puzzle, pictures -------------------------------------------------------


def test_a_3d_tour_from_the_api_is_valid(client: TestClient) -> None:
    r = client.get("/api/solve", params={"board": "4x4x3", "start": "a1:1"})
    data = r.json()
    assert r.status_code == 200 and data["depth"] == 3
    tour = kt.Tour.from_dict(data)  # validated: every square once, each step a 3-D move
    assert tour.board.spec == "4x4x3" and len(tour.path) == 48
    assert data["path"][0] == "a1:1" and all(len(xyz) == 3 for xyz in data["xy"])
    assert {p.rsplit(":", 1)[1] for p in data["path"]} == {"1", "2", "3"}


def test_a_3d_closed_tour_with_holes(client: TestClient) -> None:
    r = client.get("/api/solve", params={"board": "4x4x4", "holes": "a1:1,b1:1", "closed": "true"})
    data = r.json()
    assert r.status_code == 200 and data["holes"] == ["a1:1", "b1:1"]
    tour = kt.Tour.from_dict(data)
    assert tour.closed and len(tour.path) == 62 and not {"a1:1", "b1:1"} & set(tour.path)


def test_puzzle_moves_on_a_3d_board(client: TestClient) -> None:
    board = Board(4, 4, depth=3)
    path = ["a1:1", "a3:2"]
    data = client.get("/api/puzzle", params={"board": "4x4x3", "path": ",".join(path)}).json()
    assert data["depth"] == 3 and data["path"] == path
    here = board.parse_square("a3:2")
    legal = {board.square_name(s) for s in board.moves(here)} - set(path)
    assert set(data["moves"]) == legal
    assert any(m.endswith(":1") for m in legal) and any(m.endswith(":3") for m in legal)
    assert data["status"] in ("playing", "unknown", "lost")
    r = client.get("/api/puzzle", params={"board": "4x4x3", "path": "a1:1,b1:1"})
    assert r.status_code == 400


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_pictures_of_shaped_tours(client: TestClient, fmt: str) -> None:
    three_d = client.get("/api/solve", params={"board": "4x4x3"}).json()
    r = client.post(f"/api/render/{fmt}", json=three_d)
    assert r.status_code == 200, r.text
    assert 'filename="tour-4x4x3-a1-1.' in r.headers["content-disposition"]
    holed = client.get("/api/solve", params={"board": "6x6", "holes": "c3,d3"}).json()
    assert holed["holes"] == ["c3", "d3"]
    r = client.post(f"/api/render/{fmt}", json=holed)
    assert r.status_code == 200, r.text
    del holed["holes"]  # then the tour misses two squares of the full board
    r = client.post(f"/api/render/{fmt}", json=holed)
    assert r.status_code == 400 and "never visited" in r.json()["error"]


@pytest.mark.parametrize("path", ["/api/solve", "/api/exists", "/api/puzzle", "/api/count"])
def test_a_large_corners_cut_is_refused_before_it_is_made(client: TestClient, path: str) -> None:
    """A schema-valid corners cut of millions of squares is refused (400) before a square of it
    is visited: made on the event loop, it kept the server from answering anything for as long
    as it took (``board=6000&corners=3000``: 25 s; the schema fuzz's timeouts). A board within
    the cap is cut whatever its corners (the last lines; the test below)."""
    r = client.get(path, params={"board": "2000", "corners": "1000", "path": "a1"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == (
        "corners 1000 reach 4,000,000 squares of the 2000x2000 board, more than the 10,000 "
        "that the web API cuts (the command line's --corners takes any)"
    )
    whole = client.get("/api/exists", params={"board": "100", "corners": "9999"})
    assert "cut away the whole 100x100 board" in whole.json()["error"]  # 10,000 squares: cut


def test_corners_and_masks_reach_every_board_endpoint(client: TestClient) -> None:
    """``corners`` and ``mask`` shape the board as on the command line; a mask must match."""
    got = client.get("/api/solve", params={"board": "10x10", "corners": "2", "start": "c1"})
    assert got.status_code == 200
    body = got.json()
    assert len(body["path"]) == 100 - 4 * 3 and "a1" in body["holes"] and "b1" in body["holes"]
    cross = ".##./..../..../.##."  # 4x4 less the middle of the top and bottom ranks
    got = client.get("/api/solve", params={"board": "4x4", "mask": cross})
    assert got.status_code == 200 and sorted(got.json()["holes"]) == ["b1", "b4", "c1", "c4"]
    bad = client.get("/api/solve", params={"board": "5x4", "mask": cross})
    assert bad.status_code == 400 and "the mask draws a 4x4 board, not 5x4" in bad.json()["error"]
    counted = client.get("/api/count", params={"board": "5x5", "corners": "1"}).json()
    assert counted["holes"] == ["a1", "e1", "a5", "e5"] and counted["count"] == 0  # colours
