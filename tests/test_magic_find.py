"""``magic.find``, the one front door: what it searches, what it builds, what it refuses."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from knightstour import magic
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic.search import MAX_AREA
from knightstour.theory import semi_magic_verdict


def journal(board: str, lib: Library | None = None) -> MagicJournal:
    b = kt.Board(*map(int, board.split("x")))
    return MagicJournal(Library(":memory:") if lib is None else lib, b.width, b.height)


def assert_semi_magic(found: magic.MagicTour) -> None:
    """Checked from scratch: a knight's tour whose ranks and files all add up alike."""
    board, order = found.tour.board, found.tour.indices
    numbers = np.empty(board.area, dtype=np.int64)
    numbers[order] = np.arange(1, board.area + 1)
    grid = numbers.reshape(board.height, board.width)
    assert len(set(grid.sum(axis=1))) == 1 and len(set(grid.sum(axis=0))) == 1
    assert all(board.is_move(int(a), int(b)) for a, b in itertools.pairwise(order))
    assert found.reentrant == board.is_move(int(order[-1]), int(order[0]))


def test_a_board_without_a_semi_magic_tour_is_proved_so_by_the_search() -> None:
    found = magic.find("4x6", journal("4x6"))
    assert (found.outcome, found.built, found.tours, found.classes) == ("none", False, [], 0)
    assert found.reason is not None
    assert found.reason.startswith("no semi-magic tour on 4x6: every one of its 6 start passes")
    assert found.report is not None and found.report.complete


def test_the_search_hands_each_tour_over_checked_and_keeps_it() -> None:
    lib = Library(":memory:")
    seen: list[magic.MagicTour] = []
    found = magic.find("8x8", journal("8x8", lib), ranges=[0], count=1, workers=1,
                       on_found=seen.append)  # fmt: skip
    assert found.outcome == "done" and not found.built and seen == found.tours and seen
    for t in seen:
        assert_semi_magic(t)
        assert t.sums.verdict == "semi-magic" and t.tour.method == "magic"
    assert found.new >= 1 and found.classes == lib.tours.count("8x8") >= 1
    data = found.to_dict()
    assert data["classes_in_library"] == found.classes and len(data["tours"]) == len(seen)
    assert data["tours"][0]["magic"]["verdict"] == "semi-magic"


def test_a_time_limit_stops_the_search_short() -> None:
    found = magic.find("8x8", journal("8x8"), ranges=[5], time_limit=0.3, workers=1)
    assert found.outcome == "stopped" and found.report is not None
    assert found.report.stopped == "time limit" and found.reason is None


@pytest.mark.slow
def test_bigger_boards_are_built_stored_and_counted_once() -> None:
    lib = Library(":memory:")
    found = magic.find("16x12", journal("16x12", lib), count=2)
    assert found.built and found.outcome == "done" and len(found.tours) == 2 and found.new == 2
    for t in found.tours:
        assert_semi_magic(t)
        assert t.reentrant  # the folded construction closes every tour
    assert lib.tours.count("16x12") == 2
    assert (found.construction, found.all_closed) == ("the folded construction", True)
    again = magic.find("16x12", journal("16x12", lib), count=2)  # two classes more
    assert again.outcome == "done" and again.new == 2 and lib.tours.count("16x12") == 4
    keeper = journal("16x12", lib)
    keys = {keeper.class_of(t.tour) for t in found.tours + again.tours}
    assert len(keys) == 4  # every tour handed over is a class of its own
    assert found.to_dict()["construction"] == "the folded construction"


@pytest.mark.slow  # builds some forty 12x12 tours: seconds
def test_count_means_classes_new_to_the_library_and_says_when_the_seeds_run_dry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--count N`` of a construction: N tours of N classes the library did not hold (12x12
    once gave 5 tours in 3 classes); when the seeds give no more, one line saying how many
    were new, exit 3 (issue 30, item 16)."""
    from knightstour.cli import main

    lib = Library(":memory:")
    keeper = journal("12x12", lib)
    found = magic.find("12x12", keeper, count=4)
    assert found.outcome == "done" and found.new == 4 and len(found.tours) == 4
    assert len({keeper.class_of(t.tour) for t in found.tours}) == 4 == lib.tours.count("12x12")
    assert (found.construction, found.all_closed) == ("the stored block patterns", False)
    assert not any(t.reentrant for t in found.tours)
    monkeypatch.setattr(magic, "BARREN_SEEDS", 3)  # a shorter patience, the same rule
    more = magic.find("12x12", keeper, count=40)
    assert more.outcome == "stopped" and more.reason is not None
    assert more.reason.startswith(f"{more.new} new classes of semi-magic tours of the 40 asked")
    assert "only repeats" in more.reason and len(more.tours) == more.new
    assert lib.tours.count("12x12") == 4 + more.new <= 6  # the patterns hold six classes
    db = str(tmp_path / "m.db")
    code = main(["magic", "12x12", "--count", "2", "--db", db, "--quiet"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[-1].startswith("built 2 new classes of semi-magic tours of 12x12")
    assert "open: the stored block patterns of 12x12 hold no closed tour" in out[-1]
    code = main(["magic", "12x12", "--count", "40", "--db", db, "--quiet"])
    last = capsys.readouterr().out.splitlines()[-1]
    assert code == 3 and "of the 40 asked" in last and last.endswith(f"kept in {db}")


def test_a_single_square_is_built_not_searched() -> None:
    found = magic.find("1x1", journal("1x1"), diagonal=True)
    assert found.built and found.outcome == "done" and found.tours[0].sums.verdict == "magic"


@pytest.mark.parametrize(
    ("board", "options", "words"),
    [
        ("6x10", {}, "Jelliss 2003"),
        ("5x5", {}, "odd number of squares"),
        ("4x4", {}, "no knight's tour at all"),
        ("8x8", {"diagonal": True}, "the published 2003 census"),
    ],
)
def test_a_board_ruled_out_is_answered_no_without_a_search(
    board: str, options: dict, words: str
) -> None:
    """A theorem or the census proves it: the answer "none" (exit 1), not a refusal."""
    assert magic.refusal(board, **options) is None
    found = magic.find(board, journal(board), **options)
    assert found.outcome == "none" and found.report is None and found.tours == []
    assert found.reason is not None and words in found.reason
    assert found.reason == magic.ruled_out(board, **options)
    assert found.to_dict()["outcome"] == "none" and found.to_dict()["reason"] == found.reason


@pytest.mark.parametrize(
    ("board", "options", "words"),
    [
        ("5x6", {}, "5x6 has no magic constant"),
        ("3x4", {}, "3x4 has no magic constant"),
        ("6x8", {"diagonal": True}, "needs a square board"),
        ("12x12", {"closed": True}, "closed is for the search of boards up to 64 squares"),
        ("12x12", {"ranges": [1]}, "ranges is for the search"),
        ("12x12", {"workers": 2}, "workers is for the search"),
        ("4x20", {}, "no construction for 4x20"),
        ("4x4x4", {}, "numbered on flat boards"),
        (kt.Board(8, 8, holes=["a1"]), {}, "plain knight's boards, not on 8x8 holes=a1"),
    ],
)
def test_refusals_name_the_reason(board: object, options: dict, words: str) -> None:
    reason = magic.refusal(board, **options)  # type: ignore[arg-type]
    assert reason is not None and words in reason and len(reason.splitlines()) == 1
    with pytest.raises(kt.InvalidInputError, match=words):
        magic.find(board, journal("8x8"), **options)  # type: ignore[arg-type]


def test_the_theorems_decide_exactly_what_the_search_and_the_constructions_take() -> None:
    """Every board up to 20 a side: refused with the theorem's own reason where it applies;
    searched when small, else built or refused as a size without construction."""
    for w in range(1, 21):
        for h in range(1, 21):
            board = kt.Board(w, h)
            verdict = semi_magic_verdict(board)
            reason = magic.refusal(board)
            if magic.no_constant(board) is not None:
                assert verdict is not None and reason == magic.no_constant(board)
            elif verdict is not None:
                assert verdict.exists is False and reason is None
                assert magic.ruled_out(board) == verdict.reason
            elif 1 < w * h <= MAX_AREA:
                assert magic.searched(board) and reason is None
            else:
                assert not magic.searched(board)
                assert reason is None or reason.startswith(f"no construction for {w}x{h}")


def test_the_census_is_labelled_published() -> None:
    census = magic.census()
    assert (census.board, census.classes, census.closed, census.magic) == ("8x8", 140, 63, 0)
    assert census.ranges == 136  # the search makes as many ranges (test_magic_search)
    reason = magic.ruled_out("8x8", diagonal=True)
    assert reason is not None and "published" in reason and census.citation in reason


def test_the_command_refuses_before_opening_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from knightstour.cli import main

    db = tmp_path / "t.db"
    for args in (["5x6"], ["12x12", "--closed"], ["6x8", "--diagonal"], ["4x4x4"]):
        assert main(["magic", *args, "--db", str(db)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("knightstour: ") and len(err.splitlines()) == 1
    for args in (["6x10"], ["4x4"], ["5x5"], ["8x8", "--diagonal"]):  # proved no: exit 1
        assert main(["magic", *args, "--db", str(db)]) == 1
        out, err = capsys.readouterr()
        assert err == "" and out.startswith("no ") and len(out.splitlines()) == 1
    assert main(["magic", "6x10", "--db", str(db), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["outcome"] == "none"
    assert not db.exists()
