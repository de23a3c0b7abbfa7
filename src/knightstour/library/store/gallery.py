"""The library's overview queries: what ``library stats`` and the gallery
(``knightstour serve --db``, :mod:`knightstour.library.gallery`) ask of the tours table.

Counts per board and kind (and per start and end square, per method), and pages of tours in
id order with filters, keyset-paginated: a page of a 100,000-tour library costs what the
first page costs.

>>> import knightstour as kt
>>> from knightstour.library.store import Library
>>> lib = Library(":memory:")
>>> lib.tours.add([kt.solve("5x5", start="a1", method="warnsdorff")], method="warnsdorff")
1
>>> lib.gallery.kinds()
[(5, 5, '', False, 'warnsdorff', 1)]
>>> tours, earlier, later = lib.gallery.page(TourFilter("5x5"), limit=10)
>>> [t.id for t in tours], earlier, later
([1], False, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knightstour.board import BoardLike
from knightstour.errors import InvalidInputError
from knightstour.library.store.records import MAX_ID, StoredTour, same_kind
from knightstour.library.store.schema import KINDS_FROM, SHAPES_FROM
from knightstour.library.store.table import Table, sql

__all__ = ["GalleryQueries", "TourFilter"]


@dataclass(frozen=True)
class TourFilter:
    """Which tours a gallery page keeps, and in what order: those on ``board`` (a spec, a
    shaped board's key or a :class:`~knightstour.board.Board`), closed or open (``closed``),
    made by ``method`` (its name), with at most ``max_crossings`` crossings and ``max_turns``
    turns; None keeps any. ``order`` is ``id``, ``crossings`` or ``turns`` (the fewest first,
    ties in id order; a metric keeps only the tours that have it stored).

    >>> TourFilter("8x8", closed=True)
    TourFilter(board='8x8', closed=True, method=None, order='id', max_crossings=None, max_turns=None)
    """

    board: BoardLike | None = None
    closed: bool | None = None
    method: str | None = None
    order: str = "id"
    max_crossings: int | None = None
    max_turns: int | None = None

    def shape(self) -> tuple[str, int | None, int | None]:
        """``(order, max_crossings, max_turns)``: what
        :meth:`~knightstour.library.store.tours.Tours.shape_conditions` takes."""
        return self.order, self.max_crossings, self.max_turns


class GalleryQueries(Table):
    """The overview queries of a :class:`~knightstour.library.store.Library`
    (``lib.gallery``): read-only."""

    @sql
    def kinds(self) -> list[tuple[int, int, str, bool, str, int]]:
        """Tours per board, kind and method, one scan: ``(width, height, shape, closed, method,
        count)`` rows in board order."""
        if self.version >= KINDS_FROM:
            query = (
                "SELECT k.width, k.height, k.shape, k.closed, g.method, g.n FROM (SELECT kind, "
                "method, count(*) AS n FROM tours GROUP BY kind, method) g JOIN kinds k "
                "ON k.id = g.kind ORDER BY k.width, k.height, k.shape, k.closed, g.method"
            )
        else:
            shape = "shape" if self.version >= SHAPES_FROM else "''"
            query = (
                f"SELECT width, height, {shape}, closed, method, count(*) FROM tours "
                f"GROUP BY width, height, {shape}, closed, method"
            )
        rows = self.db.execute(query).fetchall()
        name = self.lib.tours.method_name
        return [
            (int(w), int(h), str(s), bool(c), name(int(m)), int(n)) for w, h, s, c, m, n in rows
        ]

    @sql
    def stats(self, board: BoardLike | None = None) -> list[dict[str, Any]]:
        """Counts per board and kind, and per start and end square (names -> counts) and per
        method.

        ``board`` is the board's :attr:`~knightstour.board.Board.key` (its spec for a plain
        board) and ``description`` what messages call it.

        >>> import knightstour as kt
        >>> from knightstour.board import Board
        >>> from knightstour.library.store import Library
        >>> lib = Library(":memory:")
        >>> lib.tours.add([kt.solve(Board(5, 5, wrap="torus"), start="a1", method="backtrack")])
        1
        >>> [(s["board"], s["closed"], s["tours"], s["starts"]) for s in lib.gallery.stats()]
        [('5x5 wrap=torus', False, 1, {'a1': 1})]
        """
        tours = self.lib.tours
        out = []
        for w, h, key, closed, n in tours.kinds(board):
            b = tours.row_board(w, h, key)
            q, qp = tours.where(b, closed)
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
                    "closed": closed,
                    "tours": n,
                    "methods": dict(methods),
                    "starts": {b.square_name(s): c for s, c in sorted(starts)},
                    "ends": {b.square_name(s): c for s, c in sorted(ends)},
                }
            )
        return out

    def page(
        self, kept: TourFilter | None = None, *, after: int = 0, before: int | None = None,
        limit: int = 24,
    ) -> tuple[list[StoredTour], bool, bool]:  # fmt: skip
        """One page of the tours ``kept`` in id order, keyset-paginated: up to ``limit`` tours
        with ids above ``after`` (or, given ``before``, the last ``limit`` below it), and
        whether tours come before and after the page."""
        for name, value in (("after", after), ("before", before), ("limit", limit)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidInputError(f"{name} must be an integer, got {value!r}")
        after = min(max(after, 0), MAX_ID)
        before = None if before is None else min(max(before, 0), MAX_ID)
        return self._page(kept or TourFilter(), after, before, max(1, min(limit, 500)))

    @sql
    def _page(
        self, kept: TourFilter, after: int, before: int | None, limit: int
    ) -> tuple[list[StoredTour], bool, bool]:
        tours = self.lib.tours
        conds, params = tours.conditions(kept.board, kept.closed, kept.method, scan=True)
        more_conds, more_params = tours.shape_conditions(*kept.shape())
        conds, params = [*conds, *more_conds], [*params, *more_params]

        def where(extra: str) -> str:
            return "WHERE " + " AND ".join([*conds, extra])

        key = "id"
        bounds: tuple[int, ...] = (after if before is None else before,)
        if kept.order != "id":  # keyset pagination on (the metric, id)
            key = f"({kept.order}, id)"
            bounds = (self._key(kept.order, bounds[0]), bounds[0])
        marks = "?" if len(bounds) == 1 else "(?, ?)"
        if before is not None:
            side, way, beyond = f"{key} < {marks}", "DESC", f"{key} >= {marks}"
        else:
            side, way, beyond = f"{key} > {marks}", "", f"{key} <= {marks}"
        by = "id" if kept.order == "id" else f"{kept.order} {way}, id"
        rows = self.db.execute(
            f"SELECT {tours.cols} FROM {tours.rows} {where(side)} ORDER BY {by} {way} LIMIT ?",
            (*params, *bounds, limit + 1),
        ).fetchall()
        more = len(rows) > limit
        rows = rows[:limit] if before is None else rows[:limit][::-1]
        other = self.db.execute(f"SELECT 1 FROM tours {where(beyond)} LIMIT 1", (*params, *bounds))
        found = other.fetchone() is not None
        earlier, later = (more, found) if before is not None else (found, more)
        out: list[StoredTour] = []
        for group in same_kind(rows):
            out.extend(tours.stored(group))
        return out, earlier, later

    @sql
    def refusal(self, kept: TourFilter, after: int = 0, before: int | None = None) -> str | None:
        """Why a page of ``kept`` from these cursors cannot be had (its order or bounds need
        metrics the library does not store; a cursor is not a tour of that order), or None:
        the request's faults, told apart from the library's.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").gallery.refusal(TourFilter(order="crossings"), after=5)
        'no tour 5 with stored crossings in :memory:'
        """
        try:
            self.lib.tours.shape_conditions(*kept.shape())
            for cursor in (after, before):
                if kept.order != "id" and cursor is not None and 0 < cursor <= MAX_ID:
                    self._key(kept.order, cursor)
        except InvalidInputError as e:
            return str(e)
        return None

    def _key(self, order: str, tour_id: int) -> int:
        """The value of ``order`` of the tour ``tour_id``, the cursor of a page in that order
        (0: before every tour); a tour not held, or without the value, is refused."""
        if tour_id <= 0:
            return -1
        row = self.db.execute(f"SELECT {order} FROM tours WHERE id = ?", (tour_id,)).fetchone()
        if row is None or row[0] is None:
            raise InvalidInputError(f"no tour {tour_id} with stored {order} in {self.path}")
        return int(row[0])

    @sql
    def count(self, kept: TourFilter | None = None) -> int:
        """How many tours ``kept`` keeps (:meth:`page`'s filter)."""
        kept = kept or TourFilter()
        # the conditions an index may serve: a count walks the unique index
        conds, params = self.lib.tours.conditions(kept.board, kept.closed, kept.method)
        more_conds, more_params = self.lib.tours.shape_conditions(*kept.shape())
        conds, params = [*conds, *more_conds], [*params, *more_params]
        where = ("WHERE " + " AND ".join(conds)) if conds else ""
        return int(self.db.execute(f"SELECT count(*) FROM tours {where}", params).fetchone()[0])
