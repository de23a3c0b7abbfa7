"""Search block patterns for fully (diagonally) magic tours of the 4x4-block construction.

    python -m research.magic_patterns stored [--budget NODES]
    python -m research.magic_patterns random [--patterns N | --seconds S] [--seed S] [--filter]
    python -m research.magic_patterns loops [--patterns N | --seconds S] [--seed S] [--filter]
    python -m research.magic_patterns free [--patterns N] [--seed S] [--budget NODES]
    python -m research.magic_patterns four [--semi]
    python -m research.magic_patterns pairs [--seconds S] [--diagonal-moves] [--semi]

A *block pattern* is the order in which the two strands P and Q of ``knightstour.magic.construct`` visit
the 4x4 blocks of a 12x12 board: every block twice, each step in the same block as the one before
or beside it (a knight's move can only continue there). The first three modes walk each pattern
whole with the compiled lockstep walk (``research/lockstep.py``: open transversal paths as well as
cycles in the blocks on a long diagonal, or in every block with ``--paths-everywhere``; both
diagonals checked on the tour's own numbers; P's units on either colour):

- ``stored`` along the stored semi-magic patterns;
- ``random`` along patterns drawn by a randomised depth-first walk that visits every block twice;
- ``loops`` along patterns made of loops, the shape of the stored patterns (``structured_pattern``);
  ``--diagonal-moves`` lets both step corner to corner as well;
- ``free`` with no pattern: the Python search (``research/diagonal.py``) picks the blocks as it
  goes, ``--patterns`` attempts;
- ``four``: the four-strand construction (``research/four.py``) walked whole along one path of each
  class of paths that step between side-by-side blocks, in every plan, on both colours
  (``--semi``: without the diagonals' check);
- ``pairs``: the four-strand walk with each pair of strands (one forwards, one backwards) on a
  path of its own, two paths drawn at random for each walk (``--diagonal-moves``: paths with
  corner-to-corner steps too), ``--budget`` nodes a walk (``--semi``: stop at a semi-magic tour).

``--filter`` skips the patterns that ``diagonals_possible`` rules out. Every tour found is
assembled, validated and checked magic, and its pattern printed (a construction would store it
and walk it again, as :func:`magic_along` does); the last line counts the patterns tried, those ruled out, those with a magic
tour, those walked whole without one, nodes and seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from functools import cache

import numpy as np

from knightstour.board import Board
from knightstour.magic.construct import _PATTERNS
from knightstour.numbering import analyse
from knightstour.tour import validate
from research.blocks import tables
from research.diagonal import assembled, search, walked_back
from research.four import FOUND, PLANS, assemble_four, assemble_strands, four_walker
from research.lockstep import EXHAUSTED, LockstepWalker, diagonal_blocks


def neighbours(bw: int, bh: int, b: int, diagonal_moves: bool = False) -> list[int]:
    """Block ``b`` and the blocks beside it (and, with ``diagonal_moves``, corner to corner)."""
    y, x = divmod(b, bw)
    return [
        v * bw + u
        for v in range(max(0, y - 1), min(bh, y + 2))
        for u in range(max(0, x - 1), min(bw, x + 2))
        if diagonal_moves or u == x or v == y
    ]


def random_pattern(
    bw: int, bh: int, rng: random.Random, diagonal_moves: bool = False
) -> tuple[int, ...]:
    """A random block pattern: every block twice, each step in or beside the block before.

    Built backwards from the joint (the last block) by a randomised depth-first walk that prefers
    blocks with fewer onward choices (Warnsdorff's rule on blocks), starting again when stuck.
    """
    while True:
        left = [2] * (bw * bh)
        start = rng.randrange(bw * bh)
        left[start] -= 1
        out = [start]
        if _extend(bw, bh, out, left, rng, [10_000], diagonal_moves):
            return tuple(out[::-1])


def _extend(
    bw: int,
    bh: int,
    out: list[int],
    left: list[int],
    rng: random.Random,
    tries: list[int],
    diagonal_moves: bool,
) -> bool:
    """Extend the walk ``out`` until every block is visited twice; False when stuck too long."""
    tries[0] -= 1
    if len(out) == 2 * bw * bh:
        return True
    if tries[0] < 0:
        return False
    options = [b for b in neighbours(bw, bh, out[-1], diagonal_moves) if left[b]]
    rng.shuffle(options)
    options.sort(key=lambda b: sum(1 for c in neighbours(bw, bh, b, diagonal_moves) if left[c]))
    for b in options:
        left[b] -= 1
        out.append(b)
        if _extend(bw, bh, out, left, rng, tries, diagonal_moves):
            return True
        out.pop()
        left[b] += 1
    return False


def structured_pattern(
    bw: int, bh: int, rng: random.Random, diagonal_moves: bool = False
) -> tuple[int, ...]:
    """A random pattern made of *loops*, the shape of the stored patterns that give tours.

    A loop is a simple path w of blocks (each a step from the one before) walked out and back,
    w + reversed(w), or, when its ends are neighbours, twice round, w + w; a path of one block
    is that block twice. Each loop starts beside the block where the one before ended, and the
    loops together cover every block.
    """
    nblocks = bw * bh
    while True:
        left = set(range(nblocks))
        out: list[int] = []
        last = None
        while left:
            near = neighbours(bw, bh, last, diagonal_moves) if last is not None else []
            starts = [b for b in left if last is None or b in near]
            if not starts:
                break
            w = [rng.choice(starts)]
            left.discard(w[0])
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                nxt = [b for b in neighbours(bw, bh, w[-1], diagonal_moves) if b in left]
                if not nxt:
                    break
                w.append(rng.choice(nxt))
                left.discard(w[-1])
            if (
                len(w) > 1
                and w[0] in neighbours(bw, bh, w[-1], diagonal_moves)
                and rng.random() < 0.5
            ):
                out += w + w
                last = w[-1]
            else:
                out += w + w[::-1]
                last = w[0]
        if not left:
            return tuple(out)


@cache
def _visit_signatures(c: int) -> frozenset[tuple[tuple[int, ...], tuple[int, ...]]]:
    """How a diagonal block's two visits can meet its diagonals, P's units starting on colour c.

    One entry per way to cut the block into (P's, Q's unit) at its first visit and at its second:
    for each visit and each diagonal of the block (main, anti), how many of its squares P's unit
    holds and the sum of their places k in the unit, and the same for Q's.
    """
    t = tables(True)
    by_mask: dict[int, list[tuple[int, int]]] = {}
    for p, q in t.vec:
        by_mask.setdefault(t.masks[p] | t.masks[q], []).append((p, q))

    def signature(p: int, q: int) -> tuple[int, ...]:
        out = []
        for on in (lambda x, y: x == y, lambda x, y: x + y == 3):
            for u in (p, q):
                places = [k for k, (x, y) in enumerate(t.travs[u][1]) if on(x, y)]
                out += [len(places), sum(places)]
        return tuple(out)

    def starts(p: int, q: int) -> bool:
        return sum(t.travs[p][1][0]) % 2 == c and sum(t.travs[q][1][0]) % 2 != c

    return frozenset(
        (signature(p1, q1), signature(p2, q2))
        for p1, q1 in t.vec
        if starts(p1, q1)
        for p2, q2 in by_mask.get(0xFFFF ^ t.masks[p1] ^ t.masks[q1], ())
        if starts(p2, q2)
    )


def diagonals_possible(bw: int, beta: tuple[int, ...]) -> bool:
    """Whether the diagonals' numbers alone allow a magic tour along ``beta`` (a quick filter).

    The tour's number on a square of P's unit at search step i (the walk from the joint: the
    pattern backwards) is 2K - 4i - k (k its place in the unit, K the number of units), on Q's
    2K + 1 + 4i + k; P's units start on one colour and Q's on the other. For each block on a
    long diagonal this lists every sum its two visits can put on each diagonal, over every way
    to cut the block into four units (knight's moves between units and the lines' balance
    ignored), and asks whether one choice per block makes both diagonals add up to the
    constant. False rules the pattern out; True says nothing more.
    """
    n = 4 * bw
    big = 4 * bw * bw  # 2K: K = 2 bw^2 units a strand
    magic = n * (n * n + 1) // 2
    steps: dict[int, list[int]] = {}
    for i, b in enumerate(beta[::-1]):
        steps.setdefault(b, []).append(i)

    def value(i: int, sig: tuple[int, ...], d: int) -> int:
        cp, kp, cq, kq = sig[4 * d : 4 * d + 4]
        return cp * (big - 4 * i) - kp + cq * (big + 1 + 4 * i) + kq

    for c in (0, 1):
        signatures = _visit_signatures(c)
        main, anti, both = {0}, {0}, set()
        for b in range(bw * bw):
            x, y = b % bw, b // bw
            on = (x == y, x + y == bw - 1)
            if not any(on):
                continue
            i1, i2 = steps[b]
            got = {
                tuple(value(i1, s1, d) + value(i2, s2, d) if on[d] else 0 for d in range(2))
                for s1, s2 in signatures
            }
            if all(on):
                both = got
            elif on[0]:
                main = {a + g for a in main for g, _ in got}
            else:
                anti = {a + g for a in anti for _, g in got}
        if not both:
            both = {(0, 0)}
        if any(magic - m in main and magic - a in anti for m, a in both):
            return True
    return False


def magic_along(
    bw: int,
    beta: tuple[int, ...],
    seed: int,
    budget: int,
    stats: dict[str, int],
    everywhere: bool = False,
) -> np.ndarray | None:
    """A validated magic tour along ``beta``, searched by the compiled lockstep walk with P's
    units on either colour, or None. Open paths are taken in the blocks on a long diagonal, or
    in every block (``everywhere``).

    ``stats`` adds up the nodes visited (``"nodes"``) and counts the patterns walked whole
    without a magic tour (``"exhausted"``: then none exists along ``beta``).
    """
    walker = _walker(bw, everywhere)
    whole = True
    for colour in (0, 1):
        status, steps, nodes = walker.walk(beta[::-1], colour, check=True, seed=seed, budget=budget)
        stats["nodes"] = stats.get("nodes", 0) + nodes
        whole = whole and status == EXHAUSTED
        if steps is None:
            continue
        order = assembled(bw, bw, walked_back(steps, True), True)
        validate(Board(4 * bw, 4 * bw), order)
        verdict = analyse(4 * bw, 4 * bw, order.tolist()).verdict
        if verdict != "magic":
            raise AssertionError(f"the search returned a {verdict} tour along {beta}")
        return order
    if whole:
        stats["exhausted"] = stats.get("exhausted", 0) + 1
    return None


@cache
def _walker(bw: int, everywhere: bool = False) -> LockstepWalker:
    blocks = range(bw * bw) if everywhere else diagonal_blocks(bw)
    return LockstepWalker(bw, bw, tables(True), path_blocks=blocks)


def free(bw: int, rng: random.Random, attempts: int, budget: int) -> int:
    """Search blocks and units together: ``attempts`` searches of ``budget`` nodes each."""
    t0 = time.perf_counter()
    nodes = found = 0
    for k in range(attempts):
        one: dict[str, int] = {}
        steps = search(bw, bw, None, random.Random(rng.getrandbits(64)), True, budget, one)
        nodes += one["nodes"]
        if steps is None:
            continue
        walk = walked_back(steps, True)
        order = assembled(bw, bw, walk, True)
        validate(Board(4 * bw, 4 * bw), order)
        verdict = analyse(4 * bw, 4 * bw, order.tolist()).verdict
        if verdict != "magic":
            raise AssertionError(f"the search returned a {verdict} tour")
        found += 1
        beta = tuple(b for b, _, _ in walk)
        took = time.perf_counter() - t0
        print(f"attempt {k}: magic tour after {took:.1f} s, {nodes:,} nodes: {beta}", flush=True)
    print(
        f"{attempts} attempts of {budget:,} nodes, {found} magic tours, {nodes:,} nodes, "
        f"{time.perf_counter() - t0:.1f} s in all"
    )
    return 0 if found else 1


def side_paths(bw: int) -> list[tuple[int, ...]]:
    """One path of blocks from each class, up to the board's 8 symmetries, of the paths that visit
    every block once, each step to a block beside the one before."""

    def steps(b: int) -> list[int]:
        y, x = divmod(b, bw)
        return [c for c in neighbours(bw, bw, b) if abs(c % bw - x) + abs(c // bw - y) == 1]

    out: list[tuple[int, ...]] = []

    def grow(path: list[int]) -> None:
        if len(path) == bw * bw:
            out.append(tuple(path))
            return
        for c in steps(path[-1]):
            if c not in path:
                grow([*path, c])

    for b in range(bw * bw):
        grow([b])

    def image(path: tuple[int, ...], t: int) -> tuple[int, ...]:
        def f(b: int) -> int:
            y, x = divmod(b, bw)
            x, y = (bw - 1 - x if t & 1 else x), (bw - 1 - y if t & 2 else y)
            return x * bw + y if t & 4 else y * bw + x

        return tuple(map(f, path))

    seen: set[tuple[int, ...]] = set()
    reps = []
    for path in out:
        if path not in seen:
            seen |= {image(path, t) for t in range(8)}
            reps.append(path)
    return reps


def four(bw: int, check: bool) -> int:
    """Walk the four-strand construction whole along every class of paths, in every plan and on
    both colours: a line for each, and the magic (or, without ``check``, semi-magic) tours found."""
    t0 = time.perf_counter()
    found = 0
    for dirs in PLANS:
        for path in side_paths(bw):
            for colour in (0, 1):
                w = four_walker(bw, colour, dirs)
                _, steps, nodes = w.walk(1, check=check, path=path)
                verdict = "none"
                if steps is not None:
                    order = assemble_four(bw, steps, w.travs, dirs)
                    validate(Board(4 * bw, 4 * bw), order)
                    m = analyse(4 * bw, 4 * bw, order.tolist())
                    verdict = f"{m.verdict}, diagonals {m.diagonals}"
                    found += m.verdict == "magic" or not check
                print(f"plan {dirs} path {path} colour {colour}: {verdict} ({nodes:,} nodes)")
    kind = "magic" if check else "semi-magic"
    print(f"{found} walks with a {kind} tour, {time.perf_counter() - t0:.1f} s in all")
    return 0


def all_paths(bw: int, diagonal_moves: bool) -> list[tuple[int, ...]]:
    """Every path of blocks that visits each block once, each step beside the block before
    (or, with ``diagonal_moves``, corner to corner too)."""
    out: list[tuple[int, ...]] = []

    def grow(path: list[int]) -> None:
        if len(path) == bw * bw:
            out.append(tuple(path))
            return
        for c in neighbours(bw, bw, path[-1], diagonal_moves):
            if c not in path:
                grow([*path, c])

    for b in range(bw * bw):
        grow([b])
    return out


def joints_possible(bw: int, paths: list[tuple[int, ...]], dirs: tuple[int, ...]) -> bool:
    """Whether each quarter's last block is the next quarter's first or beside it (a king's
    move away), so that a knight's move can join them."""
    k = bw * bw
    for q in range(3):
        a = paths[q][k - 1 if dirs[q] > 0 else 0]
        b = paths[q + 1][0 if dirs[q + 1] > 0 else k - 1]
        if abs(a % bw - b % bw) > 1 or abs(a // bw - b // bw) > 1:
            return False
    return True


def pairs(
    bw: int, rng: random.Random, check: bool, budget: int, seconds: float, diagonal_moves: bool
) -> int:
    """Walks of the four-strand construction with each pair of strands on a path of its own,
    drawn at random, until one finds a magic (semi-magic without ``check``) tour or ``seconds``
    have passed."""
    t0 = time.perf_counter()
    paths = all_paths(bw, diagonal_moves)
    walks = whole = nodes = 0
    while time.perf_counter() - t0 < seconds:
        dirs = rng.choice(PLANS)
        fw = [s for s in range(4) if dirs[s] > 0]
        bk = [s for s in range(4) if dirs[s] < 0]
        rng.shuffle(bk)
        first, second = rng.choice(paths), rng.choice(paths)
        own: list[tuple[int, ...]] = [()] * 4
        own[fw[0]] = own[bk[0]] = first
        own[fw[1]] = own[bk[1]] = second
        if not joints_possible(bw, own, dirs):
            continue
        colour = rng.randrange(2)
        w = four_walker(bw, colour, dirs)
        seed = rng.randrange(2**31)
        status, units, n = w.walk_paths(seed, own, check=check, budget=budget)
        walks += 1
        nodes += n
        whole += status != FOUND and n < budget
        if units is not None:
            order = assemble_strands(bw, own, units, w.travs, dirs)
            validate(Board(4 * bw, 4 * bw), order)
            m = analyse(4 * bw, 4 * bw, order.tolist())
            print(f"plan {dirs} paths {own} colour {colour} seed {seed}: {m.verdict}, "
                  f"diagonals {m.diagonals}")  # fmt: skip
            if m.verdict == "magic" or not check:
                print(f"{walks} walks, {nodes:,} nodes, {time.perf_counter() - t0:.1f} s")
                return 0
    kind = "magic" if check else "semi-magic"
    print(
        f"{walks} walks ({whole} walked whole), no {kind} tour, {nodes:,} nodes, "
        f"{time.perf_counter() - t0:.1f} s"
    )
    return 1


def _draws(draw, bw, rng, kw, limit, seconds):  # type: ignore[no-untyped-def]
    """Patterns drawn one by one: ``limit`` of them, or until ``seconds`` have passed."""
    t0 = time.perf_counter()
    k = 0
    while (limit is None or k < limit) and (seconds is None or time.perf_counter() - t0 < seconds):
        yield draw(bw, bw, rng, **kw)
        k += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("stored", "random", "loops", "free", "four", "pairs"))
    parser.add_argument("--patterns", type=int, default=100, help="random patterns to try")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="nodes an attempt may visit (default 200,000; pairs 2,000,000)",
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="draw patterns until this much time is spent"
    )
    parser.add_argument("--blocks", type=int, default=3, help="blocks a side (3: 12x12)")
    parser.add_argument(
        "--diagonal-moves", action="store_true", help="random patterns also step corner to corner"
    )
    parser.add_argument(
        "--filter",
        action="store_true",
        help="skip the patterns that diagonals_possible rules out before searching them",
    )
    parser.add_argument(
        "--paths-everywhere",
        action="store_true",
        help="every block may take open paths (by default only the blocks on a long diagonal)",
    )
    parser.add_argument(
        "--semi", action="store_true", help="four: report semi-magic tours (no diagonal check)"
    )
    parser.add_argument("--verbose", action="store_true", help="a line for every pattern")
    args = parser.parse_args(argv)
    bw = args.blocks
    rng = random.Random(args.seed)
    if args.mode == "free":
        return free(bw, rng, args.patterns, args.budget or 200_000)
    if args.mode == "four":
        return four(bw, not args.semi)
    if args.mode == "pairs":
        return pairs(
            bw, random.Random(args.seed), not args.semi, args.budget or 2_000_000,
            args.seconds or 60.0, args.diagonal_moves,
        )  # fmt: skip
    if args.mode == "stored":
        patterns = list(_PATTERNS.get((bw, bw), ()))
    else:
        draw = structured_pattern if args.mode == "loops" else random_pattern
        kw = {"diagonal_moves": args.diagonal_moves}
        limit = args.patterns if args.seconds is None else None
        patterns = _draws(draw, bw, rng, kw, limit, args.seconds)
    found = filtered = 0
    stats: dict[str, int] = {}
    t0 = time.perf_counter()
    for k, beta in enumerate(patterns):
        seed = rng.getrandbits(32)
        if args.filter and not diagonals_possible(bw, beta):
            filtered += 1
            continue
        t1 = time.perf_counter()
        order = magic_along(bw, beta, seed, args.budget or 200_000, stats, args.paths_everywhere)
        took = time.perf_counter() - t1
        if order is not None:
            found += 1
            print(f"pattern {k}: magic tour in {took:.1f} s: {beta}", flush=True)
        elif args.verbose:
            print(f"pattern {k}: none in {took:.1f} s", flush=True)
    print(
        f"{k + 1} patterns, {filtered} ruled out by their diagonals' numbers, "
        f"{found} with a magic tour, "
        f"{stats.get('exhausted', 0)} searched whole without one, "
        f"{stats.get('nodes', 0):,} nodes, {time.perf_counter() - t0:.1f} s in all"
    )
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
