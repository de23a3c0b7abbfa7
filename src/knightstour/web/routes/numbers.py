"""``/api/numbers``: knight's tour number puzzles played on the web board (Numbers mode).

The page gets a puzzle (``GET /api/numbers``: board, level, seed, givens; never the solution),
and sends the puzzle and the player's entries to ``POST /api/numbers/check`` (the wrong squares)
and ``POST /api/numbers/hint`` (the next deduction in words). The policy is the library's
(:mod:`knightstour.numberpuzzles.play`); the maker and the solver run in the lanes.

>>> from fastapi.testclient import TestClient
>>> from knightstour.web.app import create_app
>>> client = TestClient(create_app(warm=False))
>>> p = client.get("/api/numbers", params={"board": "5x5", "level": "easy", "seed": "3"}).json()
>>> p["width"], p["level"], "path" in p
(5, 'easy', False)
>>> client.get("/api/numbers", params={"board": "12x12"}).json()
{'error': '12x12: number puzzles are played on boards of sides 5 to 10'}
"""

from __future__ import annotations

import datetime
import json
import re
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from knightstour.errors import InvalidInputError
from knightstour.notation import board_fields
from knightstour.web.models import (
    ERRORS,
    ErrorOut,
    NumbersCheckOut,
    NumbersHintOut,
    NumbersIn,
    NumbersOut,
)
from knightstour.web.queries import NumbersQuery, flag, seed
from knightstour.web.routes.render import read_body
from knightstour.web.state import ServerDep, ensure_compiled

__all__ = ["MAX_BODY", "router"]

router = APIRouter(tags=["api"])

#: The largest body of a check or a hint (a 10x10 grid, every square named, is about 1.5 kB).
MAX_BODY = 16_384

_BODY = {
    "requestBody": {
        "required": True,
        "description": "the puzzle (width, height, givens) and the player's entries",
        "content": {"application/json": {"schema": NumbersIn.model_json_schema()}},
    }
}
_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": ErrorOut, "description": "the body is over the limit"},
}
#: What the routes that take a puzzle and entries (check, hint) declare beside their answer.
_POSTED: dict[str, Any] = {"responses": _RESPONSES, "openapi_extra": _BODY}
#: ``daily=`` naming a day (a link to a past day's puzzle) rather than saying yes or no.
_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


@router.get("/api/numbers", response_model=NumbersOut, responses=ERRORS)
async def numbers_(
    request: Request, server: ServerDep, q: Annotated[NumbersQuery, Query()]
) -> JSONResponse:
    """A number puzzle: the board (sides 5 to 10), level and seed make it (the same three make
    it again), or ``daily=true`` the day's puzzle (UTC), the same for everyone.

    The maker stops at the server's time cap, counted from the request's arrival (a wait for a
    worker included): a puzzle not made by then is HTTP 503 with ``Retry-After`` and the
    library's one line (:class:`~knightstour.numberpuzzles.make.OutOfTime`), never another
    puzzle than the seed's."""
    from knightstour.numberpuzzles import play

    arrived = time.monotonic()
    day = None
    if _DAY.match(q.daily) or flag("daily", q.daily):
        now = datetime.datetime.now(datetime.UTC).date()
        today = play.daily_numbers(play.daily_day(q.daily, now) if _DAY.match(q.daily) else now)
        spec, level, sd = today["board"], today["level"], today["seed"]
        day = today["date"]
    else:
        spec, level, sd = q.board, q.level, seed(q.seed)
    b = play.playable_board(spec)
    chosen = play.new_seed() if sd is None else sd

    deadline = arrived + server.limits.time_limit

    def work(_remaining: float | None) -> dict[str, Any]:
        ensure_compiled(deadline)
        left = max(0.001, deadline - time.monotonic())  # what the wait left of the request's cap
        puzzle = play.make_playable(b, level=level, seed=chosen, time_limit=left)
        return play.playing_dict(puzzle, chosen, day)

    data = await server.run(request, b, work, deadline)
    return JSONResponse(data)


async def _read(request: Request) -> dict[str, Any]:
    """The body of a check or a hint: JSON of :class:`NumbersIn`'s shape."""
    raw = await read_body(request, MAX_BODY)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise InvalidInputError(f"the body is not JSON: {str(e).splitlines()[0]}") from None
    try:
        return NumbersIn.model_validate(data).model_dump()
    except ValidationError as e:
        raise RequestValidationError(e.errors(include_url=False)) from None


async def _answer(
    request: Request, server: ServerDep, answer: Callable[..., dict[str, Any]]
) -> JSONResponse:
    """``answer(puzzle, entries, time_limit=)`` for the puzzle and entries of the request's
    body, with the board's fields: in the search lane (givens sent by a client may need the
    exact search to find their solution), within what is left of the request's time."""
    from knightstour.numberpuzzles import play

    arrived = time.monotonic()
    puzzle, entries = play.puzzle_of_play(await _read(request))
    deadline = arrived + server.limits.time_limit

    def work(_remaining: float | None) -> dict[str, Any]:
        ensure_compiled(deadline)
        left = max(0.001, deadline - time.monotonic())
        return answer(puzzle, entries, time_limit=min(play.SOLUTION_SECONDS, left))

    lane = server.lane("search")
    data = await server.run(request, None, work, deadline, lane)
    return JSONResponse({**board_fields(puzzle.board), **data})


@router.post("/api/numbers/check", response_model=NumbersCheckOut, **_POSTED)
async def numbers_check(request: Request, server: ServerDep) -> JSONResponse:
    """The squares whose entry is wrong, whether the grid is filled and solved."""
    from knightstour.numberpuzzles import play

    return await _answer(request, server, play.check_entries)


@router.post("/api/numbers/hint", response_model=NumbersHintOut, **_POSTED)
async def numbers_hint(request: Request, server: ServerDep) -> JSONResponse:
    """The next deduction with the player's entries written in, in words, and its squares."""
    from knightstour.numberpuzzles import play

    return await _answer(request, server, play.hint_for)
