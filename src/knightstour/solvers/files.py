"""Solving straight into a file: :func:`solve_to_npy` streams what divide and conquer builds.

>>> import io, numpy as np
>>> f = io.BytesIO()
>>> solve_to_npy("5x6", f)
'warnsdorff'
>>> _ = f.seek(0); np.load(f).size
30
"""

from __future__ import annotations

import os
from typing import BinaryIO, Unpack

import numpy as np

from knightstour.board import BoardLike, SquareLike
from knightstour.solvers import SolveOptions, _request, _solved, method_of
from knightstour.solvers.auto import strategies
from knightstour.solvers.divide import divide_to_npy

__all__ = ["solve_to_npy"]


def solve_to_npy(
    board: BoardLike,
    file: str | os.PathLike[str] | BinaryIO,
    start: SquareLike | None = None,
    **options: Unpack[SolveOptions],
) -> str:
    """:func:`solve` (the same ``options``: ``end``, ``closed``, ``method``, ``tiebreak``,
    ``seed``, ``time_limit``), its tour written to ``file`` (a path or a binary file) as a NumPy
    ``.npy`` array of int32 square indices; returns the method that found it.

    When divide and conquer builds the tour (``method="divide"``, or ``auto`` on a board where it
    puts divide first: more than 250,000 squares, or a closed tour past 10,000), the tour is
    streamed: built, validated and written a piece at a time
    (:func:`~knightstour.solvers.divide.divide_to_npy`), never held whole, so a 30000x30000 tour
    needs its flag a square (1 byte) rather than the tour's 4. Other requests are solved and saved.
    Raises as :func:`solve` does.

    >>> import io
    >>> f = io.BytesIO()
    >>> solve_to_npy("6x6", f, "a1", closed=True, method="divide")
    'divide'
    >>> _ = f.seek(0); tour = np.load(f); tour.size, int(tour[0])
    (36, 0)
    """
    request, method = _request(board, start, options), method_of(options)
    b = request.board
    streamed = request.end is None and b.is_plain_knight and min(b.width, b.height) >= 5
    if streamed and method == "auto":
        streamed = next(strategies(request)).method == "divide"
    if streamed and method in ("auto", "divide"):
        divide_to_npy(request, file)
        return "divide"
    tour = _solved(request, method)
    if isinstance(file, str | os.PathLike):
        with open(file, "wb") as f:
            np.save(f, tour.indices, allow_pickle=False)
    else:
        np.save(file, tour.indices, allow_pickle=False)
    return tour.method
