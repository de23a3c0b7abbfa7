"""The web board: a FastAPI app with the JSON API and the interactive page.

``knightstour serve`` runs :func:`create_app` under uvicorn. The API (its OpenAPI schema is at
``/openapi.json``, the docs at ``/docs``):

- ``GET /api/solve?board=8x8&start=a1&end=&closed=true&method=auto&tiebreak=&seed=``: the tour
  JSON of the contract, or ``{"width", "height", "exists": false|null, "reason"}`` (HTTP 200)
  when no tour exists (false) or the search gave up (null);
- ``GET /api/exists?board=5x5&start=b1``: the existence theory's answer and reason;
- ``GET /api/puzzle?board=5x5&path=a1,c2&closed=false``: puzzle mode's verdict on a partly
  built tour (won, stuck, lost, playing with a hint, unknown) and the legal next squares;
- ``GET /api/count?board=6x6&closed=true&start=&end=&directed=false``: the exact number of
  tours when it is known (a theorem's 0, a published figure, a count made before) or quick to
  count (:attr:`Limits.count_time_limit`); otherwise ``count`` null and the ``reason``;
- ``GET /api/numbers?board=6x6&level=easy&seed=7`` (or ``daily=true``): a number puzzle to
  play (its givens, not its solution); ``POST /api/numbers/check`` and ``/api/numbers/hint``
  with the puzzle and the player's entries: the wrong squares, the next deduction in words
  (:mod:`knightstour.web.routes.numbers`);
- ``POST /api/render/svg|png|gif`` with a tour JSON body: the picture, for downloads;
- ``GET /api/limits``: the limits below, so the page can tell the user;
- ``GET /api/palette``, ``/api/daily``, ``/api/about`` and, with a tour library
  (``create_app(library=...)``, ``knightstour serve --db``), the gallery's ``/api/library/...``
  and its page ``/gallery``: :mod:`knightstour.web.gallery`.

Bad input gets HTTP 400 (or 422 for a malformed parameter, 413 for a body over
:attr:`Limits.max_body_bytes`) and ``{"error": "..."}`` naming the problem. Answers that theory
gives are instant; every search runs in a worker thread (the compiled searches release the GIL)
of one of two lanes (:mod:`knightstour.web.lanes`): small boards in the quick lane, the rest in
the search lane, at most :attr:`Limits.workers` at once with :attr:`Limits.queue` waiting. A
request's deadline (its time cap) includes its wait; a full lane, or a deadline passed while
waiting, is HTTP 503 with ``Retry-After``; a request whose client went away is dropped. So one
slow request never blocks the others. Every tour that leaves the server has been validated
(:func:`knightstour.solve` and :meth:`knightstour.Tour.from_dict` check them).

The app is put together here from its parts: the routes, a module an area
(:mod:`knightstour.web.routes`), their query parameters (:mod:`~knightstour.web.queries`, the
board read by :func:`knightstour.board.parse_board`) and answers (:mod:`~knightstour.web.models`),
the errors' answers (:mod:`~knightstour.web.handlers`), and the state they share, one
:class:`~knightstour.web.state.Server` an app (:mod:`~knightstour.web.state`).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(warm=False))
>>> r = client.get("/api/solve", params={"board": "5x5", "start": "a1"})
>>> r.status_code, r.json()["path"][:3], len(r.json()["xy"])
(200, ['a1', 'c2', 'e1'], 25)
>>> client.get("/api/solve", params={"board": "4x4"}).json()["exists"]
False
>>> client.get("/api/solve", params={"board": "8x8", "start": "z9"}).json()
{'error': 'square z9 is off the 8x8 board (files a-h, ranks 1-8)'}
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from knightstour import __version__
from knightstour.web import handlers
from knightstour.web.models import ErrorOut
from knightstour.web.routes import count, numbers, pages, render, solve
from knightstour.web.state import Limits, Server, ensure_compiled

__all__ = ["Limits", "create_app"]


def create_app(
    limits: Limits | None = None,
    *,
    warm: bool = True,
    library: str | os.PathLike[str] | None = None,
) -> FastAPI:
    """The FastAPI app: the JSON API under ``/api``, the page at ``/``, static files.

    ``warm`` loads the searches' compiled kernels in a background thread at start-up
    (:func:`~knightstour.web.state.ensure_compiled`; a search that comes first waits for it
    within its time cap, and without ``warm`` the first search begins the loading).
    ``library``: a tour library to show in the gallery (``/gallery``, ``/api/library/...``); a
    file that is not one is refused here (:class:`~knightstour.errors.InvalidInputError`).

    >>> app = create_app(Limits(max_squares=400), warm=False)
    >>> app.state.server.limits.max_squares, "/api/solve" in app.openapi()["paths"]
    (400, True)
    """
    from knightstour.library.gallery import Gallery
    from knightstour.web.gallery import add_routes

    shown = Gallery(library) if library is not None else None
    server = Server(limits or Limits())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(
                target=ensure_compiled, name="knightstour-warm-up", daemon=True
            ).start()
        yield
        server.close()

    app = FastAPI(
        title="knightstour",
        version=__version__,
        summary="Knight's tours on any board: solve, explain, play.",
        description=(
            "The JSON API behind the interactive board. Squares are algebraic (`a1` is the "
            "bottom-left corner); boards are `WxH` (width by height) or `N`. Bad input gets "
            'HTTP 400 or 422 with `{"error": "..."}`.'
        ),
        lifespan=lifespan,
        docs_url=None,  # served by routes.pages from the package's files: /docs works offline
        redoc_url=None,
    )
    app.state.server = server
    handlers.add_handlers(app)
    app.include_router(pages.router)
    pages.add_files(app)
    add_routes(app, shown, pages.STATIC, ErrorOut)
    for area in (solve, count, render, numbers):
        app.include_router(area.router)
    return app
