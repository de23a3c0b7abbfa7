"""Wall time of whole commands and time limits: what a user waits for (issue 11, items 13, 16, 17).

Figures (the kernels warmed into Numba's cache first, as ``pip install`` + ``knightstour warm``
leave them; each command a fresh process, best of three):

- small exact searches, whole ``knightstour`` processes: ``solve 10x3 --closed``,
  ``solve 8x8 --start a1 --method backtrack --closed``, ``solve 6x6 --method backtrack``.
  Target: under 0.5 s wall each (they took 1.8-3.2 s). They run interpreted: no Numba import.
- an end square alone: ``solve 100x100 --end a1`` against ``--start a1``. Target: under 0.5 s
  and within 0.2 s of ``--start a1`` (it took 7.7 s: it is now a reversed search from a1).
- time limits on big boards, in one process: Warnsdorff 5000x5000, divide 12000x12000 and
  3x20000000 at 0.2 s, 1 s and 3 s. Target: ``solve()`` returns (a tour or "gave up") within
  10% + 50 ms of the limit (it took 1.53 s and 1.45 s at 0.2 s).

Exit status 1 if a target is missed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import knightstour as kt

EXE = str(Path(sys.executable).with_name("knightstour"))
SMALL = [
    "solve 10x3 --closed",
    "solve 8x8 --start a1 --method backtrack --closed",
    "solve 6x6 --method backtrack",
]
LIMITS = [
    ("5000x5000", "warnsdorff"),
    ("12000x12000", "divide"),
    ("3x20000000", "divide"),
]


def wall(command: str, runs: int = 3) -> float:
    """Best wall time of ``knightstour command`` in a fresh process."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([EXE, *command.split()], capture_output=True, check=False)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    subprocess.run([EXE, "warm"], capture_output=True, check=False)
    missed = 0
    for command in SMALL:
        t = wall(command)
        ok = t < 0.5
        missed += not ok
        print(f"{command:55s} {t:6.3f} s wall  {'ok' if ok else 'MISSED (< 0.5 s)'}")
    end, start = wall("solve 100x100 --end a1"), wall("solve 100x100 --start a1")
    ok = end < 0.5 and end - start < 0.2
    missed += not ok
    print(
        f"{'solve 100x100 --end a1 (--start a1)':55s} {end:6.3f} s ({start:.3f})  {'ok' if ok else 'MISSED'}"
    )
    kt.solve("400x400", start="a1", method="warnsdorff")  # load the compiled kernels
    kt.solve("400x400", method="divide")
    kt.solve("3x40000", method="divide")
    for limit in (0.2, 1.0, 3.0):
        for spec, method in LIMITS:
            t0 = time.perf_counter()
            try:
                answer = (
                    f"tour ({kt.solve(spec, start='a1', method=method, time_limit=limit).method})"
                )
            except kt.SearchFailedError as err:
                answer = f"gave up: {str(err)[:50]}"
            t = time.perf_counter() - t0
            ok = t <= 1.1 * limit + 0.05
            missed += not ok
            print(
                f"{method} {spec} time_limit={limit:g}: {t:6.3f} s  {'ok' if ok else 'MISSED'}  {answer}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
