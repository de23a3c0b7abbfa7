"""The progress callback that long work reports to: ``progress(done, total)``.

Rendering, generation and ``warm`` take one (None: report nothing); the command line passes the
one progress bar (:mod:`knightstour.cli.progress`).

>>> seen: list[tuple[int, int]] = []
>>> report: Progress = lambda done, total: seen.append((done, total))
>>> report(1, 4); seen
[(1, 4)]
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress"]

#: ``progress(done, total)``: called as work advances, ``done`` from 0 up to ``total``.
Progress = Callable[[int, int], None]
