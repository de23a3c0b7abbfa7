"""A request whose URL or headers are too long gets an HTTP error with the API's JSON body
(414, 431), from the app and from a real ``knightstour serve`` process, never a connection cut
short; the connection stays open for the next request."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from knightstour.web.app import create_app
from knightstour.web.handlers import HEAD_BYTES, MAX_HEADER_BYTES, MAX_URL_BYTES

SRC = str(Path(__file__).resolve().parent.parent / "src")


def _asgi_get(target: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict]:
    """The app's answer to ``GET target``, straight through ASGI (an HTTP client refuses to send
    a URL over 64 kB itself)."""
    app = create_app(warm=False)
    path, _, query = target.partition(b"?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path.decode(), "raw_path": path, "query_string": query,
        "root_path": "", "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent[1:])
    assert dict(sent[0]["headers"])[b"content-type"] == b"application/json"
    return sent[0]["status"], json.loads(body)


def test_a_long_url_is_414_with_the_error_body() -> None:
    target = b"/api/exists?board=8x8&x="
    status, _ = _asgi_get(target + b"a" * (MAX_URL_BYTES - len(target)), [])
    assert status == 200
    status, body = _asgi_get(target + b"a" * (MAX_URL_BYTES - len(target) + 1), [])
    assert status == 414
    assert body == {
        "error": f"the URL is {MAX_URL_BYTES + 1:,} bytes long; this server answers URLs of up "
        f"to {MAX_URL_BYTES:,} bytes"
    }


def test_long_headers_are_431_with_the_error_body() -> None:
    api = TestClient(create_app(warm=False))
    headers = {f"x-h{i}": "b" * 1000 for i in range(MAX_HEADER_BYTES // 1000 + 1)}
    r = api.get("/api/exists?board=8x8", headers=headers)
    assert r.status_code == 431
    assert r.json()["error"].startswith("the request's headers are ")


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, int]]:
    """``knightstour serve`` on 127.0.0.1, a free port: (host, port)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightstour", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        yield "127.0.0.1", int(found.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _get(connection: http.client.HTTPConnection, target: str) -> tuple[int, str, bytes]:
    connection.request("GET", target)
    r = connection.getresponse()
    return r.status, r.getheader("content-type") or "", r.read()


@pytest.mark.slow
@pytest.mark.parametrize("size", [MAX_URL_BYTES + 1, 200_000, HEAD_BYTES - 1000])
def test_the_real_server_answers_a_long_url_414(served: tuple[str, int], size: int) -> None:
    """A URL of 200 kB once reset the connection (h11 read heads of at most 16 kB)."""
    connection = http.client.HTTPConnection(*served, timeout=30)
    try:
        target = "/api/exists?board=8x8&x="
        status, kind, body = _get(connection, target + "a" * (size - len(target)))
        assert (status, kind) == (414, "application/json")
        assert body.decode().startswith(f'{{"error":"the URL is {size:,} bytes long;')
        status, _, body = _get(connection, "/api/exists?board=3x3")  # the same connection
        assert status == 200 and b'"exists":false' in body
    finally:
        connection.close()
