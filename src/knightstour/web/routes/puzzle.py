"""``/api/puzzle``: puzzle mode's verdict on a partly built tour (:mod:`knightstour.puzzle`).

>>> from fastapi.testclient import TestClient
>>> from knightstour.web.app import create_app
>>> client = TestClient(create_app(warm=False))
>>> client.get("/api/puzzle", params={"board": "5x5", "path": "a1"}).json()["moves"]
['c2', 'b3']
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from knightstour.notation import board_fields
from knightstour.web.models import ERRORS, PuzzleOut
from knightstour.web.queries import PuzzleQuery, capped, flag
from knightstour.web.state import ServerDep, ensure_compiled

__all__ = ["router"]

router = APIRouter(tags=["api"])


@router.get("/api/puzzle", response_model=PuzzleOut, responses=ERRORS)
async def puzzle_(
    request: Request, server: ServerDep, q: Annotated[PuzzleQuery, Query()]
) -> JSONResponse:
    """Puzzle mode: is the position won, lost or still open, and a next move that can win.

    The hint and the verdict "lost" come from the exact search on the unvisited squares,
    stopped at the hint time cap (then the status is "unknown").
    """
    from knightstour.puzzle import Assessment, assess, legal_moves, parse_position

    lim = server.limits
    arrived = time.monotonic()
    b = q.shaped()
    capped(b, lim.puzzle_max_squares, "puzzle mode")
    pos = parse_position(b, q.path, flag("closed", q.closed))

    def work(remaining: float | None) -> Assessment:
        ensure_compiled()
        return assess(pos, time_limit=min(lim.hint_time_limit, remaining or lim.time_limit))

    verdict = await server.run(request, b, work, arrived + lim.hint_time_limit)
    return JSONResponse(
        {
            **board_fields(b),
            "closed": pos.closed,
            "path": pos.names(),
            "status": verdict.status,
            "hint": verdict.hint,
            "moves": [b.square_name(s) for s in legal_moves(pos)],
            "reason": verdict.reason,
        }
    )
