"""Exact counts: the published tables reproduced, the speed targets, peak states and memory.

Each count runs in its own process (so its peak memory is its own), compiled kernels loaded
first, on every core of this machine (``shards`` threads) unless a line says otherwise.

Figures:

- every published figure of ``knightstour/data/published.json`` up to 7 wide (OEIS A070030,
  A175855, A175881, A193054, A165134, A169696, A079137, A083386): the number, right or WRONG,
  seconds, peak states, peak memory; the 8x8 figures are listed, not counted;
- the speed targets: 6x6 closed < 1 s, 6x6 directed open < 10 s, 3x100 closed < 5 s,
  6x20 closed < 60 s, 7x7 directed open < 15 min in < 16 GiB;
- a newcomer's first count: ``knightstour count 6x6 --closed`` in a fresh process;
- the same sweeps (6x7 closed, 6x6 open) on a Dask ``LocalCluster`` of 2 worker processes
  against in-process (7x7 open would move some 2 GB between the workers a square);
- 8x8: the states after each of the first squares of the sweep, closed and open, until a step
  holds more than ``EIGHT_LIMIT`` states, and the growth per row (docs/counting.md extrapolates).

    python benchmarks/bench_count.py            # all of it (7x7 open takes minutes)
    python benchmarks/bench_count.py --quick    # without 7x8 closed, 7x7 open and 8x8
    python benchmarks/bench_count.py --eight    # the first squares of 8x8 only
    python benchmarks/bench_count.py --spill    # 6x7 open in memory, then spilled to disk
                                                # under a 64 MiB bound (minutes)
    python benchmarks/bench_count.py --project  # 8x8 open whole, projected from the runs
    python benchmarks/bench_count.py --big 8x8 closed 20G DIR
                                                # one long count (hours), resumable: its
                                                # checkpoint and partitions in DIR, a line a
                                                # square appended to DIR/8x8-closed.jsonl
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from typing import NamedTuple

Row = tuple[str, bool, str | None, bool, int, str, float | None]

#: Speed targets of published counts, in seconds: (board, closed, directed) -> target.
TARGETS: dict[tuple[str, bool, bool], float] = {
    ("6x6", True, False): 1.0,
    ("6x6", False, True): 10.0,
    ("7x7", False, True): 900.0,
}
#: A count no source publishes, kept as a check of this program against itself.
OWN: list[Row] = [("6x6", False, "a1", True, 524486, "this program's figure", None)]


def published_rows(widths: range) -> list[Row]:
    """The published figures (knightstour/data/published.json) of boards whose short side is
    in ``widths``: (board, closed, start, directed, number, source, target seconds or None)."""
    from knightstour import published
    from knightstour.board import Board

    rows: list[Row] = []
    for f in published.figures():
        if min(f.width, f.height) not in widths or f.end is not None:
            continue
        b = Board(f.width, f.height)
        start = None if f.start is None else b.square_name(b.index(*f.start))
        target = TARGETS.get((f.spec, f.closed, f.directed)) if start is None else None
        rows.append((f.spec, f.closed, start, f.directed, f.count, f.source, target))
    return rows


#: Speed targets without a published figure to check (the count is printed).
SPEED: list[tuple[str, bool, float]] = [("3x100", True, 5.0), ("6x20", True, 60.0)]
EIGHT_LIMIT = 30_000_000


def one(board: str, closed: bool, start: str | None, directed: bool) -> dict[str, object]:
    """Count in this process and report (run as a child: ``--one``)."""
    import knightstour as kt
    from knightstour.counting import RunOptions, count_request, frontier

    kt.count("5x5")  # kernels loaded
    req = count_request(board, closed=closed, start=start, directed=directed)
    terminals = () if closed else tuple(x for x in (req.start,) if x is not None)
    stats = frontier.SweepStats()
    t0 = time.perf_counter()
    base = frontier.count_paths(req.board, terminals, closed, RunOptions(stats=stats))
    seconds = time.perf_counter() - t0
    factor = 2 if directed and start is None else 1
    return {
        "count": base * factor,
        "seconds": seconds,
        "peak_states": stats.peak,
        "limbs": stats.limbs,
        "rss_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
    }


def spilled_one(board: str, closed: bool, memory: int | None) -> dict[str, object]:
    """Count the whole board (undirected) in this process, under ``memory`` bytes for the
    states (None: the default), its states spilled to disk past them (run as a child:
    ``--spill-one``)."""
    import tempfile

    import knightstour as kt
    from knightstour.board import parse_board
    from knightstour.counting import RunOptions, frontier

    kt.count("5x5", memory=20_000)  # kernels loaded, the spilled path too
    stats = frontier.SweepStats()
    with tempfile.TemporaryDirectory() as work:
        t0 = time.perf_counter()
        options = RunOptions(stats=stats, memory=memory, workdir=work)
        number = frontier.count_paths(parse_board(board), (), closed, options)
        seconds = time.perf_counter() - t0
    return {
        "count": number,
        "seconds": seconds,
        "peak_states": stats.peak,
        "spilled_from": stats.spilled_from,
        "partitions": stats.partitions,
        "disk_gib": stats.disk_bytes / 2**30,
        "raw_ratio": stats.raw_ratio,
        "rss_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
    }


def spill(board: str = "6x7", closed: bool = False, memory: int = 64 * 2**20) -> None:
    """The same count in memory and spilled to disk under ``memory`` bytes, each in its own
    process: seconds, peak memory, disk, partitions (docs/counting.md, "Past the memory")."""
    for bound in (None, memory):
        r = child("--spill-one", board, str(int(closed)), str(bound or 0))
        where = "in memory" if bound is None else f"--memory {bound // 2**20}M"
        print(
            f"{board} {'closed' if closed else 'open'} {where}: {r['count']:,} undirected, "
            f"{r['seconds']:.1f} s, peak {r['peak_states']:,} states, {r['rss_gib']:.2f} GiB "
            f"resident; spilled from square {r['spilled_from']}, {r['partitions']} partitions, "
            f"{r['disk_gib']:.2f} GiB on disk at most, new states {r['raw_ratio']:.2f}x",
            flush=True,
        )


def child(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def row(board: str, closed: bool, start: str | None, directed: bool) -> dict[str, object]:
    return child("--one", board, str(int(closed)), start or "-", str(int(directed)))


def kind(closed: bool, start: str | None, directed: bool) -> str:
    what = "closed" if closed else "open"
    how = "directed" if directed else "undirected"
    return f"{how} {what}" + (f" from {start}" if start else "")


def table(rows: list[Row]) -> int:
    wrong = 0
    for board, closed, start, directed, number, source, target in rows:
        r = row(board, closed, start, directed)
        ok = r["count"] == number
        wrong += not ok
        aim = ""
        if target is not None:
            aim = f"  target < {target:g} s: {'met' if r['seconds'] < target else 'MISSED'}"
        print(
            f"{board:>5} {kind(closed, start, directed):<24} {r['count']:>20,} "
            f"{'right' if ok else 'WRONG'} ({source})  {r['seconds']:8.2f} s  "
            f"peak {r['peak_states']:>11,} states  {r['rss_gib']:.2f} GiB{aim}",
            flush=True,
        )
    return wrong


def speed() -> None:
    for board, closed, target in SPEED:
        r = row(board, closed, None, False)
        met = "met" if r["seconds"] < target else "MISSED"
        print(
            f"{board:>5} {kind(closed, None, False):<24} {r['count']:.4e} ({r['limbs']} limbs) "
            f"{r['seconds']:8.2f} s  peak {r['peak_states']:,} states  {r['rss_gib']:.2f} GiB  "
            f"target < {target:g} s: {met}",
            flush=True,
        )


def first_command() -> None:
    env = dict(os.environ)
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "knightstour", "count", "6x6", "--closed"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - t0
    first = out.stdout.splitlines()[0] if out.stdout else out.stderr.strip()
    print(f"first command: knightstour count 6x6 --closed -> {first} in {seconds:.2f} s")


def dask(board: str, closed: bool, directed: bool) -> None:
    try:
        from distributed import LocalCluster
    except ImportError:
        print("dask: not installed (pip install 'knightstour[cluster]')")
        return
    import knightstour as kt

    kt.count("5x5")
    t0 = time.perf_counter()
    here = kt.count(board, closed=closed, directed=directed)
    t_here = time.perf_counter() - t0
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        kt.count("5x5", scheduler=cluster.scheduler_address)  # workers load their kernels
        t0 = time.perf_counter()
        there = kt.count(
            board, closed=closed, directed=directed, scheduler=cluster.scheduler_address
        )
        t_there = time.perf_counter() - t0
    print(
        f"dask: {board} {kind(closed, None, directed)} on 2 worker processes {there:,} in "
        f"{t_there:.2f} s; in-process (2 threads) {here:,} in {t_here:.2f} s: "
        f"{'same' if here == there else 'DIFFERENT'}, ratio {t_there / t_here:.2f}"
    )


def _first_states(sweep: object) -> list[int]:
    """States after each square until a square holds more than EIGHT_LIMIT of them."""
    from knightstour.counting import RunOptions, frontier

    states: list[int] = []

    def hook(p: int, used: int) -> None:
        states.append(used)
        if used > EIGHT_LIMIT:
            raise StopIteration

    with contextlib.suppress(StopIteration):  # past the up-front refusal: stops at the limit
        frontier.run(sweep, RunOptions(memory=2**50), step_hook=hook)  # type: ignore[arg-type]
    return states


def eight() -> None:
    from knightstour.board import Board
    from knightstour.counting import frontier

    for closed in (True, False):
        sweep = frontier.plan(Board(8, 8), (), closed)
        t0 = time.perf_counter()
        states = _first_states(sweep)
        seconds = time.perf_counter() - t0
        rows = [max(states[r * 8 : (r + 1) * 8], default=0) for r in range(len(states) // 8)]
        growth = [round(b / a, 1) for a, b in itertools.pairwise(rows) if a]
        print(
            f"8x8 {'closed' if closed else 'open'}: frontier {sweep.width} squares; states after "
            f"squares 1..{len(states)}: {states}; most per row {rows}, growth per row {growth}; "
            f"{seconds:.1f} s",
            flush=True,
        )


class _Square(NamedTuple):
    """A square of a ``--big`` run's log: the states after it, the seconds it took (None where
    the log cannot tell: the first square after a resume), and whether it was spilled."""

    states: int
    seconds: float | None
    spilled: bool


def _run_states(path: str) -> dict[int, _Square]:
    """The squares of a ``--big`` run's log (``benchmarks/runs/*.jsonl``); a square logged
    twice (a kill) keeps its last line."""
    squares: dict[int, _Square] = {}
    last: float | None = None
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            if "resumed_from" in row:
                last = None
            if "square" not in row:
                continue
            took = None if last is None else row["seconds"] - last
            squares[row["square"]] = _Square(row["states"], took, row.get("disk_mib", 0) > 0)
            last = row["seconds"]
    return squares


def project(runs: str = os.path.join(os.path.dirname(__file__), "runs")) -> dict[str, float]:
    """The whole 8x8 open sweep projected from its measured first squares (``8x8-open.jsonl``).

    The states after a square not measured are taken as those of 8x8 closed (counted whole,
    ``8x8-closed.jsonl``) times the ratio open/closed of the 7x8 sweeps at the same place of
    the sweep (same row, nearest column; ``7x8-open.jsonl``, ``7x8-closed.jsonl``), times a
    correction: the mean, over the last whole row measured, of the measured 8x8 ratio over the
    7x8 one. Time: the states into each square at the microseconds a state measured, in
    memory (the last whole row) or spilled (the squares spilled; 2.2 µs, the spilled 8x8
    closed run, if none), spilled where the states would not fit in 20 GiB at
    :data:`~knightstour.counting.frontier.BYTES_PER_STATE`; disk at
    :data:`~knightstour.counting.frontier.DISK_BYTES_PER_STATE` a state of the peak.
    """
    from knightstour.counting.frontier import BYTES_PER_STATE, DISK_BYTES_PER_STATE

    def states(name: str) -> dict[int, _Square]:
        return _run_states(os.path.join(runs, f"{name}.jsonl"))

    open8, closed8, open7, closed7 = (
        states(n) for n in ("8x8-open", "8x8-closed", "7x8-open", "7x8-closed")
    )
    measured = max(open8)
    row_end = measured - measured % 8  # the last whole row measured

    def ratio7(p: int) -> float:  # at 8x8's square p: the same row, the nearest column
        row, col = divmod(p - 1, 8)
        q = row * 7 + round(col * 6 / 7) + 1
        return open7[q].states / max(closed7[q].states, 1)

    last_row = range(row_end - 7, row_end + 1)
    c = sum(open8[p].states / max(closed8[p].states, 1) / ratio7(p) for p in last_row) / 8

    def rate(squares: list[int], default: float) -> float:  # seconds a state into the square
        timed = [p for p in squares if open8[p].seconds is not None]
        spent = sum(open8[p].seconds or 0.0 for p in timed)
        return spent / sum(open8[p - 1].states for p in timed) if timed else default

    in_memory = rate([p for p in last_row if not open8[p].spilled], 1e-6)
    spilled = rate([p for p in open8 if open8[p].spilled], 2.2e-6)
    budget = 20 * 2**30  # the runs' bound
    projected = {
        p: open8[p].states if p in open8 else closed8[p].states * ratio7(p) * c for p in closed8
    }
    seconds = sum(open8[p].seconds or 0.0 for p in open8)  # a resume's first square: not timed
    swept = sum(projected[p - 1] for p in range(2, len(projected) + 1))
    for p in range(measured + 1, len(projected) + 1):
        before = projected[p - 1]
        spill = max(before, projected[p]) * BYTES_PER_STATE > budget
        seconds += before * (spilled if spill else in_memory)
    peak = max(projected.values())
    out = {
        "measured_squares": measured,
        "correction": round(c, 3),
        "us_a_state_in_memory": round(in_memory * 1e6, 2),
        "us_a_state_spilled": round(spilled * 1e6, 2),
        "peak_states": round(peak),
        "peak_square": max(projected, key=lambda p: projected[p]),
        "states_swept": round(swept),
        "hours": round(seconds / 3600, 1),
        "memory_gib_in_ram": round(peak * BYTES_PER_STATE / 2**30),
        "disk_gib_spilled": round(peak * DISK_BYTES_PER_STATE / 2**30),
    }
    for p in range(row_end - 7, min(measured + 4, len(projected)) + 1):
        said = "measured" if p in open8 else "projected"
        if p in last_row:  # the correction's terms
            said += f", 8x8 ratio over 7x8 {open8[p].states / closed8[p].states / ratio7(p):.2f}"
        if p > row_end and p in open8:  # the model checked against a square it did not see
            said += f", the model said {closed8[p].states * ratio7(p) * c:,.0f}"
        print(f"square {p}: {projected[p]:,.0f} states ({said}; closed {closed8[p].states:,})")
    for row in range(8):
        most = max(projected[p] for p in range(row * 8 + 1, row * 8 + 9))
        print(f"row {row + 1}: at most {most:,.0f} states")
    print(json.dumps(out), flush=True)
    return out


def big(board: str, kind: str, memory: str, folder: str, until: int | None = None) -> int:
    """One long count of ``board`` (``kind``: closed or open; undirected), its states under
    ``memory`` (such as 20G) and spilled past it into ``folder``, with a checkpoint there:
    stopped (Ctrl-C, ``kill -9``, a crash), the same command goes on from the last save (after
    every square that takes over a minute; :func:`knightstour.counting.frontier.run`).
    ``until``: stop after that square (the first squares of a sweep too long to run whole),
    keeping the checkpoint. Returns the exit code (0; 130 when stopped by Ctrl-C).

    After every square a JSON line goes to ``folder/BOARD-KIND.jsonl``: the square, the states
    held, seconds since this process started counting, this process's resident and peak
    memory (GiB), the partitions on disk (MiB); at the end the count, undirected as
    ``knightstour count BOARD [--closed] --undirected`` gives it. The figures of
    docs/counting.md, "8x8 and beyond", come from these lines.
    """
    from knightstour import arguments
    from knightstour.board import parse_board
    from knightstour.counting import RunOptions, frontier
    from knightstour.errors import SearchFailedError

    closed = kind == "closed"
    os.makedirs(folder, exist_ok=True)
    name = f"{board}-{kind}"
    log_path = os.path.join(folder, f"{name}.jsonl")
    parts = os.path.join(folder, f"{name}.parts")
    t0 = time.perf_counter()

    def disk() -> int:
        total = 0
        for root, _, files in os.walk(parts):
            for f in files:
                with contextlib.suppress(OSError):
                    total += os.path.getsize(os.path.join(root, f))
        return total

    def resident() -> float:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 2**20
        return 0.0

    def log(square: int, states: int) -> None:
        row = {
            "square": square + 1,
            "states": states,
            "seconds": round(time.perf_counter() - t0, 1),
            "rss_gib": round(resident(), 2),
            "peak_rss_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
            "disk_mib": round(disk() / 2**20, 1),
        }
        with open(log_path, "a") as f:
            f.write(json.dumps(row) + "\n")

    sweep = frontier.plan(parse_board(board), (), closed)
    checkpoint = os.path.join(folder, f"{name}.npz")
    options = RunOptions(
        checkpoint=checkpoint, memory=arguments.memory(memory), workdir=parts, until=until
    )
    if os.path.exists(checkpoint):  # a line saying where the squares after it come from
        with open(log_path, "a") as f:
            f.write(json.dumps({"resumed_from": checkpoint.rsplit(os.sep, 1)[-1]}) + "\n")
    try:
        number = frontier.run(sweep, options, step_hook=log)
    except (SearchFailedError, KeyboardInterrupt) as e:
        if isinstance(e, SearchFailedError) and until is None:
            raise
        said = "stopped" if isinstance(e, KeyboardInterrupt) else f"stopped after square {until}"
        if os.path.exists(checkpoint):
            print(f"{said}; the same command goes on from the last save, in {checkpoint}")
        else:
            print(f"{said}; nothing was saved yet (the first save is after a minute)")
        return 130 if isinstance(e, KeyboardInterrupt) else 0
    end = {"count": number, "seconds": round(time.perf_counter() - t0, 1)}
    with open(log_path, "a") as f:
        f.write(json.dumps(end) + "\n")
    print(json.dumps(end), flush=True)
    return 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--big":
        until = sys.argv[7] if sys.argv[6:7] == ["--until"] and len(sys.argv) == 8 else None
        if (
            len(sys.argv) != (6 if until is None else 8)
            or sys.argv[3] not in ("closed", "open")
            or not (until is None or until.isdigit())
        ):
            print(
                "usage: bench_count.py --big BOARD closed|open MEMORY DIR [--until SQUARE]",
                file=sys.stderr,
            )
            return 2
        return big(*sys.argv[2:6], until=None if until is None else int(until))
    if sys.argv[1:] == ["--project"]:
        project()
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--eight":
        eight()
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--spill":
        spill()
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--spill-one":
        board, closed, memory = sys.argv[2:5]
        print(json.dumps(spilled_one(board, closed == "1", int(memory) or None)))
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        board, closed, start, directed = sys.argv[2:6]
        r = one(board, closed == "1", None if start == "-" else start, directed == "1")
        print(json.dumps(r))
        return 0
    quick = "--quick" in sys.argv
    print(f"machine: {os.cpu_count()} cores; each count on every core, in its own process")
    wrong = table(published_rows(range(1, 7)) + OWN)
    speed()
    first_command()
    dask("6x7", True, False)
    dask("6x6", False, True)
    if not quick:
        wrong += table(published_rows(range(7, 8)))
        eight()
    for board, closed, start, directed, number, source, _ in published_rows(range(8, 100)):
        print(
            f"{board:>5} {kind(closed, start, directed):<24} {number:>20,} published ({source}): not counted here"
        )
    print(f"published figures reproduced: {'all' if not wrong else f'{wrong} WRONG'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
