"""Squirrel & Cull's switching move orderings (being written)."""
from __future__ import annotations

import numpy as np

from knightstour.board import Board
from knightstour.errors import KnightsTourError


def schedule(board: Board, start: int) -> tuple[np.ndarray, np.ndarray]:
    raise KnightsTourError("the squirrel tie-break is not available yet")
