"""Published figures about magic tours, quoted by the refusals: none of them computed here.

The 2003 census of 8x8 found every semi-magic tour of the board; the program's search reaches part
of them (docs/magic.md) and quotes the rest as published, with the source.

>>> CENSUS_8X8.semi_magic, CENSUS_8X8.source
(140, 'Stertenbrink, Meyrignac and Mackay (2003)')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CENSUS_8X8", "Census"]


@dataclass(frozen=True)
class Census:
    """A published census of the semi-magic tours of a board: figures this program did not
    compute (its search reaches part of them, docs/magic.md), quoted with their source."""

    board: str
    source: str
    #: semi-magic tours up to the 16 symmetries that keep one semi-magic, closed ones, magic ones
    semi_magic: int
    closed: int
    magic: int
    #: the classes of (square of 1, square of N) the census walked (the search makes as many)
    ranges: int


#: The census of 8x8 by Stertenbrink, Meyrignac and Mackay (2003): published, not computed here.
CENSUS_8X8 = Census("8x8", "Stertenbrink, Meyrignac and Mackay (2003)", 140, 63, 0, 136)
