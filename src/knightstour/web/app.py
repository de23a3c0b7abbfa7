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
slow request never blocks the others. Every tour that leaves the server has been validated (:func:`knightstour.solve` and
:meth:`knightstour.Tour.from_dict` check them).

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

import io
import json
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from knightstour import __version__
from knightstour.board import Board, parse_board
from knightstour.counting import QuickCounts
from knightstour.errors import InvalidInputError, KnightsTourError, NoTourError, SearchFailedError
from knightstour.notation import answer_dict, board_fields, board_from_fields
from knightstour.web.lanes import Busy, ClientGone, Lane

__all__ = ["Limits", "create_app"]

T = TypeVar("T")

STATIC = Path(str(resources.files("knightstour.web") / "static"))

MethodName = Literal["auto", "warnsdorff", "backtrack", "divide"]
TiebreakName = Literal["", "first", "center", "random", "lookahead", "squirrel"]
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("", "false", "0", "no", "off")
BoolText = Literal["", "true", "false", "1", "0", "yes", "no", "on", "off"]


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


# -- response and request models (for the OpenAPI schema) -------------------------------------


class TourOut(BaseModel):
    """A tour: the contract's tour JSON."""

    width: int
    height: int
    depth: int | None = Field(None, description="layers of a 3-D board (absent: flat)")
    leaper: list[int] | None = Field(None, description="the piece's legs a, b (absent: knight)")
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = Field(None, description="squares removed from the board")
    closed: bool
    method: str
    path: list[str] = Field(description="squares in visit order, algebraic (a1 bottom-left)")
    xy: list[tuple[int, int] | tuple[int, int, int]] = Field(
        description="zero-based [x, y] pairs ([x, y, z] on 3-D boards) in visit order"
    )


class PartialOut(BaseModel):
    """How far a search that gave up got: the squares it visited, in order."""

    path: list[str] = Field(description="squares in visit order, algebraic")
    xy: list[tuple[int, int]] = Field(description="zero-based [x, y] pairs in visit order")


class NoTourOut(BaseModel):
    """No tour: ``exists`` is false when none exists (proved), null when the search gave up.

    A search that gave up may carry its ``partial`` path.
    """

    width: int
    height: int
    depth: int | None = None
    leaper: list[int] | None = None
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = None
    exists: bool | None
    reason: str
    partial: PartialOut | None = None


class ExistsOut(BaseModel):
    """The existence theory's answer: true, false or null (no theorem decides) and why."""

    width: int
    height: int
    depth: int | None = None
    leaper: list[int] | None = None
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = None
    exists: bool | None
    reason: str


class PuzzleOut(BaseModel):
    """Puzzle mode's verdict on a partly built tour."""

    width: int
    height: int
    depth: int | None = None
    leaper: list[int] | None = None
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = None
    closed: bool
    path: list[str]
    status: Literal["playing", "won", "stuck", "lost", "unknown"]
    hint: str | None = Field(description="a next square from which a full tour can be completed")
    moves: list[str] = Field(description="the legal next squares")
    reason: str


class CountOut(BaseModel):
    """The number of tours, when it is known or quick to count; else ``count`` null and why.

    A shaped board's answer also carries its ``depth``, ``leaper``, ``wrap`` or ``holes``.
    """

    width: int
    height: int
    depth: int | None = None
    leaper: list[int] | None = None
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = None
    kind: Literal["closed", "open"]
    start: str | None
    end: str | None
    directed: bool
    count: int | None = Field(description="the exact number of tours; null: not counted here")
    count_text: str | None = Field(
        description="the number in decimal digits (exact in JavaScript, whatever its size)"
    )
    convention: str = Field(description="what the number counts, in words")
    known: bool = Field(description="whether the number is given")
    source: Literal["theory", "published", "computed"] | None = Field(
        description="theory: no tour can exist; published: a figure from the literature; "
        "computed: counted by this server (now or earlier)"
    )
    cached: bool = Field(description="counted by this server for an earlier request")
    method: str | None
    seconds: float | None = Field(description="how long the count took")
    reason: str | None = Field(description="why the number is not given, or where it is from")


class ErrorOut(BaseModel):
    """Bad input: the message names the problem."""

    error: str


class TourIn(BaseModel):
    """A tour to draw: the contract's tour JSON (``path`` or ``xy``), on any board shape."""

    width: int
    height: int
    depth: int | None = None
    leaper: list[int] | None = None
    wrap: Literal["cylinder", "torus"] | None = None
    holes: list[str] | None = None
    closed: bool = False
    method: str = ""
    path: list[str] | None = None
    xy: list[tuple[int, int] | tuple[int, int, int]] | None = None

    @field_validator("xy")
    @classmethod
    def _xy_fits_the_layers(cls, xy: list[tuple[int, ...]] | None, info: ValidationInfo) -> Any:
        """[x, y] pairs on a flat board, [x, y, z] triples on a 3-D one (``depth`` > 1)."""
        depth = info.data.get("depth") or 1
        want, shape = (3, "[x, y, z] triples") if depth > 1 else (2, "[x, y] pairs")
        for k, item in enumerate(xy or ()):
            if len(item) != want:
                raise ValueError(
                    f"item {k + 1} is {list(item)}: a board of depth {depth} has {shape}"
                )
        return xy


_BUSY = {
    "model": ErrorOut,
    "description": "the server is busy (try again after Retry-After seconds)",
    "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}},
}
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "bad input (the message names the problem)"},
    422: {"model": ErrorOut, "description": "a malformed parameter"},
    503: _BUSY,
}

#: Formats of the text parameters: enforced (HTTP 422 naming the parameter) and published in
#: the schema. What a format cannot say (a square on the board, the size caps) is checked after,
#: with HTTP 400.
BOARD_PATTERN = r"^ *[0-9]{1,10} *([xX×*] *[0-9]{1,10}( *[xX×*] *[0-9]{1,10})?)? *$"
SQUARE_PATTERN = (
    r"^ *([a-zA-Z]{1,4}[0-9]{1,6}(:[0-9]{1,6})?"
    r"|\(? *-?[0-9]{1,6} *, *-?[0-9]{1,6}( *, *-?[0-9]{1,6})? *\)?)? *$"
)
HOLES_PATTERN = r"^[a-zA-Z0-9:, ]*$"
LEAPER_PATTERN = r"^ *([a-zA-Z]{0,12}|[0-9]{1,3} *, *[0-9]{1,3}) *$"
PATH_PATTERN = r"^[a-zA-Z0-9:, ]*$"
SEED_PATTERN = r"^ *[0-9]{0,19} *$"
#: What each formatted parameter should be, for the 422 message.
FORMATS = {
    "board": "a board spec: WxH (width x height) like 8x8, WxHxD like 4x4x4, or N",
    "holes": "squares like d4,e5 separated by commas",
    "corners": "a whole number of squares, like 2",
    "mask": "ranks top first separated by /, '.' a square and '#' a hole, like .#./...",
    "leaper": "a leaper's name (knight, camel, zebra, giraffe, antelope) or legs like 1,3",
    "start": "a square: algebraic like c3, or zero-based x,y",
    "end": "a square: algebraic like c3, or zero-based x,y",
    "path": "squares like a1,c2,e3 (c3:2 on a 3-D board) separated by commas",
    "seed": "a non-negative integer below 10**19",
}


def _shaped(
    board: str, holes: str, leaper: str, wrap: str, corners: str = "", mask: str = ""
) -> Board:
    """The board of the query: its spec, holes, leaper, wrap, rounded corners and mask (the
    mask's ranks top first, separated by ``/``; it must draw the board's size). Bad ones: 400.

    >>> _shaped("3x2", "", "", "", "", ".#./...").holes, _shaped("4x4", "", "", "", "1", "").spec
    (frozenset({4}), '4x4')
    """
    from dataclasses import replace

    from knightstour.board import parse_leaper

    b = parse_board(board)
    if not (holes.strip() or leaper.strip() or wrap or corners.strip() or mask.strip()):
        return b
    options: dict[str, Any] = {"depth": b.depth}
    if leaper.strip():
        options["leaper"] = parse_leaper(leaper)
    if wrap:
        options["wrap"] = wrap
    if mask.strip():
        drawn = Board.from_mask(mask.replace("/", "\n"), **options)
        if (drawn.width, drawn.height, b.depth) != (b.width, b.height, 1):
            raise InvalidInputError(f"the mask draws a {drawn.spec} board, not {b.spec}")
        b = drawn
    else:
        b = Board(b.width, b.height, **options)
    names = [h for h in holes.replace(" ", ",").split(",") if h]
    if names:
        extra = {b.parse_square(h, argument="hole") for h in names}
        b = replace(b, holes=frozenset(b.holes | extra))
    if corners.strip():
        b = b.with_corners(int(corners))
    return b


def _text(description: str, pattern: str, example: str | None = None, longest: int = 40) -> Any:
    """A text query parameter whose format is enforced (HTTP 422) and published in the schema."""
    examples = None if example is None else [example]
    q = Query(description=description, examples=examples, pattern=pattern, max_length=longest)
    return Annotated[str, q]


BoardQ = _text("board spec WxH (width x height), WxHxD or N", BOARD_PATTERN, "8x8")
HolesQ = _text("squares removed from the board, comma-separated", HOLES_PATTERN, "d4,e5", 4000)
LeaperQ = _text("the piece: a name or legs a,b; empty: the knight", LEAPER_PATTERN, "zebra")
CornersQ = _text(
    "cut the four corners, rounded by R squares; empty: none", r"^ *[0-9]{0,4} *$", "2"
)
MaskQ = _text(
    "the board's shape: ranks top first separated by /, '.' a square, '#' a hole (the board "
    "spec must match its size)",
    r"^[.# /]*$",
    ".#./...",
    40_000,
)
WrapQ = Annotated[
    Literal["", "cylinder", "torus"],
    Query(description="moves wrap round the left and right edges, or every edge"),
]
StartQ = _text("start square, algebraic (a1) or zero-based x,y; empty: any", SQUARE_PATTERN)
EndQ = _text("end square; empty: any", SQUARE_PATTERN)
SeedQ = _text("seed for random tie-breaks; empty: none", SEED_PATTERN, "7")
PathQ = _text("the squares visited so far, comma-separated", PATH_PATTERN, "a1,c2", 4000)
ClosedQ = Annotated[BoolText, Query(description="ask for a closed tour")]
MethodQ = Annotated[MethodName, Query(description="solving method")]
TiebreakQ = Annotated[TiebreakName, Query(description="Warnsdorff tie-break")]
TimeLimitQ = Annotated[
    float | None, Query(gt=0, description="seconds; capped by the server's time limit")
]
ChallengeQ = Annotated[BoolText, Query(description="the closed-tour challenge")]
CountClosedQ = Annotated[BoolText, Query(description="count closed tours (default open)")]
DirectedQ = Annotated[
    BoolText, Query(description="count each tour once per direction (false: each path once)")
]
NumbersQ = Annotated[BoolText, Query(description="move numbers on the squares")]

_PICTURES = {"svg": "image/svg+xml", "png": "image/png", "gif": "image/gif"}


# -- helpers ----------------------------------------------------------------------------------


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _whole(value: float) -> int | float:
    """``value`` as an int when it is whole (limits print as 5, not 5.0).

    >>> _whole(5.0), _whole(0.5), _whole(8)
    (5, 0.5, 8)
    """
    return int(value) if float(value).is_integer() else value


def _malformed_message(errors: Any) -> str:
    """One line naming every malformed field of a request (pydantic's errors)."""
    parts = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ())]
        if loc and loc[0] in ("query", "path", "body"):  # where it came from, not what
            loc = loc[1:]
        where = ".".join(loc) or "request"
        if err.get("type") == "string_pattern_mismatch" and where in FORMATS:
            parts.append(f"{where}: {err.get('input')!r} is not {FORMATS[where]}")
        else:
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "malformed request"


class BodyTooLarge(KnightsTourError):
    """A request body over :attr:`Limits.max_body_bytes` (HTTP 413)."""

    http_status = 413


async def read_body(request: Request, cap: int) -> bytes:
    """The request's body, refused (:class:`BodyTooLarge`) as soon as it passes ``cap`` bytes.

    A ``Content-Length`` over the cap is refused before a byte is read; a body sent in chunks
    is counted as it comes, so memory never holds more than ``cap`` bytes.
    """
    declared = request.headers.get("content-length")
    too_large = f"the request body is larger than the {cap:,} bytes the server takes"
    if declared is not None:
        if not declared.strip().isdigit():
            raise InvalidInputError(f"Content-Length must be a number of bytes, got {declared!r}")
        if int(declared) > cap:
            raise BodyTooLarge(too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise BodyTooLarge(too_large)
        chunks.append(chunk)
    return b"".join(chunks)


def parse_tour_body(raw: bytes) -> TourIn:
    """A render request's body as a :class:`TourIn` (run in a worker: never on the event loop).

    Not JSON, or JSON nested too deep, is :class:`InvalidInputError` (HTTP 400); JSON of the
    wrong shape is :class:`RequestValidationError` (HTTP 422) naming the fields.

    >>> parse_tour_body(b'{"width": 5, "height": 5, "path": ["a1"]}').path
    ['a1']
    >>> parse_tour_body(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the body is not JSON: nested too deeply
    """
    try:
        data = json.loads(raw)
    except RecursionError:
        raise InvalidInputError("the body is not JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidInputError(f"the body is not JSON: {str(e).splitlines()[0]}") from None
    try:
        return TourIn.model_validate(data)
    except ValidationError as e:
        raise RequestValidationError(e.errors(include_url=False)) from None


def _flag(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise InvalidInputError(f"{name} must be true or false, got {text!r}")


def _opt(text: str | None) -> str | None:
    return text.strip() if text and text.strip() else None


def _seed(text: str) -> int | None:
    value = text.strip()
    if not value:
        return None
    if not value.isascii() or not value.isdigit():
        raise InvalidInputError(f"seed must be a non-negative integer, got {text!r}")
    if len(value) > 19:
        raise InvalidInputError(f"seed must be below 10**19, got {value}")
    return int(value)


def _capped(board: Board, cap: int, what: str) -> None:
    if board.size > cap:
        raise InvalidInputError(
            f"board {board.spec} has {board.size:,} squares, more than the {cap:,} that {what} "
            f"takes (use the command line, knightstour solve, for larger boards)"
        )


_compiled = threading.Event()
_compiling = threading.Lock()


def ensure_compiled() -> None:
    """Load the searches' compiled kernels once per process: the solver steps of
    :func:`knightstour.warm.warm` (:data:`~knightstour.warm.SOLVER_STEPS`).

    Called in a background thread at start-up and before every search, so that a time cap
    bounds the search and not the loading: without it the first request after start-up could
    give up before it began. The install step (``knightstour warm``) has filled the cache, so
    this loads it (under a second); on an install that skipped it, it compiles them first. A
    failure is logged, never a request's error: the search itself says what is wrong.
    """
    if _compiled.is_set():
        return
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


def _warm_up() -> None:
    """Load the searches' kernels in the background so that the first request does not wait."""
    ensure_compiled()


def _mount_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the ``swagger-ui-bundle`` package's files, never a CDN.

    Without that package, a plain page that lists the operations of ``/openapi.json`` (still
    offline).
    """
    from fastapi.openapi.docs import get_swagger_ui_html

    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:  # pragma: no cover - the web extra installs it
        swagger_ui_path = None

    if swagger_ui_path is not None:
        app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

        @app.get("/docs", include_in_schema=False)
        async def docs() -> HTMLResponse:
            return get_swagger_ui_html(
                openapi_url="openapi.json",
                title="knightstour: API documentation",
                swagger_js_url="docs/assets/swagger-ui-bundle.js",
                swagger_css_url="docs/assets/swagger-ui.css",
                swagger_favicon_url="docs/assets/favicon-32x32.png",
            )

        return

    @app.get("/docs", include_in_schema=False)
    async def plain_docs() -> HTMLResponse:  # pragma: no cover - the web extra has Swagger UI
        from html import escape

        rows = []
        for path, item in app.openapi()["paths"].items():
            for method, op in item.items():
                summary = escape(str(op.get("summary", "")))
                rows.append(f"<li><code>{method.upper()} {escape(path)}</code> {summary}</li>")
        return HTMLResponse(
            "<!doctype html><title>knightstour API</title><h1>knightstour API</h1>"
            f'<ul>{"".join(rows)}</ul><p><a href="openapi.json">OpenAPI schema</a></p>'
        )


# -- the app ----------------------------------------------------------------------------------


def create_app(
    limits: Limits | None = None,
    *,
    warm: bool = True,
    library: str | os.PathLike[str] | None = None,
) -> FastAPI:
    """The FastAPI app: the JSON API under ``/api``, the page at ``/``, static files.

    ``warm`` loads the searches' compiled kernels in a background thread at start-up
    (:func:`ensure_compiled`; a search that comes first waits for it). ``library``: a tour
    library to show in the gallery (``/gallery``, ``/api/library/...``); a file that is not one
    is refused here (:class:`~knightstour.errors.InvalidInputError`).

    >>> app = create_app(Limits(max_squares=400), warm=False)
    >>> app.state.limits.max_squares, "/api/solve" in app.openapi()["paths"]
    (400, True)
    """
    lim = limits or Limits()
    from knightstour.library.gallery import Gallery
    from knightstour.web.gallery import add_routes

    shown = Gallery(library) if library is not None else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=_warm_up, name="knightstour-warm-up", daemon=True).start()
        yield
        lanes, app.state.lanes = app.state.lanes, None
        for lane in (lanes or {}).values():
            lane.close()

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
        docs_url=None,  # served below from the package's files: /docs works offline
        redoc_url=None,
    )
    app.state.limits = lim
    app.state.lanes = None
    app.state.counts = QuickCounts(
        time_limit=lim.count_time_limit,
        max_side=lim.count_max_side,
        max_squares=lim.count_max_squares,
    )

    def lane_for(board: Board) -> Lane:
        """The quick lane for small boards, the search lane for the rest (made when first used)."""
        if app.state.lanes is None:
            retry = max(1.0, lim.time_limit / 2)
            app.state.lanes = {
                "quick": Lane("quick", workers=lim.quick_workers, queue=lim.queue),
                "search": Lane(
                    "searches", workers=lim.workers, queue=lim.queue, nice=10, retry_after=retry
                ),
                # one count at a time, at a low priority: counts never starve the searches
                "count": Lane(
                    "counts", workers=1, queue=8, nice=10, retry_after=lim.count_time_limit
                ),
            }
        return app.state.lanes["quick" if board.size <= lim.quick_squares else "search"]

    def count_lane() -> Lane:
        """The lane of /api/count (made with the others when first used)."""
        lane_for(Board(1, 1))
        return app.state.lanes["count"]

    async def in_worker(
        request: Request,
        board: Board,
        fn: Callable[[float | None], T],
        deadline: float | None = None,
        lane: Lane | None = None,
    ) -> T:
        """``fn(remaining seconds)`` in a worker of ``lane`` (default: ``board``'s lane),
        dropped if the client goes."""

        async def gone() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass

        return await (lane or lane_for(board)).run(fn, deadline=deadline, gone=gone)

    # -- errors, always {"error": "..."} ------------------------------------------------------

    @app.exception_handler(KnightsTourError)
    async def _bad_input(request: Request, exc: KnightsTourError) -> JSONResponse:
        if exc.http_status >= 500:
            return _error(exc.http_status, f"internal error ({exc}); please report it")
        status = exc.http_status if exc.http_status >= 400 else 400
        return _error(status, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    @app.exception_handler(RequestValidationError)
    async def _malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, _malformed_message(exc.errors()))

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        return _error(503, str(exc), {"Retry-After": str(exc.retry_after)})

    @app.exception_handler(ClientGone)
    async def _gone(request: Request, exc: ClientGone) -> Response:
        return Response(status_code=499)  # nobody is listening; uvicorn drops it

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        return JSONResponse(
            {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error ({type(exc).__name__}); please report it")

    # -- the page -----------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _mount_docs(app)
    add_routes(app, shown, STATIC, ErrorOut)

    # -- the API ------------------------------------------------------------------------------

    def api_get(path: str, model: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """``@app.get`` for an operation of the JSON API: tagged, its answer and errors typed."""
        return app.get(path, tags=["api"], response_model=model, responses=_ERRORS)

    @app.get("/api/limits", tags=["api"])
    async def limits_() -> dict[str, int | float]:
        """The server's limits: board caps (squares), time caps (seconds), workers, queue."""
        return {k: _whole(v) for k, v in asdict(lim).items()}

    @app.get(
        "/api/solve",
        tags=["api"],
        response_model=TourOut | NoTourOut,
        responses={**_ERRORS, 200: {"description": "a tour, or why there is none"}},
    )
    async def solve_(
        request: Request,
        board: BoardQ,
        start: StartQ = "",
        end: EndQ = "",
        closed: ClosedQ = "false",
        holes: HolesQ = "",
        leaper: LeaperQ = "",
        wrap: WrapQ = "",
        corners: CornersQ = "",
        mask: MaskQ = "",
        method: MethodQ = "auto",
        tiebreak: TiebreakQ = "",
        seed: SeedQ = "",
        time_limit: TimeLimitQ = None,
    ) -> Response:
        """A tour (the contract's tour JSON), or why there is none (HTTP 200, exists false/null).

        Boards above the server's ``max_squares`` are refused; the search stops at the time cap,
        counted from the request's arrival (a wait for a worker included). When theory says no,
        the answer is instant; a search that gave up carries its ``partial`` path.
        """
        import knightstour as kt
        from knightstour.existence import exists

        arrived = time.monotonic()
        b = _shaped(board, holes, leaper, wrap, corners, mask)
        _capped(b, lim.max_squares, "the web board")
        s, e = _opt(start), _opt(end)
        if s is not None:
            b.parse_square(s)
        if e is not None:
            b.parse_square(e)
        want_closed = _flag("closed", closed)
        sd = _seed(seed)
        cap = lim.time_limit if time_limit is None else min(time_limit, lim.time_limit)
        t0 = time.perf_counter()
        theory = exists(b, s, end=e, closed=want_closed, search=False)
        if theory.exists is False:  # instant: never queued behind searches
            ms = (time.perf_counter() - t0) * 1000
            data = answer_dict(b, False, theory.reason)
            return JSONResponse(data, headers={"Server-Timing": f"theory;dur={ms:.1f}"})

        def work(_remaining: float | None) -> dict[str, Any]:
            ensure_compiled()
            try:
                tour = kt.solve(
                    b, s, end=e, closed=want_closed, method=method, tiebreak=tiebreak or None,
                    seed=sd, time_limit=max(0.001, min(cap, arrived + cap - time.monotonic())),
                )  # fmt: skip
            except NoTourError as err:
                return answer_dict(b, False, err.reason)
            except SearchFailedError as err:
                return answer_dict(b, None, str(err), partial=err.partial)
            return tour.to_dict()

        # the lane refuses a request still waiting when the server's cap has passed; the
        # search gets what is left of the request's own cap (a wait for a worker included)
        data = await in_worker(request, b, work, arrived + lim.time_limit)
        ms = (time.perf_counter() - t0) * 1000
        return JSONResponse(data, headers={"Server-Timing": f"solve;dur={ms:.1f}"})

    @api_get("/api/exists", ExistsOut)
    async def exists_(
        board: BoardQ,
        start: StartQ = "",
        end: EndQ = "",
        closed: ClosedQ = "false",
        holes: HolesQ = "",
        leaper: LeaperQ = "",
        wrap: WrapQ = "",
        corners: CornersQ = "",
        mask: MaskQ = "",
    ) -> JSONResponse:
        """Whether a tour exists, by theorems and parity alone (null: the search must decide)."""
        from knightstour.existence import exists

        b = _shaped(board, holes, leaper, wrap, corners, mask)
        answer = exists(b, _opt(start), end=_opt(end), closed=_flag("closed", closed), search=False)
        return JSONResponse(answer_dict(b, answer.exists, answer.reason))

    @api_get("/api/puzzle", PuzzleOut)
    async def puzzle_(
        request: Request,
        board: BoardQ,
        path: PathQ = "",
        closed: ChallengeQ = "false",
        holes: HolesQ = "",
        leaper: LeaperQ = "",
        wrap: WrapQ = "",
        corners: CornersQ = "",
        mask: MaskQ = "",
    ) -> JSONResponse:
        """Puzzle mode: is the position won, lost or still open, and a next move that can win.

        The hint and the verdict "lost" come from the exact search on the unvisited squares,
        stopped at the hint time cap (then the status is "unknown").
        """
        from knightstour.puzzle import assess, legal_moves, parse_position

        arrived = time.monotonic()
        b = _shaped(board, holes, leaper, wrap, corners, mask)
        _capped(b, lim.puzzle_max_squares, "puzzle mode")
        pos = parse_position(b, path, _flag("closed", closed))

        def work(remaining: float | None) -> Any:
            ensure_compiled()
            return assess(pos, time_limit=min(lim.hint_time_limit, remaining or lim.time_limit))

        verdict = await in_worker(request, b, work, arrived + lim.hint_time_limit)
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

    @api_get("/api/count", CountOut)
    async def count_(
        request: Request,
        board: BoardQ,
        closed: CountClosedQ = "false",
        start: StartQ = "",
        end: EndQ = "",
        directed: DirectedQ = "true",
        holes: HolesQ = "",
        leaper: LeaperQ = "",
        wrap: WrapQ = "",
        corners: CornersQ = "",
        mask: MaskQ = "",
    ) -> JSONResponse:
        """The exact number of tours when it is known or quick to count; else null, and why.

        The policy is :class:`knightstour.counting.QuickCounts`: 0 when a theorem says no tour
        exists, a count this server made before, or a count made now: boards up to
        ``count_max_side`` squares on the short side and ``count_max_squares`` squares, counted
        within ``count_time_limit`` seconds (one count at a time, at a low priority, so that
        searches come first; a count waits at most twice that for its turn, then HTTP 503).
        Beyond that, a published figure (8x8, 7x8 closed, 7x7 open, ...: ``source``
        "published", the source named in ``reason``); else null with the reason, and a count
        that needed longer is not tried again. ``convention`` says in words what the number
        counts (the conventions of ``knightstour count``).

        The board may be shaped (``holes``, ``leaper``; docs/boards.md) within the same limits.
        A board the counting does not cover (wrapped, or in layers) answers null with the
        counting's own reason.
        """
        arrived = time.monotonic()
        b = _shaped(board, holes, leaper, wrap, corners, mask)
        counts = app.state.counts
        found = counts.ask(
            b,
            closed=_flag("closed", closed),
            start=_opt(start),
            end=_opt(end),
            directed=_flag("directed", directed),
        )
        if found.pending:  # one count at a time, waiting at most twice its budget (then 503)
            pending, deadline = found, arrived + 2 * lim.count_time_limit
            found = await in_worker(
                request, b, lambda _r: counts.finish(pending), deadline, lane=count_lane()
            )
        return JSONResponse({**board_fields(b), **found.to_dict()})

    @app.post(
        "/api/render/{fmt}",
        tags=["api"],
        response_class=Response,
        responses={
            **_ERRORS,
            413: {"model": ErrorOut, "description": "the body is over the server's limit"},
            200: {
                "description": "the picture",
                "content": {t: {"schema": {"type": "string"}} for t in _PICTURES.values()},
            },
        },
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": "the tour JSON",
                "content": {"application/json": {"schema": TourIn.model_json_schema()}},
            }
        },
    )
    async def render_(
        request: Request,
        fmt: Literal["svg", "png", "gif"],
        numbers: NumbersQ = "false",
    ) -> Response:
        """The tour as a picture, SVG, PNG or animated GIF (validated first).

        The body (a tour JSON) is read up to the server's ``max_body_bytes`` (more: HTTP 413)
        and parsed and checked in a worker thread, never on the event loop.
        """
        show_numbers = _flag("numbers", numbers)
        raw = await read_body(request, lim.max_body_bytes)
        holder: dict[str, Board] = {}

        def parse() -> Any:
            from knightstour.tour import Tour

            tour = parse_tour_body(raw)
            data = tour.model_dump(mode="json", exclude_none=True)
            b = board_from_fields(data)  # the shape too: holes, leaper, wrap, layers
            _capped(b, lim.max_squares, "drawing")
            if fmt == "gif":
                _capped(b, lim.gif_max_squares, "an animated GIF")
            holder["board"] = b
            return Tour.from_dict(data)

        quick = Board(1, 1)  # parsing is bounded by the body cap: the quick lane
        t = await in_worker(request, quick, lambda _remaining: parse())
        b = holder["board"]

        def draw(_remaining: float | None) -> bytes:
            from knightstour import render

            if fmt == "svg":
                return render.tour_svg(t, numbers=show_numbers).encode()
            buf = io.BytesIO()
            if fmt == "png":
                render.write_png(t, buf, numbers=show_numbers)
            else:
                per = max(1, len(t) // 150)
                render.write_gif(t, buf, frame_ms=120, moves_per_frame=per)
            return buf.getvalue()

        data = await in_worker(request, b, draw)
        name = f"tour-{b.spec}-{t.start.replace(':', '-')}.{fmt}"  # c3:2 -> c3-2
        return Response(
            data,
            media_type=_PICTURES[fmt],
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    return app
