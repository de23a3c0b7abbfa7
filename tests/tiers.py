"""Whole sweeps or representative samples: what a test that walks a whole domain (every square,
every board up to an area, every pair of ends) takes in each tier.

The default tier (``make test``, ``make test-fast``) takes a fixed-seed sample of the domain;
``pytest --all`` (``make test-all``) takes all of it. Fuzz tests likewise make an eighth of their
examples without ``--all``, or fewer where each example is a whole command (:func:`examples`). The same test body serves both, so a sweep
checks in the opt-in tier exactly what its sample checks every day. Tests whose whole body is a
sweep (no sample makes sense) carry the ``sweep`` marker instead, and run under ``--all`` only.

Not a test file; the tests import it, and tests/conftest.py sets :data:`WHOLE` from ``--all``
before any test module is collected.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

#: Whether this run takes the whole domains (``--all``); set by tests/conftest.py.
WHOLE = False


def sample(items: Iterable[T], k: int, *, seed: int, keep: Iterable[T] = ()) -> list[T]:
    """All of ``items`` under ``--all``; else ``k`` of them drawn with ``seed``, in their order,
    the ``keep`` ones (a domain's edge cases: corners, the first and last) always among them.

    The draw depends on nothing but the arguments, so every run (and every xdist worker)
    collects the same tests.

    >>> sample(range(100), 4, seed=1, keep=[0, 99]) if not WHOLE else [0, 18, 73, 99]
    [0, 18, 73, 99]
    >>> len(sample(range(100), 4, seed=1)) if WHOLE else 100
    100
    >>> sample("abc", 10, seed=1)
    ['a', 'b', 'c']
    """
    seq = list(items)
    if WHOLE or k >= len(seq):
        return seq
    wanted = list(keep)
    kept = {i for i, v in enumerate(seq) if v in wanted}
    rest = [i for i in range(len(seq)) if i not in kept]
    drawn = random.Random(seed).sample(rest, max(0, k - len(kept)))
    return [seq[i] for i in sorted({*kept, *drawn})]


def examples(n: int, default: int | None = None) -> int:
    """Hypothesis's ``max_examples`` for a fuzz test written for ``n``: all ``n`` under
    ``--all``, else ``default`` or an eighth of them (at least 10).

    >>> examples(2000) if not WHOLE else 250
    250
    >>> examples(3000, default=300) if not WHOLE else 300
    300
    """
    if WHOLE:
        return n
    return default if default is not None else max(10, n // 8)
