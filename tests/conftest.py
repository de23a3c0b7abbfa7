"""Shared fixtures and the correctness check every method's answers go through."""

from __future__ import annotations

import itertools

import numpy as np

from knightstour.board import Board


def assert_is_tour(
    board: Board,
    indices: np.ndarray,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
) -> None:
    """An independent, plain check that ``indices`` is a tour (not using find_problems)."""
    seq = [int(v) for v in indices]
    assert len(seq) == board.size, f"{len(seq)} squares, expected {board.size}"
    assert sorted(seq) == sorted(board.squares()), "not every square exactly once"
    for a, b in itertools.pairwise(seq):
        ax, ay = a % board.width, a // board.width
        bx, by = b % board.width, b // board.width
        assert sorted((abs(ax - bx), abs(ay - by))) == [1, 2], f"{a}->{b} is not a knight's move"
    if closed:
        a, b = seq[-1], seq[0]
        assert sorted(
            (abs(a % board.width - b % board.width), abs(a // board.width - b // board.width))
        ) == [1, 2], "not closed"
    if start is not None:
        assert seq[0] == start
    if end is not None:
        assert seq[-1] == end


def assert_is_partial_path(board: Board, indices: np.ndarray) -> None:
    """A path of distinct squares joined by knight's moves (what a stuck heuristic shows)."""
    seq = [int(v) for v in indices]
    assert len(set(seq)) == len(seq)
    assert all(0 <= s < board.area for s in seq)
    for a, b in itertools.pairwise(seq):
        assert board.is_move(a, b)
