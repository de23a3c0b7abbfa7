"""The web server under load: does a quick request still answer quickly beside slow ones?

Starts ``knightstour serve`` on 127.0.0.1 (a free port; nothing else is contacted), then keeps
``SLOW_CLIENTS`` (200) slow requests in flight: each client asks for an exact search on 100x100
that runs to the time cap, again and again, and when the server answers 503 (its search queue
is full) waits the ``Retry-After`` it was given, as a well-behaved client does. Meanwhile one
client asks for ``PROBES`` 5x5 tours, one after another, and times each.

Targets (issue 11, item 10): the 5x5 solve answers in < 100 ms at p99, and the server's peak
resident memory stays < 500 MB. Bounded: 200 clients, about ``SECONDS`` of load, then the
server is stopped. Exit status 1 when a target is missed.

Figures: latency of the 5x5 solve (p50, p99, max, ms), the slow requests' outcomes (200 answers
of either kind, 503 refusals), and the server's peak RSS (VmHWM, MB).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

SLOW_CLIENTS = 200
PROBES = 200
SECONDS = 25.0
SLOW = {"board": "100x100", "start": "a1", "end": "b1", "method": "backtrack"}
QUICK_STARTS = ["a1", "c3", "e5", "a3", "c1", "e1", "a5", "e3", "c5", "b2"]
TARGET_P99_MS = 100.0
TARGET_RSS_MB = 500.0


def start_server() -> tuple[subprocess.Popen[str], str]:
    """``knightstour serve --port 0`` in a new process group; returns it and its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightstour", "serve", "--port", "0"],
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


async def load(url: str) -> dict[str, object]:
    """The slow clients and the probe, for ``SECONDS``."""
    stop = time.monotonic() + SECONDS
    outcomes = {"answered": 0, "refused": 0, "other": 0}
    limits = httpx.Limits(max_connections=SLOW_CLIENTS + 10, max_keepalive_connections=20)
    async with (
        httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as slow,
        httpx.AsyncClient(base_url=url, timeout=30) as quick,
    ):

        async def slow_client(i: int) -> None:
            await asyncio.sleep(i * 0.005)
            while time.monotonic() < stop:
                try:
                    r = await slow.get("/api/solve", params=SLOW)
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

        async def probe() -> list[float]:
            await asyncio.sleep(3.0)  # every slow client has asked by now
            times = []
            for k in range(PROBES):
                params = {"board": "5x5", "start": QUICK_STARTS[k % len(QUICK_STARTS)]}
                t0 = time.perf_counter()
                r = await quick.get("/api/solve", params=params)
                times.append((time.perf_counter() - t0) * 1000)
                assert r.status_code == 200 and len(r.json()["path"]) == 25, r.text
                await asyncio.sleep(0.08)
            return times

        tasks = [asyncio.create_task(slow_client(i)) for i in range(SLOW_CLIENTS)]
        times = await probe()
        await asyncio.gather(*tasks)
    return {"times": times, **outcomes}


def main() -> int:
    """Run the load and print the figures; 1 if a target is missed."""
    proc, url = start_server()
    try:
        with httpx.Client(base_url=url, timeout=30) as c:  # warm: kernels loaded, one of each
            c.get("/api/solve", params={"board": "5x5", "start": "a1"}).raise_for_status()
            c.get("/api/solve", params={**SLOW}).raise_for_status()
        figures = asyncio.run(load(url))
        rss = peak_rss_mb(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    times = figures["times"]
    assert isinstance(times, list)
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(
        f"web, {SLOW_CLIENTS} slow requests in flight ({SLOW['board']} exact search to the cap), "
        f"{len(times)} 5x5 solves: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(times):.1f} ms "
        f"(target p99 < {TARGET_P99_MS:.0f} ms)"
    )
    print(
        f"web, slow requests: {figures['answered']} answered, {figures['refused']} refused "
        f"with 503 + Retry-After, {figures['other']} other"
    )
    print(f"web, server peak RSS {rss:.0f} MB (target < {TARGET_RSS_MB:.0f} MB)")
    ok = p99 < TARGET_P99_MS and rss < TARGET_RSS_MB and figures["other"] == 0
    print(f"web, targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
