"""``method="auto"``: theory first, then the fast heuristics, then the exact or constructive methods.

:func:`knightstour.solve` has already asked the existence theory, so ``auto`` only runs when a
tour may exist. It tries a list of strategies in order (:func:`strategies`) and returns the first
tour found, with the name of the method that found it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError

__all__ = ["auto", "default_start", "strategies"]

#: Random-tie Warnsdorff walks tried by auto before the exact methods.
RANDOM_WALKS = 64
#: Boards up to this many squares get the exact search without any bound: it is complete, and on
#: every such board it answers in well under a second (``make bench``), so auto never gives up.
EXACT_UNBOUNDED = 64
#: On larger boards, the positions the exact search may examine before auto moves on (unless a
#: time limit was given, which then bounds it instead).
EXACT_BUDGET = 3_000_000
#: ... and the seconds it may take there when no time limit was given (positions cost more on
#: big boards, so the position budget alone does not bound the time).
EXACT_SECONDS = 10.0


def default_start(board: Board) -> int:
    """The start square auto uses when none is given: a corner (fewest moves), first in order.

    A corner has the corner colour and lies on an outer line, so it admits a tour on every board
    that has one (odd boards, 4 x n and 3 x n included).

    >>> default_start(Board(8, 8)), default_start(Board(3, 3, holes=frozenset({0})))
    (0, 2)
    """
    moves = {q: len(board.moves(q)) for q in (0, board.width - 1) if q not in board.holes}
    if moves:
        return min(moves, key=lambda q: (moves[q], q))
    return next(board.squares())


def strategies(
    board: Board, start: int | None, end: int | None, closed: bool, tiebreak: str | None
) -> Iterator[tuple[str, dict[str, object]]]:
    """The (method, options) that auto tries, in order."""
    from knightstour.solvers import METHODS

    # divide and conquer answers every start on a plain board, in linear time: first where the
    # heuristics are unreliable (big boards, closed tours on boards past 100 x 100, long boards
    # 3 or 4 wide), before the exact search on the rest
    divide = "divide" in METHODS and end is None and board.is_plain_knight
    first = (
        board.size > 250_000
        or (closed and board.size > 10_000)
        or (min(board.width, board.height) <= 4 and board.size > 2_000)
    )
    if divide and first:
        yield "divide", {}
    if not closed and end is None:
        order = [tiebreak] if tiebreak else []
        square = board.width == board.height
        for tb in ("squirrel", "center", "lookahead", "first"):
            if tb == "squirrel" and not square:
                continue
            if tb not in order:
                order.append(tb)
        for tb in order:
            yield "warnsdorff", {"tiebreak": tb}
        if board.size <= 250_000:
            yield "warnsdorff", {"tiebreak": "random", "attempts": RANDOM_WALKS}
    elif board.size <= 250_000:
        yield "warnsdorff", {"tiebreak": tiebreak, "attempts": 200 if board.size <= 4096 else 20}
    if divide and not first and board.size > EXACT_UNBOUNDED:
        yield "divide", {}
    if "backtrack" in METHODS:
        if board.size <= EXACT_UNBOUNDED:
            yield "backtrack", {}
        else:
            yield "backtrack", {"node_limit": EXACT_BUDGET}
    if divide and not first and board.size <= EXACT_UNBOUNDED:
        yield "divide", {}


def auto(
    board: Board,
    start: int | None = None,
    *,
    end: int | None = None,
    closed: bool = False,
    tiebreak: str | None = None,
    seed: int | None = None,
    deadline: float | None = None,
) -> tuple[np.ndarray, str]:
    """The first tour found by :func:`strategies`, and the method that found it."""
    from knightstour.solvers import METHODS

    failures: list[str] = []
    for name, opts in strategies(board, start, end, closed, tiebreak):
        if deadline is not None and time.monotonic() > deadline:
            break
        kwargs = dict(end=end, closed=closed, seed=seed, deadline=deadline)
        kwargs["tiebreak"] = opts.pop("tiebreak", tiebreak)
        kwargs.update(opts)
        if name == "backtrack" and deadline is not None:
            kwargs.pop("node_limit", None)  # the time limit bounds it instead
        elif name == "backtrack" and board.size > EXACT_UNBOUNDED:
            kwargs["deadline"] = time.monotonic() + EXACT_SECONDS
        # the exact search chooses its own start (it tries them all when it must)
        s = default_start(board) if start is None and name == "warnsdorff" else start
        try:
            return METHODS[name](board, s, **kwargs), name
        except SearchFailedError as err:
            failures.append(f"{name}: {err}")
        except NoTourError:
            raise
        except InvalidInputError as err:  # a method that does not apply to this request
            failures.append(f"{name}: {err}")
    if not failures:
        raise SearchFailedError("the time limit ran out before any method could finish")
    tries = f"{len(failures)} attempt{'s' if len(failures) != 1 else ''}"
    hint = ""
    if deadline is None and board.size > EXACT_UNBOUNDED:
        hint = f" (auto gives the exact search {EXACT_SECONDS:g} s here; --time-limit gives more)"
    raise SearchFailedError(f"no tour found ({tries}); last: {failures[-1]}{hint}")
