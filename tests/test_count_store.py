"""Counts remembered in the tour library: the migration that adds them, remembering, looking up
and listing, numbers of any size, and libraries from before counts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import knightstour as kt
import oldlib
from knightstour.counting import count_request
from knightstour.errors import InvalidInputError
from knightstour.library import Library
from knightstour.library.store import MIGRATIONS, CountKey, KnownCount

KEY = CountKey("5x5", "open", directed=True)


def old_library(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library as the first schema made it (before counts), with one tour."""
    oldlib.old_library(path, [kt.solve("5x5", start="a1", method="warnsdorff")], version=1)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    db.close()


def test_remember_look_up_and_replace() -> None:
    with Library(":memory:") as lib:
        assert lib.counts.known_count(KEY) is None and lib.counts.known_counts() == []
        lib.counts.remember_count(KEY, 1728, method="frontier", seconds=0.25, created=86400)
        k = lib.counts.known_count(KEY)
        assert k == KnownCount("5x5", "open", "", "", True, 1728, "frontier", 0.25, 86400)
        assert k.created_iso == "1970-01-02T00:00:00Z"
        # the same key again replaces (one row per thing counted); others are apart
        lib.counts.remember_count(KEY, 1728, method="enumerate", seconds=3.5)
        lib.counts.remember_count(
            ("5x5", "open", "", "", False), 864, method="frontier", seconds=0.2
        )
        assert lib.counts.known_count(KEY).method == "enumerate"
        assert [k.number for k in lib.counts.known_counts()] == [864, 1728]


def test_the_key_is_the_requests_key() -> None:
    request = count_request("6x6", closed=True, start="a1", end="b3", directed=False)
    with Library(":memory:") as lib:
        lib.counts.remember_count(request.key(), 1234, method="frontier", seconds=1.0)
        (k,) = lib.counts.known_counts()
        assert request.key() == ("6x6", "closed", "a1", "b3", False)  # taken as it is
        assert k.key == CountKey.of(request.key()) == CountKey("6x6", "closed", "a1", "b3", False)
        assert lib.counts.known_count(count_request("6x6", closed=True).key()) is None


def test_a_shaped_board_has_its_own_key() -> None:
    """The key names the whole board (Board.key): a holed or other-leaper board never shares the
    plain board's count, while a plain board's key stays its spec."""
    from knightstour.board import Board
    from knightstour.counting import describe

    plain = count_request("5x5", start="a1")
    holed = count_request(Board(5, 5, holes=["c3"]), start="a1")
    zebra = count_request(Board(5, 5, leaper="zebra"), start="a1")
    assert plain.key() == ("5x5", "open", "a1", "", True)
    assert holed.key() == ("5x5 holes=c3", "open", "a1", "", True)
    assert len({plain.key(), holed.key(), zebra.key()}) == 3
    assert describe(holed) == "open tours on 5x5 holes=c3 from a1"
    assert describe(plain) == "open tours on 5x5 from a1"
    with Library(":memory:") as lib:
        lib.counts.remember_count(plain.key(), 304, method="frontier", seconds=0.1)
        assert lib.counts.known_count(holed.key()) is None
        lib.counts.remember_count(
            holed.key(), kt.count(holed.board, start="a1"), method="f", seconds=0
        )
        assert lib.counts.known_count(holed.key()).number == kt.count(holed.board, start="a1")
        assert lib.counts.known_count(plain.key()).number == 304


def test_numbers_beyond_64_bits_round_trip(tmp_path: Path) -> None:
    huge = 19_591_828_170_979_904 * 10**30
    with Library(tmp_path / "big.db") as lib:
        lib.counts.remember_count(("8x8", "open", "", "", True), huge, method="m", seconds=1e5)
    with Library(tmp_path / "big.db", readonly=True) as lib:
        assert lib.counts.known_count(("8x8", "open", "", "", True)).number == huge


def test_listing_orders_boards_by_number_and_filters() -> None:
    with Library(":memory:") as lib:
        for spec, kind, start in [
            ("10x3", "closed", ""),
            ("3x10", "closed", ""),
            ("5x5", "open", "c3"),
            ("5x5", "open", "a1"),
            ("5x5", "closed", ""),
            ("3x4", "open", ""),
        ]:
            lib.counts.remember_count((spec, kind, start, "", True), 1, method="m", seconds=0)
        order = [(k.board, k.kind, k.start) for k in lib.counts.known_counts()]
        assert order == [
            ("3x4", "open", ""),
            ("3x10", "closed", ""),
            ("5x5", "closed", ""),
            ("5x5", "open", "a1"),
            ("5x5", "open", "c3"),
            ("10x3", "closed", ""),
        ]
        assert {k.board for k in lib.counts.known_counts("5x5")} == {"5x5"}
        assert lib.counts.known_counts("7x7") == []


@pytest.mark.parametrize(
    ("key", "number", "seconds", "words"),
    [
        (("5x5", "sideways", "", "", True), 1, 0, "'closed' or 'open'"),
        (("5x5", "open", "", ""), 1, 0, "a count key"),
        (("5x5", "open", None, "", True), 1, 0, "names the board"),
        (("5x5", "open", "", "", 1), 1, 0, "directed must be true or false"),
        (KEY, -1, 0, "non-negative integer"),
        (KEY, 1.5, 0, "non-negative integer"),
        (KEY, True, 0, "non-negative integer"),
        (KEY, 1, float("nan"), "seconds"),
    ],
)
def test_bad_counts_are_refused(key: object, number: object, seconds: float, words: str) -> None:
    with Library(":memory:") as lib, pytest.raises(InvalidInputError, match=words):
        lib.counts.remember_count(key, number, method="m", seconds=seconds)  # type: ignore[arg-type]
    with Library(":memory:") as lib:
        assert lib.counts.known_counts() == []


def test_an_old_library_migrates_and_keeps_its_tours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    old_library(path, monkeypatch)
    with Library(path) as lib:
        assert lib.tours.count() == 1 and lib.tours.get(3).start == "a1"
        lib.counts.remember_count(KEY, 1728, method="frontier", seconds=0.3)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("SELECT board, number FROM counts").fetchall() == [("5x5", "1728")]
    db.close()


def test_an_old_library_can_still_be_read_without_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only reader of a library from before counts: its tours as before, no counts."""
    path = tmp_path / "old.db"
    old_library(path, monkeypatch)
    before = path.read_bytes()
    with Library(path, readonly=True) as lib:
        assert lib.tours.count() == 1 and lib.gallery.stats()[0]["tours"] == 1
        assert lib.counts.known_count(KEY) is None and lib.counts.known_counts() == []
        with pytest.raises(InvalidInputError, match="cannot be written"):
            lib.counts.remember_count(KEY, 1, method="m", seconds=0)
    assert path.read_bytes() == before


def test_a_damaged_number_is_named(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    with Library(path) as lib:
        lib.counts.remember_count(KEY, 1728, method="frontier", seconds=0.3)
        lib.db.execute("UPDATE counts SET number = 'lots'")
        with pytest.raises(InvalidInputError, match="damaged: the count of 5x5 open"):
            lib.counts.known_counts()


@pytest.mark.parametrize("length", [4299, 4300, 4301, 8601, 50_000])
def test_counts_of_any_length_are_stored_and_read_whole(tmp_path: Path, length: int) -> None:
    """Past Python's limit on int/str conversion (4,300 digits): the 3x8300 closed count has
    over 4,000 digits, and used to make the library read as damaged."""
    number = 10 ** (length - 1) + 987654321
    key = CountKey("3x8300", "closed", directed=True)
    with Library(tmp_path / "t.db") as lib:
        lib.counts.remember_count(key, number, method="frontier", seconds=36.0)
        lib.counts.remember_count(KEY, 1728, method="frontier", seconds=0.3)
    with Library(tmp_path / "t.db", readonly=True) as lib:
        assert lib.counts.known_count(key).number == number  # type: ignore[union-attr]
        assert lib.counts.known_count(KEY).number == 1728  # type: ignore[union-attr]
        assert [k.number for k in lib.counts.known_counts()] == [number, 1728]
    db = sqlite3.connect(tmp_path / "t.db")
    (text,) = db.execute("SELECT number FROM counts WHERE board = '3x8300'").fetchone()
    db.close()
    assert len(text) == length and text.endswith("987654321")
