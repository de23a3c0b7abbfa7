"""When a search must stop: its deadline, or a request to cancel it from another thread.

Every method looks at :func:`expired` where it looks at the clock (between slices of compiled
work), so a search stops soon after its deadline or after :func:`cancellable`'s event is set: the
web board sets it when the client that asked has gone.

>>> import threading
>>> expired(None), expired(time.monotonic() - 1)
(False, True)
>>> stop = threading.Event()
>>> with cancellable(stop):
...     before = expired(None)
...     stop.set()
...     after = expired(None)
>>> before, after, expired(None)
(False, True, False)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["cancellable", "expired", "watched"]

_local = threading.local()


@contextmanager
def cancellable(event: threading.Event) -> Iterator[None]:
    """Within this block, searches on this thread stop soon after ``event`` is set."""
    previous = getattr(_local, "event", None)
    _local.event = event
    try:
        yield
    finally:
        _local.event = previous


def watched() -> bool:
    """Whether searches on this thread may be cancelled (so they must look at the clock)."""
    return getattr(_local, "event", None) is not None


def expired(deadline: float | None) -> bool:
    """Whether a search with this ``deadline`` (``time.monotonic()`` seconds) must stop now."""
    event = getattr(_local, "event", None)
    if event is not None and event.is_set():
        return True
    return deadline is not None and time.monotonic() > deadline
