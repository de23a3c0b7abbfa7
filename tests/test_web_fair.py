"""The web app under load and abuse: lanes, deadlines, back-pressure, cancelling, body caps.

Slow searches are simulated (a ``kt.solve`` that sleeps on big boards), so these tests are quick
and do not depend on the machine's speed. ``benchmarks/bench_web.py`` measures the real thing.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import knightstour as kt
from knightstour.web.app import Limits, create_app
from knightstour.web.lanes import Busy, ClientGone, Lane
from knightstour.web.routes import render as render_route

SLOW = "10x10"  # 100 squares: the search lane; 5x5 (25) is quick work


@pytest.fixture
def slow_solve(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, float | None]]]:
    """``kt.solve`` sleeping 0.75 s on boards of the search lane; records (board, time_limit)."""
    from knightstour.web.state import ensure_compiled

    real = kt.solve
    real(SLOW)  # its kernels loaded now: the requests' time is the sleep and the waits alone
    ensure_compiled()  # and the app's (a request waits for them, within its own cap)
    calls: list[tuple[str, float | None]] = []

    def solve(board: Any, *args: Any, **kwargs: Any) -> kt.Tour:
        b = kt.parse_board(board)
        calls.append((b.spec, kwargs.get("time_limit")))
        if b.size > 64:
            time.sleep(0.75)  # two such end 0.5 s past a 1 s cap: room for a busy machine
        return real(board, *args, **kwargs)

    monkeypatch.setattr(kt, "solve", solve)
    yield calls


def run_requests(app: Any, script: Any) -> Any:
    """Run ``script(client)`` (a coroutine function) against ``app`` in process."""

    async def main() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await script(c)

    return asyncio.run(main())


# -- item 10: fast requests never wait behind slow ones ---------------------------------------


def held_searches(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], threading.Event]:
    """Searches of the search lane held until the event is set (on top of ``slow_solve``):
    what a test asks meanwhile must answer without them. Returns (boards started, the event)."""
    sleepy = kt.solve
    started: list[str] = []
    release = threading.Event()

    def solve(board: Any, *args: Any, **kwargs: Any) -> kt.Tour:
        if kt.parse_board(board).size > 64:
            started.append(kt.parse_board(board).spec)
            assert release.wait(60), "never released"
        return sleepy(board, *args, **kwargs)

    monkeypatch.setattr(kt, "solve", solve)
    return started, release


async def until(condition: Any) -> None:
    """Wait (at most 30 s, a guard against a hang) until ``condition()`` holds."""
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


def test_quick_answers_do_not_wait_behind_searches(
    slow_solve: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the search lane full, a small board and a theory answer come back while the
    searches are still held (were they queued behind them, they would never answer), and one
    more search is refused with 503 and Retry-After rather than queued without bound.
    benchmarks/bench_web.py measures how quickly, under load."""
    app = create_app(Limits(workers=2, queue=2, time_limit=60), warm=False)  # no cap runs out
    started, release = held_searches(monkeypatch)

    async def script(c: httpx.AsyncClient) -> dict[str, Any]:
        slow = [
            asyncio.create_task(c.get("/api/solve", params={"board": SLOW, "start": "a1"}))
            for _ in range(4)
        ]
        try:
            await until(lambda: len(started) == 2)  # two running, two waiting: the lane is full
            await asyncio.sleep(0.05)
            params = {"board": "5x5", "start": "a1"}
            quick = await asyncio.wait_for(c.get("/api/solve", params=params), 30)
            params = {"board": "40x40", "start": "a1", "end": "c1"}
            theory = await asyncio.wait_for(c.get("/api/solve", params=params), 30)
            refused = await c.get("/api/solve", params={"board": SLOW, "start": "a1"})
            held = not any(t.done() for t in slow)
        finally:
            release.set()
        done = await asyncio.gather(*slow)
        return {"quick": quick, "theory": theory, "held": held, "refused": refused, "slow": done}

    out = run_requests(app, script)
    assert out["held"], "the searches were not held while the quick requests answered"
    quick = out["quick"]
    assert quick.status_code == 200 and len(quick.json()["path"]) == 25
    assert out["theory"].json()["exists"] is False
    refused = out["refused"]
    assert refused.status_code == 503 and "busy" in refused.json()["error"]
    assert int(refused.headers["retry-after"]) >= 1
    assert [r.status_code for r in out["slow"]] == [200] * 4


def test_the_deadline_includes_the_wait(slow_solve: list) -> None:
    """A search that waited for a worker gets only what is left of its time cap; one whose
    cap runs out while it waits is refused (503) and never runs."""
    app = create_app(Limits(workers=1, queue=5, time_limit=1.0), warm=False)

    async def script(c: httpx.AsyncClient) -> list[httpx.Response]:
        tasks = []
        for _ in range(3):
            tasks.append(asyncio.create_task(c.get("/api/solve", params={"board": SLOW})))
            await asyncio.sleep(0.02)
        return list(await asyncio.gather(*tasks))

    first, second, third = run_requests(app, script)
    assert first.status_code == second.status_code == 200
    assert third.status_code == 503 and "time limit" in third.json()["error"]
    assert "retry-after" in third.headers
    limits = [t for spec, t in slow_solve if spec == SLOW]
    assert len(limits) == 2, "the request whose deadline passed while waiting still ran"
    assert 0.9 < limits[0] <= 1.0
    assert limits[1] is not None and limits[1] < 0.5  # it waited about 0.75 s of its 1 s


def test_a_request_whose_client_went_away_never_runs(
    slow_solve: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client of a waiting request disconnects: its place is freed at once (while the
    running search is still held) and the search never starts (before: it waited, then ran to
    its cap for nobody)."""
    app = create_app(Limits(workers=1, queue=5), warm=False)
    started, release = held_searches(monkeypatch)

    async def abandoned() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/api/solve",
            "raw_path": b"/api/solve",
            "query_string": b"board=11x11",
            "headers": [(b"host", b"test")],
            "client": ("127.0.0.1", 1),
            "server": ("test", 80),
            "root_path": "",
        }
        messages = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop(0)
            await asyncio.sleep(0.1)  # the client hangs up while the request waits
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        return sent

    async def script(c: httpx.AsyncClient) -> bool:
        busy = asyncio.create_task(c.get("/api/solve", params={"board": SLOW}))
        try:
            await until(lambda: started == [SLOW])
            await asyncio.wait_for(abandoned(), 30)
            held = not busy.done()
        finally:
            release.set()
        await busy
        await asyncio.sleep(0.2)
        return held

    assert run_requests(app, script), "the abandoned request was held until a worker was free"
    assert started == [SLOW] and [spec for spec, _ in slow_solve] == [SLOW], "the abandoned ran"


def test_a_lane_refuses_when_full_and_frees_places() -> None:
    lane = Lane("test", workers=1, queue=1)
    gate = threading.Event()

    async def scenario() -> list[object]:
        a = asyncio.ensure_future(lane.run(lambda _r: gate.wait(5)))
        b = asyncio.ensure_future(lane.run(lambda _r: "b"))
        await asyncio.sleep(0.05)
        with pytest.raises(Busy) as refused:
            await lane.run(lambda _r: "c")
        assert refused.value.retry_after >= 1
        gate.set()
        return [await a, await b, await lane.run(lambda _r: "d")]

    try:
        assert asyncio.run(scenario()) == [True, "b", "d"]
        assert lane.in_flight == 0
    finally:
        lane.close()


def test_search_threads_run_at_a_lower_priority() -> None:
    import os

    lane = Lane("low", workers=1, queue=0, nice=10)
    try:
        nice = asyncio.run(
            lane.run(lambda _r: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        )
    finally:
        lane.close()
    assert nice >= 10


def test_a_lane_with_a_share_rests_after_each_job() -> None:
    """A worker kept to half its time rests at least as long as its job's CPU time before it
    takes the next (the gallery's lane: issue 29, item 10); the CPU time of the busy loop is
    its own thread's, so a loaded machine only lengthens the rest."""
    lane = Lane("shared", workers=1, queue=2, share=0.5)
    marks: dict[str, float] = {}

    def busy(_r: float | None) -> float:
        start = time.thread_time()
        while time.thread_time() - start < 0.05:
            pass
        marks["done"] = time.monotonic()
        return time.thread_time() - start

    def after(_r: float | None) -> float:
        return time.monotonic()

    async def scenario() -> tuple[float, float]:
        spent = asyncio.ensure_future(lane.run(busy))
        began = asyncio.ensure_future(lane.run(after))
        return await spent, await began

    try:
        spent, began = asyncio.run(scenario())
    finally:
        lane.close()
    assert began - marks["done"] >= spent * 0.99
    with pytest.raises(ValueError, match="share"):
        Lane("bad", workers=1, queue=0, share=0)


# -- item 11: request bodies are capped and parsed off the event loop -------------------------


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(max_body_bytes=50_000), warm=False)) as c:
        yield c


def test_a_body_over_the_cap_is_413_before_it_is_read(client: TestClient) -> None:
    r = client.post("/api/render/svg", content=b" " * 50_001)
    assert r.status_code == 413 and "50,000 bytes" in r.json()["error"]


def test_a_chunked_body_is_counted_as_it_comes(client: TestClient) -> None:
    sent = []

    def chunks() -> Iterator[bytes]:
        for _ in range(1000):  # 1 MB if it were all read
            sent.append(1)
            yield b"[" * 1000

    r = client.post("/api/render/svg", content=chunks())
    assert r.status_code == 413 and "50,000 bytes" in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"[" * 49_000, 400, "nested too deeply"),
        (b'{"width": 5', 400, "not JSON"),
        (b"\xff\xfe", 400, "not JSON"),
        (b'{"width": 99999999999999999999, "height": 2, "path": ["a1"]}', 400, "too large"),
        (b'{"width": 5, "height": 5, "xy": [[0, 0, 0]]}', 422, "xy"),
        (b"[]", 422, "request"),
    ],
)
def test_malformed_bodies_are_4xx(client: TestClient, body: bytes, status: int, words: str) -> None:
    r = client.post("/api/render/svg", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


def test_bodies_are_parsed_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = render_route.parse_tour_body

    def spy(raw: bytes) -> Any:
        threads.append(threading.current_thread().name)
        return real(raw)

    monkeypatch.setattr(render_route, "parse_tour_body", spy)
    tour = kt.solve("5x5", "a1").to_dict()
    r = client.post("/api/render/svg", content=json.dumps(tour))
    assert r.status_code == 200 and r.text.startswith("<svg")
    assert len(threads) == 1 and threads[0].startswith("knightstour-quick"), threads


# -- item 20: /api/limits gives integers where the value is whole -----------------------------


def test_limits_are_integers_where_whole() -> None:
    with TestClient(create_app(Limits(time_limit=2.5), warm=False)) as c:
        data = c.get("/api/limits").json()
    assert data["time_limit"] == 2.5
    assert data["hint_time_limit"] == 3 and type(data["hint_time_limit"]) is int
    assert data["gallery_share"] == 0.3
    assert all(type(v) is int for v in data.values() if float(v).is_integer()), data
    with TestClient(create_app(warm=False)) as c:
        text = c.get("/api/limits").text
    assert not re.search(r"\d\.0\b", text), text


# -- item 19: /docs works offline -------------------------------------------------------------


def test_docs_are_served_from_the_package_never_a_cdn() -> None:
    with TestClient(create_app(warm=False)) as c:
        page = c.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text), "a CDN is used"
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
        assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
        for asset in assets:
            assert c.get(f"/{asset}").status_code == 200, asset


def test_a_running_search_stops_when_its_client_goes() -> None:
    """The client disconnects while its search runs: the search stops at its next look at the
    clock instead of running on to its time cap for nobody."""
    from knightstour.solvers._clock import expired

    lane = Lane("demo", workers=1, queue=0)
    finished = threading.Event()
    stopped: list[bool] = []

    def search(remaining: float | None) -> None:
        t0 = time.monotonic()
        while not expired(None) and time.monotonic() - t0 < 120:  # a search's looks at the clock
            time.sleep(0.01)
        stopped.append(expired(None))  # told to stop, rather than at its own end
        finished.set()

    async def gone() -> None:
        await asyncio.sleep(0.2)  # the client hangs up while the search runs

    async def main() -> None:
        with pytest.raises(ClientGone):
            await lane.run(search, deadline=time.monotonic() + 120, gone=gone)

    asyncio.run(main())
    assert finished.wait(60) and stopped == [True], "the search ran on after its client went away"
    lane.close()


@pytest.mark.parametrize(
    ("board", "method"),
    [("300x300", "warnsdorff"), ("300x300", "divide"), ("60x60", "backtrack"), ("300x300", "auto")],
)
def test_every_method_stops_when_cancelled(board: str, method: str) -> None:
    stop = threading.Event()
    stop.set()
    with kt.solvers.cancellable(stop), pytest.raises(kt.SearchFailedError):
        kt.solve(board, start="a1", method=method)
    kt.solve("5x5", start="a1", method=method)  # outside the block: searches as ever
