"""The web server under load: does a quick request still answer quickly beside slow ones?

Starts ``knightstour serve`` on 127.0.0.1 (a free port; nothing else is contacted), then keeps
``SLOW_CLIENTS`` (200) slow requests in flight: each client asks for an exact search on 100x100
that runs to the time cap, again and again, and when the server answers 503 (its search queue
is full) waits the ``Retry-After`` it was given, as a well-behaved client does. Meanwhile one
client in a process of its own (a user's browser is not the load generator) asks for ``PROBES``
5x5 tours, one after another, and times each.

Then the gallery's load: a server showing a tour library of ``GALLERY_TOURS`` tours
(``serve --db``), ``GALLERY_CLIENTS`` (200) clients each asking for gallery pages and tours
(``/api/library/tours``, ``/api/library/tours/ID``) one after another, again waiting the
``Retry-After`` of a 503, while the same probe times its 5x5 solves.

Targets (issue 11, item 10; issue 29, item 10): the 5x5 solve answers in < 100 ms at p99 beside
either load, and the server's peak resident memory stays < 500 MB. Bounded: 200 clients, about
``SECONDS`` of each load, then the server is stopped. Exit status 1 when a target is missed.

Figures: latency of the 5x5 solve (p50, p99, max, ms) beside each load, the slow requests' and
the gallery requests' outcomes (200 answers, 503 refusals), and the server's peak RSS (VmHWM,
MB).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

SLOW_CLIENTS = 200
PROBES = 200
SECONDS = 25.0
SLOW = {"board": "100x100", "start": "a1", "end": "b1", "method": "backtrack"}
QUICK_STARTS = ["a1", "c3", "e5", "a3", "c1", "e1", "a5", "e3", "c5", "b2"]
GALLERY_CLIENTS = 200
GALLERY_TOURS = 2_000
TARGET_P99_MS = 100.0
TARGET_RSS_MB = 500.0


def start_server(*options: str) -> tuple[subprocess.Popen[str], str]:
    """``knightstour serve --port 0`` (and ``options``) in a new process group; returns it and
    its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightstour", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+)", line)
    if not found:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, found.group(1)


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (Linux's VmHWM), in MB."""
    text = Path(f"/proc/{pid}/status").read_text()
    kb = int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1))  # type: ignore[union-attr]
    return kb / 1024


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile(list(map(float, range(100))), 0.99)
    (2.0, 98.0)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered)) - 1))]


def probe(url: str) -> list[float]:
    """``PROBES`` 5x5 solves one after another, each timed (ms), after the load has begun.

    The probe runs in a process of its own (:func:`probe_process`), as a user's browser is not the
    load generator: timed inside the loading clients' event loop, a quick answer would wait for
    the loaders' own work as well as the server's.
    """
    time.sleep(3.0)  # every loading client has asked by now
    times = []
    with httpx.Client(base_url=url, timeout=30) as quick:
        for k in range(PROBES):
            params = {"board": "5x5", "start": QUICK_STARTS[k % len(QUICK_STARTS)]}
            t0 = time.perf_counter()
            r = quick.get("/api/solve", params=params)
            times.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200 and len(r.json()["path"]) == 25, r.text
            time.sleep(0.08)
    return times


def probe_process(url: str) -> subprocess.Popen[str]:
    """:func:`probe` in a new process, its times printed as one JSON line."""
    return subprocess.Popen(
        [sys.executable, __file__, "--probe", url], stdout=subprocess.PIPE, text=True
    )


async def load(
    url: str, clients: int, ask: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]
) -> dict[str, object]:
    """``clients`` clients each sending ``ask`` again and again (waiting the ``Retry-After`` of
    a 503), and the probe, for ``SECONDS``."""
    stop = time.monotonic() + SECONDS
    outcomes = {"answered": 0, "refused": 0, "other": 0}
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=20)
    prober = probe_process(url)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as loading:

        async def client(i: int) -> None:
            await asyncio.sleep(i * 0.005)
            while time.monotonic() < stop:
                try:
                    r = await ask(loading)
                except httpx.HTTPError:
                    outcomes["other"] += 1
                    await asyncio.sleep(0.5)
                    continue
                if r.status_code == 503:
                    outcomes["refused"] += 1
                    await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                elif r.status_code == 200:
                    outcomes["answered"] += 1
                else:
                    outcomes["other"] += 1

        await asyncio.gather(*(client(i) for i in range(clients)))
    out, _ = prober.communicate(timeout=300)
    if prober.returncode != 0:
        raise SystemExit(f"the probe failed (exit {prober.returncode})")
    times = json.loads(out)
    return {"times": times, **outcomes}


def slow_search(c: httpx.AsyncClient) -> Awaitable[httpx.Response]:
    """An exact search on 100x100 that runs to the server's time cap."""
    return c.get("/api/solve", params=SLOW)


def gallery_request(c: httpx.AsyncClient) -> Awaitable[httpx.Response]:
    """A gallery page at a random place in the library, or one of its tours."""
    if random.random() < 0.5:
        after = random.randrange(GALLERY_TOURS)
        return c.get("/api/library/tours", params={"after": after, "limit": 24})
    return c.get(f"/api/library/tours/{random.randrange(1, GALLERY_TOURS + 1)}")


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C the server's process group (SIGKILL if it lingers)."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def gallery_figures(folder: str) -> dict[str, object]:
    """The gallery's load: a library of ``GALLERY_TOURS`` 8x8 tours served, and the probe."""
    from knightstour.library.generate import generate

    db = str(Path(folder) / "tours.db")
    generate("8x8", GALLERY_TOURS, seed=29, db=db, workers=1)
    proc, url = start_server("--db", db)
    try:
        with httpx.Client(base_url=url, timeout=300) as c:  # warm (kernels may compile)
            c.get("/api/solve", params={"board": "5x5", "start": "a1"}).raise_for_status()
            c.get("/api/library/tours", params={"limit": 24}).raise_for_status()
        return asyncio.run(load(url, GALLERY_CLIENTS, gallery_request))
    finally:
        stop_server(proc)


def summary(times: list[float]) -> tuple[float, str]:
    """The p99 of ``times`` and a line of p50, p99 and max."""
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    return p99, f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(times):.1f} ms"


def main() -> int:
    """Run both loads and print the figures; 1 if a target is missed."""
    proc, url = start_server()
    try:
        with httpx.Client(base_url=url, timeout=30) as c:  # warm: kernels loaded, one of each
            c.get("/api/solve", params={"board": "5x5", "start": "a1"}).raise_for_status()
            c.get("/api/solve", params={**SLOW}).raise_for_status()
        figures = asyncio.run(load(url, SLOW_CLIENTS, slow_search))
        rss = peak_rss_mb(proc.pid)
    finally:
        stop_server(proc)
    with tempfile.TemporaryDirectory() as folder:
        gallery = gallery_figures(folder)
    times, shown = figures["times"], gallery["times"]
    assert isinstance(times, list) and isinstance(shown, list)
    p99, line = summary(times)
    print(
        f"web, {SLOW_CLIENTS} slow requests in flight ({SLOW['board']} exact search to the cap), "
        f"{len(times)} 5x5 solves: {line} (target p99 < {TARGET_P99_MS:.0f} ms)"
    )
    print(
        f"web, slow requests: {figures['answered']} answered, {figures['refused']} refused "
        f"with 503 + Retry-After, {figures['other']} other"
    )
    print(f"web, server peak RSS {rss:.0f} MB (target < {TARGET_RSS_MB:.0f} MB)")
    gallery_p99, line = summary(shown)
    print(
        f"web, {GALLERY_CLIENTS} gallery requests in flight (pages and tours of a "
        f"{GALLERY_TOURS:,}-tour library), {len(shown)} 5x5 solves: {line} "
        f"(target p99 < {TARGET_P99_MS:.0f} ms)"
    )
    print(
        f"web, gallery requests: {gallery['answered']} answered, {gallery['refused']} refused "
        f"with 503 + Retry-After, {gallery['other']} other"
    )
    ok = (
        p99 < TARGET_P99_MS
        and gallery_p99 < TARGET_P99_MS
        and rss < TARGET_RSS_MB
        and figures["other"] == 0
        and gallery["other"] == 0
    )
    print(f"web, targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--probe"]:
        print(json.dumps(probe(sys.argv[2])))
        sys.exit(0)
    sys.exit(main())
