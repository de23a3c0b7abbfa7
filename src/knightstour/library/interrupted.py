"""What Ctrl-C raises in a library run (:func:`~knightstour.library.generate.generate` and
:func:`~knightstour.library.complete.generate_all`): :class:`GenerateInterrupted`, apart from
both so that each can use the other's module without a cycle.

>>> GenerateInterrupted(12).kept
12
"""

from __future__ import annotations

__all__ = ["GenerateInterrupted"]


class GenerateInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``kept`` tours of the run are stored (the same call continues it).

    >>> str(GenerateInterrupted(1200))
    'stopped; 1,200 tours kept'
    """

    def __init__(self, kept: int) -> None:
        super().__init__(f"stopped; {kept:,} tours kept")
        self.kept = kept
