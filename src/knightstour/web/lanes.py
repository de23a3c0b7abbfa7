"""Fair queueing for the web app: lanes of worker threads, deadlines, back-pressure, cancelling.

A :class:`Lane` runs blocking work (a search, a picture) in its own threads, at most
``workers`` at once with at most ``queue`` more waiting. What it guarantees:

- **back-pressure**: a request that finds the lane full is refused at once with :class:`Busy`
  (HTTP 503 with ``Retry-After``), never queued without bound;
- **deadlines that include queueing**: a request's deadline starts when it arrives; the work
  gets only what is left of it (``fn(remaining)``), and a request still waiting at its deadline
  is refused (:class:`Busy`) without running;
- **cancelling**: when the client goes away, work that has not started never starts, and its
  place in the queue is freed at once, and a search already running stops at its next look at
  the clock (:func:`knightstour.solvers.cancellable`);
- **priorities**: a lane may run its threads at a lower CPU priority (``nice``), so that
  quick answers and the event loop come first on a busy machine;
- **a share of the interpreter**: a lane of work done mostly in Python (the gallery's pages)
  may keep to a ``share`` of its threads' time: after each job a worker rests in proportion to
  the CPU time the job took (a share of 0.5: as long again), before it takes its next job (the
  answer it made is not held back). A nice value cannot do this, since such threads contend
  for the interpreter's lock, not for the cores (``benchmarks/bench_web.py`` measures a quick
  solve beside 200 gallery clients).

The web app keeps two lanes: quick work (small boards) and searches (the rest), so that a quick
answer never waits behind slow ones.

>>> import asyncio
>>> lane = Lane("demo", workers=1, queue=0)
>>> asyncio.run(lane.run(lambda remaining: 6 * 7))
42
>>> lane.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from knightstour.solvers import cancellable

__all__ = ["Busy", "ClientGone", "Lane"]

T = TypeVar("T")

#: a search that would get less than this (seconds) of its deadline is not started
MIN_SECONDS = 0.05


class Busy(Exception):
    """The server cannot take this request now: HTTP 503, try again after ``retry_after`` s.

    >>> Busy("full", retry_after=2.2).retry_after
    3
    """

    def __init__(self, message: str, *, retry_after: float = 1) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


class ClientGone(Exception):
    """The client disconnected before the answer was ready; the work was dropped."""


def _lower_priority(nice: int) -> Callable[[], None]:
    def init() -> None:
        if nice <= 0:
            return
        # Linux: PRIO_PROCESS with a thread id sets that thread's nice value only
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)

    return init


class Lane:
    """Worker threads with a bounded queue; see the module's docstring.

    ``name`` names the threads and the 503 message; ``retry_after`` (seconds) is the hint sent
    with a refusal; ``share`` (0 to 1) the part of its workers' time they may spend working.

    >>> import asyncio
    >>> lane = Lane("searches", workers=2, queue=3, nice=0)
    >>> lane.capacity, lane.in_flight
    (5, 0)
    >>> lane.close()
    """

    def __init__(
        self,
        name: str,
        *,
        workers: int,
        queue: int,
        nice: int = 0,
        retry_after: float = 1,
        share: float = 1.0,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"share: {share!r} is not in (0, 1]")
        self.name = name
        self.share = share
        self._worker = threading.local()  # each worker's rest_until (time.monotonic())
        self.workers = workers
        self.queue = queue
        self.retry_after = retry_after
        self.in_flight = 0
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(
            max_workers=workers,
            thread_name_prefix=f"knightstour-{name}",
            initializer=_lower_priority(nice),
        )

    @property
    def capacity(self) -> int:
        """Requests the lane holds at once: running plus waiting."""
        return self.workers + self.queue

    def close(self) -> None:
        """Stop taking work; work not yet started is dropped."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _release(self) -> None:
        with self._lock:
            self.in_flight -= 1

    async def run(
        self,
        fn: Callable[[float | None], T],
        *,
        deadline: float | None = None,
        gone: Callable[[], Awaitable[object]] | None = None,
    ) -> T:
        """``fn(remaining seconds or None)`` in a worker thread, fairly (see the module).

        ``deadline`` is a ``time.monotonic()`` time (None: none); ``gone`` is awaited in
        parallel and, when it returns (the client disconnected), the request is dropped with
        :class:`ClientGone`. Raises :class:`Busy` when the lane is full or the deadline passed
        while waiting.
        """
        with self._lock:
            if self.in_flight >= self.capacity:
                raise Busy(
                    f"the server is busy ({self.workers} {self.name} running and "
                    f"{self.queue} waiting); try again shortly",
                    retry_after=self.retry_after,
                )
            self.in_flight += 1
        state = {"started": False, "dropped": False}
        guard = threading.Lock()
        cancel = threading.Event()  # set when the client goes: a running search stops too

        def job() -> tuple[bool, T | None]:
            rest = getattr(self._worker, "rest_until", 0.0) - time.monotonic()
            if rest > 0:  # this worker's rest after its last job: before this one, so that the
                time.sleep(rest)  # last answer was not held back by it
            with guard:
                if state["dropped"]:
                    return False, None
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining < MIN_SECONDS:
                    state["dropped"] = True
                    return False, None
                state["started"] = True
            with cancellable(cancel):
                if self.share == 1:
                    return True, fn(remaining)
                spent = time.thread_time()
                try:
                    return True, fn(remaining)
                finally:  # the rest that keeps this worker to its share, taken before its next job
                    spent = time.thread_time() - spent
                    self._worker.rest_until = time.monotonic() + spent * (1 / self.share - 1)

        def drop() -> bool:
            """Drop the job if it has not started; True when it was dropped."""
            with guard:
                if not state["started"]:
                    state["dropped"] = True
                return bool(state["dropped"])

        try:
            cfut: Future[tuple[bool, T | None]] = self._pool.submit(job)
        except RuntimeError:  # shut down
            self._release()
            raise Busy(f"the server is stopping ({self.name})") from None
        cfut.add_done_callback(lambda _f: self._release())
        work = asyncio.wrap_future(cfut)
        work.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved: no warning
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            while True:
                timeout = None
                if deadline is not None and not state["started"]:
                    timeout = max(0.0, deadline - time.monotonic())
                waiting: set[asyncio.Future[object]] = {work}  # type: ignore[arg-type]
                if watcher is not None:
                    waiting.add(watcher)
                done, _ = await asyncio.wait(
                    waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if work in done:
                    ran, value = work.result()
                    if not ran:
                        raise self._late()
                    return value  # type: ignore[return-value]
                if watcher is not None and watcher in done:
                    drop()
                    cancel.set()
                    cfut.cancel()
                    raise ClientGone(f"the client went away ({self.name})")
                if drop():  # the deadline passed before a worker was free
                    cfut.cancel()
                    raise self._late()
        finally:
            if watcher is not None and not watcher.done():
                watcher.cancel()

    def _late(self) -> Busy:
        return Busy(
            f"the server is busy: no worker was free for {self.name} before the request's "
            f"time limit; try again shortly",
            retry_after=self.retry_after,
        )
