"""``method="auto"``: theory first, then the fast heuristics, then the exact or constructive methods.

:func:`knightstour.solve` has already asked the theory, so ``auto`` only runs when a tour may
exist. It tries a list of strategies in order (:func:`strategies`) and returns the first tour
found, as a :class:`~knightstour.solvers.Solution` naming the method that found it. Each method
gets the request without the fields it does not honour (a tie-break given for Warnsdorff is not
handed to divide), and is skipped when it cannot honour one that matters (an end square). Given
both a start and an end square on a plain board with both sides at least 6, divide comes first:
it builds a tour between them in linear time (docs/divide.md); on a board 5 wide or less, the
frontier sweep of :mod:`knightstour.solvers.sweep` decides exactly and builds one. A closed tour
whose end is a move from its start is a path between the two: it goes the same way.

>>> import knightstour as kt
>>> auto(SolveRequest(kt.Board(8, 8), start=0)).method
'warnsdorff'
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError
from knightstour.solvers import METHODS, REGISTRY, Solution, SolveRequest, sweep
from knightstour.solvers._clock import expired
from knightstour.solvers.warnsdorff import default_start, honours_seed

__all__ = ["Strategy", "auto", "default_start", "strategies"]

#: Random-tie Warnsdorff walks tried by auto before the exact methods.
RANDOM_WALKS = 64
#: Plain knight's boards up to this many squares get the exact search without any bound: it is
#: complete, and on every such board it answers in well under a second (``make bench``), so auto
#: never gives up. Shaped boards, other leapers and wrapped boards get the bounds below: on every
#: board of the survey family of ``benchmarks/bench_shapes_exact.py`` (up to 64 squares) the
#: search answers well within them, but an arbitrary shape may be harder, and a search that never
#: ends is worse than an honest "gave up".
EXACT_UNBOUNDED = 64
#: On larger boards, the positions the exact search may examine before auto moves on (unless a
#: time limit was given, which then bounds it instead).
EXACT_BUDGET = 3_000_000
#: ... and the seconds it may take there when no time limit was given (positions cost more on
#: big boards, so the position budget alone does not bound the time).
EXACT_SECONDS = 10.0


@dataclass(frozen=True)
class Strategy:
    """One step of ``auto``: a method, with a tie-break for Warnsdorff and its typed tuning.

    ``tiebreak`` replaces the request's (Warnsdorff only); ``attempts`` is Warnsdorff's number of
    walks, ``node_limit`` the exact search's budget of positions.

    >>> Strategy("warnsdorff", tiebreak="random", attempts=RANDOM_WALKS).attempts
    64
    """

    method: str
    tiebreak: str | None = None
    attempts: int | None = None
    node_limit: int | None = None


def strategies(request: SolveRequest) -> Iterator[Strategy]:
    """The strategies that auto tries, in order.

    >>> from knightstour.board import Board
    >>> [st.method for st in strategies(SolveRequest(Board(6, 6), closed=True))]
    ['warnsdorff', 'backtrack', 'divide']
    """
    board, end, closed, tiebreak = request.board, request.end, request.closed, request.tiebreak
    # divide and conquer answers every start on a plain board, in linear time: first where the
    # heuristics are unreliable (big boards, closed tours on boards past 100 x 100, long boards
    # 3 or 4 wide), before the exact search on the rest
    divide = "divide" in METHODS and end is None and board.is_plain_knight
    # given both ends (a closed tour's end a move from its start: the same, a path between
    # them): on a board 5 wide or less the exact sweep decides and builds, on one with both
    # sides at least 6 divide builds a tour between them, in linear time
    ends = end is not None and request.start is not None
    if ends and closed:
        assert end is not None and request.start is not None
        ends = board.is_move(request.start, end)
    if ends and sweep.takes(board):
        yield Strategy("sweep")
    if (
        ends
        and "divide" in METHODS
        and board.is_plain_knight
        and min(board.width, board.height) >= 6
    ):
        yield Strategy("divide")
    first = (
        board.size > 250_000
        or (closed and board.size > 10_000)
        or (min(board.width, board.height) <= 4 and board.size > 2_000)
    )
    if divide and first:
        yield Strategy("divide")
    if not closed and end is None:
        if request.seed is not None:  # a seed asks for random ties: seeded walks first
            yield Strategy("warnsdorff", tiebreak="random", attempts=RANDOM_WALKS)
        order = [tiebreak] if tiebreak else []
        square = board.width == board.height
        for tb in ("squirrel", "center", "lookahead", "first"):
            if tb == "squirrel" and not square:
                continue
            if tb not in order:
                order.append(tb)
        for tb in order:
            yield Strategy("warnsdorff", tiebreak=tb)
        if board.size <= 250_000:
            yield Strategy("warnsdorff", tiebreak="random", attempts=RANDOM_WALKS)
    elif board.size <= 250_000:
        yield Strategy("warnsdorff", tiebreak=tiebreak, attempts=200 if board.size <= 4096 else 20)
    if divide and not first and board.size > EXACT_UNBOUNDED:
        yield Strategy("divide")
    if "backtrack" in METHODS:
        if board.size <= EXACT_UNBOUNDED and board.is_plain_knight:
            yield Strategy("backtrack")
        else:
            yield Strategy("backtrack", node_limit=EXACT_BUDGET)
    if divide and not first and board.size <= EXACT_UNBOUNDED:
        yield Strategy("divide")


def _request_for(strategy: Strategy, request: SolveRequest) -> SolveRequest | None:
    """The request as ``strategy``'s method takes it, or None when it cannot honour it."""
    if strategy.method == "sweep":  # exact: no tie-break, no seed
        return request.replace(tiebreak=None, seed=None)
    takes = REGISTRY[strategy.method].takes
    if strategy.method == "divide" and request.end is not None:
        return request.replace(tiebreak=None, seed=None)  # divide's construction between ends
    if request.end is not None and "end" not in takes:
        return None
    changes: dict[str, object] = {}
    if strategy.method == "warnsdorff":
        changes["tiebreak"] = strategy.tiebreak
        if request.start is None:  # the exact search chooses its own start (tries them all)
            changes["start"] = default_start(request.board)
    for field in ("tiebreak", "seed"):
        if field not in takes:
            changes[field] = None
    if (
        strategy.method == "backtrack"
        and request.deadline is None
        and (request.board.size > EXACT_UNBOUNDED or not request.board.is_plain_knight)
    ):
        changes["deadline"] = time.monotonic() + EXACT_SECONDS
    if "deadline" not in takes:
        changes["deadline"] = None
    sub = request.replace(**changes)
    if strategy.method == "warnsdorff" and not honours_seed(sub):
        sub = sub.replace(seed=None)  # a fixed walk: the seed is for the random walks after it
    return sub


def _run(strategy: Strategy, request: SolveRequest) -> Solution:
    if strategy.method == "warnsdorff":
        from knightstour.solvers.warnsdorff import warnsdorff

        return warnsdorff(request, attempts=strategy.attempts)
    if strategy.method == "backtrack":
        from knightstour.solvers.backtrack import backtrack

        # a time limit, when given, bounds the exact search instead of a budget of positions
        limit = strategy.node_limit if request.deadline is None else None
        return backtrack(request, node_limit=limit)
    if strategy.method == "sweep":
        return sweep.sweep_between(request)
    return METHODS[strategy.method](request)


def auto(request: SolveRequest, /) -> Solution:
    """The first tour found by :func:`strategies`, naming the method that found it.

    A seed on an open tour without an end square asks for random tie-breaks (seeded walks come
    first); with another tie-break it would be ignored, so it is refused.
    """
    if (
        request.seed is not None
        and request.tiebreak not in (None, "random")
        and not honours_seed(request)
    ):
        raise InvalidInputError(
            f"a seed steers only random tie-breaks here, not {request.tiebreak!r}: leave out "
            f"the seed, or the tie-break (auto then walks with seeded random ties)"
        )
    failures: list[str] = []
    for strategy in strategies(request):
        if expired(request.deadline):
            break
        sub = _request_for(strategy, request)
        if sub is None:
            continue
        try:
            return _run(strategy, sub)
        except SearchFailedError as err:
            failures.append(f"{strategy.method}: {err}")
        except NoTourError:
            raise
        except InvalidInputError as err:  # a method that does not apply to this request
            if strategy.method == "sweep":  # exact, and refused: no later method would answer
                raise
            failures.append(f"{strategy.method}: {err}")
    if not failures:
        raise SearchFailedError("the time limit ran out before any method could finish")
    tries = f"{len(failures)} attempt{'s' if len(failures) != 1 else ''}"
    hint = ""
    if request.deadline is None and (
        request.board.size > EXACT_UNBOUNDED or not request.board.is_plain_knight
    ):
        hint = f" (auto gives the exact search {EXACT_SECONDS:g} s here; --time-limit gives more)"
    raise SearchFailedError(f"no tour found ({tries}); last: {failures[-1]}{hint}")
