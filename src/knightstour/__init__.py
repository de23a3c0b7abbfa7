"""knightstour: knight's tours on any board.

>>> import knightstour as kt
>>> tour = kt.solve("8x8", start="a1", closed=True)
>>> tour.path[0], len(tour.path), tour.closed
('a1', 64, True)
>>> kt.exists("5x5", start="b1").exists
False

Importing the package is light: NumPy is loaded, the compiled solvers only when a solve needs
them.
"""

from knightstour.board import Board, parse_board
from knightstour.counting import count
from knightstour.errors import (
    InternalError,
    InvalidInputError,
    InvalidTourError,
    KnightsTourError,
    NoTourError,
    SearchFailedError,
)
from knightstour.existence import Existence, exists
from knightstour.solvers import METHODS, solve
from knightstour.solvers.files import solve_to_npy
from knightstour.tour import Problem, Tour, find_problems, validate

__version__ = "0.1.0"

__all__ = [
    "METHODS",
    "Board",
    "Existence",
    "InternalError",
    "InvalidInputError",
    "InvalidTourError",
    "KnightsTourError",
    "NoTourError",
    "Problem",
    "SearchFailedError",
    "Tour",
    "count",
    "exists",
    "find_problems",
    "parse_board",
    "solve",
    "solve_to_npy",
    "validate",
]
