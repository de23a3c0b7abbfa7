"""``/api/count``: the exact number of tours, when it is known or quick to count.

Known: 0 when a theorem says no tour exists, a figure of :data:`PUBLISHED`, or a count this
server made before (:class:`CountCache`, one a :class:`~knightstour.web.state.Server`).

>>> from fastapi.testclient import TestClient
>>> from knightstour.web.app import create_app
>>> client = TestClient(create_app(warm=False))
>>> answer = client.get("/api/count", params={"board": "7x8", "closed": "true", "directed": "false"})
>>> answer.json()["count"], answer.json()["source"]
(34524432316, 'published')
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from knightstour.errors import InvalidInputError, SearchFailedError
from knightstour.notation import board_fields
from knightstour.web.models import ERRORS, CountOut
from knightstour.web.queries import CountQuery, flag, opt
from knightstour.web.state import ServerDep, whole

__all__ = ["PUBLISHED", "CountCache", "published", "router"]

router = APIRouter(tags=["api"])

#: Figures from the literature for boards too large to count within a web request, each one
#: reproduced by the frontier sweep in ``benchmarks/bench_count.py``: (short side, long side,
#: kind) -> (undirected number: cycles or paths, source). Directed is twice (OEIS A165134 lists
#: the directed open tours: these are half of its figures).
PUBLISHED: dict[tuple[int, int, str], tuple[int, str]] = {
    (7, 8, "closed"): (34_524_432_316, "OEIS A193054"),
    (7, 7, "open"): (82_787_609_160, "OEIS A165134"),
}


def published(request: Any) -> tuple[int, str] | None:
    """The published number of ``request`` (a :class:`~knightstour.counting.CountRequest`) and
    its source, for whole plain knight's boards (no start, no end, no holes), or None.

    >>> from knightstour.counting import count_request
    >>> published(count_request("7x8", closed=True, directed=False))
    (34524432316, 'OEIS A193054')
    >>> published(count_request("7x7", start="a1")) is None
    True
    >>> from knightstour.board import parse_board
    >>> published(count_request(parse_board("7x7", holes="d4"))) is None
    True
    """
    b = request.board
    w, h = sorted((b.width, b.height))
    if request.start is not None or request.end is not None or not b.is_plain_knight:
        return None
    found = PUBLISHED.get((w, h, request.kind))
    if found is None:
        return None
    number, source = found
    return (2 * number if request.directed else number), source


class CountCache:
    """Counts made by this process, by :meth:`~knightstour.counting.CountRequest.key`: the
    number, the method and the seconds, or None for a count that needed more than the budget
    (so it is not tried again). At most ``size`` entries, the least recently used dropped.

    >>> cache = CountCache(size=1)
    >>> cache.put(("5x5", "open", "", "", True), (1728, "frontier", 0.3))
    >>> cache.get(("5x5", "open", "", "", True))
    (1728, 'frontier', 0.3)
    >>> cache.put(("6x6", "open", "", "", True), None)
    >>> cache.get(("5x5", "open", "", "", True)) is CountCache.MISSING
    True
    """

    MISSING: Any = object()

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[Any, tuple[int, str, float] | None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The entry of ``key`` (a result, or None: too slow), or :attr:`MISSING`."""
        with self._lock:
            if key not in self._items:
                return self.MISSING
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Any, value: tuple[int, str, float] | None) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@router.get("/api/count", response_model=CountOut, responses=ERRORS)
async def count_(
    request: Request, server: ServerDep, q: Annotated[CountQuery, Query()]
) -> JSONResponse:
    """The exact number of tours when it is known or quick to count; else null, and why.

    Known: 0 when a theorem says no tour exists, a published figure reproduced by the benchmarks (7x8 closed, 7x7 open), or a
    count this server made before. Quick: boards up to ``count_max_side`` squares on the
    short side and ``count_max_squares`` squares, counted within ``count_time_limit``
    seconds (one count at a time, at a low priority, so that searches come first; a count
    waits at most twice that for its turn, then HTTP 503); a count that needs longer answers
    null with the reason, and is not tried again. ``convention``
    says in words what the number counts (the conventions of ``knightstour count``).

    The board may be shaped (``holes``, ``leaper``; docs/boards.md) within the same limits.
    A board the counting does not cover (wrapped, or in layers) answers null with the
    counting's own reason.
    """
    from knightstour.counting import CountRequest, count_for, count_request, describe
    from knightstour.errors import InputLimitError
    from knightstour.solvers._clock import expired
    from knightstour.theory import verdict

    lim = server.limits
    arrived = time.monotonic()
    b = q.shaped()
    closed, directed = flag("closed", q.closed), flag("directed", q.directed)
    refusal = None
    try:
        req = count_request(b, start=opt(q.start), end=opt(q.end), closed=closed, directed=directed)
    except InvalidInputError as err:
        if b.is_flat:
            raise  # bad input (a square off the board, the same start and end): HTTP 400
        refusal = str(err).splitlines()[0]  # the counting's reason: this board is not covered
        s, e = opt(q.start), opt(q.end)
        req = CountRequest(
            b,
            start=None if s is None else b.parse_square(s, argument="start"),
            end=None if e is None else b.parse_square(e, argument="end"),
            closed=closed,
            directed=directed,
        )
    name = b.square_name
    fields = {
        **board_fields(b),
        "kind": req.kind,
        "start": None if req.start is None else name(req.start),
        "end": None if req.end is None else name(req.end),
        "directed": req.directed,
        "convention": describe(req),
    }

    def answer(
        number: int | None,
        source: str | None,
        reason: str | None = None,
        known: tuple[int, str, float] | None = None,
        cached: bool = False,
    ) -> JSONResponse:
        if known is not None:
            number, source = known[0], "computed"
        return JSONResponse(
            {
                **fields,
                "count": number,
                "count_text": None if number is None else str(number),
                "known": number is not None,
                "source": source,
                "cached": cached,
                "method": None if known is None else known[1],
                "seconds": None if known is None else round(known[2], 3),
                "reason": reason,
            }
        )

    if refusal is not None:
        return answer(None, None, refusal)
    if b.size > 1:
        theory = verdict(b, req.start, req.end, req.closed)
        if theory.exists is False:
            return answer(0, "theory", theory.reason)
    figure = published(req)
    if figure is not None:
        return answer(figure[0], "published", f"published: {figure[1]}")
    budget = lim.count_time_limit
    slow = (
        f"counting {b.description} takes longer than the {whole(budget)} s the web board "
        "gives it (knightstour count takes its time)"
    )
    key, cache = req.key(), server.counts
    hit = cache.get(key)
    if hit is not CountCache.MISSING:
        return (
            answer(None, None, slow, cached=True)
            if hit is None
            else answer(None, None, known=hit, cached=True)
        )
    if min(b.width, b.height) > lim.count_max_side or b.size > lim.count_max_squares:
        return answer(
            None,
            None,
            f"{b.description} is too large to count here: the web board counts boards of up to "
            f"{lim.count_max_side} squares on the short side and {lim.count_max_squares} "
            "squares (knightstour count goes further)",
        )

    def work(_remaining: float | None) -> tuple[int, str, float] | str | None:
        # the whole budget from the start: a count waits behind one the page no longer
        # wants (dropped at its next square), and should not pay for that wait
        swept: list[float] = []  # when the first square was done (after any compiling)

        def progress(done: int, total: int) -> None:
            if not swept:
                swept.append(time.monotonic())
            if expired(None):  # the client went away
                raise SearchFailedError("the count was cancelled")

        t0 = time.perf_counter()
        try:
            number = count_for(req, progress=progress, time_limit=budget)
        except InputLimitError as e:
            return str(e).splitlines()[0]
        except SearchFailedError:
            # too slow, when it spent the budget counting (not loading the kernels)
            if swept and time.monotonic() - swept[0] >= budget / 2:
                cache.put(key, None)
            return None
        found = (number, "frontier" if req.method == "auto" else req.method)
        result = (*found, time.perf_counter() - t0)
        cache.put(key, result)
        return result

    # a count waits at most twice its budget for the count lane (then HTTP 503)
    result = await server.run(request, b, work, arrived + 2 * budget, lane=server.lane("count"))
    if isinstance(result, str):
        return answer(None, None, result)
    return answer(None, None, slow) if result is None else answer(None, None, known=result)
