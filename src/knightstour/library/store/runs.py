"""The runs table: each ``generate`` run, what it asked for and how far it got.

A run killed at any moment resumes where its last commit left it: the same command finds it
(:meth:`Runs.resumable`, :meth:`Runs.claim`) and goes on from its next walk.

>>> from knightstour.library.store import Library
>>> lib = Library(":memory:")
>>> ask = RunRequest(Board(6, 6), True, 0, "auto", seed=7, requested=50)
>>> run = lib.runs.start(ask, "backtrack", 7)
>>> with lib.atomic():   # in the transaction that stores the tours
...     lib.runs.advance(run, added=20, next_walk=4, walks_since_new=0, finished=False)
>>> lib.runs.resumable(ask)
Run(id=1, seed=7, used='backtrack', added=20, next_walk=4, walks_since_new=0, finished=False)
>>> lib.runs.finish(run)
>>> lib.runs.resumable(ask) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.library.store.records import shape_of
from knightstour.library.store.table import Table, sql

__all__ = ["Run", "RunRequest", "Runs"]


@dataclass
class Run:
    """A generation run as the ``runs`` table records it: what it asked for and how far it got.

    Walk (or search) ``j`` of a run is determined by ``seed`` and ``j`` alone; every walk
    before ``next_walk`` is done and its tours are stored.
    """

    id: int
    seed: int
    used: str  # the method the run uses (``auto`` chooses one)
    added: int = 0
    next_walk: int = 0
    walks_since_new: int = 0
    finished: bool = False


@dataclass(frozen=True)
class RunRequest:
    """What a ``generate`` command asks for: ``requested`` new tours of ``board``, closed or
    open, from ``start`` (a square's index; None for any), by ``method`` (``auto`` chooses),
    with ``seed`` (None: drawn at random, and kept in the run)."""

    board: Board
    closed: bool
    start: int | None
    method: str
    seed: int | None
    requested: int


class Runs(Table):
    """The generation runs of a :class:`~knightstour.library.store.Library` (``lib.runs``)."""

    @sql
    def resumable(self, ask: RunRequest) -> Run | None:
        """The latest unfinished run asked for with the same request, if any.

        A request without a seed matches only a run whose seed was drawn at random (and resumes
        that seed).

        >>> from knightstour.library.store import Library
        >>> runs = Library(":memory:").runs
        >>> run = runs.start(RunRequest(Board(8, 8), False, None, "auto", 5, 100), "warnsdorff", 5)
        >>> runs.resumable(RunRequest(Board(8, 8), False, None, "auto", 5, 100)) == run
        True
        >>> runs.resumable(RunRequest(Board(8, 8), False, None, "auto", None, 100)) is None
        True
        """
        b = ask.board
        q = (
            "SELECT id, seed, used, added, next_walk, walks_since_new FROM runs WHERE width = ? "
            "AND height = ? AND shape = ? AND closed = ? AND start_sq IS ? AND method = ? "
            "AND requested = ? AND finished = 0 AND seed_given = ?"
        )
        params: list[Any] = [b.width, b.height, shape_of(b), int(ask.closed), ask.start]
        params += [ask.method, ask.requested, int(ask.seed is not None)]
        if ask.seed is not None:
            q += " AND seed = ?"
            params.append(ask.seed)
        row = self.db.execute(q + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if row is None else Run(*row)

    @sql
    def claim(self, ask: RunRequest, new_seed: int, choose: Callable[[int], str]) -> Run:
        """The run a ``generate`` command works on, found or made in one write transaction, so
        that processes started with the same command at once share one run (and its count):
        the unfinished run to resume, or a new one with the request's seed (``new_seed`` when
        it has none) and the method ``choose(seed)`` names.

        >>> from knightstour.library.store import Library
        >>> runs = Library(":memory:").runs
        >>> ask = RunRequest(Board(8, 8), False, None, "auto", None, 9)
        >>> a = runs.claim(ask, 5, lambda s: "warnsdorff")
        >>> b = runs.claim(ask, 6, lambda s: "backtrack")
        >>> a == b, b.seed, b.used
        (True, 5, 'warnsdorff')
        """
        run = self.resumable(ask)
        if run is not None:  # found without waiting for a writer (which holds it briefly)
            return run
        with self.lib.atomic():  # again, holding the write lock: two processes make one run
            run = self.resumable(ask)
            if run is not None:
                return run
            seed = new_seed if ask.seed is None else ask.seed
            return self.start(ask, choose(seed), seed)

    @sql
    def sync(self, run: Run) -> Run:
        """Reload ``run``'s progress from the file, inside the write transaction that goes on
        with it: another process may be working on the same run.

        >>> from knightstour.library.store import Library
        >>> lib = Library(":memory:")
        >>> run = lib.runs.start(RunRequest(Board(6, 6), True, 0, "auto", 7, 50), "backtrack", 7)
        >>> with lib.atomic():
        ...     lib.runs.advance(run, added=20, next_walk=4, walks_since_new=0, finished=False)
        >>> run.added = 0
        >>> lib.runs.sync(run).added
        20
        """
        row = self.db.execute(
            "SELECT used, added, next_walk, walks_since_new, finished FROM runs WHERE id = ?",
            (run.id,),
        ).fetchone()
        if row is None:
            raise InvalidInputError(f"run {run.id} is gone from {self.path}")
        run.used, run.added, run.next_walk, run.walks_since_new = row[:4]
        run.finished = bool(row[4])
        return run

    @sql
    def start(self, ask: RunRequest, used: str, seed: int) -> Run:
        """Record a new run of ``ask`` (committed at once), with method ``used`` and ``seed``
        (the request's, or one drawn for it)."""
        now, b = int(time.time()), ask.board
        with self.lib.atomic():
            cur = self.db.execute(
                "INSERT INTO runs (width, height, shape, closed, start_sq, method, used, seed, "
                "seed_given, requested, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (b.width, b.height, shape_of(b), int(ask.closed), ask.start, ask.method, used,
                 seed, int(ask.seed is not None), ask.requested, now, now),
            )  # fmt: skip
        return Run(id=int(cur.lastrowid or 0), seed=seed, used=used)

    @sql
    def advance(
        self, run: Run, *, added: int, next_walk: int, walks_since_new: int, finished: bool
    ) -> None:
        """Record that ``run`` stored ``added`` more tours and is done up to ``next_walk``.

        Called inside the transaction that stored them, so the two are committed together.
        """
        run.added += added
        run.next_walk, run.walks_since_new, run.finished = next_walk, walks_since_new, finished
        self.db.execute(
            "UPDATE runs SET added = ?, next_walk = ?, walks_since_new = ?, updated = ?, "
            "finished = ? WHERE id = ?",
            (run.added, next_walk, walks_since_new, int(time.time()), int(finished), run.id),
        )

    @sql
    def switch_method(self, run: Run, used: str) -> None:
        """Record that ``run`` goes on with method ``used`` (from its next walk)."""
        run.used, run.walks_since_new = used, 0
        self.db.execute(
            "UPDATE runs SET used = ?, walks_since_new = 0 WHERE id = ?", (used, run.id)
        )

    @sql
    def finish(self, run: Run) -> None:
        """Mark ``run`` finished (it stopped short: the same command then starts a new run)."""
        run.finished = True
        self.db.execute("UPDATE runs SET finished = 1 WHERE id = ?", (run.id,))
