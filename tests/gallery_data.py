"""Tour libraries for the gallery's tests: a small one of several boards, kinds and methods
(semi-magic tours among them), and a 100,000-tour one for the speed of paging.

Not a test file; the tests import it.
"""

from __future__ import annotations

from pathlib import Path

import knightstour as kt
from knightstour.library.generate import generate
from knightstour.library.store import Library
from knightstour.magic.construct import construct


def small_library(path: Path) -> Path:
    """8x8 open (warnsdorff, 40), 6x6 closed (20), 5x5 open (12), and 2 semi-magic 8x8 tours
    stored as the magic search stores them (method "magic")."""
    with Library(path) as lib:
        generate("8x8", 40, seed=1, db=lib, workers=1)
        generate("6x6", 20, closed=True, seed=2, db=lib, workers=1)
        generate("5x5", 12, seed=3, db=lib, workers=1)
        lib.tours.add([kt.Tour("8x8", construct(8, 8, seed=s)) for s in (1, 2)], method="magic")
    return path


def big_library(path: Path, tours: int = 100_000) -> Path:
    """``tours`` distinct 8x8 open tours, then a few 6x6 closed ones at the end (a few thousand
    tours in this process: starting workers would cost more than they save). All by Warnsdorff's
    rule: on 6x6 the generator would choose the exact search, seconds for these 30."""
    with Library(path) as lib:
        generate("8x8", tours, seed=11, db=lib, workers=1 if tours <= 10_000 else None)
        generate("6x6", 30, closed=True, seed=12, db=lib, workers=1, method="warnsdorff")
    return path
