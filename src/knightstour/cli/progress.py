"""The one progress bar of the command line, drawn by tqdm on stderr when it is a terminal.

The library reports progress through a plain callback ``progress(done, total)`` (pictures,
``generate``, ``warm``); :func:`progress_bar` makes one, or gives None when nobody would see it
(the stream is not a terminal) or nobody wants it (``--quiet``).

>>> import io
>>> class Terminal(io.StringIO):
...     def isatty(self) -> bool:
...         return True
>>> with progress_bar("GIF", stream=io.StringIO()) as progress:
...     progress is None
True
>>> screen = Terminal()
>>> with progress_bar("warm", stream=screen, delay=0, quiet=True) as progress:
...     progress is None, screen.getvalue()
(True, '')
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from knightstour.progress import Progress

__all__ = ["progress_bar"]

#: Seconds before the bar shows (quick work draws nothing), and between redraws.
DELAY, INTERVAL = 0.5, 0.1


@contextmanager
def progress_bar(
    label: str,
    *,
    stream: IO[str] | None = None,
    unit: str = "it",
    delay: float = DELAY,
    quiet: bool = False,
) -> Iterator[Progress | None]:
    """A callback ``progress(done, total)`` drawing a bar on ``stream`` (stderr), or None when
    ``quiet`` or when the stream is not a terminal: then nothing at all is drawn. The bar shows
    only for work that lasts ``delay`` seconds."""
    out = sys.stderr if stream is None else stream
    if quiet or not out.isatty():
        yield None
        return
    from tqdm import tqdm

    with tqdm(
        desc=label,
        file=out,
        unit=unit,
        delay=delay,
        mininterval=INTERVAL,
        dynamic_ncols=True,
    ) as bar:

        def progress(done: int, total: int) -> None:
            if bar.total != total:
                bar.total = total
            bar.update(done - bar.n)

        yield progress
