"""Run one longest-uncrossed sweep with a line of log a step: time, step, resident memory.

    python -m research.uncrossed_log 9x9 [--closed] > LOG

For the long runs behind docs/geometry.md (9x9 open): the command's own progress bar shows
only on a terminal, and does not show the memory.
"""

from __future__ import annotations

import os
import sys
import time


def _rss_gib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**30


def main() -> None:
    from knightstour.counting.uncrossed import longest_uncrossed

    spec, closed = sys.argv[1], "--closed" in sys.argv
    began = time.perf_counter()

    def progress(done: int, total: int) -> None:
        t = time.perf_counter() - began
        print(f"{t:9.1f} s  step {done}/{total}  {_rss_gib():6.2f} GiB", flush=True)

    best = longest_uncrossed(spec, closed=closed, progress=progress)
    print(
        f"length {best.length} in {best.seconds:.1f} s; peak tables {best.peak_bytes / 2**30:.2f} GiB;"
        f" most states a step {max(best.states):,}; all {sum(best.states):,}",
        flush=True,
    )
    print(" ".join(best.path_names), flush=True)


if __name__ == "__main__":
    main()
