"""How soon the program obeys a stop: a time limit already passed, a short time limit, Ctrl-C on
``generate``, and the hard cases of the shaped-board family under ``auto``'s own bound.

The tests assert what happens (the error, the exit status 130, the tours kept, the answer); this
benchmark measures how long it took, against the bound the program promises. Each figure is
reported with its bound as the baseline (``_report.figure``: ratio = seconds / bound, target
<= 1), the worst of ``REPS`` runs where a run is cheap.

Figures:

- the exact search on 60x60 given a deadline already passed: seconds to its
  ``SearchFailedError`` (bound 1 s);
- ``count("6x6", method="enumerate", time_limit=0.05)``: seconds to its ``SearchFailedError``
  (bound 2 s);
- Ctrl-C (SIGINT to the process group, as from a terminal) once tours are stored: seconds from
  the signal to the exit, for ``generate 3x20 --closed --all`` (one process), ``generate 8x8
  --workers 2`` (a pool) and ``generate 30x30 --wrap torus --workers 1`` (bounds 2, 2 and 3 s);
- the hard cases of the random shaped-board family (``HARD_CASES`` of
  tests/test_shapes_exact.py): the slowest answer through ``kt.solve`` (bound 5 s; ``auto``'s
  own bound is 10 s).

The time limits of big boards (Warnsdorff, divide) are measured by ``bench_overhead.py``, and a
quick web request beside slow ones by ``bench_web.py``.

    python benchmarks/bench_stops.py            # all
    python benchmarks/bench_stops.py --no-hard  # without the hard cases (a minute or two)

Exit status 1 when a bound is missed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import figure

import knightstour as kt
from knightstour.board import Board
from knightstour.errors import SearchFailedError
from knightstour.library.store import Library
from knightstour.solvers.backtrack import exact_search

ROOT = Path(__file__).resolve().parent.parent
KT = [sys.executable, "-m", "knightstour"]
REPS = 3
#: (what, argv after ``generate``, bound in seconds)
CTRL_C = [
    ("generate 3x20 --closed --all", ["3x20", "--closed", "--all"], 2.0),
    ("generate 8x8 --workers 2", ["8x8", "--count", "5000000", "--workers", "2"], 2.0),
    (
        "generate 30x30 --wrap torus --workers 1",
        ["30x30", "--wrap", "torus", "--count", "100000000", "--workers", "1"],
        3.0,
    ),
]


def worst(fn: object, reps: int = REPS) -> float:
    """The longest of ``reps`` calls of ``fn`` (seconds): a bound must hold every time."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return max(times)


def passed_deadline() -> None:
    try:
        exact_search(Board(60, 60), 0, deadline=time.monotonic() - 1)
    except SearchFailedError:
        return
    raise SystemExit("the exact search with a passed deadline did not give up")


def short_count() -> None:
    try:
        kt.count("6x6", method="enumerate", time_limit=0.05)
    except SearchFailedError:
        return
    raise SystemExit("count 6x6 with a 0.05 s limit did not give up")


def stored(db: Path) -> int:
    try:
        with Library(db, readonly=True) as lib:
            return lib.tours.count()
    except kt.KnightsTourError:  # not made yet
        return 0


def ctrl_c(argv: list[str]) -> float:
    """Seconds from SIGINT (to the process group, once a tour is stored) to the exit."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "c.db"
        proc = subprocess.Popen(
            [*KT, "generate", *argv, "-q", "--db", str(db)],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and stored(db) == 0:
            time.sleep(0.2)
        time.sleep(0.3)
        t0 = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.perf_counter() - t0
        if proc.returncode != 130:
            raise SystemExit(f"generate {' '.join(argv)}: exit {proc.returncode}: {err}")
        return took


def hard_cases() -> list[tuple[str, int | None, bool]]:
    """The hard cases the tests keep (loaded by path: the tests are not a package)."""
    path = ROOT / "tests" / "test_shapes_exact.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("_shapes_cases", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return list(mod.HARD_CASES)


def slowest_hard_case() -> tuple[float, str]:
    worst_s, which = 0.0, ""
    for key, start, closed in hard_cases():
        board = Board.from_key(key)
        t0 = time.perf_counter()
        with contextlib.suppress(kt.NoTourError):
            kt.solve(board, start, closed=closed)
        took = time.perf_counter() - t0
        if took > worst_s:
            worst_s, which = took, f"{key} from {start}{' closed' if closed else ''}"
    return worst_s, which


def report(what: str, seconds: float, bound: float, note: str = "") -> bool:
    ratio = figure(
        "stops", what, seconds, bound, unit="s", baseline_name="bound", target=1.0, note=note
    )
    return ratio is not None and ratio <= 1.0


def main(argv: list[str]) -> int:
    passed_deadline()  # compiled code loaded before the clock
    short_count()
    missed = 0
    load = f"load {os.getloadavg()[0]:.1f}"
    missed += not report(
        "exact search 60x60, deadline passed", worst(passed_deadline), 1.0, note=load
    )
    missed += not report("count 6x6 enumerate, time_limit=0.05", worst(short_count), 2.0, note=load)
    for what, args, bound in CTRL_C:
        load = f"load {os.getloadavg()[0]:.1f}"
        missed += not report(f"Ctrl-C: {what}", max(ctrl_c(args) for _ in range(REPS)), bound, load)
    if "--no-hard" not in argv:
        seconds, which = slowest_hard_case()
        missed += not report("slowest hard case of the shaped family", seconds, 5.0, note=which)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
