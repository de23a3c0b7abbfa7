"""The error hierarchy: bad input, proved absence, a search that gave up, and bugs.

Every error is a :class:`KnightsTourError`, so callers that only care whether something went
wrong catch one class. The children tell the outcomes apart, and each carries the exit code the
command line uses for it and the HTTP status the web board answers with:

- :class:`InvalidInputError` (also a :class:`ValueError`): the input is bad; the message names
  the broken precondition (exit 2, HTTP 400);
- :class:`NoTourError`: no tour exists, and that was proved (exit 1); an answer, not bad input;
- :class:`SearchFailedError`: the method stopped without an answer (exit 3); an answer too;
- :class:`InvalidTourError`: a sequence of squares handed in as a tour is not one (an
  :class:`InvalidInputError`, but the command line's answer to ``validate`` is "no": exit 1);
- :class:`InternalError` (also a :class:`RuntimeError`): a bug in knightstour (exit 70, HTTP 500).

>>> issubclass(InvalidInputError, ValueError), issubclass(NoTourError, ValueError)
(True, False)
>>> all(issubclass(e, KnightsTourError) for e in (NoTourError, SearchFailedError, InternalError))
True
>>> NoTourError("2x2 has no tour").exit_code, SearchFailedError("stuck").exit_code
(1, 3)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "InputLimitError",
    "InternalError",
    "InvalidInputError",
    "InvalidTourError",
    "KnightsTourError",
    "NoTourError",
    "SearchFailedError",
]


class KnightsTourError(Exception):
    """The base of every knightstour error."""

    exit_code: int = 2
    http_status: int = 400


class InvalidInputError(KnightsTourError, ValueError):
    """Bad input: the message names the broken precondition (exit code 2, HTTP 400)."""


class NoTourError(KnightsTourError):
    """No tour exists, and that was proved (by a theorem or by exhaustive search).

    ``reason`` holds the human explanation; ``positions`` the number of positions the exact
    search examined to prove it (None when no search did).

    >>> NoTourError("no tour on 4x4", positions=0).positions
    0
    """

    exit_code = 1
    http_status = 200

    def __init__(self, reason: str, *, positions: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.positions = positions


class SearchFailedError(KnightsTourError):
    """The method stopped without an answer: a heuristic got stuck or a limit was hit.

    ``partial`` is how far it got, when the method has such a path to show: a
    :class:`knightstour.tour.PartialTour` (its board, its squares validated as a path, the
    ``method`` and this message as its ``reason``), or None. A method that has a path builds
    the error with :func:`knightstour.tour.search_failed`, which makes the ``PartialTour``.

    >>> e = SearchFailedError("stuck")
    >>> e.partial is None, str(e)
    (True, 'stuck')
    """

    exit_code = 3
    http_status = 200

    def __init__(self, message: str, *, partial: Any = None) -> None:
        super().__init__(message)
        self.partial = partial


class InputLimitError(InvalidInputError):
    """Input beyond what is read at all: JSON nested too deeply, an integer or a square name too
    long, a file or a line too large for this machine's memory.

    Bad input (exit code 2) even where a readable file that is not a tour is an answer (exit 1).
    """


class InvalidTourError(InvalidInputError):
    """A sequence of squares is not a tour; ``problems`` lists every problem found."""

    exit_code = 1

    def __init__(self, problems: list[Any]) -> None:
        self.problems = list(problems)
        first = str(self.problems[0]) if self.problems else "not a tour"
        n = len(self.problems) - 1
        more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
        super().__init__(f"not a valid tour: {first}{more}")


class InternalError(KnightsTourError, RuntimeError):
    """A bug in knightstour itself (say, a method produced something that is not a tour).

    Never the user's input nor an answer: the command line exits 70, the web answers 500.
    """

    exit_code = 70
    http_status = 500
