"""Survey of the ends construction: every pair of squares on every board in a range.

For each board W x H (``--lo`` to ``--hi`` on both sides, and the square boards up to
``--squares``), every pair of squares colour parity allows is planned (what ``exists`` runs); the
pairs it cannot plan are listed. With ``--build`` every planned pair is also built and checked as a
tour (slower). docs/divide.md quotes its output. Minutes: not part of ``make bench``.

    python benchmarks/survey_divide_ends.py --lo 6 --hi 16 --squares 25
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from knightstour.board import Board
from knightstour.solvers import _divide_ends as E


def allowed(w: int, h: int, s: int, t: int) -> bool:
    cs, ct = (s % w + s // w) % 2, (t % w + t // w) % 2
    return cs != ct if (w * h) % 2 == 0 else cs == ct == 0


def is_tour(w: int, h: int, p: np.ndarray, s: int, t: int) -> bool:
    q = p.astype(np.int64)
    dx, dy = np.abs(np.diff(q % w)), np.abs(np.diff(q // w))
    return (
        p.size == w * h
        and int(p[0]) == s
        and int(p[-1]) == t
        and np.array_equal(np.sort(q), np.arange(w * h))
        and bool(np.all(((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1))))
    )


def survey(w: int, h: int, build: bool) -> tuple[int, list[tuple[int, int]], int, int]:
    """(pairs, the pairs not planned, detours, bad tours) of one board."""
    board = Board(w, h)
    n = w * h
    missed, detours, bad, total = [], 0, 0, 0
    for s in range(n):
        for t in range(s + 1, n):
            if not allowed(w, h, s, t):
                continue
            total += 1
            if E.plan(board, s, t) is None:
                missed.append((s, t))
                continue
            detours += E._planned(w, h, s, t)[1].detour is not None
            if build and not is_tour(w, h, E.ends_tour(board, s, t), s, t):
                bad += 1
    return total, missed, detours, bad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lo", type=int, default=6)
    ap.add_argument("--hi", type=int, default=16)
    ap.add_argument("--squares", type=int, default=20)
    ap.add_argument("--build", action="store_true")
    args = ap.parse_args()
    boards = [(w, h) for w in range(args.lo, args.hi + 1) for h in range(args.lo, args.hi + 1)]
    boards += [(n, n) for n in range(args.hi + 1, args.squares + 1)]
    all_pairs = all_missed = all_detours = all_bad = 0
    t0 = time.perf_counter()
    for w, h in boards:
        total, missed, detours, bad = survey(w, h, args.build)
        all_pairs += total
        all_missed += len(missed)
        all_detours += detours
        all_bad += bad
        if missed or bad:
            board = Board(w, h)
            names = ", ".join(f"{board.square_name(s)}-{board.square_name(t)}" for s, t in missed)
            print(f"  {w}x{h}: {len(missed)} of {total} pairs not planned: {names}; bad {bad}")
    print(
        f"  {len(boards)} boards, {all_pairs:,} pairs: {all_pairs - all_missed:,} planned "
        f"({all_detours:,} by a detour), {all_missed} not"
        + (f", {all_bad} built tours invalid" if args.build else "")
        + f" ({time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
