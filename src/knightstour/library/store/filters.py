"""Which tours a question is about: the SQL conditions over the tours table, across the
versions of the library's schema.

:class:`TourFilters` is the part of :class:`~knightstour.library.store.tours.Tours` that
writes the ``WHERE`` of a question (a board, a kind, a method, the stored metrics) and the
columns a row is read with, for a library of this version or an older one opened as it is.

>>> from knightstour.library.store import Library
>>> conds, params = Library(":memory:").tours.conditions("5x5", closed=False)
>>> conds, params
(['kind IN (SELECT id FROM kinds WHERE width = ? AND height = ? AND shape = ? AND closed = ?)'], [5, 5, '', 0])
"""

from __future__ import annotations

from typing import Any

from knightstour.board import BoardLike
from knightstour.errors import InvalidInputError
from knightstour.library.store import records as rec
from knightstour.library.store.schema import KINDS_FROM, METRICS_FROM, SHAPES_FROM
from knightstour.library.store.table import Table

__all__ = ["COLS", "ORDERS", "Conditions", "TourFilters"]

#: The columns of a tour row, in the order the code reads them (``shape`` is ``r[12]``, then
#: the tour's ``crossings`` and ``turns``, NULL when not stored).
COLS = (
    "id, width, height, closed, canon, xform, start_sq, end_sq, method, seed, run, created, shape, "
    "crossings, turns"
)
#: The same for a library from before stored metrics, and from before shaped boards, read as
#: they are.
_COLS_BEFORE_METRICS = COLS.replace("crossings, turns", "NULL AS crossings, NULL AS turns")
_COLS_BEFORE_SHAPES = _COLS_BEFORE_METRICS.replace(", shape", ", '' AS shape")
#: What the tours can be ordered by (:meth:`Tours.conditions`, the gallery's pages):
#: ``id``, or a stored metric with the id after it.
ORDERS = ("id", "crossings", "turns")

_Strs = list[str]
_Values = list[Any]
#: SQL conditions and their parameters (:meth:`TourFilters.conditions`).
Conditions = tuple[_Strs, _Values]


class TourFilters(Table):
    """The conditions and columns of the questions asked of the tours table."""

    @property
    def cols(self) -> str:
        """The columns of a tour row (a library from before shaped boards: ``''`` for shape;
        from before stored metrics: NULL for them)."""
        if self.version >= METRICS_FROM:
            return COLS
        return _COLS_BEFORE_METRICS if self.version >= SHAPES_FROM else _COLS_BEFORE_SHAPES

    @property
    def rows(self) -> str:
        """What the rows with their boards are read from: the view ``tour_rows`` (the tours
        with their kinds' boards), or a library's ``tours`` from before kinds."""
        return "tour_rows" if self.version >= KINDS_FROM else "tours"

    def conditions(
        self,
        board: BoardLike | None,
        closed: bool | None,
        method: str | None = None,
        *,
        scan: bool = False,
    ) -> Conditions:
        """The conditions (and their parameters) of the tours on ``board``, of one kind, made
        by ``method``. ``scan=True`` writes them so that no index serves them (``+kind``):
        SQLite then walks the tours in id order (keyset pages) rather than sorting an index's
        rows."""
        plus = "+" if scan else ""
        conds: _Strs = []
        params: _Values = []
        if self.version >= KINDS_FROM and (board is not None or closed is not None):
            kind: _Strs = []
            if board is not None:
                b = rec.library_board(board)
                kind.append("width = ? AND height = ? AND shape = ?")
                params += [b.width, b.height, rec.shape_of(b)]
            if closed is not None:
                kind.append("closed = ?")
                params.append(int(closed))
            conds.append(f"{plus}kind IN (SELECT id FROM kinds WHERE {' AND '.join(kind)})")
            board = closed = None  # the kind's condition holds them
        if board is not None:  # a library from before kinds: the board's columns
            b = rec.library_board(board)
            conds.append(f"{plus}width = ? AND {plus}height = ?")
            params += [b.width, b.height]
            if self.version >= SHAPES_FROM:
                conds.append(f"{plus}shape = ?")
                params.append(rec.shape_of(b))
            elif rec.shape_of(b):
                conds.append("0")  # an older library holds plain boards only
        if closed is not None:
            conds.append(f"{plus}closed = ?")
            params.append(int(closed))
        if method is not None:
            row = self.db.execute("SELECT id FROM methods WHERE name = ?", (method,)).fetchone()
            conds.append(f"{plus}method = ?")
            params.append(row[0] if row else -1)
        return conds, params

    def shape_conditions(
        self,
        order: str = "id",
        max_crossings: int | None = None,
        max_turns: int | None = None,
    ) -> Conditions:
        """The conditions of the tours ordered by ``order`` (one of :data:`ORDERS`; a metric
        keeps the tours that have it stored) with at most ``max_crossings`` crossings and
        ``max_turns`` turns. A library from before stored metrics is refused (read-only, it
        cannot gain them here), naming ``library update``.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").tours.shape_conditions("turns", max_crossings=10)
        (['turns IS NOT NULL', 'crossings <= ?'], [10])
        """
        if order not in ORDERS:
            raise InvalidInputError(f"order by one of {', '.join(ORDERS)}, not {order!r}")
        conds: _Strs = []
        params: _Values = []
        if order != "id":
            conds.append(f"{order} IS NOT NULL")
        for name, most in (("crossings", max_crossings), ("turns", max_turns)):
            if most is None:
                continue
            if isinstance(most, bool) or not isinstance(most, int) or most < 0:
                raise InvalidInputError(f"max {name}: a non-negative integer, not {most!r}")
            conds.append(f"{name} <= ?")
            params.append(min(most, rec.MAX_ID))
        if conds and self.version < METRICS_FROM:
            raise InvalidInputError(
                f"{self.path} stores no crossings or turns (made by an older knightstour): "
                f"'knightstour library update --db {self.path}' stores them"
            )
        return conds, params

    def where(
        self, board: BoardLike | None, closed: bool | None, method: str | None = None
    ) -> tuple[str, tuple[Any, ...]]:
        """The ``WHERE`` clause (and its parameters) of :meth:`conditions`."""
        conds, params = self.conditions(board, closed, method)
        return ("WHERE " + " AND ".join(conds)) if conds else "", tuple(params)
