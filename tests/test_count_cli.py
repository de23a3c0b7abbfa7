"""``knightstour count``: the number first, what it counts, JSON, exit codes, one-line errors, and
counts remembered in a tour library (``--db``, ``--table``)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

import knightstour as kt
import oldlib
from knightstour.cli import main
from knightstour.counting import CONVENTIONS, compute, count_request
from knightstour.errors import SearchFailedError
from knightstour.library import Library, store
from knightstour.library.store.counts import Counts

JSON_KEYS = {
    "width",
    "height",
    "kind",
    "start",
    "end",
    "directed",
    "count",
    "convention",
    "method",
    "seconds",
    "source",
    "remembered",
    "db",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["count", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs in its own folder: no tours.db of the checkout is read or made."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def no_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting fails the test: the answer must come from the library."""

    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("counted, though the library remembers the count")

    monkeypatch.setattr(compute, "count_for", refuse)


# -- counting ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "number", "words"),
    [
        (["5x5"], 1728, "directed open tours on 5x5 (each path counted in both directions)"),
        (["5x5", "--undirected"], 864, "undirected open tours on 5x5 (each path counted once)"),
        (["5x5", "--start", "a1"], 304, "open tours on 5x5 from a1"),
        (["5", "--start", "2,2"], 64, "open tours on 5x5 from c3"),
        (["3x10", "--closed", "--undirected"], 16, "undirected closed tours on 3x10"),
        (["10x3", "--closed"], 32, "directed closed tours on 10x3"),
    ],
)
def test_the_number_comes_first_then_what_it_counts(
    capsys: pytest.CaptureFixture[str], argv: list[str], number: int, words: str
) -> None:
    code, out, err = run(capsys, *argv)
    first, second = out.splitlines()
    assert (code, first, err) == (0, str(number), "")
    assert second.startswith(words) and re.search(r": computed in [\d.]+ s \(frontier\)$", second)


@pytest.mark.parametrize(
    ("argv", "theorem"),
    [
        (["4x9", "--closed"], "(Schwenk's theorem, 1991)"),
        (["5x5", "--closed"], "(Schwenk's theorem, 1991)"),
        (["4x4"], "the open-tour theorem"),
    ],
)
def test_a_theorems_0_names_the_theorem_not_a_count(
    capsys: pytest.CaptureFixture[str], no_counting: None, argv: list[str], theorem: str
) -> None:
    """docs/counting.md: Schwenk's theorem gives the 0 of 4x9 closed, without a sweep; the
    line says so rather than "computed in 0.00 s" (issue 30, item 11)."""
    code, out, err = run(capsys, *argv)
    first, second = out.splitlines()
    assert (code, first, err) == (0, "0", "")
    assert ": known without counting: no " in second and theorem in second
    assert "computed" not in second
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    assert set(data) == JSON_KEYS | {"reason"} and data["count"] == 0
    assert (data["source"], data["method"]) == ("theory", "theory") and theorem in data["reason"]


@pytest.mark.parametrize(
    ("argv", "number", "source"),
    [
        (["8x8", "--closed", "--undirected"], 13_267_364_410_532, "OEIS A001230 (B. D. McKay"),
        (["8x8"], 19_591_828_170_979_904, "OEIS A165134 (a(8) from Alex Chernov, 2014)"),
        (["8x8", "--closed"], 2 * 13_267_364_410_532, "OEIS A001230"),
        (["7x7"], 165_575_218_320, "OEIS A165134 (a(7) from Guenter Stertenbrink"),
        (["8x7", "--closed", "--undirected"], 34_524_432_316, "OEIS A193054"),
    ],
)
def test_a_count_beyond_this_machine_prints_the_published_figure_labelled(
    capsys: pytest.CaptureFixture[str],
    no_counting: None,
    argv: list[str],
    number: int,
    source: str,
) -> None:
    """8x8 would need more memory than one machine has, 7x7 open minutes and gigabytes: the
    figure of the one table of published figures, labelled with its source and why it was
    not counted; exit 0, the number first as always (issue 30, item 4)."""
    code, out, err = run(capsys, *argv)
    first, second, third = out.splitlines()
    assert (code, first, err) == (0, str(number), "")
    assert ": published, not computed here: " + source in second
    assert third.startswith("not computed: counting ") and "states at once" in third
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    assert set(data) == JSON_KEYS | {"published", "reason"}
    assert (data["count"], data["source"], data["method"]) == (None, "published", "published")
    assert data["published"]["value"] == number and source in data["published"]["source"]
    assert data["published"]["convention"] == data["convention"]
    assert data["reason"] == third.removeprefix("not computed: ")


def test_a_published_figure_is_not_remembered_and_an_explicit_method_counts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A figure quoted is not the program's count: not stored in the library; --method
    frontier asks for the sweep itself (here it runs: its refusal of 8x8 is exit 2)."""
    db = str(tmp_path / "c.db")
    Library(db).close()
    code, out, _ = run(capsys, "7x7", "--db", db)
    assert code == 0 and "published" in out and "remembered" not in out
    with Library(db, readonly=True) as lib:
        assert lib.counts.known_counts(None) == []
    code, _, err = run(capsys, "8x8", "--method", "frontier")
    assert code == 2 and "states at once" in one_line_error(err)
    calls: list[object] = []
    monkeypatch.setattr(compute, "count_for", lambda *a, **k: calls.append(a) or 7)
    code, out, _ = run(capsys, "7x7", "--method", "frontier")
    assert (code, out.splitlines()[0], len(calls)) == (0, "7", 1)


def test_6x6_closed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "6x6", "--closed", "--undirected", "-q")
    assert code == 0 and out.splitlines()[0] == "9862"


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "5x5", "--start", "a1", "--format", "json")
    data = json.loads(out)
    assert code == 0 and set(data) == JSON_KEYS
    assert data["count"] == 304 and type(data["count"]) is int
    assert (data["width"], data["height"], data["kind"]) == (5, 5, "open")
    assert (data["start"], data["end"], data["directed"]) == ("a1", None, True)
    assert data["convention"] == "open tours on 5x5 from a1"
    assert data["method"] == "frontier" and data["seconds"] >= 0
    assert (data["source"], data["remembered"], data["db"]) == ("computed", False, None)


def test_json_numbers_of_any_size(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = 19_591_828_170_979_904 * 10**20
    monkeypatch.setattr(compute, "count_for", lambda *a, **k: huge)
    code, out, _ = run(capsys, "8x8", "--method", "frontier", "--format", "json")
    assert code == 0 and f'"count": {huge},' in out and json.loads(out)["count"] == huge
    code, out, _ = run(capsys, "8x8", "--method", "frontier")
    assert out.splitlines()[0] == str(huge)


# -- remembered counts ------------------------------------------------------------------------


def test_remembered_in_db_and_listed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "c.db")
    code, out, _ = run(capsys, "5x5", "--db", db)
    assert code == 0 and out.splitlines()[1].endswith(f"; remembered in {db}")
    run(capsys, "3x10", "--closed", "--undirected", "--db", db)

    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("counted again")

    monkeypatch.setattr(compute, "count_for", refuse)
    code, out, _ = run(capsys, "5x5", "--db", db)
    first, second = out.splitlines()
    assert code == 0 and first == "1728"
    assert re.search(rf"remembered in {re.escape(db)} \(frontier, [\d.]+ s, \d{{4}}-", second)
    code, out, _ = run(capsys, "5x5", "--db", db, "--format", "json")
    data = json.loads(out)
    assert set(data) == JSON_KEYS and data["count"] == 1728
    assert (data["remembered"], data["db"], data["method"]) == (True, db, "frontier")

    code, out, _ = run(capsys, "--table", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == [
        "board", "kind", "start", "end", "directed", "count", "method", "seconds", "counted",
    ]  # fmt: skip
    assert lines[1].split()[:6] == ["3x10", "closed", "any", "any", "no", "16"]
    assert lines[2].split()[:6] == ["5x5", "open", "any", "any", "yes", "1,728"]
    code, out, _ = run(capsys, "--table", "5", "--db", db, "--format", "json")
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row["board"] == "5x5" and row["count"] == 1728 and row["directed"] is True
    assert row["convention"].startswith("directed open tours on 5x5")


def test_tours_db_here_is_used_and_never_made(
    capsys: pytest.CaptureFixture[str], elsewhere: Path
) -> None:
    run(capsys, "5x5")
    assert not (elsewhere / "tours.db").exists()  # no library asked for, none made
    code, _, err = run(capsys, "--table")
    assert code == 2 and "no tour library at tours.db" in one_line_error(err)
    Library("tours.db").close()  # as 'knightstour generate' would make it
    code, out, _ = run(capsys, "5x5", "--undirected")
    # not asked for with --db: the line says where the count went, and why there
    found = "; remembered in tours.db, the tour library found in this folder"
    assert code == 0 and out.splitlines()[1].endswith(found)
    code, out, _ = run(capsys, "5x5", "--undirected")
    assert out.splitlines()[1].endswith("), the tour library found in this folder")
    code, out, _ = run(capsys, "--table")
    assert "864" in out


def test_an_explicit_method_counts_again_and_says_when_the_number_differs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "c.db")
    with Library(db) as lib:
        lib.counts.remember_count(("5x5", "open", "", "", True), 1700, method="old", seconds=1)
    code, out, err = run(capsys, "5x5", "--db", db, "--method", "frontier")
    assert code == 0 and out.splitlines()[0] == "1728"
    assert "remembered 1700 (old) for this count; replaced by 1728 (frontier)" in err
    with Library(db, readonly=True) as lib:
        assert lib.counts.known_count(("5x5", "open", "", "", True)).number == 1728


def test_an_old_library_is_migrated_when_a_count_is_stored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "old.db"
    oldlib.old_library(db, [kt.solve("5x5", start="a1", method="warnsdorff")], version=1)
    code, out, _ = run(capsys, "--table", "--db", str(db))  # read without writing: none yet
    assert code == 0 and out.startswith("no counts remembered in")
    code, out, _ = run(capsys, "5x5", "--start", "c3", "--db", str(db))
    assert code == 0 and out.splitlines()[0] == "64"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
    assert con.execute("SELECT count(*) FROM tours").fetchone()[0] == 1
    con.close()


def test_a_library_that_cannot_be_written_still_answers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "c.db"
    Library(db).close()

    def refuse(self: Counts, *args: object, **kwargs: object) -> None:
        raise kt.InvalidInputError(f"{self.path} cannot be written: readonly database")

    monkeypatch.setattr(Counts, "remember_count", refuse)
    code, out, err = run(capsys, "5x5", "--db", str(db))
    assert code == 0 and out.splitlines() == [
        "1728",
        "directed open tours on 5x5 (each path counted in both directions): computed in "
        + out.split("computed in ")[1].split(" s")[0]
        + " s (frontier)",
    ]
    assert "the count was not remembered: " in one_line_error(err)


# -- stopping and bad input -------------------------------------------------------------------


def test_the_time_limit_is_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def slow(*args: object, **kwargs: object) -> int:
        assert kwargs["time_limit"] == 0.5
        raise SearchFailedError("counting on 6x6 stopped at the time limit, square 9 of 36")

    monkeypatch.setattr(compute, "count_for", slow)
    db = tmp_path / "c.db"
    code, out, err = run(capsys, "6x6", "--time-limit", "0.5", "--db", str(db))
    assert code == 3 and out == "" and "stopped at the time limit" in one_line_error(err)
    code, out, _ = run(capsys, "6x6", "--time-limit", "0.5", "--format", "json")
    data = json.loads(out)
    assert code == 3 and data["count"] is None and "time limit" in data["reason"]
    assert not db.exists()


def test_a_real_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "6x6", "--time-limit", "0.05")
    assert code == 3 and "time limit" in one_line_error(err)


def test_ctrl_c_is_one_line_and_exit_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(compute, "count_for", interrupted)
    db = tmp_path / "c.db"
    code, out, err = run(capsys, "6x6", "--db", str(db))
    assert (code, out) == (130, "")
    assert one_line_error(err) == f"knightstour: stopped; nothing was counted or stored in {db}\n"
    assert not db.exists()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["9x9"], "counting handles at most"),
        (["5x5", "--method", "sideways"], "invalid choice"),
        (["5x5", "--method", "enumerate", "--scheduler", "tcp://127.0.0.1:1"], "drop --scheduler"),
        (["0x5"], "board"),
        (["5x5", "--start", "z9"], "start square z9 is off the 5x5 board"),
        (["5x5", "--end", "a1", "--start", "a1"], "a1"),
        ([], "give a BOARD to count, or --table"),
        (["5x5", "--time-limit", "0"], "positive"),
        (["--table", "--closed"], "--table lists what is remembered: drop --closed"),
        (["--table", "--undirected", "--method", "frontier"], "drop --undirected, --method"),
        (["5x5", "--db", "no/such/folder/c.db"], "no folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """Refused before any counting starts (9x9: the frontier would not fit)."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in one_line_error(err)


def test_a_file_that_is_not_a_library_is_refused_before_counting(
    capsys: pytest.CaptureFixture[str], no_counting: None, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a library at all\n" * 100)
    code, _, err = run(capsys, "5x5", "--db", str(junk))
    assert code == 2 and "not a tour library" in one_line_error(err)


def test_scheduler_failures_are_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from knightstour.counting import distributed

    asked: list[object] = []

    def no_dask(sweep: object, scheduler: str, **kwargs: object) -> int:
        asked.append(scheduler)
        raise ModuleNotFoundError("No module named 'distributed'")

    monkeypatch.setattr(distributed, "run_on_cluster", no_dask)
    code, _, err = run(capsys, "5x5", "--scheduler", "tcp://10.0.0.1:8786")
    assert code == 2 and "needs Dask" in one_line_error(err)
    assert asked == ["tcp://10.0.0.1:8786"]

    def unreachable(*args: object, **kwargs: object) -> int:
        raise OSError("Timed out trying to connect to tcp://10.0.0.1:8786")

    monkeypatch.setattr(distributed, "run_on_cluster", unreachable)
    code, _, err = run(capsys, "5x5", "--scheduler", "tcp://10.0.0.1:8786")
    assert code == 2 and "cannot use the Dask scheduler at tcp://10.0.0.1:8786" in err
    one_line_error(err)


# -- help -------------------------------------------------------------------------------------


def test_help_states_the_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["count", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    for name, text in CONVENTIONS:
        assert f"{name} {' '.join(text.split())}" in flat
    assert "OEIS A165134" in flat and "knight's move apart are included" in flat
    assert "directed, the default" in flat and "--undirected counts each path or cycle once" in flat
    for option in ("--closed", "--start", "--end", "--undirected", "--method", "--table", "--db"):
        assert option in out
    assert "--scheduler" in out and "--time-limit" in out


def test_a_checkpoint_file_is_used_and_tidied_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from knightstour.counting import frontier

    monkeypatch.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)
    saved = tmp_path / "sweep.npz"
    calls = {"n": 0}
    real = frontier.LocalShards.step

    def interrupted(self: frontier.LocalShards, p: int, growth: float) -> tuple[int, int, int]:
        calls["n"] += 1
        if calls["n"] == 25:
            raise KeyboardInterrupt
        return real(self, p, growth)

    monkeypatch.setattr(frontier.LocalShards, "step", interrupted)
    code, out, err = run(capsys, "5x8", "--closed", "--checkpoint", str(saved))
    assert code == 130 and saved.exists()
    assert f"the sweep so far is in {saved}: run the same command to go on" in err
    code, out, err = run(capsys, "5x8", "--closed", "--checkpoint", str(saved))
    assert code == 0 and out.splitlines()[0] == "88404" and not saved.exists()
    code, out, err = run(capsys, "--table", "--checkpoint", str(saved))
    assert code == 2 and "--checkpoint" in err


def test_shaped_boards_are_counted_and_kept_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The board options of solve: a holed board's count is its own (checked against kt.count),
    and a board the counting does not cover is refused in one line."""
    from knightstour.board import Board

    db = str(tmp_path / "c.db")
    holed = kt.count(Board(5, 5, holes=["c3"]), start="a1")
    code, out, _ = run(capsys, "5x5", "--holes", "c3", "--start", "a1", "--db", db)
    assert code == 0 and out.splitlines()[0] == str(holed)
    code, out, _ = run(capsys, "5x5", "--start", "a1", "--db", db)
    assert code == 0 and out.splitlines()[0] == "304" != str(holed)
    code, out, _ = run(capsys, "--table", "--db", db, "--format", "json")
    assert {json.loads(line)["board"] for line in out.splitlines()} == {"5x5", "5x5 holes=c3"}
    code, _, errs = run(capsys, "6x6", "--wrap", "torus", "--db", db)
    assert code == 2 and "wrap=torus" in errs and len(errs.strip().splitlines()) == 1


def test_a_count_of_any_length_is_printed_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, no_counting: None
) -> None:
    """A remembered count of over 4,300 digits (3x9000 closed has about 4,400): printed in
    full as text, a JSON integer and a table row; the library's other counts still answer."""
    db = str(tmp_path / "t.db")
    number = 3 * 10**4500 + 7
    request = count_request("3x9000", closed=True)
    with Library(db) as lib:
        lib.counts.remember_count(request.key(), number, method="frontier", seconds=36.0)
        lib.counts.remember_count(("5x5", "open", "", "", True), 1728, method="m", seconds=1)
    digits = "3" + "0" * 4499 + "7"
    code, out, err = run(capsys, "3x9000", "--closed", "--db", db)
    assert code == 0 and out.splitlines()[0] == digits and err == ""
    code, out, err = run(capsys, "3x9000", "--closed", "--db", db, "--format", "json")
    assert code == 0 and f'"count": {digits}, ' in out and out.count("\n") == 1
    code, out, err = run(capsys, "--table", "--db", db, "--format", "json")
    assert code == 0 and f'"count": {digits}, ' in out
    code, out, err = run(capsys, "--table", "--db", db)
    assert code == 0 and f"3,{'000,' * 1499}007" in out
    code, out, err = run(capsys, "5x5", "--db", db)
    assert code == 0 and out.splitlines()[0] == "1728"
