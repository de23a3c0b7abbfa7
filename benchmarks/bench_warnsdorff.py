"""Warnsdorff's rule through ``kt.solve`` (validation included) against the plain C walk
(../shared/bench/warnsdorff_ref.c, Roth's centre rule, built here with ``cc -O2`` in the same run),
each tie-break per square against ``center``, where the time of ``center`` goes, and the CLI's
start-up time for ``knightstour solve 8x8``.

Targets (issue 16): ``center`` at 1000x1000 and 3000x3000 within 1.2x the C walk; no tie-break
slower per square than 2x ``center``; ``knightstour solve 8x8`` under 0.3 s wall.

The C walk and ``kt.solve`` take turns, several rounds, and the medians are compared (the machine
is shared). The C program times its own walk (set-up included, process start-up not).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _report import figure, median_of, timed

import knightstour as kt
from knightstour.board import Board
from knightstour.errors import SearchFailedError
from knightstour.kernels import jit
from knightstour.kernels import walk as _kernels
from knightstour.solvers.warnsdorff import TIEBREAKS, Walker
from knightstour.tour import find_problems

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT.parent / "shared" / "bench" / "warnsdorff_ref.c"
SIZES = (1000, 3000)
ROUNDS = {1000: 9, 3000: 7}


def build_ref() -> Path | None:
    """The C walk, compiled now; None (and why, printed) when it cannot be."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not REF.exists():
        print(f"  C reference skipped: {REF} is missing")
        return None
    if not cc:
        print("  C reference skipped: no C compiler (cc or gcc) on this machine")
        return None
    exe = Path(tempfile.mkdtemp()) / "warnsdorff_ref"
    subprocess.run([cc, "-O2", "-o", str(exe), str(REF)], check=True)
    return exe


def ref_seconds(exe: Path, n: int) -> float:
    """One run of the C walk on n x n: its own timing of the walk, in seconds."""
    out = subprocess.run([str(exe), str(n), "1"], capture_output=True, text=True).stdout
    return float(out.split("best")[1].split()[0])


def solve_seconds(n: int, tiebreak: str) -> tuple[float, int]:
    """Seconds of ``kt.solve`` (validation included) and the squares it covered (a stuck walk:
    the partial path, validated as one)."""
    t0 = time.perf_counter()
    try:
        covered = len(
            kt.solve(
                f"{n}x{n}", start="a1", method="warnsdorff", tiebreak=tiebreak, **_seed(tiebreak)
            )
        )
    except SearchFailedError as e:
        covered = len(e.partial) if e.partial is not None else 0
    return time.perf_counter() - t0, covered


def _seed(tiebreak: str) -> dict[str, int]:
    return {"seed": 1} if tiebreak == "random" else {}


def breakdown(n: int, rounds: int) -> dict[str, float]:
    """Where the time of ``center`` goes, ns a square: the cells' set-up, the walk, the check."""
    board = Board(n, n)
    k = jit.load(_kernels, compiled=True)
    parts: dict[str, list[float]] = {"set-up": [], "walk": [], "validation": []}
    for _ in range(rounds):
        t0 = time.perf_counter()
        w = Walker(board)  # padded grid and onward counts
        t1 = time.perf_counter()
        path = w.walk(0, tiebreak="center")
        t2 = time.perf_counter()
        assert not find_problems(board, path)
        t3 = time.perf_counter()
        parts["set-up"].append(t1 - t0)
        parts["walk"].append(t2 - t1)
        parts["validation"].append(t3 - t2)
    del k
    return {key: float(np.median(v)) * 1e9 / board.size for key, v in parts.items()}


def cli_startup() -> float:
    exe = Path(sys.executable).parent / "knightstour"
    cmd = (
        [str(exe), "solve", "8x8"]
        if exe.exists()
        else [sys.executable, "-m", "knightstour", "solve", "8x8"]
    )
    subprocess.run(cmd, capture_output=True, check=True)
    return min(
        timed(lambda: subprocess.run(cmd, capture_output=True, check=True)) for _ in range(7)
    )


def main() -> None:
    exe = build_ref()
    for n in SIZES:
        for tb in TIEBREAKS:  # compile (or load) and touch every path once
            solve_seconds(n, tb)
        sq = n * n
        covered: dict[str, int] = {}

        def ours(tb: str, n: int = n, covered: dict[str, int] = covered) -> float:
            secs, covered[tb] = solve_seconds(n, tb)
            return secs

        fns = {tb: (lambda tb=tb: ours(tb)) for tb in TIEBREAKS}
        if exe is not None:
            fns["C"] = lambda exe=exe, n=n: ref_seconds(exe, n)
        med = median_of(fns, ROUNDS[n])
        center_ns = med["center"] * 1e9 / sq
        c_ns = med["C"] * 1e9 / sq if exe is not None else None
        figure(
            "warnsdorff",
            f"center {n}x{n}, kt.solve with validation",
            center_ns,
            c_ns,
            unit="ns/square",
            baseline_name="C walk",
            target=1.2,
            note="" if exe is not None else "no C compiler",
        )
        for tb in TIEBREAKS:
            if tb == "center":
                continue
            per = med[tb] * 1e9 / max(covered[tb], 1)
            stuck = "" if covered[tb] == sq else f", stuck after {covered[tb]:,} squares"
            figure(
                "warnsdorff",
                f"{tb} {n}x{n} per square covered{stuck}",
                per,
                center_ns,
                unit="ns/square",
                baseline_name="center",
                target=2.0,
            )
        parts = breakdown(n, 3)
        total = sum(parts.values())
        print(
            f"  center {n}x{n} profile, ns a square: "
            + ", ".join(f"{k} {v:.1f}" for k, v in parts.items())
            + f" (sum {total:.1f}; kt.solve {center_ns:.1f})"
        )
    t = cli_startup()
    print(f"  CLI `knightstour solve 8x8`: {t:.3f} s wall (best of 7; target < 0.3 s)")


if __name__ == "__main__":
    main()
