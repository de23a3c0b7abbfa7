"""One shared correctness check, run over every method in METHODS (those added later included).

Whatever a method answers must be right: a tour is a tour that honours the request (start, end,
closed); ``NoTourError`` only where no tour exists; ``SearchFailedError`` ("gave up") only from a
method that is not exact, and never from ``auto`` or ``backtrack`` on a small board. A method
that does not apply to a request says so with a plain ``KnightsTourError``.
"""

from __future__ import annotations

import pytest

import knightstour as kt
from conftest import assert_is_tour
from knightstour import InvalidInputError, NoTourError, SearchFailedError
from knightstour.solvers import METHODS, REGISTRY, SolveRequest, reversed_request
from knightstour.solvers.backtrack import exact_search
from knightstour.solvers.warnsdorff import honours_seed

#: Methods that must always answer (a tour or a proof) on boards of area <= 64.
EXACT = {"auto", "backtrack"}

#: (board, start, end, closed): requests with a tour, requests without, in a spread of shapes.
REQUESTS = [
    ("8x8", "a1", None, False),
    ("8x8", "e4", None, True),
    ("8x8", "a1", "g8", False),
    ("8x8", "a1", "h8", False),  # none: parity
    ("5x5", "a1", None, False),
    ("5x5", "b1", None, False),  # none: colour
    ("5x5", None, None, True),  # none: odd board
    ("6x6", "c3", None, True),
    ("3x4", "a1", None, False),
    ("3x4", "b2", None, False),  # none
    ("3x7", "b4", None, False),  # none
    ("3x10", "b5", None, True),
    ("4x5", "a1", None, False),
    ("4x5", "b2", None, False),  # none: 4 x n
    ("7x7", "a1", "g7", False),
    ("4x4", None, None, False),  # none
    ("10x3", None, None, False),
    ("12x12", "a1", None, True),
    ("40x40", "a1", None, False),
    ("50x52", None, None, True),
]


def _truth(board: kt.Board, start, end, closed) -> bool:
    s = None if start is None else board.parse_square(start)
    e = None if end is None else board.parse_square(end)
    answer = kt.exists(board, s, end=e, closed=closed)
    if answer.exists is not None:
        return answer.exists
    try:
        exact_search(board, s, e, closed)
    except NoTourError:
        return False
    return True


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: "-".join(str(v) for v in r))
def test_every_method_answers_correctly(method: str, request_: tuple) -> None:
    spec, start, end, closed = request_
    board = kt.parse_board(spec)
    # a seed goes where the method honours it (refused elsewhere: the refusal is tested apart)
    asked = SolveRequest(
        board,
        start and board.parse_square(start),
        end and board.parse_square(end),
        closed,
    )
    if start is None and end is not None:  # solve() searches from the end and reverses
        asked = reversed_request(asked)
    honoured = "seed" in REGISTRY[method].takes and (method != "warnsdorff" or honours_seed(asked))
    seed = {"seed": 1} if honoured else {}
    try:
        tour = kt.solve(board, start, end=end, closed=closed, method=method, **seed)
    except NoTourError as err:
        assert err.reason
        assert not _truth(board, start, end, closed), f"{method} says none: {err.reason}"
        return
    except SearchFailedError as err:
        assert not (method in EXACT and board.size <= 64), f"{method} gave up: {err}"
        return
    except InvalidInputError as err:  # the method does not apply to this request
        assert method not in EXACT, f"{method} refused: {err}"
        return
    s = None if start is None else board.parse_square(start)
    e = None if end is None else board.parse_square(end)
    assert_is_tour(board, tour.indices, closed=closed, start=s, end=e)
    assert tour.closed is closed
    assert tour.method == method or method == "auto"


# -- issue 11, item 12: every wrong type of solve()'s arguments is an InvalidInputError naming it


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"method": ["auto"]}, "method"),
        ({"method": None}, "method"),
        ({"method": b"auto"}, "method"),
        ({"tiebreak": ["first"]}, "tiebreak"),
        ({"tiebreak": 3}, "tiebreak"),
        ({"closed": "x"}, "closed"),
        ({"closed": 1}, "closed"),
        ({"closed": None}, "closed"),
        ({"time_limit": True}, "time_limit"),
        ({"time_limit": "1"}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"time_limit": -1}, "time_limit"),
        ({"seed": "1"}, "seed"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_solve_refuses_wrong_types_naming_the_argument(kwargs: dict, named: str) -> None:
    with pytest.raises(InvalidInputError, match=named):
        kt.solve("5x5", "a1", **kwargs)


# -- issue 11, item 16: an end square alone is answered by reversing a search from it


@pytest.mark.parametrize(
    ("spec", "end", "closed", "method", "used"),
    [
        ("100x100", "a1", False, "auto", "warnsdorff"),  # was the exact search, 7.7 s
        ("8x8", "c3", True, "auto", "warnsdorff"),
        ("8x8", "h8", False, "warnsdorff", "warnsdorff"),
        ("12x12", "a1", False, "divide", "divide"),  # divide now takes an end square alone
        ("6x6", "b1", False, "backtrack", "backtrack"),
    ],
)
def test_end_only_is_a_reversed_start(
    spec: str, end: str, closed: bool, method: str, used: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = kt.parse_board(spec)
    e = board.parse_square(end)
    seen: list[SolveRequest] = []
    inner = METHODS[method]

    def spy(request: SolveRequest, /) -> object:
        seen.append(request)
        return inner(request)

    monkeypatch.setitem(METHODS, method, spy)
    tour = kt.solve(board, end=end, closed=closed, method=method)
    assert (seen[0].start, seen[0].end) == (e, None)  # searched from the end square
    assert tour.method == used
    assert int(tour.indices[-1]) == e
    assert_is_tour(board, tour.indices, closed=closed, end=e)
