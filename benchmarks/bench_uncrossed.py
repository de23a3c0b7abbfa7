"""The longest uncrossed knight's path and cycle (issue 33, items 3 and 4): seconds of the exact
max-plus frontier sweep (``longest_uncrossed``), its largest state set and the memory its tables
held at the peak, on square boards.

The baseline is the same sweep without branch and bound (no first length to beat, no bound on
what the rest of the board can add), measured here too, except on 8x8 open (nine minutes and
2.6 GiB without the bound: docs/geometry.md has the table, and the figures of the first version,
which kept a bit per live decided move: 8x8 closed 534 s, 8x8 open out of memory). Target (the
issue's): 8x8 open and closed in seconds. Each length is checked against the published one
(OEIS A003192, A157416). The kernels are loaded (compiled, from the cache) before the clock
starts.
"""

from __future__ import annotations

import time

from _report import figure

CASES = (
    ("6x6", False, True),
    ("6x6", True, True),
    ("7x7", False, True),
    ("7x7", True, True),
    ("8x8", True, True),
    ("8x8", False, False),
)


def main() -> None:
    from knightstour import published
    from knightstour.counting import uncrossed

    uncrossed.longest_uncrossed("4x4")  # load the kernels
    want = {(f.spec, f.closed): f.length for f in published.longest_uncrossed()}
    for spec, closed, plain in CASES:
        t0 = time.perf_counter()
        best = uncrossed.longest_uncrossed(spec, closed=closed)
        took = time.perf_counter() - t0
        assert best.length == want[(spec, closed)], (spec, closed, best.length)
        baseline = None
        if plain:
            p = uncrossed.plan(spec)
            t0 = time.perf_counter()
            run = uncrossed._run(p, closed)  # every state, no bound
            baseline = time.perf_counter() - t0
            assert run.best[0] == best.length
            plain_note = f"; without the bound {max(run.states):,} at most a step"
        else:
            plain_note = ""
        kind = "closed" if closed else "open"
        note = (
            f"{best.length} moves; at most {max(best.states):,} states a step, "
            f"{sum(best.states):,} in all; tables {best.peak_bytes / 2**20:,.0f} MiB at "
            f"the peak{plain_note}"
        )
        figure(
            "uncrossed",
            f"longest uncrossed {kind} {spec}",
            took,
            baseline,
            unit="s",
            baseline_name="the sweep without branch and bound",
            note=note,
        )
        print(f"    {note}", flush=True)


if __name__ == "__main__":
    main()
