"""The semi-magic search's journal in a tour library: parts walked, and the tours they found.

A semi-magic tour is stored as the numbering it is, an open tour in the library's terms, so that
its classes are exactly the 16 images that keep it semi-magic (the board's 8 symmetries times the
reversed numbering); whether it is closed is read from its ends. A closed tour stored as a cycle
would forget which of its squares holds 1, and with it the sums.

>>> from knightstour.library.store import Library
>>> from knightstour.magic.search import ranges
>>> journal = MagicJournal(Library(":memory:"), 6, 6)
>>> journal.done_parts(ranges(6, 6)[0])
set()
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from knightstour.board import Board
from knightstour.library.store import Batch, Library, canonical_batch
from knightstour.magic.search import PartResult, Range, scheme_of

if TYPE_CHECKING:
    from knightstour.tour import Tour

__all__ = ["MagicJournal"]


class MagicJournal:
    """:class:`knightstour.magic.Keeper` in ``library`` for ``width x height``: the search's
    journal, and the store of the tours :func:`knightstour.magic.find` builds."""

    def __init__(self, library: Library, width: int, height: int) -> None:
        self.library = library
        self.board = Board(width, height)
        self.spec = f"{width}x{height}"

    def done_parts(self, rng: Range) -> set[int] | None:
        """The parts of ``rng`` walked so far; None when the whole range is."""
        return self.library.journal.parts_done(self.spec, scheme_of(rng), rng.number)

    def saved(self, rng: Range) -> dict[int, dict[str, np.ndarray]]:
        """The walks of ``rng``'s parts stopped before their ends, by part."""
        out = {}
        for part, blob in self.library.journal.states(
            self.spec, scheme_of(rng), rng.number
        ).items():
            with np.load(io.BytesIO(blob), allow_pickle=False) as data:
                out[part] = {key: data[key] for key in data.files}
        return out

    def keep(self, result: PartResult) -> int:
        """Keep a stopped part's walk and its tours so far; how many tours were new classes."""
        assert result.state is not None
        buffer = io.BytesIO()
        arrays: dict[str, Any] = dict(result.state)
        np.savez(buffer, **arrays)
        return self.library.journal.keep_state(
            self.spec,
            result.scheme,
            result.range,
            result.part,
            buffer.getvalue(),
            self._batch(result),
        )

    def record(self, result: PartResult) -> int:
        """Store a walked part and its tours; how many tours were new classes."""
        return self.library.journal.record_part(
            self.spec, result.scheme, result.range, result.part, found=result.total_found,
            nodes=result.total_nodes, seconds=result.seconds, tours=self._batch(result),
        )  # fmt: skip

    def _batch(self, result: PartResult) -> Batch | None:
        return canonical_batch(self.board, False, result.tours) if len(result.tours) else None

    def finish_range(self, rng: Range, parts: int) -> None:
        """Mark ``rng`` walked."""
        self.library.journal.finish_range(self.spec, scheme_of(rng), rng.number, parts=parts)

    def add(self, tours: Iterable[Tour], *, method: str | None = None) -> int:
        """Store built tours (``method`` overrides their own); how many were new classes."""
        return self.library.tours.add(tours, method=method)

    def classes(self) -> int:
        """How many semi-magic tours (one a class) the library holds on this board."""
        from knightstour.library.queries import magic_counts

        return magic_counts(self.library, self.spec, False)[0]
