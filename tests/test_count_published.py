"""The published figures (``knightstour/data/published.json``) against the program, and the
answers of ``counting.known`` and ``count(..., library=...)``: theory, published (labelled, with
its source), remembered.

Every figure the program can count is counted: the small boards in the default tier (12 of them
drawn; all with --all), the rest of boards up to 6 wide in the slow tier; the 7-wide figures take
minutes and gigabytes and are reproduced by ``benchmarks/bench_count.py``; 8x8 is beyond one
machine (the program refuses it up front, and answers with the published figure, labelled as
such).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import replace
from importlib import resources

import pytest

import knightstour as kt
from knightstour import published
from knightstour.board import Board
from knightstour.counting import Known, compute, count_request, describe, known, tally
from knightstour.errors import InputLimitError, InvalidInputError
from knightstour.library import Library
from knightstour.published import Figure
from tiers import sample


def counted(f: Figure, **kwargs: object) -> int:
    """The program's count of what ``f`` counts, in ``f``'s own convention."""
    b = Board(f.width, f.height)
    start = None if f.start is None else b.index(*f.start)
    end = None if f.end is None else b.index(*f.end)
    return kt.count(b, closed=f.closed, start=start, end=end, directed=f.directed, **kwargs)


def quick(f: Figure) -> bool:
    """Counted within the default tier's budget (a fraction of a second each)."""
    return min(f.width, f.height) <= 5 or (f.closed and f.width * f.height <= 36)


def name(f: Figure) -> str:
    return f.convention.replace(" ", "-")


QUICK = [f for f in published.figures() if quick(f)]
SLOW = [f for f in published.figures() if not quick(f) and min(f.width, f.height) <= 6]


@pytest.mark.slow
@pytest.mark.parametrize("figure", sample(QUICK, 12, seed=18), ids=name)
def test_small_published_figures_are_reproduced(figure: Figure) -> None:
    """Each small figure with --all (make test-all); else 12 of them drawn."""
    assert counted(figure) == figure.count
    if figure.start is None and figure.end is None:  # the other convention: twice, or half
        other = counted(replace(figure, directed=not figure.directed))
        assert other == (figure.count // 2 if figure.directed else 2 * figure.count)


@pytest.mark.slow
@pytest.mark.parametrize("figure", sample(SLOW, 1, seed=5), ids=name)
def test_the_other_published_figures_up_to_6_wide_are_reproduced(figure: Figure) -> None:
    """Each with --all (make test-all); else one drawn (several seconds each)."""
    assert counted(figure) == figure.count


def test_the_tiers_cover_every_figure_the_tests_can_count() -> None:
    beyond = {f.spec for f in published.figures() if f not in QUICK + SLOW}
    assert beyond == {"7x7", "7x8", "8x8"}  # bench_count.py; and 8x8 is published only
    assert len(QUICK) >= 15 and len(SLOW) >= 3


def test_8x8_is_refused_and_known_as_published() -> None:
    with pytest.raises(InputLimitError):
        kt.count("8x8", closed=True)
    k = known("8x8", closed=True, directed=False)
    assert k == Known(
        13_267_364_410_532,
        "published",
        "OEIS A001230 (B. D. McKay, Knight's tours of an 8x8 chessboard, Technical Report "
        "TR-CS-97-03, Australian National University, 1997)",
        "undirected closed tours on 8x8 (each cycle counted once)",
        url="https://oeis.org/A001230",
    )
    assert known("8x8", closed=True).count == 2 * k.count  # directed: both ways round
    assert known("8x8").count == 19_591_828_170_979_904  # directed open (A165134)
    assert known("8x8", directed=False).count == 19_591_828_170_979_904 // 2
    assert known("8x8", start="a1") is None  # not published, not countable here


@pytest.mark.parametrize(
    "args",
    [
        # a published figure in the other direction convention, on the transposed board, from a
        # symmetric square, or as the tours ending on the square: each checked by counting
        {"board": "5x5", "directed": False},
        {"board": "6x5", "closed": True},
        {"board": "10x3", "closed": True, "directed": True},
        {"board": "5x5", "start": "e1"},
        {"board": "5x5", "end": "a5"},
        {"board": "5x5", "start": "d4", "directed": False},
        {"board": "6x6", "closed": True, "start": "c3"},  # 2x the cycles
        {"board": "6x6", "closed": True, "end": "c3", "directed": False},  # the cycles
        {"board": "6x4", "directed": True},
    ],
)
def test_published_figures_serve_every_convention(args: dict) -> None:
    k = known(**args)
    assert k is not None and k.source == "published" and k.citation.startswith("OEIS A")
    assert k.count == kt.count(**args)
    assert k.convention == describe(count_request(**args))


@pytest.mark.parametrize(
    "args",
    [
        {"board": "5x6", "start": "a1"},  # not published
        {"board": "5x5", "start": "a1", "end": "e5"},  # published from a1, not to e5
        {"board": "6x6", "closed": True, "start": "c3", "end": "b5"},
        {"board": Board(5, 5, holes=frozenset({12}))},  # a shaped board is another board
        {"board": "7x6"},  # open 6 x 7: no figure
    ],
)
def test_what_is_not_published_is_not_known(args: dict) -> None:
    assert known(**args) is None


def test_only_a_plain_knight_board_has_figures() -> None:
    assert published.find(Board(5, 5), closed=False) is not None
    for b in (Board(5, 5, leaper="zebra"), Board(5, 5, holes=frozenset({0}))):
        assert published.find(b, closed=False) is None


def test_theory_answers_0_with_the_reason() -> None:
    for args in (
        {"board": "4x9", "closed": True},
        {"board": "5x5", "start": "b1"},
        {"board": "3x3"},
    ):
        k = known(**args)
        assert k is not None and (k.count, k.source) == (0, "theory")
        assert k.citation.startswith("no ") and kt.count(**args) == 0
    assert "Schwenk" in known("4x9", closed=True).citation


def test_bad_input_raises_as_count_does() -> None:
    with pytest.raises(InvalidInputError, match="off the 5x5 board"):
        known("5x5", start="z9")
    with pytest.raises(InvalidInputError, match="flat boards"):
        known(Board(6, 6, wrap="torus"))


# -- remembered counts --------------------------------------------------------------------------


@pytest.mark.slow
def test_count_remembers_in_a_library_and_recalls(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = Library(":memory:")
    assert known("5x7", library=lib) is None
    number = kt.count("5x7", library=lib)
    k = known("5x7", library=lib)
    assert k is not None and (k.count, k.source, k.method) == (number, "remembered", "frontier")
    assert k.citation.startswith("frontier, ") and k.counted is not None

    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("counted again")

    monkeypatch.setattr(compute, "count_for", refuse)
    assert kt.count("5x7", library=lib) == number
    with pytest.raises(AssertionError, match="counted again"):
        kt.count("5x7", library=lib, method="frontier")  # an explicit method counts again


def test_a_remembered_count_goes_before_the_published_figure() -> None:
    lib = Library(":memory:")
    assert known("5x5", library=lib).source == "published"
    kt.count("5x5", library=lib)
    k = known("5x5", library=lib)
    assert (k.count, k.source) == (known("5x5").count, "remembered")
    assert known("4x9", closed=True, library=lib).source == "theory"


def test_tally_says_what_it_replaced_and_what_it_could_not_store() -> None:
    lib = Library(":memory:")
    request = count_request("4x5", directed=False)
    lib.counts.remember_count(request.key(), 80, method="old", seconds=1)
    result = tally(count_request("4x5", directed=False, method="frontier"), library=lib)
    assert (result.number, result.stored, result.recalled) == (82, True, None)
    assert result.replaced is not None and (result.replaced.count, result.replaced.method) == (
        80,
        "old",
    )
    assert lib.counts.known_count(request.key()).number == 82

    class ReadOnly:
        def known_count(self, key: object) -> None:
            return None

        def remember_count(self, *args: object, **kwargs: object) -> None:
            raise kt.InvalidInputError("counts.db cannot be written: readonly database\nmore")

    result = tally(request, library=ReadOnly())
    assert (result.number, result.stored) == (82, False)
    assert result.not_stored == "counts.db cannot be written: readonly database"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert kt.count("4x5", directed=False, library=ReadOnly()) == 82
    assert [str(w.message) for w in caught] == [
        "the count was not remembered: counts.db cannot be written: readonly database"
    ]


# -- the file -----------------------------------------------------------------------------------


def test_the_file_is_packaged_and_every_figure_names_a_listed_source() -> None:
    data = json.loads(
        resources.files("knightstour").joinpath(published.DATA).read_text(encoding="utf-8")
    )
    assert len(data["counts"]) == len(published.figures())
    for f in published.figures():
        assert f.count > 0 and f.source in data["sources"]
        assert f.url == data["sources"][f.source]["url"] and f.url.startswith("https://oeis.org/")
    pairs = [(f.spec, f.closed, f.start, f.end) for f in published.figures()]
    assert len(pairs) == len(set(pairs))  # one figure for each count


def test_the_census_facts() -> None:
    c = published.census()
    assert (c.board, c.classes, c.closed, c.magic, c.constant) == ("8x8", 140, 63, 0, 260)
    assert c.constant == 8 * (64 + 1) // 2  # n(n^2 + 1)/2
    assert c.closed <= c.classes and c.year == 2003 and len(c.authors) == 3
    assert "140 up to symmetry" in c.no_magic_reason and c.citation in c.no_magic_reason
