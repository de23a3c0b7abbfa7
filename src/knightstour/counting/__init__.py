"""Exact numbers of knight's tours: ``count(board, ...)`` returns a Python int of any size.

>>> import knightstour as kt
>>> kt.count("5x5")                       # directed open tours (A165134)
1728
>>> kt.count("5x5", directed=False)       # undirected: each path once, whichever way walked
864
>>> kt.count("3x10", closed=True, directed=False)   # closed tours, undirected (A070030)
16
>>> kt.count("5x5", start="a1")           # open tours from a corner
304

The conventions (docs/counting.md; ``knightstour count --help`` prints the same table):

- **closed**: Hamiltonian cycles of the knight graph. Undirected counts each cycle once (the
  figures of OEIS A070030, A175855, A175881, A193054); directed counts each cycle in both
  directions (2x). With a start square, a directed count is the number of move sequences from
  it (every closed tour passes every square): again 2x the cycles.
- **open**: Hamiltonian paths, including paths whose two ends are a knight's move apart (as
  OEIS A165134 and A308131 count them). Directed counts each path in both directions (the
  figures of A165134); undirected counts it once (A169696, A079137, A083386).
- **from a start square**: the tours that begin there (directed; undirected gives the same
  number, because an undirected path has the start square as one end in one way only).
- **from a start to an end**: the tours from one to the other; for a closed tour the end must be
  a knight's move from the start, and the count is the closed tours that use that move.

Two methods: ``frontier`` (the default, a transfer-matrix dynamic program, fast on boards up to
7 squares on the short side) and ``enumerate`` (a plain exhaustive walk, for cross-checks on
small boards).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InvalidInputError
from knightstour.theory import check_ends, verdict

if TYPE_CHECKING:
    from knightstour.progress import Progress

__all__ = [
    "CONVENTIONS",
    "METHODS",
    "CountRequest",
    "count",
    "count_request",
    "describe",
]

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


def count_request(
    board: BoardLike | Board,
    *,
    closed: bool = False,
    start: object = None,
    end: object = None,
    directed: bool = True,
    method: str = "auto",
) -> CountRequest:
    """A checked :class:`CountRequest` from user input (a board spec, square names).

    >>> count_request("8x8", start="x9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start square x9 is off the 8x8 board (files a-h, ranks 1-8)
    """
    b = parse_board(board)
    if not b.is_flat:
        raise InvalidInputError(
            f"counting covers flat boards (edges, one layer), not {b.description}"
        )
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
    if request.directed:
        return (
            f"directed {kind} tours on {spec} (each {_thing(request)} counted in both directions)"
        )
    return f"undirected {kind} tours on {spec} (each {_thing(request)} counted once)"


def _thing(request: CountRequest) -> str:
    return "cycle" if request.closed else "path"


def count(
    board: BoardLike | Board,
    *,
    closed: bool = False,
    start: object = None,
    end: object = None,
    directed: bool = True,
    method: str = "auto",
    progress: Progress | None = None,
    scheduler: str | None = None,
    time_limit: float | None = None,
    checkpoint: str | None = None,
) -> int:
    """The exact number of knight's tours on ``board`` (a Python int): see the module's conventions.

    ``method``: ``auto``/``frontier`` (dynamic programming over the frontier of a sweep) or
    ``enumerate`` (exhaustive, small boards only). ``scheduler``: the address of a Dask scheduler
    to spread the frontier sweep over (``frontier`` only; None: in this process).
    ``time_limit``: seconds to give up after (:class:`~knightstour.errors.SearchFailedError`).
    ``checkpoint``: a file the frontier sweep saves its states to every minute; counting again
    with the same file goes on from there (after Ctrl-C, a crash or the time limit).
    A count that would not fit in memory is refused before it starts
    (:class:`~knightstour.errors.InputLimitError`).

    >>> count("6x6", closed=True, directed=False)
    9862
    >>> count("4x9", closed=True)   # Schwenk: no closed tour on 4 x n
    0
    """
    request = count_request(
        board, closed=closed, start=start, end=end, directed=directed, method=method
    )
    return count_for(
        request,
        progress=progress,
        scheduler=scheduler,
        time_limit=time_limit,
        checkpoint=checkpoint,
    )


def count_for(
    request: CountRequest,
    *,
    progress: Progress | None = None,
    scheduler: str | None = None,
    time_limit: float | None = None,
    checkpoint: str | None = None,
) -> int:
    """:func:`count` for a checked request."""
    if scheduler is not None and request.method == "enumerate":
        raise InvalidInputError("the enumerate method runs in this process: drop --scheduler")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or time_limit <= 0
    ):
        raise InvalidInputError(
            f"time limit must be a positive number of seconds, got {time_limit!r}"
        )
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if checkpoint is not None and (scheduler is not None or request.method == "enumerate"):
        raise InvalidInputError("a checkpoint is kept by the frontier sweep in this process only")
    base = _base_count(request, progress, scheduler, deadline, checkpoint)
    return base * _factor(request)


def _factor(request: CountRequest) -> int:
    """How many tours each counted path or cycle is: 2 for both directions, else 1."""
    if not request.directed or request.board.size == 1:
        return 1
    if request.start is not None and request.end is not None:
        return 1
    if request.closed:
        return 2  # every cycle, either way round (from any start square too)
    return 2 if request.start is None and request.end is None else 1


def _base_count(
    request: CountRequest,
    progress: Progress | None,
    scheduler: str | None,
    deadline: float | None,
    checkpoint: str | None = None,
) -> int:
    """Undirected: cycles (closed), paths with the given ends (open, or closed with both ends)."""
    b, s, e = request.board, request.start, request.end
    if b.size == 1:
        return 0 if request.closed else 1
    if verdict(b, s, e, request.closed).exists is False:
        return 0  # a theorem or a parity argument says no tour exists
    if request.closed and s is not None and e is not None:
        # closed tours from s to e (a move apart) are the open paths from s to e
        terminals: tuple[int, ...] = (s, e)
        closed = False
    elif request.closed:
        terminals, closed = (), True
    else:
        terminals, closed = tuple(x for x in (s, e) if x is not None), False
    if request.method == "enumerate":
        from knightstour.counting.enumerate import count_paths

        return count_paths(b, terminals, closed, progress=progress, deadline=deadline)
    from knightstour.counting.frontier import count_paths as frontier_count
    from knightstour.counting.frontier import plan

    if scheduler is not None:
        from knightstour.counting.distributed import run_on_cluster

        sweep = plan(b, terminals, closed)
        return run_on_cluster(sweep, scheduler, progress=progress, deadline=deadline)
    return frontier_count(
        b, terminals, closed, progress=progress, deadline=deadline, checkpoint=checkpoint
    )
