"""Counting a request: :func:`count` (the public front door), :func:`tally` (the same, saying
where the number came from) and :func:`count_for` (a checked request, always computed).

>>> count("5x5", closed=True)      # theory's 0: no sweep
0
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

from knightstour import arguments
from knightstour.counting.known import (
    Known,
    Memory,
    by_publication,
    by_theory,
    memory_of,
    recalled,
)
from knightstour.counting.request import CountRequest, RunOptions, WhatToCount, count_request
from knightstour.errors import InputLimitError, InvalidInputError, KnightsTourError
from knightstour.kernels import jit

if TYPE_CHECKING:
    from knightstour.board import Board, BoardLike
    from knightstour.progress import Progress

__all__ = ["CountKeywords", "HowToCount", "Tally", "count", "count_for", "long_count", "tally"]


class HowToCount(TypedDict, total=False):
    """How to count, as the keywords of :func:`count` (each None when left out): ``progress``,
    ``scheduler``, ``time_limit``, ``checkpoint``, ``memory``, ``workdir``. :func:`count`,
    :func:`tally` and :func:`count_for` take them as ``**how``, handed on as they are;
    :func:`count_for` checks them and makes the one
    :class:`~knightstour.counting.request.RunOptions` the counting is handed.

    >>> how: HowToCount = {"time_limit": 60.0}
    >>> count_for(count_request("4x5"), **how)
    164
    """

    progress: Progress | None
    scheduler: str | None
    time_limit: float | None
    checkpoint: str | None
    memory: int | str | None
    workdir: str | None


class CountKeywords(WhatToCount, HowToCount, total=False):
    """The keywords of :func:`count` besides ``method`` and ``library``: what to count
    (:class:`~knightstour.counting.request.WhatToCount`) and how (:class:`HowToCount`)."""


def count(
    board: BoardLike | Board,
    *,
    method: str = "auto",
    library: Memory | None = None,
    **keywords: Unpack[CountKeywords],
) -> int:
    """The exact number of knight's tours on ``board`` (a Python int): see the module's conventions.

    What to count: ``closed`` (False: open tours), ``start`` and ``end`` (squares; None: any)
    and ``directed`` (True: each tour counted in both directions), as :func:`count_request`
    takes them (:class:`~knightstour.counting.request.WhatToCount`). ``method``: ``auto``/``frontier`` (dynamic programming over the frontier of a
    sweep) or ``enumerate`` (exhaustive, small boards only). ``library``: a tour library
    (``knightstour.library.Library``) that remembers counts: with ``method="auto"`` a count it
    remembers is the answer at once, and a count made is remembered in it (a warning, not an
    error, when it cannot be).

    How to count (:class:`HowToCount`, handed to :func:`tally` as they are):
    ``progress(done, total)``: called as the count goes. ``scheduler``: the address of a Dask
    scheduler to spread the frontier sweep over (``frontier`` only; None: in this process).
    ``time_limit``: seconds to give up after (:class:`~knightstour.errors.SearchFailedError`).
    ``checkpoint``: a file the frontier sweep saves its states to every minute and when the time
    limit stops it; counting again with the same file goes on from there (after Ctrl-C, a crash
    or the time limit). It is checked before counting and verified before it is used
    (:mod:`knightstour.counting.checkpoint`: a damaged one is an
    :class:`~knightstour.errors.InvalidInputError`).
    ``memory``: the memory the frontier sweep's states may take, in bytes or as text such as
    ``"20G"`` (default: 80% of what the machine has available); from the square whose states
    would not fit, they are spilled to disk in hash partitions, added up a partition at a
    time (the same number, more slowly), in ``workdir`` (a folder; default: beside the
    checkpoint, or the system's temporary folder). A count whose partitions would not fit on
    that disk either is refused before it starts
    (:class:`~knightstour.errors.InputLimitError`, with the estimate).

    >>> count("6x6", closed=True, directed=False)
    9862
    >>> count("4x9", closed=True)   # Schwenk: no closed tour on 4 x n
    0
    >>> from knightstour.counting import known
    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> count("5x5", start="a1", library=lib), known("5x5", start="a1", library=lib).source
    (304, 'remembered')
    """
    what, how = _what_and_how(keywords)
    result = tally(count_request(board, method=method, **what), library=library, **how)
    if result.not_stored is not None:
        warnings.warn(
            f"the count was not remembered: {result.not_stored}", RuntimeWarning, stacklevel=2
        )
    return result.number


@dataclass(frozen=True)
class Tally:
    """A count and where it came from (:func:`tally`).

    >>> t = tally(count_request("3x4", directed=False))
    >>> t.number, t.method, t.recalled, t.stored
    (8, 'frontier', None, False)

    ``known``: the number known without counting: a theorem's 0 (``known.source`` "theory",
    ``method`` "theory") or a published figure quoted instead of a count this machine cannot
    make or would take long over (``known.source`` "published", ``method`` "published", and
    ``unmade`` says why it was not counted). ``recalled``: the library's record when the
    number was recalled, not computed. ``replaced``: the library's record when it held
    another number for this count, now replaced by the one computed. ``stored``: the number
    computed is now in the library; ``not_stored``: why it could not be put there (the number
    is still the answer). ``seconds`` is the counting's own time; ``compiling``, the seconds
    spent on the way compiling kernels the disk cache did not hold (a first call after a plain
    install).
    """

    request: CountRequest
    number: int
    method: str
    seconds: float
    recalled: Known | None = None
    replaced: Known | None = None
    stored: bool = False
    not_stored: str | None = None
    compiling: float = 0.0
    known: Known | None = None
    unmade: str | None = None

    @property
    def source(self) -> str:
        """Where the number comes from: ``theory``, ``published``, ``remembered`` (recalled
        from the library) or ``computed``.

        >>> tally(count_request("4x9", closed=True)).source
        'theory'
        """
        if self.known is not None:
            return self.known.source
        return "remembered" if self.recalled is not None else "computed"


def tally(
    request: CountRequest,
    *,
    library: Memory | None = None,
    quote: bool = False,
    **how: Unpack[HowToCount],
) -> Tally:
    """Count ``request`` the way ``knightstour count`` does: a theorem's 0 at once; recall it
    from ``library`` (``auto`` method only: an explicit method counts again), else compute it
    (timed, ``how`` :func:`count` takes it) and remember it there; the number with where it
    came from.

    ``quote``: with the ``auto`` method, a published figure of exactly this count is the
    answer, labelled (``known``, and ``unmade`` says why), when the count is refused here (the
    memory it would need) or would be long (a board at least 7 squares on its short side:
    minutes and gigabytes); not when a checkpoint or a scheduler is given (they ask for the
    sweep itself), nor when a memory bound or a spill folder is (they ask for it too). An
    explicit method always counts.

    The library is asked before any counting, and told only once the number is computed (a
    theorem's 0 and a published figure are not stored); a library that cannot take it leaves
    the number the answer (``not_stored`` says why).

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> first = tally(count_request("5x5"), library=lib)
    >>> first.number, first.method, first.stored, first.recalled
    (1728, 'frontier', True, None)
    >>> again = tally(count_request("5x5"), library=lib)
    >>> again.number, again.recalled.source
    (1728, 'remembered')
    >>> eight = tally(count_request("8x8", closed=True, directed=False), quote=True)
    >>> eight.number, eight.source, eight.known.citation[:12]
    (13267364410532, 'published', 'OEIS A001230')
    """
    how = _checked_how(how)  # before the library is asked: bad input is refused either way
    theory = by_theory(request)
    if theory is not None:
        return Tally(request, theory.count, "theory", 0.0, known=theory)
    earlier = None if library is None else recalled(request, library)
    if earlier is not None and request.method == "auto":
        return Tally(
            request, earlier.count, earlier.method or "", earlier.seconds or 0.0, recalled=earlier
        )
    figure = by_publication(request) if quote and request.method == "auto" else None
    sweep_asked = any(
        how.get(x) is not None for x in ("checkpoint", "scheduler", "memory", "workdir")
    )
    if figure is not None and not sweep_asked:
        long = long_count(request)
        if long is not None:
            return Tally(request, figure.count, "published", 0.0, known=figure, unmade=long)
    watch = jit.Stopwatch()
    try:
        number = count_for(request, **how)
    except InputLimitError as e:
        if figure is None or sweep_asked:  # the sweep asked for: its refusal is the answer
            raise
        why = str(e).splitlines()[0]
        return Tally(request, figure.count, "published", 0.0, known=figure, unmade=why)
    seconds, compiling = watch.read()
    done = Tally(request, number, request.method_used, seconds, compiling=compiling)
    if library is None:
        return done
    replaced = earlier if earlier is not None and earlier.count != number else None
    try:
        memory_of(library).remember_count(
            request.key(), number, method=done.method, seconds=seconds
        )
    except KnightsTourError as e:
        return replace(done, replaced=replaced, not_stored=str(e).splitlines()[0])
    return replace(done, replaced=replaced, stored=True)


def long_count(request: CountRequest) -> str | None:
    """Why counting ``request`` here would be long or refused (a knight board at least 7
    squares on its short side: the states it holds at once and their memory), or None.

    >>> long_count(count_request("6x6")) is None
    True
    >>> long_count(count_request("8x8", closed=True))
    'counting closed tours on 8x8 would hold about 1.3e+09 states at once, about 34.0 GiB of memory, and take hours (docs/counting.md: what it would take)'
    """
    from knightstour.counting.frontier import expected_peak, memory_text, plan

    terminals = tuple(x for x in (request.start, request.end) if x is not None)
    try:
        sweep = plan(request.board, () if request.closed else terminals, request.closed)
    except InputLimitError as e:
        return str(e).splitlines()[0]
    peak = expected_peak(sweep)
    if peak is None:
        return None
    side = min(request.board.width, request.board.height)
    return (
        f"counting {request.kind} tours on {request.board.description} would hold about "
        f"{peak:.1e} states at once, about {memory_text(peak)} of memory, and take "
        f"{'minutes' if side < 8 else 'hours'} (docs/counting.md: what it would take)"
    )


def count_for(request: CountRequest, **how: Unpack[HowToCount]) -> int:
    """:func:`count` for a checked request, ``how`` ``count`` takes it: computed, never
    recalled. A Dask scheduler that cannot be used is bad input (one line: Dask missing, the
    scheduler unreachable)."""
    how = _checked_how(how)
    scheduler, time_limit = how.get("scheduler"), how.get("time_limit")
    checkpoint, workdir = how.get("checkpoint"), how.get("workdir")
    memory = arguments.memory(how.get("memory"))
    if (memory is not None or workdir is not None) and (
        scheduler is not None or request.method == "enumerate"
    ):
        raise InvalidInputError(
            "a memory bound and a spill folder are for the frontier sweep in this process: "
            "drop --memory and --workdir"
        )
    if scheduler is not None and request.method == "enumerate":
        raise InvalidInputError("the enumerate method runs in this process: drop --scheduler")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if checkpoint is not None and (scheduler is not None or request.method == "enumerate"):
        raise InvalidInputError("a checkpoint is kept by the frontier sweep in this process only")
    if checkpoint is not None:  # a file that cannot be used is refused before any counting
        from knightstour.counting.checkpoint import check_path

        checkpoint = check_path(checkpoint)
    if workdir is not None:
        workdir = arguments.folder(workdir, "workdir")
    theory = by_theory(request)
    if theory is not None:
        return theory.count
    options = RunOptions(
        progress=how.get("progress"),
        deadline=deadline,
        checkpoint=checkpoint,
        memory=memory,
        workdir=workdir,
    )
    return _base_count(request, scheduler, options) * request.factor


def _what_and_how(keywords: CountKeywords) -> tuple[WhatToCount, HowToCount]:
    """The keywords of :func:`count` split into what to count and how; a keyword of neither
    is a :class:`TypeError`, as Python raises for a function's unknown keyword.

    >>> _what_and_how({"closed": True, "time_limit": 5.0})
    ({'closed': True}, {'time_limit': 5.0})
    >>> _what_and_how({"colsed": True})
    Traceback (most recent call last):
    ...
    TypeError: count() got an unexpected keyword argument 'colsed'
    """
    what = {k: v for k, v in keywords.items() if k in WhatToCount.__optional_keys__}
    how = {k: v for k, v in keywords.items() if k in HowToCount.__optional_keys__}
    unknown = sorted(keywords.keys() - what.keys() - how.keys())
    if unknown:
        raise TypeError(f"count() got an unexpected keyword argument {unknown[0]!r}")
    return cast(WhatToCount, what), cast(HowToCount, how)


def _checked_how(how: HowToCount) -> HowToCount:
    """``how`` with its time limit, scheduler and progress checked (:mod:`knightstour.arguments`:
    an :class:`~knightstour.errors.InvalidInputError` naming the argument); the checkpoint is
    checked as a file when counting begins.

    >>> _checked_how({"time_limit": 2})
    {'time_limit': 2.0}
    >>> _checked_how({"scheduler": 5})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: scheduler must be the address of a Dask scheduler (a string like 'host:8786'), got 5
    """
    out = dict(how)
    if "time_limit" in how:
        out["time_limit"] = arguments.time_limit(how["time_limit"])
    if "scheduler" in how:
        out["scheduler"] = arguments.scheduler(how["scheduler"])
    if "progress" in how:
        out["progress"] = arguments.progress(how["progress"])
    if "memory" in how:
        out["memory"] = arguments.memory(how["memory"])
    return out  # type: ignore[return-value]


def _base_count(request: CountRequest, scheduler: str | None, options: RunOptions) -> int:
    """Undirected: cycles (closed), paths with the given ends (open, or closed with both ends),
    on a Dask cluster at ``scheduler`` (None: in this process)."""
    b, s, e = request.board, request.start, request.end
    if b.size == 1:
        return 1  # open: standing on the one square is the tour (closed: theory's 0)
    if request.closed and s is not None and e is not None:
        # closed tours from s to e (a move apart) are the open paths from s to e
        terminals: tuple[int, ...] = (s, e)
        closed = False
    elif request.closed:
        terminals, closed = (), True
    else:
        terminals, closed = tuple(x for x in (s, e) if x is not None), False
    if request.method == "enumerate":
        from knightstour.counting.enumerate import count_paths

        return count_paths(b, terminals, closed, options)
    from knightstour.counting.frontier import count_paths as frontier_count
    from knightstour.counting.frontier import plan

    if scheduler is not None:
        sweep = plan(b, terminals, closed, deadline=options.deadline)
        try:
            from knightstour.counting.distributed import run_on_cluster

            return run_on_cluster(sweep, scheduler, options=options)
        except ImportError as e:
            raise InvalidInputError(
                f"--scheduler needs Dask: pip install 'knightstour[cluster]' ({e})"
            ) from None
        except (OSError, TimeoutError) as e:
            raise InvalidInputError(
                f"cannot use the Dask scheduler at {scheduler}: {e or type(e).__name__}"
            ) from None
    return frontier_count(b, terminals, closed, options)
