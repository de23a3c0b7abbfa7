"""The error hierarchy: bad input, proved absence, and a search that gave up.

Every error is a :class:`KnightsTourError`, itself a :class:`ValueError`, so callers that only
care whether something went wrong catch one class. The children tell the three outcomes apart,
and each carries the exit code the command line uses for it.

>>> issubclass(NoTourError, KnightsTourError) and issubclass(KnightsTourError, ValueError)
True
>>> NoTourError("2x2 has no tour").exit_code, SearchFailedError("stuck").exit_code
(1, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "InternalError",
    "InvalidTourError",
    "KnightsTourError",
    "NoTourError",
    "SearchFailedError",
]


class KnightsTourError(ValueError):
    """Bad input: the message names the broken precondition (exit code 2)."""

    exit_code: int = 2
    http_status: int = 400


class NoTourError(KnightsTourError):
    """No tour exists, and that was proved (by a theorem or by exhaustive search).

    ``reason`` holds the human explanation.
    """

    exit_code = 1
    http_status = 200

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SearchFailedError(KnightsTourError):
    """The method stopped without an answer: a heuristic got stuck or a limit was hit.

    ``partial`` holds the squares visited before it stopped (square indices in visit order),
    when the method has such a path to show.
    """

    exit_code = 3
    http_status = 200

    def __init__(
        self, message: str, *, partial: np.ndarray | None = None, board: Any = None
    ) -> None:
        super().__init__(message)
        self.partial = partial
        self.board = board


class InvalidTourError(KnightsTourError):
    """A sequence of squares is not a tour; ``problems`` lists every problem found."""

    exit_code = 1

    def __init__(self, problems: list[Any]) -> None:
        self.problems = list(problems)
        first = str(self.problems[0]) if self.problems else "not a tour"
        n = len(self.problems) - 1
        more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
        super().__init__(f"not a valid tour: {first}{more}")


class InternalError(RuntimeError):
    """A bug in knightstour itself (a method produced something that is not a tour).

    Deliberately not a :class:`KnightsTourError`: it is never the user's input nor an answer,
    and must not be mistaken for one (the CLI exits 70, the web answers 500).
    """
