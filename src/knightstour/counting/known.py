"""Counts known without counting: :func:`known` answers from theory (no tour can exist: 0, with
the reason), from the counts a tour library remembers, and from the published figures
(:mod:`knightstour.published`), or says None.

>>> from knightstour.counting import known
>>> known("4x9", closed=True).source                  # Schwenk's theorem
'theory'
>>> k = known("8x8")                                   # directed open tours
>>> k.count, k.source, k.citation
(19591828170979904, 'published', 'OEIS A165134 (a(8) from Alex Chernov, 2014)')
>>> known("8x8", closed=True, directed=False).count    # McKay 1997
13267364410532
>>> known("7x7", start="a1") is None                   # not known: count it
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, Unpack, runtime_checkable

from knightstour import published
from knightstour.counting.request import CountRequest, WhatToCount, count_request, describe
from knightstour.notation import digits
from knightstour.theory import verdict

if TYPE_CHECKING:
    from knightstour.board import Board, BoardLike

__all__ = [
    "CountMemory",
    "HasCounts",
    "Known",
    "Memory",
    "Remembered",
    "known",
    "known_for",
    "publication_near",
]

#: What identifies a count in a library: :meth:`CountRequest.key`.
CountKey = tuple[str, str, str, str, bool]


class Remembered(Protocol):
    """A count a library remembers (``knightstour.library.store.KnownCount`` is one)."""

    @property
    def number(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def created_iso(self) -> str: ...


class CountMemory(Protocol):
    """Where counts are remembered: the ``counts`` table of a tour library
    (``knightstour.library.Library``), or anything with its two count methods. Wherever a
    ``library`` is taken, the library itself may be given: :func:`memory_of` finds its table."""

    def known_count(self, key: CountKey) -> Remembered | None:
        """The count remembered under ``key``, or None."""
        ...

    def remember_count(self, key: CountKey, number: int, *, method: str, seconds: float) -> None:
        """Remember that the count ``key`` is ``number``, found by ``method`` in ``seconds``."""
        ...


@dataclass(frozen=True)
class Known:
    """A number of tours known without counting, and where it comes from.

    >>> k = known("7x7")
    >>> k.count, k.source, k.convention
    (165575218320, 'published', 'directed open tours on 7x7 (each path counted in both directions)')

    ``source``: ``theory`` (no tour can exist: ``citation`` is the reason), ``published`` (a
    figure from the literature: ``citation`` names it) or ``remembered`` (counted by this
    program before and kept in a library: ``citation`` says how and when, and ``method``,
    ``seconds`` and ``counted`` give it field by field). ``convention`` says what the number
    counts, in words (:func:`~knightstour.counting.describe`); ``url``: the published
    figure's source on the web.
    """

    count: int
    source: Literal["theory", "published", "remembered"]
    citation: str
    convention: str
    method: str | None = None
    seconds: float | None = None
    counted: str | None = None
    url: str | None = None

    def published_fields(self) -> dict[str, Any]:
        """A published figure as JSON (``/api/count``'s and ``knightstour count``'s
        ``published``): ``value``, ``value_text`` (the digits), ``source``, ``convention``,
        ``url``.

        >>> known("6x6", closed=True, directed=False).published_fields()["value_text"]
        '9862'
        """
        return {
            "value": self.count,
            "value_text": digits(self.count),
            "source": self.citation,
            "convention": self.convention,
            "url": self.url,
        }


def known(
    board: BoardLike | Board,
    *,
    library: Memory | None = None,
    **what: Unpack[WhatToCount],
) -> Known | None:
    """The number of tours of ``board`` (as :func:`~knightstour.counting.count` counts them)
    when it is known without counting: from theory, from ``library`` (a tour library that
    remembers counts), or published; else None. ``what``: ``closed``, ``start``, ``end``,
    ``directed``, as ``count`` takes them (:class:`~knightstour.counting.request.WhatToCount`).
    Bad input raises as ``count`` does.

    >>> known("5x5", start="b1")
    Known(count=0, source='theory', citation='no tour from b1 on 5x5: the board has 13 squares of the corner colour and 12 of the other; a knight alternates colours, so a tour starts and ends on the corner colour, and b1 is not', convention='open tours on 5x5 from b1', method=None, seconds=None, counted=None, url=None)
    >>> known("6x6", closed=True, start="a1").count             # 2 x A175881's 9862 cycles
    19724
    """
    return known_for(count_request(board, **what), library)


def known_for(
    request: CountRequest, library: Memory | None = None, *, publications: bool = True
) -> Known | None:
    """:func:`known` for a checked request: theory first, then ``library``, then (when
    ``publications``) the published figures.

    A library's count is this program's own, so it goes before a published figure; a published
    figure is the answer only for what the program has not counted.
    """
    return (
        by_theory(request)
        or (None if library is None else recalled(request, library))
        or (by_publication(request) if publications else None)
    )


def by_theory(request: CountRequest) -> Known | None:
    """0 with the reason when a theorem or a colour argument says no tour exists, else None.

    >>> by_theory(count_request("3x3")).citation
    "no tour on 3x3: the centre square has no knight's move at all"
    >>> by_theory(count_request("6x6")) is None
    True
    """
    theory = verdict(request.board, request.start, request.end, request.closed)
    if theory.exists is False:
        return Known(0, "theory", theory.reason, describe(request))
    return None


def by_publication(request: CountRequest) -> Known | None:
    """The published figure of ``request``, turned into its conventions, or None.

    >>> k = by_publication(count_request("5x5", directed=False))   # A165134 lists 2 x 864
    >>> k.count, k.citation
    (864, 'OEIS A165134')
    """
    start, end = request.start, request.end
    if request.closed and (start is None) != (end is None):
        start = end = None  # every cycle passes every square: the whole board's figure serves
    figure = published.find(request.board, closed=request.closed, start=start, end=end)
    if figure is None:
        return None
    theirs = CountRequest(
        request.board, closed=request.closed, start=start, end=end, directed=figure.directed
    )
    number = figure.count // theirs.factor * request.factor
    return Known(number, "published", figure.citation, describe(request), url=figure.url)


def publication_near(request: CountRequest) -> Known | None:
    """The published figure of ``request``, else, when ``request`` names a start or an end
    square, that of the whole board (the same kind and direction convention: its
    ``convention`` says which); None when neither is published.

    What a server or the command line shows beside a count it does not make: the figure,
    labelled as published, with its source.

    >>> publication_near(count_request("8x8", start="a1")).convention
    'directed open tours on 8x8 (each path counted in both directions)'
    >>> publication_near(count_request("7x7", closed=True)) is None   # Schwenk: no figure
    True
    """
    found = by_publication(request)
    if found is not None or (request.start is None and request.end is None):
        return found
    whole = CountRequest(request.board, closed=request.closed, directed=request.directed)
    return by_publication(whole)


@runtime_checkable
class HasCounts(Protocol):
    """A tour library: its ``counts`` table remembers counts."""

    @property
    def counts(self) -> CountMemory: ...


#: What ``library=`` takes: a tour library or its counts (anything with the two count methods).
Memory = CountMemory | HasCounts


def memory_of(library: Memory) -> CountMemory:
    """Where ``library`` remembers counts: a tour library's ``counts`` table, or ``library``
    itself when it has the two count methods (:class:`CountMemory`).

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> memory_of(lib) is lib.counts, memory_of(lib.counts) is lib.counts
    (True, True)
    """
    return library.counts if isinstance(library, HasCounts) else library


def recalled(request: CountRequest, library: Memory) -> Known | None:
    """The count ``library`` (a tour library, or its counts) remembers for ``request``, or None.

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> r = count_request("5x5")
    >>> lib.counts.remember_count(r.key(), 1728, method="frontier", seconds=0.25, created=0)
    >>> recalled(r, lib).citation
    'frontier, 0.25 s, 1970-01-01T00:00:00Z'
    """
    found = memory_of(library).known_count(request.key())
    if found is None:
        return None
    return Known(
        found.number,
        "remembered",
        f"{found.method}, {found.seconds:.2f} s, {found.created_iso}",
        describe(request),
        method=found.method,
        seconds=found.seconds,
        counted=found.created_iso,
    )
