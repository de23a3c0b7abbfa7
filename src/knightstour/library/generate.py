"""Many distinct tours at once, stored in the tour library.

The 1980 program behind this idea broke Warnsdorff's ties at random from one start square and kept
each new tour to compare with the ones before (64 distinct tours in 9.6 s). :func:`generate` does
the same in bulk: compiled batches of randomised walks (or searches), each tour put in canonical
form in the batch, and the library's unique constraint keeps out what it already holds.
"Distinct" is distinct up to the board's symmetries, reversal and, for closed tours, the starting
square (:mod:`knightstour.library.canonical`).

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

Shaped boards (holes, other leapers, wrapped and 3-D boards) take the same two methods, walked in
plain Python on the board's neighbour table (:mod:`knightstour.library.shaped`), in smaller
batches; everything else (runs, resuming, workers, Ctrl-C) is the same.

Where the batches are made: this process makes the first ones itself (a warm start costs only
loading the cached kernels), measures its rate, and starts worker processes only when the work
left would take more than :data:`POOL_AFTER_SECONDS` here; it goes on making batches while they
start up, and from then on stores what they make.

A run is recorded in the library and committed about once a second with its position, so a run
killed at any moment loses at most a second of work, and the same command run again continues it
(:func:`generate` with the same board, kind, start, count and seed resumes the unfinished run).
Walk ``j`` of a run has a seed of its own, stored with its tour, and the tours stored are the
distinct ones of the shortest run of walks ``0, 1, 2, …`` that has ``count`` of them, whatever the
batches: a seed gives the same tours whatever the number of workers.

>>> from knightstour.library import Library
>>> lib = Library(":memory:")
>>> result = generate("8x8", 50, seed=1, db=lib, workers=1)
>>> result.added, lib.tours.count("8x8")
(50, 50)
>>> seen = []
>>> _ = generate("8x8", 20, seed=2, db=lib, progress=lambda done, total: seen.append(done))
>>> seen[0], seen[-1]
(0, 20)
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, TypedDict, Unpack

import numpy as np

from knightstour import arguments
from knightstour.board import Board, BoardLike
from knightstour.errors import InternalError, InvalidInputError, NoTourError, SearchFailedError
from knightstour.existence import exists
from knightstour.geometry import require_flat
from knightstour.kernels import jit
from knightstour.library import canonical as cf
from knightstour.library import shaped
from knightstour.library.interrupted import GenerateInterrupted
from knightstour.library.store import (
    DEFAULT_DB,
    MAX_ID,
    Batch,
    Library,
    RunRequest,
    canonical_batch,
    library_board,
    shape_of,
)
from knightstour.progress import Progress
from knightstour.theory import start_mask

__all__ = [
    "GENERATE_METHODS",
    "KEEP_FEWEST",
    "GenerateInterrupted",
    "GenerateResult",
    "KeptResult",
    "MakeOptions",
    "Plan",
    "generate",
    "keep_fewest",
    "max_workers",
    "run_batch",
    "walk_starts",
]

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
#: Worker processes start only when the work left would take this process longer than this
#: (each takes about half a second to start: it loads NumPy, Numba and the cached kernels).
POOL_AFTER_SECONDS = 1.0
#: The first batch made here is this fraction of a full one: a small count is done sooner.
FIRST_BATCH_FRACTION = 8
#: Workers are given this many seconds of batches ahead: they go on making them while this
#: process stores the batches of a commit (which takes about as long as making them), rather
#: than wait for it. What they make meanwhile waits in memory.
AHEAD_SECONDS = 2 * COMMIT_SECONDS
#: The most batches a worker is given ahead (however quick its batches).
MAX_AHEAD = 32
#: Shaped boards, walked in plain Python: squares a batch of walks covers (about a quarter of a
#: second), moves a search tries, and walks in the pilot batch of ``auto``.
SHAPED_BATCH_SQUARES = 50_000
SHAPED_NODE_LIMIT = 20_000
SHAPED_PILOT_WALKS = 200


@dataclass(frozen=True)
class Plan:
    """What a process needs to make batch after batch of a run (picklable)."""

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
    #: The board's key for a shaped board (:func:`~knightstour.library.store.shape_of`), else ''.
    shape: str = ""

    @property
    def board(self) -> Board:
        return _plan_board(self.width, self.height, self.shape)


@lru_cache(maxsize=16)
def _plan_board(width: int, height: int, shape: str) -> Board:
    """A plan's board, made once per process (a shaped board's neighbour table with it)."""
    return Board.from_key(shape) if shape else Board(width, height)


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
    #: Worker processes started (0: every batch was made in this process).
    workers: int = 0
    #: When the run found no new tour because the library holds every tour of the board, or
    #: every tour from the run's start (:func:`knightstour.library.complete.completeness_of`,
    #: ``completeness_from``): its text, e.g. ``complete: 1,728 of 1,728 tours`` or
    #: ``complete: 304 of 304 tours from a1``; else ''.
    complete: str = ""
    #: Seconds this process spent compiling kernels during the run, left out of ``seconds``.
    compiling: float = 0.0

    @property
    def rate(self) -> float:
        """New tours per second."""
        return self.added / self.seconds if self.seconds > 0 else 0.0


# -- one batch (here or in a worker) --------------------------------------------------------

_STATE: dict[str, Any] = {}


def _arrays(plan: Plan) -> dict[str, Any]:
    """Kernel inputs for ``plan``, made once per process, and the compiled kernels."""
    if _STATE.get("plan") == plan:
        return _STATE
    if plan.shape:  # shaped boards are walked in Python on their neighbour table
        _STATE.clear()
        _STATE.update(plan=plan, table=shaped.Table.of(plan.board))
        return _STATE
    from knightstour.kernels import jit
    from knightstour.kernels import library as _kernels
    from knightstour.kernels import walk as walk_kernels

    board = plan.board
    g = board.padded()
    perms, invs = cf.symmetries(board.width, board.height)
    # the walk's cells of an empty board: plain Python is quicker than loading a kernel
    work = g.blocked.size
    cells = jit.for_work(walk_kernels, work, threshold=walk_kernels.COMPILE_THRESHOLD).flat_cells
    dxs = np.array([dx for dx, _ in board.deltas], dtype=np.int64)
    dys = np.array([dy for _, dy in board.deltas], dtype=np.int64)
    order = np.arange(len(board.deltas), dtype=np.int64)[None, :]
    _STATE.clear()
    _STATE.update(
        plan=plan,
        kernels=jit.load(_kernels, compiled=True),
        grid=g,
        cells0=cells(board.width, board.height, g.pad, dxs, dys, np.zeros(0, dtype=np.int64)),
        rows=walk_kernels.move_rows(g.offsets, dxs, dys, order, 0),
        nbr=board.neighbour_table().astype(np.int64),
        starts=np.array(plan.starts, dtype=np.int64),
        perms=perms,
        invs=invs,
        header=cf.header_bytes(board),
        klen=cf.key_length(board),
    )
    return _STATE


def run_batch(plan: Plan, first: int, count: int | None = None) -> Batch:
    """Walks (or searches) ``first`` … ``first + count - 1`` of ``plan``: the tours found, in
    walk order, validated.

    >>> b = Board(6, 6)
    >>> plan = Plan(6, 6, False, walk_starts(b, None, False), "backtrack", seed=1, batch=2)
    >>> batch = run_batch(plan, 0)
    >>> len(batch) > 0 and batch.validated
    True
    """
    a = _arrays(plan)
    count = plan.batch if count is None else count
    if plan.shape:
        return _shaped_batch(plan, a["table"], first, count)
    k = a["kernels"]
    board = plan.board
    cap = count * (plan.per_search if plan.method == "backtrack" else 1)
    keys = np.zeros((cap, a["klen"]), dtype=np.uint8)
    codes, starts, ends, seeds = (np.zeros(cap, dtype=np.int64) for _ in range(4))
    outs = (a["perms"], a["invs"], a["header"], cf.CODE_OF, keys, codes, starts, ends, seeds)
    if plan.method == "warnsdorff":
        g = a["grid"]
        found = k.warnsdorff_batch(
            a["cells0"], g.offsets, *a["rows"], g.pad, g.pwidth, board.width, board.height,
            a["starts"], plan.closed, plan.slack_moves, plan.seed, first, count, outs,
        )  # fmt: skip
    else:
        found = k.backtrack_batch(
            a["nbr"], a["starts"], plan.closed, plan.seed, first, count, plan.node_limit,
            plan.per_search, plan.slack_moves, board.width, outs,
        )  # fmt: skip
    return Batch(board, plan.closed, keys, codes, starts, ends, seeds).head(found).validate()


def _shaped_batch(plan: Plan, table: shaped.Table, first: int, count: int) -> Batch:
    """:func:`run_batch` on a shaped board: the walks or searches in Python, then their canonical
    forms (:func:`~knightstour.library.store.canonical_batch`), validated."""
    board = table.board
    paths: list[list[int]] = []
    seeds: list[int] = []
    for j in range(first, first + count):
        ws = shaped.walk_seed(plan.seed, j)
        rng = random.Random(ws)
        start = plan.starts[ws % len(plan.starts)]
        if plan.method == "warnsdorff":
            tour = shaped.walk(table, start, plan.closed, plan.slack_moves, rng)
            found = [] if tour is None else [tour]
        else:
            found = shaped.search(
                table, start, plan.closed, plan.slack_moves, plan.node_limit, plan.per_search, rng
            )
        paths += found
        seeds += [ws] * len(found)
    if not paths:
        empty = np.zeros((0, cf.key_length(board)), dtype=np.uint8)
        none = np.zeros(0, dtype=np.int64)
        return Batch(board, plan.closed, empty, none, none, none, none, validated=True)
    batch = canonical_batch(board, plan.closed, np.array(paths, dtype=np.int32))
    batch.seeds = np.array(seeds, dtype=np.int64)
    return batch.validate()


def _die_with_parent() -> None:
    """On Linux, have the kernel end this worker when the process that started it dies (say by
    ``kill -9``), rather than let it find out at its next write."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _worker_process(fd: int) -> None:
    """The entry point of a worker process (``python -c``): its first message on the pipe
    ``fd`` is the plan, then :func:`_worker_main`.

    Ctrl-C reaches the whole process group: the worker starts with SIGINT blocked (the parent
    blocks it around the start), ignores it, and the parent, which stops the run, ends it.
    """
    import signal
    from multiprocessing.connection import Connection

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    conn = Connection(fd)
    try:
        plan = conn.recv()
    except (EOFError, OSError):  # the parent closed the pipe or died
        return
    _worker_main(conn, plan)


def _worker_main(conn: Any, plan: Plan) -> None:
    """A worker: batches asked for on its own pipe, answered on it in the order asked."""
    _arrays(plan)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):  # the parent closed the pipe or died
            return
        if job is None:
            return
        number, new_plan, first, count = job
        plan = new_plan or plan
        answer: tuple[int, Batch | None, str | None]
        try:
            answer = (number, run_batch(plan, first, count), None)
        except Exception as e:  # a bug: reported to the parent, which raises it
            answer = (number, None, f"{type(e).__name__}: {e}")
        try:
            conn.send(answer)
        except OSError:  # the parent is gone
            return


class _Workers:
    """Worker processes, each with a pipe of its own to this process.

    Nothing is shared between the processes but their own pipe, so ending them (at the end of a
    run, or on Ctrl-C) never waits on a lock a worker held when it was stopped, as a
    ``multiprocessing.Pool`` can. They are plain child processes (``python -c``, started by
    :mod:`subprocess`, which forks safely from a process that runs threads): no forkserver and
    no resource tracker outlive the run, so when :meth:`close` returns, the process group holds
    this process alone. Jobs go round the workers in turn; a thread of this process
    reads every answer as soon as it comes (a worker never waits for this one to finish storing),
    tagged with its job's number, so answers to jobs dropped by :meth:`_Batches.switch` are
    skipped.
    """

    def __init__(self, n: int, plan: Plan) -> None:
        import threading

        self.procs: list[Any] = []
        self.conns: list[Any] = []
        self.plans: list[Plan] = []  # the plan each worker has: sent again only when it changes
        self.answers: dict[int, tuple[Batch | None, str | None]] = {}
        self.lost = False  # a worker ended unexpectedly
        self.stopping = False
        self.jobs = 0
        self.ready_signal = threading.Condition()
        try:
            for _ in range(n):
                proc, conn = _start_worker()
                self.procs.append(proc)
                self.conns.append(conn)
                conn.send(plan)
                self.plans.append(plan)
        except BaseException:
            self.kill()
            raise
        self.reader = threading.Thread(target=self._read_all, name="generate-answers", daemon=True)
        self.reader.start()

    def submit(self, plan: Plan, first: int, count: int) -> _Job:
        """Ask the next worker in turn for walks ``first`` … ``first + count - 1``."""
        number = self.jobs
        self.jobs += 1
        worker = number % len(self.conns)
        new = None if plan is self.plans[worker] else plan
        self.plans[worker] = plan
        self.conns[worker].send((number, new, first, count))
        return _Job(self, number)

    def _read_all(self) -> None:
        from multiprocessing.connection import Connection, wait

        live = list(self.conns)
        while live and not self.stopping:
            for conn in wait(live, timeout=0.2):
                assert isinstance(conn, Connection)  # what wait() hands back of connections
                try:
                    number, batch, error = conn.recv()
                except (EOFError, OSError):
                    live.remove(conn)
                    with self.ready_signal:
                        self.lost = not self.stopping
                        self.ready_signal.notify_all()
                    continue
                with self.ready_signal:
                    self.answers[number] = (batch, error)
                    self.ready_signal.notify_all()

    def close(self) -> None:
        """End the workers at once: what they are still making is not wanted.

        They hold no lock of this process, so killing them leaves nothing waiting.
        """
        if self.stopping:
            return
        self.stopping = True
        self.kill()
        self.reader.join()
        for conn in self.conns:
            conn.close()

    def kill(self) -> None:
        """Kill every worker and wait for it (no zombie, nothing left in the process group)."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait()


def _start_worker() -> tuple[Any, Any]:
    """A worker process and this end of its pipe.

    SIGINT is blocked in this thread while the worker starts, so the worker inherits it blocked
    and a Ctrl-C before it sets SIGINT aside cannot print a traceback from it.
    """
    import signal
    import socket
    import subprocess
    import sys
    from multiprocessing.connection import Connection

    here, there = socket.socketpair()
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    code = (
        "from knightstour.library.generate import _worker_process; "
        f"_worker_process({there.fileno()})"
    )
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", code],
            pass_fds=(there.fileno(),),
            stdin=subprocess.DEVNULL,
            env=env,
        )
    except BaseException:
        here.close()
        raise
    finally:
        there.close()
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return proc, Connection(here.detach())


@dataclass
class _Job:
    """A batch asked of a worker."""

    workers: _Workers
    number: int

    def ready(self) -> bool:
        """Whether the answer has come."""
        with self.workers.ready_signal:
            return self.number in self.workers.answers

    def get(self) -> Batch:
        """The batch (waiting for it)."""
        w = self.workers
        with w.ready_signal:
            while self.number not in w.answers:
                if w.lost:
                    raise InternalError("a generate worker process ended unexpectedly")
                w.ready_signal.wait(0.5)
            batch, error = w.answers.pop(self.number)
            for stale in [n for n in w.answers if n < self.number]:  # jobs dropped earlier
                del w.answers[stale]
        if batch is None:
            raise InternalError(f"a generate worker failed: {error}")
        return batch


# -- choosing ------------------------------------------------------------------------------


def walk_starts(board: Board, start: int | None, closed: bool) -> tuple[int, ...]:
    """The squares walks start from: ``start``, or every square theory allows a tour from.

    :func:`knightstour.theory.start_mask` asks the theory once per class of squares on big
    boards, so this is quick on a board of a million squares.

    >>> walk_starts(Board(5, 5), None, False)[:4]   # corner colour only on odd boards
    (0, 2, 4, 6)
    >>> walk_starts(Board(4, 10_001), None, False)[:4]   # the outer lines only on 4 x n boards
    (0, 3, 4, 7)
    """
    if start is not None:
        return (start,)
    return tuple(np.flatnonzero(start_mask(board, closed)).tolist())


def choose_method(board: Board, closed: bool, starts: tuple[int, ...], seed: int) -> str:
    """``backtrack`` on small boards (it can find all their tours) and when a pilot batch of walks
    finds few tours or few different ones; else ``warnsdorff``.

    >>> choose_method(Board(8, 8), False, tuple(range(64)), seed=1)
    'warnsdorff'
    """
    if board.size <= SMALL_BOARD:
        return "backtrack"
    plan = make_plan(board, closed, starts, "warnsdorff", seed ^ 0x5EED)
    walks = PILOT_WALKS if board.is_plain_knight else SHAPED_PILOT_WALKS
    batch = run_batch(plan, 0, walks)
    distinct = len({bytes(r) for r in batch.keys})
    if len(batch) >= walks // 20 and distinct >= len(batch) // 2:
        return "warnsdorff"
    return "backtrack"


def make_plan(
    board: Board,
    closed: bool,
    starts: tuple[int, ...],
    method: str,
    seed: int,
    slack_moves: int | None = None,
) -> Plan:
    """How a run of ``method`` makes its batches on ``board``.

    >>> make_plan(Board(8, 8), False, (0,), "warnsdorff", seed=1).batch
    15625
    >>> make_plan(Board(8, 8, wrap="torus"), False, (0,), "warnsdorff", seed=1).batch
    781
    """
    n = board.size
    if not board.is_plain_knight:
        shape = shape_of(board)
        free = min(n // 6, MAX_FREE)
        if method == "warnsdorff":
            slack = min(n // 2, MAX_SLACK) if slack_moves is None else slack_moves
            return Plan(
                board.width, board.height, closed, starts, method, seed,
                batch=max(1, min(4096, SHAPED_BATCH_SQUARES // n)), slack_moves=slack,
                shape=shape,
            )  # fmt: skip
        return Plan(
            board.width, board.height, closed, starts, method, seed, batch=2,
            slack_moves=free, node_limit=SHAPED_NODE_LIMIT, per_search=256, shape=shape,
        )  # fmt: skip
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


# -- where batches are made ----------------------------------------------------------------


class _Batches:
    """The batches of a run in walk order, made here, or by worker processes once started.

    Batch boundaries do not change which tours a run stores (they are the distinct tours of the
    shortest run of walks with enough of them), so this process may make its batches any size
    and the workers' full ones. While the workers start up, this process goes on making batches
    itself: the next one not yet handed to a worker, kept until its turn comes.
    """

    def __init__(self, plan: Plan, first: int, workers: int) -> None:
        self.plan = plan
        self.next = first  # the first walk not yet taken
        self.max_workers = workers
        self.pool: _Workers | None = None
        #: batches after ``next``, in walk order: (first walk, walks, a Batch or a worker's job)
        self.slots: deque[tuple[int, int, Any]] = deque()
        self.jobs = 0  # slots that are a worker's job
        self.workers_ready = False
        self.size = max(1, plan.batch // FIRST_BATCH_FRACTION)
        self.walk_seconds = 0.0  # what a walk (or search) of the plan takes here, once measured
        self.walks_taken = self.tours_taken = 0  # what the batches taken held
        self.wanted: int | None = None  # tours still wanted beyond those taken: None, no bound

    def take(self) -> tuple[int, Batch]:
        """The next batch in walk order, and how many walks it covers."""
        if self.pool is None:
            first, count = self.next, self.size
            batch = self._here(first, count)
            self.size = self.plan.batch
        else:
            while True:
                first, count, item = self.slots[0]
                if isinstance(item, Batch):
                    batch = item
                    break
                if self.workers_ready or item.ready():
                    batch = item.get()
                    self.workers_ready = True
                    self.jobs -= 1
                    break
                # the workers are still starting: make the batch after the last one here
                end = self.slots[-1][0] + self.slots[-1][1]
                self.slots.append((end, self.plan.batch, self._here(end, self.plan.batch)))
            self.slots.popleft()
        if first != self.next:  # pragma: no cover - a bug
            raise InternalError(f"batch at walk {first} handed over for walk {self.next}")
        self.next = first + count
        self.walks_taken += count
        self.tours_taken += len(batch)
        self._submit()  # after the batch taken, where the next jobs start when none is left
        return count, batch

    def want(self, tours: int) -> None:
        """Say that ``tours`` more are wanted after the batches taken: the workers are asked
        for about that many (a quarter more), not for the whole of :meth:`ahead`, so that
        none is left making batches the run will not take."""
        self.wanted = max(0, tours)

    def _here(self, first: int, count: int) -> Batch:
        t0 = time.perf_counter()
        batch = run_batch(self.plan, first, count)
        self.walk_seconds = (time.perf_counter() - t0) / max(1, count)
        return batch

    def ahead(self) -> int:
        """How many batches the workers are given ahead: :data:`AHEAD_SECONDS` of theirs (at
        the rate this process made its own), at least two each.

        >>> b = _Batches(make_plan(Board(8, 8), False, (0,), "warnsdorff", 1), 0, workers=2)
        >>> b.ahead()
        4
        >>> b.walk_seconds = 1e-5   # a batch of 15,625 walks in about 0.16 s
        >>> b.ahead()
        26
        """
        each = 2
        if self.walk_seconds > 0:
            batch_seconds = self.walk_seconds * self.plan.batch
            each = max(each, min(MAX_AHEAD, round(AHEAD_SECONDS / batch_seconds)))
        return each * self.max_workers

    def consider_workers(self, tours_left: int, tours_done: int, seconds: float) -> None:
        """Start worker processes when ``tours_left`` more would take this process long, at the
        rate it stored ``tours_done`` in ``seconds`` (making and storing them)."""
        if self.pool is not None or self.max_workers < 2 or tours_done <= 0 or seconds <= 0:
            return
        if tours_left * seconds / tours_done <= POOL_AFTER_SECONDS:
            return
        self.pool = _Workers(self.max_workers, self.plan)
        self._submit()

    def _submit(self) -> None:
        if self.pool is None:
            return
        end = self.slots[-1][0] + self.slots[-1][1] if self.slots else self.next
        while self.jobs < self.ahead() and not self._enough():
            job = self.pool.submit(self.plan, end, self.plan.batch)
            self.slots.append((end, self.plan.batch, job))
            self.jobs += 1
            end += self.plan.batch

    def _enough(self) -> bool:
        """Whether the jobs asked for will bring, at the rate of the batches taken, the tours
        still wanted (:meth:`want`) and a quarter more."""
        if self.wanted is None or not self.walks_taken or not self.jobs:
            return False
        rate = self.tours_taken / self.walks_taken
        return self.jobs * self.plan.batch * rate >= 1.25 * self.wanted

    def switch(self, plan: Plan, walk: int | None = None) -> None:
        """Go on with ``plan`` from the next walk, or from ``walk`` (the batches in flight are
        dropped)."""
        self.plan = plan
        if walk is not None:
            self.next = walk
        self.slots.clear()
        self.jobs = 0
        self.size = max(1, plan.batch // FIRST_BATCH_FRACTION)
        # the rates measured were the old plan's
        self.walk_seconds, self.walks_taken, self.tours_taken = 0.0, 0, 0
        self._submit()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


max_workers = arguments.cores  # the most worker processes generate starts: one a core
_cores = max_workers  # the name the benchmarks use


# -- the main side -------------------------------------------------------------------------


class _Held(Exception):
    """A merged batch held a tour the library had (or twice): it is stored batch by batch."""


def _can_merge(todo: list[tuple[int, int, Batch]], need: int, since_new: int, plan: Plan) -> bool:
    """Whether storing the batches ``todo`` (first walk, walks, batch) as one stores what storing
    them one by one would, if every tour is new: at most ``need`` in all, and no batch that ends
    the run for finding nothing new (``since_new`` walks found none before them)."""
    if len(todo) < 2 or sum(len(batch) for _, _, batch in todo) > need:
        return False
    for _, walks, batch in todo:
        since_new = 0 if len(batch) else since_new + walks
        if since_new >= STALL_BATCHES * plan.batch:
            return False
    return True


def _store_merged(
    lib: Library, todo: list[tuple[int, int, Batch]], plan: Plan, run: int
) -> list[int] | None:
    """Store the batches ``todo`` as one, in the caller's transaction (:func:`_can_merge`): how
    many each added; None, nothing stored, when a tour is held already (or twice).

    Sorted together, the keys of a whole commit reach the unique index in order, each of its
    pages taken once for many keys: quicker than batch by batch.
    """
    joined = Batch.joined([batch for _, _, batch in todo])
    try:
        with lib.atomic():
            if lib.tours.add_batch(joined, method=plan.method, run=run) != len(joined):
                raise _Held
    except _Held:
        return None
    return [len(batch) for _, _, batch in todo]


class MakeOptions(TypedDict, total=False):
    """How :func:`generate` and :func:`keep_fewest` make tours, and where they keep them.

    ``closed``: closed tours only (default False); ``start``: the first square of every tour
    (default any); ``seed``: makes a run repeatable; ``db``: the library, a path or an open
    :class:`~knightstour.library.Library` (default :data:`DEFAULT_DB`); ``workers``: worker
    processes, at most one per core (default one per core, :func:`max_workers`); ``method``:
    one of :data:`GENERATE_METHODS` (default ``auto``); ``progress``: ``progress(done, total)``
    as tours are stored.
    """

    closed: bool
    start: str | int | tuple[int, int] | None
    seed: int | None
    db: str | os.PathLike[str] | Library
    workers: int | None
    method: str
    progress: Progress | None


@dataclass(frozen=True)
class _Making:
    """A generation's options, checked (:func:`_making`); ``lib`` is closed at the end when
    it was opened here (``owned``)."""

    board: Board
    closed: bool
    start: int | None
    seed: int | None
    workers: int
    method: str
    progress: Progress | None
    lib: Library
    owned: bool


def _making(
    b: Board,
    *,
    closed: bool = False,
    start: str | int | tuple[int, int] | None = None,
    seed: int | None = None,
    db: str | os.PathLike[str] | Library = DEFAULT_DB,
    workers: int | None = None,
    method: str = "auto",
    progress: Progress | None = None,
) -> _Making:
    """Check the options of a generation on ``b`` (:class:`MakeOptions`) and open its library,
    once theory has not ruled the tours out (:class:`NoTourError` when it has)."""
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63
    ):
        raise InvalidInputError(f"seed must be an integer from 0 to 2**63 - 1, got {seed!r}")
    if method not in GENERATE_METHODS:
        raise InvalidInputError(
            f"unknown generation method {method!r}: choose one of {', '.join(GENERATE_METHODS)}"
        )
    if workers is not None:
        arguments.workers(workers)  # checked; capped below, at the cores max_workers counts
    progress = arguments.progress(progress)
    s = None if start is None else b.parse_square(start, argument="start")
    answer = exists(b, s, closed=closed)
    if answer.exists is False:
        raise NoTourError(answer.reason)
    workers = min(workers or max_workers(), max_workers())
    lib = db if isinstance(db, Library) else Library(db)
    return _Making(b, closed, s, seed, workers, method, progress, lib, lib is not db)


def generate(
    board: BoardLike,
    count: int,
    *,
    slack_moves: int | None = None,
    **making: Unpack[MakeOptions],
) -> GenerateResult:
    """Add ``count`` new distinct tours of ``board`` to the library ``db``
    (:class:`MakeOptions`: ``closed``, ``start``, ``seed``, ``db``, ``workers``, ``method``,
    ``progress``).

    Batches are made in this process and, when the run is long enough to repay starting them,
    in up to ``workers`` worker processes (default, and at most: one per core,
    :func:`max_workers`); this process stores them. The library is checked first
    (:meth:`Library.check_integrity`): a damaged one is refused, not written to. Processes started with
    the same call at once share one run, and together store exactly ``count`` tours.
    Ctrl-C raises :class:`GenerateInterrupted` with the number of tours kept, once every worker
    process has ended.
    ``progress(done, total)`` is called as tours are stored (``done`` counts a resumed run's
    earlier tours too; ``total`` is ``count``). Raises :class:`NoTourError` when the board has
    no such tour and :class:`SearchFailedError` when the run stops short (no new tour in
    :data:`STALL_BATCHES` batches in a row: the methods reach no more), after storing what it
    found; unless the library holds every tour of the board (no start square given): then the
    result says so (``complete``) and stores what it found.

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> generate("6x6", 10, closed=True, start="a1", seed=3, db=lib).added
    10
    >>> generate("5x5", 1, closed=True, db=lib)
    Traceback (most recent call last):
    ...
    knightstour.errors.NoTourError: no closed tour on 5x5: ...
    """
    b = cf.check_library_board(library_board(board))
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ID:
        raise InvalidInputError(f"count must be a positive integer up to {MAX_ID:,}, got {count!r}")
    if slack_moves is not None and (
        isinstance(slack_moves, bool) or not isinstance(slack_moves, int) or slack_moves < 0
    ):
        raise InvalidInputError(f"slack_moves must be a non-negative integer, got {slack_moves!r}")
    m = _making(b, **making)
    try:
        m.lib.check_integrity()
        return _generate(m, count, slack_moves)
    except GenerateInterrupted:
        raise
    except KeyboardInterrupt:  # before the run began: nothing of it stored
        raise GenerateInterrupted(0) from None
    finally:
        if m.owned:
            m.lib.close()


def _generate(m: _Making, count: int, slack_moves: int | None) -> GenerateResult:
    lib, b, closed, s, seed = m.lib, m.board, m.closed, m.start, m.seed
    workers, method, progress = m.workers, m.method, m.progress
    watch = jit.Stopwatch()
    lib.reserve_write_cache()
    starts = walk_starts(b, s, closed)
    if not starts:
        raise NoTourError(f"no square of {b.description} starts a tour")

    def choose(seed: int) -> str:
        return choose_method(b, closed, starts, seed) if method == "auto" else method

    ask = RunRequest(b, closed, s, method, seed, count)
    run = lib.runs.claim(ask, secrets.randbits(62), choose)
    plan = make_plan(b, closed, starts, run.used, run.seed, slack_moves)
    result = GenerateResult(
        run=run.id,
        added=0,
        requested=count,
        walks=0,
        seconds=0.0,
        method=run.used,
        seed=run.seed,
        resumed_from=run.added,
    )
    if progress is not None:
        progress(run.added, count)
    need = count - run.added
    batches = _Batches(plan, run.next_walk, workers)
    _arrays(plan)  # load the kernels first: the rate that decides on workers is making tours
    t_loop = time.perf_counter()
    kept = run.added  # the run's tours committed
    merge = True  # store a commit's batches as one (until a commit finds a tour held)
    try:
        while need > 0 and not result.stalled:
            # the batches of up to COMMIT_SECONDS, made outside any transaction (another process
            # on the same run may write meanwhile), then stored in one short transaction (fewer,
            # larger commits write each page of the unique index once for many tours)
            pending: list[tuple[int, int, Batch]] = []
            t_commit, bound = time.monotonic(), 0
            while bound < need and time.monotonic() - t_commit < COMMIT_SECONDS:
                first = batches.next
                batches.want(need - bound)
                walks, batch = batches.take()
                pending.append((first, walks, batch))
                bound += len(batch)
                made = result.added + bound
                batches.consider_workers(need - bound, made, time.perf_counter() - t_loop)
            with lib.atomic():
                # where the file says the run is: another process may share it
                lib.runs.sync(run)
                need = count - run.added
                if run.finished or need <= 0:
                    result.stalled = need > 0
                    break
                if run.used != plan.method:  # the other process turned to searching
                    plan = make_plan(b, closed, starts, run.used, run.seed)
                    batches.switch(plan, run.next_walk)
                    result.method, pending = plan.method, []
                since_new = run.walks_since_new
                # the walks another process did meanwhile are left out
                todo = [(f, w, batch) for f, w, batch in pending if f >= run.next_walk]
                news = None
                if merge and _can_merge(todo, need, since_new, plan):  # all in one insert
                    news = _store_merged(lib, todo, plan, run.id)
                    merge = news is not None
                for i, (first, walks, batch) in enumerate(todo):
                    result.walks += walks
                    if news is not None:
                        new = news[i]
                    else:
                        new = lib.tours.add_batch(batch.head(need), method=plan.method, run=run.id)
                    since_new = 0 if new else since_new + walks
                    need -= new
                    result.added += new
                    result.stalled = need > 0 and since_new >= STALL_BATCHES * plan.batch
                    lib.runs.advance(
                        run,
                        added=new,
                        next_walk=first + walks,
                        walks_since_new=since_new,
                        finished=need <= 0,
                    )
                    if progress is not None:
                        progress(count - need, count)
                    if need <= 0:
                        break
                    if result.stalled and method == "auto" and plan.method == "warnsdorff":
                        # the walks reach no more: search instead (it finds every tour there is)
                        plan = make_plan(b, closed, starts, "backtrack", run.seed)
                        batches.switch(plan, run.next_walk)
                        lib.runs.switch_method(run, plan.method)
                        since_new, result.stalled, result.method = 0, False, plan.method
                        break  # the walks made ahead are not wanted
                    if result.stalled:
                        lib.runs.finish(run)
                        break
                if run.next_walk > batches.next:  # the other process went ahead
                    batches.switch(plan, run.next_walk)
            kept = run.added
    except KeyboardInterrupt:
        batches.close()
        raise GenerateInterrupted(kept) from None
    finally:
        batches.close()
    result.workers = 0 if batches.pool is None else workers
    result.seconds, result.compiling = watch.read()
    result.library_count = lib.tours.count(b, closed)
    if result.stalled and b.is_plain_knight:
        from knightstour.library.complete import completeness_from, completeness_of

        whole = completeness_of(lib, b, closed) if s is None else completeness_from(
            lib, b, closed, s)  # fmt: skip
        if whole.complete:  # no tour is left to find: an answer, not a stop
            result.stalled, result.complete = False, whole.text()
    if result.stalled:
        raise SearchFailedError(
            f"stopped after adding {run.added:,} of {count:,} tours: "
            f"{STALL_BATCHES} batches in a row found no new {b.description} tour (the library holds "
            f"{result.library_count:,}; the {plan.method} method may reach no more)"
        )
    return result


# -- the fewest crossings (or turns) met -----------------------------------------------------

#: What ``--keep-fewest`` keeps the fewest of.
KEEP_FEWEST = ("crossings", "turns")
#: Tours met by default: this many for each tour kept, and at least :data:`MIN_MEET`.
MEET_EACH, MIN_MEET = 10, 1000


@dataclass
class KeptResult:
    """What :func:`keep_fewest` did: tours ``met`` (as made, a tour made twice counted twice),
    ``distinct`` of them, the ``kept`` ones stored (``added`` new to the library, the rest held
    already), the range of the metric among those kept, and whether Ctrl-C ``stopped`` it."""

    metric: str
    met: int
    distinct: int
    kept: int
    added: int
    least: int | None
    most: int | None
    seconds: float
    method: str
    seed: int
    stopped: bool = False


def keep_fewest(
    board: BoardLike,
    count: int,
    metric: str = "crossings",
    *,
    meet: int | None = None,
    **making: Unpack[MakeOptions],
) -> KeptResult:
    """Make tours of ``board`` as :func:`generate` does (the same :class:`MakeOptions`) until ``meet`` have been met (default
    ``MEET_EACH * count``, at least ``MIN_MEET``), and store the ``count`` distinct ones with the
    fewest ``metric`` (``crossings`` or ``turns``) among them.

    How it chooses: the run keeps a pool of at most ``count`` tours. Each batch's tours join it,
    a tour met again is counted once (the first met stays), and the pool is cut back to the
    ``count`` with the fewest ``metric``; ties go to the fewer of the other metric, then to the
    tour met first (so a seed gives the same tours whatever the workers). At the end the pool
    is stored (a tour the library holds already is not stored twice: ``added`` says how many
    were new). Ctrl-C stores the pool as it is (``stopped``). Not a resumable run: nothing is
    stored before the end. A board where no batch makes a tour :data:`STALL_BATCHES` times in
    a row stops there and stores what it has. Wrapped and 3-D boards are refused (the metrics
    are not defined there).

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> r = keep_fewest("8x8", 5, "crossings", meet=2000, seed=1, db=lib, workers=1)
    >>> r.kept, r.added, r.met >= 2000, r.least <= r.most
    (5, 5, True, True)
    """
    b = cf.check_library_board(library_board(board))
    require_flat(b)
    if metric not in KEEP_FEWEST:
        raise InvalidInputError(f"keep the fewest of {' or '.join(KEEP_FEWEST)}, not {metric!r}")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 10_000_000:
        raise InvalidInputError(
            f"the tours kept (count) must be a positive integer up to 10,000,000, got {count!r}"
        )
    if meet is None:
        meet = max(MEET_EACH * count, MIN_MEET)
    if isinstance(meet, bool) or not isinstance(meet, int) or not count <= meet <= MAX_ID:
        raise InvalidInputError(
            f"the tours met (meet) must be an integer from the count ({count:,}) up, got {meet!r}"
        )
    m = _making(b, **making)
    if m.seed is None:
        m = replace(m, seed=secrets.randbits(62))
    try:
        m.lib.check_integrity()
        return _keep_fewest(m, count, metric, meet)
    finally:
        if m.owned:
            m.lib.close()


def _keep_fewest(m: _Making, count: int, metric: str, meet: int) -> KeptResult:
    lib, b, closed, s, seed = m.lib, m.board, m.closed, m.start, m.seed
    workers, method, progress = m.workers, m.method, m.progress
    assert seed is not None  # keep_fewest chose one
    watch = jit.Stopwatch()
    starts = walk_starts(b, s, closed)
    if not starts:
        raise NoTourError(f"no square of {b.description} starts a tour")
    used = choose_method(b, closed, starts, seed) if method == "auto" else method
    plan = make_plan(b, closed, starts, used, seed)
    batches = _Batches(plan, 0, workers)
    _arrays(plan)
    pool: Batch | None = None
    met = empty = 0
    seen: set[bytes] = set()
    stopped = False
    t0 = time.perf_counter()
    if progress is not None:
        progress(0, meet)
    try:
        while met < meet and empty < STALL_BATCHES:
            batches.want(meet - met)
            _, batch = batches.take()
            batches.consider_workers(meet - met, max(met, 1), time.perf_counter() - t0)
            batch = batch.head(meet - met)
            met += len(batch)
            empty = 0 if len(batch) else empty + 1
            if len(batch):
                klen = batch.keys.shape[1]
                keys = np.ascontiguousarray(batch.keys).view(f"V{klen}")[:, 0].tolist()
                seen.update(bytes(k) for k in keys)
                pool = _fewest(
                    batch if pool is None else Batch.joined([pool, batch]), count, metric
                )
            if progress is not None:
                progress(met, meet)
    except KeyboardInterrupt:
        stopped = True
    finally:
        batches.close()
    added = kept = 0
    least = most = None
    if pool is not None and len(pool):
        kept = len(pool)
        values = pool.crossings if metric == "crossings" else pool.turns
        assert values is not None
        least, most = int(values.min()), int(values.max())
        with lib.atomic():
            added = lib.tours.add_batch(pool, method=plan.method)
    seconds, _ = watch.read()
    return KeptResult(
        metric, met, len(seen), kept, added, least, most, seconds, plan.method, seed, stopped
    )


def _fewest(batch: Batch, count: int, metric: str) -> Batch:
    """The ``count`` distinct tours of ``batch`` with the fewest ``metric``: ties to the fewer
    of the other metric, then to the earlier in the batch (a tour met twice counts once, the
    first kept).

    >>> import knightstour as kt
    >>> tours = [kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="random", seed=s)
    ...          for s in range(6)]
    >>> b = canonical_batch(Board(8, 8), False, np.stack([t.indices for t in tours])).validate()
    >>> two = _fewest(Batch.joined([b, b]), 2, "crossings")
    >>> len(two), two.crossings.tolist() == sorted(b.crossings.tolist())[:2]
    (2, True)
    """
    klen = batch.keys.shape[1]
    keys = np.ascontiguousarray(batch.keys, dtype=np.uint8).view(f"V{klen}")[:, 0]
    _, first = np.unique(keys, return_index=True)  # the first of each distinct tour
    crossings, turns = batch.crossings, batch.turns
    if crossings is None or turns is None:  # pragma: no cover - a bug: flat boards are measured
        raise InternalError("a batch of a flat board without its crossings and turns")
    main, other = (crossings, turns) if metric == "crossings" else (turns, crossings)
    order = first[np.lexsort((first, other[first], main[first]))]
    return batch.pick(order[:count])
