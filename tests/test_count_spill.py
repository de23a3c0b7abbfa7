"""Counting past the memory (issue 31, item 3): the states spilled to disk in hash partitions,
added up a partition at a time, give exactly the counts of the sweep in memory; a memory
bound and a spill folder from the library and the command line; the partitions are the
checkpoint (a stopped or killed count goes on from the last finished square); a count whose
partitions would not fit on the disk is refused up front with its estimate, in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import knightstour as kt
from knightstour import arguments
from knightstour.board import Board, parse_board
from knightstour.cli import main
from knightstour.counting import RunOptions, frontier
from knightstour.counting import checkpoint as checkpoints
from knightstour.errors import InputLimitError, InvalidInputError, SearchFailedError

KT = [sys.executable, "-m", "knightstour"]
SIX_CLOSED = 9862  # undirected closed tours of 6x6 (tests/test_count.py checks it)
SIX_OPEN = 6_637_920  # directed open tours of 6x6 (OEIS A165134; tests/test_count_published.py computes it)


def one_line(e: BaseException | str) -> str:
    text = str(e)
    assert text and len(text.strip().splitlines()) == 1 and "Traceback" not in text, text
    return text


def spilled(
    sweep: frontier.Sweep, memory: int, *, weight: int = 1, shards: int | None = None, **kw: Any
) -> tuple[int, frontier.SweepStats]:
    """The count of ``sweep`` with ``memory`` bytes for its states, and what it measured;
    ``kw``: the rest of its :class:`RunOptions`."""
    stats = frontier.SweepStats()
    options = RunOptions(stats=stats, memory=memory, **kw)
    return frontier.run(sweep, options, weight=weight, shards=shards), stats


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "closed", "terminals", "memory"),
    [
        ("5x5", False, (), 40_000),
        ("5x5", False, ("a1",), 8_000),
        ("6x6", True, (), 300_000),
        ("3x12", True, (), 2_500),
        ("3x12", False, (), 16_000),
        ("5x5 holes=c3", False, ("a1",), 600),
        ("5x6", False, (), 400_000),
    ],
)
def test_a_spilled_count_equals_the_count_in_memory(
    spec: str, closed: bool, terminals: tuple[str, ...], memory: int, tmp_path: Path
) -> None:
    name, _, holes = spec.partition(" holes=")
    board = parse_board(name, holes=holes or None)
    ends = tuple(board.parse_square(t) for t in terminals)
    sweep = frontier.plan(board, ends, closed)
    in_memory = frontier.SweepStats()
    expected = frontier.run(sweep, RunOptions(stats=in_memory))
    got, stats = spilled(sweep, memory, workdir=str(tmp_path))
    assert got == expected and expected > 0
    assert stats.spilled_from is not None and stats.partitions >= 3  # several partitions
    assert stats.disk_bytes > 0 and stats.states[-1] == 0
    assert stats.states[stats.spilled_from :] == in_memory.states[stats.spilled_from :]
    assert os.listdir(tmp_path) == []  # its folder removed at the end
    assert in_memory.spilled_from is None  # no bound: held in memory, as before


@pytest.mark.slow  # several seconds: 3x100 spilled into 8 partitions a square
def test_spilled_counts_outgrowing_64_bits_are_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A carry in a partition's table widens it; partitions of different widths are added up
    together; on two threads too; and a count past 2**128 from the sweep itself."""
    sweep = frontier.plan(Board(6, 6), (), True)
    weight = 2**63 + 5
    got, stats = spilled(sweep, 300_000, weight=weight)
    assert got == SIX_CLOSED * weight and stats.limbs == 2 and stats.spilled_from is not None
    monkeypatch.setattr(frontier, "_PARALLEL_FROM", 0)  # every slice on two threads
    got, stats = spilled(frontier.plan(Board(5, 6), (), True), 10_000, weight=weight, shards=2)
    assert got == frontier.run(frontier.plan(Board(5, 6), (), True)) * weight
    assert stats.partitions >= 3
    long = frontier.plan(Board(3, 100), (), True)
    wide, stats = spilled(long, 6_000)
    assert wide == frontier.run(long) and wide > 2**128 and stats.spilled_from is not None


def test_the_number_of_partitions_follows_the_bound() -> None:
    sweep = frontier.plan(Board(5, 5), (), False)
    _, small = spilled(sweep, 20_000)
    _, large = spilled(sweep, 40_000)
    assert small.partitions > large.partitions >= 2
    _, none = spilled(sweep, 10**9)
    assert none.spilled_from is None and none.partitions == 0


@pytest.mark.slow
def test_the_front_door_takes_a_memory_bound_and_a_folder(tmp_path: Path) -> None:
    assert kt.count("6x6", closed=True, memory="300K", workdir=str(tmp_path)) == 2 * SIX_CLOSED
    assert kt.count("5x5", start="a1", memory=8000) == 304
    assert os.listdir(tmp_path) == []
    for bad in ("lots", "-1G", 0, 1.5, True, "12 Q"):
        with pytest.raises(InvalidInputError, match="memory must be a size in bytes"):
            kt.count("5x5", memory=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="is not a folder"):
        kt.count("5x5", workdir=str(tmp_path / "none"))
    with pytest.raises(InvalidInputError, match="frontier sweep in this process"):
        kt.count("4x5", method="enumerate", memory="1G")


def test_sizes() -> None:
    assert arguments.memory("20G") == 20 * 2**30
    assert arguments.memory("512m") == 512 * 2**20
    assert arguments.memory("1.5GiB") == 3 * 2**29
    assert arguments.memory("64KB") == 65536
    assert arguments.memory("100000") == 100000
    assert arguments.memory(None) is None


# -- the partitions are the checkpoint ---------------------------------------------------------


@pytest.mark.slow
def test_a_stopped_spilled_count_goes_on_from_its_last_square(tmp_path: Path) -> None:
    path = str(tmp_path / "c.npz")
    sweep = frontier.plan(Board(6, 6), (), True)

    def stop(done: int, total: int) -> None:
        if done == 24:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        spilled(sweep, 300_000, checkpoint=path, progress=stop)
    data = checkpoints.read(path)
    assert int(data["done"]) == 24 and data["keys"].shape == (0,)
    parts = data["parts"]
    assert parts.shape[0] >= 2 and parts[:, 0].sum() > 0 and len(data["digests"]) == parts.shape[0]
    assert sorted(os.listdir(f"{path}.parts")) == ["new", "s24"]  # the squares before: gone
    seen: list[int] = []
    got, _ = spilled(sweep, 300_000, checkpoint=path, progress=lambda d, t: seen.append(d))
    assert got == SIX_CLOSED and seen[0] == 25
    assert os.listdir(tmp_path) == []  # the checkpoint, its lock and its partitions removed


@pytest.mark.slow
def test_the_time_limit_stops_a_spilled_count_and_the_next_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "c.npz")
    work = tmp_path / "work"
    work.mkdir()
    sweep = frontier.plan(Board(6, 6), (), True)
    late = {"by": 0.0}

    class Clock:  # the sweep's clock, an hour late once square 26 is done
        perf_counter = staticmethod(time.perf_counter)

        @staticmethod
        def monotonic() -> float:
            return time.monotonic() + late["by"]

    def hook(p: int, used: int) -> None:
        if p == 25:
            late["by"] = 3600.0

    monkeypatch.setattr(frontier, "time", Clock)
    with pytest.raises(SearchFailedError) as e:
        frontier.run(
            sweep,
            RunOptions(
                checkpoint=path, memory=300_000, workdir=str(work), deadline=time.monotonic() + 600
            ),
            step_hook=hook,
        )
    assert "square 26 of 36" in one_line(e.value) and f"sweep so far is in {path}" in str(e.value)
    assert int(checkpoints.read(path)["done"]) == 26
    assert os.listdir(work) == ["c.npz.parts"]  # the partitions in the folder given
    got, _ = spilled(sweep, 300_000, checkpoint=path, workdir=str(work))
    assert got == SIX_CLOSED and os.listdir(work) == [] and not os.path.exists(path)


def test_a_damaged_partition_is_refused_in_one_line(tmp_path: Path) -> None:
    path = str(tmp_path / "c.npz")
    sweep = frontier.plan(Board(6, 6), (), True)

    def stop(done: int, total: int) -> None:
        if done == 26:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        spilled(sweep, 300_000, checkpoint=path, progress=stop)
    parts = checkpoints.read(path)["parts"]
    q = int(np.flatnonzero(parts[:, 0])[0])
    keys = Path(f"{path}.parts") / "s26" / f"p{q}.keys"
    data = bytearray(keys.read_bytes())
    data[3] ^= 0x10
    keys.write_bytes(bytes(data))
    with pytest.raises(InvalidInputError) as e:
        spilled(sweep, 300_000, checkpoint=path)
    assert "is damaged" in one_line(e.value) and str(keys) in str(e.value)
    keys.write_bytes(bytes(data[:-8]))  # cut short
    with pytest.raises(InvalidInputError) as e:
        spilled(sweep, 300_000, checkpoint=path)
    assert "holds" in one_line(e.value) and "bytes, not" in str(e.value)
    os.rename(f"{path}.parts", tmp_path / "elsewhere")  # the partitions not where it says
    with pytest.raises(InvalidInputError) as e:
        spilled(sweep, 300_000, checkpoint=path)
    assert "which is not there" in one_line(e.value)


@pytest.mark.slow
def test_a_checkpoint_in_memory_goes_on_spilled(tmp_path: Path) -> None:
    """A count saved with its states in memory, counted again under a bound, spills from the
    square whose states would not fit: the same number."""
    path = str(tmp_path / "c.npz")
    sweep = frontier.plan(Board(6, 6), (), True)

    def stop(done: int, total: int) -> None:
        if done == 12:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)
        with pytest.raises(KeyboardInterrupt):
            frontier.run(sweep, RunOptions(checkpoint=path, progress=stop))
    assert checkpoints.read(path)["parts"].shape == (0, 2)
    got, stats = spilled(sweep, 300_000, checkpoint=path)
    assert got == SIX_CLOSED and stats.spilled_from is not None and stats.spilled_from > 12


# -- refused up front: the disk ----------------------------------------------------------------


def test_a_count_that_fits_neither_memory_nor_disk_is_refused_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(frontier, "free_bytes", lambda folder: 10 * 2**30)
    sweep = frontier.plan(Board(8, 8), (), True)
    with pytest.raises(InputLimitError) as e:
        frontier.run(sweep, RunOptions(memory=2**30, workdir=str(tmp_path)))
    text = one_line(e.value)
    assert "would hold about 1.3e+09 states" in text and "spilled to disk about" in text
    assert f"in {tmp_path}, where 10.0 GiB is free" in text
    code = main(["count", "8x8", "--closed", "--method", "frontier", "--memory", "1G",
                 "--workdir", str(tmp_path)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "spilled to disk about" in one_line(err)
    # the sweep asked for by --memory: refused, not answered with the published figure
    code = main(["count", "8x8", "--closed", "--memory", "1G", "--workdir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "spilled to disk about" in one_line(err)
    assert os.listdir(tmp_path) == []


def test_a_spilled_square_that_would_not_fit_on_the_disk_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(frontier, "free_bytes", lambda folder: 1000)
    with pytest.raises(InputLimitError) as e:
        spilled(frontier.plan(Board(6, 6), (), True), 300_000, workdir=str(tmp_path))
    assert "more disk at square" in one_line(e.value) and "1000" not in str(e.value)
    assert os.listdir(tmp_path) == []


# -- the command line ---------------------------------------------------------------------------


def test_the_command_counts_past_its_memory_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["count", "6x6", "--closed", "--undirected", "--memory", "300K",
                 "--workdir", str(tmp_path), "-q"])  # fmt: skip
    assert code == 0 and capsys.readouterr().out.splitlines()[0] == str(SIX_CLOSED)
    assert os.listdir(tmp_path) == []
    for argv, words in (
        (["--memory", "lots"], "--memory must be a size in bytes such as 20G or 512M"),
        (["--workdir", str(tmp_path / "none")], "is not a folder"),
        (["--memory", "1G", "--scheduler", "tcp://127.0.0.1:1"], "drop --memory and --workdir"),
    ):
        assert main(["count", "5x5", *argv]) == 2
        assert words in one_line(capsys.readouterr().err)
    assert main(["count", "--table", "--memory", "1G", "--db", str(tmp_path / "t.db")]) == 2
    assert "drop --memory" in capsys.readouterr().err


def test_help_names_the_memory_and_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["count", "--help"])
    flat = " ".join(capsys.readouterr().out.split())
    assert "--memory SIZE" in flat and "such as 20G or 512M" in flat and "spilled to disk" in flat
    assert "--workdir DIR" in flat and "FILE.parts beside the --checkpoint" in flat


# a count in a process of its own that kills itself (SIGKILL) once it has saved square argv[3]:
# in the middle of a later square (or between two), never at its end
KILLED_AFTER = """
import os, signal, sys, threading
import knightstour as kt

def progress(done, total):
    if done == int(sys.argv[3]):
        threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGKILL)).start()

kt.count(sys.argv[1], memory="1M", checkpoint=sys.argv[2], progress=progress)
"""


@pytest.mark.slow
def test_a_killed_spilled_count_goes_on_with_the_same_command(tmp_path: Path) -> None:
    """A real process counting with its states on disk, killed (SIGKILL) in the middle of the
    sweep, then the same count again: the number of the count in memory, the squares done not
    swept again, and nothing left behind."""
    path = tmp_path / "c.npz"
    hold = 24  # of 35: 5x7 open spills from square 22 under 1M; more than half its time is after 24
    first = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER, "5x7", str(path), str(hold)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert first.returncode == -signal.SIGKILL, first.stderr
    done = int(checkpoints.read(str(path))["done"])
    assert done >= hold and (tmp_path / "c.npz.parts").is_dir(), sorted(os.listdir(tmp_path))
    sweep = frontier.plan(Board(5, 7), (), False)
    squares: list[int] = []
    number, _ = spilled(
        sweep, 1 << 20, checkpoint=str(path), progress=lambda d, _total: squares.append(d)
    )
    assert squares == list(range(done + 1, sweep.steps + 1))  # none swept twice
    assert number == frontier.run(sweep, RunOptions())
    assert os.listdir(tmp_path) == []
