"""The set-up of a count heeds the time limit and the memory guard (issue 29, item 5): long narrow
boards whose sweep tables would not fit are refused, naming the size, before memory is spent; a
time limit stops the set-up as it stops the sweep."""

from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc

import pytest

import knightstour as kt
from knightstour.board import Board
from knightstour.counting import frontier
from knightstour.errors import InputLimitError, SearchFailedError
from knightstour.solvers import sweep as sweeps

KT = [sys.executable, "-m", "knightstour"]

BOARDS = [
    Board(3, 10),
    Board(3, 3),
    Board(1, 1),
    Board(3, 60),
    Board(5, 30),
    Board(8, 20, holes=["a1", "c5"]),
    Board(5, 30, leaper=(1, 3)),
    Board(5, 30, leaper=(0, 1)),
    Board(6, 20, wrap="cylinder"),
]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.description)
def test_the_set_up_stays_within_its_estimate(board: Board) -> None:
    """The estimate the refusal rests on bounds what the set-up really holds, and the frontier
    it assumes is at least the one the set-up finds."""
    tracemalloc.start()
    try:
        sweep = frontier.plan(board, (), False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sweep.width <= sweeps._frontier_bound(board)
    assert peak <= sweeps.setup_bytes(board), (peak, sweeps.setup_bytes(board))


def test_a_set_up_that_cannot_fit_is_refused_before_it_begins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object) -> None:
        raise AssertionError("the set-up began")

    monkeypatch.setattr(sweeps, "_orientation", never)
    with pytest.raises(InputLimitError, match=r"^counting on 8x20000000 would need about") as e:
        kt.count("8x20000000")
    assert "160,000,000 squares" in str(e.value) and len(str(e.value).splitlines()) == 1
    with pytest.raises(InputLimitError, match="3x1000 would need about"):
        frontier.plan(Board(3, 1000), memory_limit=sweeps.setup_bytes(Board(3, 1000)) - 1)
    monkeypatch.undo()
    assert frontier.plan(Board(3, 10), memory_limit=10**9).steps == 30


def test_a_passed_deadline_stops_the_set_up() -> None:
    with pytest.raises(SearchFailedError, match="stopped at the time limit while setting up"):
        frontier.plan(Board(3, 2000), deadline=time.monotonic())
    assert frontier.plan(Board(3, 10), deadline=time.monotonic()).steps == 30  # too short to look


@pytest.mark.slow  # real processes, a time limit observed
@pytest.mark.parametrize("closed", [False, True])
def test_a_long_narrow_count_stops_at_its_time_limit(closed: bool) -> None:
    r = subprocess.run(
        [*KT, "count", "3x100000", "-q", "--time-limit", "2", *(["--closed"] if closed else [])],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 3 and r.stdout == "", r.stderr
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and "counting on 3x100000 stopped at the time limit" in line


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("spec", ["8x20000000", "7x20000000", "3x100000000"])
def test_a_long_narrow_count_too_large_to_set_up_is_refused(spec: str) -> None:
    r = subprocess.run(
        [*KT, "count", spec, "-q", "--time-limit", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2 and r.stdout == "", r.stderr
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and f"counting on {spec} would need about" in line
