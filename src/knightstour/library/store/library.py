"""The library's file: the connection, its numbered migrations, atomic transactions, and its
tables as attributes.

>>> import knightstour as kt
>>> with Library(":memory:") as lib:
...     lib.tours.add([kt.solve("5x5", start="a1")])
...     lib.counts.known_counts(), lib.version == len(MIGRATIONS)
1
([], True)
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager

from knightstour.errors import InvalidInputError
from knightstour.library.store.counts import Counts
from knightstour.library.store.gallery import GalleryQueries
from knightstour.library.store.journal import Journal
from knightstour.library.store.records import DEFAULT_DB
from knightstour.library.store.runs import Runs
from knightstour.library.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    READABLE_FROM,
    statements,
)
from knightstour.library.store.table import sql
from knightstour.library.store.tours import Tours

__all__ = ["Library"]

#: The first bytes of every SQLite file.
_SQLITE_MAGIC = b"SQLite format 3\x00"


class Library:
    """A tour library in the SQLite file ``path`` (``":memory:"`` for a throwaway one).

    Opening creates the file if need be and runs any migrations it lacks. Use it as a context
    manager, or call :meth:`close`. ``readonly=True`` opens an existing library for reading
    only: nothing is written, not even the WAL's ``-shm`` file when the folder is read-only.

    Its tables: :attr:`tours` (the tours and their methods), :attr:`runs` (generation runs),
    :attr:`counts` (remembered counts), :attr:`journal` (the semi-magic search's journal) and
    :attr:`gallery` (the overview queries of ``library stats`` and the gallery).

    >>> Library(":memory:").tours.get(10**20)
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
        self.version = 0
        self.tours = Tours(self)
        self.runs = Runs(self)
        self.counts = Counts(self)
        self.journal = Journal(self)
        self.gallery = GalleryQueries(self)
        memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not memory and (readonly or not create) and not os.path.exists(self.path):
            raise InvalidInputError(f"no tour library at {self.path}")
        if not memory and os.path.isdir(self.path):
            raise InvalidInputError(f"{self.path} is a folder, not a tour library")
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
            raise self.failure(e, opening=True) from None
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
            if version < READABLE_FROM:
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

    def failure(self, e: sqlite3.Error, *, opening: bool = False) -> InvalidInputError:
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

    def _integrity_word(self, fallback: str) -> str:
        """The first problem ``PRAGMA integrity_check`` names, on one line; ``fallback`` when
        the check itself cannot run."""
        try:
            rows = self.db.execute("PRAGMA integrity_check(1)").fetchall()
        except sqlite3.Error as e:
            return str(e) or fallback
        words = "; ".join(str(r[0]) for r in rows).replace("\n", " ")
        return words[:200] if words != "ok" else f"ok, but {fallback}"

    @sql
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

    @sql
    def migrate(self) -> int:
        """Run the migrations the file lacks, each in its own transaction; the schema version."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, len(MIGRATIONS)):
            with self.atomic():
                # again, holding the write lock: another process may have just run it
                if self.db.execute("PRAGMA user_version").fetchone()[0] > number:
                    continue
                # statement by statement: executescript() would commit on its own
                for statement in statements(MIGRATIONS[number]):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version={number + 1}")
        return len(MIGRATIONS)

    # -- plumbing -------------------------------------------------------------------------

    @sql
    def close(self) -> None:
        """Close the file (checkpointing the WAL into it)."""
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    @sql
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A transaction (a savepoint when nested): all of it is stored, or none.

        >>> from knightstour.board import Board
        >>> from knightstour.library.store.runs import RunRequest
        >>> lib = Library(":memory:")
        >>> ask = RunRequest(Board(5, 5), False, None, "auto", seed=1, requested=9)
        >>> with lib.atomic():
        ...     run = lib.runs.start(ask, "backtrack", 1)
        ...     with lib.atomic():   # nested: a savepoint
        ...         lib.runs.finish(run)
        >>> lib.runs.resumable(ask) is None
        True
        """
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

    @sql
    def reserve_write_cache(self, mib: int = 128) -> None:
        """Let this connection cache ``mib`` MiB of pages: a big library's unique index, for a
        writer that adds many tours (readers keep the small default).

        >>> Library(":memory:").reserve_write_cache(16)
        """
        self.db.execute(f"PRAGMA cache_size={-1024 * int(mib)}")
