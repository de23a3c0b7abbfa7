"""The tour library: distinct 8x8 tours generated and stored per second, and exporting a library of
1,000,000 tours in constant memory.

Targets: at least 20,000 distinct 8x8 tours a second on this 2-core machine (aim 100,000; the 1980
program made 64 in 9.6 s, 6.7 a second); export streams, so its peak memory is the same for
1,000,000 tours as for 100,000.

Figures: tours a second generated and stored with workers on every core (the 1,000,000-tour
library the export then reads), with one worker, and for closed tours; bytes of file per tour;
export time and peak RSS (measured by the kernel for the exporting process alone) at 100,000 and
1,000,000 tours; import rate.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from knightstour.generate import _cores, generate
from knightstour.library import Library

BIG = 1_000_000
SMALL = 100_000
CLASSIC = 64 / 9.6  # the 1980 program's tours a second


def gen(path: Path, count: int, **kw: object) -> float:
    r = generate("8x8", count, db=path, progress=False, **kw)
    assert r.added == count
    return r.rate


def child_peak(argv: list[str], stdout: object = subprocess.DEVNULL) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of a child process, from its own rusage."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    assert p.returncode == 0, f"{argv} exited {p.returncode}"
    return time.perf_counter() - t0, usage.ru_maxrss / 1024


def main() -> None:
    cli = [sys.executable, "-m", "knightstour"]
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.db", Path(tmp) / "small.db"
        cores = _cores()
        gen(Path(tmp) / "warm.db", 1000, workers=1)  # compile (or load) the kernels once
        rate = gen(big, BIG, workers=cores)
        print(
            f"generate 8x8 open, {BIG:,} tours, {cores} workers: {rate:,.0f} distinct tours/s "
            f"(target >= 20,000; {rate / CLASSIC:,.0f}x the 1980 program's 6.7/s)"
        )
        rate1 = gen(small, SMALL, workers=1)
        print(f"generate 8x8 open, {SMALL:,} tours, 1 worker: {rate1:,.0f} distinct tours/s")
        rate_c = gen(Path(tmp) / "closed.db", SMALL, workers=cores, closed=True)
        print(f"generate 8x8 closed, {SMALL:,} tours, {cores} workers: {rate_c:,.0f} tours/s")
        with Library(big) as lib:
            lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = big.stat().st_size
        print(f"library file: {size / BIG:.0f} bytes per 8x8 tour ({size / 2**20:,.0f} MiB)")

        for path, n in ((small, SMALL), (big, BIG)):
            secs, peak = child_peak([*cli, "library", "export", "--db", str(path)])
            print(
                f"export jsonl, {n:,} tours: {secs:.1f} s ({n / secs:,.0f} tours/s), "
                f"peak RSS {peak:.0f} MiB"
            )
        out = Path(tmp) / "small.jsonl"
        with open(out, "w") as f:
            child_peak([*cli, "library", "export", "--db", str(small)], stdout=f)
        secs, peak = child_peak(
            [*cli, "library", "import", str(out), "--db", str(Path(tmp) / "i.db")]
        )
        print(
            f"import jsonl, {SMALL:,} tours: {secs:.1f} s ({SMALL / secs:,.0f} tours/s), "
            f"peak RSS {peak:.0f} MiB"
        )


if __name__ == "__main__":
    main()
