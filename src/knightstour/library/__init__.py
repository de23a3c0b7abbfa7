"""The tour library: many distinct tours in one SQLite file.

- :mod:`.canonical`: canonical forms up to the board's symmetries, reversal and rotation, and the
  packed bytes a tour is stored as;
- :mod:`.store`: the SQLite file (migrations, atomic batches, streaming reads, statistics);
- :mod:`.io`: export (JSON lines, CSV) and import (every tour validated);
- :mod:`.generate`: :func:`~knightstour.library.generate.generate` fills it, with the batch
  kernels of :mod:`._kernels` (loaded through :mod:`knightstour.kernels.jit`).

The store owns every SQL statement; the other modules call its methods.

>>> import knightstour as kt
>>> from knightstour.library import Library
>>> with Library(":memory:") as lib:
...     lib.add([kt.solve("8x8", start="a1", closed=True)])
1
"""

from knightstour.library.canonical import canonical_form, symmetries
from knightstour.library.store import DEFAULT_DB, Batch, Library, StoredTour

__all__ = ["DEFAULT_DB", "Batch", "Library", "StoredTour", "canonical_form", "symmetries"]
