"""The counts table: the exact counts a library remembers (``knightstour count --db``).

A count is identified by a :class:`CountKey` (the board, closed or open, the start and end
squares, directed or not) and remembered with how it was found (:class:`KnownCount`). Counts
exceed 64 bits, so the number is stored as its decimal digits (TEXT, of any length: the count
of closed tours of 3x8300 has over 4,000 digits, more than Python's ``int`` reads from text at
once, so they are written and read by :func:`~knightstour.notation.digits` and
:func:`~knightstour.notation.from_digits`).

>>> from knightstour.library.store import Library
>>> counts = Library(":memory:").counts
>>> key = CountKey("5x5", "open", directed=True)
>>> counts.remember_count(key, 1728, method="frontier", seconds=0.3)
>>> counts.known_count(key).number
1728
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from knightstour.errors import InvalidInputError
from knightstour.library.store.records import iso_time
from knightstour.library.store.schema import COUNTS_FROM
from knightstour.library.store.table import Table, sql
from knightstour.notation import digits, from_digits

__all__ = ["CountKey", "Counts", "KnownCount"]

_COUNT_COLS = "board, kind, start_name, end_name, directed, number, method, seconds, created"


@dataclass(frozen=True)
class CountKey:
    """What identifies a count: the board's :attr:`~knightstour.board.Board.key` (its spec for a
    plain board), ``'closed'`` or ``'open'``, the start and end squares' names (``''`` for
    any), and whether reversed tours count apart (``directed``).

    >>> CountKey("6x6", "closed", "a1")
    CountKey(board='6x6', kind='closed', start='a1', end='', directed=False)
    >>> CountKey("6x6", "shut")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: a count's kind is 'closed' or 'open', got 'shut'
    """

    board: str
    kind: str
    start: str = ""
    end: str = ""
    directed: bool = False

    def __post_init__(self) -> None:
        names = (self.board, self.kind, self.start, self.end)
        if not all(isinstance(v, str) for v in names) or not self.board:
            raise InvalidInputError(f"a count key names the board, kind and squares, got {self!r}")
        if self.kind not in ("closed", "open"):
            raise InvalidInputError(f"a count's kind is 'closed' or 'open', got {self.kind!r}")
        if not isinstance(self.directed, bool):
            raise InvalidInputError(f"directed must be true or false, got {self.directed!r}")

    @classmethod
    def of(cls, key: CountKey | tuple[Any, ...]) -> CountKey:
        """``key`` as a :class:`CountKey`: one already, or the tuple ``(board, kind, start,
        end, directed)`` (:meth:`knightstour.counting.CountRequest.key`).

        >>> CountKey.of(("5x5", "open", "", "", True)) == CountKey("5x5", "open", directed=True)
        True
        """
        if isinstance(key, CountKey):
            return key
        if not isinstance(key, tuple) or len(key) != 5:
            raise InvalidInputError(
                f"a count key is (board, kind, start, end, directed), got {key!r}"
            )
        return cls(*key)


@dataclass(frozen=True)
class KnownCount:
    """A count the library remembers: what was counted, the number, and how it was found.

    >>> k = KnownCount("6x6", "closed", "", "", False, 9862, "frontier", 0.5, 0)
    >>> k.key, k.created_iso
    (CountKey(board='6x6', kind='closed', start='', end='', directed=False), '1970-01-01T00:00:00Z')
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
        """What was counted."""
        return CountKey(self.board, self.kind, self.start, self.end, self.directed)

    @property
    def created_iso(self) -> str:
        """When it was counted, ISO 8601 in UTC to the second."""
        return iso_time(self.created)


class Counts(Table):
    """The remembered counts of a :class:`~knightstour.library.store.Library` (``lib.counts``).

    A key is a :class:`CountKey`, or the tuple :meth:`knightstour.counting.CountRequest.key`
    gives (:meth:`CountKey.of`).
    """

    @sql
    def remember_count(
        self,
        key: CountKey | tuple[Any, ...],
        number: int,
        *,
        method: str,
        seconds: float,
        created: int | None = None,
    ) -> None:
        """Remember that the count ``key`` is ``number`` (replacing what was remembered);
        ``method`` and ``seconds`` say how it was found."""
        k = CountKey.of(key)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise InvalidInputError(f"a count is a non-negative integer, got {number!r}")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0:
            raise InvalidInputError(f"seconds must be a non-negative number, got {seconds!r}")
        created = int(time.time()) if created is None else int(created)
        with self.lib.atomic():
            self.db.execute(
                f"INSERT INTO counts ({_COUNT_COLS}) VALUES (?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (board, kind, start_name, end_name, directed) DO UPDATE SET "
                "number = excluded.number, method = excluded.method, "
                "seconds = excluded.seconds, created = excluded.created",
                (k.board, k.kind, k.start, k.end, int(k.directed), digits(number), str(method),
                 float(seconds), created),
            )  # fmt: skip

    @sql
    def known_count(self, key: CountKey | tuple[Any, ...]) -> KnownCount | None:
        """The remembered count ``key``, or None.

        >>> from knightstour.library.store import Library
        >>> Library(":memory:").counts.known_count(CountKey("6x6", "closed")) is None
        True
        """
        k = CountKey.of(key)
        if self.version < COUNTS_FROM:  # a read-only library from before counts
            return None
        row = self.db.execute(
            f"SELECT {_COUNT_COLS} FROM counts WHERE board = ? AND kind = ? AND start_name = ? "
            "AND end_name = ? AND directed = ?",
            (k.board, k.kind, k.start, k.end, int(k.directed)),
        ).fetchone()
        return None if row is None else self._known(row)

    @sql
    def known_counts(self, board: str | None = None) -> list[KnownCount]:
        """Every remembered count (of the board ``board``), by board, kind, start, end.

        >>> from knightstour.library.store import Library
        >>> counts = Library(":memory:").counts
        >>> for spec in ("10x3", "3x10", "5x5"):
        ...     counts.remember_count(CountKey(spec, "open"), 1, method="m", seconds=0)
        >>> [k.board for k in counts.known_counts()]
        ['3x10', '5x5', '10x3']
        """
        if self.version < COUNTS_FROM:
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
        try:
            value = from_digits(str(number))
        except ValueError:
            raise InvalidInputError(
                f"{self.path} is damaged: the count of {board} {kind} is not a number"
            ) from None
        return KnownCount(
            str(board), str(kind), str(start), str(end), bool(directed), value,
            str(method), float(seconds), int(created),
        )  # fmt: skip


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders the numbers in ``text`` by value: 3x10 before 10x3, a2 before a10.

    >>> sorted(["10x3", "3x10", "3x4"], key=_natural)
    ['3x4', '3x10', '10x3']
    """
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part) for part in re.findall(r"\d+|\D+", text)
    )
