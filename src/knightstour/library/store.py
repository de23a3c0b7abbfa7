"""The tour library's SQLite storage: numbered migrations, atomic batches, streaming reads.

A library is one SQLite file (WAL journal, so a process killed mid-batch loses that batch and
nothing else). A tour is stored once, as its packed canonical form (:mod:`.canonical`) under a
unique constraint with its board and kind, plus the transform code back to the tour as it was
made and its metadata. On 8 × 8 the row is about 50 bytes and the unique key about 35.

>>> import knightstour as kt
>>> lib = Library(":memory:")
>>> t = kt.solve("5x5", start="a1", method="warnsdorff")
>>> lib.add([t, t.reversed()], method="warnsdorff")   # the same tour twice: stored once
1
>>> stored = lib.get(1)
>>> stored.tour == t, stored.start, stored.method
(True, 'a1', 'warnsdorff')
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InternalError, InvalidInputError
from knightstour.library import canonical as cf
from knightstour.tour import Tour

__all__ = ["DEFAULT_DB", "MIGRATIONS", "Batch", "Library", "Run", "StoredTour"]

#: The file ``knightstour generate`` and ``knightstour library`` use unless told otherwise.
DEFAULT_DB = "tours.db"
#: ``PRAGMA application_id`` of a tour library ("KnTr").
APPLICATION_ID = 0x4B6E5472

#: The schema, one migration a version: ``PRAGMA user_version`` is how many have run. Append
#: new ones; never edit a released one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE methods (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        closed INTEGER NOT NULL,
        start_sq INTEGER,              -- the fixed start square, NULL for any
        method TEXT NOT NULL,          -- the method asked for
        used TEXT NOT NULL,            -- the method it chose
        seed INTEGER NOT NULL,
        seed_given INTEGER NOT NULL,
        requested INTEGER NOT NULL,    -- new tours asked for
        added INTEGER NOT NULL DEFAULT 0,
        next_walk INTEGER NOT NULL DEFAULT 0,  -- walks before this one are done
        walks_since_new INTEGER NOT NULL DEFAULT 0,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE tours (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        closed INTEGER NOT NULL,
        canon BLOB NOT NULL,           -- the packed canonical form
        xform INTEGER NOT NULL,        -- transform code: canonical form -> this tour
        start_sq INTEGER NOT NULL,
        end_sq INTEGER NOT NULL,
        method INTEGER NOT NULL REFERENCES methods(id),
        seed INTEGER,                  -- the walk's or search's seed; NULL when imported
        run INTEGER REFERENCES runs(id),
        created INTEGER NOT NULL,      -- Unix seconds
        UNIQUE (width, height, closed, canon)
    );
    """,
)

_COLS = "id, width, height, closed, canon, xform, start_sq, end_sq, method, seed, run, created"


@dataclass(frozen=True)
class StoredTour:
    """A tour from the library with its metadata."""

    id: int
    tour: Tour
    seed: int | None
    run: int | None
    created: int

    @property
    def board(self) -> Board:
        return self.tour.board

    @property
    def closed(self) -> bool:
        return self.tour.closed

    @property
    def method(self) -> str:
        return self.tour.method

    @property
    def start(self) -> str:
        return self.tour.start

    @property
    def end(self) -> str:
        return self.tour.end

    @property
    def created_iso(self) -> str:
        """The creation time, ISO 8601 in UTC to the second."""
        return datetime.fromtimestamp(self.created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def info(self) -> dict[str, Any]:
        """The metadata as a JSON-able dictionary (no path)."""
        return {
            "id": self.id,
            "board": self.board.spec,
            "closed": self.closed,
            "start": self.start,
            "end": self.end,
            "method": self.method,
            "seed": self.seed,
            "run": self.run,
            "created": self.created_iso,
        }


@dataclass
class Batch:
    """Tours of one board and kind, packed: what generation produces and the library stores.

    ``keys`` is ``(B, key_length)`` uint8, canonical forms; ``codes`` the transform codes;
    ``starts``/``ends`` the first and last squares of each tour as made; ``seeds`` optional.
    """

    board: Board
    closed: bool
    keys: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    seeds: np.ndarray | None = None
    #: Set by :meth:`validate`: every tour decodes to a valid tour with its start and end.
    validated: bool = False

    def validate(self) -> Batch:
        """Decode every tour and check it (vectorised); raise if one is damaged."""
        if len(self) and not self.validated:
            tours, ok = cf.decode_batch(self.board, self.keys, self.codes, self.closed)
            ok &= (tours[:, 0] == self.starts) & (tours[:, -1] == self.ends)
            if not ok.all():
                bad = int(np.flatnonzero(~ok)[0])
                raise InternalError(f"tour {bad} of a batch is damaged")
        self.validated = True
        return self

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def sorted(self) -> Batch:
        """The batch in key order (the library's index takes sorted keys faster)."""
        if len(self) < 2:
            return self
        return self._take(
            np.argsort(np.ascontiguousarray(self.keys).view(f"V{self.keys.shape[1]}")[:, 0])
        )

    def head(self, k: int) -> Batch:
        """The first ``k`` tours."""
        return self._take(slice(0, k))

    def _take(self, which: np.ndarray | slice) -> Batch:
        return Batch(
            self.board,
            self.closed,
            self.keys[which],
            self.codes[which],
            self.starts[which],
            self.ends[which],
            None if self.seeds is None else self.seeds[which],
            self.validated,
        )


@dataclass
class Run:
    """A generation run as the ``runs`` table records it: what it asked for and how far it got.

    Walk (or search) ``j`` of a run is determined by ``seed`` and ``j`` alone; every walk
    before ``next_walk`` is done and its tours are stored. :class:`Library` records runs
    (:meth:`~Library.start_run`, :meth:`~Library.advance_run`, :meth:`~Library.finish_run`) and
    finds the one to resume (:meth:`~Library.resumable_run`).

    >>> lib = Library(":memory:")
    >>> run = lib.start_run(Board(6, 6), True, 0, "auto", "backtrack", 7, True, 50)
    >>> with lib.atomic():   # in the transaction that stores the tours
    ...     lib.advance_run(run, added=20, next_walk=4, walks_since_new=0, finished=False)
    >>> lib.resumable_run(Board(6, 6), True, 0, "auto", 7, 50)
    Run(id=1, seed=7, used='backtrack', added=20, next_walk=4, walks_since_new=0, finished=False)
    >>> lib.finish_run(run)
    >>> lib.resumable_run(Board(6, 6), True, 0, "auto", 7, 50) is None
    True
    """

    id: int
    seed: int
    used: str  # the method the run uses (``auto`` chooses one)
    added: int = 0
    next_walk: int = 0
    walks_since_new: int = 0
    finished: bool = False


class Library:
    """A tour library in the SQLite file ``path`` (``":memory:"`` for a throwaway one).

    Opening creates the file if need be and runs any migrations it lacks. Use it as a context
    manager, or call :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str] = DEFAULT_DB, *, create: bool = True) -> None:
        self.path = os.fspath(path)
        memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not memory and not create and not os.path.exists(self.path):
            raise InvalidInputError(f"no tour library at {self.path}")
        if not memory and os.path.isdir(self.path):
            raise InvalidInputError(f"{self.path} is a folder, not a tour library")
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
        except sqlite3.Error as e:
            raise InvalidInputError(f"cannot open the tour library {self.path}: {e}") from None
        try:
            self._setup(memory)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise InvalidInputError(f"{self.path} is not a tour library: {e}") from None
        except BaseException:
            self.db.close()
            raise
        self._methods: dict[str, int] = {}
        self._method_names: dict[int, str] = {}

    def _setup(self, memory: bool) -> None:
        db = self.db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if app != APPLICATION_ID:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app != 0 or tables:
                raise InvalidInputError(
                    f"{self.path} is an SQLite file but not a tour library; not touching it"
                )
        if version > len(MIGRATIONS):
            raise InvalidInputError(
                f"{self.path} has schema version {version}, newer than this knightstour "
                f"({len(MIGRATIONS)}): upgrade knightstour"
            )
        if version == 0:  # a new file: 16 KiB pages, a shallower unique index (faster inserts)
            db.execute("PRAGMA page_size=16384")
        if not memory:
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA cache_size=-8192")  # 8 MiB: reads stream; writers ask for more
        db.execute("PRAGMA wal_autocheckpoint=8192")
        self.migrate()

    def migrate(self) -> int:
        """Run the migrations the file lacks, each in its own transaction; the schema version."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, len(MIGRATIONS)):
            with self.atomic():
                # statement by statement: executescript() would commit on its own
                for statement in _statements(MIGRATIONS[number]):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version={number + 1}")
        return len(MIGRATIONS)

    # -- plumbing -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (checkpointing the WAL into it)."""
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A transaction (a savepoint when nested): all of it is stored, or none."""
        db = self.db
        if db.in_transaction:
            name = f"sp{id(object())}"
            db.execute(f"SAVEPOINT {name}")
            try:
                yield db
            except BaseException:
                db.execute(f"ROLLBACK TO {name}")
                db.execute(f"RELEASE {name}")
                raise
            db.execute(f"RELEASE {name}")
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def method_id(self, name: str) -> int:
        """The id of method ``name`` in the methods table (added if new)."""
        mid = self._methods.get(name)
        if mid is None:
            with self.atomic():
                self.db.execute("INSERT OR IGNORE INTO methods(name) VALUES (?)", (name,))
                row = self.db.execute("SELECT id FROM methods WHERE name = ?", (name,)).fetchone()
                mid = row[0]
            self._methods[name] = mid
            self._method_names[mid] = name
        return mid

    def method_name(self, mid: int) -> str:
        name = self._method_names.get(mid)
        if name is None:
            for i, n in self.db.execute("SELECT id, name FROM methods"):
                self._method_names[i] = n
                self._methods[n] = i
            name = self._method_names.get(mid, "")
        return name

    # -- generation runs ------------------------------------------------------------------

    def resumable_run(
        self,
        board: Board,
        closed: bool,
        start: int | None,
        method: str,
        seed: int | None,
        requested: int,
    ) -> Run | None:
        """The latest unfinished run asked for with the same parameters, if any.

        ``seed=None`` matches only a run whose seed was drawn at random (and resumes that seed).

        >>> lib = Library(":memory:")
        >>> run = lib.start_run(Board(8, 8), False, None, "auto", "warnsdorff", 5, True, 100)
        >>> lib.resumable_run(Board(8, 8), False, None, "auto", 5, 100) == run
        True
        >>> lib.resumable_run(Board(8, 8), False, None, "auto", None, 100) is None
        True
        """
        q = (
            "SELECT id, seed, used, added, next_walk, walks_since_new FROM runs WHERE width = ? "
            "AND height = ? AND closed = ? AND start_sq IS ? AND method = ? AND requested = ? "
            "AND finished = 0 AND seed_given = ?"
        )
        params: list[Any] = [board.width, board.height, int(closed), start, method, requested]
        params.append(int(seed is not None))
        if seed is not None:
            q += " AND seed = ?"
            params.append(seed)
        row = self.db.execute(q + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if row is None else Run(*row)

    def start_run(
        self,
        board: Board,
        closed: bool,
        start: int | None,
        method: str,
        used: str,
        seed: int,
        seed_given: bool,
        requested: int,
    ) -> Run:
        """Record a new run (committed at once) asking for ``requested`` tours."""
        now = int(time.time())
        with self.atomic():
            cur = self.db.execute(
                "INSERT INTO runs (width, height, closed, start_sq, method, used, seed, "
                "seed_given, requested, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (board.width, board.height, int(closed), start, method, used, seed,
                 int(seed_given), requested, now, now),
            )  # fmt: skip
        return Run(id=int(cur.lastrowid or 0), seed=seed, used=used)

    def advance_run(
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

    def switch_run_method(self, run: Run, used: str) -> None:
        """Record that ``run`` goes on with method ``used`` (from its next walk)."""
        run.used, run.walks_since_new = used, 0
        self.db.execute(
            "UPDATE runs SET used = ?, walks_since_new = 0 WHERE id = ?", (used, run.id)
        )

    def finish_run(self, run: Run) -> None:
        """Mark ``run`` finished (it stopped short: the same command then starts a new run)."""
        run.finished = True
        self.db.execute("UPDATE runs SET finished = 1 WHERE id = ?", (run.id,))

    def reserve_write_cache(self, mib: int = 128) -> None:
        """Let this connection cache ``mib`` MiB of pages: a big library's unique index, for a
        writer that adds many tours (readers keep the small default)."""
        self.db.execute(f"PRAGMA cache_size={-1024 * int(mib)}")

    # -- writing --------------------------------------------------------------------------

    def add_batch(
        self,
        batch: Batch,
        *,
        method: str,
        run: int | None = None,
        created: int | None = None,
    ) -> int:
        """Store a batch in one transaction (or the caller's); how many tours were new.

        Every tour is decoded and validated first (vectorised; :meth:`Batch.validate`, which
        generation's workers run before handing a batch over): a damaged one stops the batch.
        """
        if len(batch) == 0:
            return 0
        board = cf.check_board(batch.board)
        batch = batch.validate().sorted()  # the unique index takes sorted keys faster
        mid = self.method_id(method)
        created = int(time.time()) if created is None else int(created)
        n, klen = len(batch), batch.keys.shape[1]
        raw = np.ascontiguousarray(batch.keys, dtype=np.uint8).tobytes()
        keys = [raw[i * klen : (i + 1) * klen] for i in range(n)]
        seeds = [None] * n if batch.seeds is None else batch.seeds.tolist()
        # the values every row shares are written into the statement: fewer to bind per row
        const = [board.width, board.height, int(batch.closed), mid, run, created]
        w, h, c, m, r, t = ("NULL" if v is None else str(int(v)) for v in const)
        with self.atomic():
            before = self.db.total_changes
            self.db.executemany(
                "INSERT OR IGNORE INTO tours (width, height, closed, canon, xform, start_sq, "
                f"end_sq, method, seed, run, created) VALUES ({w},{h},{c},?,?,?,?,{m},?,{r},{t})",
                zip(
                    keys,
                    batch.codes.tolist(),
                    batch.starts.tolist(),
                    batch.ends.tolist(),
                    seeds,
                    strict=True,
                ),
            )
            return self.db.total_changes - before

    def add(
        self, tours: Iterable[Tour], *, method: str | None = None, seed: int | None = None
    ) -> int:
        """Store tours (each already a validated :class:`Tour`); how many were new.

        ``method`` overrides each tour's own. All in one transaction.
        """
        groups: dict[tuple[Board, bool, str], list[np.ndarray]] = {}
        for t in tours:
            groups.setdefault((t.board, t.closed, method or t.method or "unknown"), []).append(
                t.indices
            )
        added = 0
        with self.atomic():
            for (board, closed, m), paths in groups.items():
                batch = canonical_batch(board, closed, np.stack(paths))
                if seed is not None:
                    batch.seeds = np.full(len(batch), seed, dtype=np.int64)
                added += self.add_batch(batch, method=m)
        return added

    # -- reading --------------------------------------------------------------------------

    def count(self, board: BoardLike | None = None, closed: bool | None = None) -> int:
        """How many tours the library holds (on ``board``, of one kind)."""
        where, params = _where(board, closed)
        return self.db.execute(f"SELECT count(*) FROM tours {where}", params).fetchone()[0]

    def get(self, tour_id: int) -> StoredTour:
        """The tour with id ``tour_id``."""
        row = self.db.execute(f"SELECT {_COLS} FROM tours WHERE id = ?", (tour_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no tour {tour_id} in {self.path}")
        return next(self._stored([row]))

    def iter_rows(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int | None = None,
        chunk: int = 10_000,
    ) -> Iterator[list[tuple[Any, ...]]]:
        """Raw rows in id order, ``chunk`` at a time, in short read transactions (keyset
        pagination on the id): memory stays flat however large the library."""
        where, params = _where(board, closed)
        where = f"{where} {'AND' if where else 'WHERE'} id > ?"
        left = limit
        while left is None or left > 0:
            size = chunk if left is None else min(chunk, left)
            rows = self.db.execute(
                f"SELECT {_COLS} FROM tours {where} ORDER BY id LIMIT ?", (*params, after, size)
            ).fetchall()
            if not rows:
                return
            yield rows
            after = rows[-1][0]
            if left is not None:
                left -= len(rows)

    def iter_decoded(
        self, board: BoardLike | None = None, closed: bool | None = None, *, chunk: int = 10_000
    ) -> Iterator[tuple[Board, bool, list[tuple[Any, ...]], np.ndarray]]:
        """``(board, closed, rows, tours)`` groups in id order: each row's tour decoded and
        validated, as one ``(len(rows), area)`` array (a damaged row raises)."""
        for rows in self.iter_rows(board, closed, chunk=chunk):
            for group in _same_kind(rows):
                b, c, tours = self._decode(group)
                yield b, c, group, tours

    def _decode(self, rows: list[tuple[Any, ...]]) -> tuple[Board, bool, np.ndarray]:
        _, w, h, closed = rows[0][:4]
        board = Board(w, h)
        klen = cf.key_length(board)
        raw = b"".join(r[4] for r in rows)
        if len(raw) != klen * len(rows):
            raise InvalidInputError(
                f"{self.path} is damaged: a {board.spec} tour key is not {klen} bytes"
            )
        keys = np.frombuffer(raw, dtype=np.uint8).reshape(len(rows), klen)
        codes = np.fromiter((r[5] for r in rows), dtype=np.int64, count=len(rows))
        tours, ok = cf.decode_batch(board, keys, codes, bool(closed))
        starts = np.fromiter((r[6] for r in rows), dtype=np.int64, count=len(rows))
        ok &= tours[:, 0] == starts
        if not ok.all():
            bad = rows[int(np.flatnonzero(~ok)[0])][0]
            raise InvalidInputError(f"{self.path} is damaged: tour {bad} does not decode to a tour")
        return board, bool(closed), tours

    def _stored(self, rows: list[tuple[Any, ...]]) -> Iterator[StoredTour]:
        board, closed, tours = self._decode(rows)
        for r, p in zip(rows, tours, strict=True):
            t = Tour(board, p, closed=closed, method=self.method_name(r[8]))
            yield StoredTour(id=r[0], tour=t, seed=r[9], run=r[10], created=r[11])

    def iter_tours(
        self, board: BoardLike | None = None, closed: bool | None = None
    ) -> Iterator[StoredTour]:
        """Every stored tour (on ``board``, of one kind) in id order, streamed."""
        for rows in self.iter_rows(board, closed):
            for group in _same_kind(rows):
                yield from self._stored(group)

    def list(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int = 20,
    ) -> list[StoredTour]:
        """Up to ``limit`` tours with ids above ``after``, in id order."""
        out: list[StoredTour] = []
        for rows in self.iter_rows(board, closed, after=after, limit=limit, chunk=max(limit, 1)):
            for group in _same_kind(rows):
                out.extend(self._stored(group))
        return out

    def stats(self, board: BoardLike | None = None) -> list[dict[str, Any]]:
        """Counts per board and kind, and per start and end square (names -> counts)."""
        where, params = _where(board, None)
        kinds = self.db.execute(
            f"SELECT width, height, closed, count(*) FROM tours {where} "
            "GROUP BY width, height, closed ORDER BY width, height, closed",
            params,
        ).fetchall()
        out = []
        for w, h, closed, n in kinds:
            b = Board(w, h)
            q = "FROM tours WHERE width = ? AND height = ? AND closed = ?"
            starts = self.db.execute(
                f"SELECT start_sq, count(*) {q} GROUP BY start_sq", (w, h, closed)
            ).fetchall()
            ends = self.db.execute(
                f"SELECT end_sq, count(*) {q} GROUP BY end_sq", (w, h, closed)
            ).fetchall()
            methods = self.db.execute(
                f"SELECT m.name, count(*) {q.replace('FROM tours', 'FROM tours JOIN methods m ON m.id = tours.method')} GROUP BY m.name",
                (w, h, closed),
            ).fetchall()
            out.append(
                {
                    "board": b.spec,
                    "closed": bool(closed),
                    "tours": n,
                    "methods": dict(methods),
                    "starts": {b.square_name(s): c for s, c in sorted(starts)},
                    "ends": {b.square_name(s): c for s, c in sorted(ends)},
                }
            )
        return out


def canonical_batch(board: Board, closed: bool, paths: np.ndarray) -> Batch:
    """Canonical forms of validated tours ``paths`` (``(B, area)``) as a :class:`Batch`.

    Uses the compiled kernel for big batches and the NumPy reference for small ones (the two
    agree exactly: the tests hold them to it).
    """
    cf.check_board(board)
    # int32, as the batch walks: the kernels compile one specialisation for both
    paths = np.ascontiguousarray(paths, dtype=np.int32)
    b, n = paths.shape
    klen = cf.key_length(board)
    keys = np.zeros((b, klen), dtype=np.uint8)
    codes = np.zeros(b, dtype=np.int64)
    if b * n > 20_000:
        from knightstour.library import _kernels
        from knightstour.solvers import _jit

        perms, invs = cf.symmetries(board.width, board.height)
        _jit.load(_kernels, compiled=True).canonical_batch(
            paths,
            closed,
            perms,
            invs,
            board.width,
            cf.header_bytes(board),
            cf.CODE_OF,
            keys,
            codes,
        )
    else:
        for i in range(b):
            key, codes[i] = cf.canonical_form(board, paths[i], closed)
            keys[i] = np.frombuffer(key, dtype=np.uint8)
    return Batch(board, closed, keys, codes, paths[:, 0].copy(), paths[:, -1].copy())


def _same_kind(rows: list[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """Runs of consecutive rows of the same board and kind (decoded together)."""
    i = 0
    while i < len(rows):
        j = i + 1
        while j < len(rows) and rows[j][1:4] == rows[i][1:4]:
            j += 1
        yield rows[i:j]
        i = j


def _where(board: BoardLike | None, closed: bool | None) -> tuple[str, tuple[Any, ...]]:
    conds, params = [], []
    if board is not None:
        b = parse_board(board)
        conds.append("width = ? AND height = ?")
        params += [b.width, b.height]
    if closed is not None:
        conds.append("closed = ?")
        params.append(int(closed))
    return ("WHERE " + " AND ".join(conds)) if conds else "", tuple(params)


def _statements(script: str) -> Iterator[str]:
    """The statements of a migration script (split on semicolons ending lines)."""
    buf = []
    for line in script.splitlines():
        line = line.split("--")[0].rstrip()
        if not line:
            continue
        buf.append(line)
        if line.endswith(";"):
            yield "\n".join(buf)
            buf = []
    if buf:
        yield "\n".join(buf)
