"""The shape of a tour (issue 33, item 1): seconds of ``Tour.metrics()`` (crossings, turns,
directions, symmetries, displacement) on closed divide-and-conquer tours of 1000x1000 and
10000x10000 (10^8 squares), against the validation of the same tour (``find_problems``, the
linear pass every tour already gets) as the baseline.

Target: a 10^8-square tour's metrics in a few seconds; the figure's target is at most 10 times
the validation (one compiled pass where the metrics make a walk of the moves, a sweep of the
grid and a pass a symmetry). The kernels are loaded (compiled, from the cache) before the clock
starts.
"""

from __future__ import annotations

import time

from _report import figure

CASES = (1000, 10000)


def main() -> None:
    import numpy as np

    import knightstour as kt
    from knightstour.geometry import metrics
    from knightstour.tour import find_problems

    # load the kernels once (a small tour through the compiled path)
    warm = kt.solve("70x70", start="a1", closed=True, method="divide")
    metrics(warm.board, warm.indices, True, compiled=True)
    find_problems(warm.board, warm.indices, True)
    for n in CASES:
        tour = kt.solve(f"{n}x{n}", start="a1", closed=True, method="divide")
        idx = np.asarray(tour.indices)
        t0 = time.perf_counter()
        assert not find_problems(tour.board, idx, True)
        check = time.perf_counter() - t0
        t0 = time.perf_counter()
        m = tour.metrics()
        took = time.perf_counter() - t0
        print(
            f"  {n}x{n} closed: {m.crossings:,} crossings, {m.turns:,} turns, "
            f"symmetries {', '.join(m.symmetries)}"
        )
        figure(
            "metrics",
            f"Tour.metrics() {n}x{n} closed",
            took,
            check,
            unit="s",
            baseline_name="validation of the tour",
            target=10.0 if n >= 10000 else None,
            note=f"{took * 1e9 / (n * n):.1f} ns a square",
        )
        del tour, idx


if __name__ == "__main__":
    main()
