"""The tour library's SQLite storage: numbered migrations, atomic batches, streaming reads.

A library is one SQLite file (WAL journal, so a process killed mid-batch loses that batch and
nothing else). A tour is stored once, as its packed canonical form (:mod:`.canonical`) under a
unique constraint with its board and kind, plus the transform code back to the tour as it was
made and its metadata. On 8 × 8 the row is about 50 bytes and the unique key about 35.

Every SQLite failure leaves this module as an :class:`~knightstour.errors.InvalidInputError`
naming the file and the problem: a damaged file says so with ``PRAGMA integrity_check``'s word,
and :meth:`Library.check_integrity` refuses to write into one. ``Library(path, readonly=True)``
reads a library it may not write (a read-only folder or file system: ``mode=ro``, then
``immutable=1`` when even the ``-shm`` file cannot be made).

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

import functools
import inspect
import os
import re
import sqlite3
import time
import urllib.parse
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InternalError, InvalidInputError
from knightstour.library import canonical as cf
from knightstour.tour import Tour

__all__ = [
    "DEFAULT_DB",
    "MAX_ID",
    "MIGRATIONS",
    "Batch",
    "CountKey",
    "KnownCount",
    "Library",
    "PackedRows",
    "Run",
    "StoredTour",
    "library_board",
    "same_kind",
    "shape_of",
]

#: The file ``knightstour generate`` and ``knightstour library`` use unless told otherwise.
DEFAULT_DB = "tours.db"
#: ``PRAGMA application_id`` of a tour library ("KnTr").
APPLICATION_ID = 0x4B6E5472
#: The largest integer SQLite stores (ids, counts, seeds): ``2**63 - 1``.
MAX_ID = (1 << 63) - 1
#: The first bytes of every SQLite file.
_SQLITE_MAGIC = b"SQLite format 3\x00"

_F = TypeVar("_F", bound=Callable[..., Any])

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
    # 2: counts remembered (knightstour count), one row per thing counted
    """
    CREATE TABLE counts (
        id INTEGER PRIMARY KEY,
        board TEXT NOT NULL,           -- the board spec, WxH
        kind TEXT NOT NULL CHECK (kind IN ('closed', 'open')),
        start_name TEXT NOT NULL,      -- the start square's name, '' for any
        end_name TEXT NOT NULL,        -- the end square's name, '' for any
        directed INTEGER NOT NULL,
        number TEXT NOT NULL,          -- decimal digits: counts exceed 64 bits
        method TEXT NOT NULL,
        seconds REAL NOT NULL,         -- how long the count took
        created INTEGER NOT NULL,      -- Unix seconds
        UNIQUE (board, kind, start_name, end_name, directed)
    );
    """,
    # 3: the semi-magic tour search (knightstour magic): each part of each range walked
    """
    CREATE TABLE magic_parts (
        board TEXT NOT NULL,           -- the board spec, WxH
        scheme TEXT NOT NULL,          -- the walk's version: parts of another are walked again
        range_no INTEGER NOT NULL,
        part INTEGER NOT NULL,         -- -1: the whole range, once every part is walked
        parts INTEGER NOT NULL,        -- the parts of the range (on the -1 row)
        found INTEGER NOT NULL,        -- semi-magic numberings found
        nodes INTEGER NOT NULL,
        seconds REAL NOT NULL,
        created INTEGER NOT NULL,      -- Unix seconds
        PRIMARY KEY (board, scheme, range_no, part)
    );
    CREATE TABLE magic_states (
        board TEXT NOT NULL,
        scheme TEXT NOT NULL,
        range_no INTEGER NOT NULL,
        part INTEGER NOT NULL,
        state BLOB NOT NULL,           -- the walk of a part stopped before its end (.npz)
        PRIMARY KEY (board, scheme, range_no, part)
    );
    """,
    # 4: shaped boards (holes, other leapers, wrapped and 3-D boards): the board's key beside its
    # sides, in the unique constraint too; SQLite cannot alter a constraint, so the table is made
    # again, every row and id kept
    """
    CREATE TABLE tours_v4 (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        shape TEXT NOT NULL DEFAULT '', -- Board.key of a shaped board; '' for a plain one
        closed INTEGER NOT NULL,
        canon BLOB NOT NULL,           -- the packed canonical form
        xform INTEGER NOT NULL,        -- transform code: canonical form -> this tour
        start_sq INTEGER NOT NULL,
        end_sq INTEGER NOT NULL,
        method INTEGER NOT NULL REFERENCES methods(id),
        seed INTEGER,                  -- the walk's or search's seed; NULL when imported
        run INTEGER REFERENCES runs(id),
        created INTEGER NOT NULL,      -- Unix seconds
        UNIQUE (width, height, shape, closed, canon)
    );
    INSERT INTO tours_v4 (id, width, height, shape, closed, canon, xform, start_sq, end_sq,
                          method, seed, run, created)
        SELECT id, width, height, '', closed, canon, xform, start_sq, end_sq, method, seed, run,
               created FROM tours ORDER BY id;
    DROP TABLE tours;
    ALTER TABLE tours_v4 RENAME TO tours;
    ALTER TABLE runs ADD COLUMN shape TEXT NOT NULL DEFAULT '';
    """,
)
#: The oldest schema a read-only library may have: the later migrations only add tables, which
#: a read-only library without them reads as empty.
_READABLE_FROM = 1
#: The schema version that made the ``counts`` table.
_COUNTS_FROM = 2
#: The schema version that made the ``magic_parts`` table.
_MAGIC_FROM = 3
#: The schema version that added the ``shape`` column (shaped boards): an older library, read
#: as it is, holds plain boards only.
_SHAPES_FROM = 4

#: What identifies a count (:meth:`knightstour.counting.CountRequest.key`): board spec, 'closed'
#: or 'open', start square name or '', end square name or '', directed.
CountKey = tuple[str, str, str, str, bool]

#: The columns of a tour row, in the order the code reads them (``shape`` last: ``r[12]``).
_COLS = (
    "id, width, height, closed, canon, xform, start_sq, end_sq, method, seed, run, created, shape"
)
#: The same for a library from before shaped boards, read as it is.
_COLS_BEFORE_SHAPES = _COLS.replace(", shape", ", '' AS shape")
_COUNT_COLS = "board, kind, start_name, end_name, directed, number, method, seconds, created"


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
            "board": self.board.key,
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
        """The batch in the order of its keys' first 8 bytes, equal ones in the batch's order (the
        library's index takes keys in order faster; a stable sort of one integer a key is
        several times quicker than sorting whole keys, and keeps the first of two equal tours
        first, so it is the one stored)."""
        if len(self) < 2:
            return self
        head = np.zeros((len(self), 8), dtype=np.uint8)
        k = min(8, self.keys.shape[1])
        head[:, :k] = self.keys[:, :k]
        return self._take(np.argsort(head.view(">u8")[:, 0], kind="stable"))

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
class PackedRows:
    """Consecutive tour rows of one board and kind, as arrays: what the exporter reads
    (:meth:`Library.iter_packed`). Nothing is decoded or checked yet.

    ``keys`` is ``(rows, key_length)`` uint8, the packed canonical forms; ``codes``, ``starts``
    and ``methods`` (method ids) are int64, one a row, in id order (``ids``).
    """

    board: Board
    closed: bool
    ids: np.ndarray
    keys: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    methods: np.ndarray

    def __len__(self) -> int:
        return int(self.ids.shape[0])


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


@dataclass(frozen=True)
class KnownCount:
    """A count the library remembers: what was counted, the number, and how it was found.

    >>> k = KnownCount("6x6", "closed", "", "", False, 9862, "frontier", 0.5, 0)
    >>> k.key, k.created_iso
    (('6x6', 'closed', '', '', False), '1970-01-01T00:00:00Z')
    """

    board: str
    kind: str
    start: str
    end: str
    directed: bool
    number: int
    method: str
    seconds: float
    created: int

    @property
    def key(self) -> CountKey:
        """What was counted, as :meth:`knightstour.counting.CountRequest.key` gives it."""
        return (self.board, self.kind, self.start, self.end, self.directed)

    @property
    def created_iso(self) -> str:
        """When it was counted, ISO 8601 in UTC to the second."""
        return datetime.fromtimestamp(self.created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _sql(method: _F) -> _F:
    """Turn the SQLite errors of a :class:`Library` method (or of the generator it returns) into
    an :class:`InvalidInputError` naming the file and the problem (:meth:`Library._failure`)."""
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def gen(self: Library, *args: Any, **kwargs: Any) -> Any:
            try:
                return (yield from method(self, *args, **kwargs))
            except sqlite3.Error as e:
                raise self._failure(e) from None

        return gen  # type: ignore[return-value]

    @functools.wraps(method)
    def call(self: Library, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as e:
            raise self._failure(e) from None

    return call  # type: ignore[return-value]


class Library:
    """A tour library in the SQLite file ``path`` (``":memory:"`` for a throwaway one).

    Opening creates the file if need be and runs any migrations it lacks. Use it as a context
    manager, or call :meth:`close`. ``readonly=True`` opens an existing library for reading
    only: nothing is written, not even the WAL's ``-shm`` file when the folder is read-only.

    >>> Library(":memory:").get(10**20)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: no tour 100000000000000000000 in :memory:
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_DB,
        *,
        create: bool = True,
        readonly: bool = False,
    ) -> None:
        self.path = os.fspath(path)
        self.readonly = readonly
        memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not memory and (readonly or not create) and not os.path.exists(self.path):
            raise InvalidInputError(f"no tour library at {self.path}")
        if not memory and os.path.isdir(self.path):
            raise InvalidInputError(f"{self.path} is a folder, not a tour library")
        self._methods: dict[str, int] = {}
        self._method_names: dict[int, str] = {}
        uri = None
        if readonly and not memory:
            uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        try:
            self.db = self._connect(uri)
            try:
                self._setup(memory)
            except sqlite3.OperationalError as e:
                if uri is None or "unable to open" not in str(e):
                    raise
                # a read-only folder: no -shm can be made for the WAL; read the file as it is
                self.db.close()
                self.db = self._connect(uri.replace("mode=ro", "immutable=1"))
                self._setup(memory)
        except sqlite3.Error as e:
            if hasattr(self, "db"):
                self.db.close()
            raise self._failure(e, opening=True) from None
        except BaseException:
            if hasattr(self, "db"):
                self.db.close()
            raise

    def _connect(self, uri: str | None) -> sqlite3.Connection:
        if uri is None:
            return sqlite3.connect(
                self.path, isolation_level=None, timeout=60, check_same_thread=False
            )
        # a reader may hand its reading to a thread of its own (the exporter does)
        return sqlite3.connect(
            uri, uri=True, isolation_level=None, timeout=60, check_same_thread=False
        )

    def _setup(self, memory: bool) -> None:
        db = self.db
        # one statement, so one snapshot: another process may be making the schema meanwhile
        app, version, tables = db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master)"
        ).fetchone()
        if app != APPLICATION_ID and (app != 0 or tables):
            raise InvalidInputError(
                f"{self.path} is an SQLite file but not a tour library; not touching it"
            )
        if version > len(MIGRATIONS):
            raise InvalidInputError(
                f"{self.path} has schema version {version}, newer than this knightstour "
                f"({len(MIGRATIONS)}): upgrade knightstour"
            )
        self.version = version if self.readonly else len(MIGRATIONS)
        if self.readonly:
            if version < _READABLE_FROM:
                what = "is empty" if version == 0 else "has an older schema"
                raise InvalidInputError(
                    f"{self.path} {what}: not a tour library this knightstour can read without "
                    "writing to it"
                )
            db.execute("PRAGMA query_only=1")
            db.execute("PRAGMA cache_size=-8192")
            return
        if version == 0:  # a new file: 16 KiB pages, a shallower unique index (faster inserts)
            db.execute("PRAGMA page_size=16384")
        if not memory:
            self._use_wal()
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA cache_size=-8192")  # 8 MiB: reads stream; writers ask for more
        db.execute("PRAGMA wal_autocheckpoint=8192")
        self.migrate()

    def _use_wal(self, seconds: float = 60.0) -> None:
        """Put the file in WAL mode (once, when it is new): SQLite answers "locked" at once,
        without waiting, while another process holds the file, so wait here as it would."""
        deadline = time.monotonic() + seconds
        delay = 0.005
        while True:
            try:
                mode = self.db.execute("PRAGMA journal_mode").fetchone()[0]
                if str(mode).lower() != "wal":
                    self.db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e).lower() or time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(2 * delay, 0.2)

    # -- failures -------------------------------------------------------------------------

    def _failure(self, e: sqlite3.Error, *, opening: bool = False) -> InvalidInputError:
        """The clean error for SQLite's ``e`` on this file."""
        text = str(e)
        low = text.lower()
        if isinstance(e, sqlite3.OperationalError) and ("locked" in low or "busy" in low):
            return InvalidInputError(
                f"{self.path} is busy: another process has held it for a minute; try again"
            )
        if "readonly" in low or "read-only" in low:
            return InvalidInputError(f"{self.path} cannot be written: {text}")
        if "unable to open" in low or "disk i/o" in low or "disk is full" in low:
            return InvalidInputError(f"cannot use the tour library {self.path}: {text}")
        if opening and not self._looks_like_sqlite():
            return InvalidInputError(f"{self.path} is not a tour library: {text}")
        if isinstance(e, sqlite3.DatabaseError) and not isinstance(
            e, sqlite3.OperationalError | sqlite3.IntegrityError
        ):
            return InvalidInputError(
                f"{self.path} is damaged (PRAGMA integrity_check: {self._integrity_word(text)})"
            )
        return InvalidInputError(f"cannot use the tour library {self.path}: {text}")

    def _looks_like_sqlite(self) -> bool:
        try:
            with open(self.path, "rb") as f:
                return f.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
        except OSError:
            return False

    def _integrity_word(self, fallback: str, *, quick: bool = False) -> str:
        """The first problem ``PRAGMA integrity_check`` (or ``quick_check``) names, on one
        line; ``fallback`` when the check itself cannot run."""
        try:
            pragma = "quick_check" if quick else "integrity_check"
            rows = self.db.execute(f"PRAGMA {pragma}(1)").fetchall()
        except sqlite3.Error as e:
            return str(e) or fallback
        words = "; ".join(str(r[0]) for r in rows).replace("\n", " ")
        return words[:200] if words != "ok" else f"ok, but {fallback}"

    @_sql
    def check_integrity(self) -> None:
        """Refuse (an :class:`InvalidInputError`) a damaged file: ``PRAGMA quick_check``, run
        before writing (a write into a damaged B-tree may spread the damage).

        >>> Library(":memory:").check_integrity()
        """
        rows = self.db.execute("PRAGMA quick_check(1)").fetchall()
        words = "; ".join(str(r[0]) for r in rows).replace("\n", " ")
        if words != "ok":
            raise InvalidInputError(
                f"{self.path} is damaged (PRAGMA quick_check: {words[:200]}); not writing to it"
            )

    @_sql
    def migrate(self) -> int:
        """Run the migrations the file lacks, each in its own transaction; the schema version."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, len(MIGRATIONS)):
            with self.atomic():
                # again, holding the write lock: another process may have just run it
                if self.db.execute("PRAGMA user_version").fetchone()[0] > number:
                    continue
                # statement by statement: executescript() would commit on its own
                for statement in _statements(MIGRATIONS[number]):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version={number + 1}")
        return len(MIGRATIONS)

    # -- plumbing -------------------------------------------------------------------------

    @_sql
    def close(self) -> None:
        """Close the file (checkpointing the WAL into it)."""
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    @_sql
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

    @_sql
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

    @_sql
    def method_names(self) -> dict[int, str]:
        """Every method's name by its id."""
        for i, n in self.db.execute("SELECT id, name FROM methods"):
            self._method_names[i] = n
            self._methods[n] = i
        return dict(self._method_names)

    @_sql
    def method_name(self, mid: int) -> str:
        name = self._method_names.get(mid)
        if name is None:
            for i, n in self.db.execute("SELECT id, name FROM methods"):
                self._method_names[i] = n
                self._methods[n] = i
            name = self._method_names.get(mid, "")
        return name

    # -- generation runs ------------------------------------------------------------------

    @_sql
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
            "AND height = ? AND shape = ? AND closed = ? AND start_sq IS ? AND method = ? "
            "AND requested = ? AND finished = 0 AND seed_given = ?"
        )
        params: list[Any] = [board.width, board.height, shape_of(board), int(closed), start]
        params += [method, requested]
        params.append(int(seed is not None))
        if seed is not None:
            q += " AND seed = ?"
            params.append(seed)
        row = self.db.execute(q + " ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if row is None else Run(*row)

    @_sql
    def claim_run(
        self,
        board: Board,
        closed: bool,
        start: int | None,
        method: str,
        seed: int | None,
        requested: int,
        new_seed: int,
        choose: Callable[[int], str],
    ) -> Run:
        """The run a ``generate`` command works on, found or made in one write transaction, so
        that processes started with the same command at once share one run (and its count):
        the unfinished run to resume, or a new one with ``seed`` (``new_seed`` when None) and
        the method ``choose(seed)`` names.

        >>> lib = Library(":memory:")
        >>> a = lib.claim_run(Board(8, 8), False, None, "auto", None, 9, 5, lambda s: "warnsdorff")
        >>> b = lib.claim_run(Board(8, 8), False, None, "auto", None, 9, 6, lambda s: "backtrack")
        >>> a == b, b.seed, b.used
        (True, 5, 'warnsdorff')
        """
        run = self.resumable_run(board, closed, start, method, seed, requested)
        if run is not None:  # found without waiting for a writer (which holds it briefly)
            return run
        with self.atomic():  # again, holding the write lock: two processes make one run
            run = self.resumable_run(board, closed, start, method, seed, requested)
            if run is not None:
                return run
            used = choose(new_seed if seed is None else seed)
            return self.start_run(
                board, closed, start, method, used,
                new_seed if seed is None else seed, seed is not None, requested,
            )  # fmt: skip

    @_sql
    def sync_run(self, run: Run) -> Run:
        """Reload ``run``'s progress from the file, inside the write transaction that goes on
        with it: another process may be working on the same run.

        >>> lib = Library(":memory:")
        >>> run = lib.start_run(Board(6, 6), True, 0, "auto", "backtrack", 7, True, 50)
        >>> with lib.atomic():
        ...     lib.advance_run(run, added=20, next_walk=4, walks_since_new=0, finished=False)
        >>> run.added = 0
        >>> lib.sync_run(run).added
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

    @_sql
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
                "INSERT INTO runs (width, height, shape, closed, start_sq, method, used, seed, "
                "seed_given, requested, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (board.width, board.height, shape_of(board), int(closed), start, method, used,
                 seed, int(seed_given), requested, now, now),
            )  # fmt: skip
        return Run(id=int(cur.lastrowid or 0), seed=seed, used=used)

    @_sql
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

    @_sql
    def switch_run_method(self, run: Run, used: str) -> None:
        """Record that ``run`` goes on with method ``used`` (from its next walk)."""
        run.used, run.walks_since_new = used, 0
        self.db.execute(
            "UPDATE runs SET used = ?, walks_since_new = 0 WHERE id = ?", (used, run.id)
        )

    @_sql
    def finish_run(self, run: Run) -> None:
        """Mark ``run`` finished (it stopped short: the same command then starts a new run)."""
        run.finished = True
        self.db.execute("UPDATE runs SET finished = 1 WHERE id = ?", (run.id,))

    @_sql
    def reserve_write_cache(self, mib: int = 128) -> None:
        """Let this connection cache ``mib`` MiB of pages: a big library's unique index, for a
        writer that adds many tours (readers keep the small default)."""
        self.db.execute(f"PRAGMA cache_size={-1024 * int(mib)}")

    # -- remembered counts ----------------------------------------------------------------

    @_sql
    def remember_count(
        self,
        key: CountKey,
        number: int,
        *,
        method: str,
        seconds: float,
        created: int | None = None,
    ) -> None:
        """Remember that the count ``key`` is ``number`` (replacing what was remembered).

        ``key`` is :meth:`knightstour.counting.CountRequest.key`; ``method`` and ``seconds``
        say how it was found.

        >>> lib = Library(":memory:")
        >>> lib.remember_count(("5x5", "open", "", "", True), 1728, method="frontier", seconds=0.3)
        >>> lib.known_count(("5x5", "open", "", "", True)).number
        1728
        """
        board, kind, start, end, directed = _count_key(key)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise InvalidInputError(f"a count is a non-negative integer, got {number!r}")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0:
            raise InvalidInputError(f"seconds must be a non-negative number, got {seconds!r}")
        created = int(time.time()) if created is None else int(created)
        with self.atomic():
            self.db.execute(
                f"INSERT INTO counts ({_COUNT_COLS}) VALUES (?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (board, kind, start_name, end_name, directed) DO UPDATE SET "
                "number = excluded.number, method = excluded.method, "
                "seconds = excluded.seconds, created = excluded.created",
                (board, kind, start, end, int(directed), str(number), str(method),
                 float(seconds), created),
            )  # fmt: skip

    @_sql
    def known_count(self, key: CountKey) -> KnownCount | None:
        """The remembered count ``key`` (:meth:`knightstour.counting.CountRequest.key`), or None.

        >>> Library(":memory:").known_count(("6x6", "closed", "", "", True)) is None
        True
        """
        board, kind, start, end, directed = _count_key(key)
        if self.version < _COUNTS_FROM:  # a read-only library from before counts
            return None
        row = self.db.execute(
            f"SELECT {_COUNT_COLS} FROM counts WHERE board = ? AND kind = ? AND start_name = ? "
            "AND end_name = ? AND directed = ?",
            (board, kind, start, end, int(directed)),
        ).fetchone()
        return None if row is None else self._known(row)

    @_sql
    def known_counts(self, board: str | None = None) -> list[KnownCount]:
        """Every remembered count (of the board spec ``board``), by board, kind, start, end.

        >>> lib = Library(":memory:")
        >>> for spec in ("10x3", "3x10", "5x5"):
        ...     lib.remember_count((spec, "open", "", "", True), 1, method="m", seconds=0)
        >>> [k.board for k in lib.known_counts()]
        ['3x10', '5x5', '10x3']
        """
        if self.version < _COUNTS_FROM:
            return []
        where, params = ("", ()) if board is None else ("WHERE board = ?", (str(board),))
        rows = self.db.execute(f"SELECT {_COUNT_COLS} FROM counts {where}", params).fetchall()
        known = [self._known(r) for r in rows]
        return sorted(
            known, key=lambda k: (_natural(k.board), k.kind, _natural(k.start),
                                  _natural(k.end), k.directed),
        )  # fmt: skip

    def _known(self, row: tuple[Any, ...]) -> KnownCount:
        board, kind, start, end, directed, number, method, seconds, created = row
        text = str(number)
        if not text.isascii() or not text.isdigit() or len(text) > 4000:
            raise InvalidInputError(
                f"{self.path} is damaged: the count of {board} {kind} is not a number"
            )
        return KnownCount(
            str(board), str(kind), str(start), str(end), bool(directed), int(text),
            str(method), float(seconds), int(created),
        )  # fmt: skip

    # -- the semi-magic search's journal ----------------------------------------------------

    @_sql
    def magic_parts_done(self, board: str, scheme: str, range_no: int) -> set[int] | None:
        """The parts of a range of the semi-magic search already walked; None when all are.

        >>> lib = Library(":memory:")
        >>> lib.record_magic_part("6x6", "s", 3, 0, found=0, nodes=10, seconds=0.1)
        0
        >>> lib.magic_parts_done("6x6", "s", 3), lib.magic_parts_done("6x6", "s", 4)
        ({0}, set())
        >>> lib.finish_magic_range("6x6", "s", 3, parts=1)
        >>> lib.magic_parts_done("6x6", "s", 3) is None
        True
        """
        if self.version < _MAGIC_FROM:
            return set()
        rows = self.db.execute(
            "SELECT part FROM magic_parts WHERE board = ? AND scheme = ? AND range_no = ?",
            (board, scheme, int(range_no)),
        ).fetchall()
        parts = {int(r[0]) for r in rows}
        return None if -1 in parts else parts

    @_sql
    def record_magic_part(
        self, board: str, scheme: str, range_no: int, part: int, *, found: int, nodes: int,
        seconds: float, tours: Batch | None = None,
    ) -> int:  # fmt: skip
        """Record one walked part, and store its tours in the same transaction; how many of
        them were new to the library."""
        added = 0
        with self.atomic():
            if tours is not None and len(tours):
                added = self.add_batch(tours, method="magic")
            self.db.execute(
                "DELETE FROM magic_states WHERE board = ? AND scheme = ? AND range_no = ? "
                "AND part = ?",
                (board, scheme, int(range_no), int(part)),
            )
            self.db.execute(
                "INSERT OR REPLACE INTO magic_parts (board, scheme, range_no, part, parts, found, "
                "nodes, seconds, created) VALUES (?,?,?,?,0,?,?,?,?)",
                (board, scheme, int(range_no), int(part), int(found), int(nodes),
                 float(seconds), int(time.time())),
            )  # fmt: skip
        return added

    @_sql
    def keep_magic_state(
        self, board: str, scheme: str, range_no: int, part: int, state: bytes,
        tours: Batch | None = None,
    ) -> int:  # fmt: skip
        """Keep the walk of a part stopped before its end, and its tours so far, in one
        transaction; how many tours were new.

        >>> lib = Library(":memory:")
        >>> lib.keep_magic_state("6x6", "s", 1, 7, b"walk")
        0
        >>> lib.magic_states("6x6", "s", 1)
        {7: b'walk'}
        """
        added = 0
        with self.atomic():
            if tours is not None and len(tours):
                added = self.add_batch(tours, method="magic")
            self.db.execute(
                "INSERT OR REPLACE INTO magic_states (board, scheme, range_no, part, state) "
                "VALUES (?,?,?,?,?)",
                (board, scheme, int(range_no), int(part), sqlite3.Binary(state)),
            )
        return added

    @_sql
    def magic_states(self, board: str, scheme: str, range_no: int) -> dict[int, bytes]:
        """The walks kept of a range's parts stopped before their ends, by part."""
        if self.version < _MAGIC_FROM:
            return {}
        rows = self.db.execute(
            "SELECT part, state FROM magic_states WHERE board = ? AND scheme = ? AND range_no = ?",
            (board, scheme, int(range_no)),
        ).fetchall()
        return {int(p): bytes(b) for p, b in rows}

    @_sql
    def finish_magic_range(self, board: str, scheme: str, range_no: int, *, parts: int) -> None:
        """Mark a range walked: its part rows become one row that sums them."""
        with self.atomic():
            found, nodes, seconds = self.db.execute(
                "SELECT coalesce(sum(found), 0), coalesce(sum(nodes), 0), "
                "coalesce(sum(seconds), 0) FROM magic_parts "
                "WHERE board = ? AND scheme = ? AND range_no = ? AND part >= 0",
                (board, scheme, int(range_no)),
            ).fetchone()
            self.db.execute(
                "DELETE FROM magic_parts WHERE board = ? AND scheme = ? AND range_no = ?",
                (board, scheme, int(range_no)),
            )
            self.db.execute(
                "INSERT INTO magic_parts (board, scheme, range_no, part, parts, found, nodes, "
                "seconds, created) VALUES (?,?,?,-1,?,?,?,?,?)",
                (board, scheme, int(range_no), int(parts), int(found), int(nodes),
                 float(seconds), int(time.time())),
            )  # fmt: skip

    @_sql
    def magic_progress(self, board: str, scheme: str) -> dict[str, Any]:
        """How far the semi-magic search of ``board`` got: ranges done, parts walked in the
        ranges under way, numberings found, nodes and seconds spent.

        >>> Library(":memory:").magic_progress("8x8", "s")["ranges_done"]
        0
        """
        if self.version < _MAGIC_FROM:
            rows: list[tuple[Any, ...]] = []
        else:
            rows = self.db.execute(
                "SELECT range_no, part, found, nodes, seconds FROM magic_parts "
                "WHERE board = ? AND scheme = ?",
                (board, scheme),
            ).fetchall()
        done = sorted({int(r[0]) for r in rows if r[1] == -1})
        return {
            "ranges_done": len(done),
            "ranges": done,
            "parts_in_progress": sum(1 for r in rows if r[1] >= 0),
            "found": sum(int(r[2]) for r in rows),
            "nodes": sum(int(r[3]) for r in rows),
            "seconds": sum(float(r[4]) for r in rows),
        }

    # -- writing --------------------------------------------------------------------------

    @_sql
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
        board = cf.check_library_board(batch.board)
        batch = batch.validate().sorted()  # the unique index takes sorted keys faster
        mid = self.method_id(method)
        created = int(time.time()) if created is None else int(created)
        n, klen = len(batch), batch.keys.shape[1]
        # one bytes object a key, whole (a void item keeps its zero bytes, where "S" strips them)
        keys = np.ascontiguousarray(batch.keys, dtype=np.uint8).view(f"V{klen}")[:, 0].tolist()
        seeds = [None] * n if batch.seeds is None else batch.seeds.tolist()
        # the values every row shares are written into the statement: fewer to bind per row
        const = [board.width, board.height, int(batch.closed), mid, run, created]
        w, h, c, m, r, t = ("NULL" if v is None else str(int(v)) for v in const)
        shape = "'" + shape_of(board).replace("'", "''") + "'"  # a key holds no quote; still
        with self.atomic():
            before = self.db.total_changes
            self.db.executemany(
                "INSERT OR IGNORE INTO tours (width, height, shape, closed, canon, xform, "
                f"start_sq, end_sq, method, seed, run, created) VALUES ({w},{h},{shape},{c},?,?,"
                f"?,?,{m},?,{r},{t})",
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

    @_sql
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

    @_sql
    def count(self, board: BoardLike | None = None, closed: bool | None = None) -> int:
        """How many tours the library holds (on ``board``, of one kind)."""
        where, params = self._where(board, closed)
        return self.db.execute(f"SELECT count(*) FROM tours {where}", params).fetchone()[0]

    @_sql
    def holds_shapes(self, board: BoardLike | None = None, closed: bool | None = None) -> bool:
        """Whether any tour (on ``board``, of one kind) is of a shaped board.

        >>> Library(":memory:").holds_shapes()
        False
        """
        if self.version < _SHAPES_FROM:
            return False
        where, params = self._where(board, closed)
        where = f"{where} {'AND' if where else 'WHERE'} shape != ''"
        return (
            self.db.execute(f"SELECT 1 FROM tours {where} LIMIT 1", params).fetchone() is not None
        )

    @_sql
    def get(self, tour_id: int) -> StoredTour:
        """The tour with id ``tour_id``."""
        if isinstance(tour_id, bool) or not isinstance(tour_id, int):
            raise InvalidInputError(f"a tour id is an integer, got {tour_id!r}")
        if not 1 <= tour_id <= MAX_ID:
            raise InvalidInputError(f"no tour {tour_id} in {self.path}")
        row = self.db.execute(f"SELECT {self._cols} FROM tours WHERE id = ?", (tour_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no tour {tour_id} in {self.path}")
        return next(self._stored([row]))

    @_sql
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
        pagination on the id): memory stays flat however large the library.

        ``after`` and ``limit`` may be any non-negative integers (past SQLite's range: none
        above, no limit)."""
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidInputError(f"after must be a non-negative integer, got {after!r}")
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
                raise InvalidInputError(f"limit must be a non-negative integer, got {limit!r}")
            limit = None if limit >= MAX_ID else limit
        chunk = max(1, min(chunk, 10_000))
        if after >= MAX_ID:
            return
        where, params = self._where(board, closed)
        where = f"{where} {'AND' if where else 'WHERE'} id > ?"
        left = limit
        while left is None or left > 0:
            size = chunk if left is None else min(chunk, left)
            rows = self.db.execute(
                f"SELECT {self._cols} FROM tours {where} ORDER BY id LIMIT ?",
                (*params, after, size),
            ).fetchall()
            if not rows:
                return
            yield rows
            after = rows[-1][0]
            if left is not None:
                left -= len(rows)

    @_sql
    def id_span(self, board: BoardLike | None = None, closed: bool | None = None) -> int:
        """A quick upper bound of how many tours (on ``board``, of one kind) the library holds:
        ``max(id) - min(id) + 1`` of the whole table (two lookups of its key).

        >>> Library(":memory:").id_span()
        0
        """
        lo, hi = self.db.execute("SELECT min(id), max(id) FROM tours").fetchone()
        return 0 if lo is None else int(hi) - int(lo) + 1

    @_sql
    def iter_packed(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        limit: int | None = None,
        chunk: int = 10_000,
    ) -> Iterator[PackedRows]:
        """The rows of :meth:`iter_rows` (``limit`` and ``chunk`` as there) as arrays, one
        :class:`PackedRows` per run of rows of one board and kind.

        Each chunk is one query whose aggregates hand over its columns whole (the keys as one
        hex string, the integers as one list each): the Python objects of a row each are what
        costs when reading a million rows. A chunk of several kinds is read row by row. The
        rows' ids are checked to be in order (they are sorted when an SQLite ever hands the
        aggregate its rows in another order).
        """
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
                raise InvalidInputError(f"limit must be a non-negative integer, got {limit!r}")
            limit = None if limit >= MAX_ID else limit
        chunk = max(1, min(chunk, 10_000))
        where, params = self._where(board, closed)
        one = self._one_kind(where, params)
        where = f"{where} {'AND' if where else 'WHERE'} id > ?"
        shape = "shape" if self.version >= _SHAPES_FROM else "''"
        kinds = "min(width), max(width), min(height), max(height), min(closed), max(closed), "
        if one is not None:  # the rows then written cannot add a kind: ids up to the last
            kinds = f"{one[0]}, {one[0]}, {one[1]}, {one[1]}, {one[2]}, {one[2]}, "
            where += f" AND id <= {int(one[4])}"
        sql = (
            f"SELECT count(*), max(id), {kinds}min(shape), max(shape), group_concat(id), "
            "group_concat(hex(canon), ''), group_concat(xform), group_concat(start_sq), "
            "group_concat(method) FROM (SELECT id, width, height, closed, "
            f"{shape} AS shape, canon, xform, start_sq, method FROM tours {where} "
            "ORDER BY id LIMIT ?)"
        )
        if one is not None:
            sql = sql.replace("min(shape), max(shape)", "'', ''") if not one[3] else sql
        after, left = 0, limit
        while left is None or left > 0:
            size = chunk if left is None else min(chunk, left)
            got = self.db.execute(sql, (*params, after, size)).fetchone()
            n = got[0]
            if not n:
                return
            w0, w1, h0, h1, c0, c1, s0, s1 = got[2:10]
            if (w0, h0, c0, s0) != (w1, h1, c1, s1):  # several kinds: row by row
                rows = self.db.execute(
                    f"SELECT {self._cols} FROM tours {where} ORDER BY id LIMIT ?",
                    (*params, after, size),
                ).fetchall()
                for group in same_kind(rows):
                    yield self._packed_rows(group)
            else:
                yield self._packed(n, got[10:], self._board(w0, h0, s0), bool(c0))
            after = int(got[1])
            if left is not None:
                left -= n

    def _one_kind(
        self, where: str, params: tuple[Any, ...]
    ) -> tuple[int, int, int, str, int] | None:
        """``(width, height, closed, shape, last id)`` when every tour (``where``) is of one
        board and kind, found in the unique index in two lookups; else None (and for a library
        from before shaped boards, whose index has no shape)."""
        if self.version < _SHAPES_FROM:
            return None
        first = self.db.execute(
            f"SELECT width, height, shape, closed FROM tours {where} LIMIT 1", params
        ).fetchone()
        if first is None:
            return None
        w, h, shape, c = first
        if not (isinstance(w, int) and isinstance(h, int) and isinstance(c, int)):
            return None  # a damaged row: read chunk by chunk, where it is named
        key = "(width, height, shape, closed)"
        last, below, above = self.db.execute(  # one statement: one snapshot
            f"SELECT (SELECT max(id) FROM tours), (SELECT 1 FROM tours WHERE {key} < (?,?,?,?) "
            f"LIMIT 1), (SELECT 1 FROM tours WHERE {key} > (?,?,?,?) LIMIT 1)",
            (w, h, shape, c) * 2,
        ).fetchone()
        if below is not None or above is not None or last is None:
            return None
        return int(w), int(h), int(c), str(shape), int(last)

    def _packed(self, n: int, cols: tuple[Any, ...], board: Board, closed: bool) -> PackedRows:
        """A chunk's aggregates as arrays (a column of the wrong length is damage)."""
        ids_t, keys_t, codes_t, starts_t, methods_t = cols
        klen = cf.key_length(board)

        def ints(text: Any) -> np.ndarray:
            # the decimal text parsed in C (one that is not, or stops short, is damage)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    a = None if text is None else np.fromstring(str(text), np.int64, sep=",")
            except ValueError:
                a = None
            if a is None or a.shape[0] != n:
                raise InvalidInputError(
                    f"{self.path} is damaged: a tour row has a missing or bad value"
                )
            return a

        try:
            raw = bytes.fromhex(str(keys_t))
        except ValueError:  # pragma: no cover - hex() writes hex digits only
            raw = b""
        if len(raw) != klen * n:
            raise InvalidInputError(
                f"{self.path} is damaged: a {board.description} tour key is not {klen} bytes"
            )
        ids = ints(ids_t)
        packed = PackedRows(
            board,
            closed,
            ids,
            np.frombuffer(raw, dtype=np.uint8).reshape(n, klen),
            ints(codes_t),
            ints(starts_t),
            ints(methods_t),
        )
        if n > 1 and not (ids[1:] > ids[:-1]).all():  # pragma: no cover - SQLite keeps the order
            order = np.argsort(ids, kind="stable")
            packed = PackedRows(
                board, closed, ids[order], packed.keys[order], packed.codes[order],
                packed.starts[order], packed.methods[order],
            )  # fmt: skip
        return packed

    def _packed_rows(self, rows: list[tuple[Any, ...]]) -> PackedRows:
        """Rows of one board and kind (:data:`_COLS`) as a :class:`PackedRows`."""
        board = self._board(rows[0][1], rows[0][2], rows[0][12])
        klen = cf.key_length(board)
        raw = b"".join(r[4] for r in rows)
        if len(raw) != klen * len(rows):
            raise InvalidInputError(
                f"{self.path} is damaged: a {board.description} tour key is not {klen} bytes"
            )

        def col(i: int) -> np.ndarray:
            return np.array([r[i] for r in rows], dtype=np.int64)

        keys = np.frombuffer(raw, dtype=np.uint8).reshape(len(rows), klen)
        return PackedRows(board, bool(rows[0][3]), col(0), keys, col(5), col(6), col(8))

    @_sql
    def iter_decoded(
        self, board: BoardLike | None = None, closed: bool | None = None, *, chunk: int = 10_000
    ) -> Iterator[tuple[Board, bool, list[tuple[Any, ...]], np.ndarray]]:
        """``(board, closed, rows, tours)`` groups in id order: each row's tour decoded and
        validated, as one ``(len(rows), area)`` array (a damaged row raises)."""
        for rows in self.iter_rows(board, closed, chunk=chunk):
            for group in same_kind(rows):
                b, c, tours = self.decode_rows(group)
                yield b, c, group, tours

    def decode_rows(self, rows: list[tuple[Any, ...]]) -> tuple[Board, bool, np.ndarray]:
        """``(board, closed, tours)`` of rows of one board and kind (:func:`same_kind`), each
        decoded and validated (a damaged row raises)."""
        _, w, h, closed = rows[0][:4]
        board = self._board(w, h, rows[0][12])
        klen = cf.key_length(board)
        raw = b"".join(r[4] for r in rows)
        if len(raw) != klen * len(rows):
            raise InvalidInputError(
                f"{self.path} is damaged: a {board.description} tour key is not {klen} bytes"
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
        board, closed, tours = self.decode_rows(rows)
        for r, p in zip(rows, tours, strict=True):
            t = Tour(board, p, closed=closed, method=self.method_name(r[8]))
            yield StoredTour(id=r[0], tour=t, seed=r[9], run=r[10], created=r[11])

    @_sql
    def iter_tours(
        self, board: BoardLike | None = None, closed: bool | None = None
    ) -> Iterator[StoredTour]:
        """Every stored tour (on ``board``, of one kind) in id order, streamed."""
        for rows in self.iter_rows(board, closed):
            for group in same_kind(rows):
                yield from self._stored(group)

    @_sql
    def list(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int = 20,
    ) -> list[StoredTour]:
        """Up to ``limit`` tours with ids above ``after``, in id order.

        >>> Library(":memory:").list(after=10**20, limit=10**20)
        []
        """
        out: list[StoredTour] = []
        for rows in self.iter_rows(board, closed, after=after, limit=limit, chunk=limit):
            for group in same_kind(rows):
                out.extend(self._stored(group))
        return out

    @_sql
    def stats(self, board: BoardLike | None = None) -> list[dict[str, Any]]:
        """Counts per board and kind, and per start and end square (names -> counts).

        ``board`` is the board's :attr:`~knightstour.board.Board.key` (its spec for a plain
        board) and ``description`` what messages call it.

        >>> import knightstour as kt
        >>> lib = Library(":memory:")
        >>> lib.add([kt.solve(Board(5, 5, wrap="torus"), start="a1", method="backtrack")])
        1
        >>> [(s["board"], s["closed"], s["tours"], s["starts"]) for s in lib.stats()]
        [('5x5 wrap=torus', False, 1, {'a1': 1})]
        """
        where, params = self._where(board, None)
        shape = "shape" if self.version >= _SHAPES_FROM else "''"
        kinds = self.db.execute(
            f"SELECT width, height, {shape}, closed, count(*) FROM tours {where} "
            f"GROUP BY width, height, {shape}, closed ORDER BY width, height, {shape}, closed",
            params,
        ).fetchall()
        out = []
        for w, h, key, closed, n in kinds:
            b = self._board(w, h, key)
            q, qp = self._where(b, bool(closed))
            starts = self.db.execute(
                f"SELECT start_sq, count(*) FROM tours {q} GROUP BY start_sq", qp
            ).fetchall()
            ends = self.db.execute(
                f"SELECT end_sq, count(*) FROM tours {q} GROUP BY end_sq", qp
            ).fetchall()
            methods = self.db.execute(
                "SELECT m.name, count(*) FROM tours JOIN methods m ON m.id = tours.method "
                f"{q} GROUP BY m.name",
                qp,
            ).fetchall()
            out.append(
                {
                    "board": b.key,
                    "description": b.description,
                    "closed": bool(closed),
                    "tours": n,
                    "methods": dict(methods),
                    "starts": {b.square_name(s): c for s, c in sorted(starts)},
                    "ends": {b.square_name(s): c for s, c in sorted(ends)},
                }
            )
        return out

    # -- boards and their rows --------------------------------------------------------------

    @property
    def _cols(self) -> str:
        """The columns of a tour row (a library from before shaped boards: ``''`` for shape)."""
        return _COLS if self.version >= _SHAPES_FROM else _COLS_BEFORE_SHAPES

    def _where(self, board: BoardLike | None, closed: bool | None) -> tuple[str, tuple[Any, ...]]:
        """The ``WHERE`` clause (and its parameters) of the tours on ``board``, of one kind."""
        conds: list[str] = []
        params: list[Any] = []
        if board is not None:
            b = library_board(board)
            conds.append("width = ? AND height = ?")
            params += [b.width, b.height]
            if self.version >= _SHAPES_FROM:
                conds.append("shape = ?")
                params.append(shape_of(b))
            elif shape_of(b):
                conds.append("0")  # an older library holds plain boards only
        if closed is not None:
            conds.append("closed = ?")
            params.append(int(closed))
        return ("WHERE " + " AND ".join(conds)) if conds else "", tuple(params)

    def _board(self, width: int, height: int, shape: str) -> Board:
        """The board of a row: its sides, or its key (a damaged key is named as damage)."""
        try:
            return _row_board(int(width), int(height), str(shape))
        except InvalidInputError as e:
            raise InvalidInputError(
                f"{self.path} is damaged: a board of it is not one ({e})"
            ) from None


def shape_of(board: Board) -> str:
    """What the ``shape`` column holds for ``board``: ``''`` for a plain knight's board (so the
    rows of a library made before shaped boards stay as they are), else its
    :attr:`~knightstour.board.Board.key`.

    >>> shape_of(Board(8, 8)), shape_of(Board(8, 8, wrap="torus")), shape_of(Board(3, 3, depth=3))
    ('', '8x8 wrap=torus', '3x3x3')
    """
    return "" if board.is_plain_knight else board.key


def library_board(board: BoardLike) -> Board:
    """A :class:`Board` from a spec (``8x8``), a board key (``8x8 wrap=torus holes=a1``,
    :attr:`~knightstour.board.Board.key`) or a Board: what ``--board`` of the library takes.

    >>> library_board("8x8 wrap=torus holes=a1-b1").description
    '8x8 wrap=torus holes=a1,b1'
    >>> library_board("8x8 leaper=9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: unknown leaper '9': expected a name (knight, camel, zebra, giraffe, antelope) or two legs like 1,3
    """
    if isinstance(board, str) and "=" in board:
        return Board.from_key(board)
    return parse_board(board)


@functools.lru_cache(maxsize=64)
def _row_board(width: int, height: int, shape: str) -> Board:
    """The board of a stored row, made once (its neighbour table too) for all its rows."""
    if not shape:
        return Board(width, height)
    board = Board.from_key(shape)
    if (board.width, board.height) != (width, height) or board.is_plain_knight:
        raise InvalidInputError(f"the key {shape!r} is not of a {width}x{height} shaped board")
    return board


def canonical_batch(board: Board, closed: bool, paths: np.ndarray) -> Batch:
    """Canonical forms of validated tours ``paths`` (``(B, area)``) as a :class:`Batch`.

    Uses the compiled kernel for big batches and the NumPy reference for small ones (the two
    agree exactly: the tests hold them to it).
    """
    cf.check_library_board(board)
    # int32, as the batch walks: the kernels compile one specialisation for both
    paths = np.ascontiguousarray(paths, dtype=np.int32)
    b, n = paths.shape
    klen = cf.key_length(board)
    keys = np.zeros((b, klen), dtype=np.uint8)
    codes = np.zeros(b, dtype=np.int64)
    if b * n > 20_000 and board.is_plain_knight:
        from knightstour.kernels import jit
        from knightstour.kernels import library as _kernels

        perms, invs = cf.symmetries(board.width, board.height)
        jit.load(_kernels, compiled=True).canonical_batch(
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


def same_kind(rows: list[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """Runs of consecutive rows of the same board and kind (decoded together)."""
    i = 0
    while i < len(rows):
        j = i + 1
        while j < len(rows) and rows[j][1:4] == rows[i][1:4] and rows[j][12] == rows[i][12]:
            j += 1
        yield rows[i:j]
        i = j


def _count_key(key: CountKey) -> CountKey:
    """``key`` checked: four strings and a bool, the kind 'closed' or 'open'."""
    if not isinstance(key, tuple) or len(key) != 5:
        raise InvalidInputError(f"a count key is (board, kind, start, end, directed), got {key!r}")
    board, kind, start, end, directed = key
    if not all(isinstance(v, str) for v in (board, kind, start, end)) or not board:
        raise InvalidInputError(f"a count key names the board, kind and squares, got {key!r}")
    if kind not in ("closed", "open"):
        raise InvalidInputError(f"a count's kind is 'closed' or 'open', got {kind!r}")
    if not isinstance(directed, bool):
        raise InvalidInputError(f"directed must be true or false, got {directed!r}")
    return board, kind, start, end, directed


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders the numbers in ``text`` by value: 3x10 before 10x3, a2 before a10.

    >>> sorted(["10x3", "3x10", "3x4"], key=_natural)
    ['3x4', '3x10', '10x3']
    """
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part) for part in re.findall(r"\d+|\D+", text)
    )


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


# -- the gallery's read-only queries (``knightstour serve --db``: knightstour.library.gallery) --


def gallery_kinds(lib: Library) -> list[tuple[int, int, str, bool, str, int]]:
    """Tours per board, kind and method, one scan: ``(width, height, shape, closed, method,
    count)`` rows in board order."""
    shape = "shape" if lib.version >= _SHAPES_FROM else "''"
    try:
        rows = lib.db.execute(
            f"SELECT width, height, {shape}, closed, method, count(*) FROM tours "
            f"GROUP BY width, height, {shape}, closed, method"
        ).fetchall()
    except sqlite3.Error as e:
        raise lib._failure(e) from None
    return [
        (int(w), int(h), str(s), bool(c), lib.method_name(int(m)), int(n))
        for w, h, s, c, m, n in rows
    ]


def _gallery_where(
    lib: Library, board: BoardLike | None, closed: bool | None, method: str | None
) -> tuple[list[str], list[Any]]:
    """The gallery's filters as conditions. The board's are written ``+width`` so that SQLite
    walks the tours in id order (keyset pages) rather than sorting an index's rows."""
    conds: list[str] = []
    params: list[Any] = []
    if board is not None:
        b = library_board(board)
        conds.append("+width = ? AND +height = ?")
        params += [b.width, b.height]
        if lib.version >= _SHAPES_FROM:
            conds.append("+shape = ?")
            params.append(shape_of(b))
        elif shape_of(b):
            conds.append("0")
    if closed is not None:
        conds.append("+closed = ?")
        params.append(int(closed))
    if method is not None:
        row = lib.db.execute("SELECT id FROM methods WHERE name = ?", (method,)).fetchone()
        conds.append("+method = ?")
        params.append(row[0] if row else -1)
    return conds, params


@_sql
def _gallery_page(
    lib: Library,
    board: BoardLike | None,
    closed: bool | None,
    method: str | None,
    after: int,
    before: int | None,
    limit: int,
) -> tuple[list[StoredTour], bool, bool]:
    conds, params = _gallery_where(lib, board, closed, method)

    def where(extra: str) -> str:
        return "WHERE " + " AND ".join([*conds, extra])

    if before is not None:
        rows = lib.db.execute(
            f"SELECT {lib._cols} FROM tours {where('id < ?')} ORDER BY id DESC LIMIT ?",
            (*params, before, limit + 1),
        ).fetchall()
        earlier = len(rows) > limit
        rows = rows[:limit][::-1]
        later = (
            lib.db.execute(
                f"SELECT 1 FROM tours {where('id >= ?')} LIMIT 1", (*params, before)
            ).fetchone()
            is not None
        )
    else:
        rows = lib.db.execute(
            f"SELECT {lib._cols} FROM tours {where('id > ?')} ORDER BY id LIMIT ?",
            (*params, after, limit + 1),
        ).fetchall()
        later = len(rows) > limit
        rows = rows[:limit]
        earlier = (
            lib.db.execute(
                f"SELECT 1 FROM tours {where('id <= ?')} LIMIT 1", (*params, after)
            ).fetchone()
            is not None
        )
    tours: list[StoredTour] = []
    for group in same_kind(rows):
        tours.extend(lib._stored(group))
    return tours, earlier, later


def gallery_page(
    lib: Library,
    board: BoardLike | None = None,
    closed: bool | None = None,
    method: str | None = None,
    *,
    after: int = 0,
    before: int | None = None,
    limit: int = 24,
) -> tuple[list[StoredTour], bool, bool]:
    """One page of tours in id order, keyset-paginated: up to ``limit`` tours with ids above
    ``after`` (or, given ``before``, the last ``limit`` below it), and whether tours come
    before and after the page. Filters: the board, the kind, the method's name.

    >>> import knightstour as kt
    >>> lib = Library(":memory:")
    >>> lib.add([kt.solve("5x5", start="a1", method="warnsdorff")], method="warnsdorff")
    1
    >>> tours, earlier, later = gallery_page(lib, "5x5", limit=10)
    >>> [t.id for t in tours], earlier, later
    ([1], False, False)
    """
    for name, value in (("after", after), ("before", before), ("limit", limit)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidInputError(f"{name} must be an integer, got {value!r}")
    after = min(max(after, 0), MAX_ID)
    before = None if before is None else min(max(before, 0), MAX_ID)
    return _gallery_page(lib, board, closed, method, after, before, max(1, min(limit, 500)))


@_sql
def gallery_count(
    lib: Library,
    board: BoardLike | None = None,
    closed: bool | None = None,
    method: str | None = None,
) -> int:
    """How many tours the gallery's filters keep."""
    conds, params = _gallery_where(lib, board, closed, method)
    # the board's conditions without the "+": a count may use the unique index
    where = ("WHERE " + " AND ".join(conds)).replace("+", "") if conds else ""
    return int(lib.db.execute(f"SELECT count(*) FROM tours {where}", params).fetchone()[0])
