"""The tours table: each tour stored once, as its packed canonical form under its kind.

A tour is a row keyed by its kind (board, and open or closed: a number of the ``kinds`` table)
and its packed canonical form (:mod:`knightstour.library.canonical`), with the transform code
back to the tour as it was made and its metadata; the methods' names are a table of their own.
Writes take :class:`~knightstour.library.store.records.Batch` es in one transaction; reads
stream rows in id order (keyset pagination), decoded and validated.

>>> import knightstour as kt
>>> from knightstour.library.store import Library
>>> lib = Library(":memory:")
>>> t = kt.solve("5x5", start="a1", method="warnsdorff")
>>> lib.tours.add([t, t.reversed()], method="warnsdorff")   # the same tour twice: stored once
1
>>> stored = lib.tours.get(1)
>>> stored.tour == t, stored.start, stored.method
(True, 'a1', 'warnsdorff')
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike
from knightstour.errors import InvalidInputError
from knightstour.library import canonical as cf
from knightstour.library.store import packed
from knightstour.library.store import records as rec
from knightstour.library.store.filters import COLS, ORDERS, TourFilters
from knightstour.library.store.schema import KINDS_FROM, METRICS_FROM, SHAPES_FROM
from knightstour.library.store.table import sql
from knightstour.tour import Tour

__all__ = ["COLS", "ORDERS", "Tours"]

#: The most rows :meth:`Tours.add_batch` hands SQLite at once: a signal (Ctrl-C) is heard between
#: two such inserts, whatever the batch.
INSERT_ROWS = 16_384
#: Tour rows as :data:`COLS` reads them (named here: ``list`` is a method of :class:`Tours`).
Rows = list[tuple[Any, ...]]
#: ``(width, height, shape, closed, tours)`` of each board and kind held (:meth:`Tours.kinds`).
Kinds = list[tuple[int, int, str, bool, int]]


class Tours(TourFilters):
    """The tours of a :class:`~knightstour.library.store.Library` (``lib.tours``)."""

    def __init__(self, lib: Any) -> None:
        super().__init__(lib)
        self._method_names: dict[int, str] = {}

    # -- the methods' names -----------------------------------------------------------------

    @sql
    def method_id(self, name: str) -> int:
        """The id of method ``name`` in the methods table (added if new), in the caller's
        transaction. Asked of the table every time, never kept: a row added in a transaction
        rolled back afterwards (the savepoint of a batch held already) is gone, and an id kept
        from it would name no method.
        """
        with self.lib.atomic():
            cur = self.db.execute("INSERT OR IGNORE INTO methods(name) VALUES (?)", (name,))
            row = self.db.execute("SELECT id FROM methods WHERE name = ?", (name,)).fetchone()
        if cur.rowcount:  # a new row: its id may be one a rolled-back row had, read before
            self._method_names.clear()
        return int(row[0])

    @sql
    def method_names(self) -> dict[int, str]:
        """Every method's name by its id (read anew: the names read before are let go)."""
        self._method_names = dict(self.db.execute("SELECT id, name FROM methods").fetchall())
        return dict(self._method_names)

    def method_name(self, mid: int) -> str:
        """The name of method ``mid`` ('' for an unknown id)."""
        name = self._method_names.get(mid)
        if name is None:
            name = self.method_names().get(mid, "")
        return name

    # -- writing --------------------------------------------------------------------------

    def _kind_id(self, board: Board, closed: bool) -> int:
        """The number of the kind ``board``, ``closed`` (added if new), in the caller's
        transaction. Not kept between calls: a transaction rolled back takes a new one away."""
        key = (board.width, board.height, rec.shape_of(board), int(closed))
        q = "SELECT id FROM kinds WHERE width = ? AND height = ? AND shape = ? AND closed = ?"
        row = self.db.execute(q, key).fetchone()
        if row is None:
            cur = self.db.execute(
                "INSERT INTO kinds (width, height, shape, closed) VALUES (?,?,?,?)", key
            )
            return int(cur.lastrowid or 0)
        return int(row[0])

    @sql
    def add_batch(
        self,
        batch: rec.Batch,
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
        crossings = [None] * n if batch.crossings is None else batch.crossings.tolist()
        turns = [None] * n if batch.turns is None else batch.turns.tolist()
        rows = zip(
            keys, batch.codes.tolist(), batch.starts.tolist(), batch.ends.tolist(), seeds,
            crossings, turns, strict=True,
        )  # fmt: skip
        with self.lib.atomic():
            # the values every row shares are written into the statement: fewer to bind per row
            const = [self._kind_id(board, batch.closed), mid, run, created]
            k, m, r, t = ("NULL" if v is None else str(int(v)) for v in const)
            insert = (
                "INSERT OR IGNORE INTO tours (kind, canon, xform, start_sq, end_sq, method, seed, "
                f"run, created, crossings, turns) VALUES ({k},?,?,?,?,{m},?,{r},{t},?,?)"
            )
            before = self.db.total_changes
            for _ in range(0, n, INSERT_ROWS):  # Ctrl-C is heard between two of them
                self.db.executemany(insert, itertools.islice(rows, INSERT_ROWS))
            return self.db.total_changes - before

    @sql
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
        with self.lib.atomic():
            for (board, closed, m), paths in groups.items():
                batch = rec.canonical_batch(board, closed, np.stack(paths))
                if seed is not None:
                    batch.seeds = np.full(len(batch), seed, dtype=np.int64)
                added += self.add_batch(batch, method=m)
        return added

    @sql
    def store_shapes(self, ids: Iterable[int], crossings: np.ndarray, turns: np.ndarray) -> None:
        """Store the crossings and turns of the tours ``ids`` (in the caller's transaction, or
        one of its own): what ``library update`` fills in."""
        rows = zip(crossings.tolist(), turns.tolist(), ids, strict=True)
        with self.lib.atomic():
            self.db.executemany("UPDATE tours SET crossings = ?, turns = ? WHERE id = ?", rows)

    @sql
    def unmeasured(self) -> int:
        """How many tours have no stored crossings or turns (:meth:`iter_unmeasured`)."""
        if self.version < METRICS_FROM:
            return self.count()
        q = "SELECT count(*) FROM tours WHERE crossings IS NULL OR turns IS NULL"
        return int(self.db.execute(q).fetchone()[0])

    @sql
    def iter_unmeasured(self, *, after: int = 0, chunk: int = 10_000) -> Iterator[Rows]:
        """The rows (as :data:`COLS`) of the tours with no stored crossings or turns, in id
        order, ``chunk`` at a time, each read in a short transaction of its own (keyset
        pagination on the id: rows updated meanwhile are not met again)."""
        while True:
            rows = self.db.execute(
                f"SELECT {self.cols} FROM {self.rows} WHERE (crossings IS NULL OR turns IS NULL) "
                "AND id > ? ORDER BY id LIMIT ?",
                (after, chunk),
            ).fetchall()
            if not rows:
                return
            yield rows
            after = rows[-1][0]

    # -- reading --------------------------------------------------------------------------

    @sql
    def count(self, board: BoardLike | None = None, closed: bool | None = None) -> int:
        """How many tours the library holds (on ``board``, of one kind)."""
        where, params = self.where(board, closed)
        return int(self.db.execute(f"SELECT count(*) FROM tours {where}", params).fetchone()[0])

    @sql
    def holds_shapes(self, board: BoardLike | None = None, closed: bool | None = None) -> bool:
        """Whether any tour (on ``board``, of one kind) is of a shaped board.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").tours.holds_shapes()
        False
        """
        if self.version < SHAPES_FROM:
            return False
        where, params = self.where(board, closed)
        where = f"{where} {'AND' if where else 'WHERE'} shape != ''"
        return (
            self.db.execute(f"SELECT 1 FROM {self.rows} {where} LIMIT 1", params).fetchone()
            is not None
        )

    @sql
    def get(self, tour_id: int) -> rec.StoredTour:
        """The tour with id ``tour_id``."""
        if isinstance(tour_id, bool) or not isinstance(tour_id, int):
            raise InvalidInputError(f"a tour id is an integer, got {tour_id!r}")
        if not 1 <= tour_id <= rec.MAX_ID:
            raise InvalidInputError(f"no tour {tour_id} in {self.path}")
        q = f"SELECT {self.cols} FROM {self.rows} WHERE id = ?"
        row = self.db.execute(q, (tour_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no tour {tour_id} in {self.path}")
        return next(self.stored([row]))

    @sql
    def iter_rows(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int | None = None,
        chunk: int = 10_000,
    ) -> Iterator[Rows]:
        """Raw rows in id order, ``chunk`` at a time, in short read transactions (keyset
        pagination on the id): memory stays flat however large the library.

        ``after`` and ``limit`` may be any non-negative integers (past SQLite's range: none
        above, no limit)."""
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidInputError(f"after must be a non-negative integer, got {after!r}")
        limit = _limit(limit)
        chunk = max(1, min(chunk, 10_000))
        if after >= rec.MAX_ID:
            return
        where, params = self.where(board, closed)
        where = f"{where} {'AND' if where else 'WHERE'} id > ?"
        left = limit
        while left is None or left > 0:
            size = chunk if left is None else min(chunk, left)
            rows = self.db.execute(
                f"SELECT {self.cols} FROM {self.rows} {where} ORDER BY id LIMIT ?",
                (*params, after, size),
            ).fetchall()
            if not rows:
                return
            yield rows
            after = rows[-1][0]
            if left is not None:
                left -= len(rows)

    @sql
    def id_span(self, board: BoardLike | None = None, closed: bool | None = None) -> int:
        """A quick upper bound of how many tours (on ``board``, of one kind) the library holds:
        ``max(id) - min(id) + 1`` of the whole table (two lookups of its key).

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").tours.id_span()
        0
        """
        lo, hi = self.db.execute("SELECT min(id), max(id) FROM tours").fetchone()
        return 0 if lo is None else int(hi) - int(lo) + 1

    @sql
    def iter_packed(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        limit: int | None = None,
        chunk: int = 10_000,
    ) -> Iterator[rec.PackedRows]:
        """The rows of :meth:`iter_rows` (``limit`` and ``chunk`` as there) as arrays, one
        :class:`PackedRows` per run of rows of one board and kind
        (:func:`knightstour.library.store.packed.iter_packed`)."""
        yield from packed.iter_packed(
            self, board, closed, _limit(limit), max(1, min(chunk, 10_000))
        )

    @sql
    def iter_decoded(
        self, board: BoardLike | None = None, closed: bool | None = None, *, chunk: int = 10_000
    ) -> Iterator[tuple[Board, bool, Rows, np.ndarray]]:
        """``(board, closed, rows, tours)`` groups in id order: each row's tour decoded and
        validated, as one ``(len(rows), area)`` array (a damaged row raises)."""
        for rows in self.iter_rows(board, closed, chunk=chunk):
            for group in rec.same_kind(rows):
                b, c, tours = self.decode_rows(group)
                yield b, c, group, tours

    def decode_rows(self, rows: Rows) -> tuple[Board, bool, np.ndarray]:
        """``(board, closed, tours)`` of rows of one board and kind (:func:`same_kind`), each
        decoded and validated (a damaged row raises)."""
        _, w, h, closed = rows[0][:4]
        board = self.row_board(w, h, rows[0][12])
        keys = self.keys_of(board, b"".join(r[4] for r in rows), len(rows))
        codes = np.fromiter((r[5] for r in rows), dtype=np.int64, count=len(rows))
        tours, ok = cf.decode_batch(board, keys, codes, bool(closed))
        starts = np.fromiter((r[6] for r in rows), dtype=np.int64, count=len(rows))
        ok &= tours[:, 0] == starts
        if not ok.all():
            bad = rows[int(np.flatnonzero(~ok)[0])][0]
            raise InvalidInputError(f"{self.path} is damaged: tour {bad} does not decode to a tour")
        return board, bool(closed), tours

    def keys_of(self, board: Board, raw: bytes, n: int) -> np.ndarray:
        """``n`` stored canonical forms of ``board``, joined in ``raw``, as one ``(n,
        key_length)`` array (a key of another length is damage)."""
        klen = cf.key_length(board)
        if len(raw) != klen * n:
            raise InvalidInputError(
                f"{self.path} is damaged: a {board.description} tour key is not {klen} bytes"
            )
        return np.frombuffer(raw, dtype=np.uint8).reshape(n, klen)

    def stored(self, rows: Rows) -> Iterator[rec.StoredTour]:
        """Rows of one board and kind as :class:`StoredTour` s, decoded and validated."""
        board, closed, tours = self.decode_rows(rows)
        for r, p in zip(rows, tours, strict=True):
            t = Tour(board, p, closed=closed, method=self.method_name(r[8]))
            yield rec.StoredTour(
                id=r[0], tour=t, seed=r[9], run=r[10], created=r[11], crossings=r[13],
                turns=r[14],
            )  # fmt: skip

    @sql
    def iter_tours(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int | None = None,
    ) -> Iterator[rec.StoredTour]:
        """The stored tours (on ``board``, of one kind) with ids above ``after``, in id order,
        streamed: all of them, or up to ``limit``."""
        chunk = 10_000 if limit is None else max(1, limit)
        for rows in self.iter_rows(board, closed, after=after, limit=limit, chunk=chunk):
            for group in rec.same_kind(rows):
                yield from self.stored(group)

    @sql
    def list(
        self,
        board: BoardLike | None = None,
        closed: bool | None = None,
        *,
        after: int = 0,
        limit: int = 20,
    ) -> list[rec.StoredTour]:
        """Up to ``limit`` tours with ids above ``after``, in id order.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").tours.list(after=10**20, limit=10**20)
        []
        """
        return list(self.iter_tours(board, closed, after=after, limit=limit))

    # -- boards, kinds and their rows ---------------------------------------------------------

    def kinds(self, board: BoardLike | None = None) -> Kinds:
        """``(width, height, shape, closed, tours)`` of each board and kind held (on ``board``),
        in board order."""
        if self.version >= KINDS_FROM:
            where, params = self.where(board, None)
            rows = self.db.execute(
                "SELECT k.width, k.height, k.shape, k.closed, n FROM kinds k JOIN (SELECT kind, "
                f"count(*) AS n FROM tours {where} GROUP BY kind) ON kind = k.id "
                "ORDER BY k.width, k.height, k.shape, k.closed",
                params,
            ).fetchall()
        else:
            where, params = self.where(board, None)
            shape = "shape" if self.version >= SHAPES_FROM else "''"
            rows = self.db.execute(
                f"SELECT width, height, {shape}, closed, count(*) FROM tours {where} "
                f"GROUP BY width, height, {shape}, closed ORDER BY width, height, {shape}, closed",
                params,
            ).fetchall()
        return [(int(w), int(h), str(s), bool(c), int(n)) for w, h, s, c, n in rows]

    def row_board(self, width: int, height: int, shape: str) -> Board:
        """The board of a row: its sides, or its key (a damaged key, or a kind not in the kinds
        table, is named as damage)."""
        try:
            if width is None or height is None or shape is None:
                raise InvalidInputError("a tour's kind is missing")
            return rec.row_board(int(width), int(height), str(shape))
        except InvalidInputError as e:
            raise InvalidInputError(
                f"{self.path} is damaged: a board of it is not one ({e})"
            ) from None


def _limit(limit: int | None) -> int | None:
    """``limit`` checked: a non-negative integer, or None (none past SQLite's range)."""
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise InvalidInputError(f"limit must be a non-negative integer, got {limit!r}")
        return None if limit >= rec.MAX_ID else limit
    return None
