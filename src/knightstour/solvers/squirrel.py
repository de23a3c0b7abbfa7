"""Squirrel & Cull's switching move orderings: Warnsdorff ties on square boards, from a corner.

Squirrel and Cull (1996), "A Warnsdorff-rule algorithm for knight's tours on square
chessboards" (Oregon State REU), break Warnsdorff's ties by the first candidate in a fixed move
ordering, and switch to the next ordering of a short list once the knight has landed on a given
square. The list and its squares depend on ``n mod 8`` (one square on ``n mod 16``). Ganzfried
(2004), "A simple algorithm for knight's tours" (Oregon State REU, Cull advising), analyses the
algorithm and proves it for ``n ≡ 7 (mod 8)``.

The schedule below is the one in Douglas Squirrel's own implementation (the ``warnsdorff-scheme``
repository on GitHub, ``src/sc-data.rkt``), read in the paper's move numbering: moves 1 to 8 go
clockwise from two up, one right, with rows counted downwards (Ganzfried §1). Read that way it
gives a tour on every ``n`` from 5 to 1000 except 74, the exception reported for the algorithm
(``benchmarks/bench_squirrel.py``), and walks exactly as a plain square-by-square reading of the
rule does (``tests/test_squirrel.py``).

The compiled walk (:func:`knightstour.kernels.walk.warnsdorff_walk`) switches orderings on
reaching a square, exactly as the rule says, so the schedule is data: no extra walks. From the
other three corners the walk is the same, mirrored: the move orderings and the squares are
reflected.

>>> import knightstour as kt
>>> kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="squirrel").path[:8]
['a1', 'c2', 'e1', 'g2', 'h4', 'g6', 'h8', 'f7']
>>> kt.solve("8x6", method="warnsdorff", tiebreak="squirrel")
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: the squirrel tie-break is defined for square boards from a corner: 8x6 is not square
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError

__all__ = ["EXCEPTIONS", "PAPER_MOVES", "published_rows", "schedule"]

#: The paper's moves 1..8 as (row, column) steps, rows counted downwards (Ganzfried §1).
PAPER_MOVES: tuple[tuple[int, int], ...] = (
    (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1),
)  # fmt: skip

#: Sizes from 5 to 1000 on which the schedule gets stuck (checked by benchmarks/bench_squirrel.py).
EXCEPTIONS: frozenset[int] = frozenset({74})

Row = tuple[tuple[int, int] | None, str]


def published_rows(n: int) -> list[Row]:
    """Squirrel & Cull's schedule for an ``n`` × ``n`` board, in the paper's own terms.

    Each row is ``(square, ordering)``: the ordering (moves numbered as in :data:`PAPER_MOVES`)
    breaks ties until the knight lands on ``square``, a 1-based ``(row, column)`` counted from
    the starting corner; then the next row's ordering takes over. The last row's square is
    ``None``: its ordering lasts to the end. A row whose square is already visited when its turn
    comes is skipped; a square off a small board is never reached, so its ordering lasts.

    >>> published_rows(8)
    [((7, 6), '34261578'), ((2, 2), '87642135'), ((0, 1), '51867342'), ((7, 5), '51342678'), (None, '21435678')]
    """
    h = n // 2  # the paper's (n - 1) / 2 for odd n, n / 2 for even n
    r = n % 8
    if r == 0:
        return [((n - 1, n - 2), "34261578"), ((2, 2), "87642135"), ((n - 8, 1), "51867342"),
                ((7, n - 3), "51342678"), (None, "21435678")]  # fmt: skip
    if r == 1:
        return [((n - 1, n - 2), "34261578"), ((2, 2), "87642135"), ((n - 6, h + 5), "51324678"),
                (None, "32481765")]  # fmt: skip
    if r == 2:
        return [((6, 1), "34261578"), ((3, 1), "87642135"), ((n - 15, 4), "54132678"),
                ((10, n - 2), "52431678"), ((5, h - 3), "85647123"), (None, "15746823")]  # fmt: skip
    if r == 3:
        return [((n - 1, n - 2), "34625718"), ((n - 6, n), "42681357"), ((2, 5), "86512347"),
                ((n - 10, 3), "51867342"), ((h, n - 2), "61825437"), (None, "71642538")]  # fmt: skip
    if r == 4:
        return [((n - 1, n - 2), "34261578"), ((2, 2), "87642135"), ((n - 8, 1), "51867342"),
                ((10, n - 5), "51342678"), ((13, h + 1), "86753421"), (None, "78563421")]  # fmt: skip
    if r == 5:
        col = h - 2 if n % 16 == 5 else h - 6
        return [((n - 1, n - 2), "34261578"), ((2, 2), "87642135"), ((n - 2, col), "51324678"),
                (None, "15234678")]  # fmt: skip
    if r == 6:
        return [((6, 1), "34261578"), ((3, 1), "87642135"), ((n - 10, 1), "54132678"),
                ((10, n - 2), "52431678"), ((3, h + 4), "85647123"), (None, "12453678")]  # fmt: skip
    return [((n - 1, n - 2), "34625718"), ((n - 6, n), "42681357"), ((2, 5), "86512347"),
            ((n - 6, 3), "51867342"), ((h + 1, n - 2), "61825437"), (None, "61357284")]  # fmt: skip


def schedule(board: Board, start: int) -> tuple[np.ndarray, np.ndarray]:
    """``(orders, cells)`` for the compiled walk: Squirrel & Cull's tie-break from ``start``.

    ``orders[j]`` lists direction indices into :attr:`Board.deltas`; ordering ``j`` rules until
    the knight lands on square ``cells[j]`` (-1: never), then the next row whose square is still
    unvisited takes over. Raises :class:`KnightsTourError` unless the board is a full square
    board for the knight and ``start`` one of its corners.

    >>> orders, cells = schedule(Board(8, 8), 0)
    >>> orders.shape, [Board(8, 8).square_name(c) if c >= 0 else None for c in cells]
    ((5, 8), ['f7', 'b2', None, 'e7', None])
    >>> schedule(Board(8, 8), 9)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the squirrel tie-break is defined for square boards from a corner: b2 is not a corner
    """
    why = "the squirrel tie-break is defined for square boards from a corner"
    n = board.width
    if board.height != n:
        raise InvalidInputError(f"{why}: {board.spec} is not square")
    if not board.is_plain_knight:
        raise InvalidInputError(f"{why}, for the knight on a board without holes")
    x, y = board.xy(start)
    if x not in (0, n - 1) or y not in (0, n - 1):
        raise InvalidInputError(f"{why}: {board.square_name(start)} is not a corner")
    orders, cells = _from_a1(n)
    # mirror the a1 walk onto the start corner: reflect the moves and the squares
    sx, sy = (1 if x == 0 else -1), (1 if y == 0 else -1)
    mirror = [board.deltas.index((sx * dx, sy * dy)) for dx, dy in board.deltas]
    mirrored_cells = []
    for c in cells:
        if c < 0:
            mirrored_cells.append(-1)
            continue
        cx, cy = c % n, c // n
        mx, my = (cx if sx == 1 else n - 1 - cx), (cy if sy == 1 else n - 1 - cy)
        mirrored_cells.append(my * n + mx)
    return (
        np.array([[mirror[d] for d in row] for row in orders], dtype=np.int64),
        np.array(mirrored_cells, dtype=np.int64),
    )


@lru_cache(maxsize=64)
def _from_a1(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The schedule from ``a1``: move orderings as indices into ``Board.deltas``, and squares."""
    board = Board(n, n)
    # the paper's row r, column c is our rank r, file c: its picture upside down (its rows count
    # down, our ranks up), which takes its corner (1, 1) to a1 and its move (dr, dc) to (dc, dr)
    index = {d: k for k, d in enumerate(board.deltas)}
    rows = published_rows(n)
    orders = tuple(
        tuple(index[PAPER_MOVES[int(c) - 1][::-1]] for c in ordering) for _, ordering in rows
    )
    return orders, tuple(_cell(sq, n) for sq, _ in rows)


def _cell(square: tuple[int, int] | None, n: int) -> int:
    """Our index of the paper's 1-based ``(row, column)``; -1 for none or off the board."""
    if square is None:
        return -1
    r, c = square
    return (c - 1) + (r - 1) * n if 1 <= r <= n and 1 <= c <= n else -1
