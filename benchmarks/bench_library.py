"""The tour library: distinct 8x8 tours generated and stored per second, and exporting a library of
1,000,000 tours in constant memory.

Targets: at least 250,000 distinct 8x8 tours a second stored on 2 workers from a warm start (issue
16; the 1980 program made 64 in 9.6 s, 6.7 a second); export streams at least 500,000 tours a
second as JSON lines, and its peak memory is the same for 1,000,000 tours as for 100,000. Each
rate is reported against its target as the baseline (``_report.figure``).

Figures: tours a second generated and stored with workers on every core (the 1,000,000-tour
library the export then reads), with the CPU time a tour costs the storing process and the
workers (on a machine shared with other work, the CPU times say what the cores would give
alone); with one worker, and for closed tours; bytes of file per tour; export time and peak RSS
(the exporting process's own high-water mark, VmHWM) at 100,000 and 1,000,000 tours, the
1,000,000 export run three times (median); import rate. The load average before each figure
is printed with it.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import figure

from knightstour.library import Library
from knightstour.library.generate import _cores, generate

BIG = 1_000_000
SMALL = 100_000
CLASSIC = 64 / 9.6  # the 1980 program's tours a second


def gen(path: Path, count: int, **kw: object) -> tuple[float, float, float]:
    """(tours a second, CPU microseconds a tour in this process, and in the workers)."""
    s0, c0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    r = generate("8x8", count, db=path, **kw)
    s1, c1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.added == count

    def cpu(a: resource.struct_rusage, b: resource.struct_rusage) -> float:
        return (b.ru_utime - a.ru_utime + b.ru_stime - a.ru_stime) / count * 1e6

    return r.rate, cpu(s0, s1), cpu(c0, c1)


#: Runs the command line in a child and reports its peak RSS from /proc (VmHWM): the child's own
#: memory, not the parent's that rusage's ru_maxrss carries across fork and exec.
_PEAK = (
    "import sys; from knightstour.cli import main; rc = main(sys.argv[1:]); "
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]; "
    "print('VmHWM', hwm, file=sys.stderr); sys.exit(rc)"
)


def child_peak(argv: list[str], stdout: object = subprocess.DEVNULL) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of ``knightstour ARGV`` run in a child process."""
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-c", _PEAK, *argv], stdout=stdout, stderr=subprocess.PIPE, text=True
    )
    secs = time.perf_counter() - t0
    assert r.returncode == 0, f"{argv} exited {r.returncode}: {r.stderr}"
    kib = int(r.stderr.split("VmHWM")[-1].split()[0])
    return secs, kib / 1024


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.db", Path(tmp) / "small.db"
        cores = _cores()
        gen(Path(tmp) / "warm.db", 1000, workers=1)  # compile (or load) the kernels once
        load = os.getloadavg()[0]
        rate, main_us, work_us = gen(big, BIG, workers=cores)
        print(
            f"generate 8x8 open, {BIG:,} tours, {cores} workers: {rate:,.0f} distinct tours/s "
            f"({rate / CLASSIC:,.0f}x the 1980 program's 6.7/s)"
        )
        figure(
            "library",
            f"generate 8x8 open and store, {BIG:,} tours, {cores} workers",
            rate,
            250_000,
            unit="tours/s",
            baseline_name="target",
            target=1.0,
            better="higher",
            note=f"load average {load:.1f} before the run",
        )
        # the workers are this process's children, reaped at the end of the run: their CPU
        # time is in RUSAGE_CHILDREN
        print(
            f"  CPU a tour: {main_us:.1f} us in this process (storing, and making batches until "
            f"the workers are up), {work_us:.1f} us in the workers; 2 cores alone would give "
            f"about {2e6 / (main_us + work_us):,.0f} tours/s (load average before the run "
            f"{load:.1f})"
        )
        rate1, _, _ = gen(small, SMALL, workers=1)
        print(f"generate 8x8 open, {SMALL:,} tours, 1 worker: {rate1:,.0f} distinct tours/s")
        rate_c, _, _ = gen(Path(tmp) / "closed.db", SMALL, workers=cores, closed=True)
        print(f"generate 8x8 closed, {SMALL:,} tours, {cores} workers: {rate_c:,.0f} tours/s")
        with Library(big) as lib:
            lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = big.stat().st_size
        print(f"library file: {size / BIG:.0f} bytes per 8x8 tour ({size / 2**20:,.0f} MiB)")

        for path, n in ((small, SMALL), (big, BIG)):
            load = os.getloadavg()[0]
            runs = [
                child_peak(["library", "export", "--db", str(path)])
                for _ in range(3 if n == BIG else 1)
            ]
            secs = statistics.median(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            print(
                f"export jsonl, {n:,} tours: {secs:.2f} s ({n / secs:,.0f} tours/s; runs "
                f"{', '.join(f'{r[0]:.2f}' for r in runs)} s), peak RSS {peak:.0f} MiB "
                f"(load average before {load:.1f})"
            )
            if n == BIG:
                figure(
                    "library",
                    f"export jsonl, {n:,} tours, command line (start-up included), median of 3",
                    n / secs,
                    500_000,
                    unit="tours/s",
                    baseline_name="target",
                    target=1.0,
                    better="higher",
                    note=f"peak RSS {peak:.0f} MiB, load average {load:.1f} before",
                )
        out = Path(tmp) / "small.jsonl"
        with open(out, "w") as f:
            child_peak(["library", "export", "--db", str(small)], stdout=f)
        secs, peak = child_peak(["library", "import", str(out), "--db", str(Path(tmp) / "i.db")])
        print(
            f"import jsonl, {SMALL:,} tours: {secs:.1f} s ({SMALL / secs:,.0f} tours/s), "
            f"peak RSS {peak:.0f} MiB"
        )


if __name__ == "__main__":
    main()
