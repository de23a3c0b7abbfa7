"""What the web app's routes share: its limits, its lanes of workers, and the compiled kernels.

:func:`~knightstour.web.app.create_app` makes one :class:`Server` and keeps it as
``app.state.server``; a route asks for it by a parameter of type :data:`ServerDep` (a FastAPI
dependency), so that nothing reaches it through a closure or a module global.

>>> server = Server(Limits(quick_squares=25))
>>> server.lane_for(Board(5, 5)).name, server.lane_for(Board(6, 6)).name, server.lane("count").name
('quick', 'searches', 'counts')
>>> server.lane("gallery").name, server.lane("gallery").workers
('gallery', 1)
>>> server.close()
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from knightstour.board import Board
from knightstour.counting import QuickCounts
from knightstour.errors import InvalidInputError
from knightstour.web.lanes import Busy, Lane

__all__ = ["Limits", "Server", "ServerDep", "ensure_compiled", "server_of"]

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What keeps the server responsive: board caps, time caps and concurrent searches.

    >>> Limits().max_squares, Limits(time_limit=2).time_limit
    (10000, 2)
    """

    #: the largest board (in squares) that /api/solve and /api/render take
    max_squares: int = 10_000
    #: seconds: the cap on any one search (the exact search above all)
    time_limit: float = 5.0
    #: the largest puzzle board, in squares
    puzzle_max_squares: int = 400
    #: seconds: the cap on the exact search behind a puzzle hint
    hint_time_limit: float = 3.0
    #: the largest board an animated GIF is made for, in squares
    gif_max_squares: int = 2_500
    #: searches running at once (the machine's cores, at most 8); more wait for a free worker
    workers: int = field(default_factory=lambda: max(1, min(8, os.cpu_count() or 1)))
    #: requests that may wait for a search worker; more are refused (HTTP 503, Retry-After)
    queue: int = 32
    #: boards of at most this many squares are quick work: their own lane, never behind searches
    quick_squares: int = 64
    #: threads of the quick lane (up to ``queue`` more wait)
    quick_workers: int = 2
    #: threads of the gallery's lane (its pages and tours; up to ``queue`` more wait)
    gallery_workers: int = 1
    #: the part of its time the gallery's worker may work (at 0.3 it rests 7 s for every 3 s of
    #: work), so that a crowd of gallery pages leaves the interpreter to quick answers
    gallery_share: float = 0.3
    #: the largest request body, in bytes (a 100x100 tour JSON is about 250 kB); more: HTTP 413
    max_body_bytes: int = 2_000_000
    #: seconds: the budget of a count (/api/count); a count that needs more answers null
    count_time_limit: float = 2.0
    #: the largest board /api/count counts, in squares, and its longest short side
    count_max_squares: int = 200
    count_max_side: int = 6

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidInputError(f"limit {name} must be a positive number, got {value!r}")
        if self.gallery_share > 1:
            raise InvalidInputError(
                f"limit gallery_share must be at most 1, got {self.gallery_share!r}"
            )


class Server:
    """The state of one web app: its :class:`Limits`, its count policy (``counts``), and
    its four lanes of worker threads (:mod:`knightstour.web.lanes`), made when first used:

    - ``quick``: boards of at most ``quick_squares`` squares, never behind a search;
    - ``search``: the other searches, at most ``workers`` at once, at a lower CPU priority;
    - ``count``: one count at a time, at a low priority, so that counts never starve searches;
    - ``gallery``: the gallery's reads of the tour library, ``gallery_workers`` at once, so
      that a crowd of gallery pages never takes the threads and the cores of quick answers.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.counts = QuickCounts(
            time_limit=limits.count_time_limit,
            max_side=limits.count_max_side,
            max_squares=limits.count_max_squares,
        )
        self._lanes: dict[str, Lane] | None = None

    def lane(self, name: str) -> Lane:
        """The lane ``name`` (``quick``, ``search``, ``count`` or ``gallery``), the four made
        when first used."""
        if self._lanes is None:
            lim = self.limits
            self._lanes = {
                "quick": Lane("quick", workers=lim.quick_workers, queue=lim.queue),
                "search": Lane(
                    "searches",
                    workers=lim.workers,
                    queue=lim.queue,
                    nice=10,
                    retry_after=max(1.0, lim.time_limit / 2),
                ),
                "count": Lane(
                    "counts", workers=1, queue=8, nice=10, retry_after=lim.count_time_limit
                ),
                "gallery": Lane(
                    "gallery",
                    workers=lim.gallery_workers,
                    queue=lim.queue,
                    share=lim.gallery_share,
                    retry_after=2,  # a page is a browse: a refused one can wait its turn
                ),
            }
        return self._lanes[name]

    def lane_for(self, board: Board) -> Lane:
        """The quick lane for small boards, the search lane for the rest."""
        return self.lane("quick" if board.size <= self.limits.quick_squares else "search")

    async def run(
        self,
        request: Request,
        board: Board | None,
        fn: Callable[[float | None], T],
        deadline: float | None = None,
        lane: Lane | None = None,
    ) -> T:
        """``fn(remaining seconds)`` in a worker of ``lane`` (default: ``board``'s lane),
        dropped if the client goes."""

        async def gone() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass

        if lane is None:
            if board is None:
                raise TypeError("Server.run needs a board or a lane")
            lane = self.lane_for(board)
        return await lane.run(fn, deadline=deadline, gone=gone)

    def close(self) -> None:
        """Stop the lanes' threads (new ones are made if the app is used again)."""
        lanes, self._lanes = self._lanes, None
        for lane in (lanes or {}).values():
            lane.close()


async def server_of(request: Request) -> Server:
    """The :class:`Server` of the app that serves ``request`` (a FastAPI dependency; async, so
    that it runs on the event loop rather than a hop to a worker thread and back, which cost
    every request about a millisecond and the GIL's contention with the lanes)."""
    server: Server = request.app.state.server
    return server


#: A route's parameter of this type receives the app's :class:`Server`.
ServerDep = Annotated[Server, Depends(server_of)]


_compiled = threading.Event()
_compiling = threading.Lock()
#: Seconds a request refused while the kernels load is asked to wait (loading them from the
#: cache takes under a second).
WARMING_RETRY_AFTER = 2


def ensure_compiled(deadline: float | None = None) -> None:
    """Load the searches' compiled kernels once per process: the solver steps of
    :func:`knightstour.warm.warm` (:data:`~knightstour.warm.SOLVER_STEPS`).

    Called in a background thread at start-up (no ``deadline``: it waits as long as the
    loading takes) and before every search, so that a time cap bounds the search and not the
    loading: without it the first request after start-up could give up before it began. A
    request passes its ``deadline`` (a ``time.monotonic()`` time) and waits no longer: the
    loading goes on in a background thread (begun here if none has begun it) and the request
    is refused with :class:`~knightstour.web.lanes.Busy` (HTTP 503, ``Retry-After``), as one
    that found no free worker before its time limit. The install step (``knightstour warm``)
    has filled the cache, so this loads it (under a second); on an install that skipped it, it
    compiles them first. A failure is logged, never a request's error: the search itself says
    what is wrong.
    """
    if _compiled.is_set():
        return
    if deadline is None:
        _load()
        return
    if not _compiling.locked():  # no one loads them yet: a thread does, that this one can leave
        threading.Thread(target=_load, name="knightstour-warm-up", daemon=True).start()
    if not _compiled.wait(max(0.0, deadline - time.monotonic())):
        raise Busy(
            "the server is still loading its searches and the request's time limit passed; "
            "try again shortly",
            retry_after=WARMING_RETRY_AFTER,
        )


def _load() -> None:
    """:func:`ensure_compiled`'s loading, in the calling thread (one at a time)."""
    with _compiling:
        if _compiled.is_set():
            return
        from knightstour.warm import SOLVER_STEPS, warm

        try:
            warm(only=SOLVER_STEPS)
        except Exception:  # best effort: a search that needs a kernel loads it itself
            logging.getLogger(__name__).exception("warming up the searches failed")
        finally:
            _compiled.set()


def whole(value: float) -> int | float:
    """``value`` as an int when it is whole (limits print as 5, not 5.0).

    >>> whole(5.0), whole(0.5), whole(8)
    (5, 0.5, 8)
    """
    return int(value) if float(value).is_integer() else value


def limits_json(limits: Limits) -> dict[str, Any]:
    """The limits as ``/api/limits`` gives them: whole numbers as integers.

    >>> limits_json(Limits(time_limit=2.0))["time_limit"]
    2
    """
    return {k: whole(v) for k, v in asdict(limits).items()}
