"""Run the benchmarks: every ``benchmarks/bench_*.py`` in turn, or the ones named.

    python benchmarks/run.py            # all
    python benchmarks/run.py warnsdorff # bench_warnsdorff.py only
    python benchmarks/run.py roth       # bench_roth.py: where Roth's rule gets stuck, n <= 450

Each benchmark file is a script with a ``main()`` that prints one line per figure. They run in
separate processes so that one's memory or compiled code does not colour another's figures.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    files = sorted(HERE.glob("bench_*.py"))
    if names:
        files = [f for f in files if f.stem.removeprefix("bench_") in names]
        if not files:
            print(f"no benchmark named {', '.join(names)}", file=sys.stderr)
            return 2
    failed = 0
    for f in files:
        print(f"== {f.stem.removeprefix('bench_')}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, str(f)], cwd=HERE.parent)
        print(
            f"   ({time.perf_counter() - t0:.1f} s{'' if rc == 0 else f', exit {rc}'})", flush=True
        )
        failed += rc != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
