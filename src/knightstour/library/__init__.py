"""The tour library: many distinct tours in one SQLite file.

- :mod:`.canonical`: canonical forms up to the board's symmetries, reversal and rotation, and the
  packed bytes a tour is stored as;
- :mod:`.store`: the SQLite file (migrations, atomic batches, streaming reads, statistics);
- :mod:`.io`: export (JSON lines, CSV) and import (every tour validated).

:func:`knightstour.generate.generate` fills it.

>>> import knightstour as kt
>>> from knightstour.library import Library
>>> with Library(":memory:") as lib:
...     lib.add([kt.solve("8x8", start="a1", closed=True)])
1
"""

from knightstour.library.canonical import canonical_form, symmetries
from knightstour.library.store import DEFAULT_DB, Batch, Library, StoredTour

__all__ = ["DEFAULT_DB", "Batch", "Library", "StoredTour", "canonical_form", "symmetries"]
