"""The web API's errors: always ``{"error": "..."}``, with the status the error carries.

The library's errors carry their HTTP status (:attr:`~knightstour.errors.KnightsTourError.http_status`:
bad input 400; a number puzzle not made within the time cap 503, with ``Retry-After``); a
malformed parameter is 422 naming every field; a full lane is 503 with ``Retry-After``; anything
else is a bug, 500.

>>> malformed_message([{"loc": ("query", "seed"), "type": "string_pattern_mismatch", "input": "x"}])
"seed: 'x' is not a non-negative integer below 10**19"
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from knightstour.errors import KnightsTourError
from knightstour.web.lanes import Busy, ClientGone
from knightstour.web.queries import FORMATS

__all__ = [
    "HEAD_BYTES",
    "MAX_HEADER_BYTES",
    "MAX_URL_BYTES",
    "BodyTooLarge",
    "HeadLimits",
    "add_handlers",
    "malformed_message",
]

#: The longest URL (path and query) answered; longer: HTTP 414. A 100x100 mask, escaped, is
#: about 30 kB.
MAX_URL_BYTES = 65_536
#: The most header bytes (names and values) answered; more: HTTP 431.
MAX_HEADER_BYTES = 65_536
#: The most of a request's head (its request line and headers) the server reads before it
#: answers, so that a URL or headers over the limits above get their 414 or 431 rather than a
#: connection cut short; a head beyond even this is refused by the HTTP server itself (400).
HEAD_BYTES = 1 << 20


class BodyTooLarge(KnightsTourError):
    """A request body over :attr:`~knightstour.web.state.Limits.max_body_bytes` (HTTP 413)."""

    http_status = 413


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def malformed_message(errors: Iterable[Any]) -> str:
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


async def _knights_tour_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, KnightsTourError)
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if exc.http_status == 503:  # the server's time ran out, not the request's fault (a number
        # puzzle not made within the time cap): worth another try, as the lanes' 503 says
        return _error(503, message, {"Retry-After": "1"})
    if exc.http_status >= 500:
        return _error(exc.http_status, f"internal error ({exc}); please report it")
    return _error(exc.http_status if exc.http_status >= 400 else 400, message)


async def _malformed(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return _error(422, malformed_message(exc.errors()))


async def _busy(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Busy)
    return _error(503, str(exc), {"Retry-After": str(exc.retry_after)})


async def _gone(request: Request, exc: Exception) -> Response:
    return Response(status_code=499)  # nobody is listening; uvicorn drops it


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    return JSONResponse(
        {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
    )


async def _bug(request: Request, exc: Exception) -> Response:
    return _error(500, f"internal error ({type(exc).__name__}); please report it")


class HeadLimits:
    """ASGI middleware: a URL over :data:`MAX_URL_BYTES` is answered 414, headers over
    :data:`MAX_HEADER_BYTES` 431, as ``{"error": "..."}``, before any route sees them.

    >>> import asyncio
    >>> sent = []
    >>> async def send(message): sent.append(message)
    >>> long = {"type": "http", "path": "/api/exists", "query_string": b"x" * 70_000, "headers": []}
    >>> asyncio.run(HeadLimits(app=None)(long, None, send))
    >>> sent[0]["status"], sent[1]["body"].decode()
    (414, '{"error":"the URL is 70,012 bytes long; this server answers URLs of up to 65,536 bytes"}')
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            target = scope.get("raw_path") or scope["path"].encode()
            query = scope.get("query_string") or b""
            url = len(target) + (len(query) + 1 if query else 0)  # as sent: path?query
            head = sum(len(name) + len(value) for name, value in scope.get("headers", ()))
            refused = None
            if url > MAX_URL_BYTES:
                refused = _error(
                    414,
                    f"the URL is {url:,} bytes long; this server answers URLs of up to "
                    f"{MAX_URL_BYTES:,} bytes",
                )
            elif head > MAX_HEADER_BYTES:
                refused = _error(
                    431,
                    f"the request's headers are {head:,} bytes long; this server answers up "
                    f"to {MAX_HEADER_BYTES:,} bytes of headers",
                )
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


def add_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` as ``{"error": "..."}`` with its status, a request whose
    URL or headers are too long too (:class:`HeadLimits`)."""
    app.add_middleware(HeadLimits)
    app.add_exception_handler(KnightsTourError, _knights_tour_error)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(Busy, _busy)
    app.add_exception_handler(ClientGone, _gone)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _bug)
