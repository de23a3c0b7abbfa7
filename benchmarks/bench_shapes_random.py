"""``auto`` on random shaped boards of up to 64 squares: a seeded stress test of "never stuck".

    python benchmarks/bench_shapes_random.py                     # 10,000 requests, seed 1
    python benchmarks/bench_shapes_random.py --count 40000 --seed 2 --workers 2
    python benchmarks/bench_shapes_random.py --seed 2 --only 1234  # one request again

Each request (:func:`draw`) is drawn from its own generator, seeded by the run's seed and the
request's number, so any one of them can be run again alone (``--only``). A request is:

- a board of at most 64 squares: W x H with W up to 12 and H up to min(12, 64 // W), or one time
  in ten a 3-D board W x H x D (no wrap);
- a leaper (a, b) with 0 <= a < b <= 4;
- a wrap (flat boards): none, cylinder or torus, each a third of the time;
- holes, seven times in ten: up to a quarter of the squares, at random;
- an open or a closed tour, and half the time a start square (any square that is not a hole).

Each goes through ``kt.solve(method="auto")`` with its default bound (the exact search gets
``EXACT_SECONDS``); the tour it returns is validated by ``kt.Tour``. The run prints how many
were tours, proved none (by the theory or the search) or gave up, the distribution of times, the
slowest requests, and every request that gave up, as the board key, start and flag that
``tests/test_shapes_exact.py`` keeps. Compiled code is loaded before the clock starts.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

import knightstour as kt
from knightstour.board import Board

MAX_AREA = 64
#: The requests that gave up after auto's 10 s in earlier versions of the search (board key,
#: start square index or None, closed); ``--hard`` runs them. All five are answered well within
#: the bound now. The first, third and fifth since the search follows forced moves through (the
#: first's one pair of ends, a3 to e9, by 0.13 million positions where it took 11.7 million).
#: The wazir's holed 6x9 torus from d4 since the search counts the moves between two squares of
#: one colour (of its 49 pairs of ends, the 24 ending on d4's colour are ruled out at once, but
#: e9 at its second position) and searches each pair towards d4, so that the pairs share their
#: dead positions (0.26 million positions in all, 1 to 1.5 s, where 1.5 million took 6 to 13 s).
#: The antelope's 5x12 cylinder since it counts the moves out of the lines' neighbours and tries
#: them one by one: each of its 1,335 pairs of ends (435 of them once for each of its 20 moves
#: off the lines) is ruled out at its first position, 0.4 to 0.6 s in all.
#: ``tests/test_shapes_exact.py`` keeps the last two in its ``HARD_CASES``.
STILL_HARD = (
    ("7x9 leaper=1,4 wrap=cylinder holes=b1,g1,e2-f2,d5,f5,d6,c7-d7,a8,e8", 14, False),
    ("6x9 leaper=0,1 wrap=torus holes=e1,c5,e8,b9", 21, False),
    ("9x6 leaper=2,3 wrap=cylinder holes=b1,f1,c2,e2,h2,c3,h5,h6", 49, False),
    ("5x12 leaper=3,4 wrap=cylinder", None, False),
    ("7x8 leaper=2,3 wrap=cylinder holes=a1,c1,e3,a6,g7,d8", None, False),
)
#: Every leaper (a, b) with 0 <= a < b <= 4.
LEAPERS = tuple((a, b) for b in range(1, 5) for a in range(b))
WRAPS = (None, "cylinder", "torus")
#: Time buckets of the distribution (seconds, upper bounds).
BUCKETS = (0.001, 0.01, 0.1, 1.0, 5.0, 10.0)


@dataclass(frozen=True)
class Request:
    """One request of the stress family: the board's key, a start square (or None), closed."""

    number: int
    key: str
    start: int | None
    closed: bool

    @property
    def board(self) -> Board:
        return Board.from_key(self.key)

    @property
    def name(self) -> str:
        b = self.board
        start = "" if self.start is None else f" from {b.square_name(self.start)}"
        return f"#{self.number} {self.key} {'closed' if self.closed else 'open'}{start}"


def draw(seed: int, number: int) -> Request:
    """Request ``number`` of the run seeded ``seed`` (its own generator: reproducible alone)."""
    rng = random.Random(f"{seed}:{number}")
    leaper = rng.choice(LEAPERS)
    if rng.random() < 0.1:
        w = rng.randint(2, 4)
        h = rng.randint(2, 4)
        d = rng.randint(2, max(2, MAX_AREA // (w * h)))
        board = Board(w, h, leaper=leaper, depth=d)
    else:
        w = rng.randint(1, 12)
        h = rng.randint(1, min(12, MAX_AREA // w))
        board = Board(w, h, leaper=leaper, wrap=rng.choice(WRAPS))
    if rng.random() < 0.7 and board.area >= 4:
        k = rng.randint(1, board.area // 4)
        holes = frozenset(rng.sample(range(board.area), k))
        board = Board(
            board.width, board.height, leaper=leaper, wrap=board.wrap, depth=board.depth,
            holes=holes,
        )  # fmt: skip
    closed = rng.random() < 0.5
    start = None
    if rng.random() < 0.5 and board.size:
        start = rng.choice(list(board.squares()))
    return Request(number, board.key, start, closed)


def run(request: Request) -> tuple[str, float, str]:
    """(answer: tour / none / gave up / error, seconds, method or reason)."""
    board = request.board
    t0 = time.perf_counter()
    try:
        tour = kt.solve(board, request.start, closed=request.closed)
        kind, how = "tour", tour.method
    except kt.NoTourError as e:
        kind, how = "none", e.reason
    except kt.SearchFailedError as e:
        kind, how = "gave up", str(e)
    except Exception as e:  # a bug: counted and listed, so that one request does not stop the run
        kind, how = "error", repr(e)
    return kind, time.perf_counter() - t0, how


def main() -> None:
    from bench_shapes_exact import run_all  # the script's own folder is on the path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--only", type=int, nargs="*", help="run only these request numbers")
    parser.add_argument("--hard", action="store_true", help="run only STILL_HARD")
    args = parser.parse_args()
    numbers = args.only if args.only else range(args.count)
    requests = [draw(args.seed, i) for i in numbers]
    if args.hard:
        requests = [Request(-1 - i, *case) for i, case in enumerate(STILL_HARD)]
    t0 = time.perf_counter()
    results = run_all(run, requests, args.workers, 8)
    wall = time.perf_counter() - t0
    counts: dict[str, int] = {}
    for kind, _, _ in results:
        counts[kind] = counts.get(kind, 0) + 1
    times = sorted(dt for _, dt, _ in results)
    print(f"   {len(requests):,} requests, seed {args.seed} ({wall:.1f} s wall, "
          f"{args.workers} worker(s))")  # fmt: skip
    print("   " + ", ".join(f"{kind}: {n:,}" for kind, n in sorted(counts.items())))
    if times:

        def pct(p: float) -> float:
            return times[min(len(times) - 1, int(p * len(times)))]

        print(
            f"   seconds: median {pct(0.5):.4f}, 99% {pct(0.99):.3f}, 99.9% {pct(0.999):.3f}, "
            f"worst {times[-1]:.2f}, total {sum(times):.1f}"
        )
        low = 0.0
        for high in (*BUCKETS, float("inf")):
            n = sum(low <= t < high for t in times)
            label = f">= {low:g} s" if high == float("inf") else f"< {high:g} s"
            print(f"     {label:>10}: {n:,}")
            low = high
    timed = sorted(zip(requests, results, strict=True), key=lambda rr: -rr[1][1])
    print(f"   slowest {args.slowest}:")
    for r, (kind, dt, how) in timed[: args.slowest]:
        print(f"     {r.name}: {kind} in {dt:.3f} s ({how[:70]})")
    failed = [(r, res) for r, res in timed if res[0] in ("gave up", "error")]
    print(f"   gave up or failed: {len(failed)}")
    for r, (kind, dt, how) in failed:
        print(f"     {r.name}: {kind} in {dt:.2f} s ({how[:90]})")
        print(f"       ({r.key!r}, {r.start!r}, {r.closed!r}),")


if __name__ == "__main__":
    main()
