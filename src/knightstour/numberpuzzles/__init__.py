"""Knight's tour number puzzles: a board with some squares numbered, to be filled in so that each
number is a knight's move from the next (docs/puzzles.md).

Not the web game's puzzle mode (:mod:`knightstour.puzzle`, building a tour move by move): here
the player writes numbers. :mod:`~knightstour.numberpuzzles.grid` holds the puzzle and its text
and JSON forms, :mod:`~knightstour.numberpuzzles.exact` the exact search that counts completions,
:mod:`~knightstour.numberpuzzles.logic` the solver by human deductions that grades and hints, and
:mod:`~knightstour.numberpuzzles.make` the maker, :mod:`~knightstour.numberpuzzles.play` what the
web board's Numbers mode asks (its boards, the daily puzzle, checks and hints on a player's grid).
"""

from knightstour.numberpuzzles.exact import Completions, completions
from knightstour.numberpuzzles.grid import (
    LEVELS,
    Grid,
    NumberPuzzle,
    check_filled,
    parse_grid,
    parse_puzzle,
    puzzle_from_dict,
)

__all__ = [
    "LEVELS",
    "Completions",
    "Grid",
    "NumberPuzzle",
    "check_filled",
    "completions",
    "parse_grid",
    "parse_puzzle",
    "puzzle_from_dict",
]
