"""Counting tours by a frontier ("transfer-matrix") dynamic program over a sweep of the board.

The board is swept square by square, row by row along its longer side. After each square, the
tours' pieces that cross the frontier (the last ``B`` squares, ``B`` the longest move in sweep
order: ``2w + 1`` for the knight on a board ``w`` wide) are summarised by a state: which frontier
squares are untouched, finished, or piece ends, and which ends belong together. Tours that look
the same at the frontier continue the same way, so each state carries only a count of the ways to
reach it, and the sweep never lists tours one by one. The sweep's plan is made in
:mod:`knightstour.solvers.sweep` (which also decides and builds paths between two chosen
squares), the kernels are in :mod:`knightstour.kernels.frontier`; docs/counting.md works a small
example through.

>>> count_paths(Board(5, 5), (), False)     # undirected open tours of 5x5
864
>>> count_paths(Board(3, 10), (), True)     # closed tours of 3x10
16
"""

from __future__ import annotations

import hashlib
import mmap
import os
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from knightstour.archive import Parts
from knightstour.board import Board
from knightstour.counting import checkpoint as checkpoints
from knightstour.counting.request import RunOptions
from knightstour.counting.spill import Partition, Spill, free_bytes
from knightstour.errors import InputLimitError, InternalError, InvalidInputError, SearchFailedError
from knightstour.kernels import jit
from knightstour.progress import Progress
from knightstour.solvers.sweep import KERNELS as _KERNELS
from knightstour.solvers.sweep import (
    SENTINEL,
    Sweep,
    _budget,
    _gib,
    plan,
    powers,
    table_size,
)

__all__ = [
    "Sweep",
    "SweepStats",
    "count_paths",
    "estimate_states",
    "expected_peak",
    "memory_text",
    "plan",
    "run",
]

#: Bytes a state costs at the peak of a step, as measured (peak memory less the process's own,
#: over the peak states: 6x6 open, 6x7 open, 7x8 closed): its key and one count limb in the
#: tables of the new states (from 60% to 75% full), the states of the square before not yet
#: swept, and the buffers on the way.
BYTES_PER_STATE = 29


@dataclass
class SweepStats:
    """What a sweep measured: states after each square, the peak, limbs, seconds."""

    states: list[int] = field(default_factory=list)
    limbs: int = 1
    seconds: float = 0.0
    table_bytes: int = 0
    retries: int = 0
    #: spilled to disk: the first square swept from the partitions (None: held in memory),
    #: the most partitions of a square, the most bytes the partition files took at once
    spilled_from: int | None = None
    partitions: int = 0
    disk_bytes: int = 0
    raw_ratio: float = 0.0

    @property
    def peak(self) -> int:
        """The most states held after any square."""
        return max(self.states, default=0)


def estimate_states(sweep: Sweep) -> int | None:
    """About how many states a knight board at least 8 squares wide on both sides would hold at
    once, or None (narrower boards are counted, and checked square by square as they go).

    Extrapolated from the peaks measured on the square-ish boards 6 and 7 wide
    (``benchmarks/bench_count.py`` prints them): each square of width multiplies the peak by
    the ratio of the two. Used to refuse a count up front that could not fit.

    >>> estimate_states(plan(Board(8, 8), (), True)) > 10**8
    True
    >>> estimate_states(plan(Board(7, 7), (), False)) is None
    True
    """
    return expected_peak(sweep) if min(sweep.board.width, sweep.board.height) >= 8 else None


def expected_peak(sweep: Sweep) -> int | None:
    """About how many states a knight board at least 7 squares wide on both sides holds at
    once, or None (narrower boards, shaped ones, other leapers): the peak measured on the
    boards 7 wide (the counts of minutes and gigabytes of docs/counting.md), and beyond, each
    square of width multiplying it by the ratio of the peaks 7 and 6 wide.

    >>> expected_peak(plan(Board(7, 7), (), False)) > 10**7
    True
    >>> expected_peak(plan(Board(6, 6), (), False)) is None
    True
    """
    b = sweep.board
    if not b.is_plain_knight or b.holes or min(b.width, b.height) < 7:
        return None
    six, seven = _MEASURED_PEAKS["closed" if sweep.closed else "open"]
    return int(seven * (seven / six) ** (min(b.width, b.height) - 7))


def memory_text(states: int) -> str:
    """The memory ``states`` states take at the peak of a square, in words.

    >>> memory_text(10**9)
    '27.0 GiB'
    """
    return _gib(states * BYTES_PER_STATE)


#: Peak states measured (benchmarks/bench_count.py) on the boards 6 and 7 wide nearest to square
#: (closed: 6x7 and 7x8; open: 6x6 and 7x7, no end given), with one state of each mirror pair kept.
_MEASURED_PEAKS: dict[str, tuple[int, int]] = {
    "closed": (150_333, 13_752_427),
    "open": (1_005_845, 99_672_595),
}


def step_bytes(states: int, growth: float, limbs: int = 1) -> int:
    """About the most bytes a square takes from ``states`` states that become ``growth`` times
    as many: the states (a key and ``limbs`` limbs each) or the tables of the new ones, whichever
    is larger, and a third of the other.

    The states before a square are let go a piece at a time as the tables of the new ones fill
    (:class:`LocalShards`), so the two are never both whole: an 8x8 square measured 9.7 GiB at
    its peak, 6.1 GB of states before it and 7.3 GB after (docs/counting.md).

    >>> step_bytes(1000, 1.0) > 16 * 1000 / _AIM
    True
    """
    row = 8 + 8 * limbs
    before, after = states * row, int(states * growth / _AIM) * row
    return max(before, after) + min(before, after) // 3


def _kernels(sweep: Sweep) -> jit.Kernels:
    return jit.for_work(_KERNELS, sweep.steps * sweep.width, threshold=12 * 5)


def _to_int(limbs: np.ndarray) -> int:
    return sum(int(v) << (64 * j) for j, v in enumerate(limbs))


@dataclass
class Part:
    """What one shard's step produced: its states split by destination shard, and whole tours."""

    keys: list[np.ndarray]
    counts: list[np.ndarray]
    total: np.ndarray
    status: int  # 0 done, 1 a count outgrew its limbs
    table_bytes: int = 0


def expand_part(
    sweep: Sweep, p: int, keys: np.ndarray, counts: np.ndarray, shards: int, growth: float
) -> Part:
    """Take one shard's states through square ``p``; split the new states into ``shards`` parts.

    A pure function of its arguments, for the workers of a Dask cluster (:mod:`.distributed`),
    where the parts are what travels; in this process, :class:`LocalShards` adds the new states
    straight into their owners' tables instead.
    """
    k = _kernels(sweep)
    nin, limbs = counts.shape
    size = table_size(int(nin * growth))
    total = np.zeros((1, limbs), dtype=np.uint64)
    with np.errstate(over="ignore"):
        while True:
            table = np.zeros((size, 1 + limbs), dtype=np.uint64)
            table[:, 0] = SENTINEL
            total[:] = 0
            used, status = k.expand(keys, counts, nin, limbs, *_step_args(sweep, p), table, total)
            if status == 1:
                return Part([], [], total, 1)
            if status == 0:
                break
            size *= 2
        out_keys = np.empty(used, dtype=np.uint64)
        out_counts = np.empty((used, limbs), dtype=np.uint64)
        k.compact(table, out_keys, out_counts)
        table_bytes = table.nbytes
        del table
        if shards == 1:
            return Part([out_keys], [out_counts], total, 0, table_bytes)
        split_keys = np.empty(used, dtype=np.uint64)
        split_counts = np.empty((used, limbs), dtype=np.uint64)
        offsets = np.zeros(shards + 1, dtype=np.int64)
        k.split(out_keys, out_counts, used, shards, split_keys, split_counts, offsets)
        del out_keys, out_counts
        parts = [(int(offsets[q]), int(offsets[q + 1])) for q in range(shards)]
        return Part(  # copies, so that each part's memory goes when it has been merged
            [split_keys[a:b].copy() for a, b in parts],
            [split_counts[a:b].copy() for a, b in parts],
            total,
            0,
            table_bytes,
        )


def merge_parts(
    sweep: Sweep, keys: list[np.ndarray], counts: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, int]:
    """One shard's new states: the parts other shards sent it, equal states added up.

    Returns ``(keys, counts, status)``; status 1 when a count outgrew its limbs.
    """
    limbs = counts[0].shape[1] if counts else 1
    if len(keys) == 1:
        return keys[0], counts[0], 0
    k = _kernels(sweep)
    n = sum(x.shape[0] for x in keys)
    size = table_size(n)
    table = np.zeros((size, 1 + limbs), dtype=np.uint64)
    table[:, 0] = SENTINEL
    used = 0
    with np.errstate(over="ignore"):
        for part_keys, part_counts in zip(keys, counts, strict=True):
            used, status = k.merge(part_keys, part_counts, part_keys.shape[0], limbs, table, used)
            if status == 1:
                return keys[0][:0], counts[0][:0], 1
    out_keys = np.empty(used, dtype=np.uint64)
    out_counts = np.empty((used, limbs), dtype=np.uint64)
    k.compact(table, out_keys, out_counts)
    return out_keys, out_counts, 0


class Shards(Protocol):
    """Where a sweep's states live: threads of this process, or the workers of a cluster."""

    def states(self) -> list[int]: ...
    def widen(self) -> None: ...
    def step(self, p: int, growth: float) -> tuple[int, int, int]: ...
    def close(self) -> None: ...


class LocalShards:
    """The sweep's states in this process: ``pieces`` parts by hash, worked on by ``threads``.

    A step holds little more than the states themselves: each piece's states are let go as soon
    as it has been swept, and each new state goes straight into the table of the piece that
    owns it (:class:`_Owner`), by way of a small buffer, so a new state is held once however
    many pieces make it. A count that outgrows its limbs widens the table it met it in, and the
    sweep goes on: no square is swept twice.
    """

    def __init__(
        self, sweep: Sweep, threads: int, weight: int = 1, budget: int | None = None
    ) -> None:
        self.sweep, self.threads = sweep, threads
        #: the bytes the states may take: a square whose states and the whole tables of its
        #: new states fit in them makes the tables whole at once (:meth:`owners`); None: never
        self.budget = budget
        self.pieces = max(_PIECES, 4 * threads)
        start = _from_int(weight, max(1, (weight.bit_length() + 63) // 64))
        self.limbs = int(start.shape[1])
        self.keys: list[np.ndarray] = [np.array([sweep.initial_key()], dtype=np.uint64)] + [
            _no_keys() for _ in range(self.pieces - 1)
        ]
        self.counts: list[np.ndarray] = [start] + [
            _no_counts(self.limbs) for _ in range(self.pieces - 1)
        ]
        #: states after each square swept here / states before it (to size the next tables)
        self._ratios: dict[int, float] = {}
        self._pool: ThreadPoolExecutor | None = None
        if threads > 1:
            self._pool = ThreadPoolExecutor(threads, thread_name_prefix="knightstour-count")

    def _map(self, fn: Callable[[int], object], n: int) -> list[object]:
        if self._pool is None or sum(self.states()) < _PARALLEL_FROM:
            return [fn(i) for i in range(n)]
        return list(self._pool.map(fn, range(n)))

    def states(self) -> list[int]:
        """The number of states in each piece."""
        return [int(x.shape[0]) for x in self.keys]

    def widen(self) -> None:
        """Give every count one more 64-bit limb."""
        self.limbs += 1
        self.counts = [_wide(c, self.limbs) for c in self.counts]

    def expected(self, p: int, nin: int) -> tuple[int, int]:
        """About how many states square ``p`` makes of ``nin``, low and high: ``nin`` times the
        smaller and the larger of the growths of the square a row before and of the square
        before (the smaller tends to overshoot where the states peak, and to fall short where
        they climb)."""
        b = self.sweep.board
        known = [
            x for x in (self._ratios.get(p - min(b.width, b.height)), self._ratios.get(p - 1)) if x
        ]
        if not known:
            return nin, nin
        return int(nin * min(known)), int(nin * max(known))

    def owners(self, p: int, nin: int, n: int) -> list[_Owner]:
        """The ``n`` tables of the new states of square ``p``, from ``nin`` states.

        Where the states and tables made for the high guess (:meth:`expected`, with
        :data:`_HEADROOM`) fit in :attr:`budget` at once, the tables are made that large up
        front, which spares them growing (a table that grows moves each of its states into the
        larger one). Else they start from a part of the low guess (:class:`_Owner`) and grow
        as the states before are let go.
        """
        low, high = self.expected(p, nin)
        row = 8 * (1 + self.limbs)
        whole = nin * row + int(high * _HEADROOM / _FULL) * row
        if self.budget is not None and whole <= self.budget:
            return [_Owner(high / n, self.limbs, _HEADROOM) for _ in range(n)]
        return [_Owner(low / n, self.limbs) for _ in range(n)]

    def step(self, p: int, growth: float) -> tuple[int, int, int]:
        """Take every piece through square ``p``: ``(0, whole tours, table bytes)``.

        ``growth`` is not used: the tables are sized from the growths of the squares before
        (:meth:`owners`) and grow as they fill.
        """
        sweep, limbs = self.sweep, self.limbs
        k = _kernels(sweep)
        nin = sum(self.states())
        # a few states: one table (a table a piece would cost more than it saves)
        n = self.pieces if nin >= _PARALLEL_FROM else 1
        owners = self.owners(p, nin, n)
        found = [0] * self.pieces
        square = _Square(k, _step_args(sweep, p), owners, _room(nin, n))

        def expand(i: int) -> None:
            keys, counts = self.keys[i], _wide(self.counts[i], limbs)
            if not keys.shape[0]:
                return
            found[i] = square.expand(keys, counts, 0, int(keys.shape[0]), i)
            self.keys[i] = _no_keys()  # swept: let its memory go (a view would keep it)
            self.counts[i] = _no_counts(limbs)

        self._map(expand, self.pieces)
        table_bytes = sum(o.table.nbytes for o in owners)

        made = [
            owners[q].take(k) for q in range(n)
        ]  # one at a time: one table and its copy at once
        self.keys = [m[0] for m in made]
        self.limbs = max(limbs, *(m[1].shape[1] for m in made))
        self.counts = [_wide(m[1], self.limbs) for m in made]
        for _ in range(n, self.pieces):
            self.keys.append(_no_keys())
            self.counts.append(_no_counts(self.limbs))
        self._ratios[p] = sum(self.states()) / max(nin, 1)
        return 0, sum(found), table_bytes

    def remember(self, history: list[int]) -> None:
        """Take ``history`` (the states after each square swept before) as this sweep's own,
        for :meth:`expected`."""
        for p in range(1, len(history)):
            self._ratios[p] = history[p] / max(history[p - 1], 1)

    def restore(self, keys: np.ndarray, counts: np.ndarray) -> None:
        """Hold ``keys`` and ``counts`` (a checkpoint's states), split into the pieces."""
        k = _kernels(self.sweep)
        owner = np.empty(keys.shape[0], dtype=np.int16)
        k.owners(keys, keys.shape[0], self.pieces, owner)
        self.limbs = int(counts.shape[1])
        self.keys, self.counts = [], []
        for q in range(self.pieces):
            mine = np.flatnonzero(owner == q)
            self.keys.append(np.take(keys, mine, out=_array((mine.shape[0],))))
            self.counts.append(
                np.take(counts, mine, axis=0, out=_array((mine.shape[0], counts.shape[1])))
            )

    def close(self) -> None:
        """Stop the threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


class SpilledShards:
    """The sweep's states on disk, in hash partitions (:class:`~knightstour.counting.spill.Spill`),
    for a count whose states do not fit in ``budget`` bytes of memory.

    A square is swept in two passes. First each partition of the states before it is read back
    and taken through the square (on the threads of ``local``, a slice at a time if its new
    states would not fit), its new states added up in one table an owner and appended to
    the owner's file: the owner of a state is :func:`~knightstour.kernels.frontier.shard_of`
    its key, as in memory. Then each owner's file is added up in memory, one partition at a
    time, and written as a partition of the states after the square. The number of
    partitions is chosen each square from the states expected and the budget.

    ``keep``: a checkpoint's partitions: the states before a square stay on disk until
    :meth:`settle` (after the checkpoint names the states after it), so a stopped count goes
    on from the last finished square; else each partition goes as soon as it has been read.
    """

    def __init__(
        self,
        sweep: Sweep,
        local: LocalShards,
        disk: Spill,
        budget: int,
        done: int,
        parts: list[Partition],
        keep: bool,
    ) -> None:
        self.sweep, self.local, self.disk, self.budget = sweep, local, disk, budget
        self.done, self.parts, self.keep = done, parts, keep
        self.limbs = max([local.limbs, *(x.limbs for x in parts)])
        #: the most bytes the partition files took at once
        self.disk_peak = disk.used()
        #: the most new states the partitions made, over the states once added up
        self.raw_ratio = 0.0
        self._settled = True

    @classmethod
    def spilled(
        cls, sweep: Sweep, local: LocalShards, disk: Spill, budget: int, done: int, keep: bool
    ) -> SpilledShards:
        """The states ``local`` holds after ``done`` squares, written to ``disk`` a piece at a
        time (each piece a partition, let go once written)."""
        disk.keep_only(-1)  # what a count stopped before its first save left
        parts = []
        for q in range(local.pieces):
            parts.append(disk.write(done, q, local.keys[q], _wide(local.counts[q], local.limbs)))
            local.keys[q], local.counts[q] = _no_keys(), _no_counts(local.limbs)
        return cls(sweep, local, disk, budget, done, parts, keep)

    def states(self) -> list[int]:
        """The number of states in each partition."""
        return [x.rows for x in self.parts]

    def widen(self) -> None:
        """Give every count one more limb (counts widen in their tables as they carry: unused)."""
        self.limbs += 1

    def partitions(self, new: int) -> int:
        """How many partitions ``new`` states are split into: enough that adding up one of
        them (its table from 60% to 75% full, and its states taken out of it) takes at most
        half the budget; at least 2, at most :data:`MAX_PARTITIONS`."""
        row = 8 + 8 * self.limbs
        need = new * (row / _FULL * _GROW + row)
        return int(min(MAX_PARTITIONS, max(2, -(-need // max(1, self.budget // 2)))))

    def disk_need(self, nin: int, growth: float) -> int:
        """About the bytes on disk a square's sweep adds to those held, from ``nin`` states
        that become ``growth`` times as many (with the margin :func:`_sweep` adds):
        :data:`DISK_BYTES_PER_STATE` for the larger of the two."""
        return int(max(nin, nin * growth / 1.25) * DISK_BYTES_PER_STATE) - self.disk.used()

    def step(self, p: int, growth: float) -> tuple[int, int, int]:
        """Take every partition through square ``p``: ``(0, whole tours, table bytes)``."""
        if p != self.done or not self._settled:
            raise InternalError(f"spilled states after {self.done} squares swept at square {p}")
        sweep, disk, limbs = self.sweep, self.disk, self.limbs
        k = _kernels(sweep)
        nin = sum(self.states())
        owners_n = self.partitions(int(nin * growth))
        args = _step_args(sweep, p)
        row = 8 + 8 * limbs
        half = self.budget // 2
        found, table_bytes = 0, 0
        disk.clear_new()
        for i, part in enumerate(self.parts):
            if not part.rows:
                continue
            keys, counts = disk.read(p, i, part)
            if not self.keep:
                disk.drop(p, i)
            counts = _wide(counts, limbs)
            rows = int(keys.shape[0])
            room = max(half - rows * row, half // 4)  # for the new states of a slice
            per_slice = max(_MIN_SLICE, int(room / (growth * row / _FULL * _GROW)))
            for lo in range(0, rows, per_slice):
                hi = min(rows, lo + per_slice)
                owners = [_Owner((hi - lo) * growth / owners_n, limbs) for _ in range(owners_n)]
                square = _Square(k, args, owners, _room(hi - lo, owners_n))
                found += self._expand(square, keys, counts, lo, hi)
                table_bytes = max(table_bytes, sum(o.table.nbytes for o in owners))
                for q, owner in enumerate(owners):
                    disk.append(q, *owner.take(k))
            del keys, counts
            self.disk_peak = max(self.disk_peak, disk.used())
        raw = sum(disk.new_rows(q) for q in range(owners_n))
        made = []
        for q in range(owners_n):
            owner = _Owner(disk.new_rows(q) / _GROW, disk.new_limbs(q))
            for keys, counts in disk.segments(q):
                n = int(keys.shape[0])
                owner.add(k, keys, np.arange(n, dtype=np.int64), n, counts)
            table_bytes = max(table_bytes, owner.table.nbytes)
            made.append(disk.write(p + 1, q, *owner.take(k)))
            disk.drop_new(q)
            self.disk_peak = max(self.disk_peak, disk.used())
        self.parts, self.done = made, p + 1
        self.limbs = max([limbs, *(x.limbs for x in made)])
        after = sum(self.states())
        if after >= max(1, _PARALLEL_FROM):
            self.raw_ratio = max(self.raw_ratio, raw / after)
        self._settled = False
        if not self.keep:
            self.settle()
        return 0, found, table_bytes

    def _expand(
        self, square: _Square, keys: np.ndarray, counts: np.ndarray, lo: int, hi: int
    ) -> int:
        """:meth:`_Square.expand` of ``keys[lo:hi]`` on the threads of this process."""
        pool, threads = self.local._pool, self.local.threads
        if pool is None or hi - lo < _PARALLEL_FROM:
            return square.expand(keys, counts, lo, hi, 0)
        cuts = np.linspace(lo, hi, 4 * threads + 1).astype(np.int64).tolist()

        def one(j: int) -> int:
            return square.expand(keys, counts, cuts[j], cuts[j + 1], j)

        return sum(pool.map(one, range(4 * threads)))

    def settle(self) -> None:
        """Let the states before the last square swept go (a checkpoint names those after it)."""
        self.disk.drop(self.done - 1)
        self._settled = True

    def fields(self) -> dict[str, np.ndarray]:
        """What a checkpoint holds of the states: the partitions' rows, limbs and digests."""
        return {
            "keys": _no_keys(),
            "counts": _no_counts(self.limbs),
            "parts": np.array([[x.rows, x.limbs] for x in self.parts], dtype=np.int64).reshape(
                -1, 2
            ),
            "digests": np.array([x.digest for x in self.parts], dtype="U32"),
        }

    def close(self) -> None:
        """Nothing to stop (the threads are ``local``'s)."""


#: States of a spilled partition taken through a square at once, at least (a slice's new
#: states are its owners' tables: fewer would cost more in files than they save in memory).
_MIN_SLICE = 4096
#: Partitions a spilled square's new states are split into, at most.
MAX_PARTITIONS = 4096
#: The new states the partitions of a spilled square make, each partition's added up, over
#: the states once all are added up (a state made from several partitions is in several): at
#: most 2.65 on 6x7 open, as measured (docs/counting.md, "Past the memory").
RAW_RATIO = 2.65
#: Bytes on disk a state at the peak of a spilled count takes, with a margin: measured, the
#: partition files of 6x7 open took 23 bytes a state of its peak at most (the states before a
#: square let go as they are read, each owner's new states as they are added up); with a
#: checkpoint the states before a square stay until it is done, 16 bytes more.
DISK_BYTES_PER_STATE = 48


class _Owner:
    """The new states of one piece while a step makes them: an open-addressing table of any
    number of rows (a row: the key, then its count's limbs), filled under its lock by the
    threads that make them.

    It is first made for ``start`` of the ``expected`` states and grows by :data:`_GROW`
    times whenever it is :data:`_FULL`. Started small (:data:`_START`), the tables take memory
    as the new states come while the states of the square before are let go as they are swept
    (rows made ahead of the states would add to those still held): at the end of the step it
    is from ``_FULL / _GROW`` to ``_FULL`` full.
    """

    def __init__(self, expected: float, limbs: int, start: float | None = None) -> None:
        part = _START if start is None else start
        self.table = _empty_table(max(_MIN_ROWS, int(expected * part / _FULL) + 1), limbs)
        self.used = 0
        self.lock = threading.Lock()

    def take(self, k: jit.Kernels) -> tuple[np.ndarray, np.ndarray]:
        """The states added, as keys and counts (in table order); the table is let go."""
        table, self.table = self.table, _EMPTY_TABLE
        out_keys = _array((self.used,))
        out_counts = _array((self.used, table.shape[1] - 1))
        k.compact(table, out_keys, out_counts)
        return out_keys, out_counts

    def add(
        self, k: jit.Kernels, keys: np.ndarray, src: np.ndarray, n: int, counts: np.ndarray
    ) -> None:
        """Add the new states ``keys[:n]``, each with the counts ``counts[src[i]]``."""
        i = 0
        while True:
            limit = int(self.table.shape[0] * _FULL)
            self.used, i, status, row = k.insert_rows(
                self.table, self.used, limit, keys, src, i, n, counts
            )
            if status == 0:
                return
            old = self.table
            if status == 2:  # full: a larger table
                rows = max(int(old.shape[0] * _GROW), int((self.used + n - i) / _FULL)) + 1
                self.table = _empty_table(rows, old.shape[1] - 1)
                k.rehash(old, self.table)
            else:  # a count carried out of its top limb: one more limb, the carry in it
                self.table = _array((old.shape[0], old.shape[1] + 1))
                self.table[:, :-1] = old
                self.table[:, -1] = 0
                self.table[int(row), -1] = 1
            del old


def _step_args(sweep: Sweep, p: int) -> tuple[tuple[object, ...], np.ndarray]:
    """The arguments of the kernels that take states through square ``p``, after the states:
    the square's step (:data:`knightstour.kernels.frontier.STEP`) and its mirror."""
    step = (
        sweep.width, sweep.radix, powers(sweep), sweep.free_ends, sweep.closed,
        p >= sweep.last_real, *sweep.step(p),
    )  # fmt: skip
    return step, sweep.mirror[p]


def _room(nin: int, owners: int) -> int:
    """Rows of each buffer of new states on the way to ``owners`` tables, from ``nin`` states:
    an eighth of the states an owner, within :data:`_MIN_BUFFER` and :data:`_BUFFER`."""
    return min(_BUFFER, max(_MIN_BUFFER, nin // (8 * owners)))


@dataclass(frozen=True)
class _Square:
    """A square's step in this process, whichever states it takes through: the kernels
    ``k``, the step's arguments (:func:`_step_args`), the tables of the new states' owners
    (:class:`_Owner`), ``room``, the rows of each buffer on the way to them
    (:func:`_room`)."""

    k: jit.Kernels
    args: tuple[tuple[object, ...], np.ndarray]
    owners: list[_Owner]
    room: int

    def expand(self, keys: np.ndarray, counts: np.ndarray, lo: int, hi: int, first: int) -> int:
        """Take the states ``keys[lo:hi]`` (with ``counts``) through the square, each new
        state added into the table of the owner it belongs to (by
        :func:`knightstour.kernels.frontier.shard_of` over the owners); returns the whole
        tours made. ``first``: the owner this thread empties its buffers into first (threads
        start apart)."""
        k, owners, n = self.k, self.owners, len(self.owners)
        bkeys = _array((n, self.room))
        bsrc = _array((n, self.room), np.int64)
        bfill = np.zeros(n, dtype=np.int64)
        total = np.zeros((1, counts.shape[1] + 1), dtype=np.uint64)
        s = lo
        step = self.args[0]
        scratch = k._scratch(step)  # this thread's work arrays, for all its calls
        with np.errstate(over="ignore"):
            while s < hi:
                s = int(
                    k.expand_to(keys, counts, s, hi, *self.args, bkeys, bsrc, bfill, total, scratch)
                )
                _hand_over(k, owners, bkeys, bsrc, bfill, counts, first)
        return _to_int(total[0])


def _hand_over(
    k: jit.Kernels,
    owners: list[_Owner],
    bkeys: np.ndarray,
    bsrc: np.ndarray,
    bfill: np.ndarray,
    counts: np.ndarray,
    first: int,
) -> None:
    """Empty the buffers of new states into their owners' tables, each under its lock: those
    free first (from ``first`` on, so threads start apart), then waiting for the others."""
    n = len(owners)
    waiting = [q % n for q in range(first, first + n) if bfill[q % n]]
    while waiting:
        busy = []
        for q in waiting:
            owner = owners[q]
            if owner.lock.acquire(blocking=False):
                try:
                    owner.add(k, bkeys[q], bsrc[q], int(bfill[q]), counts)
                finally:
                    owner.lock.release()
            else:
                busy.append(q)
        if busy and len(busy) == len(waiting):
            q = busy.pop(0)
            with owners[q].lock:
                owners[q].add(k, bkeys[q], bsrc[q], int(bfill[q]), counts)
        waiting = busy
    bfill[:] = 0


def _array(shape: tuple[int, ...], dtype: type = np.uint64) -> np.ndarray:
    """An empty array; a large one on pages of its own (an anonymous map), which go back to the
    system as soon as it is let go: the heap's pieces, made and let go every square, may not."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if nbytes < _MAPPED_FROM:
        return np.empty(shape, dtype=dtype)
    pages = mmap.mmap(-1, nbytes, **_PRIVATE)
    if nbytes >= _HUGE_FROM and hasattr(mmap, "MADV_HUGEPAGE"):  # fewer faults, as NumPy does
        pages.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(pages, dtype=dtype).reshape(shape)


#: Arrays of this many bytes or more are given pages of their own (:func:`_array`), and huge
#: pages where the system gives them from :data:`_HUGE_FROM` on.
_MAPPED_FROM = 1 << 16
_HUGE_FROM = 1 << 22
#: The pages private to the process: an anonymous map is shared by default, and shared memory
#: gets huge pages only where the system gives them to shared memory too (seldom: none here),
#: so that a table of gigabytes was read a 4 KiB page at a time, a miss of the address cache
#: on nearly every row.
_PRIVATE = (
    {"flags": mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS} if hasattr(mmap, "MAP_ANONYMOUS") else {}
)


def _empty_table(rows: int, limbs: int) -> np.ndarray:
    table = _array((rows, 1 + limbs))
    table[:, 0] = SENTINEL
    return table


def _no_keys() -> np.ndarray:
    return np.empty(0, dtype=np.uint64)


def _no_counts(limbs: int) -> np.ndarray:
    return np.empty((0, limbs), dtype=np.uint64)


_EMPTY_TABLE = _empty_table(0, 1)

#: Pieces the states are split into, at least (more with more threads): the states of a piece
#: are let go when it has been swept, and a table grows or is compacted a piece at a time.
_PIECES = 32
#: A table of new states (:class:`_Owner`) grows by :data:`_GROW` times when it would be
#: more than :data:`_FULL` full; it is first made for :data:`_START` of the states expected.
_FULL = 0.75
_GROW = 1.25
_START = 0.25
#: Tables made up front (:meth:`LocalShards.owners`) are made for this many times the high
#: guess of the new states: where the states climb, a square may grow them a fifth more than
#: either square it is guessed from (7x8 and 8x8, docs/counting.md).
_HEADROOM = 1.25
#: How full the tables of new states are, on the whole, for the memory a square is expected
#: to need (:func:`step_bytes`).
_AIM = 0.65
#: Rows of the table a piece of new states starts with, at least.
_MIN_ROWS = 64
#: Rows of each buffer of new states on the way to their owner's table (at most, at least).
_BUFFER = 1 << 13
_MIN_BUFFER = 256


def _wide(counts: np.ndarray, limbs: int) -> np.ndarray:
    """``counts`` with ``limbs`` limbs a row (zeros added on top)."""
    if counts.shape[1] >= limbs:
        return counts
    extra = np.zeros((counts.shape[0], limbs - counts.shape[1]), dtype=np.uint64)
    return np.hstack([counts, extra])


#: Below this many states a step runs on one thread (threads cost more than they save).
_PARALLEL_FROM = 20_000


def _from_int(value: int, limbs: int) -> np.ndarray:
    out = np.zeros((1, limbs), dtype=np.uint64)
    for j in range(limbs):
        out[0, j] = (value >> (64 * j)) & 0xFFFFFFFFFFFFFFFF
    return out


def default_shards() -> int:
    """Threads a count uses in this process: one per core."""
    return max(1, min(os.cpu_count() or 1, 8))


def run(
    sweep: Sweep,
    options: RunOptions | None = None,
    *,
    step_hook: Callable[[int, int], None] | None = None,
    shards: int | None = None,
    states: Shards | None = None,
    weight: int = 1,
) -> int:
    """Sweep the board and return the number of tours (paths with the sweep's ends, or cycles).

    ``options`` (:class:`~knightstour.counting.request.RunOptions`): ``progress(done,
    total)`` after each square; ``stats``, filled in with what the sweep measured;
    ``deadline``, a ``time.monotonic()`` time after which it gives up between two squares
    (:class:`~knightstour.errors.SearchFailedError`); ``checkpoint``, a file that the states
    are saved to now and then and when the deadline stops the sweep (in this process only, one
    sweep a file): a sweep that finds its own checkpoint there goes on from it once it
    verifies (:mod:`knightstour.counting.checkpoint`), and removes it when done (a warning if
    it cannot); ``until``, the squares after which it stops as at the deadline.

    ``memory``: the bytes the states may take (default: 80% of the memory available).
    In this process, from the square whose states would not fit, they are spilled to disk
    (:class:`SpilledShards`): into ``workdir`` (a folder of its own, removed at the end;
    default: the system's temporary folder), or with a checkpoint into ``FILE.parts`` beside
    it (in ``workdir`` when given), which the checkpoint names and a stopped count goes on
    from. A count expected not to fit in memory is refused up front unless a memory bound, a
    spill folder or a checkpoint asks for the spill, and when its partitions would not fit on
    the disk either (a sweep with ``until`` is not: each square is checked before it is swept).

    ``shards``: threads (default: one a core); ``states``: where the states live (a Dask
    cluster's workers, :mod:`.distributed`). ``weight``: what each tour counts for (1; tests
    use a large one to make counts outgrow a 64-bit limb mid-sweep). ``step_hook(square,
    states)``: called after each square (tests and benchmarks watch the sweep with it).
    """
    options = options if options is not None else RunOptions()
    progress, deadline, checkpoint = options.progress, options.deadline, options.checkpoint
    until = options.until
    memory_limit, workdir = options.memory, options.workdir
    stats = options.stats if options.stats is not None else SweepStats()
    budget = _budget(memory_limit)
    expected = estimate_states(sweep)
    place = None
    if states is None:
        if checkpoint is not None:
            checkpoint = checkpoints.check_path(checkpoint)
        place = _Place(checkpoint, workdir)
    # a sweep asked to stop early is not judged by the whole count's peak: each square it
    # sweeps is still checked before it is swept
    if expected is not None and expected * BYTES_PER_STATE > budget and until is None:
        kind = "closed" if sweep.closed else "open"
        said = (
            f"counting {kind} tours on {sweep.board.description} would hold about {expected:.1e} "
            f"states at once, about {_gib(expected * BYTES_PER_STATE)} of memory; "
            f"{_gib(budget)} is available"
        )
        if place is None:
            raise InputLimitError(f"{said} (docs/counting.md: what it would take)")
        if memory_limit is None and workdir is None and checkpoint is None:
            # hours of work and tens of GiB of disk are spent only when asked for
            raise InputLimitError(
                f"{said}; a memory bound (--memory), a spill folder (--workdir) or a "
                f"checkpoint spills its states to disk instead (docs/counting.md)"
            )
        disk, free = expected * DISK_BYTES_PER_STATE, place.free()
        if disk > free:
            raise InputLimitError(
                f"{said}, and spilled to disk about {_gib(disk)} in {place.where()}, where "
                f"{_gib(free)} is free (--workdir: another folder)"
            )
    if checkpoint is not None and (states is not None or weight != 1):
        raise InvalidInputError("a checkpoint is kept by a count in this process only")
    held = (
        states
        if states is not None
        else LocalShards(sweep, shards or default_shards(), weight, budget)
    )
    done = False
    try:
        if checkpoint is None:
            total = _sweep(
                sweep, stats, budget, progress, step_hook, deadline, held, None, place, until
            )
            done = True
            return total
        with checkpoints.held(checkpoint):
            total = _sweep(
                sweep, stats, budget, progress, step_hook, deadline, held, checkpoint, place, until
            )
            done = True
            try:
                os.remove(checkpoint)
            except FileNotFoundError:
                pass
            except OSError as e:  # the answer stands: say that the file stays
                warnings.warn(
                    f"the count is done, but its checkpoint {checkpoint} could not be removed "
                    f"({e.strerror or e}): delete it",
                    checkpoints.CheckpointWarning,
                    stacklevel=2,
                )
        return total
    finally:
        if place is not None:
            place.finish(done)
        if states is None:
            held.close()


class _Place:
    """Where a count in this process spills its states, if it must: ``FILE.parts`` beside its
    checkpoint (or in ``workdir``), kept while the count is unfinished; else a folder of its own
    made in ``workdir`` (default: the system's temporary folder), removed at the end."""

    def __init__(self, checkpoint: str | None, workdir: str | None) -> None:
        self.checkpoint, self.workdir = checkpoint, workdir
        self.folder: str | None = None
        if checkpoint is not None:
            name = os.path.basename(checkpoint) + ".parts"
            here = os.path.dirname(os.path.abspath(checkpoint))
            self.folder = os.path.join(workdir if workdir is not None else here, name)
        self.disk: Spill | None = None

    def where(self) -> str:
        """The folder the partitions go into (or in which their own folder is made)."""
        return self.folder or self.workdir or tempfile.gettempdir()

    def free(self) -> int:
        """The bytes free there, with those the partitions already there take."""
        held = Spill(self.folder).used() if self.folder and os.path.isdir(self.folder) else 0
        return free_bytes(self.where()) + held

    def exists(self) -> bool:
        """Whether a checkpoint's partitions folder is there."""
        return self.folder is not None and os.path.isdir(self.folder)

    def open(self) -> Spill:
        """The partitions' folder, made when missing."""
        if self.disk is None:
            folder = self.folder
            if folder is None:
                folder = tempfile.mkdtemp(prefix="knightstour-count-", dir=self.workdir)
            self.disk = Spill(folder, verify=self.checkpoint is not None)
        return self.disk

    def finish(self, done: bool) -> None:
        """Remove the partitions, unless a checkpoint names them and the count is not done."""
        if self.checkpoint is not None and not done:
            return
        if self.disk is not None:
            self.disk.remove()
        elif self.checkpoint is not None and self.exists() and self.folder is not None:
            Spill(self.folder).remove()


def _sweep(
    sweep: Sweep,
    stats: SweepStats,
    budget: int,
    progress: Progress | None,
    step_hook: Callable[[int, int], None] | None,
    deadline: float | None,
    held: Shards,
    checkpoint: str | None = None,
    place: _Place | None = None,
    until: int | None = None,
) -> int:
    """:func:`run`'s sweep of the states ``held``, from ``checkpoint`` when one is there, saved
    to it every :data:`CHECKPOINT_SECONDS` and when the time limit stops it (spilled: after
    every square; with a checkpoint, the time limit stops it after one square at the least, so
    that each rerun goes further); spilled to disk at ``place`` from the square whose states
    would not fit in ``budget`` (None: refused there). A save that takes long is made less
    often (:func:`_save_interval`). ``until``: stop after that many squares, as the time limit
    stops it."""
    t0 = time.perf_counter()
    total = 0
    growth = 4.0
    n = sweep.steps
    limbs = 1
    first = 0
    if checkpoint is not None:
        assert isinstance(held, LocalShards) and place is not None
        saved = _load_checkpoint(checkpoint, sweep)
        if saved is not None:
            first, total, keys, counts, parts, history = saved
            if parts:
                if not place.exists():
                    raise InvalidInputError(
                        f"the checkpoint {checkpoint} names partitions in {place.where()}, which "
                        "is not there: count with the same --workdir, or delete the checkpoint"
                    )
                held = SpilledShards(sweep, held, place.open(), budget, first, parts, True)
                held.disk.keep_only(first)
            else:
                held.restore(keys, counts)
            # the checkpoint's arrays as read (the pieces hold copies): gigabytes on 8x8, which
            # a resumed sweep held to its end
            del saved, keys, counts
            limbs = getattr(held, "limbs", limbs)
            stats.states.extend(history)
            if first >= 2:  # the next square judged as the whole sweep would judge it
                growth = _growth(history[-2], history[-1])
            if isinstance(held, LocalShards):
                held.remember(history)
    last_save, saved_at = time.monotonic(), first
    save_cost = 0.0  # seconds the last periodic save took
    for p in range(first, n):
        # a sweep with a checkpoint sweeps one square at least, so that reruns whose time limit
        # is spent starting and reading the checkpoint still go further
        kept_going = checkpoint is not None and p == first
        timed_out = deadline is not None and time.monotonic() > deadline and not kept_going
        if timed_out or (until is not None and p >= until):
            kept = ""
            if checkpoint is not None:
                if saved_at != p:  # the squares swept since the last save are kept too
                    _save_checkpoint(checkpoint, sweep, p, total, held, stats)  # type: ignore[arg-type]
                if os.path.exists(checkpoint):
                    kept = f"; the sweep so far is in {checkpoint}: run the same command to go on"
            why = "at the time limit" if timed_out else "as asked"
            raise SearchFailedError(
                f"counting on {sweep.board.description} stopped {why}, square {p} of {n}{kept}"
            )
        nin = sum(held.states())
        need = step_bytes(nin, growth, limbs)
        if need > budget and not isinstance(held, SpilledShards):
            if place is None or not isinstance(held, LocalShards):
                raise InputLimitError(
                    f"counting on {sweep.board.description} needs about {_gib(need)} of memory at "
                    f"square {p + 1} of {n} ({nin:,} states); {_gib(budget)} is available"
                )
            held = SpilledShards.spilled(
                sweep, held, place.open(), budget, p, keep=checkpoint is not None
            )
            if checkpoint is not None:
                _save_checkpoint(checkpoint, sweep, p, total, held, stats)
                saved_at = p
        if isinstance(held, SpilledShards):
            disk, free = held.disk_need(nin, growth), free_bytes(held.disk.folder)
            if disk > free:
                kept = "" if checkpoint is None else f" (the sweep so far is in {checkpoint})"
                raise InputLimitError(
                    f"counting on {sweep.board.description} needs about {_gib(disk)} more disk at "
                    f"square {p + 1} of {n} ({nin:,} states) in {held.disk.folder}, where "
                    f"{_gib(free)} is free{kept}"
                )
        while True:
            status, whole, table_bytes = held.step(p, growth)
            if status == 0:
                break
            stats.retries += 1
            limbs += 1  # a count outgrew its limbs: widen every count, run again
            held.widen()
        limbs = max(limbs, getattr(held, "limbs", limbs))
        total += whole
        used = sum(held.states())
        stats.table_bytes = max(stats.table_bytes, table_bytes)
        growth = _growth(nin, used)
        stats.states.append(used)
        if isinstance(held, SpilledShards):
            stats.disk_bytes = max(stats.disk_bytes, held.disk_peak)
            stats.spilled_from = min(stats.spilled_from or p + 1, p + 1)
            stats.partitions = max(stats.partitions, len(held.parts))
            stats.raw_ratio = max(stats.raw_ratio, held.raw_ratio)
            if checkpoint is not None:  # each square: the one before it can go
                _save_checkpoint(checkpoint, sweep, p + 1, total, held, stats)
                held.settle()
                last_save, saved_at = time.monotonic(), p + 1
        due = time.monotonic() - last_save >= _save_interval(save_cost)
        if checkpoint is not None and p + 1 < n and due:
            began = time.monotonic()
            _save_checkpoint(checkpoint, sweep, p + 1, total, held, stats)  # type: ignore[arg-type]
            last_save, saved_at = time.monotonic(), p + 1
            save_cost = last_save - began
        if progress is not None:
            progress(p + 1, n)
        if step_hook is not None:
            step_hook(p, used)
    if sum(held.states()):
        raise AssertionError(f"{sum(held.states())} states left after the last square")
    stats.limbs = limbs
    stats.seconds = time.perf_counter() - t0
    return total


def _growth(before: int, after: int) -> float:
    """How many times its states the next square is taken to make, when the last square made
    ``after`` of ``before``: that ratio (at least 1) with a margin of a quarter.

    >>> _growth(100, 300), _growth(100, 50)
    (3.75, 1.25)
    """
    return max(1.0, after / max(before, 1)) * 1.25


#: Seconds of sweeping between two saves of a checkpoint (at the least: see SAVE_SHARE).
CHECKPOINT_SECONDS = 60.0
#: The part of a sweep's time its periodic saves may take: a checkpoint that takes long to
#: write (states held in memory: about 16 bytes each, gigabytes on 8x8) is written less often.
SAVE_SHARE = 0.1


def _save_interval(save_cost: float) -> float:
    """Seconds between two periodic saves of a checkpoint when the last took ``save_cost``
    seconds: :data:`CHECKPOINT_SECONDS`, or longer so that saving takes at most
    :data:`SAVE_SHARE` of the time (0 when the checkpoint is saved after every square).

    >>> _save_interval(0.5), _save_interval(30.0)
    (60.0, 300.0)
    """
    if not CHECKPOINT_SECONDS:
        return 0.0
    return max(CHECKPOINT_SECONDS, save_cost / SAVE_SHARE)


def _identity(sweep: Sweep) -> str:
    """What a checkpoint is of: the count (board, leaper, holes, ends, closed) and the sweep's
    layout (its order, frontier and radix), so that no other sweep's states are taken for
    this one's."""
    b = sweep.board
    layout = hashlib.blake2b(digest_size=8)
    for a in (sweep.order, sweep.back, sweep.cap, sweep.mirror):
        layout.update(np.asarray(a, dtype="<i8").tobytes())
    return (
        f"{b.spec}|{b.leaper}|{sorted(b.holes)}|{sweep.terminals}|{sweep.closed}|"
        f"{sweep.width}|{sweep.radix}|{layout.hexdigest()}"
    )


def _save_checkpoint(
    path: str,
    sweep: Sweep,
    done: int,
    total: int,
    held: LocalShards | SpilledShards,
    stats: SweepStats,
) -> None:
    """Write the states after ``done`` squares to ``path`` (whole, or not at all); spilled,
    the partitions that hold them; and how many there were after each square (``stats``)."""
    states: dict[str, np.ndarray | Parts] = {}
    if isinstance(held, SpilledShards):
        states.update(held.fields())
    else:
        states["keys"] = Parts(held.keys)  # written piece by piece: no second copy
        states["counts"] = Parts([_wide(c, held.limbs) for c in held.counts])
    checkpoints.write(
        path,
        {
            "identity": np.array(_identity(sweep)),
            "done": np.array(done),
            "squares": np.array(stats.states[:done], dtype="<i8"),
            "total": checkpoints.limbs(total),
            **states,
        },
    )


def _load_checkpoint(
    path: str, sweep: Sweep
) -> tuple[int, int, np.ndarray, np.ndarray, list[Partition], list[int]] | None:
    """The checkpoint at ``path`` (None: no file yet): squares done, tours so far, states (in
    memory, or the partitions on disk that hold them), and the states after each square done.

    Taken only if it verifies (:func:`knightstour.counting.checkpoint.read`) and is this
    sweep's, with ``done`` within its squares, counts no wider than its moves allow, and keys
    within its frontier's; else one line naming the file and the problem.
    """
    if not os.path.exists(path):
        return None
    data = checkpoints.read(path)

    def refuse(problem: str) -> InvalidInputError:
        return InvalidInputError(f"the checkpoint {path} {problem}: delete it and count again")

    if checkpoints.text(data["identity"]) != _identity(sweep):
        raise InvalidInputError(
            f"{path} is the checkpoint of another count: remove it or choose another file"
        )
    done, n = int(data["done"]), sweep.steps
    keys, counts, total = data["keys"], data["counts"], data["total"]
    # no count of a sweep exceeds the number of sets of its moves: 2 ** moves
    bits = int(sweep.nback.sum()) + 1
    most = bits // 64 + 2
    if not 0 <= done <= n:
        raise refuse(f"says {done} squares are done, of {n}")
    squares = data["squares"]
    if squares.shape != (done,) or (squares < 0).any():
        raise refuse(f"holds {squares.shape[0]} squares' states for {done} squares done")
    if keys.ndim != 1 or counts.ndim != 2 or total.ndim != 1:
        raise refuse("holds arrays of the wrong shape")
    if counts.shape[0] != keys.shape[0] or not 1 <= counts.shape[1] <= most:
        raise refuse(f"has {keys.shape[0]} states but counts of shape {counts.shape}")
    tours = checkpoints.number(total)
    if total.shape[0] > most or tours.bit_length() > bits:
        raise refuse("holds more tours than the board has")
    if done == n and keys.shape[0]:
        raise refuse("holds states after the last square")
    if keys.shape[0]:
        bound = (sweep.free_ends + 1) * sweep.radix**sweep.width
        outside = keys == SENTINEL if bound >= 2**64 else keys >= np.uint64(bound)
        if outside.any():
            raise refuse("holds states that are not this sweep's")
        if counts.shape[1] > bits // 64 + 1 and counts[:, bits // 64 + 1 :].any():
            raise refuse("holds counts larger than the board allows")
    rows, digests = data["parts"], data["digests"]
    if rows.ndim != 2 or rows.shape[1] != 2 or digests.shape != (rows.shape[0],):
        raise refuse("names partitions it cannot hold (a damaged list of them)")
    if rows.shape[0] and (
        keys.shape[0]
        or (rows[:, 0] < 0).any()
        or not ((rows[:, 1] >= 1) & (rows[:, 1] <= most)).all()
        or done == n
        or not all(len(str(d)) == 32 for d in digests.tolist())
    ):
        raise refuse(f"names partitions it cannot hold ({rows.shape[0]} of them)")
    parts = [
        Partition(int(r), int(w), str(d))
        for (r, w), d in zip(rows.tolist(), digests.tolist(), strict=True)
    ]
    keys, counts = keys.astype(np.uint64, copy=False), counts.astype(np.uint64, copy=False)
    return done, tours, keys, counts, parts, [int(x) for x in squares.tolist()]


def warm_kernels() -> None:
    """Compile (or load) the kernels a count needs beyond those of a sweep in this process: a
    Dask worker's step (:func:`expand_part` split into parts, :func:`merge_parts`) and a
    checkpoint's states split into pieces (:meth:`LocalShards.restore`), on 6x6 closed.

    >>> warm_kernels()
    """
    sweep = plan(Board(6, 6), (), True)
    keys = np.array([sweep.initial_key()], dtype=np.uint64)
    counts = np.ones((1, 1), dtype=np.uint64)
    part = expand_part(sweep, 0, keys, counts, 2, 4.0)
    merge_parts(sweep, [part.keys[0], part.keys[1]], [part.counts[0], part.counts[1]])
    LocalShards(sweep, 1).restore(keys, counts)


def count_paths(
    board: Board, terminals: tuple[int, ...], closed: bool, options: RunOptions | None = None
) -> int:
    """Undirected cycles (``closed``), or paths whose ends include ``terminals``, on ``board``,
    swept as ``options`` say (:func:`run`)."""
    if closed and terminals:
        raise InvalidInputError("a cycle count takes no required ends")
    deadline = None if options is None else options.deadline
    return run(plan(board, terminals, closed, deadline=deadline), options)


def trace(board: Board, terminals: tuple[int, ...] = (), closed: bool = False) -> list[str]:
    """The sweep of a small board, one line a square: its states and their counts, in words.

    A state lists the frontier squares from the newest back: ``.`` untouched, ``-`` finished,
    ``T`` a piece end whose other end is a tour end, and a letter for a piece end whose other
    end is the square with the same letter; ``e=`` the free tour ends used. For teaching
    (docs/counting.md); the sweep itself never decodes states.

    >>> lines = trace(Board(3, 4))
    >>> lines[4]
    'b2: 2 states  [b2 . | a2 . c1 . b1 . a1 .] x1 e=0  [b2 . | a2 a c1 a b1 . a1 .] x1 e=0'
    """
    sweep = plan(board, terminals, closed)
    if sweep.steps > 64:
        raise InvalidInputError("a trace is for boards of up to 64 squares")
    k = jit.load(_KERNELS, compiled=False)
    held = LocalShards(sweep, 1)
    lines = []
    slots = np.zeros(sweep.width + 1, dtype=np.int64)
    names = "abcdefghijklmnopqrstuvwxyz"
    with np.errstate(over="ignore"):
        for p in range(sweep.steps):
            status, _, _ = held.step(p, 4.0)
            if status:
                raise InternalError("a trace overflowed its counts")
            shown = []
            pairs = zip(
                np.concatenate(held.keys).tolist(),
                np.concatenate(held.counts)[:, 0].tolist(),
                strict=True,
            )
            for key, c in sorted(pairs):
                ends = k.decode(np.uint64(key), sweep.width, sweep.radix, slots)
                cells = []
                for d in range(sweep.width):
                    if p - d < 0:
                        break
                    v = int(slots[d + 1])
                    mark = ".-T"[v] if v < 3 else names[v - 3]
                    cells.append(f"{board.square_name(int(sweep.order[p - d]))} {mark}")
                    if d == 0:
                        cells[-1] += " |"
                shown.append(f"[{' '.join(cells)}] x{c} e={ends}")
            square = board.square_name(int(sweep.order[p]))
            lines.append(f"{square}: {len(shown)} states  " + "  ".join(shown))
    return lines
