"""Divide and conquer on huge boards: in process through ``kt.solve``, and through the CLI.

Issue 16, item 2: ``kt.solve("10000x10000", closed=True, method="divide")`` (validation included)
at most 4 ns a square using both cores, peak memory at most 1.5x the output array (4 bytes a
square). Measured in the same run against (a) writing a fresh int32 array of the same size
(``np.arange``: the memory bandwidth and page faults that bound any construction) and (b) the same
construction on one core (``divide.PARALLEL_SQUARES`` raised), the runs interleaved, medians of
:data:`INPROC_ROUNDS`. Peak memory: a child process's peak RSS less that of the same child solving
a small board first (the interpreter, NumPy and the kernels), against the output array.

Moonshot (``--moonshot``): 30000 x 30000 closed written into a memory-mapped ``.npy`` file by
``divide.divide_to_npy``, in validated pieces, never holding the whole tour (target under
10 s).

Then (issue "Huge boards"): ``knightstour solve 10000x10000 --closed --method divide --format npy
--output FILE`` (10^8 squares, the whole run: start-up, construction, validation, writing the
.npy) against ../shared/bench/warnsdorff_ref.c on 10000 (gcc -O2; it gets stuck there anyway),
measured in the same run, with peak memory <= 2 GiB; and the thin and odd boards 3 x 20000 and 4 x
30000 open, 9999 x 9999 open from e5, 1001 x 2000 closed.

Each CLI command runs in its own process; wall time and peak RSS come from ``os.wait4``. This
machine hands freed memory back to its host, and touching such memory again is slow and erratic,
so before every timed run a child process touches 2 GiB and exits, for both programs alike. The
two programs alternate, ROUNDS times; the best and the median of each are reported.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

try:
    from _report import figure
except ImportError:  # pragma: no cover - run on its own, without benchmarks/_report.py

    def figure(bench, what, value, baseline, *, unit, baseline_name, target=None, **_):  # type: ignore[no-untyped-def]
        ratio = f", ratio {value / baseline:.2f}" if baseline else ""
        print(f"  {what}: {value:.3g} {unit} vs {baseline_name} {baseline}{ratio}", flush=True)
        return None


ROOT = Path(__file__).resolve().parent.parent
REF = ROOT.parent / "shared" / "bench" / "warnsdorff_ref.c"
ROUNDS = 3
INPROC_ROUNDS = 5
SIDE = 10_000
EXE = Path(sys.executable).parent / "knightstour"
CLI = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "knightstour"]


def run(cmd: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS in MiB, exit code and the first output line of ``cmd``."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    out = p.stdout.read() if p.stdout else ""
    p.stdout and p.stdout.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, p.returncode, (out.strip().splitlines() or [""])[0]


def warm_memory() -> None:
    subprocess.run([sys.executable, "-c", "import numpy; numpy.ones(2**28)"], check=True)


def check_npy(path: Path, w: int, h: int, closed: bool, start: int = 0) -> str:
    """Check the tour in a child process, so that this one stays small (a child's peak memory
    counts what it inherits before it runs its program)."""
    args = [str(path), str(w), str(h), str(int(closed)), str(start)]
    r = subprocess.run([sys.executable, __file__, "--check", *args], capture_output=True)
    return r.stdout.decode().strip() or f"check failed: {r.stderr.decode()[-200:]}"


def _check(path: Path, w: int, h: int, closed: bool, start: int) -> str:
    p = np.load(path, mmap_mode="r")
    ok = p.dtype == np.int32 and p.size == w * h and int(p[0]) == start
    seen = np.zeros(w * h, dtype=bool)
    for i in range(0, p.size, 1 << 22):
        c = np.asarray(p[max(0, i - 1) : i + (1 << 22)], dtype=np.int64)
        seen[c] = True
        dx, dy = np.abs(np.diff(c % w)), np.abs(np.diff(c // w))
        ok &= bool(np.all(((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1))))
    ok &= bool(seen.all())
    if closed:
        a, b = int(p[-1]), int(p[0])
        ok &= sorted((abs(a % w - b % w), abs(a // w - b // w))) == [1, 2]
    return "valid tour" if ok else "NOT A TOUR"


def parallel_efficiency() -> float:
    """How much of two cores two threads get right now: the same compiled loop (divide's piece
    check) once alone, then twice at once on two threads; 1.0 means two free cores, 0.5 one."""
    import threading

    from knightstour.kernels import divide as _divide_kernels
    from knightstour.kernels import jit

    k = jit.load(_divide_kernels, compiled=True)
    n = 1 << 25
    piece = np.arange(n, dtype=np.int32)
    dxv = np.zeros(4 * 1000 + 5, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8)
    seen = [np.zeros(n, dtype=np.uint8) for _ in range(2)]
    k.check_piece(piece, 0, 1000, -1, 1000, dxv, seen[0], stop)
    ones, twos = [], []
    for _ in range(3):  # the best of three of each
        t0 = time.perf_counter()
        k.check_piece(piece, 0, n, -1, 1000, dxv, seen[0], stop)
        ones.append(time.perf_counter() - t0)
        threads = [
            threading.Thread(target=k.check_piece, args=(piece, 0, n, -1, 1000, dxv, seen[i], stop))
            for i in range(2)
        ]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        twos.append(time.perf_counter() - t0)
    return min(ones) / min(twos)


def in_process() -> None:
    """The item-2 figures: ns a square through kt.solve on two cores, one core, and the memory."""
    n = SIDE * SIDE
    spec = f"{SIDE}x{SIDE}"
    # first, while this process is small (a child's peak RSS counts what it inherits before it
    # runs its program): the peak memory of the whole solve in a child, less its start-up
    start_up = "import knightstour as kt; kt.solve('1100x1100', closed=True, method='divide')"
    base = run([sys.executable, "-c", start_up])[1]
    peak = run(
        [sys.executable, "-c", f"{start_up}; kt.solve('{spec}', closed=True, method='divide')"]
    )[1]
    out_mib = 4 * n / 2**20
    figure(
        "divide",
        f"peak memory of closed {spec} via kt.solve (less start-up)",
        peak - base,
        out_mib,
        unit="MiB",
        baseline_name="the output array",
        target=1.5,
    )

    import knightstour as kt
    from knightstour.solvers import divide as D

    kt.solve("1100x1100", closed=True, method="divide")  # kernels loaded, both code paths
    both = D.PARALLEL_SQUARES

    cpu: list[float] = []

    def two() -> float:
        D.PARALLEL_SQUARES = both
        t0, c0 = time.perf_counter(), time.process_time()
        tour = kt.solve(spec, closed=True, method="divide")
        t = time.perf_counter() - t0
        cpu.append(time.process_time() - c0)
        assert tour.closed and len(tour) == n
        return t

    def one() -> float:
        D.PARALLEL_SQUARES = 1 << 62
        try:
            t0 = time.perf_counter()
            kt.solve(spec, closed=True, method="divide")
            return time.perf_counter() - t0
        finally:
            D.PARALLEL_SQUARES = both

    def memory() -> float:
        t0 = time.perf_counter()
        a = np.arange(n, dtype=np.int32)
        t = time.perf_counter() - t0
        del a
        return t

    got: dict[str, list[float]] = {"two": [], "one": [], "memory": []}
    for _ in range(INPROC_ROUNDS):
        for name, fn in (("memory", memory), ("two", two), ("one", one)):
            got[name].append(fn())
    med = {k: statistics.median(v) * 1e9 / n for k, v in got.items()}
    figure(
        "divide",
        f"closed {spec} via kt.solve, 2 cores (validation included)",
        med["two"],
        med["memory"],
        unit="ns/square",
        baseline_name="writing a fresh int32 array",
        note="target: at most 4 ns a square",
    )
    figure(
        "divide",
        f"closed {spec} via kt.solve, 2 cores against 1",
        med["two"],
        med["one"],
        unit="ns/square",
        baseline_name="the same on 1 core",
        target=1.0,
    )
    from knightstour.board import Board
    from knightstour.solvers import SolveRequest

    split: dict[str, list[float]] = {"construction": [], "validation": []}
    for _ in range(3):  # where the CPU time goes: the construction, then the validation
        c0 = time.process_time()
        sol = D.divide(SolveRequest(Board(SIDE, SIDE), closed=True))
        c1 = time.process_time()
        kt.Tour(Board(SIDE, SIDE), sol.indices, closed=True)
        split["construction"].append(c1 - c0)
        split["validation"].append(time.process_time() - c1)
        del sol
    print(
        "  CPU time, both cores together: "
        + ", ".join(
            f"{k} {statistics.median(v) * 1e9 / n:.2f} ns a square" for k, v in split.items()
        ),
        flush=True,
    )
    c = statistics.median(cpu) * 1e9 / n
    print(
        f"  parallel efficiency of this machine now: {parallel_efficiency():.2f} "
        f"(1.0: two free cores, 0.5: one core's worth for two threads)",
        flush=True,
    )
    print(
        f"  CPU time of the 2-core solve: {c:.2f} ns a square over both cores (median; on two "
        f"free cores the wall time would be about {c / 2:.2f} ns a square: the wall figures "
        f"above include waiting for a core while other work runs)",
        flush=True,
    )
    print(
        f"  (medians of {INPROC_ROUNDS}; 2 cores {min(got['two']) * 1e9 / n:.2f} ns a square at "
        f"best; target <= 4 ns a square: {'met' if med['two'] <= 4 else 'MISSED'})",
        flush=True,
    )


def moonshot() -> None:
    """30000 x 30000 closed written to a .npy file in pieces (target under 10 s)."""
    side = 30_000
    tmp = Path(tempfile.mkdtemp(prefix="bench_divide_moon_"))
    try:
        path = tmp / "t.npy"
        code = (
            "import knightstour as kt; from knightstour.solvers import divide as D, SolveRequest;"
            " from knightstour.board import Board; import time;"
            " kt.solve('1100x1100', closed=True, method='divide'); t = time.perf_counter();"
            f" D.divide_to_npy(SolveRequest(Board({side}, {side}), closed=True), r'{path}');"
            " print(f'{time.perf_counter() - t:.2f}')"
        )
        warm_memory()
        _, rss, rc, line = run([sys.executable, "-c", code])
        secs = float(line) if rc == 0 else float("nan")
        figure(
            "divide",
            f"moonshot: closed {side}x{side} written to a .npy file in validated pieces",
            secs,
            10.0,
            unit="s",
            baseline_name="the target",
            target=1.0,
            note=f"peak RSS {rss:.0f} MiB; {check_npy(path, side, side, True) if rc == 0 else line}",
        )
        print(f"  peak RSS {rss:.0f} MiB", flush=True)
        path.unlink(missing_ok=True)
        # what a user types: the command line streams divide's tour to the file the same way
        cmd = [*CLI, "solve", f"{side}x{side}", "--closed", "--format", "npy", "--output",
               str(path)]  # fmt: skip
        wall, rss, rc, line = run(cmd)
        figure(
            "divide",
            f"moonshot: knightstour solve {side}x{side} --closed --format npy (start-up included)",
            wall if rc == 0 else float("nan"),
            10.0,
            unit="s",
            baseline_name="the target",
            target=1.0,
            note=f"peak RSS {rss:.0f} MiB; {check_npy(path, side, side, True) if rc == 0 else line}",
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    # the command-line runs first, while this process is small: a child's peak RSS counts what
    # it inherits before it runs its program
    cli_runs()
    in_process()
    if "--moonshot" in sys.argv:
        moonshot()


def cli_runs() -> None:
    """The CLI to .npy against the C Warnsdorff, and the thin and odd boards."""
    tmp = Path(tempfile.mkdtemp(prefix="bench_divide_"))
    try:
        ref = None
        cc = shutil.which("gcc") or shutil.which("cc")
        if REF.exists() and cc:
            ref = tmp / "warnsdorff_ref"
            subprocess.run([cc, "-O2", "-o", str(ref), str(REF)], check=True)
        else:
            print(f"  C reference not found ({REF}) or no C compiler: comparison skipped")
        # compile (or load) the kernels once, so that the timed runs measure the work
        for board, extra in (("300x301", ["--closed"]), ("3x2000", [])):
            subprocess.run(
                [
                    *CLI,
                    "solve",
                    board,
                    *extra,
                    "--method",
                    "divide",
                    "--format",
                    "npy",
                    "--output",
                    str(tmp / "warm.npy"),
                    "--force",
                ],
                check=True,
                capture_output=True,
            )
        out = tmp / "t10000.npy"
        cmd = [
            *CLI,
            "solve",
            "10000x10000",
            "--closed",
            "--method",
            "divide",
            "--format",
            "npy",
            "--output",
            str(out),
            "--force",
        ]
        ours, theirs = [], []
        for _ in range(ROUNDS):
            if ref:
                warm_memory()
                theirs.append(run([str(ref), "10000"]))
            warm_memory()
            ours.append(run(cmd))
            if ours[-1][2] != 0:
                print(f"  knightstour failed: {ours[-1][3]}")
                sys.exit(1)
        best = min(r[0] for r in ours)
        med = statistics.median(r[0] for r in ours)
        rss = max(r[1] for r in ours)
        print(
            f"  10000x10000 closed, CLI to .npy: best {best:.2f} s, median {med:.2f} s, "
            f"peak RSS {rss:.0f} MiB (target <= 2048); {check_npy(out, 10000, 10000, True)}"
        )
        if ref:
            cb = min(r[0] for r in theirs)
            cm = statistics.median(r[0] for r in theirs)
            crss = max(r[1] for r in theirs)
            print(
                f"  C Warnsdorff (center) on 10000: best {cb:.2f} s, median {cm:.2f} s, "
                f"peak RSS {crss:.0f} MiB; {theirs[0][3]}"
            )
            print(
                f"  ratio knightstour / C: best {best / cb:.2f}, median {med / cm:.2f} "
                f"(target <= 1)"
            )
        out.unlink(missing_ok=True)

        for spec, w, h, args, start in (
            ("3x20000", 3, 20000, [], 0),
            ("4x30000", 4, 30000, [], 0),
            ("9999x9999", 9999, 9999, ["--start", "e5"], 4 * 9999 + 4),
            ("1001x2000", 1001, 2000, ["--closed"], 0),
        ):
            path = tmp / f"{spec}.npy"
            warm_memory()
            wall, rss, rc, line = run(
                [
                    *CLI,
                    "solve",
                    spec,
                    *args,
                    "--method",
                    "divide",
                    "--format",
                    "npy",
                    "--output",
                    str(path),
                    "--force",
                ]
            )
            verdict = check_npy(path, w, h, "--closed" in args, start) if rc == 0 else line
            print(
                f"  {spec:>10} {' '.join(args) or 'open':>12}: {wall:6.2f} s, "
                f"peak RSS {rss:5.0f} MiB; {verdict}"
            )
            path.unlink(missing_ok=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        f, w, h, closed, start = sys.argv[2:]
        print(_check(Path(f), int(w), int(h), closed == "1", int(start)))
    else:
        main()
