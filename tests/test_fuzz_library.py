"""Fuzzing the library commands' arguments (issue 11's fuzz pass, the library's share): whatever
the arguments, ``knightstour library ...`` and ``knightstour generate ...`` answer with a contract
exit code (0, 1, 2 or 3) and never a bug's 70."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knightstour.cli import main
from knightstour.library import generate as gen
from tiers import examples

pytestmark = pytest.mark.slow

#: Integers where the edges are: SQLite's range, zero, negatives, huge.
INTS = st.one_of(
    st.integers(-3, 40),
    st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64, 10**20, -(2**63), -(2**63) - 1]),
    st.integers(),
).map(str)
WORDS = st.one_of(
    INTS,
    st.sampled_from(["8x8", "5x5", "0x0", "x", "", "-", "1e9", "nan", "8x8x8", "99999999999x2"]),
    st.text(max_size=12),
)
ACTIONS = {
    "list": ["--limit", "--after", "--board", "--format", "--closed", "--open"],
    "show": ["--format", "--output", "--svg", "--force"],
    "stats": ["--board", "--format"],
    "export": ["--limit", "--board", "--format", "--closed", "--open"],
    "import": ["--format"],
}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "t.db"
    gen.generate("8x8", 50, seed=1, db=path, workers=1)
    return path


@st.composite
def library_argv(draw: st.DrawFn) -> list[str]:
    action = draw(st.sampled_from(sorted(ACTIONS)))
    argv = ["library", action]
    if action == "show":
        argv.append(draw(INTS))
    if action == "import":
        argv.append(draw(st.sampled_from(["missing.jsonl", "-", "t.db", ""])))
    for flag in draw(st.lists(st.sampled_from(ACTIONS[action]), max_size=3)):
        argv.append(flag)
        if flag not in ("--closed", "--open", "--force"):
            argv.append(draw(WORDS))
    return argv


@settings(
    max_examples=examples(3000, default=200), deadline=None, suppress_health_check=list(HealthCheck)
)
@given(argv=library_argv())
def test_library_arguments(
    argv: list[str], library: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    work = tmp_path_factory.mktemp("run", numbered=True)
    db = work / "t.db"
    shutil.copy(library, db)
    argv = [a if a != "t.db" else str(db) for a in argv]
    argv = [str(work / a) if a in ("missing.jsonl",) else a for a in argv]
    for i, a in enumerate(argv[:-1]):
        if a in ("--output", "--svg"):
            argv[i + 1] = str(work / (argv[i + 1].replace("/", "_") or "out"))
    code = main([*argv, "--db", str(db)])
    assert code in (0, 1, 2, 3), argv


@settings(
    max_examples=examples(1500, default=100), deadline=None, suppress_health_check=list(HealthCheck)
)
@given(
    count=INTS,
    seed=st.none() | INTS,
    workers=st.none() | INTS,
    board=st.sampled_from(["8x8", "3x4", "4x4", "2x2", "1x1", "x", "100000x100000", "10x3"]),
    closed=st.booleans(),
    start=st.none() | st.sampled_from(["a1", "z99", "0,0", "-1,0", "b1", ""]),
)
def test_generate_arguments(
    count: str,
    seed: str | None,
    workers: str | None,
    board: str,
    closed: bool,
    start: str | None,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if count.lstrip("-").isdigit() and 0 < int(count) <= 2**63 - 1:
        count = str(min(int(count), 3))  # keep the runs that do work short
    db = tmp_path_factory.mktemp("gen", numbered=True) / "g.db"
    argv = ["generate", board, "--count", count, "-q", "--db", str(db)]
    argv += [] if seed is None else ["--seed", seed]
    argv += [] if workers is None else ["--workers", workers]
    argv += ["--closed"] if closed else []
    argv += [] if start is None else ["--start", start]
    assert main(argv) in (0, 1, 2, 3), argv
