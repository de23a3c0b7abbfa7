"""``GET /api/count``: the number of tours when it is known or quick, in its own lane, cached;
null with a reason when it would take too long; HTTP 4xx for bad input."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

import knightstour.counting as counting
from knightstour.counting import compute, count_request, describe
from knightstour.errors import SearchFailedError
from knightstour.web.app import Limits, create_app

KEYS = {
    "width",
    "height",
    "kind",
    "start",
    "end",
    "directed",
    "count",
    "count_text",
    "convention",
    "known",
    "source",
    "cached",
    "method",
    "seconds",
    "reason",
    "published",
}


@pytest.fixture
def client() -> TestClient:
    # a budget no busy machine runs out of: these tests are about what is counted, not how fast
    with TestClient(create_app(Limits(count_time_limit=120), warm=False)) as c:
        yield c


def request_of(params: dict[str, str]) -> dict[str, object]:
    """The arguments of ``counting.count`` for the query ``params``."""
    return {
        "board": params["board"],
        "closed": params.get("closed") == "true",
        "start": params.get("start") or None,
        "directed": params.get("directed") != "false",
    }


def published(params: dict[str, str]) -> int:
    """The published figure (knightstour/data/published.json) of the query ``params``."""
    figure = counting.known(**request_of(params))
    assert figure is not None and figure.source == "published", params
    return figure.count


def get(client: TestClient, **params: str) -> dict:
    r = client.get("/api/count", params=params)
    assert r.status_code == 200, r.text
    data = r.json()
    assert set(data) == KEYS
    return data


@pytest.mark.parametrize(
    ("params", "number"),
    [
        ({"board": "5x5"}, 1728),
        ({"board": "5x5", "directed": "false"}, 864),
        ({"board": "5x5", "start": "a1"}, 304),
        ({"board": "5x5", "start": "2,2"}, 64),
        ({"board": "3x10", "closed": "true", "directed": "false"}, 16),
        ({"board": "6x6", "closed": "true", "directed": "false"}, 9862),
    ],
)
def test_quick_counts_are_computed_then_cached(
    client: TestClient, params: dict[str, str], number: int
) -> None:
    data = get(client, **params)
    assert number == published(params)  # the program's own count, checked against the file
    assert (data["count"], data["count_text"], data["known"]) == (number, str(number), True)
    assert (data["source"], data["cached"], data["method"]) == ("computed", False, "frontier")
    assert data["seconds"] >= 0 and data["reason"] is None
    assert data["convention"] == describe(count_request(**request_of(params)))
    assert data["published"]["value"] == number  # the published figure beside it, labelled
    again = get(client, **params)
    assert again["cached"] is True and again["count"] == number


def test_the_fields_say_what_was_counted(client: TestClient) -> None:
    data = get(client, board="5x5", start="c3", end="", closed="false", directed="true")
    assert (data["width"], data["height"], data["kind"]) == (5, 5, "open")
    assert (data["start"], data["end"], data["directed"]) == ("c3", None, True)
    assert data["convention"] == "open tours on 5x5 from c3"


def test_theory_and_published_figures_are_instant(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("counted")

    monkeypatch.setattr(compute, "count_for", refuse)
    data = get(client, board="4x9", closed="true")
    assert (data["count"], data["source"]) == (0, "theory") and "Schwenk" in data["reason"]
    for params in (
        {"board": "8x7", "closed": "true", "directed": "false"},
        {"board": "7x7"},  # directed open
        {"board": "8x8"},  # directed open
        {"board": "8x8", "closed": "true"},  # directed: twice the cycles
    ):
        data = get(client, **params)
        figure = published(params)
        # not computed here: no count, and the figure beside it, labelled, with its source
        assert (data["count"], data["source"], data["known"]) == (None, None, False)
        assert "too large to count here" in data["reason"]
        known = counting.known(**request_of(params))
        assert data["published"] == {
            "value": figure,
            "value_text": str(figure),
            "source": known.citation,
            "convention": data["convention"],
            "url": known.url,
        }
        assert "OEIS A" in known.citation and known.url.startswith("https://oeis.org/A")


def test_the_published_8x8_figures_are_labelled_with_their_source(client: TestClient) -> None:
    """8x8: closed 13,267,364,410,532 cycles (OEIS A001230, McKay 1997) and open directed
    19,591,828,170,979,904 (OEIS A165134, Chernov 2014), from the one table of published
    figures; "count" stays null, as nothing was counted (issue 30, item 4)."""
    closed = get(client, board="8x8", closed="true", directed="false")
    assert closed["count"] is None and closed["published"]["value"] == 13_267_364_410_532
    assert closed["published"]["source"].startswith("OEIS A001230 (B. D. McKay")
    convention = "undirected closed tours on 8x8 (each cycle counted once)"
    assert closed["published"]["convention"] == convention
    assert "memory" in closed["reason"]  # why not: not "knightstour count goes further"
    opened = get(client, board="8x8")
    assert opened["published"]["value"] == 19_591_828_170_979_904
    assert opened["published"]["source"] == "OEIS A165134 (a(8) from Alex Chernov, 2014)"
    # a count from a square is not published: the whole board's figure, saying so
    start = get(client, board="8x8", start="a1")
    assert start["count"] is None and start["convention"] == "open tours on 8x8 from a1"
    assert start["published"] == opened["published"]
    # a closed count from a square is the whole board's cycles: its own figure
    cycles = get(client, board="8x8", closed="true", directed="false", start="e4")
    assert cycles["published"]["value"] == 13_267_364_410_532
    assert cycles["published"]["convention"] == "undirected closed tours on 8x8 from e4"
    # no figure in the table: null
    assert get(client, board="7x10", closed="true")["published"] is None


def test_a_board_that_counts_too_slowly_gets_the_published_figure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """6x6 open takes seconds: past the budget the page shows the published figure, labelled."""

    calls: list[int] = []

    def slow(request: object, **kwargs: object) -> int:
        calls.append(1)
        progress = kwargs["progress"]
        progress(1, 36)  # type: ignore[operator]
        time.sleep(0.2)
        raise SearchFailedError("counting on 6x6 stopped at the time limit, square 1 of 36")

    monkeypatch.setattr(compute, "count_for", slow)
    with TestClient(create_app(Limits(count_time_limit=0.3), warm=False)) as c:
        for k in range(2):
            data = get(c, board="6x6")
            assert (data["count"], data["source"]) == (None, None)
            assert "takes longer than the 0.3 s" in data["reason"] and data["cached"] is bool(k)
            assert data["published"]["value"] == published({"board": "6x6"}) == 6_637_920
            assert data["published"]["source"] == "OEIS A165134"
    assert len(calls) == 1  # the second answer knew the count was too slow


def test_too_large_boards_are_null_with_a_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compute, "count_for", lambda *a, **k: 1 / 0)
    for params in (
        {"board": "8x8", "start": "a1"},
        {"board": "7x8"},
        {"board": "6x40"},
    ):
        data = get(client, **params)
        assert data["count"] is None and data["known"] is False and data["source"] is None
        assert "too large to count here" in data["reason"]


def test_a_slow_count_is_null_and_not_tried_again() -> None:
    lim = Limits(count_time_limit=0.3)
    with TestClient(create_app(lim, warm=False)) as c:
        counting.count("5x5")  # the kernels loaded: the budget goes to counting
        data = get(c, board="6x6", start="a1")  # not published
        assert data["count"] is None and data["known"] is False
        assert "takes longer than the 0.3 s" in data["reason"]
        again = get(c, board="6x6", start="a1")  # from the cache: not counted again
        assert again["cached"] is True and again["reason"] == data["reason"]


def test_a_count_cut_short_by_compiling_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A count that never reached its first square (loading kernels) is not marked slow."""
    calls: list[int] = []

    def first_slow(request: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 1:
            raise SearchFailedError("counting on 5x7 stopped at the time limit, square 0 of 35")
        return 1234

    monkeypatch.setattr(compute, "count_for", first_slow)
    with TestClient(create_app(warm=False)) as c:  # 5x7: no published figure to fall back on
        assert get(c, board="5x7")["count"] is None
        assert get(c, board="5x7")["count"] == 1234
    assert len(calls) == 2


def test_counts_run_in_their_own_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = compute.count_for

    def spy(*args: object, **kwargs: object) -> int:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(compute, "count_for", spy)
    with TestClient(create_app(warm=False)) as c:
        assert get(c, board="3x4")["count"] == 16
    assert len(threads) == 1 and threads[0].startswith("knightstour-counts"), threads


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"board": "5x5", "start": "z9"}, 400, "start square z9 is off the 5x5 board"),
        ({"board": "5x5", "start": "a1", "end": "a1"}, 400, "same square"),
        ({"board": "0x5"}, 400, "board"),
        ({"board": "5x5", "closed": "maybe"}, 422, "closed"),
        ({"board": "5x5", "directed": "sideways"}, 422, "directed"),
        ({"board": "five"}, 422, "board"),
        ({}, 422, "board"),
    ],
)
def test_bad_input_is_4xx_with_an_error(
    client: TestClient, params: dict[str, str], status: int, words: str
) -> None:
    r = client.get("/api/count", params=params)
    assert r.status_code == status
    assert set(r.json()) == {"error"} and words in r.json()["error"]


def test_the_schema_and_limits_list_the_count() -> None:
    with TestClient(create_app(warm=False)) as c:
        schema = c.get("/openapi.json").json()
        limits = c.get("/api/limits").json()
    assert "/api/count" in schema["paths"]
    assert limits["count_time_limit"] == 2 and limits["count_max_side"] == 6


@pytest.mark.slow
def test_fuzzed_queries_are_json_and_never_a_server_error() -> None:
    """Hypothesis over /api/count, with the fuzz pass's parameters (tests/test_web_fuzz.py)."""
    from hypothesis import HealthCheck, given, settings

    from test_web_fuzz import BOARDS, FLAGS, SQUARES, _params, check

    with TestClient(
        create_app(Limits(count_time_limit=0.2), warm=False), raise_server_exceptions=False
    ) as c:

        @given(
            params=_params(board=BOARDS, start=SQUARES, end=SQUARES, closed=FLAGS, directed=FLAGS)
        )
        @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
        def fuzz(params: dict[str, str]) -> None:
            r = c.get("/api/count", params=params)
            check(r)
            if r.status_code == 200:
                data = r.json()
                assert set(data) == KEYS and data["known"] == (data["count"] is not None)

        fuzz()


def test_a_count_of_any_length_is_served_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server allowed long narrow boards (3x9000 closed has about 4,400 digits, more than
    Python's int/str conversion takes at once): the count in full, as a JSON integer and as
    text, not an HTTP 500."""
    number = 10**4500 + 3

    def counted(request: object, **how: object) -> int:
        return number

    monkeypatch.setattr(compute, "count_for", counted)
    limits = Limits(count_time_limit=120, count_max_side=3, count_max_squares=30_000)
    with TestClient(create_app(limits, warm=False)) as c:
        r = c.get("/api/count", params={"board": "3x9000", "closed": "true"})
    assert r.status_code == 200
    text = "1" + "0" * 4499 + "3"
    assert f'"count":{text},' in r.text and f'"count_text":"{text}"' in r.text
