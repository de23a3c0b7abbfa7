"""``solve()``: one entry point over a registry of methods, one typed request, each answer validated.

>>> import knightstour as kt
>>> t = kt.solve("8x8", start="a1", closed=True)
>>> t.closed, len(t), t.start
(True, 64, 'a1')
>>> kt.solve("3x3")
Traceback (most recent call last):
...
knightstour.errors.NoTourError: no tour on 3x3: the centre square has no knight's move at all
>>> kt.solve("8x8", method="divide", tiebreak="first")
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: the divide method takes no tie-break
>>> {"auto", "warnsdorff"} <= set(METHODS)
True

A method (:class:`Method`) is a function that takes one :class:`SolveRequest` (the board, square
indices, and the options, already checked) and returns a :class:`Solution` (the square indices in
visit order and the name of the method that found them), or raises
:class:`~knightstour.errors.NoTourError` or :class:`~knightstour.errors.SearchFailedError`.
:data:`REGISTRY` declares which optional fields each method honours (:data:`OPTIONAL`);
:func:`solve` parses the spec once, refuses a field the method does not honour, asks
:func:`knightstour.theory.verdict` first, and validates whatever the method returns.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from dataclasses import dataclass
from typing import Protocol, TypedDict

import numpy as np

from knightstour import arguments
from knightstour.board import Board, BoardLike, SquareLike, parse_board
from knightstour.errors import InternalError, InvalidInputError, InvalidTourError, NoTourError
from knightstour.kernels.walk import TIEBREAK_CODES
from knightstour.solvers._clock import cancellable
from knightstour.theory import verdict
from knightstour.tour import Tour

__all__ = [
    "METHODS",
    "OPTIONAL",
    "REGISTRY",
    "Method",
    "MethodInfo",
    "Solution",
    "SolveOptions",
    "SolveRequest",
    "cancellable",
    "refusal",
    "register",
    "reversed_request",
    "solve",
]


@dataclass(frozen=True)
class SolveRequest:
    """What a method is asked for: a tour on ``board`` from ``start`` to ``end``, closed or open.

    Squares are indices (``y * width + x``); ``tiebreak`` names a Warnsdorff tie-break (None:
    the method's default), ``seed`` steers random choices, ``deadline`` is a ``time.monotonic()``
    time to give up at. Checked when made.

    >>> SolveRequest(Board(8, 8), start=0, closed=True).replace(seed=3).seed
    3
    >>> SolveRequest(Board(8, 8), start=64)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start square 64 is off the 8x8 board
    """

    board: Board
    start: int | None = None
    end: int | None = None
    closed: bool = False
    tiebreak: str | None = None
    seed: int | None = None
    deadline: float | None = None

    def __post_init__(self) -> None:
        b = self.board
        if not isinstance(b, Board):
            raise InvalidInputError(f"a request needs a Board, got {b!r}")
        for role in ("start", "end"):
            sq = getattr(self, role)
            if sq is None:
                continue
            if isinstance(sq, bool) or not isinstance(sq, int | np.integer):
                raise InvalidInputError(f"{role} square must be a square index, got {sq!r}")
            if not 0 <= sq < b.area:
                raise InvalidInputError(f"{role} square {sq} is off the {b.spec} board")
            if sq in b.holes:
                raise InvalidInputError(f"{role} square {b.square_name(int(sq))} is a hole")
            object.__setattr__(self, role, int(sq))
        if not isinstance(self.closed, bool):
            raise InvalidInputError(f"closed must be true or false, got {self.closed!r}")
        if self.tiebreak is not None and self.tiebreak not in TIEBREAK_CODES:
            raise InvalidInputError(
                f"unknown tie-break {self.tiebreak!r}: choose one of {', '.join(TIEBREAK_CODES)}"
            )
        seed = self.seed
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
        if self.deadline is not None and not isinstance(self.deadline, int | float):
            raise InvalidInputError(
                f"deadline must be a time.monotonic() time, got {self.deadline!r}"
            )

    def replace(self, **changes: object) -> SolveRequest:
        """A copy with ``changes`` (field name -> value), checked again."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Solution:
    """What every method returns: the tour's square indices in visit order, and who found it.

    ``method`` is the method's own name (for ``auto``, the method it used). :func:`solve` turns
    it into a validated :class:`~knightstour.tour.Tour`.

    >>> Solution(np.array([0], dtype=np.int32), "backtrack").method
    'backtrack'
    """

    indices: np.ndarray
    method: str


class Method(Protocol):
    """A method of :func:`solve`: a tour for a request, or NoTourError / SearchFailedError.

    It may take typed keyword options of its own (with defaults), such as ``attempts``.

    >>> def first_square(request: SolveRequest, /) -> Solution:
    ...     return Solution(np.array([0], dtype=np.int32), "first_square")
    >>> method: Method = first_square
    >>> method(SolveRequest(Board(1, 1))).indices.tolist()
    [0]
    """

    def __call__(self, request: SolveRequest, /) -> Solution: ...


#: The request fields a method may or may not honour, and how a refusal names them.
OPTIONAL: dict[str, str] = {
    "end": "end square",
    "tiebreak": "tie-break",
    "seed": "seed",
    "deadline": "time limit",
}


@dataclass(frozen=True)
class MethodInfo:
    """A registered method: its module (imported when first called) and the fields it honours.

    >>> REGISTRY["backtrack"].module
    'knightstour.solvers.backtrack'
    """

    name: str
    module: str
    takes: frozenset[str]


#: Method name -> what it is and which of the :data:`OPTIONAL` fields it honours.
REGISTRY: dict[str, MethodInfo] = {}
#: Method name -> the method (imported on its first call).
METHODS: dict[str, Method] = {}


def register(name: str, module: str, *, takes: frozenset[str] | set[str] = frozenset()) -> None:
    """Make ``name`` a method: ``module``'s function of that name, honouring the fields ``takes``.

    >>> sorted(REGISTRY["divide"].takes), sorted(REGISTRY["backtrack"].takes)
    (['deadline', 'end'], ['deadline', 'end', 'seed'])
    """
    unknown = set(takes) - set(OPTIONAL)
    if unknown:
        raise InvalidInputError(f"unknown request fields {sorted(unknown)}: see OPTIONAL")
    REGISTRY[name] = MethodInfo(name, module, frozenset(takes))
    METHODS[name] = _lazy(name, module)


def _lazy(name: str, module: str) -> Method:
    def call(request: SolveRequest, /) -> Solution:
        fn: Method = getattr(importlib.import_module(module), name)
        return fn(request)

    call.__name__ = name
    call.__doc__ = f"The {name!r} method (see {module})."
    return call


register("auto", "knightstour.solvers.auto", takes=set(OPTIONAL))
register("warnsdorff", "knightstour.solvers.warnsdorff", takes=set(OPTIONAL))
register("backtrack", "knightstour.solvers.backtrack", takes={"end", "seed", "deadline"})
register("divide", "knightstour.solvers.divide", takes={"end", "deadline"})


def refusal(name: str, request: SolveRequest) -> str | None:
    """Why method ``name`` cannot honour ``request`` (a field it does not take), or None.

    >>> refusal("backtrack", SolveRequest(Board(8, 8), tiebreak="center"))
    'the backtrack method takes no tie-break'
    >>> print(refusal("warnsdorff", SolveRequest(Board(8, 8), tiebreak="center")))
    None

    An end square without a start square is honoured by every method: :func:`solve` searches
    from the end and reverses (:func:`reversed_request`).

    >>> print(refusal("divide", SolveRequest(Board(8, 8), end=0)))
    None
    """
    takes = REGISTRY[name].takes
    for field, what in OPTIONAL.items():
        if field == "end" and request.start is None:
            continue
        if field not in takes and getattr(request, field) is not None:
            return f"the {name} method takes no {what}"
    return None


class SolveOptions(TypedDict, total=False):
    """:func:`solve`'s keywords, for a function that takes them as ``**options`` and passes them
    on (:func:`~knightstour.solvers.files.solve_to_npy`); one left out takes solve's default.

    >>> options: SolveOptions = {"closed": True, "method": "divide"}
    >>> _request("6x6", "a1", options).closed
    True
    """

    end: SquareLike | None
    closed: bool
    method: str
    tiebreak: str | None
    seed: int | None
    time_limit: float | None


def solve(
    board: BoardLike,
    start: SquareLike | None = None,
    *,
    end: SquareLike | None = None,
    closed: bool = False,
    method: str = "auto",
    tiebreak: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Tour:
    """A validated tour on ``board`` from ``start`` (to ``end``), open or ``closed``.

    ``method`` is ``auto`` (theory, then heuristics, then exact search) or any name in
    :data:`METHODS`. ``tiebreak`` and ``seed`` steer Warnsdorff's rule; ``time_limit`` (seconds)
    bounds the search. Raises :class:`NoTourError` when no tour exists (with the reason),
    :class:`SearchFailedError` when the method stopped without an answer, and
    :class:`InvalidInputError` for bad input, a field the method does not take included.

    >>> solve("5x5", "c3", method="backtrack").start
    'c3'
    """
    options = SolveOptions(
        end=end, closed=closed, method=method, tiebreak=tiebreak, seed=seed, time_limit=time_limit
    )
    return _solved(_request(board, start, options), method)


def _solved(request: SolveRequest, method: str) -> Tour:
    """The validated tour ``method`` finds for ``request`` (made by :func:`_request`)."""
    if request.start is None and request.end is not None:
        # a tour ending on e is a tour starting on e, reversed: every method is at its best
        # (and auto at its fastest) from a start square
        found = METHODS[method](reversed_request(request))
        return _checked(request, Solution(np.ascontiguousarray(found.indices[::-1]), found.method))
    return _checked(request, METHODS[method](request))


def _request(board: BoardLike, start: SquareLike | None, options: SolveOptions) -> SolveRequest:
    """The request of :func:`solve`'s arguments (``options``: its keywords, its defaults where
    left out), checked, and the theory asked first (raises :class:`NoTourError` when it proves
    there is none)."""
    unknown = sorted(set(options) - SolveOptions.__optional_keys__)
    if unknown:  # as a function with these keywords spelled out would
        raise TypeError(f"got an unexpected keyword argument {unknown[0]!r}")
    b = parse_board(board)
    end, closed = options.get("end"), options.get("closed", False)
    method, tiebreak = method_of(options), options.get("tiebreak")
    seed, time_limit = options.get("seed"), options.get("time_limit")
    _check_types(method=method, tiebreak=tiebreak, closed=closed)
    if method not in METHODS:
        raise InvalidInputError(
            f"unknown method {method!r}: choose one of {', '.join(sorted(METHODS))}"
        )
    time_limit = arguments.time_limit(time_limit)
    request = SolveRequest(
        b,
        None if start is None else b.parse_square(start, argument="start"),
        None if end is None else b.parse_square(end, argument="end"),
        bool(closed),
        tiebreak or None,
        seed,
        None if time_limit is None else _deadline(b, time_limit),
    )
    refused = refusal(method, request)
    if refused is not None:
        raise InvalidInputError(refused)
    answer = verdict(b, request.start, request.end, request.closed)  # the methods search
    if answer.exists is False:
        raise NoTourError(answer.reason)
    return request


def method_of(options: SolveOptions) -> str:
    """The method ``options`` name: :func:`solve`'s default, ``auto``, when they name none."""
    return options.get("method", "auto")


#: Seconds a square of the answer (a tour, or the partial path of a search that stopped) costs to
#: validate, tour or partial path (about 5 ns here; bench_overhead.py checks the limits hold).
CHECK_SECONDS_PER_SQUARE = 6e-9


def _deadline(board: Board, time_limit: float) -> float:
    """The methods' deadline for ``time_limit`` seconds from now: the validation of their tour
    (linear in the board) is taken off, so that :func:`solve` as a whole honours the limit.

    >>> _deadline(Board(8, 8), 1.0) - time.monotonic() > 0.99
    True
    """
    return time.monotonic() + time_limit - CHECK_SECONDS_PER_SQUARE * board.size


def reversed_request(request: SolveRequest) -> SolveRequest:
    """The request for a tour from ``request``'s end square (and no end): reversed, it ends there.

    A tour ending on ``e`` (closed or open) read backwards is a tour starting on ``e``, so
    :func:`solve` answers an end square without a start square this way, as fast as a start.

    >>> r = reversed_request(SolveRequest(Board(8, 8), end=0, closed=True))
    >>> r.start, r.end, r.closed
    (0, None, True)
    """
    if request.start is not None or request.end is None:
        raise InvalidInputError("only a request with an end square and no start is reversed")
    return request.replace(start=request.end, end=None)


def _check_types(*, method: object, tiebreak: object, closed: object) -> None:
    """Refuse an argument of :func:`solve` of the wrong type, naming it (before any lookup).

    >>> _check_types(method=["auto"], tiebreak=None, closed=False)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: method must be a method name (a string), got ['auto']
    """
    if not isinstance(method, str):
        raise InvalidInputError(f"method must be a method name (a string), got {method!r}")
    if tiebreak is not None and not isinstance(tiebreak, str):
        raise InvalidInputError(f"tiebreak must be a tie-break name (a string), got {tiebreak!r}")
    if not isinstance(closed, bool | np.bool_):
        raise InvalidInputError(f"closed must be true or false, got {closed!r}")


def _checked(request: SolveRequest, solution: Solution) -> Tour:
    """The method's answer as a validated Tour, including the requested start and end."""
    b, s, e = request.board, request.start, request.end
    used = solution.method
    try:
        tour = Tour(b, np.asarray(solution.indices), closed=request.closed, method=used)
    except InvalidTourError as err:  # a bug in a method, never the user's fault: say so loudly
        raise InternalError(f"method {used!r} produced a bad tour: {err.problems[0]}") from err
    first, last = int(tour.indices[0]), int(tour.indices[-1])
    if s is not None and first != s:
        raise InternalError(
            f"method {used!r} produced a bad tour: starts on {b.square_name(first)}, "
            f"not {b.square_name(s)}"
        )
    if e is not None and last != e:
        raise InternalError(
            f"method {used!r} produced a bad tour: ends on {b.square_name(last)}, "
            f"not {b.square_name(e)}"
        )
    return tour
