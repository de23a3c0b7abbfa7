"""Arguments of the wrong type or size, and files that are not what they claim, are bad input:
one :class:`~knightstour.errors.InvalidInputError` naming the argument (exit 2 and one line on
the command line), never a raw Python error, a crash, or a value quietly read as another."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import knightstour as kt
import tiers
from knightstour import arguments, magic
from knightstour.cli import main
from knightstour.library.generate import generate
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.numbering import from_grid


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def journal(width: int, height: int) -> MagicJournal:
    return MagicJournal(Library(":memory:"), width, height)


# -- workers: at most one a core -----------------------------------------------------------


def test_magic_find_runs_at_most_one_thread_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """More workers than cores only share the same cores and take longer to stop: the search
    is handed the cores, however many are asked (the Python API as the command line)."""
    from knightstour.magic import search as ms

    handed: list[int | None] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        handed.append(kwargs["workers"])
        raise KeyboardInterrupt  # what is under test is what the search is handed

    monkeypatch.setattr(ms, "search", recording)
    for asked in (10**6, 256, None, 1):
        with pytest.raises(KeyboardInterrupt):
            magic.find("8x8", journal(8, 8), workers=asked)
    assert handed == [arguments.cores()] * 3 + [1]


def test_magic_cli_says_the_cap_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from knightstour.magic import search as ms

    handed: list[int] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        handed.append(kwargs["workers"])
        raise KeyboardInterrupt

    monkeypatch.setattr(ms, "search", recording)
    code, _, err = run(capsys, "magic", "8x8", "--workers", "100000", "--db", str(tmp_path / "m"))
    cores = arguments.cores()
    assert code == 130 and handed == [cores]
    assert err == f"knightstour: --workers 100000: this machine has {cores} cores; using {cores}\n"


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2", math.nan])
def test_workers_of_the_wrong_type_are_refused_by_name(bad: object) -> None:
    with pytest.raises(kt.InvalidInputError, match=r"^workers must be a positive integer"):
        magic.find("8x8", journal(8, 8), workers=bad)  # type: ignore[arg-type]
    with pytest.raises(kt.InvalidInputError, match=r"^workers must be a positive integer"):
        generate("5x5", 1, db=Library(":memory:"), workers=bad)  # type: ignore[arg-type]


# -- time limits, schedulers, progress: one check for every front door ----------------------

BAD_TIME_LIMITS = [math.nan, math.inf, -math.inf, 0, -1, 10**400, True, "5", b"5", [5]]


@pytest.mark.parametrize("bad", BAD_TIME_LIMITS, ids=repr)
def test_a_bad_time_limit_is_refused_by_every_front_door(bad: object) -> None:
    calls = {
        "solve": lambda: kt.solve("5x5", time_limit=bad),
        "count": lambda: kt.count("3x4", time_limit=bad),
        "magic.find (search)": lambda: magic.find("8x8", journal(8, 8), time_limit=bad),
        "magic.find (built)": lambda: magic.find("12x12", journal(12, 12), time_limit=bad),
    }
    for name, call in calls.items():
        with pytest.raises(kt.InvalidInputError, match=r"^time_limit must be a positive, fin"):
            call()
            pytest.fail(f"{name} took time_limit={bad!r}")


def test_a_bad_time_limit_is_refused_before_the_library_is_asked() -> None:
    lib = Library(":memory:")
    assert kt.count("3x4", library=lib) == 16  # now remembered
    with pytest.raises(kt.InvalidInputError, match="time_limit"):
        kt.count("3x4", library=lib, time_limit=math.nan)


@pytest.mark.parametrize(
    ("keyword", "bad", "words"),
    [
        ("scheduler", 5, "^scheduler must be the address of a Dask scheduler"),
        ("scheduler", "", "^scheduler must be the address of a Dask scheduler"),
        ("scheduler", b"127.0.0.1:1", "^scheduler must be the address of a Dask scheduler"),
        ("progress", 5, r"^progress must be a function progress\(done, total\)"),
        ("progress", "bar", r"^progress must be a function progress\(done, total\)"),
        ("checkpoint", 5, "^checkpoint must be a file name"),
        ("checkpoint", b"ck", "^checkpoint must be a file name"),
    ],
)
def test_count_names_the_argument_of_the_wrong_type(keyword: str, bad: object, words: str) -> None:
    with pytest.raises(kt.InvalidInputError, match=words):
        kt.count("5x5", **{keyword: bad})


@pytest.mark.parametrize(("keyword", "bad"), [("scheduler", 5), ("progress", 5)])
def test_magic_find_names_the_argument_of_the_wrong_type(keyword: str, bad: object) -> None:
    with pytest.raises(kt.InvalidInputError, match=rf"^{keyword} must be"):
        magic.find("8x8", journal(8, 8), **{keyword: bad})


def test_generate_names_a_progress_of_the_wrong_type() -> None:
    with pytest.raises(kt.InvalidInputError, match=r"^progress must be a function"):
        generate("5x5", 1, db=Library(":memory:"), progress=5)  # type: ignore[arg-type]


@settings(max_examples=tiers.examples(200), deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(10**500), max_value=10**500),
        st.booleans(),
        st.text(max_size=5),
        st.none(),
    )
)
def test_time_limit_is_a_positive_finite_float_or_refused(value: object) -> None:
    """Whatever is handed in: None, a positive finite float of the same value, or refused."""
    try:
        seconds = arguments.time_limit(value, "time_limit")
    except kt.InvalidInputError as e:
        assert str(e).startswith("time_limit must be a positive, finite number of seconds")
        assert len(str(e)) < 200
        return
    if value is None:
        assert seconds is None
    else:
        assert isinstance(seconds, float) and 0 < seconds < math.inf
        assert not isinstance(value, bool | str) and seconds == float(value)  # type: ignore[arg-type]


# -- boards of move numbers ----------------------------------------------------------------


@pytest.mark.parametrize(
    "rows",
    [
        [["a"]],
        [[math.nan]],
        [[None]],
        [[1.5]],
        [[True]],
        [[np.True_]],
        [[1.0]],
        [["1"]],
        [[True, 2], [3, 4]],
        [[1, 2], [3.5, 4]],
        5,
        "ab",
        [["12"]],
        [[[1]]],
        None,
    ],
    ids=repr,
)
def test_a_board_of_move_numbers_holds_integers_only(rows: Any) -> None:
    with pytest.raises(kt.InvalidInputError, match=r"^rows must be|^a board of move numbers"):
        from_grid(rows)


def test_a_board_of_move_numbers_takes_numpy_integers() -> None:
    grid = np.array([[2, 3], [1, 4]], dtype=np.int16)
    assert from_grid(grid).files == from_grid([[2, 3], [1, 4]]).files == (3, 7)


@settings(max_examples=tiers.examples(200), deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(
                st.integers(-3, 10), st.floats(), st.booleans(), st.none(), st.text(max_size=2)
            ),
            min_size=0,
            max_size=3,
        ),
        min_size=0,
        max_size=3,
    )
)
def test_a_board_of_anything_is_read_or_refused_cleanly(rows: list[list[Any]]) -> None:
    try:
        m = from_grid(rows)
    except kt.InvalidInputError:
        return
    flat = [k for r in rows for k in r]
    assert all(type(k) is int for k in flat) and sorted(flat) == list(range(1, len(flat) + 1))
    assert sum(m.ranks) == sum(m.files) == sum(flat)


# -- a single square -------------------------------------------------------------------------


def test_the_one_square_tour_is_magic_everywhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``Tour.magic()``, :func:`magic.find` and ``knightstour magic`` give the one answer."""
    assert kt.Tour("1x1", [0]).magic().verdict == "magic"
    assert magic.refusal("1x1", diagonal=True) is None
    code, out, err = run(capsys, "magic", "1x1", "--diagonal", "--db", str(tmp_path / "m"))
    assert (
        code == 0
        and err == ""
        and out.splitlines()[-1].startswith("built 1 new class of magic tours of 1x1")
    )


# -- mask files and holes -------------------------------------------------------------------

MASK_TEXT = st.text(alphabet=".# \n/\r\t.", max_size=60)


@pytest.mark.slow
@settings(max_examples=tiers.examples(200), deadline=None)
@given(st.one_of(st.binary(max_size=120), MASK_TEXT.map(lambda t: t.encode("utf-8"))))
def test_any_bytes_as_a_mask_file_give_an_answer_or_one_line(data: bytes) -> None:
    """Whatever the file holds: exit 0, 1, 2 or 3, and a refusal is one line (never exit 70
    or a traceback)."""
    import contextlib
    import io
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mask.txt"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["solve", "--mask", str(path), "--method", "warnsdorff"])
    assert code in (0, 1, 2, 3), err.getvalue()
    lines = err.getvalue().splitlines()
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("knightstour: "), lines
    assert "Traceback" not in err.getvalue()


def test_a_mask_over_a_mebibyte_is_refused_not_cut(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from knightstour.cli._options import MASK_BYTES, read_mask

    side = 1100  # 1100 lines of 1100 squares: about 1.2 MB
    big = tmp_path / "big.txt"
    big.write_text(("." * side + "\n") * side)
    assert big.stat().st_size > MASK_BYTES
    code, out, err = run(capsys, "solve", "--mask", str(big))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"is over {MASK_BYTES:,} bytes (1 MiB)" in err
    exact = tmp_path / "exact.txt"  # at the limit: read whole, every line of it
    exact.write_text(("." * 1023 + "\n") * 1024)
    assert exact.stat().st_size == MASK_BYTES
    assert kt.parse_board(None, mask=read_mask(str(exact))).spec == "1023x1024"


def test_a_binary_mask_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mask.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    code, out, err = run(capsys, "solve", "--mask", str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"knightstour: cannot read the mask {path}: not UTF-8 text (byte 0 is 0x89); draw the "
        "board with '.' and '#'\n"
    )


@pytest.mark.parametrize(
    "holes",
    ["d4,e5", "3,3 4,4", "3,3;4,4", "3,3; 4,4", "(3,3),(4,4)", "(3, 3) e5", "3,3,4,4", "d4 4,4"],
)
def test_zero_based_holes_are_read_as_everywhere_else(holes: str) -> None:
    assert kt.parse_board("8x8", holes=holes).description == "8x8 holes=d4,e5"


@pytest.mark.parametrize(
    ("holes", "words"),
    [
        ("3,3,4", "hole is not a square: '4'"),
        ("8,8", "hole square 8,8 is off the 8x8 board"),
        ("3,3x", "hole is not a square"),
        ("3;3", "hole is not a square: '3'"),
    ],
)
def test_zero_based_holes_that_are_not_squares_are_refused(holes: str, words: str) -> None:
    with pytest.raises(kt.InvalidInputError, match=words):
        kt.parse_board("8x8", holes=holes)


def test_zero_based_holes_of_a_3d_board_are_triples() -> None:
    assert kt.parse_board("3x3x3", holes="1,1,1 0,0,0").description == "3x3x3 holes=a1:1,b2:2"
    with pytest.raises(kt.InvalidInputError, match="hole is not a square: '1'"):
        kt.parse_board("3x3x3", holes="1,1")


def test_the_command_line_takes_zero_based_holes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "8x8", "--holes", "3,3 4,4;3,4,4,3", "--format", "json")
    assert code == 0 and json.loads(out)["holes"] == ["d4", "e4", "d5", "e5"]


@pytest.mark.parametrize(
    ("width", "height", "words"),
    [
        (10**9, 10**9, "boards of 2 to 64 squares, not 1000000000x1000000000"),
        (1, 1, "boards of 2 to 64 squares, not 1x1"),
        (True, 8, "positive integers"),
        ("8", 8, "positive integers"),
        (0, 8, "positive integers"),
    ],
)
def test_the_magic_ranges_refuse_boards_the_search_does_not_take(
    width: object, height: object, words: str
) -> None:
    from knightstour.magic.search import ranges

    with pytest.raises(kt.InvalidInputError, match=words):
        ranges(width, height)  # type: ignore[arg-type]
