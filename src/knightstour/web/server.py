"""Running the web board: in the foreground (``knightstour serve``) or in a background thread.

The socket is bound before uvicorn starts, so a port in use is a clean ``OSError`` (one line
from the command line) rather than a log message and an exit from inside uvicorn.

>>> import httpx
>>> from knightstour.web.app import create_app
>>> with running_server(create_app(warm=False)) as url:
...     httpx.get(f"{url}/api/exists", params={"board": "3x3"}).json()["exists"]
False
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["bind", "running_server", "serve"]


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as e:
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _config(app: Any, **options: Any) -> Any:
    """uvicorn's configuration of ``app``: the request head read up to
    :data:`~knightstour.web.handlers.HEAD_BYTES` (h11's default, 16 kB, would cut a longer URL
    off with a bare 400 and a reset connection instead of the app's 414)."""
    import uvicorn

    from knightstour.web.handlers import HEAD_BYTES

    # h11 whatever else is installed: its limit on the head is what makes a long URL 414 (the
    # httptools parser would answer it a bare 400)
    return uvicorn.Config(app, http="h11", h11_max_incomplete_event_size=HEAD_BYTES, **options)


def serve(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "info",
    library: str | None = None,
) -> str:
    """Serve ``app`` until interrupted; returns the URL it was served on. ``library``: the
    tour library the app's gallery shows, whose address the first line gives too."""
    import uvicorn

    sock = bind(host, port)
    url = _url(sock)
    gallery = "" if library is None else f"; the gallery of {library} at {url}/gallery"
    print(f"knightstour: the board is at {url}/{gallery} (API docs at {url}/docs); Ctrl-C stops")
    server = uvicorn.Server(_config(app, log_level=log_level))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return url


@contextmanager
def running_server(app: Any, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` from a background thread for the ``with`` block; yields its base URL.

    For tests and notebooks. The server stops (and its thread ends) when the block ends.
    """
    import uvicorn

    sock = bind(host, port)
    server = uvicorn.Server(_config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="knightstour-server", daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        yield _url(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
