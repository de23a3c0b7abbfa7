"""Reading the tours table a chunk at a time as arrays: what the exporter streams.

Each chunk is one query whose aggregates hand over its columns whole (the keys as one hex
string, the integers as one list each): the Python objects of a row each are what costs when
reading a million rows. A chunk of several kinds is read row by row. The rows' ids are checked
to be in order (they are sorted when an SQLite ever hands the aggregate its rows in another
order).

>>> import knightstour as kt
>>> from knightstour.library.store import Library
>>> lib = Library(":memory:")
>>> lib.tours.add([kt.solve("5x5", start="a1"), kt.solve("6x6", start="a1")])
2
>>> [(p.board.spec, len(p)) for p in iter_packed(lib.tours, None, None, None, 100)]
[('5x5', 1), ('6x6', 1)]
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from knightstour.board import Board, BoardLike
from knightstour.errors import InvalidInputError
from knightstour.library.store.records import PackedRows, same_kind
from knightstour.library.store.schema import KINDS_FROM, SHAPES_FROM

if TYPE_CHECKING:
    from knightstour.library.store.tours import Tours

__all__ = ["iter_packed"]


def iter_packed(
    tours: Tours,
    board: BoardLike | None,
    closed: bool | None,
    limit: int | None,
    chunk: int,
) -> Iterator[PackedRows]:
    """The rows of ``tours`` (on ``board``, of one kind; at most ``limit``), ``chunk`` at a
    time in id order, as :class:`PackedRows`, one per run of rows of one board and kind."""
    where, params = tours.where(board, closed)
    one = _one_kind(tours, where, params)
    where = f"{where} {'AND' if where else 'WHERE'} id > ?"
    shape = "shape" if tours.version >= SHAPES_FROM else "''"
    cols, source = f"width, height, closed, {shape} AS shape, ", tours.rows
    kinds = "min(width), max(width), min(height), max(height), min(closed), max(closed), "
    kinds += "min(shape), max(shape), count(width), "  # a row without a board: not one kind
    if one is not None:  # the rows then written cannot add a kind: ids up to the last
        w, h, c, key = one[0], one[1], one[2], "'" + one[3].replace("'", "''") + "'"
        kinds = f"{w}, {w}, {h}, {h}, {c}, {c}, {key}, {key}, count(*), "
        if tours.version >= KINDS_FROM:  # the tours alone: their kind is known
            cols, source = "", "tours"
        where += f" AND id <= {int(one[4])}"
    query = (
        f"SELECT count(*), max(id), {kinds}group_concat(id), group_concat(hex(canon), ''), "
        "group_concat(xform), group_concat(start_sq), group_concat(method) "
        f"FROM (SELECT id, {cols}canon, xform, start_sq, method FROM {source} {where} "
        "ORDER BY id LIMIT ?)"
    )
    after, left = 0, limit
    while left is None or left > 0:
        size = chunk if left is None else min(chunk, left)
        got = tours.db.execute(query, (*params, after, size)).fetchone()
        n = got[0]
        if not n:
            return
        w0, w1, h0, h1, c0, c1, s0, s1, boards = got[2:11]
        if (w0, h0, c0, s0) != (w1, h1, c1, s1) or boards != n:  # several kinds: row by row
            rows = tours.db.execute(
                f"SELECT {tours.cols} FROM {tours.rows} {where} ORDER BY id LIMIT ?",
                (*params, after, size),
            ).fetchall()
            for group in same_kind(rows):
                yield _packed_rows(tours, group)
        else:
            yield _packed(tours, n, got[11:], tours.row_board(w0, h0, s0), bool(c0))
        after = int(got[1])
        if left is not None:
            left -= n


def _one_kind(
    tours: Tours, where: str, params: tuple[Any, ...]
) -> tuple[int, int, int, str, int] | None:
    """``(width, height, closed, shape, last id)`` when every tour (``where``) is of one board
    and kind, found in the unique index in two lookups; else None (and for a library from
    before shaped boards, whose index has no shape)."""
    if tours.version < SHAPES_FROM:
        return None
    keyed = tours.version >= KINDS_FROM
    kind = "kind" if keyed else "0"
    first = tours.db.execute(
        f"SELECT width, height, shape, closed, {kind} FROM {tours.rows} {where} LIMIT 1", params
    ).fetchone()
    if first is None:
        return None
    w, h, shape, c, k = first
    if not (isinstance(w, int) and isinstance(h, int) and isinstance(c, int)):
        return None  # a damaged row: read chunk by chunk, where it is named
    key, value = ("kind", (k,)) if keyed else ("(width, height, shape, closed)", (w, h, shape, c))
    marks = ",".join("?" * len(value))
    last, below, above = tours.db.execute(  # one statement: one snapshot
        f"SELECT (SELECT max(id) FROM tours), (SELECT 1 FROM tours WHERE {key} < ({marks}) "
        f"LIMIT 1), (SELECT 1 FROM tours WHERE {key} > ({marks}) LIMIT 1)",
        value * 2,
    ).fetchone()
    if below is not None or above is not None or last is None:
        return None
    return int(w), int(h), int(c), str(shape), int(last)


def _packed(tours: Tours, n: int, cols: tuple[Any, ...], board: Board, closed: bool) -> PackedRows:
    """A chunk's aggregates as arrays (a column of the wrong length is damage)."""
    ids_t, keys_t, codes_t, starts_t, methods_t = cols

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
                f"{tours.path} is damaged: a tour row has a missing or bad value"
            )
        return a

    try:
        raw = bytes.fromhex(str(keys_t))
    except ValueError:  # pragma: no cover - hex() writes hex digits only
        raw = b""
    keys = tours.keys_of(board, raw, n)
    ids = ints(ids_t)
    rows = PackedRows(board, closed, ids, keys, ints(codes_t), ints(starts_t), ints(methods_t))
    if n > 1 and not (ids[1:] > ids[:-1]).all():  # pragma: no cover - SQLite keeps the order
        order = np.argsort(ids, kind="stable")
        rows = PackedRows(
            board, closed, ids[order], rows.keys[order], rows.codes[order],
            rows.starts[order], rows.methods[order],
        )  # fmt: skip
    return rows


def _packed_rows(tours: Tours, rows: list[tuple[Any, ...]]) -> PackedRows:
    """Rows of one board and kind (:data:`~knightstour.library.store.tours.COLS`) as a
    :class:`PackedRows`."""
    board = tours.row_board(rows[0][1], rows[0][2], rows[0][12])
    keys = tours.keys_of(board, b"".join(r[4] for r in rows), len(rows))

    def col(i: int) -> np.ndarray:
        return np.array([r[i] for r in rows], dtype=np.int64)

    return PackedRows(board, bool(rows[0][3]), col(0), keys, col(5), col(6), col(8))
