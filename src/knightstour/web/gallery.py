"""The web board's extras: the palette, the daily puzzle, and the tour library's gallery.

``knightstour serve --db tours.db`` adds the gallery: the page ``/gallery`` and its JSON twins
under ``/api/library`` (read-only, keyset-paginated, :mod:`knightstour.library.gallery`). A file
that is not a tour library is refused when the server starts, with the library's own words.

- ``GET /api/palette``: the colours the pictures are drawn with (knightstour.render.style), so
  that the page's board and a downloaded picture match;
- ``GET /api/daily?date=YYYY-MM-DD``: the daily puzzle, the board and start of a date (UTC
  today by default), the same for everyone;
- ``GET /api/about``: the version, and the library's name when the server shows one;
- ``GET /api/library``: boards and counts; ``GET /api/library/tours?board=&closed=&method=&
  magic=&after=&before=&limit=``: a page of tours; ``GET /api/library/tours/{id}``: one tour;
  ``GET /api/library/compare?a=&b=``: two tours and their shared moves.

>>> daily_puzzle(datetime.date(2026, 1, 1)) == daily_puzzle(datetime.date(2026, 1, 1))
True
>>> sorted(daily_puzzle(datetime.date(2026, 1, 1)))
['board', 'closed', 'date', 'height', 'start', 'width']
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel

from knightstour import __version__
from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.library.gallery import Gallery
from knightstour.library.store import MAX_ID

__all__ = ["DAILY_BOARDS", "add_routes", "daily_puzzle"]

#: The boards a daily puzzle is drawn from (small enough for the exact search behind hints).
DAILY_BOARDS = ((5, 5), (6, 6), (7, 7), (8, 8))


class ErrorOut(BaseModel):
    error: str


_ERRS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "bad input (the message names the problem)"},
    404: {"model": ErrorOut, "description": "no such tour, or the server shows no library"},
    422: {"model": ErrorOut, "description": "a malformed parameter"},
}


def daily_puzzle(date: datetime.date) -> dict[str, Any]:
    """The puzzle of ``date``: a board of :data:`DAILY_BOARDS` and a start from which the
    theorems say an open tour exists, both from a hash of the date (no state, no clock)."""
    from knightstour.existence import exists

    h = int.from_bytes(hashlib.sha256(f"knightstour daily {date.isoformat()}".encode()).digest())
    w, ht = DAILY_BOARDS[h % len(DAILY_BOARDS)]
    b = Board(w, ht)
    starts = [s for s in range(b.area) if exists(b, s, search=False).exists is True]
    start = starts[(h // len(DAILY_BOARDS)) % len(starts)]
    return {
        "date": date.isoformat(),
        "board": f"{w}x{ht}",
        "width": w,
        "height": ht,
        "start": b.square_name(start),
        "closed": False,
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
CursorQ = Annotated[int | None, Query(ge=0, le=MAX_ID, description="a tour id (keyset cursor)")]
LimitQ = Annotated[int, Query(ge=1, le=100, description="tours a page")]
IdQ = Annotated[int, Query(ge=1, le=MAX_ID, description="a tour id")]


def add_routes(app: FastAPI, gallery: Gallery | None, static: Any) -> None:
    """The palette, the daily puzzle, and (with a library) the gallery, on ``app``."""

    def need() -> Gallery:
        if gallery is None:
            raise InvalidInputError(
                "this server shows no tour library: start it with knightstour serve --db FILE"
            )
        return gallery

    def cached(data: Any) -> JSONResponse:
        """A gallery answer: the library is read-only here, so the browser may keep it a
        minute (the thumbnails of a page seen before come back at once)."""
        return JSONResponse(data, headers={"Cache-Control": "public, max-age=60"})

    def none_here() -> JSONResponse:
        return JSONResponse(
            {
                "error": "this server shows no tour library: start it with knightstour serve --db FILE"
            },
            status_code=404,
        )

    @app.get("/api/palette", tags=["api"])
    async def palette_() -> dict[str, Any]:
        """The colours of the pictures (knightstour.render.style): the page draws with them."""
        from knightstour.render.style import web_palette

        return web_palette()

    @app.get("/api/about", tags=["api"])
    async def about_() -> dict[str, Any]:
        """The version, and the name of the tour library shown (null: none)."""
        return {"version": __version__, "library": gallery.name if gallery else None}

    @app.get("/api/daily", tags=["api"], responses=_ERRS)
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

    @app.get("/api/library", tags=["library"], responses=_ERRS)
    def library_() -> Any:
        """The library: its boards (each kind apart) with their counts and methods."""
        if gallery is None:
            return none_here()
        return cached(need().overview())

    @app.get("/api/library/tours", tags=["library"], responses=_ERRS)
    def library_tours_(
        board: BoardKeyQ = "",
        closed: KindQ = "",
        method: MethodQ = "",
        magic: MagicQ = "",
        after: CursorQ = None,
        before: CursorQ = None,
        limit: LimitQ = 24,
    ) -> Any:
        """A page of tours in id order: ``after`` the last id of the page before (``next``), or
        ``before`` the first id of the page after (``prev``). Each with a thumbnail's path."""
        if gallery is None:
            return none_here()
        if magic == "true":
            method = "magic"
        kind = None if closed == "" else closed == "true"
        return cached(need().page(
            board.strip() or None, kind, method or None,
            after=after or 0, before=before, limit=limit,
        ))  # fmt: skip

    @app.get("/api/library/tours/{tour_id}", tags=["library"], responses=_ERRS)
    def library_tour_(
        tour_id: Annotated[int, Path(ge=1, le=MAX_ID, description="the tour's id")],
    ) -> Any:
        """One tour: the tour JSON of the contract, its metadata and its numbering's verdict."""
        if gallery is None:
            return none_here()
        try:
            return cached(need().tour(tour_id))
        except InvalidInputError as e:
            if str(e).startswith("no tour"):
                return JSONResponse({"error": str(e)}, status_code=404)
            raise

    @app.get("/api/library/compare", tags=["library"], responses=_ERRS)
    def library_compare_(a: IdQ, b: IdQ) -> Any:
        """Two tours of one board side by side: both, and the moves they share."""
        if gallery is None:
            return none_here()
        try:
            return cached(need().compare(a, b))
        except InvalidInputError as e:
            if str(e).startswith("no tour"):
                return JSONResponse({"error": str(e)}, status_code=404)
            raise
