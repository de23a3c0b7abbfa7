"""The shape of the library's tours: their crossings and turns (docs/geometry.md), stored with
each tour as it is stored, and filled in for the tours of an older library.

A library made before the metrics were stored (schema version 6 or older) gains the columns when
it is opened for writing, empty; :func:`update_metrics` (``knightstour library update``) measures
and stores what is missing, a chunk of tours a transaction, so that Ctrl-C keeps every chunk done
and the same command goes on from there. Until then the tours still show their metrics, measured
when shown (:meth:`~knightstour.library.store.StoredTour.shape`), but cannot be ordered or
filtered by them. Tours of wrapped and 3-D boards have none (the metrics are not defined there)
and are left as they are.

>>> import knightstour as kt
>>> from knightstour.library import Library
>>> lib = Library(":memory:")
>>> lib.tours.add([kt.solve("5x5", start="a1", method="warnsdorff")])
1
>>> update_metrics(lib).updated   # stored with the tour already: nothing to do
0
"""

from __future__ import annotations

from dataclasses import dataclass

from knightstour.geometry import has_metrics, shape_batch
from knightstour.library.interrupted import MetricsInterrupted
from knightstour.library.store import Library, same_kind
from knightstour.progress import Progress

__all__ = ["MetricsInterrupted", "UpdateResult", "update_metrics"]

#: Tours measured and stored in one transaction: what Ctrl-C can lose.
CHUNK = 10_000


@dataclass(frozen=True)
class UpdateResult:
    """What :func:`update_metrics` did: tours whose metrics it stored, and tours left without
    (wrapped and 3-D boards, where the metrics are not defined)."""

    updated: int
    undefined: int


def update_metrics(lib: Library, progress: Progress | None = None) -> UpdateResult:
    """Measure and store the crossings and turns of every tour of ``lib`` that has none, in
    chunks of :data:`CHUNK`, each its own transaction; ``progress(done, total)`` after each.
    Ctrl-C raises :class:`MetricsInterrupted` with the tours updated (all of them stored).

    Each tour is decoded and validated as it is read, and measured in one compiled call a
    chunk (:func:`knightstour.geometry.shape_batch`).
    """
    lib.check_integrity()  # never write into a damaged file
    tours = lib.tours
    total = tours.unmeasured()
    done = updated = undefined = 0
    if progress is not None:
        progress(0, total)
    try:
        for rows in tours.iter_unmeasured(chunk=CHUNK):
            with lib.atomic():
                for group in same_kind(rows):
                    board, closed, paths = tours.decode_rows(group)
                    if not has_metrics(board):
                        undefined += len(group)
                        continue
                    crossings, turns = shape_batch(board, paths, closed)
                    tours.store_shapes([r[0] for r in group], crossings, turns)
                    updated += len(group)
            done += len(rows)
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        raise MetricsInterrupted(updated) from None
    return UpdateResult(updated, undefined)
