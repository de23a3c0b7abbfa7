"""Tours between two given squares (issue 16, item 5): divide's ends construction through solve.

Targets: any pair on 3000 x 3000 answered in under 1 s, 150 x 150 in under 50 ms, through
``kt.solve`` (validation included), warm (the kernels loaded once before timing). Baseline, in the
same run: the exact search that answered such requests before (``method="backtrack"``), on
100 x 100 from a1 to c2 (3.8 s when the issue was filed) and 150 x 150 from a1 to b1 (gave up
after 30 s; here it is given :data:`BASELINE_LIMIT` seconds). Each figure is the median of
:data:`ROUNDS` runs; the machine has 2 cores shared with other work, so medians, not bests.

Also: the plan alone (what ``exists`` runs) on 30000 x 30000, and the share of random pairs on
random boards 6..60 that the construction builds; and chosen ends on a long thin board, which
the frontier sweep answers (issue 30, item 14: :data:`THIN`, past the 30,000 squares it once
stopped at), with what ``exists`` takes on the longest such board the program accepts.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import knightstour as kt
from knightstour.board import Board
from knightstour.solvers import _divide_ends as E

try:
    from _report import figure
except ImportError:  # pragma: no cover - run on its own, without benchmarks/_report.py

    def figure(bench, what, value, baseline, *, unit, baseline_name, target=None, **_):  # type: ignore[no-untyped-def]
        ratio = f", ratio {value / baseline:.3g}" if baseline else ""
        print(f"  {what}: {value:.3g} {unit} vs {baseline_name} {baseline}{ratio}", flush=True)
        return None


ROUNDS = 7
BASELINE_LIMIT = 10.0
CASES = [
    ("150x150", "a1", "b1"),
    ("150x150", "c7", "x141"),
    ("100x100", "a1", "c2"),
    ("3000x3000", "a1", "b1"),
    ("3000x3000", "k77", "b2999"),
    ("2999x2999", "a1", "c1"),
]


#: A long thin board and two chosen ends: the sweep's case (docs/divide.md, "Chosen ends on
#: boards 5 wide or less").
THIN = ("3x1000000", "b2", "c4")


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_time(spec: str, start: str, end: str, clear: bool) -> float:
    times = []
    for _ in range(ROUNDS):
        if clear:  # the plan again each time (its small searches stay cached, as in a process)
            E._planned.cache_clear()
        times.append(timed(lambda: kt.solve(spec, start=start, end=end)))
    return statistics.median(times)


def baseline(spec: str, start: str, end: str) -> str:
    """What auto did before the construction: Warnsdorff walks to the end square, then the exact
    search, here within :data:`BASELINE_LIMIT` seconds in all."""
    t0 = time.perf_counter()
    for method in ("warnsdorff", "backtrack"):
        left = BASELINE_LIMIT - (time.perf_counter() - t0)
        try:
            kt.solve(spec, start=start, end=end, method=method, time_limit=max(left, 0.1))
        except kt.SearchFailedError:
            continue
        return f"{time.perf_counter() - t0:.3f} s ({method})"
    return f"gave up after {time.perf_counter() - t0:.1f} s"


def main() -> None:
    kt.solve("20x20", start="a1", end="b1")  # load the kernels
    results = {}
    for spec, start, end in CASES:
        tour = kt.solve(spec, start=start, end=end)
        assert tour.method == "divide" and tour.start == start and tour.end == end
        results[(spec, start, end)] = med = median_time(spec, start, end, clear=True)
        n = tour.board.size
        limit = 0.05 if spec.startswith("150x") else 1.0 if spec.startswith("3000x") else None
        figure(
            "divide_ends",
            f"{spec} {start} -> {end} via kt.solve (validated; {med / n * 1e9:.1f} ns a square)",
            med * 1000,
            None if limit is None else limit * 1000,
            unit="ms",
            baseline_name="the target",
            target=None if limit is None else 1.0,
            note="" if limit else "no target",
        )
    for spec, start, end in (("100x100", "a1", "c2"), ("150x150", "a1", "b1")):
        base = baseline(spec, start, end)
        ours = results.get((spec, start, end), 0.0)
        secs = float(base.split()[3] if "gave up" in base else base.split()[0])
        figure(
            "divide_ends",
            f"{spec} {start} -> {end} via kt.solve against the old way",
            ours,
            secs,
            unit="s",
            baseline_name=f"Warnsdorff, then the exact search ({base})",
            note="the baseline gave up: the ratio is an upper bound" if "gave up" in base else "",
        )
    spec, start, end = THIN
    tour = kt.solve(spec, start=start, end=end)
    assert tour.method == "sweep" and (tour.start, tour.end) == (start, end)
    med = median_time(spec, start, end, clear=False)
    figure(
        "divide_ends",
        f"{spec} {start} -> {end} via kt.solve, the frontier sweep (validated; "
        f"{med / tour.board.size * 1e9:.1f} ns a square)",
        med * 1000,
        None,
        unit="ms",
        baseline_name="the old way",
        note="it stopped at 30,000 squares, answering unknown",
    )
    t = timed(lambda: kt.exists("3x715000000", start="b2", end="c4"))
    print(f"  exists 3x715000000 b2 -> c4 (the sweep, no path kept): {t * 1000:.1f} ms")
    far = 30000 * 29999 + 29991
    t = timed(lambda: E.plan(Board(30000, 30000), 7, far))
    print(f"  plan only (what exists runs), 30000x30000 h1 -> the far corner: {t * 1000:.1f} ms")
    rng = random.Random(16)
    built = tried = 0
    squares = []
    t0 = time.perf_counter()
    while tried < 2000:
        w, h = rng.randrange(6, 61), rng.randrange(6, 61)
        s, e = rng.randrange(w * h), rng.randrange(w * h)
        cs, ce = (s % w + s // w) % 2, (e % w + e // w) % 2
        if s == e or (cs == ce if (w * h) % 2 == 0 else (cs or ce)):
            continue
        tried += 1
        if E.plan(Board(w, h), s, e) is not None:
            built += 1
            squares.append(w == h)
    print(
        f"  random allowed pairs on random boards 6..60: {built} of {tried} built "
        f"({time.perf_counter() - t0:.1f} s for all plans)"
    )
    targets = {
        "150x150 < 50 ms": max(v for k, v in results.items() if k[0] == "150x150") < 0.05,
        "3000x3000 < 1 s": max(v for k, v in results.items() if k[0].startswith("3000")) < 1.0,
    }
    for name, ok in targets.items():
        print(f"  target {name}: {'met' if ok else 'MISSED'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
