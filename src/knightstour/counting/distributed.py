"""The frontier sweep on a Dask cluster: states partitioned by hash across the workers.

Each worker holds one shard of the states. A step is one round: every worker takes its shard
through the next square (:func:`~knightstour.counting.frontier.expand_part`) and splits the new
states by the hash of their key; each part travels to the worker that owns it (the one exchange
of the step), which adds up equal states (:func:`~knightstour.counting.frontier.merge_parts`).
The states each state becomes are those the in-process sweep makes on its threads (one kernel,
``successors``), so both give the same numbers; in one process they go straight into their
owners' tables instead of travelling in parts. Needs the optional dependency group ``cluster`` (``pip install 'knightstour[cluster]'``)
and knightstour installed on every worker.

Use it through :func:`knightstour.count` (or ``knightstour count --scheduler ADDRESS``):

>>> import knightstour as kt
>>> from distributed import LocalCluster
>>> with LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
...     kt.count("6x6", closed=True, scheduler=cluster.scheduler_address)
19724
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from knightstour.counting.frontier import (
    Part,
    Sweep,
    _to_int,
    expand_part,
    merge_parts,
    run,
)
from knightstour.errors import InvalidInputError, SearchFailedError

if TYPE_CHECKING:
    from knightstour.counting.request import RunOptions

__all__ = ["DaskShards", "connect", "run_on_cluster"]

Shard = tuple[np.ndarray, np.ndarray]

#: Seconds to wait at most for the scheduler to answer (less when the time limit is nearer).
CONNECT_SECONDS = 10.0


def _expand(sweep: Sweep, p: int, shard: Shard, shards: int, growth: float) -> Part:
    return expand_part(sweep, p, shard[0], shard[1], shards, growth)


def _pick(part: Part, q: int) -> Shard:
    return part.keys[q], part.counts[q]


def _status(part: Part) -> tuple[int, np.ndarray, int]:
    return part.status, part.total, part.table_bytes


def _merge(sweep: Sweep, *pieces: Shard) -> tuple[np.ndarray, np.ndarray, int]:
    return merge_parts(sweep, [x[0] for x in pieces], [x[1] for x in pieces])


def _shard(merged: tuple[np.ndarray, np.ndarray, int]) -> Shard:
    return merged[0], merged[1]


def _merged_status(merged: tuple[np.ndarray, np.ndarray, int]) -> tuple[int, int]:
    return merged[2], int(merged[0].shape[0])


def _widen(shard: Shard) -> Shard:
    keys, counts = shard
    return keys, np.hstack([counts, np.zeros((counts.shape[0], 1), dtype=np.uint64)])


class DaskShards:
    """The sweep's states on a Dask cluster: one shard a worker, kept where it was made."""

    def __init__(self, client: Any, sweep: Sweep) -> None:
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            raise InvalidInputError("the Dask cluster has no workers")
        self.client, self.workers, self.shards = client, workers, len(workers)
        self.sweep = client.scatter(sweep, broadcast=True)
        first: Shard = (
            np.array([sweep.initial_key()], dtype=np.uint64),
            np.ones((1, 1), dtype=np.uint64),
        )
        empty: Shard = (first[0][:0], first[1][:0])
        self.held = [
            client.scatter(first if q == 0 else empty, workers=[w]) for q, w in enumerate(workers)
        ]
        self._sizes = [1] + [0] * (self.shards - 1)

    def states(self) -> list[int]:
        """The number of states on each worker."""
        return list(self._sizes)

    def widen(self) -> None:
        """Give every count one more 64-bit limb."""
        self.held = [
            self.client.submit(_widen, h, workers=[w], pure=False)
            for h, w in zip(self.held, self.workers, strict=True)
        ]

    def step(self, p: int, growth: float) -> tuple[int, int, int]:
        """Take every shard through square ``p`` on its worker, then exchange the parts."""
        c, n, ws = self.client, self.shards, self.workers
        parts = [
            c.submit(_expand, self.sweep, p, h, n, growth, workers=[w], pure=False)
            for h, w in zip(self.held, ws, strict=True)
        ]
        done = c.gather([c.submit(_status, x, workers=[w]) for x, w in zip(parts, ws, strict=True)])
        if any(status for status, _, _ in done):
            return 1, 0, 0
        merged = []
        for q, w in enumerate(ws):
            pieces = [c.submit(_pick, x, q, workers=[pw]) for x, pw in zip(parts, ws, strict=True)]
            merged.append(c.submit(_merge, self.sweep, *pieces, workers=[w], pure=False))
        meta = c.gather(
            [c.submit(_merged_status, m, workers=[w]) for m, w in zip(merged, ws, strict=True)]
        )
        if any(status for status, _ in meta):
            return 1, 0, 0
        self.held = [c.submit(_shard, m, workers=[w]) for m, w in zip(merged, ws, strict=True)]
        self._sizes = [size for _, size in meta]
        total = sum(_to_int(t[0]) for _, t, _ in done)
        return 0, total, max(b for _, _, b in done)

    def close(self) -> None:
        """Let go of the states on the workers."""
        self.held = []


def connect(scheduler: str, deadline: float | None = None) -> Any:
    """A Dask client of the scheduler at ``scheduler``, or a one-line error saying why not.

    The wait is bounded: by :data:`CONNECT_SECONDS`, and by the time left before ``deadline``
    (a ``time.monotonic()`` time: the caller's time limit). A scheduler that does not answer
    in that time (a listener that accepts and never speaks, say) is refused in one line,
    before any client is made (Dask's own handshake waits for an answer without a bound).
    """
    from knightstour.arguments import scheduler as checked

    address = checked(scheduler)  # an address that cannot be one: refused before any wait
    assert address is not None
    scheduler = address
    try:
        from distributed import Client
    except ImportError:
        raise InvalidInputError(
            "--scheduler needs Dask: pip install 'knightstour[cluster]'"
        ) from None
    seconds = CONNECT_SECONDS
    limited = deadline is not None and deadline - time.monotonic() < seconds
    if deadline is not None:
        seconds = min(seconds, deadline - time.monotonic())
    if seconds <= 0:
        raise SearchFailedError(
            f"the time limit ran out before the Dask scheduler at {scheduler} was asked"
        )
    if not scheduler.startswith("inproc://"):  # in this process: nothing to wait for
        _handshake(scheduler, seconds, limited)
    if deadline is not None:  # what the greeting left of the time limit
        seconds = max(0.1, min(CONNECT_SECONDS, deadline - time.monotonic()))
    try:
        return Client(scheduler, timeout=seconds, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise InvalidInputError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def _handshake(scheduler: str, seconds: float, limited: bool) -> None:
    """Connect to ``scheduler`` and wait for its greeting, ``seconds`` at most in all.

    Nothing listening there is told at once (one line, bad input); a listener that does not
    greet in time is bad input too (:class:`~knightstour.errors.InvalidInputError`), or, when
    the time limit was the bound (``limited``), a stop at the limit
    (:class:`~knightstour.errors.SearchFailedError`). It runs on a thread of its own with an
    event loop of its own, so that it works whether or not the caller runs one (a notebook
    does); the thread ends by the bound.
    """
    import asyncio

    from distributed.comm import connect as open_comm
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(scheduler)

    async def greet() -> None:
        if scheme in ("tcp", "tls", "ws", "wss"):  # is anything listening? (Dask would retry)
            host, port = parse_host_port(location)
            _, writer = await asyncio.open_connection(host, port)
            writer.close()
        try:
            comm = await open_comm(scheduler, timeout=2 * seconds)  # the bound is ours
        except OSError as e:
            if str(e).startswith("Timed out"):
                raise TimeoutError from None
            raise
        await comm.close()

    def bounded() -> None:
        asyncio.run(asyncio.wait_for(greet(), seconds))

    with ThreadPoolExecutor(1, thread_name_prefix="knightstour-connect") as pool:
        try:
            pool.submit(bounded).result()
        except TimeoutError:
            said = f"the Dask scheduler at {scheduler} did not answer"
            if limited:
                raise SearchFailedError(f"{said} before the time limit ran out") from None
            raise InvalidInputError(f"{said} within {seconds:g} s") from None
        except ConnectionRefusedError:
            raise InvalidInputError(
                f"cannot reach the Dask scheduler at {scheduler}: nothing listens there"
            ) from None
        except (OSError, ValueError) as e:
            reason = (e.strerror if isinstance(e, OSError) else None) or str(e) or type(e).__name__
            raise InvalidInputError(
                f"cannot reach the Dask scheduler at {scheduler}: {reason.splitlines()[0]}"
            ) from None


def run_on_cluster(sweep: Sweep, scheduler: str, *, options: RunOptions | None = None) -> int:
    """:func:`~knightstour.counting.frontier.run` with the states on the cluster at ``scheduler``
    (``options``: its progress, stats and deadline; a checkpoint is refused)."""
    client = connect(scheduler, None if options is None else options.deadline)
    try:
        held = DaskShards(client, sweep)
        try:
            return run(sweep, options, states=held)
        finally:
            held.close()
    finally:
        client.close()
