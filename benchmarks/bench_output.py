"""Streaming text output: a tour of 10^8 squares written as ``--format board`` and ``--format
moves`` to a file, against the line-by-line writers (today's path before issue 16, the same
bytes) in the same run, and the peak memory of the command for each format against ``npy``.

Targets (issue 16, item 3): each format of a 10^8-square tour to a file in under 10 s, in
constant memory (the text made and written a chunk at a time).

The 10^8-square tour is Squirrel & Cull's Warnsdorff walk on 10000x10000 (a few seconds). The
line writers would take minutes on it: they are timed on 1000x1000 and their rate compared.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from _report import figure, median_of

import knightstour as kt
from knightstour import notation
from knightstour.cli._output import write_chunks

BIG = 10_000
SMALL = 1000
TARGET_SECONDS = 10.0

_PEAK = (
    "import sys; from knightstour.cli import main; rc = main(sys.argv[1:]); "
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]; "
    "print('VmHWM', hwm, file=sys.stderr); sys.exit(rc)"
)


def write_bulk(path: Path, chunks: Iterable[bytes]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        write_chunks(f, chunks)


def seconds(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def child(argv: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of ``knightstour ARGV`` in a child process."""
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", _PEAK, *argv], capture_output=True, text=True)
    secs = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr
    return secs, int(r.stderr.split("VmHWM")[-1].split()[0]) / 1024


def makers(fmt: str, b: kt.Board, idx: object) -> dict[str, Callable[[], Iterable[bytes]]]:
    """The text of ``fmt``: line by line (today's), vectorised NumPy, compiled (the CLI's)."""
    if fmt == "board":
        return {
            "lines": lambda: (line + "\n" for line in notation.board_lines(b, idx)),
            "numpy": lambda: notation.board_chunks(b, idx, compiled=False),
            "compiled": lambda: notation.board_chunks(b, idx, compiled=True),
        }
    return {
        "lines": lambda: (line + "\n" for line in notation.moves_lines(b, idx)),
        "numpy": lambda: notation.moves_chunks(b, idx, compiled=False),
        "compiled": lambda: notation.moves_chunks(b, idx, 16, compiled=True),
    }


def write(path: Path, kind: str, text: Iterable[Any]) -> None:
    if kind == "lines":
        with open(path, "w", encoding="utf-8") as f:
            for line in text:
                f.write(line)
    else:
        write_bulk(path, text)


def main() -> None:
    solve = {"start": "a1", "method": "warnsdorff", "tiebreak": "squirrel"}
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "out.txt"
        small = kt.solve(f"{SMALL}x{SMALL}", **solve)
        b, ix = small.board, small.indices
        for fmt in ("board", "moves"):
            ways = makers(fmt, b, ix)
            med = median_of(
                {k: (lambda k=k, m=m: seconds(lambda: write(f, k, m()))) for k, m in ways.items()},
                3,
            )
            for kind in ("numpy", "compiled"):
                figure(
                    "output",
                    f"--format {fmt}, {SMALL}x{SMALL} to a file, {kind}",
                    med[kind] * 1e9 / b.size,
                    med["lines"] * 1e9 / b.size,
                    unit="ns/square",
                    baseline_name="line writer",
                )
        t0 = time.perf_counter()
        big = kt.solve(f"{BIG}x{BIG}", **solve)
        made = time.perf_counter() - t0
        print(f"  the {BIG}x{BIG} tour ({big.board.size:,} squares): {made:.1f} s to make")
        b, ix = big.board, big.indices
        for fmt in ("board", "moves"):
            secs = seconds(lambda fmt=fmt: write_bulk(f, makers(fmt, b, ix)["compiled"]()))
            size = f.stat().st_size
            figure(
                "output",
                f"--format {fmt}, {BIG}x{BIG} ({b.size:,} squares, {size / 2**30:.2f} GiB)",
                secs,
                TARGET_SECONDS,
                unit="s",
                baseline_name="target",
                target=1.0,
            )
        big = ix = None  # type: ignore[assignment]  # free it before the children run
        # the command line: peak memory of each format against npy (the tour alone)
        argv = ["solve", f"{BIG}x{BIG}", "--start", "a1", "--method", "warnsdorff"]
        argv += ["--tiebreak", "squirrel", "--force", "--output"]
        peaks = {}
        for fmt in ("npy", "board", "moves"):
            secs, peaks[fmt] = child([*argv, str(f), "--format", fmt])
            print(f"  knightstour {' '.join(argv[:2])} ... --format {fmt}: {secs:.1f} s wall, "
                  f"peak RSS {peaks[fmt]:,.0f} MiB")  # fmt: skip
        for fmt in ("board", "moves"):
            figure(
                "output",
                f"peak RSS of --format {fmt}, {BIG}x{BIG}, command line",
                peaks[fmt],
                peaks["npy"],
                unit="MiB",
                baseline_name="--format npy",
                note="the board adds the move number of each square, 4 bytes"
                if fmt == "board"
                else "",
            )


if __name__ == "__main__":
    main()
