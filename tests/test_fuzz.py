"""Fuzzing the edges (issue 11): command-line arguments, tour JSON, JSON lines and CSV import.

Hypothesis makes about 7,500 inputs (``make test-all``; a quarter of them in ``make test``), run in
process through :func:`knightstour.cli.main`: argument lists for every command (from each
command's own words, valid and not), tour JSON files (real tours broken in every way, fields of
every type, raw text and bytes) and files to import.
Whatever comes in, the contract holds: exit code 0, 1, 2 or 3, never 70, never a traceback, and
bad input (exit 2) is one line. The Python API gets the same treatment: anything at all handed
to the board, square, tour and existence functions is a :class:`knightstour.KnightsTourError` or
an answer, never a ``TypeError`` or ``OverflowError``.

In the ``slow`` tier (``make test-fast`` leaves it out).
"""

from __future__ import annotations

import copy
import functools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import knightstour as kt
from knightstour.cli import main
from tiers import examples

pytestmark = pytest.mark.slow

FUZZ = settings(
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def run_cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    """Run the command line in process; check the contract of exit codes and error lines."""
    try:
        code = main(argv)
    except SystemExit as e:  # --help and --version leave through argparse
        code = e.code if isinstance(e.code, int) else 0
    out, err = capsys.readouterr()
    assert code in (0, 1, 2, 3), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)
        assert len(err) < 1000, (argv, err[:300])
    return code, out, err


# -- command-line arguments -------------------------------------------------------------------

BOARDS = ["1x1", "3x4", "4x4", "5", "5x5", "6x6", "8x8", "3x10", "10x3", "2x9", "3x3"]
ODD_BOARDS = [
    "0x4", "-3x3", "8y8", "1e9x1e9", "100000x100000", "9" * 30, "ä", "", " ", "8x8x8", "x",
    "3x700000000", "99999999999x2", "٨x٨", "9" * 5000, "8x" + "9" * 5000,
]  # fmt: skip
SQUARES = ["a1", "b1", "c3", "h8", "e4", "2,2", "0,0", "99,1", "-1,0", "z9", "A1", "a0", "", "aa1"]
SQUARES += ["a" + "1" * 5000, "a" * 5000 + "1", "1" * 5000 + ",0", "a1" * 1000]
NUMBERS = ["0", "1", "2", "7", "-1", "0.5", "1e9", "nan", "inf", "99999999999999999999", "x"]
NUMBERS += ["9" * 5000, "1" + "0" * 4000, "-" + "9" * 5000]
SHARED = ["--help", "--", "-", "--format", "json", "text", "--bogus", "ä", "\x00", "\n"]


def _words(board: list[str], extra: list[str]) -> st.SearchStrategy[list[str]]:
    """An argument list: mostly a board first, then words from the command's vocabulary."""
    words = st.sampled_from(extra + SHARED + SQUARES[:6] + NUMBERS[:5])
    first = st.one_of(st.sampled_from(board), st.sampled_from(ODD_BOARDS), words)
    return st.tuples(first, st.lists(words, max_size=6)).map(lambda t: [t[0], *t[1]])


SOLVE = [
    "--start", "--end", "--closed", "--method", "auto", "warnsdorff", "divide",
    "backtrack", "--tiebreak", "first", "center", "random", "lookahead", "squirrel", "--seed",
    "--time-limit", "--format", "moves", "board", "npy", "--time", "--svg", "--png", "--force",
    "--numbers", "--size", "--style", "path", "full", *SQUARES, *NUMBERS,
]  # fmt: skip
EXISTS = ["--start", "--end", "--closed", "--all-starts", *SQUARES, *NUMBERS]
GENERATE = ["--count", "-n", "--closed", "--start", "--seed", "--workers", "--method",
            "warnsdorff", "--quiet", *SQUARES, *NUMBERS]  # fmt: skip
LIBRARY = ["list", "show", "stats", "export", "import", "--limit", "--after", "--board",
           "--closed", "--open", "--format", "jsonl", "csv", "moves", *NUMBERS]  # fmt: skip


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in a fresh folder, so that relative output files and tours.db land there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _bounded(argv: list[str]) -> list[str]:
    """Keep a fuzzed run quick: small searches, few tours, one worker, files in the folder."""
    if argv and argv[0] == "solve":
        argv = [*argv, "--time-limit", "0.3"]
        if "backtrack" in argv:  # exact search on a big board is seconds, not a finding
            argv = [a if a not in ("6x6", "8x8", "3x10", "10x3") else "5x5" for a in argv]
    if argv and argv[0] == "generate":
        argv = [a if not a.isdigit() or len(a) > 12 else str(min(int(a), 3)) for a in argv]
        argv += ["--workers", "1", "--quiet"]
    return argv


@settings(FUZZ, max_examples=examples(2400))
@given(
    st.one_of(
        _words(BOARDS, SOLVE).map(lambda a: ["solve", *a]),
        _words(BOARDS, EXISTS).map(lambda a: ["exists", *a]),
        _words(
            ["t.json", "-", "/dev/null", "missing.json", "."], ["--board", "--closed", "8x8"]
        ).map(lambda a: ["validate", *a]),
        _words(BOARDS[:5], GENERATE).map(lambda a: ["generate", *a]),
        _words(["list", "show", "stats", "export", "import"], LIBRARY).map(
            lambda a: ["library", *a]
        ),
        st.lists(st.text(max_size=8), max_size=4),  # anything at all
    )
)
def test_fuzz_cli_arguments(
    capsys: pytest.CaptureFixture[str], in_tmp: Path, argv: list[str]
) -> None:
    if "serve" in argv[:1] or "warm" in argv[:1]:
        argv = [argv[0], "--help"]  # a server or a compile run is not for fuzzing
    run_cli(capsys, _bounded(argv))


# -- tour JSON --------------------------------------------------------------------------------

ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
ODD_INTS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([0, 2**31, 2**31 - 1, 10**12, 10**4000, -(10**4000), 46341]),
    ANY_JSON,
)
NAMES = st.one_of(
    st.sampled_from(["a1", "b3", "c2", "z9", "a0", "A1", " a1 ", "aa1", "a-1", "1,1", "", "é1"]),
    st.from_regex(r"\A[a-z]{1,9}[0-9]{1,12}\Z"),
    st.text(max_size=10),
    st.just("a" + "1" * 5000),
)
PAIRS = st.one_of(
    st.lists(st.integers(-2, 9), min_size=2, max_size=2),
    st.lists(ODD_INTS, max_size=3),
    ANY_JSON,
)


@functools.cache
def _tours() -> list[dict[str, Any]]:
    """Real tours to break: open and closed, small and not, from corners and the middle."""
    asked = [("1x1", None, False), ("3x4", "a1", False), ("5x5", "c3", False)]
    asked += [("6x6", "c3", True), ("8x8", "a1", True), ("8x8", "e4", False), ("10x3", None, False)]
    return [kt.solve(b, start=s, closed=c).to_dict() for b, s, c in asked]


@st.composite
def tour_json(draw: st.DrawFn) -> Any:
    """A tour JSON: a real tour broken a little, fields of odd types, or anything at all."""
    kind = draw(st.integers(0, 3))
    if kind == 0:  # a real tour, perhaps broken
        data: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(_tours())))
        for _ in range(draw(st.integers(0, 3))):
            keys = [k for k in ("path", "xy") if k in data]
            key = draw(st.sampled_from(keys))
            seq = data[key]
            op = draw(st.integers(0, 4))
            i = draw(st.integers(0, len(seq) - 1)) if seq else 0
            if op == 0 and seq:
                j = draw(st.integers(0, len(seq) - 1))
                seq[i], seq[j] = seq[j], seq[i]
            elif op == 1 and seq:
                del seq[i]
            elif op == 2 and seq:
                seq.append(seq[i])
            elif op == 3:
                seq.insert(i, draw(NAMES if key == "path" else PAIRS))
            elif len(keys) == 2:
                data.pop(key)
        if draw(st.booleans()):
            field = draw(st.sampled_from(["width", "height", "closed", "method"]))
            data[field] = draw(ODD_INTS)
        return data
    if kind == 1:  # fields of every type
        data = {
            "width": draw(ODD_INTS),
            "height": draw(ODD_INTS),
            "path": draw(st.lists(NAMES, max_size=6) | ANY_JSON),
        }
        if draw(st.booleans()):
            data["xy"] = draw(st.lists(PAIRS, max_size=6) | ANY_JSON)
        if draw(st.booleans()):
            data["closed"] = draw(ANY_JSON)
        if draw(st.booleans()):
            data.pop("path")
        return data
    return draw(ANY_JSON)


def _text(data: Any) -> str:
    return json.dumps(data, allow_nan=True) if _dumpable(data) else "{}"


def _dumpable(data: Any) -> bool:
    try:
        json.dumps(data)
    except (ValueError, TypeError):  # 4,000-digit integers are written out; others not
        return False
    return True


@settings(FUZZ, max_examples=examples(2000))
@given(tour_json())
def test_fuzz_tour_json(capsys: pytest.CaptureFixture[str], in_tmp: Path, data: Any) -> None:
    f = in_tmp / "t.json"
    text = _text(data)
    f.write_text(text, encoding="utf-8")
    code, out, _err = run_cli(capsys, ["validate", str(f), "--format", "json"])
    assert code in (0, 1, 2)
    if code != 2:
        answer = json.loads(out)
        assert answer["valid"] is (code == 0)
    if code == 0:  # a valid tour is a tour: the Python API agrees
        kt.Tour.from_dict(json.loads(text))


@settings(FUZZ, max_examples=examples(500))
@given(
    st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")),
        st.sampled_from(
            [
                b"[" * 5000,
                b"{" * 3000,
                b'{"width":' + b"9" * 5000 + b"}",
                b"\xef\xbb\xbf{}",
                b'{"width":5,"height":5,"path":["a1"]}\x00',
                b"\x00" * 100,
                b"NaN",
                b"1e999",
            ]
        ),
    )
)
def test_fuzz_raw_bytes_to_validate(
    capsys: pytest.CaptureFixture[str], in_tmp: Path, raw: bytes
) -> None:
    f = in_tmp / "t.json"
    f.write_bytes(raw)
    run_cli(capsys, ["validate", str(f)])


# -- JSON lines and CSV import ----------------------------------------------------------------


@st.composite
def import_file(draw: st.DrawFn) -> tuple[str, str]:
    """A file to import: JSON lines of tour JSON (or junk), or CSV rows as export writes them."""
    fmt = draw(st.sampled_from(["jsonl", "csv"]))
    records = draw(st.lists(tour_json(), min_size=1, max_size=3))
    if fmt == "jsonl":
        lines = [_text(r) for r in records]
        if draw(st.booleans()):
            lines.insert(draw(st.integers(0, len(lines))), draw(st.text(max_size=30)))
        return fmt, "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    header = draw(
        st.sampled_from(
            [
                "id,width,height,closed,method,start,end,seed,created,path",
                "width,height,path",
                "width,height,closed,path",
                "path,width",
                "",
            ]
        )
    )
    rows = []
    for r in records:
        r = r if isinstance(r, dict) else {}
        path = r.get("path")
        path = " ".join(map(str, path)) if isinstance(path, list) else str(path)
        cells = {
            "width": str(r.get("width")),
            "height": str(r.get("height")),
            "closed": draw(st.sampled_from(["true", "false", "", "yes", str(r.get("closed"))])),
            "path": path,
        }
        row = [cells.get(c, draw(st.text(max_size=5))) for c in header.split(",")]
        rows.append(",".join(f'"{v}"' if draw(st.booleans()) else v for v in row))
    if draw(st.booleans()):
        rows.append(draw(st.text(max_size=30)))
    return fmt, "\n".join([header, *rows]) + "\n"


@settings(FUZZ, max_examples=examples(1400))
@given(import_file())
def test_fuzz_import(
    capsys: pytest.CaptureFixture[str], in_tmp: Path, case: tuple[str, str]
) -> None:
    fmt, text = case
    f = in_tmp / f"t.{fmt}"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, out, _err = run_cli(capsys, ["library", "import", str(f), "--db", "fuzz.db"])
    assert code in (0, 1, 2)
    if code == 0:
        assert out.startswith("imported ")


# -- the Python API ---------------------------------------------------------------------------

ANYTHING = st.one_of(
    ANY_JSON,
    st.tuples(ANY_JSON, ANY_JSON),
    st.floats(),
    st.sampled_from([math.nan, b"c3", {0, 1}, object(), range(3), 10**5000, (0.5, 0), (True, 0)]),
)


@settings(FUZZ, max_examples=examples(1200))
@given(
    st.sampled_from(["board", "square", "exists", "tour", "from_dict"]),
    ANYTHING,
    ANYTHING,
)
def test_fuzz_python_api_types(call: str, a: Any, b: Any) -> None:
    """Anything handed in is an answer or a KnightsTourError naming the problem."""
    try:
        if call == "board":
            kt.parse_board(a)
        elif call == "square":
            kt.Board(5, 5).parse_square(a, argument="start")
        elif call == "exists":
            kt.exists("5x5", a, end=b, search=False)
        elif call == "tour":
            kt.Tour("3x4", a if isinstance(a, list) else [a], closed=b)
        else:
            kt.Tour.from_dict({"width": 3, "height": 4, "path": a, "xy": b})
    except kt.KnightsTourError as e:
        assert not isinstance(e, kt.InternalError)
        assert 0 < len(str(e)) < 1000, str(e)[:300]
