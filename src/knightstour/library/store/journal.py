"""The semi-magic search's journal (``knightstour magic``): each part of each range walked,
the walks of parts stopped before their ends, and the parts claimed by the runs walking them.

What the journal guarantees:

- A part's record and the tours it found are stored in one transaction, so a search killed at
  any moment walks again only the parts it had not recorded, and a part recorded as walked has
  all its tours stored.
- A run claims a part (:meth:`Journal.claim`, one transaction) before it walks it; another run
  skips a part claimed by a run that is alive, and takes it over once that run has died (its
  process is gone), so two runs on one library share the work.
- Recording is idempotent: a part recorded twice keeps its figures, a range is made one row only
  once all its parts are recorded, and never again after that, so no total is overwritten by a
  smaller one.

:class:`knightstour.library.magic.MagicJournal` speaks for it to the search.

>>> from knightstour.library.store import Library
>>> journal = Library(":memory:").journal
>>> journal.record_part("6x6", "s", 3, 0, found=0, nodes=10, seconds=0.1)
(0, 0)
>>> journal.parts_done("6x6", "s", 3), journal.parts_done("6x6", "s", 4)
({0}, set())
>>> journal.finish_range("6x6", "s", 3, parts=1)
True
>>> journal.parts_done("6x6", "s", 3) is None
True
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
import uuid
from contextlib import suppress
from typing import Any

from knightstour.library.store.records import Batch
from knightstour.library.store.schema import CLAIMS_FROM, MAGIC_FROM
from knightstour.library.store.table import Table, sql

__all__ = ["Journal", "alive", "new_owner"]

#: The method name the library records for the tours the search finds.
METHOD = "magic"
_PART = "board = ? AND scheme = ? AND range_no = ?"


def _started(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot, from ``/proc``), or '' where that
    cannot be read: with the process id, it tells a process from a later one given its id."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return ""


def new_owner() -> str:
    """A name for a run of this process: the host, the process id and start, a run number.

    >>> alive(new_owner())
    True
    """
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_started(pid)}:{uuid.uuid4().hex[:8]}"


def alive(owner: str) -> bool:
    """Whether the run named ``owner`` (:func:`new_owner`) may still be alive: its process is
    there and is the same process (a run on another host is taken to be alive).

    >>> alive("nohost:1:x:0"), alive(f"{socket.gethostname()}:0:x:0")
    (True, False)
    """
    try:
        host, pid_text, started, _ = owner.rsplit(":", 3)
        pid = int(pid_text)
    except ValueError:
        return False  # not a name a run writes: nobody's
    if host != socket.gethostname():
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # there, another user's
    except OSError:
        return False
    now = _started(pid)
    return not (started and now and now != started)


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
        seconds: float, tours: Batch | None = None, limit: int | None = None,
    ) -> tuple[int, int]:  # fmt: skip
        """Record one walked part, and store its tours in the same transaction: how many of
        them were new to the library, and how many were taken. With ``limit``, the tours are
        stored in order until ``limit`` were new; unless that took them all, the part is not
        recorded (a part recorded has all its tours stored)."""
        key = (board, scheme, int(range_no), int(part))
        with self.lib.atomic():
            added, taken = self._add(tours, limit)
            if tours is not None and taken < len(tours):
                return added, taken
            self.db.execute(f"DELETE FROM magic_states WHERE {_PART} AND part = ?", key)
            self._unclaim(key, None)
            if self._finished(key[:3]):
                return added, taken  # the range is one row already: its totals stay
            self.db.execute(
                "INSERT OR REPLACE INTO magic_parts (board, scheme, range_no, part, parts, found, "
                "nodes, seconds, created) VALUES (?,?,?,?,0,?,?,?,?)",
                (*key, int(found), int(nodes), float(seconds), int(time.time())),
            )  # fmt: skip
        return added, taken

    def _finished(self, where: tuple[Any, ...]) -> bool:
        """Whether the range ``where`` (board, scheme, number) is recorded walked whole."""
        row = self.db.execute(f"SELECT 1 FROM magic_parts WHERE {_PART} AND part = -1", where)
        return row.fetchone() is not None

    def _unclaim(self, key: tuple[Any, ...], owner: str | None) -> None:
        """Drop the claim on the part ``key`` (only ``owner``'s, when given)."""
        if self.version < CLAIMS_FROM:
            return
        q = f"DELETE FROM magic_claims WHERE {_PART} AND part = ?"
        self.db.execute(q if owner is None else q + " AND owner = ?",
                        key if owner is None else (*key, owner))  # fmt: skip

    @sql
    def claim(
        self, board: str, scheme: str, range_no: int, parts: list[int], owner: str
    ) -> list[int]:
        """Claim ``parts`` of a range for the run ``owner``, in one transaction: those it gets,
        in order. A part already recorded is not taken, nor one claimed by another run that is
        alive (:func:`alive`); one whose owner died is taken over.

        >>> from knightstour.library.store import Library
        >>> journal = Library(":memory:").journal
        >>> a, b = new_owner(), new_owner()
        >>> journal.claim("6x6", "s", 1, [0, 1, 2], a), journal.claim("6x6", "s", 1, [1, 3], b)
        ([0, 1, 2], [3])
        >>> journal.release("6x6", a)
        >>> journal.claim("6x6", "s", 1, [1, 3], b)
        [1, 3]
        """
        if self.version < CLAIMS_FROM:
            return list(parts)
        got = []
        now = int(time.time())
        with self.lib.atomic():
            where = (board, scheme, int(range_no))
            if self._finished(where):
                return []
            recorded = {int(r[0]) for r in self.db.execute(
                f"SELECT part FROM magic_parts WHERE {_PART}", where)}  # fmt: skip
            holders = dict(self.db.execute(
                f"SELECT part, owner FROM magic_claims WHERE {_PART}", where).fetchall())  # fmt: skip
            for part in parts:
                holder = holders.get(int(part))
                if int(part) in recorded or (holder not in (None, owner) and alive(holder)):
                    continue
                self.db.execute(
                    "INSERT OR REPLACE INTO magic_claims (board, scheme, range_no, part, owner, "
                    "claimed) VALUES (?,?,?,?,?,?)",
                    (*where, int(part), owner, now),
                )
                got.append(int(part))
        return got

    @sql
    def release(self, board: str, owner: str) -> None:
        """Drop every claim the run ``owner`` holds on ``board``'s parts."""
        if self.version < CLAIMS_FROM:
            return
        with suppress(sqlite3.Error), self.lib.atomic():  # a claim left is taken over later
            self.db.execute("DELETE FROM magic_claims WHERE board = ? AND owner = ?",
                            (board, owner))  # fmt: skip

    @sql
    def keep_state(
        self, board: str, scheme: str, range_no: int, part: int, state: bytes,
        tours: Batch | None = None, limit: int | None = None,
    ) -> tuple[int, int]:  # fmt: skip
        """Keep the walk of a part stopped before its end, and its tours so far, in one
        transaction: how many tours were new, and how many were taken (as
        :meth:`record_part`: unless all, the walk is not kept).

        >>> from knightstour.library.store import Library
        >>> journal = Library(":memory:").journal
        >>> journal.keep_state("6x6", "s", 1, 7, b"walk")
        (0, 0)
        >>> journal.states("6x6", "s", 1)
        {7: b'walk'}
        """
        with self.lib.atomic():
            added, taken = self._add(tours, limit)
            if tours is not None and taken < len(tours):
                return added, taken
            self.db.execute(
                "INSERT OR REPLACE INTO magic_states (board, scheme, range_no, part, state) "
                "VALUES (?,?,?,?,?)",
                (board, scheme, int(range_no), int(part), sqlite3.Binary(state)),
            )
            self._unclaim((board, scheme, int(range_no), int(part)), None)
        return added, taken

    @sql
    def drop_state(self, board: str, scheme: str, range_no: int, part: int) -> None:
        """Forget the walk kept of a part (it is walked again from its start).

        >>> from knightstour.library.store import Library
        >>> journal = Library(":memory:").journal
        >>> journal.keep_state("6x6", "s", 1, 7, b"walk")
        (0, 0)
        >>> journal.drop_state("6x6", "s", 1, 7)
        >>> journal.states("6x6", "s", 1)
        {}
        """
        with self.lib.atomic():
            self.db.execute(
                f"DELETE FROM magic_states WHERE {_PART} AND part = ?",
                (board, scheme, int(range_no), int(part)),
            )

    def _add(self, tours: Batch | None, limit: int | None) -> tuple[int, int]:
        """Store ``tours`` (in the caller's transaction), in order, until ``limit`` of them
        were new: how many were new, and how many were taken (stored or held already)."""
        if tours is None or not len(tours):
            return 0, 0
        if limit is None:
            return int(self.lib.tours.add_batch(tours, method=METHOD)), len(tours)
        added = taken = 0
        while taken < len(tours) and added < limit:
            added += int(self.lib.tours.add_batch(tours.part(taken, taken + 1), method=METHOD))
            taken += 1
        return added, taken

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
    def finish_range(self, board: str, scheme: str, range_no: int, *, parts: int) -> bool:
        """Mark a range walked once every one of its ``parts`` is recorded: its part rows become
        one row that sums them. Whether the range is walked (False: parts are still to come);
        a range marked already stays as it is."""
        where = (board, scheme, int(range_no))
        with self.lib.atomic():
            if self._finished(where):
                return True
            found, nodes, seconds, walked = self.db.execute(
                "SELECT coalesce(sum(found), 0), coalesce(sum(nodes), 0), "
                f"coalesce(sum(seconds), 0), count(*) FROM magic_parts WHERE {_PART} "
                "AND part >= 0 AND part < ?",
                (*where, int(parts)),
            ).fetchone()
            if walked < parts:
                return False
            self.db.execute(f"DELETE FROM magic_parts WHERE {_PART}", where)
            if self.version >= CLAIMS_FROM:
                self.db.execute(f"DELETE FROM magic_claims WHERE {_PART}", where)
            self.db.execute(
                "INSERT INTO magic_parts (board, scheme, range_no, part, parts, found, nodes, "
                "seconds, created) VALUES (?,?,?,-1,?,?,?,?,?)",
                (*where, int(parts), int(found), int(nodes), float(seconds), int(time.time())),
            )
        return True

    @sql
    def walked(self, board: str) -> list[dict[str, Any]]:
        """Every range of ``board`` the journal holds, under every scheme: whether it is walked
        whole, the parts walked (those of a range walked whole: its part count), the walks of
        parts stopped on the way (``saved``), numberings found, nodes and seconds (of the parts
        walked), in the order of the scheme, then the range's number.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").journal.walked("8x8")
        []
        """
        if self.version < MAGIC_FROM:
            return []
        rows = self.db.execute(
            "SELECT scheme, range_no, MIN(part), SUM(CASE WHEN part = -1 THEN parts ELSE 1 END), "
            "SUM(found), SUM(nodes), SUM(seconds) FROM magic_parts WHERE board = ? "
            "GROUP BY scheme, range_no ORDER BY scheme, range_no DESC",
            (board,),
        ).fetchall()
        saved = {
            (str(r[0]), int(r[1])): int(r[2])
            for r in self.db.execute(
                "SELECT scheme, range_no, COUNT(*) FROM magic_states WHERE board = ? "
                "GROUP BY scheme, range_no",
                (board,),
            )
        }
        out = {
            (str(r[0]), int(r[1])): {
                "scheme": str(r[0]), "range": int(r[1]), "whole": int(r[2]) == -1,
                "parts": int(r[3]), "saved": 0, "found": int(r[4]), "nodes": int(r[5]),
                "seconds": float(r[6]),
            }
            for r in rows
        }  # fmt: skip
        for (scheme, number), k in saved.items():
            row = out.setdefault((scheme, number), {
                "scheme": scheme, "range": number, "whole": False, "parts": 0, "saved": 0,
                "found": 0, "nodes": 0, "seconds": 0.0,
            })  # fmt: skip
            row["saved"] = k
        return sorted(out.values(), key=lambda r: (r["scheme"], -r["range"]))

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
