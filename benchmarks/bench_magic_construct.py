"""Constructions of semi-magic (and magic) tours: wall time of ``construct()`` per size and seed.

    python benchmarks/bench_magic_construct.py [SEEDS]    # default 5

Each size is built with seeds 0 .. SEEDS-1 after one warm-up call (the lookup tables), and every
result is checked with :func:`knightstour.numbering.analyse`. Sizes the construction does not
cover are reported with :func:`constructible`'s reason instead of a time.
"""

from __future__ import annotations

import statistics
import sys
import time

from knightstour.magic.construct import construct, constructible
from knightstour.numbering import analyse

CASES = (
    (12, 12, False),
    (8, 12, False),
    (16, 16, False),
    (100, 96, False),
    (400, 400, False),
    (28, 28, False),
    (100, 100, False),
    (20, 20, False),
    (12, 20, False),
    (20, 12, False),
    (12, 28, False),
    (12, 100, False),
    (12, 12, True),
)


def main(seeds: int) -> None:
    t0 = time.perf_counter()
    construct(16, 16)  # warm-up: the cycle tables and the folded construction's units
    print(f"  first call (16x16, tables included): {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    construct(28, 28)  # the crossed construction's excursion units
    print(
        f"  first crossed call (28x28, excursion units included): {time.perf_counter() - t0:.2f} s"
    )
    for width, height, diagonal in CASES:
        what = f"{width}x{height}{' magic' if diagonal else ''}"
        reason = constructible(width, height, diagonal)
        if reason is not None:
            print(f"  {what}: refused: {reason}")
            continue
        times, verdicts = [], set()
        for seed in range(seeds):
            t0 = time.perf_counter()
            order = construct(width, height, diagonal=diagonal, seed=seed)
            times.append(time.perf_counter() - t0)
            verdicts.add(analyse(width, height, order.tolist()).verdict)
        print(
            f"  {what}: {seeds} seeds, median {statistics.median(times):.3f} s, "
            f"best {min(times):.3f} s, worst {max(times):.3f} s; {', '.join(sorted(verdicts))}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
