"""How big the general semi-magic search of 8x8 is: its speed on one core, and Knuth's estimate.

Two figures for the census's general search (the two-ended walk of the numbered ranges,
:mod:`knightstour.magic.search`):

- nodes a second on one core: the parts of a range walked one after another on this thread, for
  a given number of seconds (``Walker.run`` with a node budget);
- Knuth's Monte-Carlo estimate of the whole tree: for every range, random probes down its walk
  (``Walker.probe``), their mean the estimate of the range's nodes; the sum over the ranges is
  the whole search's, with its standard error.

    PYTHONPATH=src python -m research.census_size [--seconds S] [--probes P] [--seed N]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time


def speed(seconds: float) -> tuple[int, float]:
    """Nodes walked and seconds spent walking the parts of range 1, one after another, on this
    one thread (the first call compiles: it is made before the clock starts)."""
    import numpy as np

    from knightstour.magic.search import Walker, ranges

    walker = Walker(8, 8)
    rng = ranges(8, 8)[0]
    prefixes = walker.parts(rng)
    walker.run(rng, 0, prefixes[0], budget=1000)  # compiled and warm
    nodes, spent, part = 0, 0.0, 0
    stop = np.zeros(1, np.uint8)
    while spent < seconds and part < len(prefixes):
        t0 = time.perf_counter()
        r = walker.run(rng, part, prefixes[part], stop, budget=2_000_000)
        spent += time.perf_counter() - t0
        nodes += r.nodes
        part += 1
    return nodes, spent


def estimate(probes: int, seed: int) -> list[tuple[int, float, float]]:
    """For every range of 8x8: (its number, Knuth's estimate of its nodes, the estimate's
    standard error), from ``probes`` probes each."""
    from knightstour.magic.search import Walker, ranges

    walker = Walker(8, 8)
    generator = random.Random(seed)
    out = []
    for rng in ranges(8, 8):
        xs = [walker.probe(rng, generator) for _ in range(probes)]
        mean = sum(xs) / len(xs)
        var = sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1)
        out.append((rng.number, mean, math.sqrt(var / len(xs))))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--probes", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    nodes, spent = speed(a.seconds)
    rate = nodes / spent
    print(f"one core: {nodes:,} nodes in {spent:.1f} s, {rate / 1e6:.2f} M nodes/s", flush=True)
    t0 = time.perf_counter()
    rows = estimate(a.probes, a.seed)
    total = sum(m for _, m, _ in rows)
    err = math.sqrt(sum(e * e for _, _, e in rows))
    top = sorted(rows, key=lambda r: -r[1])[:5]
    print(f"Knuth's estimate, {a.probes} probes a range, 136 ranges "
          f"({time.perf_counter() - t0:.0f} s): {total:.3g} nodes (standard error {err:.2g}); "
          f"the largest ranges: " + ", ".join(f"{n}: {m:.2g}" for n, m, _ in top))  # fmt: skip
    print(f"at {rate / 1e6:.2f} M nodes/s on one core: {total / rate / 86400:,.0f} core-days, "
          f"{total / rate / 86400 / 2:,.0f} days on both cores")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
