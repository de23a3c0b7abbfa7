"""The checks of the arguments the front doors share: time limits, workers, progress, schedulers.

:func:`~knightstour.solvers.solve`, :func:`~knightstour.counting.count`,
:func:`knightstour.magic.find` and :func:`knightstour.library.generate.generate` take these the
same way, so they are checked in one place: anything else is an
:class:`~knightstour.errors.InvalidInputError` naming the argument, never a raw Python error
deep inside the work nor a value quietly taken as another.

>>> time_limit(2), time_limit(None)
(2.0, None)
>>> time_limit(float("nan"))
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: time_limit must be a positive, finite number of seconds, got nan
>>> workers(10**6) == cores()
True
"""

from __future__ import annotations

import ipaddress
import math
import numbers
import os
import re
from typing import TYPE_CHECKING

from knightstour.board import brief
from knightstour.errors import InvalidInputError

if TYPE_CHECKING:
    from knightstour.progress import Progress

__all__ = [
    "SCHEDULER_SCHEMES",
    "address_problem",
    "cores",
    "folder",
    "memory",
    "progress",
    "scheduler",
    "time_limit",
    "workers",
]


def _integer(value: object) -> bool:
    """An integer, NumPy's too, and not a bool (``True`` is no count of anything)."""
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and (type(value).__name__ != "bool_")
    )


def time_limit(value: object, argument: str = "time_limit") -> float | None:
    """``value`` as seconds to give up after (None: no limit): a positive, finite number.

    NaN (which would never expire), infinities, numbers too large for a float, bools and
    anything not a number are refused, the argument named.

    >>> time_limit(0.5), time_limit(3)
    (0.5, 3.0)
    >>> time_limit(10**400, "--time-limit")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: --time-limit must be a positive, finite number of seconds, got <an integer of about 400 digits>
    """
    if value is None:
        return None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except (OverflowError, ValueError):
            seconds = math.nan
        if 0 < seconds < math.inf:
            return seconds
    raise InvalidInputError(
        f"{argument} must be a positive, finite number of seconds, got {brief(value)}"
    )


#: The units a memory size may end with (binary: ``20G`` is 20 GiB), their bytes.
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory(value: object, argument: str = "memory") -> int | None:
    """``value`` as a number of bytes (None: no bound given): a positive integer of bytes, or
    text such as ``20G``, ``512M``, ``1.5GiB`` or ``100000`` (binary units K, M, G, T, with or
    without ``B`` or ``iB``).

    >>> memory("20G") == 20 * 2**30, memory("1.5GiB") == 3 * 2**29, memory(4096)
    (True, True, 4096)
    >>> memory("lots", "--memory")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: --memory must be a size in bytes such as 20G or 512M, got 'lots'
    """
    if value is None:
        return None
    size: float | None = None
    if _integer(value):
        size = int(value)  # type: ignore[call-overload]
    elif isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([KMGT]?)(?:i?B)?\s*", value, re.IGNORECASE)
        if m is not None:
            size = float(m.group(1)) * _UNITS[m.group(2).upper()]
    if size is not None and 1 <= size < 2**63:
        return int(size)
    raise InvalidInputError(
        f"{argument} must be a size in bytes such as 20G or 512M, got {brief(value)}"
    )


def folder(value: object, argument: str = "workdir") -> str:
    """``value`` as a folder that exists and can be written (the files of a long count).

    >>> folder(os.curdir) == os.curdir
    True
    >>> folder("", "--workdir")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: --workdir must be a folder, got ''
    """
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise InvalidInputError(f"{argument} must be a folder, got {brief(value)}")
    if not os.path.isdir(value):
        raise InvalidInputError(f"{argument} {value} is not a folder")
    if not os.access(value, os.W_OK | os.X_OK):
        raise InvalidInputError(f"{argument} {value} cannot be written")
    return value


def cores() -> int:
    """The cores this process may use: the most workers any front door starts.

    >>> cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def workers(value: object, argument: str = "workers") -> int:
    """How many workers to start for ``value`` (None: one a core): a positive integer, at most
    :func:`cores` (more would only share the same cores, and take longer to start and stop).

    >>> workers(1), workers(None) == cores()
    (1, True)
    >>> workers(1.5)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: workers must be a positive integer, got 1.5
    """
    if value is None:
        return cores()
    if not _integer(value) or int(value) < 1:  # type: ignore[call-overload]
        raise InvalidInputError(f"{argument} must be a positive integer, got {brief(value)}")
    return min(int(value), cores())  # type: ignore[call-overload]


def progress(value: object, argument: str = "progress") -> Progress | None:
    """``value`` as a progress callback ``progress(done, total)``, or None (report nothing).

    >>> progress(None) is None
    True
    >>> progress(5)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: progress must be a function progress(done, total) or None, got 5
    """
    if value is None or callable(value):
        return value  # type: ignore[return-value]
    raise InvalidInputError(
        f"{argument} must be a function progress(done, total) or None, got {brief(value)}"
    )


#: The address schemes a Dask scheduler listens on (``host:port`` alone is ``tcp``).
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "inproc", "ucx")

_HOST = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?")


def address_problem(address: str) -> str | None:
    """What is wrong with ``address`` as a Dask scheduler's address, or None: read as text only,
    without any connection (a port from 1 to 65535 after a host name, an IPv4 address or an
    IPv6 address in brackets; a known scheme before ``://`` if any).

    >>> address_problem("tcp://[::1]:8786") is None, address_problem("localhost:8786") is None
    (True, True)
    >>> address_problem("tcp://::1:8786")
    "an IPv6 address goes in brackets: 'tcp://[::1]:8786'"
    >>> address_problem("10.0.0.1")
    'it has no port (a number after the last colon)'
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEDULER_SCHEMES:
        return f"{brief(scheme)} is not a scheme Dask listens on ({', '.join(SCHEDULER_SCHEMES)})"
    if scheme == "inproc":  # this process's own scheduler: no host and port
        return None if rest and not any(c.isspace() for c in rest) else "it names no scheduler"
    host, colon, port = rest.rpartition(":")
    if not colon:
        return "it has no port (a number after the last colon)"
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        return f"its port must be a number from 1 to 65535, got {brief(port)}"
    if host.startswith("[") and host.endswith("]"):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return f"{brief(host)} is not an IPv6 address"
        return None
    if ":" in host:
        return f"an IPv6 address goes in brackets: {brief(f'{scheme}://[{host}]:{port}')}"
    if not _HOST.fullmatch(host):
        return f"{brief(host)} is not a host name or an IP address"
    return None


def scheduler(value: object, argument: str = "scheduler") -> str | None:
    """``value`` as the address of a Dask scheduler (``host:port``, ``tcp://host:port``), or None.

    The address is read as text (:func:`address_problem`): one that cannot be an address is
    refused here, before any connection.

    >>> scheduler("127.0.0.1:8786")
    '127.0.0.1:8786'
    >>> scheduler(5)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: scheduler must be the address of a Dask scheduler (a string like 'host:8786'), got 5
    >>> scheduler("tcp://::nonsense::", "--scheduler")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: --scheduler 'tcp://::nonsense::' is not the address of a Dask scheduler: its port must be a number from 1 to 65535, got ''
    """
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        address = value.strip()
        problem = address_problem(address)
        if problem is None:
            return address
        raise InvalidInputError(
            f"{argument} {brief(address)} is not the address of a Dask scheduler: {problem}"
        )
    raise InvalidInputError(
        f"{argument} must be the address of a Dask scheduler (a string like 'host:8786'), "
        f"got {brief(value)}"
    )
