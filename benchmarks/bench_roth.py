"""Roth's rule (tie-break ``center``) from a1 on every n x n board, n = 5..450: where it gets stuck.

    python benchmarks/bench_roth.py [N_MAX]    # default 450

Ties of Warnsdorff's count go to the candidate farthest from the centre, and remaining ties to
the first in this package's move order (:attr:`knightstour.board.Board.deltas`). The often-quoted
"first fails at 428" depends on such conventions; measured here, from a1, ``center`` gets stuck at
n = 11, 261, 352 and 379 up to 450 (:data:`EXPECTED_CENTER`). For comparison the sweep also lists
where ``first`` and ``lookahead`` get stuck, and the CPU time per square of each.
"""

from __future__ import annotations

import sys
import time

from knightstour.board import Board
from knightstour.kernels import walk as _kernels
from knightstour.solvers.warnsdorff import Walker

#: Sizes n <= 450 on which ``center`` from a1 gets stuck (this benchmark's figure).
EXPECTED_CENTER = (11, 261, 352, 379)


def stuck_sizes(tiebreak: str, n_max: int) -> tuple[list[int], float, int]:
    """The sizes n = 5..n_max on which a walk from a1 gets stuck; CPU seconds; squares walked."""
    stuck: list[int] = []
    squares = 0
    c0 = time.process_time()
    for n in range(5, n_max + 1):
        path = Walker(Board(n, n)).walk(0, tiebreak=tiebreak)
        squares += n * n
        if path.size != n * n:
            stuck.append(n)
    return stuck, time.process_time() - c0, squares


def main(n_max: int = 450) -> None:
    _kernels.COMPILE_THRESHOLD = 0  # always the compiled kernel: this measures the hot loop
    Walker(Board(5, 5)).walk(0)  # compile (or load from the cache) outside the timing
    for tiebreak in ("center", "first", "lookahead"):
        stuck, cpu, squares = stuck_sizes(tiebreak, n_max)
        note = ""
        if tiebreak == "center":
            expected = [n for n in EXPECTED_CENTER if n <= n_max]
            note = " (as documented)" if stuck == expected else f" (documented: {expected})"
        shown = ", ".join(map(str, stuck[:12])) + (", ..." if len(stuck) > 12 else "")
        first = f"first at n = {stuck[0]}, " if stuck else ""
        print(
            f"  {tiebreak:9s} from a1, n = 5..{n_max}: stuck on {len(stuck)} sizes ({first}"
            f"n = {shown}){note}; {cpu * 1e9 / squares:.1f} ns/square (CPU)"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
