"""The command line keeps the contract: formats, exit codes, one-line errors, never a traceback."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import knightstour as kt
from knightstour.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "8x8", "--start", "a1", "--closed", "--time")
    assert code == 0
    assert out.startswith("Closed tour on 8x8 from a1")
    assert "moves:" in out and "solved in" in out
    assert " a  b  c  d  e  f  g  h" in out


def test_solve_formats(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    code, out, _ = run(capsys, "solve", "6x6", "--start", "c3", "--format", "json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"width", "height", "closed", "method", "path", "xy"}
    tour = kt.Tour.from_dict(data)
    assert tour.start == "c3"
    code, out, _ = run(capsys, "solve", "6x6", "--start", "c3", "--format", "moves")
    assert out.split() == tour.path
    code, out, _ = run(capsys, "solve", "6x6", "--start", "c3", "--format", "board")
    assert [[int(v) for v in line.split()] for line in out.splitlines()] == tour.matrix()[
        ::-1
    ].tolist()
    npy = tmp_path / "t.npy"
    code, _, _ = run(
        capsys, "solve", "6x6", "--start", "c3", "--format", "npy", "--output", str(npy)
    )
    arr = np.load(npy)
    assert code == 0 and arr.dtype == np.int32 and arr.tolist() == tour.indices.tolist()


def test_square_as_xy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "8x8", "--start", "2,2", "--format", "json")
    assert code == 0 and json.loads(out)["path"][0] == "c3"


def test_no_tour(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "4x4", "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["exists"] is False and data["width"] == 4 and "4x4" in data["reason"]
    code, out, _ = run(capsys, "solve", "8x8", "--start", "a1", "--end", "h8")
    assert code == 1 and "same colour" in out


def test_gave_up_shows_partial(capsys: pytest.CaptureFixture[str]) -> None:
    # Warnsdorff with first-in-order ties is known to get stuck on 100x100 from a corner
    code, out, _ = run(capsys, "solve", "100x100", "--method", "warnsdorff", "--tiebreak", "first")
    assert code == 3 and "gave up" in out and "partial path: 9976 of 10000 squares" in out
    code, out, _ = run(
        capsys,
        "solve",
        "12x12",
        "--method",
        "warnsdorff",
        "--closed",
        "--start",
        "a1",
        "--time-limit",
        "0.001",
    )
    if code == 3:  # a closed tour may come on the first walk; if not, the partial path shows
        assert "gave up" in out
    code, out, _ = run(
        capsys,
        "solve",
        "100x100",
        "--method",
        "warnsdorff",
        "--tiebreak",
        "first",
        "--format",
        "json",
    )
    assert code == 3 and json.loads(out)["exists"] is None


def test_exists(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "exists", "8x8", "--closed")[0] == 0
    code, out, _ = run(capsys, "exists", "5x5", "--closed", "--format", "json")
    assert code == 1 and json.loads(out)["exists"] is False


def test_validate(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    good = tmp_path / "good.json"
    good.write_text(kt.solve("5x5", start="a1").to_json())
    code, out, _ = run(capsys, "validate", str(good))
    assert code == 0 and "valid open tour on 5x5" in out
    data = json.loads(good.read_text())
    data["path"][3], data["path"][4] = data["path"][4], data["path"][3]
    data["xy"][3], data["xy"][4] = data["xy"][4], data["xy"][3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1 and "not a knight's move" in out
    code, _, err = run(capsys, "validate", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run(capsys, "validate", str(tmp_path / "junk.json"))
    assert code == 2 and "not JSON" in err and len(err.strip().splitlines()) == 1


def test_output_not_overwritten_without_force(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    f = tmp_path / "t.json"
    f.write_text("keep me")
    code, _, err = run(capsys, "solve", "5x5", "--format", "json", "--output", str(f))
    assert code == 2 and "--force" in err and f.read_text() == "keep me"
    code, _, _ = run(capsys, "solve", "5x5", "--format", "json", "--output", str(f), "--force")
    assert code == 0 and kt.Tour.from_dict(json.loads(f.read_text())).board.spec == "5x5"


@pytest.mark.parametrize(
    "argv,words",
    [
        (["solve", "8x9x"], "not a board spec"),
        (["solve", "8x8", "--start", "q9"], "off the 8x8"),
        (["solve", "8x8", "--method", "magic"], "invalid choice"),
        (["solve"], "required"),
        (["solve", "8x8", "--seed", "-4"], "must be >= 0"),
        (["frobnicate"], "invalid choice"),
        (["solve", "8x8", "--format", "npy"], "--output"),
        (["solve", "8x8", "--time-limit", "0"], "positive"),
    ],
)
def test_bad_input_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _commands() -> list[list[str]]:
    from knightstour.cli import COMMANDS
    from knightstour.cli.library import ACTIONS

    return [[name] for name, _add, _run in COMMANDS] + [["library", a] for a in ACTIONS]


@pytest.mark.parametrize("argv", _commands(), ids=" ".join)
def test_every_command_has_help_and_is_in_the_readme(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage:") and " ".join(argv) in out
    assert "\n\n" in out.strip(), "a description as well as the usage"
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.splitlines() if f"knightstour {argv[0]}" in line]
    assert lines, f"README.md never shows 'knightstour {argv[0]}'"
    if len(argv) > 1:
        assert any(re.search(rf"\b{argv[1]}\b", line) for line in lines), (
            f"README.md never mentions 'knightstour library {argv[1]}'"
        )


TOKENS = st.sampled_from(
    [
        "solve",
        "exists",
        "validate",
        "8x8",
        "3x3",
        "5",
        "0x4",
        "1x1",
        "--start",
        "--end",
        "a1",
        "h8",
        "c3",
        "2,2",
        "99,1",
        "--closed",
        "--method",
        "auto",
        "warnsdorff",
        "--tiebreak",
        "random",
        "squirrel",
        "--seed",
        "7",
        "-1",
        "--format",
        "json",
        "board",
        "moves",
        "npy",
        "--time",
        "--time-limit",
        "0.5",
        "--",
        "-",
        "x",
        "ä",
        "1e9x1e9",
        "100000x100000",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(TOKENS, max_size=7))
def test_fuzzed_arguments_never_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as e:  # --help and --version exit through argparse
        code = e.code
    _out, err = capsys.readouterr()
    assert code in (0, 1, 2, 3), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)


def test_entry_point_runs_as_module() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "knightstour", "solve", "3x5"], capture_output=True, text=True
    )
    assert r.returncode == 1 and "no tour" in r.stdout and r.stderr == ""


def test_warm_prints_each_step_and_a_total(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    calls: list[object] = []

    def warm(progress: object = None) -> list[tuple[str, float]]:
        calls.append(progress)
        return [("warnsdorff", 0.5), ("exact search", 1.25)]

    monkeypatch.setitem(sys.modules, "knightstour.warm", types.SimpleNamespace(warm=warm))
    code, out, _ = run(capsys, "warm")
    assert code == 0 and calls == [None]  # no terminal: no progress bar
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["warnsdorff", "exact", "total"]
    assert lines[-1].endswith("1.75 s")


class _Terminal(io.StringIO):
    """A standard error that says it is a terminal, so that a progress bar would draw."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("quiet", "drawn"), [(True, False), (False, True)])
def test_warm_quiet_draws_no_bar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, quiet: bool, drawn: bool
) -> None:
    import types

    calls: list[object] = []

    def warm(progress: object = None) -> list[tuple[str, float]]:
        calls.append(progress)
        return [("warnsdorff", 0.5)]

    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setitem(sys.modules, "knightstour.warm", types.SimpleNamespace(warm=warm))
    assert main(["warm", *(["--quiet"] if quiet else [])]) == 0
    assert (calls != [None]) is drawn
    assert bool(screen.getvalue()) is drawn, screen.getvalue()
