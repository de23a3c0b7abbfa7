"""The tour library's SQLite storage: one small class a table, and the one SQL of the package.

A library is one SQLite file (WAL journal, so a process killed mid-batch loses that batch and
nothing else). :class:`Library` owns the connection, the numbered migrations
(:mod:`.schema`) and :meth:`~Library.atomic` transactions, and hands out its tables:

- ``lib.tours`` (:class:`~.tours.Tours`): each tour once, as its packed canonical form
  (:mod:`knightstour.library.canonical`) keyed by its kind, with the transform code back to
  the tour as it was made and its metadata; streaming reads (:mod:`.packed` for the exporter);
- ``lib.runs`` (:class:`~.runs.Runs`): generation runs, to resume;
- ``lib.counts`` (:class:`~.counts.Counts`): counts remembered, by :class:`~.counts.CountKey`;
- ``lib.journal`` (:class:`~.journal.Journal`): the semi-magic search's parts walked;
- ``lib.gallery`` (:class:`~.gallery.GalleryQueries`): the overview queries of
  ``library stats`` and the gallery.

Every SQLite failure leaves the store as an :class:`~knightstour.errors.InvalidInputError`
naming the file and the problem: a damaged file says so with ``PRAGMA integrity_check``'s word,
and :meth:`Library.check_integrity` refuses to write into one. ``Library(path, readonly=True)``
reads a library it may not write (a read-only folder or file system: ``mode=ro``, then
``immutable=1`` when even the ``-shm`` file cannot be made), at the schema version it has.

>>> import knightstour as kt
>>> lib = Library(":memory:")
>>> t = kt.solve("5x5", start="a1", method="warnsdorff")
>>> lib.tours.add([t, t.reversed()], method="warnsdorff")   # the same tour twice: stored once
1
>>> lib.tours.get(1).tour == t
True
"""

from knightstour.library.store.counts import CountKey, KnownCount
from knightstour.library.store.library import Library
from knightstour.library.store.records import (
    DEFAULT_DB,
    MAX_ID,
    Batch,
    PackedRows,
    StoredTour,
    canonical_batch,
    library_board,
    same_kind,
    shape_of,
)
from knightstour.library.store.runs import Run, RunRequest
from knightstour.library.store.schema import MIGRATIONS

__all__ = [
    "DEFAULT_DB",
    "MAX_ID",
    "MIGRATIONS",
    "Batch",
    "CountKey",
    "KnownCount",
    "Library",
    "PackedRows",
    "Run",
    "RunRequest",
    "StoredTour",
    "canonical_batch",
    "library_board",
    "same_kind",
    "shape_of",
]
