"""The longest uncrossed knight's path and cycle (issue 33, items 3 and 4): seconds of the exact
max-plus frontier sweep (``longest_uncrossed``), its largest state set and the memory its tables
held at the peak, on square boards.

Target (the issue's): 8x8 open and closed in seconds. Not met: the sweep's state sets grow about
thirtyfold a rank of width (6x6 open: 0.4 million states at the widest step, 7x7 open: 12
million), so the cases here are those that end within minutes on this machine; docs/geometry.md
has the table. Each length is checked against the published one (OEIS A003192, A157416). The
kernels are loaded (compiled, from the cache) before the clock starts.
"""

from __future__ import annotations

import time

from _report import figure

CASES = (("6x6", False), ("6x6", True), ("7x7", True))


def main() -> None:
    from knightstour import published
    from knightstour.counting.uncrossed import longest_uncrossed

    longest_uncrossed("4x4")  # load the kernels
    want = {(f.spec, f.closed): f.length for f in published.longest_uncrossed()}
    for spec, closed in CASES:
        t0 = time.perf_counter()
        best = longest_uncrossed(spec, closed=closed)
        took = time.perf_counter() - t0
        assert best.length == want[(spec, closed)], (spec, closed, best.length)
        kind = "closed" if closed else "open"
        figure(
            "uncrossed",
            f"longest uncrossed {kind} {spec}",
            took,
            None,
            unit="s",
            baseline_name="a baseline",
            note=(
                f"{best.length} moves; at most {max(best.states):,} states a step, "
                f"{sum(best.states):,} in all; tables {best.peak_bytes / 2**20:,.0f} MiB at the peak"
            ),
        )


if __name__ == "__main__":
    main()
