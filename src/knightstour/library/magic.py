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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.library.store import Batch, Library, canonical_batch
from knightstour.library.store.journal import new_owner
from knightstour.magic import saved
from knightstour.magic.search import DISCARD, PartResult, Range, scheme_of

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
        #: the name this run's claims carry
        self.owner = new_owner()

    def done_parts(self, rng: Range) -> set[int] | None:
        """The parts of ``rng`` walked so far; None when the whole range is."""
        return self.library.journal.parts_done(self.spec, scheme_of(rng), rng.number)

    def saved(self, rng: Range, *, discard_damaged: bool = False) -> dict[int, dict[str, Any]]:
        """The walks of ``rng``'s parts stopped before their ends, by part, each checked
        (:func:`knightstour.magic.saved.decode`). A damaged one is an
        :class:`~knightstour.errors.InvalidInputError` of one line, or with ``discard_damaged``
        dropped (its part is walked again from its start); one saved before walks had a version
        is left out (likewise)."""
        scheme = scheme_of(rng)
        out = {}
        for part, blob in self.library.journal.states(self.spec, scheme, rng.number).items():
            where = f"the saved walk of part {part} of range {rng.number} of {self.spec} in "
            where += self.library.path

            def refuse(problem: str, where: str = where) -> InvalidInputError:
                return InvalidInputError(f"{where} {problem} ({DISCARD})")

            try:
                walk = saved.decode(blob, saved.identity(self.spec, scheme, rng.number, part),
                                    refuse)  # fmt: skip
            except InvalidInputError:
                if not discard_damaged:
                    raise
                self.discard(rng, part)
                continue
            if walk is not None:
                out[part] = walk
        return out

    def discard(self, rng: Range, part: int) -> None:
        """Drop the saved walk of ``part`` of ``rng``: the part is walked again from its start."""
        self.library.journal.drop_state(self.spec, scheme_of(rng), rng.number, part)

    def keep(self, result: PartResult, limit: int | None = None) -> tuple[int, int]:
        """Keep a stopped part's walk and its tours so far: how many tours were new classes,
        and how many were taken (all, or up to ``limit`` new: then the walk is not kept)."""
        assert result.state is not None
        ident = saved.identity(self.spec, result.scheme, result.range, result.part)
        return self.library.journal.keep_state(
            self.spec, result.scheme, result.range, result.part,
            saved.encode(ident, result.state), self._batch(result), limit,
        )  # fmt: skip

    def record(self, result: PartResult, limit: int | None = None) -> tuple[int, int]:
        """Store a walked part and its tours: how many tours were new classes, and how many
        were taken (all, or up to ``limit`` new: then the part is not recorded)."""
        return self.library.journal.record_part(
            self.spec, result.scheme, result.range, result.part, found=result.total_found,
            nodes=result.total_nodes,
            seconds=result.seconds if result.total_seconds is None else result.total_seconds,
            tours=self._batch(result),
            limit=limit,
        )  # fmt: skip

    def claim(self, rng: Range, parts: list[int]) -> list[int]:
        """Claim ``parts`` of ``rng`` for this run: those it gets."""
        return self.library.journal.claim(self.spec, scheme_of(rng), rng.number, parts, self.owner)

    def release(self) -> None:
        """Drop this run's claims."""
        self.library.journal.release(self.spec, self.owner)

    def _batch(self, result: PartResult) -> Batch | None:
        return canonical_batch(self.board, False, result.tours) if len(result.tours) else None

    def finish_range(self, rng: Range, parts: int) -> bool:
        """Mark ``rng`` walked if all its ``parts`` are recorded; whether it is."""
        return self.library.journal.finish_range(self.spec, scheme_of(rng), rng.number, parts=parts)

    def add(self, tours: Iterable[Tour], *, method: str | None = None) -> int:
        """Store built tours (``method`` overrides their own); how many were new classes."""
        return self.library.tours.add(tours, method=method)

    def class_of(self, tour: Tour) -> bytes:
        """The library's canonical form of ``tour`` as a semi-magic numbering (an open tour):
        two tours are one class exactly when these are equal."""
        from knightstour.library.canonical import canonical_form

        return canonical_form(self.board, tour.indices, closed=False)[0]

    def classes(self) -> int:
        """How many semi-magic tours (one a class) the library holds on this board."""
        from knightstour.library.queries import magic_counts

        return magic_counts(self.library, self.spec, False)[0]
