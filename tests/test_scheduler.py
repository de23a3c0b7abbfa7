"""``--scheduler`` that cannot hang (issue 29, item 6): an address that cannot be one is refused
in one line before any connection; nothing listening is said at once; a listener that accepts
and never answers is given up on by the time limit (or the connect bound), in one line.

Only addresses on this machine are used: a port on 127.0.0.1 where nothing listens, or a
listener socket of this test's own that accepts and never answers.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import knightstour as kt
from knightstour import arguments, magic
from knightstour.errors import InvalidInputError, SearchFailedError
from knightstour.library import Library
from knightstour.library.magic import MagicJournal

pytest.importorskip("distributed")

KT = [sys.executable, "-m", "knightstour"]


def one_line(text: str) -> str:
    assert text and len(text.strip().splitlines()) == 1 and "Traceback" not in text, text
    return text


@pytest.fixture
def silent() -> Iterator[str]:
    """The address of a listener on 127.0.0.1 that accepts every connection and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.1)
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        while not done.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:  # the timeout, or the socket closed at the end
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        thread.join(5)
        for s in held:
            s.close()
        server.close()
    assert held, "nothing connected to the listener"


@pytest.fixture
def nobody() -> str:
    """The address of a port on 127.0.0.1 where nothing listens (one just let go of)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("tcp://::nonsense::", "port must be a number"),
        ("tcp://::1:8786", "IPv6 address goes in brackets"),
        ("tcp://[nope]:8786", "is not an IPv6 address"),
        ("127.0.0.1", "has no port"),
        ("127.0.0.1:0", "port must be a number from 1 to 65535"),
        ("127.0.0.1:99999", "port must be a number from 1 to 65535"),
        ("foo://127.0.0.1:8786", "not a scheme Dask listens on"),
        ("tcp://bad host:8786", "not a host name"),
        ("inproc://", "names no scheduler"),
    ],
)
def test_an_address_that_cannot_be_one_is_refused_before_any_connection(
    address: str, problem: str
) -> None:
    with pytest.raises(InvalidInputError, match=problem) as e:
        kt.count("5x5", scheduler=address)
    one_line(str(e.value))
    assert address in str(e.value)
    assert arguments.address_problem(address) is not None


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1:8786", "tcp://localhost:8786", "tcp://[::1]:8786", "tls://sched.example:8786",
     "inproc://10.1.2.3/123/1", "ws://host-1.local:80"],
)  # fmt: skip
def test_addresses_dask_takes_pass_the_check(address: str) -> None:
    assert arguments.address_problem(address) is None
    assert arguments.scheduler(f" {address} ") == address


def test_nothing_listening_is_said_at_once(nobody: str) -> None:
    with pytest.raises(InvalidInputError, match="nothing listens there") as e:
        kt.count("5x5", scheduler=nobody)
    assert nobody in one_line(str(e.value))


def test_a_silent_scheduler_stops_a_count_at_its_time_limit(silent: str) -> None:
    with pytest.raises(SearchFailedError, match="did not answer before the time limit") as e:
        kt.count("5x5", scheduler=silent, time_limit=1)
    assert silent in one_line(str(e.value))


def test_a_silent_scheduler_is_given_up_on_without_a_time_limit(
    silent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from knightstour.counting import distributed

    monkeypatch.setattr(distributed, "CONNECT_SECONDS", 0.5)
    with pytest.raises(InvalidInputError, match=r"did not answer within 0\.5 s") as e:
        kt.count("5x5", scheduler=silent)
    assert silent in one_line(str(e.value))


def test_a_silent_scheduler_stops_a_magic_search_at_its_time_limit(silent: str) -> None:
    with Library(":memory:") as lib, pytest.raises(SearchFailedError, match="did not answer"):
        magic.find("8x8", MagicJournal(lib, 8, 8), scheduler=silent, time_limit=1)


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("command", [["count", "5x5"], ["magic", "8x8"]])
def test_the_commands_stop_at_their_time_limit_on_a_silent_scheduler(
    silent: str, command: list[str], tmp_path: Path
) -> None:
    db = ["--db", str(tmp_path / "m.db")] if command[0] == "magic" else []
    r = subprocess.run(
        [*KT, *command, "-q", *db, "--scheduler", silent, "--time-limit", "6"],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip  (a limit that outlasts importing Dask on a loaded machine: then the wait)
    assert r.returncode == 3, r.stderr
    assert "did not answer before the time limit" in one_line(r.stderr)


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("command", [["count", "5x5"], ["magic", "8x8"]])
def test_the_commands_refuse_a_bad_address_in_one_line(command: list[str], tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "m.db")] if command[0] == "magic" else []
    r = subprocess.run(
        [*KT, *command, "-q", *db, "--scheduler", "tcp://::nonsense::"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert "is not the address of a Dask scheduler" in one_line(r.stderr)
    assert not (tmp_path / "m.db").exists()
