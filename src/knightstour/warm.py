"""Compile every kernel into Numba's disk cache, so that no first call of a command pays for it.

Numba compiles a kernel on its first call after install (seconds per kernel module) and caches
the machine code beside the source. :func:`warm` makes the real calls that the commands make,
through the public API, so the cached specialisations are exactly the ones later calls use:
Warnsdorff walks with each tie-break on a board big enough to be compiled, closed tours and an
end square, the exact search (``solve`` and ``exists``), divide and conquer above its threshold,
and the tour library's generation (walks and searches, open and closed) and import, and a number
puzzle made and proved. It then
checks that every module of :data:`knightstour.kernels.jit.MODULES` was loaded compiled: a new
kernel module that no step reaches is a bug (:class:`~knightstour.errors.InternalError`), and
``tests/test_warm.py`` holds it to that.

``knightstour warm`` calls it, and the Makefile's install step runs that; with ``workers`` above
one the steps run in that many processes at once, grouped (:data:`GROUPS`) so that no two
processes compile the same kernel. A second run only loads the cache (a few seconds). ``warm(only=SOLVER_STEPS)`` makes the web's steps alone (the solvers, the tours' metrics, the number puzzles): the
web app does that once per process, so that its searches load their kernels before a time cap
starts (:func:`knightstour.web.app.ensure_compiled`).

>>> [name for name, _ in STEPS][:2]
['warnsdorff tie-breaks', 'warnsdorff closed and to an end']
>>> warm(only=["the kitchen sink"])
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: no warm step named 'the kitchen sink' (the steps: ...)
"""

from __future__ import annotations

import contextlib
import functools
import io
import multiprocessing
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from knightstour.errors import (
    InternalError,
    InvalidInputError,
    KnightsTourError,
    NoTourError,
    SearchFailedError,
)
from knightstour.existence import exists
from knightstour.kernels import jit
from knightstour.progress import Progress
from knightstour.solvers import solve

__all__ = ["GROUPS", "SOLVER_STEPS", "STEPS", "warm"]

#: Squares of the board the Warnsdorff steps use: above the compiled walk's threshold (50,000).
WALK_BOARD = "230x230"
#: Squares of the board the divide step uses: above its compiled threshold (40,000).
DIVIDE_BOARD = "210x210"
#: A board big enough for divide to write its rows on two cores (1 << 20 squares).
PARALLEL_BOARD = "1030x1030"
#: Thin boards above the divide threshold (their tours are built another way).
THIN_BOARDS = ("3x13336", "4x10002")


def _attempt(call: Callable[[], object]) -> None:
    """Make ``call``; an answer that is not a tour (stuck, no tour) compiled the kernels too."""
    with contextlib.suppress(SearchFailedError, NoTourError):
        call()


def _walk(tiebreak: str, seed: int | None) -> None:
    solve(WALK_BOARD, start="a1", method="warnsdorff", tiebreak=tiebreak, seed=seed)


def _walks() -> None:
    from knightstour.board import Board

    w = int(WALK_BOARD.split("x")[0])  # the same walk over a neighbour table: wrapped, 3-D boards
    _attempt(lambda: solve(Board(w, w, wrap="torus"), start=0, method="warnsdorff"))
    for tiebreak in ("first", "center", "random", "lookahead", "squirrel"):
        seed = 1 if tiebreak == "random" else None  # a seed steers only random ties
        _attempt(functools.partial(_walk, tiebreak, seed))


def _walks_closed_and_to_an_end() -> None:
    # repeated walks on a board of 576 squares: 100 walks make the work big enough to compile
    _attempt(lambda: solve("24x24", start="a1", closed=True, method="warnsdorff", seed=1))
    _attempt(lambda: solve("24x24", start="a1", end="x1", method="warnsdorff", seed=1))


def _exact() -> None:
    from knightstour.board import Board
    from knightstour.solvers.backtrack import Search

    search = Search(Board(6, 6), compiled=True)  # small searches begin interpreted: compile here
    search.begin(0, None)
    search.advance(10**6)
    _attempt(lambda: solve("6x6", start="a1", closed=True, method="backtrack"))
    _attempt(lambda: solve("7x7", start="a1", method="backtrack"))
    exists("5x5", start="a1", end="e5")


def _divide() -> None:
    solve(DIVIDE_BOARD, method="divide")
    _attempt(lambda: solve(DIVIDE_BOARD, start="a1", closed=True, method="divide"))
    for thin in THIN_BOARDS:  # 3 and 4 wide: joined pieces instead of a grid of blocks
        solve(thin, method="divide")
    solve(THIN_BOARDS[0], closed=True, method="divide")
    solve(DIVIDE_BOARD, start="a1", end="b1")  # given ends: the block search and tree walk
    solve(PARALLEL_BOARD, closed=True, method="divide")  # big enough for two cores
    _divide_to_file()


def _divide_to_file() -> None:
    """A tour written to a .npy file in validated pieces (its own check kernel)."""
    import os
    import tempfile

    from knightstour.board import Board
    from knightstour.solvers import SolveRequest
    from knightstour.solvers.divide import divide_to_npy

    with tempfile.TemporaryDirectory() as folder:
        divide_to_npy(SolveRequest(Board(300, 300), closed=True), os.path.join(folder, "t.npy"))


def _library() -> None:
    from knightstour.library import Library
    from knightstour.library.generate import generate
    from knightstour.library.io import export, import_tours

    with Library(":memory:") as lib:
        generate("8x8", 400, seed=1, db=lib, workers=1, method="warnsdorff")
        generate("8x8", 10, closed=True, seed=1, db=lib, workers=1, method="warnsdorff")
        # searches: boards with quick ones (the same kernel as the long searches of small boards)
        generate("7x7", 5, seed=1, db=lib, workers=1, method="backtrack")
        generate("6x8", 5, closed=True, seed=1, db=lib, workers=1, method="backtrack")
        out = io.StringIO()
        export(lib, out, fmt="jsonl", board="8x8")
    # 400 tours of 64 squares a batch: big enough for the compiled canonical forms
    with Library(":memory:") as fresh:
        import_tours(fresh, io.StringIO(out.getvalue()), fmt="jsonl")


def _counting() -> None:
    from knightstour.counting import count, frontier

    count("6x6", closed=True)  # the frontier sweep's kernels (compiled above 60 squares x slots)
    solve("3x1400", start="b2", end="c4")  # chosen ends by the sweep: its path joined, compiled
    frontier.warm_kernels()  # and those of a cluster's step and of a checkpoint read back
    count("5x5", method="enumerate")


def _magic() -> None:
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import ranges, search

    with Library(":memory:") as lib:  # the search as it runs: 4x6's start passes, whole at once
        search(4, 6, MagicJournal(lib, 4, 6), workers=1)
    with Library(":memory:") as lib:  # the quad and quarter passes (4x8 has none; walked whole
        search(4, 8, MagicJournal(lib, 4, 8), workers=1, only=iter([0, -1]))  # in a moment)
    with Library(":memory:") as lib:  # the two-ended walk of the numbered ranges (--range N)
        search(4, 6, MagicJournal(lib, 4, 6), workers=1, only=[r.number for r in ranges(4, 6)])


def _text() -> None:
    # the command line's text of huge tours, its kernels called as the command line calls them
    import numpy as np

    from knightstour.kernels import text as _text_kernels

    k = jit.load(_text_kernels, compiled=True)
    out = np.empty(64, dtype=np.uint8)
    k.board_band(np.array([1, 0, -1, 4], dtype=np.int32), 2, 1, out)
    k.move_names(np.array([0, 5], dtype=np.int32), 3, 1, 1, 16, 0, True, out)


def _metrics() -> None:
    # a tour's metrics (crossings, turns, symmetries), open and closed, by the compiled kernels
    import numpy as np

    from knightstour.board import Board
    from knightstour.geometry import metrics

    cycle = np.array([5, 12, 9, 2], dtype=np.int32)  # a2 c3 e2 c1, a knight's 4-cycle on 5x3
    metrics(Board(5, 3), cycle, True, compiled=True)
    metrics(Board(5, 3), cycle, False, compiled=True)


def _uncrossed() -> None:
    # the longest uncrossed path and cycle: the max-plus frontier sweep
    from knightstour.counting.uncrossed import longest_uncrossed

    longest_uncrossed("4x4")
    longest_uncrossed("4x4", closed=True)


def _numbers() -> None:
    # a number puzzle made (its tour walked, the distances compiled above 64 squares) and its
    # completions counted by the exact search
    from knightstour.numberpuzzles.make import make

    make("9x9", level="hard", seed=1)


#: The steps of :func:`warm`, in order: (name, the calls it makes).
STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("warnsdorff tie-breaks", _walks),
    ("warnsdorff closed and to an end", _walks_closed_and_to_an_end),
    ("exact search", _exact),
    ("divide and conquer", _divide),
    ("library generate and import", _library),
    ("counting", _counting),
    ("magic search", _magic),
    ("text of huge tours", _text),
    ("tour metrics", _metrics),
    ("longest uncrossed path", _uncrossed),
    ("number puzzles", _numbers),
)


#: The steps that the searches of :func:`knightstour.solve` and :func:`knightstour.exists` need,
#: the metrics of their tours and the number puzzles' making and proofs: the web app's, without
#: the tour library's.
SOLVER_STEPS: tuple[str, ...] = (
    "warnsdorff tie-breaks",
    "warnsdorff closed and to an end",
    "exact search",
    "divide and conquer",
    "counting",
    "tour metrics",
    "number puzzles",
)


#: The steps that share kernels, each group made in one process when ``warm`` runs on several:
#: the library's searches load the exact search's kernels, and its walks and divide's blocks the
#: Warnsdorff walk's. The longest group first, so that the others fill the other cores.
GROUPS: tuple[tuple[str, ...], ...] = (
    ("exact search", "library generate and import"),
    ("warnsdorff tie-breaks", "warnsdorff closed and to an end", "divide and conquer"),
    ("magic search",),
    ("counting",),
    ("text of huge tours", "tour metrics", "longest uncrossed path", "number puzzles"),
)


def warm(
    progress: Progress | None = None,
    *,
    only: Collection[str] | None = None,
    workers: int = 1,
) -> list[tuple[str, float]]:
    """Compile every kernel into the cache by real calls; each step's name and seconds.

    ``progress(done, total)`` is called after each step. ``only`` names the steps to make (of
    :data:`STEPS`, in their order; an unknown name is an
    :class:`~knightstour.errors.InvalidInputError`); all by default. ``workers`` above one makes
    the :data:`GROUPS` of steps in that many processes at once: the disk cache is filled for
    every later process, but this one loads no kernel (the web app warms in-process, the
    default). When every step runs, raises :class:`InternalError` if a kernel module of
    :data:`knightstour.kernels.jit.MODULES` was not loaded compiled by any of them (a kernel
    module that ``warm`` misses).

    >>> warm(only=["text of huge tours"])[0][0]
    'text of huge tours'
    """
    names = [name for name, _ in STEPS]
    if only is not None:
        unknown = [name for name in only if name not in names]
        if unknown:
            raise InvalidInputError(
                f"no warm step named {unknown[0]!r} (the steps: {', '.join(names)})"
            )
    chosen = [name for name in names if only is None or name in only]
    if workers < 1:
        raise InvalidInputError(f"warm: workers must be at least 1, got {workers}")
    times: dict[str, float] = {}
    compiled: set[str] = set()
    if progress is not None:
        progress(0, len(chosen))
    made = _in_processes(chosen, workers) if workers > 1 else _here(chosen)
    for group_times, group_compiled in made:
        times.update(group_times)
        compiled |= group_compiled
        if progress is not None:
            progress(len(times), len(chosen))
    if len(chosen) < len(STEPS):
        return [(name, times[name]) for name in chosen]
    missed = [m for m in jit.MODULES if m not in compiled]
    if missed:
        raise InternalError(f"warm compiled no kernel of {', '.join(missed)}: add a step for it")
    return [(name, times[name]) for name in chosen]


def _make(names: Collection[str]) -> tuple[dict[str, float], set[str]]:
    """Make the named steps in this process: each one's seconds, and the modules now compiled."""
    steps = dict(STEPS)
    times: dict[str, float] = {}
    for name in names:
        t = time.perf_counter()
        try:
            steps[name]()
        except KnightsTourError as e:
            raise InternalError(f"warm: {name} failed: {e}") from e
        times[name] = time.perf_counter() - t
    return times, set(jit.compiled_modules())


def _here(chosen: list[str]) -> Iterator[tuple[dict[str, float], set[str]]]:
    """The steps one by one in this process (its kernels stay loaded)."""
    for name in chosen:
        yield _make([name])


def _in_processes(chosen: list[str], workers: int) -> Iterator[tuple[dict[str, float], set[str]]]:
    """The :data:`GROUPS` of the chosen steps in up to ``workers`` fresh processes, as each ends.

    Stopped (Ctrl-C), the processes are ended at once; what they compiled stays in the cache.
    """
    groups = [[n for n in group if n in chosen] for group in GROUPS]
    groups = [g for g in groups if g]
    spawn = multiprocessing.get_context("spawn")  # no state of this process is inherited
    pool = ProcessPoolExecutor(max_workers=min(workers, len(groups)), mp_context=spawn)
    try:
        pending: set[Future[tuple[dict[str, float], set[str]]]] = {
            pool.submit(_make, g) for g in groups
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    except BaseException:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
