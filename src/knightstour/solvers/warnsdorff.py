"""Warnsdorff's rule: always move to the square with the fewest onward moves.

One compiled walk (:func:`knightstour.solvers._kernels.warnsdorff_walk`) serves every tie-break:

- ``first``: the first candidate in the fixed move order (:attr:`Board.deltas`), as the classic
  8 × 8 programs do;
- ``center``: the candidate farthest from the centre (Roth's rule; first fails at 428 rows);
- ``random``: uniformly at random, seeded by ``seed``;
- ``lookahead``: Warnsdorff's double look-ahead as Pohl (1967) described it: the smallest sum of
  the onward counts of the candidate's unvisited neighbours;
- ``squirrel``: Squirrel & Cull's (1996) switching move orderings, for square boards from a
  corner (see :mod:`knightstour.solvers.squirrel`).

Closed tours, and tours to a chosen end square, come from repeated walks with random ties that
keep the end square (for a closed tour, a neighbour of the start) for the last move.

>>> import knightstour as kt
>>> kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="first").path[:4]
['a1', 'c2', 'a3', 'b1']
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError, SearchFailedError

__all__ = ["DEFAULT_TIEBREAK", "TIEBREAKS", "Walker", "warnsdorff"]

TIEBREAKS: tuple[str, ...] = ("first", "center", "random", "lookahead", "squirrel")
DEFAULT_TIEBREAK = "center"
_CODES = {"first": 0, "center": 1, "random": 2, "lookahead": 3, "squirrel": 0}

#: Walks tried for a closed tour or a fixed end before giving up (unless a time limit is set).
DEFAULT_ATTEMPTS = 2000


def check_tiebreak(tiebreak: str | None) -> str:
    """The tie-break name, checked; ``None`` gives the default (``center``)."""
    if tiebreak is None or tiebreak == "":
        return DEFAULT_TIEBREAK
    if tiebreak not in TIEBREAKS:
        raise InvalidInputError(
            f"unknown tie-break {tiebreak!r}: choose one of {', '.join(TIEBREAKS)}"
        )
    return tiebreak


@dataclass
class Walker:
    """Warnsdorff walks on one board, sharing the padded grid and onward counts between walks."""

    board: Board
    walks: int = 1

    def __post_init__(self) -> None:
        from knightstour.solvers._kernels import kernel

        self.board.require_memory(8, "Warnsdorff's rule")
        work = self.board.size * self.walks
        self._walk = kernel("warnsdorff_walk", work)
        self.grid = self.board.padded()
        self.deg0 = kernel("degrees", work)(self.grid.blocked, self.grid.offsets)
        self.out = np.empty(self.board.size, dtype=np.int32)
        nm = len(self.board.deltas)
        self.fixed_order = (np.arange(nm, dtype=np.int64)[None, :], np.full(1, -1, dtype=np.int64))

    def walk(
        self,
        start: int,
        *,
        end: int | None = None,
        tiebreak: str = DEFAULT_TIEBREAK,
        seed: int = 0,
        schedule: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> np.ndarray:
        """One walk from board square ``start``; the visited squares (a view, copy to keep).

        ``schedule`` is ``(orders, cells)``: move orderings (rows of indices into
        :attr:`Board.deltas`) and the board squares on which each hands over to the next
        (-1: never); the default is one fixed order.
        """
        g, w = self.grid, self.board.width
        orders, cells = schedule if schedule is not None else self.fixed_order
        switch_cells = np.where(cells >= 0, g.to_padded(cells, w), -1)
        vis = g.blocked.copy()
        deg = self.deg0.copy()
        count = self._walk(
            vis,
            deg,
            g.offsets,
            orders,
            switch_cells,
            int(g.to_padded(start, w)),
            -1 if end is None else int(g.to_padded(end, w)),
            self.board.size,
            _CODES[tiebreak],
            int(seed) & 0x7FFFFFFFFFFFFFFF,
            g.pwidth,
            g.pad,
            w,
            self.board.height,
            self.out,
        )
        return self.out[:count]


def _schedule(board: Board, start: int, tiebreak: str) -> tuple[np.ndarray, np.ndarray] | None:
    if tiebreak != "squirrel":
        return None
    from knightstour.solvers.squirrel import schedule

    return schedule(board, start)


def warnsdorff(
    board: Board,
    start: int | None = None,
    *,
    end: int | None = None,
    closed: bool = False,
    tiebreak: str | None = None,
    seed: int | None = None,
    deadline: float | None = None,
    attempts: int | None = None,
) -> np.ndarray:
    """A tour by Warnsdorff's rule, as square indices; raises :class:`SearchFailedError` if stuck.

    An open tour with no end square is one walk. A closed tour, or one to ``end``, is tried up to
    ``attempts`` times (random ties after the first walk) or until ``deadline``
    (``time.monotonic()`` seconds).
    """
    tb = check_tiebreak(tiebreak)
    n_attempts = attempts if attempts is not None else DEFAULT_ATTEMPTS
    if n_attempts < 1:
        raise InvalidInputError(f"attempts must be at least 1, got {n_attempts}")
    walker = Walker(board, 1 if not closed and end is None else min(n_attempts, 100))
    if start is None:
        from knightstour.solvers.auto import default_start

        start = default_start(board)
    s = start
    seed0 = 0 if seed is None else int(seed)
    if not closed and end is None:
        path = walker.walk(s, tiebreak=tb, seed=seed0, schedule=_schedule(board, s, tb))
        if path.size == board.size:
            return path.copy()
        _stuck(board, path, f"Warnsdorff's rule ({tb} ties) got stuck")

    # closed tours and fixed ends: repeated walks
    ends = [end] if end is not None else board.moves(s)
    if not ends:
        raise SearchFailedError(f"{board.square_name(s)} has no knight's move to close a tour")
    best: np.ndarray = np.empty(0, dtype=np.int32)
    for i in range(n_attempts):
        if deadline is not None and i and time.monotonic() > deadline:
            break
        ttb = tb if i == 0 else "random"
        e = ends[i % len(ends)] if (end is not None or i % 2 == 0) else None
        path = walker.walk(
            s, end=e, tiebreak=ttb, seed=seed0 + i, schedule=_schedule(board, s, ttb)
        )
        complete = path.size == board.size and (end is None or path[-1] == end)
        if complete and (not closed or board.is_move(int(path[-1]), int(path[0]))):
            return path.copy()
        if path.size > best.size:
            best = path.copy()
    what = "a closed tour" if closed else f"a tour ending on {board.square_name(end or 0)}"
    _stuck(board, best, f"Warnsdorff's rule did not find {what} in {i + 1} walks")
    raise AssertionError  # pragma: no cover


def _stuck(board: Board, path: np.ndarray, what: str) -> None:
    covered = int(path.size)
    if covered == board.size:
        msg = f"{what}; the best walk covered all {board.size} squares but ended elsewhere"
    else:
        at = board.square_name(int(path[-1])) if covered else "the start"
        msg = f"{what} at {at} after covering {covered} of {board.size} squares"
    raise SearchFailedError(msg, partial=path, board=board)
