"""The tour library's gallery: what ``knightstour serve --db tours.db`` shows, as JSON.

Read-only: the library is opened with ``readonly=True`` (SQLite's ``mode=ro``), one connection
a thread. Every query is the store's (``lib.gallery``, :mod:`knightstour.library.store.gallery`);
this module shapes their answers for the page and the API: the boards and their counts, pages
of tours (keyset pagination on the id, so a page of a 100,000-tour library costs what the first
page costs), one tour with its numbering's verdict, and two tours compared move by move.

>>> import knightstour as kt
>>> from knightstour.library.store import Library
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "tours.db")
>>> with Library(path) as lib:
...     lib.tours.add([kt.solve("5x5", start="a1", method="warnsdorff")], method="warnsdorff")
1
>>> g = Gallery(path)
>>> [(b["board"], b["tours"]) for b in g.overview()["boards"]]
[('5x5', 1)]
>>> g.page(TourFilter("5x5"))["tours"][0]["start"]
'a1'
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from knightstour.errors import InvalidInputError, KnightsTourError
from knightstour.geometry import crossing_points, has_metrics
from knightstour.library.store import Library, StoredTour, library_board
from knightstour.library.store.gallery import TourFilter

__all__ = ["THUMB_POINTS", "Gallery", "LibraryUnreadable", "NoSuchTour", "TourFilter"]

T = TypeVar("T")

#: A thumbnail's path has at most about this many points (every k-th square of a long tour).
THUMB_POINTS = 1024
#: How long the overview (one scan of the library) is kept before it is counted again.
OVERVIEW_SECONDS = 30.0


class NoSuchTour(InvalidInputError):
    """No tour of that id in the library (HTTP 404)."""

    http_status = 404


class LibraryUnreadable(KnightsTourError):
    """The library shown cannot be read any more (damaged, replaced or removed since the server
    started): the server's trouble, not the request's (HTTP 503)."""

    http_status = 503


class Gallery:
    """The gallery of the tour library at ``path``; refuses a file that is not one.

    Its answers name the library by its file name, never the server's path to it. A library that
    stops being readable while shown is :class:`LibraryUnreadable`; a missing tour
    :class:`NoSuchTour`; a bad filter :class:`~knightstour.errors.InvalidInputError`.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            raise InvalidInputError(f"no tour library at {self.path}")
        Library(self.path, readonly=True).close()  # its error names the file and the problem
        self._local = threading.local()
        self._overview: tuple[float, dict[str, Any]] | None = None
        self._counts: dict[TourFilter, tuple[float, int]] = {}
        self._lock = threading.Lock()
        self._file: tuple[int, ...] | None = None
        self._generation = 0
        self._check_file()

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    def _check_file(self) -> int:
        """The generation of the file shown: the same while the file at the path is the same
        one, unchanged (its device and inode, size and modification time: a library written in
        WAL mode changes its main file only when a writer checkpoints), a new one when it was
        replaced (renamed or copied over), changed, or removed; then what was kept of the old
        file (the overview, the counts) is forgotten, and every connection is opened afresh (an
        open connection in WAL mode would go on reading its cached pages of the old file). A
        file that is gone is :class:`LibraryUnreadable` (an open connection would go on reading
        the removed file)."""
        try:
            st = os.stat(self.path)
        except OSError:
            with self._lock:
                if self._file is not None:
                    self._forget(None)
            raise LibraryUnreadable(
                f"the tour library cannot be read: {self.name} was removed"
            ) from None
        file = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        with self._lock:
            if file != self._file:
                self._forget(file)
            return self._generation

    def _forget(self, file: tuple[int, ...] | None) -> None:
        """Another file at the path, or a changed one (None: none): a new generation, nothing
        kept (under the lock)."""
        self._file, self._overview = file, None
        self._counts.clear()
        self._generation += 1

    def library(self) -> Library:
        """This thread's read-only connection to the library, checked at every request against
        the file at the path (:meth:`_check_file`): a file replaced, or removed and put back, is
        opened afresh."""
        generation = self._check_file()
        lib = getattr(self._local, "lib", None)
        if lib is not None and getattr(self._local, "generation", None) != generation:
            self._local.lib = None
            with contextlib.suppress(Exception):
                lib.close()
            lib = None
        if lib is None:
            lib = self._local.lib = Library(self.path, readonly=True)
            self._local.generation = generation
        return lib

    def _read(self, query: Callable[[Library], T]) -> T:
        """``query(library)``; the library's failures as :class:`LibraryUnreadable`, named by
        the file's name (the request's own faults are checked before a query runs)."""
        try:
            return query(self.library())
        except InvalidInputError as e:
            lib, self._local.lib = getattr(self._local, "lib", None), None
            if lib is not None:  # a fresh connection next time (the file may be back)
                with contextlib.suppress(Exception):
                    lib.close()
            text = str(e).splitlines()[0].replace(self.path, self.name)
            raise LibraryUnreadable(f"the tour library cannot be read: {text}") from None

    def _get(self, tour_id: int) -> StoredTour:
        """The tour ``tour_id``, or :class:`NoSuchTour`."""
        tours, _, _ = self._read(lambda lib: lib.gallery.page(after=tour_id - 1, limit=1))
        if not tours or tours[0].id != tour_id:
            raise NoSuchTour(f"no tour {tour_id} in {self.name}")
        return tours[0]

    # -- the pages' data ----------------------------------------------------------------------

    def overview(self) -> dict[str, Any]:
        """The boards (each kind apart) with their counts and methods, and the totals."""
        generation = self._check_file()  # what is kept is of the file shown now
        now = time.monotonic()
        with self._lock:
            if self._overview is not None and now - self._overview[0] < OVERVIEW_SECONDS:
                return self._overview[1]
        boards: dict[tuple[int, int, str, bool], dict[str, Any]] = {}
        methods: dict[str, int] = {}
        for w, h, shape, closed, method, n in self._read(lambda lib: lib.gallery.kinds()):
            b = library_board(shape) if shape else library_board(f"{w}x{h}")
            entry = boards.setdefault(
                (w, h, shape, closed),
                {
                    "board": b.key,
                    "description": b.description,
                    "width": w,
                    "height": h,
                    "closed": closed,
                    "tours": 0,
                    "methods": {},
                },
            )
            entry["tours"] += n
            entry["methods"][method] = entry["methods"].get(method, 0) + n
            methods[method] = methods.get(method, 0) + n
        out = {
            "library": self.name,
            "tours": sum(methods.values()),
            "boards": list(boards.values()),
            "methods": dict(sorted(methods.items())),
        }
        with self._lock:
            if generation == self._generation:  # not replaced meanwhile
                self._overview = (now, out)
        return out

    def magic_classes(self, board: str) -> dict[str, Any]:
        """The classes of semi-magic tours the library holds on ``board``, by family, beside
        the published census (:func:`knightstour.library.queries.magic_classes_json`)."""
        from knightstour.board import parse_board
        from knightstour.library.queries import magic_classes_json
        from knightstour.magic import unnumbered

        b = parse_board(board)  # the request's faults, before the library is read
        unfit = unnumbered(b)
        if unfit is not None:
            raise InvalidInputError(unfit)
        return {"library": self.name, **self._read(lambda lib: magic_classes_json(lib, b))}

    def count(self, kept: TourFilter) -> int:
        """How many tours ``kept`` keeps (counted again at most every
        :data:`OVERVIEW_SECONDS`)."""
        generation = self._check_file()  # what is kept is of the file shown now
        now = time.monotonic()
        with self._lock:
            hit = self._counts.get(kept)
            if hit is not None and now - hit[0] < OVERVIEW_SECONDS:
                return hit[1]
        n = self._read(lambda lib: lib.gallery.count(kept))
        with self._lock:
            if len(self._counts) > 256:
                self._counts.clear()
            if generation == self._generation:  # not replaced meanwhile
                self._counts[kept] = (now, n)
        return n

    def page(
        self, kept: TourFilter | None = None, *, after: int = 0, before: int | None = None,
        limit: int = 24,
    ) -> dict[str, Any]:  # fmt: skip
        """A page of the tours ``kept`` (thumbnails' paths included) and the cursors of the
        pages beside it."""
        kept = kept or TourFilter()
        if kept.board is not None:
            kept = dataclasses.replace(kept, board=library_board(kept.board).key)
        if before is not None and after:
            raise InvalidInputError("give one cursor, after or before, not both")
        refused = self._read(lambda lib: lib.gallery.refusal(kept, after, before))
        if refused is not None:  # the request's fault, not the library's
            raise InvalidInputError(refused.replace(self.path, self.name))
        tours, earlier, later = self._read(
            lambda lib: lib.gallery.page(kept, after=after, before=before, limit=limit)
        )
        return {
            "tours": [self.summary(t) for t in tours],
            "count": self.count(kept),
            "limit": limit,
            "prev": tours[0].id if earlier and tours else None,
            "next": tours[-1].id if later and tours else None,
            "filters": {
                "board": kept.board,
                "closed": kept.closed,
                "method": kept.method,
                "order": kept.order,
                "max_crossings": kept.max_crossings,
                "max_turns": kept.max_turns,
            },
        }

    def summary(self, t: StoredTour) -> dict[str, Any]:
        """A tour of a page: its metadata and a thumbnail's path (every k-th square)."""
        n = len(t.tour)
        step = max(1, -(-n // THUMB_POINTS))
        idx = t.tour.indices
        thumb = idx[::step].tolist()
        if thumb[-1] != int(idx[-1]):
            thumb.append(int(idx[-1]))
        out = t.info()
        out.update(
            {
                "width": t.board.width,
                "height": t.board.height,
                "depth": t.board.depth,
                "squares": n,
                "thumb": thumb,
                "thumb_step": step,
            }
        )
        if t.method == "magic":  # the search's tours: each the class it stands for
            out["magic_class"] = self._class(t)
        return out

    @staticmethod
    def _class(t: StoredTour) -> dict[str, Any] | None:
        """A semi-magic tour's family, range and whether it is reentrant (None: not one)."""
        from knightstour.magic.classes import describe

        try:
            c = describe(t.tour)
        except InvalidInputError:
            return None
        return {"family": c.family, "range": c.range, "reentrant": c.closed, "verdict": c.verdict}

    def tour(self, tour_id: int) -> dict[str, Any]:
        """One tour: the tour JSON of the contract, its metadata (its crossings and turns
        among them), its numbering's verdict (``magic``, ``semi-magic`` or ``neither``; null on
        a board magic sums do not cover), and ``crossing_points``: where its moves cross, as
        ``[x, y, k]`` (:func:`knightstour.geometry.crossing_points`; null on a wrapped or 3-D
        board)."""
        return self._shown(self._get(tour_id))

    def _shown(self, t: StoredTour) -> dict[str, Any]:
        out = t.tour.to_dict()
        out.update({k: v for k, v in t.info().items() if k not in ("closed", "method")})
        out["method"] = t.method
        out["magic"] = self._verdict(t)
        out["crossing_points"] = None  # where the moves cross: the web board marks them
        if has_metrics(t.board):
            points = crossing_points(t.board, t.tour.indices, t.closed)
            out["crossing_points"] = [list(p) for p in points]
        return out

    @staticmethod
    def _verdict(t: StoredTour) -> str | None:
        b = t.board
        if b.holes or b.depth > 1:
            return None
        try:
            return str(t.tour.magic().verdict)
        except InvalidInputError:
            return None

    def compare(self, a: int, b: int) -> dict[str, Any]:
        """Two tours of one board side by side: the moves they share (either direction)."""
        ta, tb = self._get(a), self._get(b)
        if ta.board.key != tb.board.key:
            raise InvalidInputError(
                f"tours {a} and {b} are on different boards ({ta.board.description} and "
                f"{tb.board.description}): only tours of one board compare"
            )

        def moves(t: StoredTour) -> list[tuple[int, int]]:
            p = t.tour.indices.tolist()
            pairs = list(itertools.pairwise(p))
            if t.closed:
                pairs.append((p[-1], p[0]))
            return pairs

        mb = {frozenset(m) for m in moves(tb)}
        name = ta.board.square_name
        shared = [[name(x), name(y)] for x, y in moves(ta) if frozenset((x, y)) in mb]
        return {
            "a": self._shown(ta),
            "b": self._shown(tb),
            "shared": shared,
            "shared_count": len(shared),
            "moves": [len(moves(ta)), len(moves(tb))],
        }
