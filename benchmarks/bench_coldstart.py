"""Cold start: what a newcomer's first commands cost, before and after ``knightstour warm``.

Numba compiles each kernel on its first call after install and caches the machine code beside
the source. The install step (``make run`` / ``make test``) runs ``knightstour warm`` so that no
first command pays for compiling. This benchmark copies the package into a fresh folder (no
cache: what a fresh clone has), then, for each command below:

- **cold**: its first call in a fresh copy without ``warm`` (compiling what it needs), and its
  second call there (everything cached): their difference is the compile cost a user would pay;
- **after warm**: in another fresh copy, ``knightstour warm`` (timed: what set-up pays), then the
  command's first call and a second call: the difference is what is left to compile (target
  <= 2 s for every command).

Figures: seconds per call, wall clock, each call a new process (as a user runs them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import knightstour

SRC = Path(knightstour.__file__).resolve().parent
#: The commands a newcomer runs first, each touching other kernels.
COMMANDS: list[tuple[str, list[str]]] = [
    ("solve 8x8 closed", ["solve", "8x8", "--start", "a1", "--closed"]),
    (
        "solve 1000x1000 warnsdorff",
        ["solve", "1000x1000", "--method", "warnsdorff", "--format", "npy", "-o", "{tmp}/w.npy"],
    ),
    ("solve 10x10 backtrack closed", ["solve", "10x10", "--method", "backtrack", "--closed"]),
    ("exists 5x5 a1 to c3 (searches)", ["exists", "5x5", "--start", "a1", "--end", "c3"]),
    (
        "solve 300x300 divide",
        ["solve", "300x300", "--method", "divide", "--format", "npy", "-o", "{tmp}/d.npy"],
    ),
    (
        "generate 8x8 --count 1000",
        ["generate", "8x8", "--count", "1000", "--seed", "1", "--db", "{db}"],
    ),
    (
        "generate 6x6 closed --count 200",
        ["generate", "6x6", "--closed", "--count", "200", "--seed", "1", "--db", "{db}"],
    ),
]
#: After warm, a first call may spend at most this much more than a second one.
TARGET = 2.0


def fresh_copy(root: Path) -> Path:
    """A copy of the package with no compiled cache, importable from ``root``."""
    dest = root / "knightstour"
    shutil.copytree(SRC, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def run(root: Path, argv: list[str], tmp: Path) -> float:
    """Seconds of ``knightstour ARGV`` run in a new process against the copy in ``root``."""
    return run_out(root, argv, tmp)[0]


def run_out(root: Path, argv: list[str], tmp: Path) -> tuple[float, str]:
    """(seconds, standard output) of ``knightstour ARGV`` run against the copy in ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("NUMBA_CACHE_DIR", None)
    db = tmp / f"{time.monotonic_ns()}.db"  # each call its own library: the same work each time
    args = [a.replace("{tmp}", str(tmp)).replace("{db}", str(db)) for a in argv]
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "knightstour", *args, *(["--force"] if "-o" in args else [])],
        env=env,
        capture_output=True,
        text=True,
    )
    secs = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"knightstour {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return secs, r.stdout


GENERATE = ["generate", "8x8", "--count", "1000", "--db", "{db}"]


def generate_overhead(root: Path, tmp: Path, runs: int = 5) -> tuple[float, float]:
    """(wall seconds, seconds generate reports for its own work) of the best warm run of
    ``knightstour generate 8x8 --count 1000``: the difference is process start-up and imports."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        wall, out = run_out(root, GENERATE, tmp)
        m = re.search(r" in ([0-9.]+) s ", out)
        if m is None:
            raise SystemExit(f"generate printed no time: {out!r}")
        best = min(best, (wall, float(m.group(1))))
    return best


def measure(
    warm: bool,
) -> tuple[float | None, list[tuple[str, float, float]], tuple[float, float] | None]:
    """(warm's seconds, [(command, first call, second call)], generate's overhead) in a fresh
    copy."""
    with tempfile.TemporaryDirectory() as d:
        root = fresh_copy(Path(d) / "pkg")
        tmp = Path(d) / "out"
        tmp.mkdir()
        warm_s = run(root, ["warm"], tmp) if warm else None
        rows = []
        for label, argv in COMMANDS:
            first = run(root, argv, tmp)
            second = run(root, argv, tmp)
            rows.append((label, first, second))
        overhead = generate_overhead(root, tmp) if warm else None
        return warm_s, rows, overhead


def main() -> None:
    _, cold, _ = measure(warm=False)
    warm_s, after, overhead = measure(warm=True)
    print(f"knightstour warm in a fresh copy (what set-up pays once): {warm_s:.1f} s")
    print(
        f"{'command':32} {'cold 1st':>9} {'cold 2nd':>9} {'compile':>8}   "
        f"{'warmed 1st':>10} {'2nd':>6} {'left':>6}"
    )
    worst = 0.0
    for (label, c1, c2), (_, w1, w2) in zip(cold, after, strict=True):
        left = max(0.0, w1 - w2)
        worst = max(worst, left)
        print(
            f"{label:32} {c1:8.2f}s {c2:8.2f}s {c1 - c2:7.2f}s   {w1:9.2f}s {w2:5.2f}s {left:5.2f}s"
        )
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"most compiling left after warm: {worst:.2f} s (target <= {TARGET:g} s: {verdict})")
    assert overhead is not None
    wall, inside = overhead
    print(
        f"warm generate 8x8 --count 1000: {wall:.2f} s wall, {inside:.2f} s inside generate() "
        f"(kernels loaded from the cache, batches, storing), {wall - inside:.2f} s before it "
        f"(interpreter, imports)"
    )


if __name__ == "__main__":
    main()
