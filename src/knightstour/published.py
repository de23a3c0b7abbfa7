"""Published figures about knight's tours, each with its source, read once from the package's
``data/published.json``: numbers of tours (with their OEIS ids) and the 2003 census of the
semi-magic tours of 8x8; the longest uncrossed knight's paths and cycles (:func:`longest_uncrossed`).

The library answers from them (:func:`knightstour.counting.known`), the web board shows them
labelled as published, and the tests and benchmarks check the program against them. A figure is
stated in its source's own convention (closed or open, directed or not, from a start square);
:func:`find` matches a board under its symmetries.

>>> from knightstour.board import Board
>>> f = find(Board(8, 8), closed=True)
>>> f.count, f.directed, f.source
(13267364410532, False, 'OEIS A001230')
>>> find(Board(5, 5), closed=False, start=24).count      # e5: a corner, as a1 is
304
>>> census().classes, census().closed, census().magic
(140, 63, 0)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from knightstour.board import Board, parse_name
from knightstour.errors import InternalError

__all__ = ["Census", "Figure", "Longest", "census", "figures", "find", "longest_uncrossed"]

#: The data file, inside the package.
DATA = "data/published.json"

Point = tuple[int, int]


@dataclass(frozen=True)
class Figure:
    """A published number of tours, in its source's convention.

    >>> f = Figure(5, 5, closed=False, directed=True, count=304, source="OEIS A165134", start=(0, 0))
    >>> f.spec, f.convention, f.citation
    ('5x5', 'directed open tours on 5x5 from a1', 'OEIS A165134')
    """

    width: int
    height: int
    closed: bool
    directed: bool
    count: int
    source: str
    start: Point | None = None
    end: Point | None = None
    reference: str | None = None
    url: str | None = None

    @property
    def spec(self) -> str:
        """The board, ``WxH``."""
        return f"{self.width}x{self.height}"

    @property
    def kind(self) -> str:
        """``closed`` or ``open``."""
        return "closed" if self.closed else "open"

    @property
    def convention(self) -> str:
        """What the number counts, in words."""
        how = "directed" if self.directed else "undirected"
        text = f"{how} {self.kind} tours on {self.spec}"
        board = Board(self.width, self.height)
        for role, point in (("from", self.start), ("to", self.end)):
            if point is not None:
                text += f" {role} {board.square_name(board.index(*point))}"
        return text

    @property
    def citation(self) -> str:
        """The source, and the work it credits when the file names one.

        >>> find(Board(8, 8), closed=False).citation
        'OEIS A165134 (a(8) from Alex Chernov, 2014)'
        """
        return self.source if self.reference is None else f"{self.source} ({self.reference})"

    def matches(self, board: Board, start: int | None = None, end: int | None = None) -> bool:
        """Whether this figure counts the tours of ``board`` (a plain knight's board) from
        ``start`` to ``end`` (square indices or None): the same board and squares under one of
        its symmetries, or walked the other way.

        >>> f = find(Board(5, 5), closed=False, start=0)
        >>> f.matches(Board(5, 5), start=4), f.matches(Board(5, 5), end=20), f.matches(Board(5, 5))
        (True, True, False)
        """
        if not board.is_plain_knight:
            return False
        at = tuple(None if s is None else board.xy(s) for s in (start, end))
        wanted = ((board.width, board.height), at)
        ends = (self.start, self.end)
        return any(
            image == wanted
            for pair in (ends, ends[::-1])
            for image in _images(self.width, self.height, pair)
        )


@dataclass(frozen=True)
class Census:
    """The census of the semi-magic tours of a board (8x8: Stertenbrink, Meyrignac and Mackay,
    2003): the classes found (tours up to the board's symmetries and reversal), how many are
    closed, how many magic, and the work it took.

    >>> c = census()
    >>> c.board, c.constant, c.ranges, c.cpu_days, c.citation
    ('8x8', 260, 136, 61, 'the published 2003 census (Stertenbrink, Meyrignac, Mackay)')
    >>> c.no_magic_reason
    'no magic tour on 8x8: the published 2003 census (Stertenbrink, Meyrignac, Mackay) found every semi-magic 8x8 tour, 140 up to symmetry, and none has both diagonals adding up to 260'
    """

    board: str
    what: str
    classes: int
    closed: int
    magic: int
    constant: int
    ranges: int
    cpu_days: int
    year: int
    authors: tuple[str, ...]
    url: str
    note: str

    @property
    def citation(self) -> str:
        """The census by year and authors."""
        return f"the published {self.year} census ({', '.join(self.authors)})"

    @property
    def no_magic_reason(self) -> str:
        """Why no tour of the board is magic (when the census found none)."""
        return (
            f"no magic tour on {self.board}: {self.citation} found every semi-magic "
            f"{self.board} tour, {self.classes} up to symmetry, and none has both diagonals "
            f"adding up to {self.constant}"
        )


def _images(
    w: int, h: int, points: tuple[Point | None, ...]
) -> Iterator[tuple[Point, tuple[Point | None, ...]]]:
    """The board ``w`` x ``h`` and ``points`` under each of the 8 symmetries of a rectangle and
    its transpose: ``((width, height), points)``."""
    for swap in (False, True):
        for fx in (False, True):
            for fy in (False, True):
                moved: list[Point | None] = []
                for p in points:
                    if p is None:
                        moved.append(None)
                        continue
                    x, y = (w - 1 - p[0] if fx else p[0]), (h - 1 - p[1] if fy else p[1])
                    moved.append((y, x) if swap else (x, y))
                yield ((h, w) if swap else (w, h)), tuple(moved)


@functools.cache
def _data() -> dict[str, Any]:
    text = resources.files("knightstour").joinpath(DATA).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _point(name: str | None, width: int, height: int) -> Point | None:
    if name is None:
        return None
    xy = parse_name(name)
    if xy is None or not (0 <= xy[0] < width and 0 <= xy[1] < height):
        raise InternalError(f"{DATA}: square {name!r} is not on {width}x{height}")
    return xy


@functools.cache
def figures() -> tuple[Figure, ...]:
    """Every published number of tours in the file, in its order.

    >>> len({f.source for f in figures()}) > 5
    True
    """
    return tuple(
        Figure(
            w,
            h,
            closed=bool(row["closed"]),
            directed=bool(row["directed"]),
            count=int(row["count"]),
            source=row["source"],
            start=_point(row.get("start"), w, h),
            end=_point(row.get("end"), w, h),
            reference=row.get("reference"),
            url=url,
        )
        for w, h, row, url in _rows("counts")
    )


def _rows(table: str) -> Iterator[tuple[int, int, dict[str, Any], str]]:
    """The rows of one table of the file: ``(width, height, row, url)``, the url that of the
    row's source (an :class:`~knightstour.errors.InternalError` when the source is not listed)."""
    data = _data()
    for row in data[table]:
        w, h = (int(n) for n in row["board"].split("x"))
        source = data["sources"].get(row["source"])
        if source is None:
            raise InternalError(
                f"{DATA}: the source {row['source']!r} of {row['board']} is not listed"
            )
        yield w, h, row, source["url"]


def find(
    board: Board, *, closed: bool, start: int | None = None, end: int | None = None
) -> Figure | None:
    """The published figure of the tours of ``board`` (closed or open, from ``start`` to
    ``end``: square indices or None), in either direction convention, or None.

    >>> find(Board(8, 7), closed=True).count                  # 7x8 turned
    34524432316
    >>> find(Board(7, 7), closed=False, start=0) is None      # not published
    True
    >>> find(Board(5, 5, holes=frozenset({12})), closed=False) is None
    True
    """
    for figure in figures():
        if figure.closed == closed and figure.matches(board, start, end):
            return figure
    return None


@dataclass(frozen=True)
class Longest:
    """A published longest uncrossed knight's path (``closed``: cycle) of a board, in moves
    (0 where a board has none).

    >>> longest_uncrossed()[0]
    Longest(width=1, height=1, closed=False, length=0, source='OEIS A003192', url='https://oeis.org/A003192')
    """

    width: int
    height: int
    closed: bool
    length: int
    source: str
    url: str

    @property
    def spec(self) -> str:
        """The board, ``WxH``."""
        return f"{self.width}x{self.height}"


@functools.cache
def longest_uncrossed() -> tuple[Longest, ...]:
    """Every published longest uncrossed path and cycle in the file, in its order.

    >>> [f.length for f in longest_uncrossed() if f.closed][:5]
    [0, 0, 0, 4, 8]
    """
    return tuple(
        Longest(w, h, bool(row["closed"]), int(row["length"]), row["source"], url)
        for w, h, row, url in _rows("uncrossed")
    )


@functools.cache
def census() -> Census:
    """The census of the semi-magic tours of 8x8 (:class:`Census`)."""
    c = _data()["census"]
    return Census(
        board=c["board"],
        what=c["what"],
        classes=int(c["classes"]),
        closed=int(c["closed"]),
        magic=int(c["magic"]),
        constant=int(c["constant"]),
        ranges=int(c["ranges"]),
        cpu_days=int(c["cpu_days"]),
        year=int(c["year"]),
        authors=tuple(c["authors"]),
        url=c["url"],
        note=c["note"],
    )
