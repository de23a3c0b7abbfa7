"""Warnsdorff's rule: ns per square for each tie-break at 8, 100, 1000 and 3000, against the C
reference (../shared/bench/warnsdorff_ref.c, Roth's centre rule) in the same run, and the CLI's
start-up time for ``knightstour solve 8x8``.

Targets: Warnsdorff <= 60 ns per square at 1000x1000; ``knightstour solve 8x8`` under 0.3 s wall.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from knightstour.board import Board
from knightstour.solvers import _kernels
from knightstour.solvers.warnsdorff import TIEBREAKS, Walker, _schedule

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT.parent / "shared" / "bench" / "warnsdorff_ref.c"
SIZES = (8, 100, 1000, 3000)


def best_of(fn, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench_python(n: int, tiebreak: str) -> tuple[float, int]:
    """Best ns per square of one walk (compiled kernel, grid set-up included)."""
    board = Board(n, n)
    _kernels.COMPILE_THRESHOLD = 0  # always the compiled kernel: this measures the hot loop
    reps = 2000 if n <= 8 else 50 if n <= 100 else 5 if n <= 1000 else 2
    try:
        schedule = _schedule(board, 0, tiebreak)
    except Exception as e:  # a tie-break that does not apply
        print(f"   {tiebreak:>9} {n:>5}: n/a ({e})")
        return float("nan"), 0
    visited = 0

    def run() -> None:
        nonlocal visited
        w = Walker(board)
        visited = int(w.walk(0, tiebreak=tiebreak, seed=1, schedule=schedule).size)

    run()  # compile / load from cache
    t = best_of(run, reps)
    return t * 1e9 / max(visited, 1), visited


def bench_ref(n: int) -> tuple[float, str] | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if not REF.exists() or not cc:
        return None
    exe = Path(tempfile.mkdtemp()) / "warnsdorff_ref"
    subprocess.run([cc, "-O2", "-o", str(exe), str(REF)], check=True)
    reps = "2000" if n <= 8 else "50" if n <= 100 else "5" if n <= 1000 else "2"
    out = subprocess.run([str(exe), str(n), reps], capture_output=True, text=True).stdout
    ns = float(out.split()[-2])
    return ns, out.split("visited=")[1].split()[0]


def cli_startup() -> float:
    exe = Path(sys.executable).parent / "knightstour"
    cmd = (
        [str(exe), "solve", "8x8"]
        if exe.exists()
        else [sys.executable, "-m", "knightstour", "solve", "8x8"]
    )
    subprocess.run(cmd, capture_output=True, check=True)
    return best_of(lambda: subprocess.run(cmd, capture_output=True, check=True), 7)


def main() -> None:
    for n in SIZES:
        ref = bench_ref(n)
        line = f"  {n}x{n}:"
        if ref:
            print(
                f"{line} C reference (center) {ref[0]:7.1f} ns/square, visited {ref[1]} of {n * n}"
            )
        for tb in TIEBREAKS:
            ns, visited = bench_python(n, tb)
            if visited:
                if visited == n * n:
                    ratio = f"  {ns / ref[0]:.2f}x C" if ref else ""
                    print(f"      {tb:>9} {ns:7.1f} ns/square{ratio}  (tour)")
                else:  # set-up costs spread over few squares: a time says more than a rate
                    ms = ns * visited / 1e6
                    print(f"      {tb:>9} stuck after {visited:,} squares, {ms:.1f} ms")
    t = cli_startup()
    print(f"  CLI `knightstour solve 8x8`: {t:.3f} s wall (best of 7; target < 0.3 s)")


if __name__ == "__main__":
    main()
