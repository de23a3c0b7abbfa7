"""``/api/count``: the exact number of tours, when it is known or quick to count.

The policy is the library's :class:`knightstour.counting.QuickCounts` (one a
:class:`~knightstour.web.state.Server`): this module parses, calls it and answers.

>>> from fastapi.testclient import TestClient
>>> from knightstour.web.app import create_app
>>> client = TestClient(create_app(warm=False))
>>> answer = client.get("/api/count", params={"board": "7x8", "closed": "true", "directed": "false"})
>>> answer.json()["count"], answer.json()["published"]["value"], answer.json()["published"]["source"]
(None, 34524432316, 'OEIS A193054')
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from knightstour.notation import board_fields, json_counts
from knightstour.web.models import ERRORS, CountOut
from knightstour.web.queries import CountQuery, flag, opt
from knightstour.web.state import ServerDep

__all__ = ["router"]

router = APIRouter(tags=["api"])


@router.get("/api/count", response_model=CountOut, responses=ERRORS)
async def count_(
    request: Request, server: ServerDep, q: Annotated[CountQuery, Query()]
) -> Response:
    """The exact number of tours when it is known or quick to count; else null, and why.

    The policy is :class:`knightstour.counting.QuickCounts`: 0 when a theorem says no tour
    exists, a count this server made before, or a count made now: boards up to
    ``count_max_side`` squares on the short side and ``count_max_squares`` squares, counted
    within ``count_time_limit`` seconds (one count at a time, at a low priority, so that
    searches come first; a count waits at most twice that for its turn, then HTTP 503).
    Beyond that, null with the reason, and a count that needed longer is not tried again.
    Beside every answer, ``published``: the published figure of the count (8x8, 7x8 closed,
    7x7 open, ...), or of the whole board when a square is named, with its ``value``,
    ``source`` and ``convention``; a figure the server did not compute is never ``count``.
    ``convention`` says in words what the number counts (the conventions of
    ``knightstour count``).

    The board may be shaped (``holes``, ``leaper``; docs/boards.md) within the same limits.
    A board the counting does not cover (wrapped, or in layers) answers null with the
    counting's own reason. ``count`` is a JSON integer of any length (``count_text`` the same
    digits as a string, for readers that hold numbers as floats).
    """
    arrived = time.monotonic()
    b = q.shaped()
    counts = server.counts
    found = counts.ask(
        b,
        closed=flag("closed", q.closed),
        start=opt(q.start),
        end=opt(q.end),
        directed=flag("directed", q.directed),
    )
    if found.pending:  # one count at a time, waiting at most twice its budget (then 503)
        pending, deadline = found, arrived + 2 * server.limits.count_time_limit
        found = await server.run(
            request, b, lambda _r: counts.finish(pending), deadline, lane=server.lane("count")
        )
    answer = json_counts(
        {**board_fields(b), **found.to_dict()},
        ensure_ascii=False,
        allow_nan=False,
        separators=(",", ":"),
    )
    return Response(answer, media_type="application/json")  # a count of any length, in full
