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

    python benchmarks/bench_uncrossed.py --wide [LIMIT]   # the first lines of 7x7 to 11x11
    python benchmarks/bench_uncrossed.py --nine           # every square board to 9x9, timed
    python benchmarks/bench_uncrossed.py --one 10x10 --closed   # one board, checked the same way

``--wide`` sweeps the first lines of the square boards 7x7 to 11x11 (every state, no bound: in
the first half of a board the bound cuts next to nothing) until a line's step holds more than
LIMIT states (default 1,000,000), and prints the most states a step of each line and the growth
from line to line: the figures docs/geometry.md extrapolates 10x10 and 11x11 from (as
bench_count.py --eight does for the count). Not part of ``run.py``.

``--nine`` runs every square board from 1x1 to 9x9, paths and cycles, one after the other in
this process (9x9 open, the longest, about a quarter of an hour here), checks each length against
the published one and each path by its own plain code (a knight's path of distinct squares, no
two moves crossing), and prints each board's seconds, states and the process's peak resident
memory, then the total: the issue's target is every square board up to 9x9 within an hour in
all. ``--one BOARD [--closed]`` runs one board the same way (10x10 closed: the published
A157416(10)). Neither is part of ``run.py``.
"""

from __future__ import annotations

import itertools
import sys
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


def wide(limit: int) -> None:
    """The most states a step of each of the first lines, every state kept, 7x7 to 11x11."""
    from knightstour.counting import uncrossed

    uncrossed.longest_uncrossed("4x4")  # load the kernels
    for w in range(7, 12):
        for closed in (True, False):
            p = uncrossed.plan(f"{w}x{w}")
            t0 = time.perf_counter()
            last = w
            while True:
                run = uncrossed._run(p, closed, last=last)  # every state of the first lines
                if max(run.states) > limit or last >= len(p.order) // 2:
                    break
                last += w
            seconds = time.perf_counter() - t0
            rows = [max(run.states[i * w : (i + 1) * w]) for i in range(len(run.states) // w)]
            growth = [round(b / a, 1) for a, b in itertools.pairwise(rows) if a]
            kind = "closed" if closed else "open"
            print(
                f"{w}x{w} {kind}: {4 * p.frontier + p.pending} bits a state; most states a step "
                f"of lines 1..{len(rows)}: {rows}, growth {growth}; tables "
                f"{run.peak / 2**20:,.0f} MiB at the peak; {seconds:.1f} s",
                flush=True,
            )


def _plain_check(w: int, h: int, closed: bool, path: list[tuple[int, int]], length: int) -> None:
    """A knight's path (or cycle) of distinct squares on w x h with ``length`` moves, no two of
    them crossing (two segments cross when each one's ends lie strictly on either side of the
    other's line: knight's moves never touch end to side), by plain integer arithmetic."""
    assert len(set(path)) == len(path) and all(0 <= x < w and 0 <= y < h for x, y in path)
    moves = list(itertools.pairwise(path)) + ([(path[-1], path[0])] if closed else [])
    assert len(moves) == length
    assert all({abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2} for a, b in moves)

    def side(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 0) - (v < 0)

    for (a, b), (c, d) in itertools.combinations(moves, 2):
        if {a, b} & {c, d}:
            continue
        crossing = side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0
        assert not crossing, (a, b, c, d)


def nine() -> None:
    """Every square board 1x1 to 9x9, paths and cycles: seconds, states, memory; the total."""
    total = sum(one(f"{n}x{n}", closed) for n in range(1, 10) for closed in (True, False))
    print(f"every square board up to 9x9, both kinds: {total:.0f} s in all", flush=True)


def one(spec: str, closed: bool) -> float:
    """One board: its length checked against the published one (when there is one) and its path
    by plain code; prints seconds, states and the process's peak memory; returns the seconds."""
    import resource

    from knightstour import published
    from knightstour.counting import uncrossed

    uncrossed.longest_uncrossed("4x4")  # load the kernels
    want = {(f.spec, f.closed): f.length for f in published.longest_uncrossed()}
    t0 = time.perf_counter()
    best = uncrossed.longest_uncrossed(spec, closed=closed)
    took = time.perf_counter() - t0
    published_length = want.get((spec, closed))
    got = best.length or 0
    if published_length is not None or got == 0:
        assert got == (published_length or 0), (spec, closed, best.length, published_length)
    if best.path:
        b = best.board
        _plain_check(b.width, b.height, closed, [b.xy(s) for s in best.path], got)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    kind = "closed" if closed else "open"
    print(
        f"{spec} {kind}: {got} moves (published {published_length}) in {took:.1f} s; "
        f"at most {max(best.states, default=0):,} states a step, "
        f"{sum(best.states):,} in all; peak resident {peak:.2f} GiB",
        flush=True,
    )
    if len(best.path) > 1 and best.board.area > 81:
        print("path: " + " ".join(best.path_names), flush=True)
    return took


if __name__ == "__main__":
    if sys.argv[1:2] == ["--nine"]:
        nine()
    elif sys.argv[1:2] == ["--one"]:
        one(sys.argv[2], "--closed" in sys.argv[3:])
    elif sys.argv[1:2] == ["--wide"]:
        wide(int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)
    else:
        main()
