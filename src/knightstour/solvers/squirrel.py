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
gives a tour on every ``n`` from 5 to 1000 except 74, as the paper says; read in the numbering of
that repository's own move list, it fails from 7 onwards.

The compiled walk switches orderings at step counts, not squares
(:func:`knightstour.solvers._kernels.warnsdorff_walk`), so :func:`schedule` finds the step at
which each square is reached by walking: one walk per switch, on the corner ``a1``, cached per
``n``. The walk is the same, mirrored, from the other three corners, so there only the move
orderings are reflected.

>>> import knightstour as kt
>>> kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="squirrel").path[:6]
['a1', 'b3', 'a5', 'b7', 'd8', 'c6']
>>> kt.solve("74x74", start="a1", method="warnsdorff", tiebreak="squirrel")
Traceback (most recent call last):
...
knightstour.errors.SearchFailedError: Warnsdorff's rule (squirrel ties) got stuck at ...
>>> kt.solve("8x6", method="warnsdorff", tiebreak="squirrel")
Traceback (most recent call last):
...
knightstour.errors.KnightsTourError: the squirrel tie-break is defined for square boards from a corner: 8x6 is not square
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from knightstour.board import Board
from knightstour.errors import KnightsTourError

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
    """``(orders, switch_at)`` for the compiled walk: Squirrel & Cull's tie-break from ``start``.

    ``orders[j]`` lists direction indices into :attr:`Board.deltas`; ordering ``j`` takes over
    once ``switch_at[j]`` squares are visited. Raises :class:`KnightsTourError` unless the board
    is a full square board for the knight and ``start`` one of its corners.

    >>> orders, switch_at = schedule(Board(8, 8), 0)
    >>> orders.shape, switch_at.tolist()
    ((5, 8), [0, 27, 44, 61, 64])
    >>> schedule(Board(8, 8), 9)
    Traceback (most recent call last):
    ...
    knightstour.errors.KnightsTourError: the squirrel tie-break is defined for square boards from a corner: b2 is not a corner
    """
    why = "the squirrel tie-break is defined for square boards from a corner"
    n = board.width
    if board.height != n:
        raise KnightsTourError(f"{why}: {board.spec} is not square")
    if not board.is_plain_knight:
        raise KnightsTourError(f"{why}, for the knight on a board without holes")
    x, y = board.xy(start)
    if x not in (0, n - 1) or y not in (0, n - 1):
        raise KnightsTourError(f"{why}: {board.square_name(start)} is not a corner")
    orders, switch_at = _from_a1(n)
    # mirror the a1 walk onto the start corner: reflect the moves, keep the step counts
    sx, sy = (1 if x == 0 else -1), (1 if y == 0 else -1)
    mirror = [board.deltas.index((sx * dx, sy * dy)) for dx, dy in board.deltas]
    return (
        np.array([[mirror[d] for d in row] for row in orders], dtype=np.int64),
        np.array(switch_at, dtype=np.int64),
    )


@lru_cache(maxsize=64)
def _from_a1(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The schedule from ``a1`` with switches as step counts, found by walking."""
    from knightstour.solvers.warnsdorff import Walker

    board = Board(n, n)
    # the paper's (row, column) is our (file, rank) swapped, both from the corner: a reflection
    # in the diagonal through a1, which turns its move (dr, dc) into our (dx, dy) = (dc, dr)
    index = {d: k for k, d in enumerate(board.deltas)}
    rows = published_rows(n)
    orders = np.array(
        [[index[PAPER_MOVES[int(c) - 1][::-1]] for c in ordering] for _, ordering in rows],
        dtype=np.int64,
    )
    targets = [
        (c - 1) + (r - 1) * n if sq is not None and 1 <= (r := sq[0]) <= n and 1 <= (c := sq[1]) <= n
        else -1  # the last row, or a square off this board: never reached
        for sq, _ in rows
    ]  # fmt: skip
    never = board.size  # a step count the walk never reaches
    switch_at = np.full(len(rows), never, dtype=np.int64)
    switch_at[0] = 0
    walker = Walker(board, len(rows))
    j = 0  # the row in charge after the switches found so far
    while j + 1 < len(rows) and targets[j] >= 0:
        path = walker.walk(0, tiebreak="first", schedule=(orders, switch_at))
        step = {int(t): int(i) for t in targets[j:] if t >= 0 for i in np.flatnonzero(path == t)}
        if targets[j] not in step:
            break  # stuck, or done, before reaching this row's square: its ordering lasts
        # the next row whose square is still unvisited takes over on the following move
        when = step[targets[j]] + 1
        k = j + 1
        while k + 1 < len(rows) and 0 <= targets[k] and step.get(targets[k], never) < when:
            k += 1
        switch_at[j + 1 : k + 1] = when
        j = k
    return tuple(tuple(int(d) for d in row) for row in orders), tuple(int(s) for s in switch_at)
