"""Where one square of the counting sweep spends its time: making the successors, or adding them up.

The states before a square are swept once and saved (a ``.npz`` in the folder given); each run
then reads them back and times that one square in this process, three ways: on one thread
with the new states dropped instead of added up (the successors alone), on one thread whole,
and on two threads whole. The new states of the whole runs are checked against each other (their
number and a checksum of keys and counts), so that a faster kernel that counts wrong is seen.
docs/counting.md ("What makes it fast") quotes its figures::

    python -m research.profile_sweep 7x8 30 FOLDER           # open 7x8, square 31
    python -m research.profile_sweep 8x8 34 FOLDER --closed  # closed 8x8, square 35

Under a sampling profiler (``perf record -e cpu-clock``) the compiled code shows as anonymous
addresses; ``--addresses`` prints where each kernel of the sweep starts, to match them.

>>> _checksum(np.array([1, 2], dtype=np.uint64), np.array([[3], [4]], dtype=np.uint64))
'0x7ddf7444'
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from knightstour.board import parse_board
from knightstour.counting import frontier
from knightstour.solvers.sweep import Sweep, plan

BUDGET = 20 << 30


def _checksum(keys: np.ndarray, counts: np.ndarray) -> str:
    """A checksum of states that does not depend on their order."""
    with np.errstate(over="ignore"):
        mixed = keys * np.uint64(0x9E3779B97F4A7C15) ^ counts[:, 0]
        return hex(int(mixed.sum(dtype=np.uint64)) & 0xFFFFFFFF)


def states_before(sweep: Sweep, square: int, path: str) -> tuple[np.ndarray, np.ndarray, dict]:
    """The states before ``square`` (swept and saved to ``path`` the first time) and the
    growth of each square before it."""
    if not os.path.exists(path):
        held = frontier.LocalShards(sweep, 2, budget=BUDGET)
        try:
            for p in range(square):
                held.step(p, 4.0)
            ratios = np.array([held._ratios.get(p, 1.0) for p in range(square)])
            np.savez(
                path, keys=np.concatenate(held.keys), counts=np.concatenate(held.counts), r=ratios
            )
        finally:
            held.close()
    saved = np.load(path)
    return saved["keys"], saved["counts"], {p: float(x) for p, x in enumerate(saved["r"])}


def time_square(
    sweep: Sweep,
    square: int,
    saved: tuple[np.ndarray, np.ndarray, dict],
    threads: int,
    drop: bool = False,
    budget: int | None = BUDGET,
) -> tuple[float, int, str]:
    """Seconds for one square from the saved states, the new states and their checksum
    (``drop``: the new states are dropped instead of added up; none are then reported;
    ``budget`` None: the tables grow rather than being made up front)."""
    keys, counts, ratios = saved
    held = frontier.LocalShards(sweep, threads, budget=budget)
    held.restore(keys, counts)
    held._ratios = dict(ratios)
    real: Callable[..., Any] = frontier._hand_over

    def dropped(*args: Any) -> None:
        args[4][:] = 0  # the buffers' fill: emptied, nothing added

    frontier._hand_over = dropped if drop else real  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        held.step(square, 4.0)
        seconds = time.perf_counter() - t0
    finally:
        frontier._hand_over = real  # type: ignore[assignment]
        held.close()
    if drop:
        return seconds, 0, "-"
    out, out_counts = np.concatenate(held.keys), np.concatenate(held.counts)
    return seconds, int(out.shape[0]), _checksum(out, out_counts)


def addresses() -> None:
    """Where each compiled kernel of the sweep starts (for a sampling profiler's addresses)."""
    from knightstour.kernels import frontier as kernels
    from knightstour.kernels import jit

    k = jit.load(kernels, compiled=True)
    for name in k.names():
        for cres in getattr(k, name).overloads.values():
            where = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
            print(f"{where:#x} {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board")
    parser.add_argument("square", type=int, help="the square to time (0 is the first)")
    parser.add_argument("folder", help="where the states before it are saved")
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--addresses", action="store_true")
    parser.add_argument("--grown", action="store_true", help="tables grown, not made up front")
    a = parser.parse_args()
    sweep = plan(parse_board(a.board), (), a.closed)
    kind = "closed" if a.closed else "open"
    os.makedirs(a.folder, exist_ok=True)
    saved = states_before(
        sweep, a.square, os.path.join(a.folder, f"{a.board}-{kind}-{a.square}.npz")
    )
    n = saved[0].shape[0]
    print(f"{a.board} {kind}, square {a.square + 1}: {n:,} states before it")
    for label, threads, drop in (
        ("successors only, 1 thread", 1, True),
        ("whole, 1 thread", 1, False),
        ("whole, 2 threads", 2, False),
    ):
        budget = None if a.grown else BUDGET
        seconds, made, check = time_square(sweep, a.square, saved, threads, drop, budget)
        print(
            f"{label}: {seconds:.2f} s, {seconds / n * 1e6:.3f} us a state; {made:,} made {check}"
        )
    if a.addresses:
        addresses()


if __name__ == "__main__":
    main()
