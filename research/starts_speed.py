"""Nodes a second of the start passes' walk with a variant kernel (an experiment).

Runs the same parts of one start pass with the product kernel (A) and a variant (B), in turn, a
fixed node budget each, so that both see the same load; prints each one's nodes a second and
the ratio. The variant is a kernel module file with the product's interface (its board and state
tuples), or (``--bare``) a bare knight-path walk in the same
style (:mod:`research._bare_kernels`: one cut, no line sums) from the pass's start square for as
many nodes as each part took: the floor of a node's cost in this style.

    python -m research.starts_speed [--variant FILE] [--bare] [--pass -9] [--parts 40]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

from knightstour.kernels import jit
from knightstour.kernels import magic_starts as km
from knightstour.magic.starts import StartWalker, start_range

BASE: list = []


def timed(walker: StartWalker, kernels, rng, part: int, budget: int) -> tuple:
    walker._k = BASE[0]  # the state made by the product's kernels, then walked by ``kernels``
    st = walker.state(walker.index(rng), rng.closed, walker.parts(rng)[part])
    if st is None:
        return 0, 0.0, (0, ())
    board, state = st
    out = np.zeros((256, walker.n), np.int64)
    stop = np.zeros(1, np.uint8)
    t0 = time.perf_counter()
    kernels.walk(board, state, budget, stop, -1, out)
    seconds = time.perf_counter() - t0
    meta = state[km.METAS]
    where = tuple(state[km.PLACED][: meta[km.DEPTH] + 1].tolist())  # where the walk stopped
    return int(meta[km.NODES]), seconds, (int(meta[km.FOUND]), where)


def main(argv: list[str] | None = None) -> tuple[int, float]:
    """Run the comparison; return the nodes each kernel walked and B's speed over A's."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant")
    ap.add_argument(
        "--any-tree",
        action="store_true",
        help="a variant that walks another tree (a cost experiment): no check",
    )
    ap.add_argument("--bare", action="store_true", help="B: the bare walk (research._bare_kernels)")
    ap.add_argument("--pass", dest="number", type=int, default=-9)
    ap.add_argument("--parts", type=int, default=40)
    ap.add_argument("--first", type=int, default=3000)
    ap.add_argument("--budget", type=int, default=3_000_000)
    a = ap.parse_args(argv)
    walker = StartWalker(8, 8)
    rng = start_range(8, 8, -2 - a.number)
    base = jit.load(km, compiled=True)
    BASE.append(base)
    other = base
    if a.variant:
        # a name of its own: the loader keeps one compiled set a module name
        name = "variant_" + hashlib.sha1(str(Path(a.variant).resolve()).encode()).hexdigest()[:12]
        for stale in (Path(a.variant).parent / "__pycache__").glob(Path(a.variant).stem + ".*.nb*"):
            stale.unlink()  # compiled under another module name: Numba could not load it
        spec = importlib.util.spec_from_file_location(name, a.variant)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod  # so that Numba's cache can find it again
        spec.loader.exec_module(mod)
        other = jit.load(mod, compiled=True)
    timed(walker, base, rng, a.first, 1000)  # compiled before the clock starts
    if a.bare:
        from research import _bare_kernels

        plain = jit.load(_bare_kernels, compiled=True)
        start = walker.starts[walker.index(rng)]
        plain.bare(walker.nbr, walker.nn, start, 1000)
    else:
        timed(walker, other, rng, a.first, 1000)
    nodes = {"A": 0, "B": 0}
    seconds = {"A": 0.0, "B": 0.0}
    for part in range(a.first, a.first + a.parts):
        na, ta, fa = timed(walker, base, rng, part, a.budget)
        if a.bare:  # as many nodes of the bare walk
            t0 = time.perf_counter()
            nb = int(plain.bare(walker.nbr, walker.nn, start, na))
            tb, fb = time.perf_counter() - t0, fa
            na = nb
        else:
            nb, tb, fb = timed(walker, other, rng, part, a.budget)
        # the same tree: the same nodes, tours, and the same square at each depth when stopped
        assert a.any_tree or (na, fa) == (nb, fb), (part, na, nb, fa, fb)
        nodes["A"] += na
        nodes["B"] += nb
        seconds["A"] += ta
        seconds["B"] += tb
    ra, rb = (nodes[k] / seconds[k] / 1e6 for k in "AB")
    print(f"{nodes['A']:,} nodes each; A {ra:.2f} M/s, B {rb:.2f} M/s, B/A {rb / ra:.3f}")
    return nodes["A"], rb / ra


if __name__ == "__main__":
    main()
