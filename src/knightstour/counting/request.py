"""What to count, checked: :class:`CountRequest`, made from user input by :func:`count_request`,
and said in words by :func:`describe` (the conventions of :data:`CONVENTIONS`); how a count
runs, checked: :class:`RunOptions`.

>>> r = count_request("6x6", closed=True, start="a1")
>>> r.key(), r.factor, describe(r)
(('6x6', 'closed', 'a1', '', True), 2, 'directed closed tours on 6x6 from a1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InvalidInputError
from knightstour.theory import check_ends

if TYPE_CHECKING:
    from knightstour.counting.frontier import SweepStats
    from knightstour.progress import Progress

__all__ = [
    "CONVENTIONS",
    "METHODS",
    "CountRequest",
    "RunOptions",
    "SquareLike",
    "WhatToCount",
    "count_request",
    "describe",
    "uncovered",
]

#: A square as a user gives it: ``'c3'``, ``'2,2'``, ``(2, 2)`` or an index.
SquareLike = str | int | tuple[int, int]


class WhatToCount(TypedDict, total=False):
    """What to count, as the keywords of :func:`count_request` (its defaults where left out):
    ``closed``, ``start``, ``end``, ``directed``. The functions that take them as ``**what``
    (``known``, ``QuickCounts.ask``; ``count`` with how to count,
    :class:`~knightstour.counting.compute.CountKeywords`) hand them to :func:`count_request`
    as they are.

    >>> what: WhatToCount = {"closed": True, "start": "a1"}
    >>> count_request("6x6", **what).key()
    ('6x6', 'closed', 'a1', '', True)
    """

    closed: bool
    start: SquareLike | None
    end: SquareLike | None
    directed: bool


#: The counting methods: ``auto`` is ``frontier``.
METHODS: tuple[str, ...] = ("auto", "frontier", "enumerate")

#: One line per kind of count: what the number is (shown by ``knightstour count --help``).
CONVENTIONS: tuple[tuple[str, str], ...] = (
    ("closed", "undirected: Hamiltonian cycles, each once; directed: 2x (both ways round)"),
    (
        "open",
        "undirected: Hamiltonian paths, each once; directed: 2x; paths whose ends are a "
        "knight's move apart are included (as in OEIS A165134)",
    ),
    ("--start S", "tours that begin on S (open: the same number directed or undirected)"),
    ("--closed --start S", "directed: 2x the cycles, undirected: the cycles (all pass S)"),
    ("--start S --end E", "tours from S to E (closed: E a move from S; they use that move)"),
)


@dataclass(frozen=True)
class CountRequest:
    """What to count, checked: squares are indices, the board a :class:`~knightstour.board.Board`.

    >>> r = count_request("5x5", start="a1")
    >>> r.board.spec, r.start, r.closed, r.directed
    ('5x5', 0, False, True)
    """

    board: Board
    closed: bool = False
    start: int | None = None
    end: int | None = None
    directed: bool = True
    method: str = "auto"

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidInputError(f"a count needs a Board, got {self.board!r}")
        for flag in ("closed", "directed"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidInputError(
                    f"{flag} must be true or false, got {getattr(self, flag)!r}"
                )
        if self.method not in METHODS:
            raise InvalidInputError(
                f"unknown counting method {self.method!r}: choose one of {', '.join(METHODS)}"
            )
        for role in ("start", "end"):
            sq = getattr(self, role)
            if sq is not None and (
                isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self.board.area
            ):
                raise InvalidInputError(f"{role} square {sq!r} is off the {self.board.spec} board")
        check_ends(self.board, self.start, self.end)

    @property
    def kind(self) -> str:
        """``closed`` or ``open``."""
        return "closed" if self.closed else "open"

    @property
    def method_used(self) -> str:
        """The method that counts: ``auto`` is ``frontier``."""
        return "frontier" if self.method == "auto" else self.method

    @property
    def factor(self) -> int:
        """How many tours each counted path or cycle is: 2 when a directed count takes it in
        both directions, else 1 (an undirected count, one with a start or an end on an open
        tour, both ends, or a board of one square).

        >>> [count_request("6x6", closed=c, start=s).factor for c in (True, False) for s in (None, "a1")]
        [2, 2, 2, 1]
        """
        if not self.directed or self.board.size == 1:
            return 1
        if self.start is not None and self.end is not None:
            return 1
        if self.closed:
            return 2  # every cycle, either way round (from any start square too)
        return 2 if self.start is None and self.end is None else 1

    def key(self) -> tuple[str, str, str, str, bool]:
        """What identifies the number: the board's :attr:`~knightstour.board.Board.key`, kind,
        start name, end name ('' if none), directed.

        The board's key is its spec on a plain board, and names every hole, the leaper and the
        wrap otherwise, so a shaped board never shares a key with the plain board of its size.

        >>> count_request("6x6", closed=True, start="a1").key()
        ('6x6', 'closed', 'a1', '', True)
        >>> count_request(Board(5, 5, holes=["c3"], leaper="zebra")).key()
        ('5x5 leaper=2,3 holes=c3', 'open', '', '', True)
        """
        name = self.board.square_name
        s = "" if self.start is None else name(self.start)
        e = "" if self.end is None else name(self.end)
        return (self.board.key, self.kind, s, e, self.directed)


@dataclass(frozen=True)
class RunOptions:
    """How a count runs, checked once where it comes in
    (:func:`~knightstour.counting.compute.count_for` makes it from the keywords of
    :func:`~knightstour.counting.compute.count`) and handed inward whole: to the enumerator
    (its progress and deadline), a Dask cluster (the same) and the frontier sweep (all of it).

    ``progress(done, total)``: called as the work goes; ``deadline``: a ``time.monotonic()``
    time to give up after; ``checkpoint``: the file the sweep saves its states to;
    ``memory``: the bytes its states may take (None: 80% of what is available); ``workdir``:
    the folder they spill into past it; ``stats``: a
    :class:`~knightstour.counting.frontier.SweepStats` the sweep fills in with what it
    measured; ``until``: stop after that many squares, as the deadline stops a sweep
    (:class:`~knightstour.errors.SearchFailedError`, the checkpoint kept), for the first
    squares of a count too big to run whole (not refused up front for the whole count's
    estimate: each square is checked before it is swept).

    >>> from knightstour.counting.frontier import SweepStats, count_paths
    >>> stats = SweepStats()
    >>> count_paths(Board(5, 5), (), False, RunOptions(stats=stats)), stats.peak > 0
    (864, True)
    """

    progress: Progress | None = None
    deadline: float | None = None
    checkpoint: str | None = None
    memory: int | None = None
    workdir: str | None = None
    stats: SweepStats | None = None
    until: int | None = None


def uncovered(board: Board) -> str | None:
    """Why the counting does not cover ``board`` (wrapped, or in layers), or None.

    >>> uncovered(Board(6, 6)) is None, uncovered(Board(6, 6, wrap="torus"))
    (True, 'counting covers flat boards (edges, one layer), not 6x6 wrap=torus')
    """
    if board.is_flat:
        return None
    return f"counting covers flat boards (edges, one layer), not {board.description}"


def count_request(
    board: BoardLike | Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    directed: bool = True,
    method: str = "auto",
    uncovered_ok: bool = False,
) -> CountRequest:
    """A checked :class:`CountRequest` from user input (a board spec, square names).

    A board the counting does not cover (:func:`uncovered`) is refused, unless
    ``uncovered_ok``: then the request is made all the same (for an answer that gives the
    refusal as its reason).

    >>> count_request("8x8", start="x9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start square x9 is off the 8x8 board (files a-h, ranks 1-8)
    >>> count_request(Board(6, 6, wrap="torus"), uncovered_ok=True).board.spec
    '6x6'
    """
    b = parse_board(board)
    refusal = uncovered(b)
    if refusal is not None and not uncovered_ok:
        raise InvalidInputError(refusal)
    s = None if start is None else b.parse_square(start, argument="start")
    e = None if end is None else b.parse_square(end, argument="end")
    return CountRequest(b, closed=closed, start=s, end=e, directed=directed, method=method)


def describe(request: CountRequest) -> str:
    """One line saying what the number counts, in words; a shaped board is named by its
    :attr:`~knightstour.board.Board.description` (the spec alone on a plain board).

    >>> describe(count_request("6x6", closed=True))
    'directed closed tours on 6x6 (each cycle counted in both directions)'
    >>> describe(count_request("5x5", start="a1"))
    'open tours on 5x5 from a1'
    >>> describe(count_request(Board(5, 5, holes=["c3"]), start="a1"))
    'open tours on 5x5 holes=c3 from a1'
    """
    name = request.board.square_name
    kind, spec = request.kind, request.board.description
    if request.start is not None and request.end is not None:
        return f"{kind} tours on {spec} from {name(request.start)} to {name(request.end)}"
    one = request.start if request.start is not None else request.end
    if one is not None:
        role = "from" if request.start is not None else "ending on"
        if request.closed:
            how = "directed" if request.directed else "undirected"
            return f"{how} closed tours on {spec} {role} {name(one)}"
        return f"open tours on {spec} {role} {name(one)}"
    thing = "cycle" if request.closed else "path"
    if request.directed:
        return f"directed {kind} tours on {spec} (each {thing} counted in both directions)"
    return f"undirected {kind} tours on {spec} (each {thing} counted once)"
