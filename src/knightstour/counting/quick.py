"""Counts within a budget, for a server (the web board's ``/api/count``): :class:`QuickCounts`.

The policy, in order: a board the counting does not cover answers null with the reason; a
theorem's 0 at once; a count this process made before; a board small enough is counted within
the time limit (by :meth:`QuickCounts.finish`, in a worker); otherwise null with the reason (too
large, or it took longer than the budget, which is remembered so that it is not tried again).
Beside every answer, the published figure of the count (or of the whole board, when the count
names a square), labelled as published with its source (:attr:`QuickAnswer.published`): a
number the program did not compute is never given as its count.

>>> from knightstour.board import Board
>>> counts = QuickCounts(time_limit=2.0, max_side=6, max_squares=200)
>>> counts.ask(Board(4, 9), closed=True).source
'theory'
>>> a = counts.ask(Board(8, 8))
>>> a.count, a.published.count, a.published.citation
(None, 19591828170979904, 'OEIS A165134 (a(8) from Alex Chernov, 2014)')
>>> a = counts.ask(Board(5, 5), start="a1")
>>> a.pending, counts.finish(a).count, counts.ask(Board(5, 5), start="a1").cached
(True, 304, True)
>>> counts.ask(Board(8, 8), start="a1").reason
'8x8 is too large to count here: the web board counts boards of up to 6 squares on the short side and 200 squares, and one machine has not the memory to count it (docs/counting.md)'
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal, Unpack

from knightstour.board import Board
from knightstour.counting import compute
from knightstour.counting.known import Known, by_theory, publication_near
from knightstour.counting.request import (
    CountRequest,
    WhatToCount,
    count_request,
    describe,
    uncovered,
)
from knightstour.errors import InputLimitError, SearchFailedError
from knightstour.notation import digits

__all__ = ["QuickAnswer", "QuickCounts"]

#: A count made: the number, the method, the seconds.
Made = tuple[int, str, float]


@dataclass(frozen=True)
class QuickAnswer:
    """The answer of :class:`QuickCounts`: the number (None: not given here) with where it
    comes from, or why it is not given; ``pending`` when it still has to be counted
    (:meth:`QuickCounts.finish`).

    ``source``: ``theory`` (no tour can exist) or ``computed`` (counted by this process: now,
    or earlier when ``cached``). A published figure is never the count: it is
    :attr:`published`, labelled.

    >>> a = QuickCounts().ask(Board(3, 3))
    >>> a.count, a.source, a.pending
    (0, 'theory', False)
    """

    request: CountRequest
    count: int | None
    source: Literal["theory", "computed"] | None
    reason: str | None
    cached: bool = False
    method: str | None = None
    seconds: float | None = None
    pending: bool = False

    @property
    def published(self) -> Known | None:
        """The published figure of what was asked, or of the whole board when a square was
        named (its ``convention`` says which), with its source; None when there is none
        (:func:`~knightstour.counting.known.publication_near`).

        >>> QuickCounts().ask(Board(8, 8), closed=True, directed=False).published.count
        13267364410532
        """
        if self.pending or uncovered(self.request.board) is not None:
            return None
        return publication_near(self.request)

    def to_dict(self) -> dict[str, Any]:
        """What was counted and the answer, as the JSON of ``/api/count`` (the board's own
        fields aside): ``count_text`` is the number in digits, ``known`` whether it is given,
        ``published`` the published figure (``value``, ``value_text``, ``source``,
        ``convention``, ``url``) or None.

        >>> from knightstour.board import Board
        >>> QuickCounts().ask(Board(4, 9), closed=True).to_dict()["convention"]
        'directed closed tours on 4x9 (each cycle counted in both directions)'
        """
        r, name = self.request, self.request.board.square_name
        return {
            "kind": r.kind,
            "start": None if r.start is None else name(r.start),
            "end": None if r.end is None else name(r.end),
            "directed": r.directed,
            "convention": describe(r),
            "count": self.count,
            "count_text": None if self.count is None else digits(self.count),
            "known": self.count is not None,
            "source": self.source,
            "cached": self.cached,
            "method": self.method,
            "seconds": None if self.seconds is None else round(self.seconds, 3),
            "reason": self.reason,
            "published": None if self.published is None else self.published.published_fields(),
        }


class QuickCounts:
    """The counts a server gives within a budget, and the counts it made (at most ``size``, the
    least recently used dropped; a count that took longer than the budget is remembered as
    such). ``time_limit``: the seconds a count may take; ``max_side``, ``max_squares``: the
    largest board counted, by its short side and its squares. Safe to share between threads.

    >>> counts = QuickCounts(max_side=5)
    >>> a = counts.ask(Board(6, 6), closed=True, directed=False)    # not counted: too wide
    >>> a.count, a.published.count, a.published.citation
    (None, 9862, 'OEIS A175881')
    """

    _MISSING: Any = object()

    def __init__(
        self,
        *,
        time_limit: float = 2.0,
        max_side: int = 6,
        max_squares: int = 200,
        size: int = 4096,
    ) -> None:
        self.time_limit = time_limit
        self.max_side = max_side
        self.max_squares = max_squares
        self.size = size
        self._made: OrderedDict[tuple[Any, ...], Made | None] = OrderedDict()
        self._lock = threading.Lock()

    # -- the answers ------------------------------------------------------------------------

    def ask(self, board: Board, **what: Unpack[WhatToCount]) -> QuickAnswer:
        """The answer known at once (``pending`` when the board is to be counted); ``what``:
        ``closed``, ``start``, ``end``, ``directed``, as :func:`~knightstour.counting.count`
        takes them. Bad input (a square off the board) raises
        :class:`~knightstour.errors.InvalidInputError`."""
        req = count_request(board, uncovered_ok=True, **what)
        refusal = uncovered(board)
        if refusal is not None:
            return QuickAnswer(req, None, None, refusal)
        theory = by_theory(req)
        if theory is not None:
            return QuickAnswer(req, theory.count, "theory", theory.citation)
        made = self._get(req.key())
        if made is not None and made is not self._MISSING:
            return self._computed(req, made, cached=True)
        if made is self._MISSING and self._small(board):
            return QuickAnswer(req, None, None, None, pending=True)
        if made is None:
            return QuickAnswer(req, None, None, self._slow(board), cached=True)
        further = (
            "(knightstour count goes further)"
            if min(board.width, board.height) < 8
            else "and one machine has not the memory to count it (docs/counting.md)"
        )
        return QuickAnswer(
            req,
            None,
            None,
            f"{board.description} is too large to count here: the web board counts boards of "
            f"up to {self.max_side} squares on the short side and {self.max_squares} squares"
            f"{' ' if further.startswith('(') else ', '}{further}",
        )

    def finish(self, answer: QuickAnswer) -> QuickAnswer:
        """Count a ``pending`` answer within the time limit (in a worker: it takes up to that
        long; it stops soon after the thread's cancel event is set), and remember it."""
        from knightstour.solvers._clock import expired

        req = answer.request
        if not answer.pending:
            return answer
        swept: list[float] = []  # when the first square was done (after any compiling)

        def progress(done: int, total: int) -> None:
            if not swept:
                swept.append(time.monotonic())
            if expired(None):  # the client went away
                raise SearchFailedError("the count was cancelled")

        try:
            done = compute.tally(req, progress=progress, time_limit=self.time_limit)
        except InputLimitError as e:
            return QuickAnswer(req, None, None, str(e).splitlines()[0])
        except SearchFailedError:
            # too slow, when it spent the budget counting (not loading the kernels)
            if swept and time.monotonic() - swept[0] >= self.time_limit / 2:
                self._put(req.key(), None)
            return QuickAnswer(req, None, None, self._slow(req.board))
        made = (done.number, done.method, done.seconds)
        self._put(req.key(), made)
        return self._computed(req, made)

    # -- helpers ----------------------------------------------------------------------------

    def _small(self, board: Board) -> bool:
        return min(board.width, board.height) <= self.max_side and board.size <= self.max_squares

    def _slow(self, board: Board) -> str:
        return (
            f"counting {board.description} takes longer than the {self.time_limit:g} s the web "
            "board gives it (knightstour count takes its time)"
        )

    @staticmethod
    def _computed(req: CountRequest, made: Made, cached: bool = False) -> QuickAnswer:
        number, method, seconds = made
        return QuickAnswer(req, number, "computed", None, cached, method, seconds)

    def _get(self, key: tuple[Any, ...]) -> Any:
        with self._lock:
            if key not in self._made:
                return self._MISSING
            self._made.move_to_end(key)
            return self._made[key]

    def _put(self, key: tuple[Any, ...], value: Made | None) -> None:
        with self._lock:
            self._made[key] = value
            self._made.move_to_end(key)
            while len(self._made) > self.size:
                self._made.popitem(last=False)
