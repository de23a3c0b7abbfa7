"""``solve()``: one entry point over a registry of methods, each answer validated.

>>> import knightstour as kt
>>> t = kt.solve("8x8", start="a1", closed=True)
>>> t.closed, len(t), t.start
(True, 64, 'a1')
>>> kt.solve("3x3")
Traceback (most recent call last):
...
knightstour.errors.NoTourError: no tour on 3x3: the centre square has no knight's move at all
>>> {"auto", "warnsdorff"} <= set(METHODS)
True

A method is a function ``f(board, start, *, end, closed, tiebreak, seed, deadline)`` returning
square indices (NumPy) in visit order (``auto`` returns ``(indices, method_used)``), or raising :class:`~knightstour.errors.NoTourError` or
:class:`~knightstour.errors.SearchFailedError`. :func:`solve` checks the inputs, consults the
existence theory first, and validates whatever the method returns.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InternalError, InvalidInputError, NoTourError
from knightstour.existence import exists
from knightstour.tour import Tour, find_problems

__all__ = ["METHODS", "Method", "register", "solve"]

Method = Callable[..., np.ndarray]

#: Method name -> function. Modules register themselves; :func:`_load` imports them lazily.
METHODS: dict[str, Method] = {}

_MODULES = {
    "auto": "knightstour.solvers.auto",
    "divide": "knightstour.solvers.divide",
    "warnsdorff": "knightstour.solvers.warnsdorff",
    "backtrack": "knightstour.solvers.backtrack",
}


def register(name: str, module: str) -> None:
    """Make ``name`` a method implemented by ``module``'s function of the same name."""
    _MODULES[name] = module
    METHODS.setdefault(name, _lazy(name, module))


def _lazy(name: str, module: str) -> Method:
    def call(*args: Any, **kwargs: Any) -> np.ndarray:
        import importlib

        fn = getattr(importlib.import_module(module), name)
        return fn(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"The {name!r} method (see {module})."
    return call


for _name, _module in list(_MODULES.items()):
    register(_name, _module)


def solve(
    board: BoardLike,
    start: str | int | tuple[int, int] | None = None,
    *,
    end: str | int | tuple[int, int] | None = None,
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
    :class:`InvalidInputError` for bad input.
    """
    b = parse_board(board)
    s = None if start is None else b.parse_square(start)
    e = None if end is None else b.parse_square(end)
    if not isinstance(closed, bool):
        raise InvalidInputError(f"closed must be true or false, got {closed!r}")
    if method not in METHODS:
        raise InvalidInputError(
            f"unknown method {method!r}: choose one of {', '.join(sorted(METHODS))}"
        )
    if tiebreak not in (None, ""):
        from knightstour.solvers.warnsdorff import check_tiebreak

        check_tiebreak(tiebreak)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
    if time_limit is not None and not (isinstance(time_limit, int | float) and time_limit > 0):
        raise InvalidInputError(
            f"time limit must be a positive number of seconds, got {time_limit!r}"
        )
    answer = exists(b, s, end=e, closed=closed, search=False)  # the methods search
    if answer.exists is False:
        raise NoTourError(answer.reason)
    deadline = None if time_limit is None else time.monotonic() + float(time_limit)
    result = METHODS[method](
        b, s, end=e, closed=closed, tiebreak=tiebreak, seed=seed, deadline=deadline
    )
    used = method
    if isinstance(result, tuple):  # auto says which method answered
        result, used = result
    return _checked(b, result, s, e, closed, used)


def _checked(
    b: Board, indices: np.ndarray, s: int | None, e: int | None, closed: bool, method: str
) -> Tour:
    """The method's answer as a validated Tour, including the requested start and end."""
    problems = find_problems(b, indices, closed)
    if not problems and s is not None and int(indices[0]) != s:
        problems = [f"starts on {b.square_name(int(indices[0]))}, not {b.square_name(s)}"]
    if not problems and e is not None and int(indices[-1]) != e:
        problems = [f"ends on {b.square_name(int(indices[-1]))}, not {b.square_name(e)}"]
    if problems:  # a bug in a method, never the user's fault: say so loudly
        raise InternalError(f"method {method!r} produced a bad tour: {problems[0]}")
    return Tour(b, np.asarray(indices), closed=closed, method=method, validate=False)
