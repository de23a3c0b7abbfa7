"""What the semi-magic search's walks share: a range, the result of a part, the walk's scheme.

>>> Range(1, 0, 63, 8, False).closed
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SCHEME", "PartResult", "Range"]

#: The version of the walk and of its part numbering: recorded parts of another scheme are
#: walked again, so a changed walk never skips work.
SCHEME = "two-ended/1"


@dataclass(frozen=True)
class Range:
    """One class of (square of 1, square of N): ``size`` ordered pairs, ``closed`` when the two
    squares are a move apart (the tours of the range are then closed). A ``prefix`` narrows it to
    the tours whose next squares (placed by the low and the high end in turn: 2, N - 1, 3, ...)
    are those, for experiments and tests."""

    number: int
    first: int
    last: int
    size: int
    closed: bool
    prefix: tuple[int, ...] = ()


@dataclass
class PartResult:
    """What one part gave: the tours found (rows of squares in visiting order), the nodes tried,
    the seconds, and whether it ran to its end (False: stopped, to be walked again)."""

    range: int
    part: int
    tours: np.ndarray
    nodes: int
    seconds: float
    done: bool
    #: what the walk keeps when it stopped before its end (None when done): the path placed,
    #: the next candidate, the nodes and tours so far (:mod:`knightstour.magic.saved`); it goes
    #: on from there
    state: dict[str, Any] | None = None
    #: the tours and nodes of the whole part so far, over every call that walked it
    total_found: int = 0
    total_nodes: int = 0
    #: the journal's name for the walk that made it (:func:`scheme_of` its range)
    scheme: str = SCHEME
    #: the seconds of the whole part so far, over every call that walked it (set by the search
    #: from the walk it went on from; ``seconds`` alone when it began here)
    total_seconds: float | None = None
