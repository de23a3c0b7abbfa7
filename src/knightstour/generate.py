"""Many distinct tours at once, stored in the tour library.

The 1980 program behind this idea broke Warnsdorff's ties at random from one start square and kept
each new tour to compare with the ones before (64 distinct tours in 9.6 s). :func:`generate` does
the same in bulk: compiled batches of randomised walks (or searches) in worker processes on every
core, each tour put in canonical form in the batch, and the library's unique constraint keeps
out what it already holds. "Distinct" is distinct up to the board's symmetries, reversal and, for
closed tours, the starting square (:mod:`knightstour.library.canonical`).

Methods (``method="auto"`` picks with a pilot batch, and turns to ``backtrack`` when the walks stop
finding new tours):

- ``warnsdorff``: random-tie Warnsdorff walks. Random ties alone repeat themselves (on 8 × 8 a
  third of a million walks give only about 150,000 different tours), so the first
  ``slack_moves`` moves (by default half the board, at most 32) go to a random candidate among
  those within one onward move of the fewest; ``slack_moves=0`` is the classic walk. Closed
  tours keep a neighbour of the start for the last move.
- ``backtrack``: randomised depth-first search with Warnsdorff ordering that goes on past each
  tour it finds, for small boards and closed tours where the walks find few different tours
  (5 × 5 has 112 open tours up to symmetry, 6 × 6 has 1,245 closed ones).

A run is recorded in the library and committed batch by batch with its position, so a run killed
at any moment loses at most the batch in flight, and the same command run again continues it
(:func:`generate` with the same board, kind, start, count and seed resumes the unfinished run).
Walk ``j`` of a run has a seed of its own, stored with its tour; batch boundaries do not depend on
the number of workers, so a seed gives the same tours whatever the workers.

>>> from knightstour.library import Library
>>> lib = Library(":memory:")
>>> result = generate("8x8", 50, seed=1, db=lib, workers=1)
>>> result.added, lib.count("8x8")
(50, 50)
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from collections import deque
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError
from knightstour.existence import exists
from knightstour.library import canonical as cf
from knightstour.library.store import DEFAULT_DB, Batch, Library

__all__ = ["GENERATE_METHODS", "GenerateResult", "Plan", "generate"]

GENERATE_METHODS = ("auto", "warnsdorff", "backtrack")
#: Batches in a row without a new tour after which a run gives up (the methods have found all
#: they can reach, or the library holds every tour of the board).
STALL_BATCHES = 25
#: Boards of at most this many squares get long searches: they have few tours, and the library
#: can hold every one (5 x 5 has 112 open tours up to symmetry, 6 x 6 has 1,245 closed).
SMALL_BOARD = 36
#: A transaction commits the batches of at most this many seconds: what ``kill -9`` can lose.
COMMIT_SECONDS = 1.0
#: Walks move with slack for half the board, at most this many moves (longer walks have ties
#: enough; more slack only makes them fail).
MAX_SLACK = 32
#: Searches try their first squares in a random order: a sixth of the board, at most this many.
MAX_FREE = 12
#: Walks in the pilot batch that ``auto`` uses to choose between the methods.
PILOT_WALKS = 2000


@dataclass(frozen=True)
class Plan:
    """What a worker needs to make batch after batch of a run (picklable)."""

    width: int
    height: int
    closed: bool
    starts: tuple[int, ...]
    method: str
    seed: int
    batch: int  # walks (or searches) per batch
    slack_moves: int = 0  # walks: moves with slack; searches: depth of random order
    node_limit: int = 200_000
    per_search: int = 64

    @property
    def board(self) -> Board:
        return Board(self.width, self.height)


@dataclass
class GenerateResult:
    """What a call to :func:`generate` did."""

    run: int
    added: int
    requested: int
    walks: int
    seconds: float
    method: str
    seed: int
    resumed_from: int = 0
    stalled: bool = False
    library_count: int = 0

    @property
    def rate(self) -> float:
        """New tours per second."""
        return self.added / self.seconds if self.seconds > 0 else 0.0


# -- the worker side: one batch ------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _arrays(plan: Plan) -> dict[str, Any]:
    """Kernel inputs for ``plan``, made once per process."""
    if _STATE.get("plan") == plan:
        return _STATE
    from knightstour.solvers._kernels import kernel

    board = plan.board
    g = board.padded()
    perms, invs = cf.symmetries(board.width, board.height)
    _STATE.clear()
    _STATE.update(
        plan=plan,
        grid=g,
        deg0=kernel("degrees", 1 << 62)(g.blocked, g.offsets),
        nbr=board.neighbour_table().astype(np.int64),
        starts=np.array(plan.starts, dtype=np.int64),
        perms=perms,
        invs=invs,
        header=cf.header_bytes(board),
        klen=cf.key_length(board),
    )
    return _STATE


def run_batch(plan: Plan, first: int, count: int | None = None) -> Batch:
    """Walks (or searches) ``first`` … ``first + count - 1`` of ``plan``: the tours found."""
    from knightstour import _generate_kernels as k

    a = _arrays(plan)
    board = plan.board
    count = plan.batch if count is None else count
    cap = count * (plan.per_search if plan.method == "backtrack" else 1)
    keys = np.zeros((cap, a["klen"]), dtype=np.uint8)
    codes, starts, ends, seeds = (np.zeros(cap, dtype=np.int64) for _ in range(4))
    outs = (a["perms"], a["invs"], a["header"], cf.CODE_OF, keys, codes, starts, ends, seeds)
    if plan.method == "warnsdorff":
        g = a["grid"]
        found = k.warnsdorff_batch(
            g.blocked,
            a["deg0"],
            g.offsets,
            g.pad,
            g.pwidth,
            board.width,
            board.height,
            a["starts"],
            plan.closed,
            plan.slack_moves,
            plan.seed,
            first,
            count,
            *outs,
        )
    else:
        found = k.backtrack_batch(
            a["nbr"],
            a["starts"],
            plan.closed,
            plan.seed,
            first,
            count,
            plan.node_limit,
            plan.per_search,
            plan.slack_moves,
            board.width,
            *outs,
        )
    return Batch(board, plan.closed, keys, codes, starts, ends, seeds).head(found).validate()


def _worker_init(plan: Plan) -> None:
    _die_with_parent()
    _arrays(plan)


def _die_with_parent() -> None:
    """On Linux, have the kernel end this worker when the process that started it dies (say by
    ``kill -9``), rather than let it find out at its next write."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _worker_batch(args: tuple[Plan, int]) -> Batch:
    plan, first = args
    return run_batch(plan, first)


# -- choosing ------------------------------------------------------------------------------


def start_squares(board: Board, start: int | None, closed: bool) -> tuple[int, ...]:
    """The squares walks start from: ``start``, or every square a tour can start on.

    >>> start_squares(Board(5, 5), None, False)[:4]   # corner colour only on odd boards
    (0, 2, 4, 6)
    """
    if start is not None:
        return (start,)
    if closed:
        return tuple(range(board.area))
    if board.area > 40_000:
        if board.area % 2:
            return tuple(s for s in range(board.area) if board.colour(s) == 0)
        return tuple(range(board.area))
    return tuple(s for s in range(board.area) if exists(board, s).exists is not False)


def choose_method(board: Board, closed: bool, starts: tuple[int, ...], seed: int) -> str:
    """``backtrack`` on small boards (it can find all their tours) and when a pilot batch of walks
    finds few tours or few different ones; else ``warnsdorff``."""
    if board.area <= SMALL_BOARD:
        return "backtrack"
    plan = _plan(board, closed, starts, "warnsdorff", seed ^ 0x5EED)
    batch = run_batch(plan, 0, PILOT_WALKS)
    distinct = len({bytes(r) for r in batch.keys})
    if len(batch) >= PILOT_WALKS // 20 and distinct >= len(batch) // 2:
        return "warnsdorff"
    return "backtrack"


def _plan(
    board: Board,
    closed: bool,
    starts: tuple[int, ...],
    method: str,
    seed: int,
    slack_moves: int | None = None,
) -> Plan:
    n = board.area
    if method == "warnsdorff":
        slack = min(n // 2, MAX_SLACK) if slack_moves is None else slack_moves
        return Plan(
            board.width,
            board.height,
            closed,
            starts,
            method,
            seed,
            batch=int(min(16_384, max(16, 1_000_000 // n))),
            slack_moves=slack,
        )
    # searches: the first sixth of the squares in a random order, then fewest onward moves first
    if n <= SMALL_BOARD:  # searches that go on long enough to find every tour there is
        return Plan(
            board.width, board.height, closed, starts, method, seed, batch=4,
            slack_moves=min(n // 6, MAX_FREE), node_limit=5_000_000, per_search=1 << 14,
        )  # fmt: skip
    return Plan(
        board.width, board.height, closed, starts, method, seed, batch=32,
        slack_moves=min(n // 6, MAX_FREE),
    )  # fmt: skip


# -- the main side -------------------------------------------------------------------------


def generate(
    board: BoardLike,
    count: int,
    *,
    closed: bool = False,
    start: str | int | tuple[int, int] | None = None,
    seed: int | None = None,
    db: str | os.PathLike[str] | Library = DEFAULT_DB,
    workers: int | None = None,
    method: str = "auto",
    slack_moves: int | None = None,
    progress: bool | IO[str] | None = None,
) -> GenerateResult:
    """Add ``count`` new distinct tours of ``board`` to the library ``db``.

    ``workers`` processes (default: every core) make batches; this process stores them. Raises
    :class:`NoTourError` when the board has no such tour and :class:`SearchFailedError` when the
    run stops short (no new tour in :data:`STALL_BATCHES` batches in a row: the methods reach
    no more), after storing what it found. ``progress``: a stream for a progress bar, True for
    stderr, None for stderr when it is a terminal.
    """
    b = cf.check_board(parse_board(board))
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidInputError(f"count must be a positive integer, got {count!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
    if method not in GENERATE_METHODS:
        raise InvalidInputError(
            f"unknown generation method {method!r}: choose one of {', '.join(GENERATE_METHODS)}"
        )
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise InvalidInputError(f"workers must be a positive integer, got {workers!r}")
    s = None if start is None else b.parse_square(start)
    answer = exists(b, s, closed=closed)
    if answer.exists is False:
        raise NoTourError(answer.reason)
    lib = db if isinstance(db, Library) else Library(db)
    try:
        return _generate(lib, b, count, closed, s, seed, workers, method, slack_moves, progress)
    finally:
        if lib is not db:
            lib.close()


def _generate(
    lib: Library,
    b: Board,
    count: int,
    closed: bool,
    s: int | None,
    seed: int | None,
    workers: int | None,
    method: str,
    slack_moves: int | None,
    progress: bool | IO[str] | None,
) -> GenerateResult:
    t0 = time.perf_counter()
    lib.db.execute("PRAGMA cache_size=-131072")  # 128 MiB: the unique index of a big library
    run = _resumable(lib, b, closed, s, method, seed, count)
    starts = start_squares(b, s, closed)
    if not starts:
        raise NoTourError(f"no square of {b.spec} starts a tour")
    if run is None:
        seed = secrets.randbits(62) if seed is None else seed
        used = choose_method(b, closed, starts, seed) if method == "auto" else method
        run = _new_run(lib, b, closed, s, method, used, seed, seed is not None, count)
    plan = _plan(b, closed, starts, run["used"], run["seed"], slack_moves)
    result = GenerateResult(
        run=run["id"],
        added=0,
        requested=count,
        walks=0,
        seconds=0.0,
        method=run["used"],
        seed=run["seed"],
        resumed_from=run["added"],
    )
    need = count - run["added"]
    bar = _Progress.make(progress, count, f"{b.spec} {'closed' if closed else 'open'}")
    bar.update(run["added"])
    n_workers = workers or _cores()
    nxt = run["next_walk"]
    since_new = run["walks_since_new"]
    pool = None
    pending: deque[Any] = deque()
    try:
        if n_workers > 1:
            pool = _pool(n_workers, plan)

        def next_batch() -> Batch:
            if pool is None:
                return run_batch(plan, nxt)
            while len(pending) < 2 * n_workers:
                first = nxt + len(pending) * plan.batch
                pending.append(pool.apply_async(_worker_batch, ((plan, first),)))
            return pending.popleft().get()

        while need > 0 and not result.stalled:
            # one transaction: the worker batches of up to COMMIT_SECONDS (fewer, larger commits
            # write each page of the unique index once for many tours, not once for each batch)
            with lib.atomic():
                t_commit = time.monotonic()
                while need > 0 and time.monotonic() - t_commit < COMMIT_SECONDS:
                    batch = next_batch()
                    nxt += plan.batch
                    result.walks += plan.batch
                    new = lib.add_batch(batch.head(need), method=plan.method, run=run["id"])
                    since_new = 0 if new else since_new + plan.batch
                    need -= new
                    result.stalled = need > 0 and since_new >= STALL_BATCHES * plan.batch
                    lib.db.execute(
                        "UPDATE runs SET added = added + ?, next_walk = ?, walks_since_new = ?, "
                        "updated = ?, finished = ? WHERE id = ?",
                        (new, nxt, since_new, int(time.time()), int(need <= 0), run["id"]),
                    )
                    result.added += new
                    bar.update(count - need)
                    if result.stalled and method == "auto" and plan.method == "warnsdorff":
                        # the walks reach no more: search instead (it finds every tour there is)
                        plan = _plan(b, closed, starts, "backtrack", run["seed"])
                        pending.clear()
                        since_new, result.stalled, result.method = 0, False, plan.method
                        lib.db.execute(
                            "UPDATE runs SET used = ?, walks_since_new = 0 WHERE id = ?",
                            (plan.method, run["id"]),
                        )
                    if result.stalled:
                        lib.db.execute("UPDATE runs SET finished = 1 WHERE id = ?", (run["id"],))
                        break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        bar.close()
    result.seconds = time.perf_counter() - t0
    result.library_count = lib.count(b, closed)
    if result.stalled:
        raise SearchFailedError(
            f"stopped after adding {run['added'] + result.added:,} of {count:,} tours: "
            f"{STALL_BATCHES} batches in a row found no new {b.spec} tour (the library holds "
            f"{result.library_count:,}; the {plan.method} method may reach no more)"
        )
    return result


def _resumable(
    lib: Library, b: Board, closed: bool, s: int | None, method: str, seed: int | None, count: int
) -> dict[str, Any] | None:
    """The latest unfinished run asked for with the same parameters, if any."""
    q = (
        "SELECT id, seed, used, added, next_walk, walks_since_new FROM runs WHERE width = ? AND "
        "height = ? AND closed = ? AND start_sq IS ? AND method = ? AND requested = ? AND "
        "finished = 0 AND seed_given = ?"
    )
    params: list[Any] = [b.width, b.height, int(closed), s, method, count, int(seed is not None)]
    if seed is not None:
        q += " AND seed = ?"
        params.append(seed)
    row = lib.db.execute(q + " ORDER BY id DESC LIMIT 1", params).fetchone()
    if row is None:
        return None
    keys = ("id", "seed", "used", "added", "next_walk", "walks_since_new")
    return dict(zip(keys, row, strict=True))


def _new_run(
    lib: Library,
    b: Board,
    closed: bool,
    s: int | None,
    method: str,
    used: str,
    seed: int,
    seed_given: bool,
    count: int,
) -> dict[str, Any]:
    now = int(time.time())
    with lib.atomic():
        cur = lib.db.execute(
            "INSERT INTO runs (width, height, closed, start_sq, method, used, seed, seed_given, "
            "requested, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                b.width,
                b.height,
                int(closed),
                s,
                method,
                used,
                seed,
                int(seed_given),
                count,
                now,
                now,
            ),
        )
    return {
        "id": cur.lastrowid,
        "seed": seed,
        "used": used,
        "added": 0,
        "next_walk": 0,
        "walks_since_new": 0,
    }


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _pool(n: int, plan: Plan) -> Any:
    import multiprocessing as mp

    run_batch(plan, 0, 1)  # compile (or load) the kernels here: workers load them from the cache
    # not "fork": forking a process that runs threads (a server, a thread pool) can copy a held
    # lock into a worker, which then never answers; a fresh forkserver has no such threads
    methods = mp.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"
    return mp.get_context(method).Pool(n, initializer=_worker_init, initargs=(plan,))


class _Progress:
    """A one-line progress bar on a terminal (redrawn at most five times a second)."""

    def __init__(self, stream: IO[str] | None, total: int, label: str) -> None:
        self.stream, self.total, self.label = stream, total, label
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.first = -1
        self.done = 0

    @classmethod
    def make(cls, progress: bool | IO[str] | None, total: int, label: str) -> _Progress:
        if progress is None:
            progress = sys.stderr.isatty()
        if progress is True:
            return cls(sys.stderr, total, label)
        if progress is False:
            return cls(None, total, label)
        return cls(progress, total, label)

    def update(self, done: int) -> None:
        if self.first < 0:
            self.first = done
        self.done = done
        now = time.perf_counter()
        if self.stream is None or (now - self.last < 0.2 and done < self.total):
            return
        self.last = now
        frac = done / self.total if self.total else 1.0
        width = 30
        filled = int(frac * width)
        rate = (done - self.first) / max(now - self.t0, 1e-9)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{self.total:,} "
            f"{100 * frac:5.1f}% {rate:,.0f}/s "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.last = 0.0
            self.update(self.done)
            self.stream.write("\n")
            self.stream.flush()
