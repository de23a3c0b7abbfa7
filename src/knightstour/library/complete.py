"""Complete libraries: every tour of a small board, and whether a collection holds them all.

:func:`generate_all` walks every tour of a board (the ``enumerate`` counting method's walk,
:func:`knightstour.counting.enumerate.representatives`) one per class of the library (the board's
symmetries, reversal and, for closed tours, the start square: :mod:`.canonical`), and streams
them in batches into the store. Boards with more than :data:`MAX_TOURS` tours, or whose tours
cannot be counted within :data:`COUNT_SECONDS`, are refused up front.

:func:`completeness` tells whether a library holds every tour of a board: the tours a class stands
for (:func:`orbit_sizes`: its distinct images, as directed tours in the sense of
:func:`knightstour.count`) summed over the classes stored, against the count.

>>> from knightstour.library import Library
>>> lib = Library(":memory:")
>>> r = generate_all("5x5", db=lib)
>>> r.added, r.tours, r.count
(112, 1728, 1728)
>>> c = completeness_of(lib, "5x5", False)
>>> c.complete, c.text()
(True, 'complete: 1,728 of 1,728 tours')
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.counting import count, count_request, known
from knightstour.counting.enumerate import check_size, representatives
from knightstour.errors import (
    InputLimitError,
    InternalError,
    InvalidInputError,
    KnightsTourError,
    NoTourError,
    SearchFailedError,
)
from knightstour.existence import exists
from knightstour.kernels import jit
from knightstour.library import canonical as cf
from knightstour.library.interrupted import GenerateInterrupted
from knightstour.library.store import DEFAULT_DB, CountKey, Library, canonical_batch
from knightstour.progress import Progress

__all__ = [
    "BEFORE_PUBLISHED_SECONDS",
    "COUNT_SECONDS",
    "MAX_TOURS",
    "STATS_SECONDS",
    "AllResult",
    "Completeness",
    "completeness",
    "completeness_from",
    "completeness_of",
    "count_within",
    "generate_all",
    "how_many",
    "orbit_sizes",
]

#: ``generate --all`` refuses boards with more tours than this (directed, as ``kt.count``).
MAX_TOURS = 10**7
#: Seconds ``generate --all`` gives the count that decides whether to go on.
COUNT_SECONDS = 10.0
#: Seconds ``library stats`` gives each count (a board whose count takes longer gets no verdict).
STATS_SECONDS = 5.0
#: ... and this long when a published figure of the count stands by (6 x 6 open: 6,637,920).
BEFORE_PUBLISHED_SECONDS = 1.0
#: Boards wider than this on both sides are never counted for ``library stats``: the frontier
#: count takes minutes there (7 x 7), so it could only time out.
STATS_MAX_SHORT_SIDE = 6
#: The most tours :func:`generate_all` stores in one transaction.
BATCH = 4096
#: The method name the library records for enumerated tours.
METHOD = "enumerate"


def orbit_sizes(
    board: Board, closed: bool, tours: np.ndarray, start: int | None = None
) -> np.ndarray:
    """How many directed tours each tour's class holds: its distinct images under the board's
    symmetries and reversal (a closed tour's images as cycles, wherever they start).

    With ``start``, only the images that start there (for closed tours, every image: a cycle
    passes every square). Summed over every class, that is ``kt.count(board, closed=closed,
    start=start)``. An image that equals the tour is counted once: a class of ``k`` distinct
    images holds ``2 * symmetries / k`` equal ones (its stabiliser), so the count is exact.

    >>> import knightstour as kt
    >>> t = kt.solve("5x5", start="a1", method="warnsdorff")
    >>> orbit_sizes(t.board, False, t.indices[None, :]).tolist()
    [16]
    """
    perms, _ = cf.symmetries(board.width, board.height)
    tours = np.asarray(tours, dtype=np.int64)
    if tours.ndim != 2 or tours.shape[1] != board.area:
        raise InvalidInputError(f"tours on {board.spec} are rows of {board.area} squares")
    b, _n = tours.shape
    if b == 0:
        return np.zeros(0, dtype=np.int64)
    base = _from_a1(tours) if closed else tours
    same = np.zeros(b, dtype=np.int64)
    starting = np.zeros(b, dtype=np.int64)
    for g in range(perms.shape[0]):
        image = perms[g][tours]
        for d in range(2):
            v = image[:, ::-1] if d else image
            if closed:
                v = _from_a1(v)
            same += (v == base).all(axis=1)
            if start is None or closed:
                starting += 1
            else:
                starting += v[:, 0] == start
    if (same == 0).any() or (starting % same).any():  # pragma: no cover - a bug
        raise InternalError("orbit sizes: the identity is not among a tour's images")
    return starting // same


def _from_a1(cycles: np.ndarray) -> np.ndarray:
    """Each cycle rotated to start on square 0."""
    n = cycles.shape[1]
    k = np.argmax(cycles == 0, axis=1)
    idx = (np.arange(n)[None, :] + k[:, None]) % n
    return np.take_along_axis(cycles, idx, axis=1)


# -- generate --all ----------------------------------------------------------------------------


@dataclass
class AllResult:
    """What :func:`generate_all` did: ``classes`` tours walked (one a class), ``added`` of them
    new to the library, standing for ``tours`` directed tours of the ``count`` there are."""

    board: str
    closed: bool
    start: str | None
    added: int
    classes: int
    tours: int
    count: int
    seconds: float
    library_count: int = 0
    #: Seconds spent compiling kernels during the call, left out of ``seconds``.
    compiling: float = 0.0

    @property
    def rate(self) -> float:
        """Classes walked a second."""
        return self.classes / self.seconds if self.seconds > 0 else 0.0


def _what(board: Board, closed: bool, start: int | None) -> str:
    """``open tours of 5x5 from a1``: the tours a call lists, in words."""
    kind = "closed" if closed else "open"
    where = "" if start is None else f" from {board.square_name(start)}"
    return f"{kind} tours of {board.spec}{where}"


def count_within(board: Board, closed: bool, start: int | None, seconds: float) -> int:
    """``kt.count`` of the directed tours within ``seconds``: by enumeration on the boards it
    takes (quicker there than the frontier), else by the frontier. Raises
    :class:`~knightstour.errors.SearchFailedError` past ``seconds`` and
    :class:`~knightstour.errors.InputLimitError` for a board neither can count.

    >>> count_within(Board(6, 6), True, None, 120.0)
    19724
    """
    return count(
        board, closed=closed, start=start, method=_method(board, closed), time_limit=seconds
    )


def _method(board: Board, closed: bool) -> str:
    """``enumerate`` for the boards it takes, else ``frontier``."""
    try:
        check_size(board, closed)
    except InputLimitError:
        return "frontier"
    return "enumerate"


def _key(board: Board, closed: bool, start: int | None) -> CountKey:
    """The library's key of the directed count of the tours (from ``start``)."""
    return CountKey.of(count_request(board, closed=closed, start=start).key())


def how_many(
    board: Board,
    closed: bool,
    start: int | None,
    *,
    seconds: float = COUNT_SECONDS,
    lib: Library | None = None,
) -> int:
    """The number of tours :func:`generate_all` would list: the one ``lib`` remembers, or
    counted (:func:`count_within`, and remembered in ``lib`` when it can be written). Refuses,
    with an :class:`~knightstour.errors.InputLimitError` of one line, more than
    :data:`MAX_TOURS` or a count that takes more than ``seconds``.

    >>> how_many(Board(5, 5), False, 0)
    304
    >>> how_many(Board(3, 24), True, None)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: 3x24 has 273,895,232 closed tours, more than the 10,000,000 that --all lists; use --count N
    """
    key = _key(board, closed, start)
    known = None if lib is None else lib.counts.known_count(key)
    if known is not None:
        n = known.number
    else:
        t0 = time.perf_counter()
        try:
            n = count_within(board, closed, start, seconds)
        except (SearchFailedError, InputLimitError):
            raise InputLimitError(
                f"cannot count the {_what(board, closed, start)} in {seconds:g} s, so not "
                f"listing them all (--all takes boards of at most {MAX_TOURS:,} tours); "
                "use --count N"
            ) from None
        if lib is not None and not lib.readonly:
            lib.counts.remember_count(
                key, n, method=_method(board, closed), seconds=time.perf_counter() - t0
            )
    if n > MAX_TOURS:
        kind = "closed" if closed else "open"
        where = "" if start is None else f" from {board.square_name(start)}"
        raise InputLimitError(
            f"{board.spec} has {n:,} {kind} tours{where}, more than the {MAX_TOURS:,} that "
            "--all lists; use --count N"
        )
    return n


def generate_all(
    board: BoardLike,
    *,
    closed: bool = False,
    start: str | int | tuple[int, int] | None = None,
    db: str | os.PathLike[str] | Library = DEFAULT_DB,
    progress: Progress | None = None,
    count_seconds: float = COUNT_SECONDS,
    batch: int = BATCH,
) -> AllResult:
    """Store every tour of ``board`` (from ``start``) in the library ``db``, one per class.

    Counts the tours first (:func:`how_many`: the count the library remembers, or counted and
    remembered; refuses more than :data:`MAX_TOURS`, or a count slower than ``count_seconds``,
    before making a new library file), then walks them one per class and stores them in
    batches, each its own transaction: Ctrl-C raises
    :class:`~knightstour.library.generate.GenerateInterrupted` with the number of new tours
    stored, and the same call again stores the rest (the ones stored already are not added
    twice). ``progress(done, total)``: the parts of the walk done (the walk meets the tours
    unevenly: most classes early, as it reaches each class's least tour first). ``batch``: the
    most tours stored in one transaction (the walk also hands over what it has at least once a
    second). Raises :class:`~knightstour.errors.NoTourError` when there is no such tour.

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> r = generate_all("6x6", closed=True, db=lib)
    >>> r.classes, r.tours, lib.tours.count("6x6", closed=True)
    (1245, 19724, 1245)
    >>> generate_all("6x6", closed=True, db=lib).added       # all there already
    0
    >>> lib.counts.known_count(("6x6", "closed", "", "", True)).number   # remembered
    19724
    """
    b = cf.check_board(parse_board(board))
    s = None if start is None else b.parse_square(start, argument="start")
    answer = exists(b, s, closed=closed)
    if answer.exists is False:
        raise NoTourError(answer.reason)
    watch = jit.Stopwatch()
    path = None if isinstance(db, Library) else db
    lib = db if isinstance(db, Library) else None
    if path is not None and os.path.isfile(path):
        lib = Library(path)  # an existing library: it may remember the count
    try:
        total = how_many(b, closed, s, seconds=count_seconds, lib=lib)
        if total == 0:
            raise NoTourError(f"no {_what(b, closed, s)}: the count is 0")
        if lib is None and path is not None:  # made only now: a refusal leaves no file
            lib = Library(path)
            lib.counts.remember_count(
                _key(b, closed, s), total, method=_method(b, closed),
                seconds=watch.read()[0],
            )  # fmt: skip
        if lib is None:  # pragma: no cover - one of the two above
            raise InternalError("generate_all: no library")
        lib.check_integrity()
        return _store_all(lib, b, closed, s, total, watch, batch, progress)
    finally:
        if lib is not None and lib is not db:
            lib.close()


def _store_all(
    lib: Library,
    b: Board,
    closed: bool,
    s: int | None,
    total: int,
    watch: jit.Stopwatch,
    batch: int,
    progress: Progress | None,
) -> AllResult:
    result = AllResult(b.spec, closed, None if s is None else b.square_name(s), 0, 0, 0, total, 0)
    before = lib.tours.count(b, closed)
    try:
        for paths in representatives(b, closed, s, batch=batch, progress=progress):
            stored = canonical_batch(b, closed, paths)
            if s is None and stored.codes.any():  # pragma: no cover - a bug
                raise InternalError(f"an enumerated {b.spec} tour is not in canonical form")
            result.added += lib.tours.add_batch(stored, method=METHOD)
            result.classes += len(paths)
            result.tours += int(orbit_sizes(b, closed, paths, s).sum())
    except KeyboardInterrupt:  # each batch is stored whole or not at all: count them
        raise GenerateInterrupted(lib.tours.count(b, closed) - before) from None
    if result.tours != total:  # pragma: no cover - a bug in the walk or the count
        raise InternalError(
            f"the {_what(b, closed, s)} walked stand for {result.tours:,} tours, but the count "
            f"says {total:,}"
        )
    result.seconds, result.compiling = watch.read()
    result.library_count = lib.tours.count(b, closed)
    return result


# -- completeness --------------------------------------------------------------------------


@dataclass(frozen=True)
class Completeness:
    """How many of a board's tours a library's classes stand for: ``tours`` of ``count``
    (directed, as :func:`knightstour.count` counts them); both None when the count is neither
    known (theory, the library's memory, a published figure) nor quick (:data:`STATS_SECONDS`).
    ``published``: the source of a count that is a published figure, not computed here."""

    board: str
    closed: bool
    classes: int
    tours: int | None = None
    count: int | None = None
    published: str | None = None
    #: the start square the tours are counted from (``tours``, ``count``), or None: every tour
    start: str | None = None

    @property
    def complete(self) -> bool | None:
        """True when the library holds every tour of the board, None when not known."""
        if self.tours is None or self.count is None:
            return None
        return self.tours == self.count

    def text(self) -> str:
        """``complete: N of N tours``, ``N of M tours known``, or '' when the count is unknown.

        >>> Completeness("5x5", False, 100, 1600, 1728).text()
        '1,600 of 1,728 tours known'
        >>> Completeness("8x8", False, 100).text()
        ''
        >>> Completeness("6x6", False, 1, 16, 6637920, "OEIS A165134").text()
        '16 of 6,637,920 tours known (the count published, not computed here: OEIS A165134)'
        """
        if self.tours is None or self.count is None:
            return ""
        said = f"complete: {self.tours:,} of " if self.complete else f"{self.tours:,} of "
        said += f"{self.count:,} tours" + ("" if self.start is None else f" from {self.start}")
        said += "" if self.complete else " known"
        if self.published:
            said += f" (the count published, not computed here: {self.published})"
        return said

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``library stats --format json``: ``complete`` true, false or null;
        ``published``, the source of a count that is a published figure (else null)."""
        return {
            "complete": self.complete,
            "represented": self.tours,
            "count": self.count,
            "published": self.published,
        }


@lru_cache(maxsize=256)
def _quick_count(width: int, height: int, closed: bool, seconds: float) -> int | None:
    """``kt.count`` of a board when it takes at most ``seconds``, else None (kept per process)."""
    if min(width, height) > STATS_MAX_SHORT_SIDE:
        return None
    try:
        return count_within(Board(width, height), closed, None, seconds)
    except KnightsTourError:
        return None


def completeness_of(
    lib: Library, board: BoardLike, closed: bool, *, seconds: float = STATS_SECONDS
) -> Completeness:
    """Whether ``lib`` holds every ``closed`` (or open) tour of ``board``: see :class:`Completeness`.

    The count: the one the library remembers (``knightstour count`` and ``generate --all``
    remember theirs), else :func:`count_within` when it takes at most ``seconds``. The stored
    tours are read (and their classes' sizes summed) only when the count is known.
    """
    b = cf.check_board(parse_board(board))
    classes = lib.tours.count(b, closed)
    found = known(b, closed=bool(closed), library=lib)
    published = None
    if found is not None and found.source != "published":  # a theorem's 0, or remembered
        n: int | None = found.count
    else:  # counted here when quick (sooner given up when a published figure stands by)
        quick = seconds if found is None else min(seconds, BEFORE_PUBLISHED_SECONDS)
        n = _quick_count(b.width, b.height, bool(closed), quick)
        if n is None and found is not None:
            n, published = found.count, found.citation
    if n is None:
        return Completeness(b.spec, bool(closed), classes)
    tours = 0
    for kb, kc, _rows, decoded in lib.tours.iter_decoded(b, closed):
        tours += int(orbit_sizes(kb, kc, decoded).sum())
    return Completeness(b.spec, bool(closed), classes, tours, n, published)


def completeness_from(
    lib: Library, board: BoardLike, closed: bool, start: int, *, seconds: float = STATS_SECONDS
) -> Completeness:
    """Whether ``lib`` holds every ``closed`` (or open) tour of ``board`` that starts on
    ``start`` (a square index): the tours its classes stand for from there against
    ``kt.count(board, start=...)``, the count the library remembers or one that takes at most
    ``seconds`` (else both None).

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> _ = generate_all("5x5", start="a1", db=lib)
    >>> completeness_from(lib, "5x5", False, 0).text()
    'complete: 304 of 304 tours from a1'
    """
    b = cf.check_board(parse_board(board))
    classes = lib.tours.count(b, closed)
    name = b.square_name(start)
    remembered = lib.counts.known_count(_key(b, closed, start))
    n = None if remembered is None else remembered.number
    if n is None:
        try:
            n = count_within(b, closed, start, seconds)
        except KnightsTourError:
            return Completeness(b.spec, bool(closed), classes, start=name)
    tours = 0
    for kb, kc, _rows, decoded in lib.tours.iter_decoded(b, closed):
        tours += int(orbit_sizes(kb, kc, decoded, start).sum())
    return Completeness(b.spec, bool(closed), classes, tours, n, start=name)


def completeness(
    lib: Library, board: BoardLike | None = None, *, seconds: float = STATS_SECONDS
) -> list[Completeness]:
    """:func:`completeness_of` for every board and kind the library holds (or ``board``'s); a
    shaped board's only its classes (no count to compare them with).

    >>> from knightstour.library import Library
    >>> lib = Library(":memory:")
    >>> _ = generate_all("3x4", db=lib)
    >>> [(c.board, c.complete) for c in completeness(lib)]
    [('3x4', True)]
    """
    out = []
    for w, h, shape, closed, n in lib.tours.kinds(board):
        if shape:
            out.append(Completeness(shape, closed, n))
        else:
            out.append(completeness_of(lib, f"{w}x{h}", closed, seconds=seconds))
    return out
