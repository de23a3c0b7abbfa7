"""What ``knightstour library`` asks of a library, answered as data: statistics per board and
kind with their completeness and semi-magic counts, and the semi-magic tours.

The store answers the SQL (:mod:`knightstour.library.store`); this module adds what needs the
tours themselves (their classes' sizes, their sums), so the command line only prints.

>>> from knightstour.library import Library
>>> from knightstour.library.complete import generate_all
>>> lib = Library(":memory:")
>>> _ = generate_all("3x4", db=lib)
>>> report = library_report(lib)
>>> report.tours, [(k.board, k.completeness.text(), k.semi_magic) for k in report.kinds]
(3, [('3x4', 'complete: 16 of 16 tours', 0)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from knightstour.board import BoardLike
from knightstour.library.complete import Completeness, completeness
from knightstour.library.store import Library, StoredTour, library_board
from knightstour.numbering import count_magic

if TYPE_CHECKING:
    from knightstour.magic.classes import MagicClass, Tally

__all__ = [
    "KindReport",
    "LibraryReport",
    "library_report",
    "magic_classes",
    "magic_classes_json",
    "magic_classes_report",
    "magic_counts",
    "magic_tours",
]


@dataclass(frozen=True)
class KindReport:
    """The tours of one board and kind: the store's statistics
    (:meth:`~knightstour.library.store.gallery.GalleryQueries.stats`), whether they are every
    tour of the board, and how many are semi-magic and magic."""

    stats: dict[str, Any]
    completeness: Completeness
    semi_magic: int
    magic: int
    #: the semi-magic tours' classes by family (:func:`knightstour.magic.classes.tally`), on a
    #: board cut into 4 x 4 blocks that holds some; None otherwise
    families: Tally | None = None

    @property
    def board(self) -> str:
        """The board's key (its spec for a plain board)."""
        return str(self.stats["board"])

    @property
    def plain(self) -> bool:
        """Whether the board is a plain knight's rectangle."""
        return bool(library_board(self.board).is_plain_knight)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of a kind in ``library stats --format json``."""
        return {
            **self.stats,
            "completeness": self.completeness.to_dict(),
            "semi_magic": self.semi_magic,
            "magic": self.magic,
            "semi_magic_families": None if self.families is None
            else self.families.to_dict()["families"],
        }  # fmt: skip


@dataclass(frozen=True)
class LibraryReport:
    """``library stats``: the library's name, its tours, and a :class:`KindReport` each board
    and kind."""

    db: str
    kinds: list[KindReport]

    @property
    def tours(self) -> int:
        return sum(int(k.stats["tours"]) for k in self.kinds)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``library stats --format json``."""
        return {"db": self.db, "tours": self.tours, "kinds": [k.to_dict() for k in self.kinds]}


def library_report(lib: Library, board: BoardLike | None = None) -> LibraryReport:
    """The statistics of ``lib`` (on ``board``): per board and kind, with completeness (when
    the count is quick or remembered) and the semi-magic and magic tours."""
    from knightstour.magic.classes import has_blocks

    stats = lib.gallery.stats(board)
    done = {(c.board, c.closed): c for c in completeness(lib, board)}
    kinds = []
    for s in stats:
        board_key, closed = s["board"], s["closed"]
        # a kind stored since the statistics were read has its own count of classes
        c = done.get((board_key, closed)) or Completeness(board_key, closed, s["tours"])
        semi, full = magic_counts(lib, board_key, closed)
        families = None
        b = library_board(board_key)
        if semi and has_blocks(b):  # the tours of this kind (the search stores open ones)
            families = magic_classes_report(lib, b, stored=closed)[0]
        kinds.append(KindReport(s, c, semi, full, families))
    return LibraryReport(lib.path, kinds)


def magic_counts(lib: Library, board: BoardLike, closed: bool) -> tuple[int, int]:
    """How many of a board's stored tours (one a class) are semi-magic, and how many magic
    (the sums of ranks and files speak of plain boards: 0 on others).

    >>> import knightstour as kt
    >>> lib = Library(":memory:")
    >>> lib.tours.add([kt.solve("5x5", start="a1")])
    1
    >>> magic_counts(lib, "5x5", False)
    (0, 0)
    """
    semi = full = 0
    for b, _, _, tours in lib.tours.iter_decoded(board, closed):
        if not b.is_plain_knight:
            return 0, 0
        s, m = count_magic(b.width, b.height, tours)
        semi, full = semi + s, full + m
    return semi, full


def magic_tours(
    lib: Library,
    board: BoardLike | None = None,
    closed: bool | None = None,
    *,
    after: int = 0,
    limit: int = 20,
) -> list[tuple[StoredTour, str]]:
    """Up to ``limit`` semi-magic tours with ids above ``after``, each with its verdict
    (``semi-magic`` or ``magic``).

    The library keeps one tour of each class; the symmetries of the board and the reversed
    numbering keep a tour semi-magic (or magic), so the class's tour speaks for the class.

    >>> magic_tours(Library(":memory:"))
    []
    """
    found: list[tuple[StoredTour, str]] = []
    while len(found) < limit:
        page = lib.tours.list(board, closed, after=after, limit=1000)
        if not page:
            break
        for t in page:
            if t.board.is_plain_knight and t.board.width * t.board.height > 1:
                verdict = str(t.tour.magic().verdict)
                if verdict != "neither":
                    found.append((t, verdict))
        after = page[-1].id
    return found[:limit]


def magic_classes(
    lib: Library,
    board: BoardLike,
    *,
    reentrant: bool | None = None,
    diagonal: bool = False,
    stored: bool | None = None,
) -> list[MagicClass]:
    """The classes of semi-magic tours the library holds on ``board``, each classified
    (:func:`knightstour.magic.classes.classify`) once, in :data:`FAMILIES` order, the closed
    (reentrant) ones first, then by canonical numbering. ``reentrant``: only the closed (True)
    or open (False) ones; ``diagonal``: only the magic ones; ``stored``: only the tours stored
    as closed (True) or open (False) ones. The search stores numberings as open tours; a tour
    imported as a closed one is read as numbered from its stored start, and a class stored
    both ways is listed once (the tour of the lower id). The tours are read a batch at a time
    and their sums checked together; only the semi-magic ones are classified.

    >>> from knightstour.magic import find
    >>> from knightstour.library.magic import MagicJournal
    >>> lib = Library(":memory:")
    >>> _ = find("12x12", MagicJournal(lib, 12, 12), count=2)
    >>> [(c.family, c.range) for c in magic_classes(lib, "12x12")]
    [('quads', None), ('quads', None)]
    """
    from knightstour.board import parse_board
    from knightstour.magic.classes import FAMILIES, classify
    from knightstour.numbering import magic_masks

    b = parse_board(board)
    chosen: dict[tuple[int, ...], MagicClass] = {}
    if not b.is_plain_knight or b.depth > 1:
        return []
    for kb, _, rows, tours in lib.tours.iter_decoded(b, stored):
        semi, full = magic_masks(kb.width, kb.height, tours)
        for i in np.flatnonzero(full if diagonal else semi):
            verdict = "magic" if full[i] else "semi-magic"
            c = classify(kb, tours[i], verdict, tour_id=int(rows[i][0]))
            kept = chosen.get(c.order)
            if (reentrant is None or c.closed == reentrant) and (
                kept is None or (kept.id or 0) > (c.id or 0)
            ):
                chosen[c.order] = c
    rank = {f: i for i, f in enumerate((*FAMILIES, None))}
    return sorted(chosen.values(), key=lambda c: (rank[c.family], not c.closed, c.order))


def magic_classes_report(
    lib: Library,
    board: BoardLike,
    *,
    reentrant: bool | None = None,
    diagonal: bool = False,
    stored: bool | None = None,
) -> tuple[Tally, list[MagicClass]]:
    """The classes of :func:`magic_classes` and their :class:`~knightstour.magic.classes.Tally`
    (by family, beside the published census): what ``magic --classes`` prints.

    >>> tally, classes = magic_classes_report(Library(":memory:"), "8x8")
    >>> tally.classes, tally.published().classes, classes
    (0, 140, [])
    """
    from knightstour.board import parse_board
    from knightstour.magic.classes import tally

    b = parse_board(board)
    classes = magic_classes(lib, b, reentrant=reentrant, diagonal=diagonal, stored=stored)
    walked = lib.journal.walked(b.spec)
    return tally(b, classes, closed=bool(reentrant), diagonal=diagonal, searched=walked), classes


def magic_classes_json(
    lib: Library, board: BoardLike, *, reentrant: bool | None = None, diagonal: bool = False
) -> dict[str, Any]:
    """:func:`magic_classes_report` as JSON: the tally (classes and closed ones, by family; the
    filters; the published census or null) and ``tours``, each class's
    :meth:`~knightstour.magic.classes.MagicClass.to_dict`. What ``magic --classes --format
    json`` prints and the gallery's ``/api/library/magic-classes`` answers.

    >>> d = magic_classes_json(Library(":memory:"), "8x8")
    >>> d["classes"], d["families"]["quads"], d["published"]["classes"], d["tours"]
    (0, {'classes': 0, 'reentrant': 0}, 140, [])
    """
    report, classes = magic_classes_report(lib, board, reentrant=reentrant, diagonal=diagonal)
    return {**report.to_dict(), "tours": [c.to_dict() for c in classes]}
