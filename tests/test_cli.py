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
from tiers import examples


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
    from knightstour.cli import COMMANDS, puzzle
    from knightstour.cli.library import ACTIONS

    actions = [["library", a] for a in ACTIONS] + [["puzzle", a] for a in puzzle.ACTIONS]
    return [[name] for name, _add, _run in COMMANDS] + actions


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
            f"README.md never mentions 'knightstour {argv[0]} {argv[1]}'"
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


@pytest.mark.slow
@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
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
    asked: list[int] = []

    def warm(progress: object = None, workers: int = 1) -> list[tuple[str, float]]:
        calls.append(progress)
        asked.append(workers)
        return [("warnsdorff", 0.5), ("exact search", 1.25)]

    monkeypatch.setitem(sys.modules, "knightstour.warm", types.SimpleNamespace(warm=warm))
    code, out, _ = run(capsys, "warm", "--workers", "1")
    assert code == 0 and calls == [None] and asked == [1]  # no terminal: no progress bar
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["warnsdorff", "exact", "total"]
    assert lines[-1].endswith("1.75 s")
    monkeypatch.setattr("knightstour.arguments.cores", lambda: 2)
    code, out, err = run(capsys, "warm", "--workers", "5")  # at most one a core, said once
    assert code == 0 and asked[-1] == 2 and "this machine has 2 cores; using 2" in err
    assert out.splitlines()[-1].startswith("wall clock") and "(2 processes)" in out


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

    def warm(progress: object = None, workers: int = 1) -> list[tuple[str, float]]:
        calls.append(progress)
        return [("warnsdorff", 0.5)]

    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setitem(sys.modules, "knightstour.warm", types.SimpleNamespace(warm=warm))
    assert main(["warm", *(["--quiet"] if quiet else [])]) == 0
    assert (calls != [None]) is drawn
    assert bool(screen.getvalue()) is drawn, screen.getvalue()


# -- issue 11: JSON edge cases, reading with a limit, CSV fields, start == end, every problem --

#: Inputs that read past a limit: too deep, an integer too long, a square name too long.
EDGE_JSON = {
    "nesting": "[" * 100_000,
    "digits": '{"width": ' + "9" * 5000 + ', "height": 5, "path": ["a1"]}',
    "long square": '{"width": 5, "height": 5, "path": ["a' + "1" * 100_000 + '"]}',
    "long file letters": '{"width": 5, "height": 5, "path": ["' + "a" * 100_000 + '1"]}',
}


@pytest.mark.parametrize("name", EDGE_JSON)
def test_validate_and_import_json_edge_cases_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """Issue 11, item 1: these were exit 70 (RecursionError, int digits) in validate and import."""
    f = tmp_path / "t.json"
    f.write_text(EDGE_JSON[name])
    for argv in (
        ["validate", str(f)],
        ["library", "import", str(f), "--db", str(tmp_path / "t.db"), "--format", "jsonl"],
    ):
        code, _out, err = run(capsys, *argv)
        assert code == 2, (argv, err)
        assert len(err.strip().splitlines()) == 1 and len(err) < 300, err
        assert "internal error" not in err and str(f) in err


def test_import_csv_edge_cases_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    head = "width,height,closed,method,path\n"
    rows = {
        "digits": f"{'9' * 5000},5,false,x,a1\n",
        "long square": "5,5,false,x,a" + "1" * 100_000 + "\n",
        "nul": "5,5,false,x,a1\0\n",  # csv.Error "line contains NUL": once exit 70
    }
    for name, row in rows.items():
        f = tmp_path / f"{name.replace(' ', '_')}.csv"
        f.write_text(head + row)
        code, _out, err = run(capsys, "library", "import", str(f), "--db", str(tmp_path / "t.db"))
        assert code == 2 and len(err.strip().splitlines()) == 1 and len(err) < 300, (name, err)


def test_validate_sizes_work_by_the_file(tmp_path: Path) -> None:
    """Issue 11, item 8: two squares on 10,000 x 10,000 once took 899 MB (a count a square)."""
    import tracemalloc

    data = {"width": 10_000, "height": 10_000, "path": ["a1", "b3"]}
    tracemalloc.start()
    try:
        with pytest.raises(kt.InvalidTourError) as e:
            kt.Tour.from_dict(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB"
    assert "99,999,998 squares are never visited: b1, c1" in str(e.value)


def test_validate_reads_with_a_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 11, item 8: /dev/zero was read until memory ran out; now refused at once."""
    code, _out, err = run(capsys, "validate", "/dev/zero")
    assert code == 2 and "NUL" in err and len(err.strip().splitlines()) == 1
    from knightstour.notation import read_text

    big = io.BytesIO(b"[" + b" " * 5000 + b"]")
    with pytest.raises(kt.InvalidInputError, match="larger than 1,000 bytes"):
        read_text(big, "big.json", limit=1000)


def test_import_reads_lines_with_a_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from knightstour.library import Library
    from knightstour.library import io as lio

    monkeypatch.setattr(lio.notation, "read_limit", lambda: 1000)
    endless = io.StringIO("{" + " " * 10**6)  # stands for a line without end
    with pytest.raises(lio.ImportRejectedError, match="longer than 1,000 characters") as e:
        lio.import_tours(Library(":memory:"), endless)
    assert e.value.exit_code == 2
    assert endless.tell() < 10**6  # stopped reading soon after the limit
    with pytest.raises(lio.ImportRejectedError, match="NUL"):
        lio.import_tours(Library(":memory:"), io.StringIO("\0" * 10**6))


@pytest.mark.slow
def test_csv_export_import_round_trip_on_a_big_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 11, item 9: a 170 x 170 path is a CSV field past the csv module's 131,072 limit."""
    import csv

    tour = kt.solve("170x170", start="a1", method="warnsdorff")
    (tmp_path / "t.jsonl").write_text(tour.to_json() + "\n")
    db, db2 = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert run(capsys, "library", "import", str(tmp_path / "t.jsonl"), "--db", db)[0] == 0
    code, out, _ = run(capsys, "library", "export", "--db", db, "--format", "csv")
    assert code == 0 and len(out) > 131_072
    (tmp_path / "t.csv").write_text(out)
    code, out, err = run(capsys, "library", "import", str(tmp_path / "t.csv"), "--db", db2)
    assert code == 0 and "1 new" in out, err
    assert csv.field_size_limit() == 131_072  # the process-wide limit is put back


@pytest.mark.parametrize("command", ["exists", "solve"])
def test_start_equal_to_end_is_bad_input(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Issue 11, item 20: --start a1 --end a1 was exit 1 (an answer); it is bad input."""
    code, _out, err = run(capsys, command, "8x8", "--start", "a1", "--end", "a1")
    assert code == 2 and "same square" in err and len(err.strip().splitlines()) == 1
    assert run(capsys, "exists", "1x1", "--start", "a1", "--end", "a1")[0] == 0


def test_validate_names_every_disagreement(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 11, item 20: validate stopped at "'path' and 'xy' disagree"."""
    data = json.loads(kt.solve("5x5", start="a1").to_json())
    data["xy"][3], data["xy"][7] = data["xy"][7], data["xy"][3]
    data["path"][10], data["path"][11] = data["path"][11], data["path"][10]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "validate", str(f))
    assert code == 1
    for move in (4, 8, 11, 12):
        assert f"move {move}: 'path' says" in out, out
    assert "not a knight's move" in out  # and the path's own problems too


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "9" * 5000],
        ["exists", "8x" + "9" * 5000],
        ["exists", "8x8", "--start", "a" + "1" * 5000],
        ["exists", "8x8", "--end", "1" * 5000 + ",0"],
        ["solve", "8x8", "--seed", "1" * 5000],
    ],
    ids=["board", "height", "square", "xy", "seed"],
)
def test_huge_numbers_in_arguments_are_short_clean_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Found by fuzzing (issue 11): 5,000-digit boards and squares were exit 70."""
    code, _out, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and len(err) < 200, err


def test_a_failed_import_leaves_no_empty_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    db = tmp_path / "new.db"
    assert main(["library", "import", str(bad), "--db", str(db)]) == 2
    assert "nothing imported" in capsys.readouterr().err
    assert not any(tmp_path.glob("new.db*")), "an import that stored nothing made a library"


@pytest.mark.parametrize(
    "argv",
    [["validate", ""], ["library", "import", "", "--db", "x.db"]],
)
def test_an_empty_file_name_is_refused_by_name(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "empty file name" in err and "folder" not in err


def test_a_nul_character_in_an_argument_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by the fuzz pass: a file name with a NUL byte was exit 70 ("embedded null byte")."""
    assert main(["solve", "5x5", "--output", str(tmp_path / "a\x00b")]) == 2
    assert "NUL character" in capsys.readouterr().err


def test_the_top_level_help_names_the_library_actions_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("library"))
    words = {w.strip(",") for w in line.split()}
    assert {"list", "show", "stats", "export", "import"} <= words and "count" not in words


def test_a_count_from_a_start_without_its_own_figure_names_the_whole_boards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`count 8x8 --start a1` has no published figure of its own and cannot be counted here:
    still refused, exit 2, the refusal first; then one line with the whole board's published
    figure, labelled as published with its source (issue 30, item 4)."""
    from knightstour import published

    monkeypatch.chdir(tmp_path)
    assert main(["count", "8x8", "--start", "a1"]) == 2
    captured = capsys.readouterr()
    refusal, figure = captured.err.splitlines()
    assert captured.out == "" and refusal.startswith("knightstour: counting open tours on 8x8")
    whole = published.find(kt.Board(8, 8), closed=False)
    assert whole is not None
    assert figure == (
        f"knightstour: no published figure from a1; the whole board's: {whole.count:,} directed "
        f"open tours on 8x8 (each path counted in both directions), published, not computed "
        f"here ({whole.citation})"
    )
    assert main(["count", "4x4", "--start", "a1", "--end", "b1"]) in (0, 1)  # no figure needed
    assert "published" not in capsys.readouterr().err
