"""Shaped, wrapped and 3-D boards: Warnsdorff's rule through ``kt.solve`` (validation included).

    python benchmarks/bench_boards.py

Each board is solved three times from a new Board object (so its neighbour table is built each
time, as for a user's first call) and the best time is reported, per square. The plain knight on
the full 1000x1000 board is measured in the same run: it takes the padded-grid walk, which the
shaped boards do not touch, so its time is the baseline they are compared with.
"""

from __future__ import annotations

import time

import knightstour as kt
from knightstour.board import Board

CASES = (
    Board(1000, 1000),
    Board(1000, 1000, holes=frozenset({5000})),
    Board(1000, 1000, leaper=(2, 3)),
    Board(1000, 1000, wrap="torus"),
    Board(1000, 1000, wrap="cylinder"),
    Board(100, 100, depth=100),
)


def best_of(board: Board, runs: int = 3) -> tuple[float, str]:
    best, what = float("inf"), ""
    for _ in range(runs):
        fresh = Board(
            board.width, board.height, leaper=board.leaper, holes=board.holes,
            wrap=board.wrap, depth=board.depth,
        )  # fmt: skip
        t0 = time.perf_counter()
        try:
            what = f"{len(kt.solve(fresh, start=0, method='warnsdorff')):,} squares"
        except kt.SearchFailedError as e:
            what = f"stuck after {len(e.partial or ()):,}"
        best = min(best, time.perf_counter() - t0)
    return best, what


def main() -> None:
    for board in CASES:  # compile each kernel once, outside the timings
        small = Board(60, 60, leaper=board.leaper, wrap=board.wrap, depth=min(board.depth, 4))
        kt.solve(small, start=0, method="warnsdorff")
    base = None
    for board in CASES:
        t, what = best_of(board)
        per = t * 1e9 / board.size
        base = base or per
        print(
            f"  {board.description:<28} {t:6.2f} s  {per:6.0f} ns/square  "
            f"{per / base:5.1f}x the plain board  ({what})"
        )


if __name__ == "__main__":
    main()
