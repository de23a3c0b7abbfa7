"""The semi-magic search: speed, what a run of a chosen length gets, and the census projected.

Targets (issue "Magic knight's tours"): the first semi-magic 8x8 tour from a cold start in under
10 minutes; tours found per hour; the census (136 ranges, 140 classes) in under 24 hours. Printed:

- the first command in a fresh process (``knightstour magic 4x6``: a board it finishes);
- the first semi-magic 8x8 tour from a cold start (``knightstour magic 8x8 --count 1`` in a fresh
  process, an empty library), against the 10-minute target;
- the quad pass of 8x8 walked whole (every tour made of quads of the 4x4 blocks): its time, and
  the classes it finds, of the census's 140 (closed: 63);
- the quarter pass of 8x8 walked whole (every run of four inside one 4x4 block, on any knight
  path): its time, its classes and those the quad pass does not find (closed too);
- 6x6 walked whole: the proof that no semi-magic 6x6 tour exists, and its time;
- the walk's speed on 8x8 (nodes a second on every core) over a run of ``--seconds`` (default 60);
- a part known to hold tours (Beverley's 1848 tour's first 6 and last 6 numbers fixed): its
  time and the tours it finds, the tours-per-hour of a productive part;
- Knuth's estimate of one range's tree (random probes down the walk, the product of the
  branchings), and from it the census's projected time on this machine;
- the start passes (Denef's decomposition, :mod:`knightstour.magic.starts`): the one-ended
  walk's nodes a second on one core against the two-ended walk's, Knuth's estimate of each of
  the 10 passes (``--start-probes`` probes each) and of the whole census, and the census
  projected on both cores at the measured rate.

    python benchmarks/bench_magic.py [--seconds S] [--probes P] [--start-probes P] [--starts]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _report import figure

from knightstour.magic._parts import PartResult

EXE = Path(sys.executable).parent / "knightstour"
CLI = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "knightstour"]


def beverley() -> np.ndarray:
    from knightstour.numbering import BEVERLEY, grid_order

    return np.array(grid_order(BEVERLEY), np.int32)


def first_call() -> None:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        p = subprocess.run([*CLI, "magic", "4x6", "--db", os.path.join(d, "m.db"), "--quiet"],
                           capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - t0
    print(f"first command 'knightstour magic 4x6' (fresh process): {wall:.2f} s, exit "
          f"{p.returncode}: {p.stdout.strip()}")  # fmt: skip


def cold_start() -> None:
    """The first semi-magic 8x8 tour from a cold start: ``knightstour magic 8x8 --count 1`` in a
    fresh process, on an empty library (the quad pass finds it)."""
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        p = subprocess.run([*CLI, "magic", "8x8", "--count", "1", "--db",
                            os.path.join(d, "m.db"), "--quiet"], capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    print(f"first semi-magic 8x8 tour from a cold start ('knightstour magic 8x8 --count 1', "
          f"fresh process, empty library): {wall:.2f} s; {p.stdout.strip().splitlines()[-1]}")  # fmt: skip
    figure("magic", "first semi-magic 8x8 tour from a cold start", wall, 600.0, unit="s",
           baseline_name="target", target=1.0, better="lower")  # fmt: skip


def quad_pass() -> None:
    """The quad pass of 8x8 walked whole (range 0), on every core: its time and classes."""
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import search

    for closed in (False, True):
        t0 = time.perf_counter()
        r = search(8, 8, MagicJournal(Library(":memory:"), 8, 8), only=[0], closed=closed)
        secs = time.perf_counter() - t0
        print(f"quad pass of 8x8{' (closed tours)' if closed else ''}, {os.cpu_count()} threads: "
              f"{r.parts_done} parts, {r.found} semi-magic numberings, {r.new} classes of the "
              f"census's {63 if closed else 140}, {r.nodes:,} nodes in {secs:.1f} s "
              f"({r.new * 3600 / secs:,.0f} classes an hour)")  # fmt: skip


def quarter_pass() -> None:
    """The quarter pass of 8x8 walked whole (range -1), on every core, after the quad pass in the
    same library: its time, its classes, and how many of them the quad pass does not have."""
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import search

    for closed in (False, True):
        with Library(":memory:") as lib:
            quads = search(8, 8, MagicJournal(lib, 8, 8), only=[0], closed=closed)
            t0 = time.perf_counter()
            r = search(8, 8, MagicJournal(lib, 8, 8), only=[-1], closed=closed)
            secs = time.perf_counter() - t0
            total = lib.tours.count("8x8")
        print(f"quarter pass of 8x8{' (closed tours)' if closed else ''}, {os.cpu_count()} "
              f"threads: {r.parts_done} parts, {r.found} semi-magic numberings (first run in the "
              f"block of a1), {total} classes of the census's {63 if closed else 140} with the "
              f"quad pass's {quads.new}: {r.new} beyond it; {r.nodes:,} nodes in {secs:.1f} s "
              f"({r.nodes / secs / 1e6:.2f} M nodes/s)")  # fmt: skip
        if not closed:
            figure("magic", f"quarter pass of 8x8 walked whole ({total} classes, {r.new} beyond "
                   "the quad pass)", secs, 600.0, unit="s", baseline_name="target",
                   target=1.0, better="lower")  # fmt: skip


def whole_6x6() -> None:
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import search

    t0 = time.perf_counter()
    r = search(6, 6, MagicJournal(Library(":memory:"), 6, 6))
    print(f"6x6 walked whole: {r.starts_done} of {r.starts} start passes, {r.found} semi-magic tours, "
          f"{r.nodes:,} nodes, {time.perf_counter() - t0:.2f} s")  # fmt: skip


def speed(seconds: float) -> float:
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import search

    r = search(8, 8, MagicJournal(Library(":memory:"), 8, 8), time_limit=seconds, only=[1])
    rate = r.nodes / r.seconds
    print(f"8x8 run of {seconds:.0f} s on {os.cpu_count()} threads: {r.parts_done} parts of "
          f"range 1 walked, {r.found} found, {r.nodes:,} nodes: {rate / 1e6:.2f} M nodes/s")  # fmt: skip
    return rate


def productive_part() -> None:
    from knightstour.magic.search import Range, Walker

    order = beverley()
    walker = Walker(8, 8)
    rng = Range(0, int(order[0]), int(order[-1]), 1, False)
    prefix = np.array([order[1 + d // 2] if d % 2 == 0 else order[62 - d // 2]
                       for d in range(10)], np.int32)  # fmt: skip
    r = walker.run(rng, 0, prefix)
    print(f"the part of Beverley's tour (1-6 and 59-64 fixed): {len(r.tours)} semi-magic tours "
          f"in {r.seconds:.1f} s ({r.nodes:,} nodes; {len(r.tours) * 3600 / r.seconds:.0f} "
          "tours an hour on one core)")  # fmt: skip


def knuth(probes: int, rate: float) -> None:
    """Knuth's estimator of the nodes of range 1's walk, and the census projected from it."""
    from knightstour.magic.search import Walker, ranges

    walker = Walker(8, 8)
    rng = ranges(8, 8)[0]
    generator = random.Random(1)
    t0 = time.perf_counter()
    total = sum(walker.probe(rng, generator) for _ in range(probes))
    est = total / probes
    hours = est / rate / 3600
    print(f"Knuth's estimate of range 1 ({probes} probes, {time.perf_counter() - t0:.0f} s): "
          f"{est:.2g} nodes, {hours:.0f} h at {rate / 1e6:.2f} M nodes/s; the census's 136 ranges "
          f"if alike: {136 * hours / 24:.0f} days on this machine")  # fmt: skip


def _one_core(run: Callable[[int, int], PartResult], seconds: float) -> float:
    """Nodes a second of ``run(part, budget)`` (a PartResult) over parts 0, 1, ... on this one
    thread, for about ``seconds`` (after one small call, so that nothing compiles on the clock)."""
    run(0, 1000)
    nodes, spent, part = 0, 0.0, 0
    while spent < seconds:
        r = run(part, 20_000_000)
        nodes += r.nodes
        spent += r.seconds
        part += 1
    return nodes / spent


def start_passes(probes: int, seconds: float) -> None:
    """The start passes: speed on one core against the two-ended walk, Knuth's estimate of each
    pass, and the census projected on every core."""
    from knightstour.magic.search import Walker, ranges
    from knightstour.magic.starts import start_walker

    walker = Walker(8, 8)
    rng1 = ranges(8, 8)[0]
    prefixes = walker.parts(rng1)
    old = _one_core(lambda p, b: walker.run(rng1, p, prefixes[p], budget=b), seconds / 2)
    w = start_walker(8, 8)
    c3 = w.ranges[7]
    new = _one_core(lambda p, b: w.run(c3, p, budget=b), seconds / 2)
    figure("magic", "start pass walk on one core (parts of c3)", new / 1e6, old / 1e6,
           unit="M nodes/s", baseline_name="the two-ended walk (parts of range 1)",
           better="higher")  # fmt: skip
    figure("magic", "start pass walk on one core, against issue 32's target", new / 1e6, 20.0,
           unit="M nodes/s", baseline_name="the target", target=1.0,
           better="higher")  # fmt: skip
    cores = os.cpu_count() or 1
    for closed in (False, True):
        total, var = 0.0, 0.0
        t0 = time.perf_counter()
        names = []
        for i, rng in enumerate(w.ranges):
            mean, se = w.estimate(dataclasses.replace(rng, closed=closed), probes, i + 1)
            total += mean
            var += se * se
            s = w.starts[i]
            names.append(f"{'abcdefgh'[s % 8]}{s // 8 + 1} {mean:.2g}")
        days = total / (new * cores) / 86400
        print(f"Knuth's estimate of the start passes{', closed tours' if closed else ''} "
              f"({probes:,} probes each, {time.perf_counter() - t0:.0f} s): {'; '.join(names)}; "
              f"the census{' of closed tours' if closed else ''} {total:.2g} nodes (standard "
              f"error {var**0.5:.1g}): {days:.1f} days on {cores} cores at {new / 1e6:.2f} M "
              "nodes/s a core")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--probes", type=int, default=300)
    ap.add_argument("--start-probes", type=int, default=20_000)
    ap.add_argument("--starts", action="store_true", help="the start passes' figures alone")
    a = ap.parse_args()
    if a.starts:
        start_passes(a.start_probes, a.seconds)
        return 0
    first_call()
    cold_start()
    quad_pass()
    quarter_pass()
    whole_6x6()
    rate = speed(a.seconds)
    productive_part()
    knuth(a.probes, rate)
    start_passes(a.start_probes, a.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
