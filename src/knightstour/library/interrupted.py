"""What Ctrl-C raises in a library run, once what the run did is stored: the
:class:`LibraryInterrupted` of each (:class:`GenerateInterrupted` for
:func:`~knightstour.library.generate.generate` and
:func:`~knightstour.library.complete.generate_all`, :class:`MetricsInterrupted` for
:func:`~knightstour.library.metrics.update_metrics`), apart from the runs so that each can use
the others' modules without a cycle.

>>> GenerateInterrupted(12).kept
12
>>> str(MetricsInterrupted(20_000))
'stopped; 20,000 tours updated (run it again for the rest)'
"""

from __future__ import annotations

__all__ = ["GenerateInterrupted", "LibraryInterrupted", "MetricsInterrupted"]


class LibraryInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a library run; ``done`` of its items are stored (the same call goes on).

    The message, ``str(e)``, says how many in the words of :attr:`what`:

    >>> str(GenerateInterrupted(1200))
    'stopped; 1,200 tours kept'
    """

    #: what ``done`` counts, in the message
    what = "items done"

    def __init__(self, done: int) -> None:
        super().__init__(f"stopped; {done:,} {self.what}")
        self.done = done


class GenerateInterrupted(LibraryInterrupted):
    """Ctrl-C stopped a run that makes tours; ``kept`` of them are stored."""

    what = "tours kept"

    @property
    def kept(self) -> int:
        """The tours of the run stored before it stopped."""
        return self.done


class MetricsInterrupted(LibraryInterrupted):
    """Ctrl-C stopped :func:`~knightstour.library.metrics.update_metrics`; the ``updated`` tours
    before it are stored."""

    what = "tours updated (run it again for the rest)"

    @property
    def updated(self) -> int:
        """The tours whose metrics were stored before it stopped."""
        return self.done
