"""``POST /api/render/svg|png|gif``: a tour JSON drawn as a picture, for downloads.

The body is read up to the server's ``max_body_bytes`` (:func:`read_body`) and parsed and
checked in a worker thread (:func:`parse_tour_body`), never on the event loop.
"""

from __future__ import annotations

import io
import json
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError

from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.notation import board_from_fields
from knightstour.tour import Tour
from knightstour.web.handlers import BodyTooLarge
from knightstour.web.models import ERRORS, ErrorOut, TourIn
from knightstour.web.queries import BoolText, capped, flag
from knightstour.web.state import ServerDep

__all__ = ["PICTURES", "parse_tour_body", "read_body", "router"]

router = APIRouter(tags=["api"])

#: The media type of each picture format.
PICTURES = {"svg": "image/svg+xml", "png": "image/png", "gif": "image/gif"}
#: A downloaded GIF: this long a frame, and about this many frames at most.
GIF_FRAME_MS, GIF_FRAMES = 120, 150


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


@router.post(
    "/api/render/{fmt}",
    response_class=Response,
    responses={
        **ERRORS,
        413: {"model": ErrorOut, "description": "the body is over the server's limit"},
        200: {
            "description": "the picture",
            "content": {t: {"schema": {"type": "string"}} for t in PICTURES.values()},
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
    server: ServerDep,
    fmt: Literal["svg", "png", "gif"],
    numbers: Annotated[BoolText, Query(description="move numbers on the squares")] = "false",
) -> Response:
    """The tour as a picture, SVG, PNG or animated GIF (validated first).

    The body (a tour JSON) is read up to the server's ``max_body_bytes`` (more: HTTP 413)
    and parsed and checked in a worker thread, never on the event loop.
    """
    lim = server.limits
    show_numbers = flag("numbers", numbers)
    raw = await read_body(request, lim.max_body_bytes)

    def parse(_remaining: float | None) -> tuple[Tour, Board]:
        data = parse_tour_body(raw).model_dump(mode="json", exclude_none=True)
        b = board_from_fields(data)  # the shape too: holes, leaper, wrap, layers
        capped(b, lim.max_squares, "drawing")
        if fmt == "gif":
            capped(b, lim.gif_max_squares, "an animated GIF")
        return Tour.from_dict(data), b

    quick = Board(1, 1)  # parsing is bounded by the body cap: the quick lane
    t, b = await server.run(request, quick, parse)

    def draw(_remaining: float | None) -> bytes:
        from knightstour import render

        if fmt == "svg":
            return render.tour_svg(t, numbers=show_numbers).encode()
        buf = io.BytesIO()
        if fmt == "png":
            render.write_png(t, buf, numbers=show_numbers)
        else:
            per = max(1, len(t) // GIF_FRAMES)
            render.write_gif(t, buf, frame_ms=GIF_FRAME_MS, moves_per_frame=per)
        return buf.getvalue()

    data = await server.run(request, b, draw)
    name = f"tour-{b.spec}-{t.start.replace(':', '-')}.{fmt}"  # c3:2 -> c3-2
    return Response(
        data,
        media_type=PICTURES[fmt],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
