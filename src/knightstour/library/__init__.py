"""The tour library: many distinct tours in one SQLite file.

- :mod:`.canonical`: canonical forms up to the board's symmetries, reversal and rotation, and the
  packed bytes a tour is stored as;
- :mod:`.store`: the SQLite file, one small class a table: ``lib.tours``, ``lib.runs``,
  ``lib.counts``, ``lib.journal`` and the overview queries ``lib.gallery`` (migrations,
  atomic batches, streaming reads, statistics);
- :mod:`.queries`: what ``knightstour library`` asks (statistics with completeness and magic
  counts, the semi-magic tours);
- :mod:`.metrics`: the tours' crossings and turns filled in for an older library
  (``library update``);
- :mod:`.io`: export (JSON lines, CSV) and import (every tour validated);
- :mod:`.generate`: :func:`~knightstour.library.generate.generate` fills it, with the batch
  kernels of :mod:`._kernels` (loaded through :mod:`knightstour.kernels.jit`).

The store owns every SQL statement; the other modules call its methods.

>>> import knightstour as kt
>>> from knightstour.library import Library
>>> with Library(":memory:") as lib:
...     lib.tours.add([kt.solve("8x8", start="a1", closed=True)])
1
"""

from knightstour.library.canonical import canonical_form, symmetries
from knightstour.library.store import DEFAULT_DB, Batch, CountKey, Library, StoredTour

__all__ = [
    "DEFAULT_DB",
    "Batch",
    "CountKey",
    "Library",
    "StoredTour",
    "canonical_form",
    "symmetries",
]
