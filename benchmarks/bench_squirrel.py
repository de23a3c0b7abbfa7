"""Squirrel & Cull's tie-break: on which square boards n = 5..1000 it finds a tour from a1, and
CPU ns per square at a few sizes, split into the schedule (one walk per switch, to find the step at
which each switching square is reached; cached per n) and the tour walk itself.

    python benchmarks/bench_squirrel.py [N_MAX] [SECONDS]    # defaults 1000 and 120

The sweep stops at N_MAX or when SECONDS have passed, and says how far it got. Squirrel & Cull
report a tour for every n >= 5 except 74 (:data:`knightstour.solvers.squirrel.EXCEPTIONS`).
"""

from __future__ import annotations

import sys
import time

from knightstour.board import Board
from knightstour.kernels import walk as _kernels
from knightstour.solvers.squirrel import EXCEPTIONS, _from_a1, schedule
from knightstour.solvers.warnsdorff import Walker

SIZES = (100, 1000, 3000)


def sweep(n_max: int, seconds: float) -> None:
    t0, c0 = time.perf_counter(), time.process_time()
    stuck: list[int] = []
    squares = 0
    n = 4
    while n < n_max and time.perf_counter() - t0 < seconds:
        n += 1
        board = Board(n, n)
        path = Walker(board).walk(0, tiebreak="squirrel", schedule=schedule(board, 0))
        squares += n * n
        if path.size != n * n:
            stuck.append(n)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    expected = sorted(k for k in EXCEPTIONS if k <= n)
    verdict = "as published" if stuck == expected else f"published exceptions: {expected}"
    print(f"  n = 5..{n}: a tour on {n - 4 - len(stuck)} of {n - 4}; stuck on {stuck} ({verdict})")
    print(
        f"    {squares:,} squares in {wall:.1f} s wall, {cpu:.1f} s CPU: "
        f"{cpu * 1e9 / squares:.1f} ns/square (CPU), schedules included"
    )


def timing(n: int) -> None:
    """CPU ns per square: the first schedule (its walks), then the tour walk (best of 3)."""
    board = Board(n, n)
    _from_a1.cache_clear()
    c0 = time.process_time()
    sched = schedule(board, 0)
    t_sched = time.process_time() - c0
    walker = Walker(board)
    best = float("inf")
    for _ in range(3):
        c0 = time.process_time()
        path = walker.walk(0, tiebreak="squirrel", schedule=sched)
        best = min(best, time.process_time() - c0)
    ok = "tour" if path.size == n * n else f"stuck at {path.size}"
    print(
        f"  {n}x{n}: walk {best * 1e9 / n / n:5.1f} ns/square; first schedule "
        f"{t_sched * 1e9 / n / n:5.1f} ns/square ({len(sched[1]) - 1} switches), "
        f"then cached  ({ok})"
    )


def main() -> None:
    n_max = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
    _kernels.COMPILE_THRESHOLD = 0  # always the compiled kernel: this measures the hot loop
    schedule(Board(8, 8), 0)  # compile / load from cache
    for n in SIZES:
        timing(n)
    sweep(n_max, seconds)


if __name__ == "__main__":
    main()
