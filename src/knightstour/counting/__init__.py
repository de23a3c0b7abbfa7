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

Known without counting: :func:`known` answers from theory (0 with the reason), from the counts
a tour library remembers and from the published figures (:mod:`knightstour.published`), each
labelled with its source. ``count(..., library=lib)`` recalls a count ``lib`` remembers and
remembers what it computes; :func:`tally` does the same and says where the number came from.
:class:`QuickCounts` is the policy of a server that answers within a budget (the web board).

Two methods: ``frontier`` (the default, a transfer-matrix dynamic program, fast on boards up to
7 squares on the short side) and ``enumerate`` (a plain exhaustive walk, for cross-checks on
small boards).
"""

from __future__ import annotations

from knightstour.counting.compute import Tally, count, count_for, tally
from knightstour.counting.known import CountMemory, Known, known, known_for
from knightstour.counting.quick import QuickAnswer, QuickCounts
from knightstour.counting.request import (
    CONVENTIONS,
    METHODS,
    CountRequest,
    RunOptions,
    count_request,
    describe,
)

__all__ = [
    "CONVENTIONS",
    "METHODS",
    "CountMemory",
    "CountRequest",
    "Known",
    "QuickAnswer",
    "QuickCounts",
    "RunOptions",
    "Tally",
    "count",
    "count_for",
    "count_request",
    "describe",
    "known",
    "known_for",
    "tally",
]
