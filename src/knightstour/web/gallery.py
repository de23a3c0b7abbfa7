"""The web board's extras: the palette, the daily puzzle, and the tour library's gallery.

``knightstour serve --db tours.db`` adds the gallery: the page ``/gallery`` and its JSON twins
under ``/api/library`` (read-only, keyset-paginated, :mod:`knightstour.library.gallery`). A file
that is not a tour library is refused when the server starts, with the library's own words; one
that stops being readable while it is shown is HTTP 503 (the server's trouble, not the request's).
Every read of the library runs in the gallery's own lane (:mod:`knightstour.web.lanes`, the
server's ``gallery`` lane): bounded, with back-pressure (a full lane is 503 with
``Retry-After``), dropped when the client goes, and never in the threads of quick answers.

- ``GET /api/palette``: the colours the pictures are drawn with (knightstour.render.style), so
  that the page's board and a downloaded picture match;
- ``GET /api/daily?date=YYYY-MM-DD``: the daily puzzle, the board and start of a date (UTC
  today by default), the same for everyone (:func:`knightstour.puzzle.daily_puzzle`);
- ``GET /api/about``: the version, and the library's name when the server shows one;
- ``GET /api/library``: boards and counts; ``GET /api/library/tours?board=&closed=&method=&
  magic=&order=&max_crossings=&max_turns=&after=&before=&limit=``: a page of tours; ``GET /api/library/tours/{id}``: one tour;
  ``GET /api/library/compare?a=&b=``: two tours and their shared moves; ``GET
  /api/library/magic-classes?board=``: the classes of the semi-magic tours held, by family.

>>> daily_puzzle(datetime.date(2026, 1, 1)) == daily_puzzle(datetime.date(2026, 1, 1))
True
>>> sorted(daily_puzzle(datetime.date(2026, 1, 1)))
['board', 'closed', 'date', 'height', 'start', 'width']
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import FileResponse, JSONResponse

from knightstour import __version__
from knightstour.errors import InvalidInputError
from knightstour.library.gallery import Gallery, LibraryUnreadable, TourFilter
from knightstour.library.store import MAX_ID
from knightstour.puzzle import DAILY_BOARDS, daily_puzzle
from knightstour.web.state import ServerDep

__all__ = ["DAILY_BOARDS", "add_routes", "daily_puzzle"]


class NoLibrary(InvalidInputError):
    """The server shows no tour library (HTTP 404)."""

    http_status = 404


#: The errors of the routes here, by status (their model is the app's ``{"error": "..."}``).
_ERRORS = {
    400: "bad input (the message names the problem)",
    404: "no such tour, or the server shows no library",
    422: "a malformed parameter",
    503: "the library cannot be read (damaged or removed)",
}


TriState = Literal["", "true", "false"]
BoardKeyQ = Annotated[
    str,
    Query(
        description="a board: spec (8x8) or key (8x8 wrap=torus holes=a1); empty: every board",
        pattern=r"^[a-zA-Z0-9:,=\- ]*$",
        max_length=4000,
    ),
]
MethodQ = Annotated[
    str,
    Query(description="the method's name; empty: any", pattern=r"^[a-z0-9_\-]*$", max_length=40),
]
KindQ = Annotated[TriState, Query(description="closed tours (true), open (false), or both")]
MagicQ = Annotated[
    TriState, Query(description="true: the semi-magic tours the magic search stored")
]
OrderQ = Annotated[
    Literal["id", "crossings", "turns"],
    Query(description="id (default), or crossings or turns: the fewest first, then by id"),
]
MostQ = Annotated[
    int | None, Query(ge=0, le=MAX_ID, description="at most this many (stored with each tour)")
]
CursorQ = Annotated[int | None, Query(ge=0, le=MAX_ID, description="a tour id (keyset cursor)")]
LimitQ = Annotated[int, Query(ge=1, le=100, description="tours a page")]
IdQ = Annotated[int, Query(ge=1, le=MAX_ID, description="a tour id")]


def add_routes(app: FastAPI, gallery: Gallery | None, static: Any, error_model: Any) -> None:
    """The palette, the daily puzzle, and (with a library) the gallery, on ``app``; their
    errors are published with the app's ``error_model``."""
    responses: dict[int | str, dict[str, Any]] = {
        status: {"model": error_model, "description": text} for status, text in _ERRORS.items()
    }

    @app.exception_handler(LibraryUnreadable)
    async def _unreadable(request: Request, exc: LibraryUnreadable) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.http_status)

    def shown() -> Gallery:
        """The library shown, or (none) :class:`NoLibrary`: HTTP 404 naming the option."""
        if gallery is None:
            raise NoLibrary(
                "this server shows no tour library: start it with knightstour serve --db FILE"
            )
        return gallery

    def cached(data: Any) -> JSONResponse:
        """A gallery answer: the library is read-only here, so the browser may keep it a
        minute (the thumbnails of a page seen before come back at once)."""
        return JSONResponse(data, headers={"Cache-Control": "public, max-age=60"})

    @app.get("/api/palette", tags=["api"])
    async def palette_() -> dict[str, Any]:
        """The colours of the pictures (knightstour.render.style): the page draws with them."""
        from knightstour.render.style import web_palette

        return web_palette()

    @app.get("/api/about", tags=["api"])
    async def about_() -> dict[str, Any]:
        """The version, and the name of the tour library shown (null: none)."""
        return {"version": __version__, "library": gallery.name if gallery else None}

    @app.get("/api/daily", tags=["api"], responses=responses)
    async def daily_(
        date: Annotated[
            str,
            Query(
                description="YYYY-MM-DD; empty: today (UTC)",
                pattern=r"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$",
            ),
        ] = "",
    ) -> dict[str, Any]:
        """The daily puzzle: the board and start of a date, the same for everyone."""
        if date:
            try:
                day = datetime.date.fromisoformat(date)
            except ValueError:
                raise InvalidInputError(f"date: {date!r} is not a date (YYYY-MM-DD)") from None
        else:
            day = datetime.datetime.now(datetime.UTC).date()
        return daily_puzzle(day)

    @app.get("/gallery", include_in_schema=False)
    async def gallery_page() -> FileResponse:
        return FileResponse(static / "gallery.html", media_type="text/html")

    async def read(request: Request, server: ServerDep, fn: Callable[[], Any]) -> JSONResponse:
        """``fn()`` (a read of the library) in the gallery's lane, and its answer made into
        JSON there too (a page of thumbnails is sizeable text: never on the event loop). The
        lane's workers each keep their own connection; a request that waits longer than the
        server's time cap is 503, like a search's."""
        shown()  # no library: 404 at once, without queueing
        deadline = time.monotonic() + server.limits.time_limit
        answer: JSONResponse = await server.run(
            request, None, lambda _remaining: cached(fn()), deadline, lane=server.lane("gallery")
        )
        return answer

    @app.get("/api/library", tags=["library"], responses=responses)
    async def library_(request: Request, server: ServerDep) -> JSONResponse:
        """The library: its boards (each kind apart) with their counts and methods."""
        return await read(request, server, lambda: shown().overview())

    @app.get("/api/library/tours", tags=["library"], responses=responses)
    async def library_tours_(
        request: Request,
        server: ServerDep,
        board: BoardKeyQ = "",
        closed: KindQ = "",
        method: MethodQ = "",
        magic: MagicQ = "",
        order: OrderQ = "id",
        max_crossings: MostQ = None,
        max_turns: MostQ = None,
        after: CursorQ = None,
        before: CursorQ = None,
        limit: LimitQ = 24,
    ) -> JSONResponse:
        """A page of tours in id order (or by their crossings or turns, the fewest first):
        ``after`` the last id of the page before (``next``), or ``before`` the first id of the
        page after (``prev``), not both. Each with a thumbnail's path, its crossings and turns."""
        if magic == "true":
            method = "magic"
        kind = None if closed == "" else closed == "true"
        kept = TourFilter(
            board.strip() or None, kind, method or None, order, max_crossings, max_turns
        )
        return await read(
            request,
            server,
            lambda: shown().page(kept, after=after or 0, before=before, limit=limit),
        )

    @app.get("/api/library/magic-classes", tags=["library"], responses=responses)
    async def library_magic_classes_(
        request: Request,
        server: ServerDep,
        board: Annotated[
            str, Query(description="the board (8x8)", pattern=r"^[0-9x]{1,9}$", max_length=9)
        ] = "8x8",
    ) -> JSONResponse:
        """The classes of semi-magic tours the library holds on a board: each class's canonical
        numbering, family and range, the tally by family, and the published census."""
        return await read(request, server, lambda: shown().magic_classes(board))

    @app.get("/api/library/tours/{tour_id}", tags=["library"], responses=responses)
    async def library_tour_(
        request: Request,
        server: ServerDep,
        tour_id: Annotated[int, Path(ge=1, le=MAX_ID, description="the tour's id")],
    ) -> JSONResponse:
        """One tour: the tour JSON of the contract, its metadata and its numbering's verdict."""
        return await read(request, server, lambda: shown().tour(tour_id))

    @app.get("/api/library/compare", tags=["library"], responses=responses)
    async def library_compare_(request: Request, server: ServerDep, a: IdQ, b: IdQ) -> JSONResponse:
        """Two tours of one board side by side: both, and the moves they share."""
        return await read(request, server, lambda: shown().compare(a, b))
