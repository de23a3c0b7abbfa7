"""``/api/solve``, ``/api/exists``, ``/api/puzzle`` and ``/api/limits``: a tour, whether one exists,
puzzle mode's verdict on a partly built tour (:mod:`knightstour.puzzle`), the caps.

>>> from fastapi.testclient import TestClient
>>> from knightstour.web.app import create_app
>>> client = TestClient(create_app(warm=False))
>>> client.get("/api/exists", params={"board": "4x4"}).json()["exists"]
False
>>> client.get("/api/limits").json()["time_limit"]
5
>>> client.get("/api/puzzle", params={"board": "5x5", "path": "a1"}).json()["moves"]
['c2', 'b3']
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from knightstour.errors import NoTourError, SearchFailedError
from knightstour.notation import answer_dict, board_fields
from knightstour.web.models import ERRORS, ExistsOut, NoTourOut, PuzzleOut, TourOut
from knightstour.web.queries import ExistsQuery, PuzzleQuery, SolveQuery, capped, flag, opt, seed
from knightstour.web.state import ServerDep, ensure_compiled, limits_json

__all__ = ["router"]

router = APIRouter(tags=["api"])


@router.get("/api/limits")
async def limits_(server: ServerDep) -> dict[str, int | float]:
    """The server's limits: board caps (squares), time caps (seconds), workers, queue."""
    return limits_json(server.limits)


@router.get(
    "/api/solve",
    response_model=TourOut | NoTourOut,
    responses={**ERRORS, 200: {"description": "a tour, or why there is none"}},
)
async def solve_(
    request: Request, server: ServerDep, q: Annotated[SolveQuery, Query()]
) -> Response:
    """A tour (the contract's tour JSON), or why there is none (HTTP 200, exists false/null).

    Boards above the server's ``max_squares`` are refused; the search stops at the time cap,
    counted from the request's arrival (a wait for a worker, or for the kernels to load,
    included: a request still waiting at its cap is 503). When theory says no,
    the answer is instant; a search that gave up carries its ``partial`` path.
    """
    import knightstour as kt
    from knightstour.existence import exists

    lim = server.limits
    arrived = time.monotonic()
    b = q.shaped()
    capped(b, lim.max_squares, "the web board")
    s, e = opt(q.start), opt(q.end)
    if s is not None:
        b.parse_square(s)
    if e is not None:
        b.parse_square(e)
    want_closed = flag("closed", q.closed)
    want_metrics = flag("metrics", q.metrics)
    if want_metrics:
        from knightstour.geometry import require_flat

        require_flat(b)  # before any search
    sd = seed(q.seed)
    cap = lim.time_limit if q.time_limit is None else min(q.time_limit, lim.time_limit)
    t0 = time.perf_counter()
    theory = exists(b, s, end=e, closed=want_closed, search=False)
    if theory.exists is False:  # instant: never queued behind searches
        ms = (time.perf_counter() - t0) * 1000
        data = answer_dict(b, False, theory.reason)
        return JSONResponse(data, headers={"Server-Timing": f"theory;dur={ms:.1f}"})

    def work(_remaining: float | None) -> dict[str, Any]:
        ensure_compiled(arrived + cap)  # a wait for the kernels counts as the search's time
        try:
            tour = kt.solve(
                b, s, end=e, closed=want_closed, method=q.method, tiebreak=q.tiebreak or None,
                seed=sd, time_limit=max(0.001, min(cap, arrived + cap - time.monotonic())),
            )  # fmt: skip
        except NoTourError as err:
            return answer_dict(b, False, err.reason)
        except SearchFailedError as err:
            data = answer_dict(b, None, str(err), partial=err.partial)
            if want_metrics and err.partial is not None:  # the partial path's shape
                data["metrics"] = _shape(b, err.partial.indices, False, err.partial.metrics())
            return data
        data = tour.to_dict()
        if want_metrics:
            data["metrics"] = _shape(b, tour.indices, tour.closed, tour.metrics())
        return data

    # the lane refuses a request still waiting when the server's cap has passed; the
    # search gets what is left of the request's own cap (a wait for a worker included)
    data = await server.run(request, b, work, arrived + lim.time_limit)
    ms = (time.perf_counter() - t0) * 1000
    return JSONResponse(data, headers={"Server-Timing": f"solve;dur={ms:.1f}"})


#: The most crossings whose points an answer lists (a tangled 100x100 tour has about 15,000).
MAX_POINTS = 50_000


def _shape(board: Any, indices: Any, closed: bool, metrics: Any) -> dict[str, Any]:
    """The ``"metrics"`` object of ``metrics=true``: the tour's (or path's) metrics and, for the
    web board's marks, where its moves cross (null past :data:`MAX_POINTS`)."""
    from knightstour.geometry import crossing_points

    data: dict[str, Any] = metrics.to_dict()
    points = crossing_points(board, indices, closed) if metrics.crossings <= MAX_POINTS else None
    data["crossing_points"] = None if points is None else [list(p) for p in points]
    return data


@router.get("/api/exists", response_model=ExistsOut, responses=ERRORS)
async def exists_(q: Annotated[ExistsQuery, Query()]) -> JSONResponse:
    """Whether a tour exists, by theorems and parity alone (null: the search must decide)."""
    from knightstour.existence import exists

    b = q.shaped()
    answer = exists(b, opt(q.start), end=opt(q.end), closed=flag("closed", q.closed), search=False)
    return JSONResponse(answer_dict(b, answer.exists, answer.reason))


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

    deadline = arrived + lim.hint_time_limit

    def work(_remaining: float | None) -> Assessment:
        ensure_compiled(deadline)
        return assess(pos, time_limit=max(0.001, deadline - time.monotonic()))

    verdict = await server.run(request, b, work, deadline)
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
