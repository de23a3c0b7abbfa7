"""Divide and conquer on huge boards, through the command line, against the C Warnsdorff.

Targets (issue "Huge boards"): ``knightstour solve 10000x10000 --closed --method divide
--format npy --output FILE`` (10^8 squares, the whole run: start-up, construction, validation,
writing the .npy) no slower than ../shared/bench/warnsdorff_ref.c on 10000 (gcc -O2; it gets
stuck there anyway), measured in the same run, with peak memory <= 2 GiB; and the thin and odd
boards 3 x 20000 and 4 x 30000 open, 9999 x 9999 open from e5, 1001 x 2000 closed.

Each timed command runs in its own process; wall time and peak RSS come from ``os.wait4``. This
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

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT.parent / "shared" / "bench" / "warnsdorff_ref.c"
ROUNDS = 3
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


def main() -> None:
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
