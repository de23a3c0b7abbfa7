"""``auto`` on shaped boards of up to 64 squares: which answers come back, and how fast.

    python benchmarks/bench_shapes_exact.py            # the whole survey (a few minutes)
    python benchmarks/bench_shapes_exact.py --slowest 20 --workers 2

The survey family (:func:`family`): every leaper (a, b) with 0 <= a < b <= 4 (the knight, camel,
zebra, giraffe and antelope among them) on every board up to 8 x 8 of at most 64 squares, flat,
cylinder (both orientations: the width is the side that wraps) and torus; hole patterns (the
centre removed, one hole, rounded corners, the cross, scattered holes) with the knight, zebra
and giraffe on all three wraps; and 3-D boards (2x3x4, 3x3x3, 2x4x4, 2x2x8, 3x3x4, 4x4x4 and
more) with every leaper. Each is asked for an open and a closed tour with no start square,
through ``kt.solve(method="auto")`` (the tour is validated) and through ``kt.exists``.

Each line of the table counts the answers of one group: tours found, proved none (theory or
search), gave up (``SearchFailedError``, or ``exists`` saying None), and the worst and total
seconds. The cases that gave up, and the slowest, are listed after it. Compiled code is loaded
before the clock starts.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

import knightstour as kt
from knightstour.board import Board

MAX_AREA = 64
#: Every leaper (a, b) with 0 <= a < b <= 4.
LEAPERS = tuple((a, b) for b in range(1, 5) for a in range(b))
WRAPS = (None, "cylinder", "torus")
#: The leapers that the hole patterns and shaped boards are tried with.
SHAPE_LEAPERS = ((1, 2), (2, 3), (1, 4))
#: 3-D boards (all of at most 64 squares).
SOLIDS = ((2, 2, 4), (2, 3, 3), (2, 3, 4), (3, 3, 3), (2, 2, 8), (2, 4, 4), (3, 3, 4),
          (2, 3, 6), (2, 4, 6), (3, 4, 4), (2, 4, 8), (4, 4, 4))  # fmt: skip

CROSS = """\
  ....
  ....
........
........
........
........
  ....
  ....
"""


def sizes(wrap: str | None) -> Iterator[tuple[int, int]]:
    """(width, height) up to 8 x 8 and 64 squares; both orientations only on cylinders."""
    for w, h in itertools.product(range(1, 9), repeat=2):
        if w * h <= MAX_AREA and (wrap == "cylinder" or w <= h):
            yield w, h


def shaped(wrap: str | None, leaper: tuple[int, int]) -> Iterator[Board]:
    """The hole patterns: centre removed, single holes, corners, the cross, scattered holes."""
    kw = {"leaper": leaper, "wrap": wrap}
    yield Board(8, 8, holes=["d4", "d5", "e4", "e5"], **kw)
    yield Board(6, 6, holes=["c3", "d4"], **kw)
    yield Board(5, 5, holes=["c3"], **kw)
    yield Board(7, 7, holes=["d4"], **kw)
    yield Board(8, 8, holes=["a1", "h8"], **kw)
    for w, h, r in ((8, 8, 1), (8, 8, 2), (7, 7, 1), (6, 8, 1), (7, 8, 2)):
        yield Board(w, h, **kw).with_corners(r)
    yield Board.from_mask(CROSS, **kw)
    rng = random.Random(1)
    for w, h, k in ((6, 6, 2), (6, 7, 3), (7, 7, 3), (8, 8, 4), (8, 8, 6), (7, 8, 4)):
        holes = rng.sample(range(w * h), k)
        yield Board(w, h, holes=frozenset(holes), **kw)


@dataclass(frozen=True)
class Case:
    group: str
    board: Board
    closed: bool

    @property
    def name(self) -> str:
        return f"{self.board.description} {'closed' if self.closed else 'open'}"


def family(max_area: int = MAX_AREA) -> list[Case]:
    """The survey's cases: (group, board, closed)."""
    cases: list[Case] = []
    for wrap in WRAPS:
        for leaper in LEAPERS:
            for w, h in sizes(wrap):
                if w * h <= max_area:
                    b = Board(w, h, leaper=leaper, wrap=wrap)
                    cases += [Case(f"rect {wrap or 'flat'}", b, c) for c in (False, True)]
    for wrap in WRAPS:
        for leaper in SHAPE_LEAPERS:
            for b in shaped(wrap, leaper):
                if b.area <= max_area:
                    cases += [Case(f"holes {wrap or 'flat'}", b, c) for c in (False, True)]
    for leaper in LEAPERS:
        for w, h, d in SOLIDS:
            if w * h * d <= max_area:
                b = Board(w, h, leaper=leaper, depth=d)
                cases += [Case("3-D", b, c) for c in (False, True)]
    return cases


def run_case(case: Case) -> tuple[str, str, float, str, str]:
    """(solve's answer: tour / none / gave up, its method or reason, seconds, exists' answer)."""
    t0 = time.perf_counter()
    try:
        tour = kt.solve(case.board, closed=case.closed)
        kind, how = "tour", tour.method
    except kt.NoTourError as e:
        kind, how = "none", e.reason
    except kt.SearchFailedError as e:
        kind, how = "gave up", str(e)
    except Exception as e:  # a bug: counted and listed, so that one case does not stop the survey
        kind, how = "error", repr(e)
    dt = time.perf_counter() - t0
    answer = kt.exists(case.board, closed=case.closed)
    ex = {True: "yes", False: "no", None: "unknown"}[answer.exists]
    return case.group, kind, dt, ex, how


def warm() -> None:
    """Load the compiled search and walk before any clock starts (also in each worker)."""
    from knightstour.solvers.backtrack import Search

    s = Search(Board(6, 6, holes=frozenset({7})), compiled=True)
    s.begin(0, None)
    s.advance(10**5)
    kt.solve(Board(6, 6, wrap="torus"), closed=True, method="warnsdorff")


T = TypeVar("T")
R = TypeVar("R")


def run_all(func: Callable[[T], R], items: Sequence[T], workers: int, chunksize: int) -> list[R]:
    """``func`` over ``items``, on ``workers`` processes (each warmed up first) or in this one."""
    if workers > 1:
        with multiprocessing.Pool(workers, initializer=warm) as pool:
            return pool.map(func, items, chunksize=chunksize)
    warm()
    return [func(item) for item in items]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--max-area", type=int, default=MAX_AREA)
    args = parser.parse_args()
    cases = family(args.max_area)
    t0 = time.perf_counter()
    results = run_all(run_case, cases, args.workers, 4)
    wall = time.perf_counter() - t0
    groups: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    order: list[str] = []
    for group, kind, dt, ex, _ in results:
        if group not in groups:
            order.append(group)
        g = groups[group]
        g["cases"] += 1
        g[kind] += 1
        g["exists unknown"] += ex == "unknown"
        g["exists disagrees"] += (
            ex != "unknown" and kind != "gave up" and (ex == "yes") != (kind == "tour")
        )
        g["total"] += dt
        g["worst"] = max(g["worst"], dt)
    print(f"   {len(cases)} requests ({wall:.1f} s wall, {args.workers} worker(s))")
    print(
        "   | group | requests | tours | proved none | gave up | exists unknown | worst | total |"
    )
    print("   | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in order:
        g = groups[name]
        print(
            f"   | {name} | {int(g['cases'])} | {int(g['tour'])} | {int(g['none'])} | "
            f"{int(g['gave up'])} | {int(g['exists unknown'])} | {g['worst']:.2f} s | "
            f"{g['total']:.1f} s |"
        )
    disagree = sum(int(g["exists disagrees"]) for g in groups.values())
    print(f"   exists() and solve() disagree on {disagree} request(s)")
    timed = sorted(zip(cases, results, strict=True), key=lambda cr: -cr[1][2])
    failed = [(c, r) for c, r in timed if r[1] in ("gave up", "error") or r[3] == "unknown"]
    print(f"   gave up, failed or unknown: {len(failed)}")
    for c, r in failed:
        print(f"     {c.name}: solve {r[1]} in {r[2]:.2f} s, exists {r[3]} ({r[4][:80]})")
    print(f"   slowest {args.slowest}:")
    for c, r in timed[: args.slowest]:
        print(f"     {c.name}: {r[1]} ({r[4][:60]}) in {r[2]:.3f} s")


if __name__ == "__main__":
    main()
