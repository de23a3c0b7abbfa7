"""The semi-magic search's journal (``knightstour magic``): each part of each range walked,
and the walks of parts stopped before their ends.

A part's record and the tours it found are stored in one transaction, so a search killed at
any moment walks again only the parts it had not recorded.
:class:`knightstour.library.magic.MagicJournal` speaks for it to the search.

>>> from knightstour.library.store import Library
>>> journal = Library(":memory:").journal
>>> journal.record_part("6x6", "s", 3, 0, found=0, nodes=10, seconds=0.1)
0
>>> journal.parts_done("6x6", "s", 3), journal.parts_done("6x6", "s", 4)
({0}, set())
>>> journal.finish_range("6x6", "s", 3, parts=1)
>>> journal.parts_done("6x6", "s", 3) is None
True
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from knightstour.library.store.records import Batch
from knightstour.library.store.schema import MAGIC_FROM
from knightstour.library.store.table import Table, sql

__all__ = ["Journal"]

#: The method name the library records for the tours the search finds.
METHOD = "magic"
_PART = "board = ? AND scheme = ? AND range_no = ?"


class Journal(Table):
    """The semi-magic search's journal in a :class:`~knightstour.library.store.Library`
    (``lib.journal``): ranges of a board (its spec) walked under a scheme (the walk's version),
    part by part."""

    @sql
    def parts_done(self, board: str, scheme: str, range_no: int) -> set[int] | None:
        """The parts of a range already walked; None when all are."""
        if self.version < MAGIC_FROM:
            return set()
        rows = self.db.execute(
            f"SELECT part FROM magic_parts WHERE {_PART}", (board, scheme, int(range_no))
        ).fetchall()
        parts = {int(r[0]) for r in rows}
        return None if -1 in parts else parts

    @sql
    def record_part(
        self, board: str, scheme: str, range_no: int, part: int, *, found: int, nodes: int,
        seconds: float, tours: Batch | None = None,
    ) -> int:  # fmt: skip
        """Record one walked part, and store its tours in the same transaction; how many of
        them were new to the library."""
        with self.lib.atomic():
            added = self._add(tours)
            self.db.execute(
                f"DELETE FROM magic_states WHERE {_PART} AND part = ?",
                (board, scheme, int(range_no), int(part)),
            )
            self.db.execute(
                "INSERT OR REPLACE INTO magic_parts (board, scheme, range_no, part, parts, found, "
                "nodes, seconds, created) VALUES (?,?,?,?,0,?,?,?,?)",
                (board, scheme, int(range_no), int(part), int(found), int(nodes),
                 float(seconds), int(time.time())),
            )  # fmt: skip
        return added

    @sql
    def keep_state(
        self, board: str, scheme: str, range_no: int, part: int, state: bytes,
        tours: Batch | None = None,
    ) -> int:  # fmt: skip
        """Keep the walk of a part stopped before its end, and its tours so far, in one
        transaction; how many tours were new.

        >>> from knightstour.library.store import Library
        >>> journal = Library(":memory:").journal
        >>> journal.keep_state("6x6", "s", 1, 7, b"walk")
        0
        >>> journal.states("6x6", "s", 1)
        {7: b'walk'}
        """
        with self.lib.atomic():
            added = self._add(tours)
            self.db.execute(
                "INSERT OR REPLACE INTO magic_states (board, scheme, range_no, part, state) "
                "VALUES (?,?,?,?,?)",
                (board, scheme, int(range_no), int(part), sqlite3.Binary(state)),
            )
        return added

    @sql
    def drop_state(self, board: str, scheme: str, range_no: int, part: int) -> None:
        """Forget the walk kept of a part (it is walked again from its start).

        >>> from knightstour.library.store import Library
        >>> journal = Library(":memory:").journal
        >>> journal.keep_state("6x6", "s", 1, 7, b"walk")
        0
        >>> journal.drop_state("6x6", "s", 1, 7)
        >>> journal.states("6x6", "s", 1)
        {}
        """
        with self.lib.atomic():
            self.db.execute(
                f"DELETE FROM magic_states WHERE {_PART} AND part = ?",
                (board, scheme, int(range_no), int(part)),
            )

    def _add(self, tours: Batch | None) -> int:
        """Store ``tours`` (in the caller's transaction); how many were new."""
        if tours is None or not len(tours):
            return 0
        return int(self.lib.tours.add_batch(tours, method=METHOD))

    @sql
    def states(self, board: str, scheme: str, range_no: int) -> dict[int, bytes]:
        """The walks kept of a range's parts stopped before their ends, by part."""
        if self.version < MAGIC_FROM:
            return {}
        rows = self.db.execute(
            f"SELECT part, state FROM magic_states WHERE {_PART}", (board, scheme, int(range_no))
        ).fetchall()
        return {int(p): bytes(b) for p, b in rows}

    @sql
    def finish_range(self, board: str, scheme: str, range_no: int, *, parts: int) -> None:
        """Mark a range walked: its part rows become one row that sums them."""
        where = (board, scheme, int(range_no))
        with self.lib.atomic():
            found, nodes, seconds = self.db.execute(
                "SELECT coalesce(sum(found), 0), coalesce(sum(nodes), 0), "
                f"coalesce(sum(seconds), 0) FROM magic_parts WHERE {_PART} AND part >= 0",
                where,
            ).fetchone()
            self.db.execute(f"DELETE FROM magic_parts WHERE {_PART}", where)
            self.db.execute(
                "INSERT INTO magic_parts (board, scheme, range_no, part, parts, found, nodes, "
                "seconds, created) VALUES (?,?,?,-1,?,?,?,?,?)",
                (*where, int(parts), int(found), int(nodes), float(seconds), int(time.time())),
            )

    @sql
    def progress(self, board: str, scheme: str) -> dict[str, Any]:
        """How far the semi-magic search of ``board`` got: ranges done, parts walked in the
        ranges under way, numberings found, nodes and seconds spent.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").journal.progress("8x8", "s")["ranges_done"]
        0
        """
        if self.version < MAGIC_FROM:
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
