"""The classes of semi-magic tours: family, range and canonical numbering of a class, the same
for its 16 numberings, and how ``magic --classes`` and ``library stats`` show them."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import Board, symmetries
from knightstour.cli import main
from knightstour.library.canonical import canonical_form, unpack
from knightstour.library.store import Library
from knightstour.magic.classes import canonical_numbering, describe, family, range_of
from knightstour.magic.search import ranges
from knightstour.numbering import BEVERLEY, grid_order
from knightstour.tour import Tour
from test_magic_quarters import IRREGULAR as QUARTER_LOCAL  # a quarter-local tour, not quads

B8 = Board(8, 8)


def _tour(grid: list[list[int]] | tuple[tuple[int, ...], ...]) -> Tour:
    return Tour(B8, np.array(grid_order(grid)), method="magic")


def _images(order: np.ndarray) -> list[np.ndarray]:
    """The 16 numberings of a class: the board's 8 symmetries, each also reversed."""
    perms, _ = symmetries(8, 8)
    out = [g[np.asarray(order)] for g in perms]
    return out + [o[::-1] for o in out]


def _plain_family(w: int, h: int, order: np.ndarray) -> str | None:
    """The family by plain Python: each run of four in one 4 x 4 block, and then one square
    in each of the block's ranks and files."""
    if w % 4 or h % 4:
        return None
    runs = [[(int(s) % w, int(s) // w) for s in order[i : i + 4]] for i in range(0, w * h, 4)]
    if any(len({(x // 4, y // 4) for x, y in run}) > 1 for run in runs):
        return "irregular"
    quads = all(len({x for x, _ in r}) == 4 and len({y for _, y in r}) == 4 for r in runs)
    return "quads" if quads else "quarters"


def _sums_and_moves(grid: np.ndarray) -> None:
    """Plain numpy: a board of numbers 1..64 that is a knight's path, ranks and files 260."""
    h, w = grid.shape
    assert sorted(grid.ravel().tolist()) == list(range(1, w * h + 1))
    ys, xs = np.unravel_index(np.argsort(grid.ravel()), grid.shape)
    steps = set(zip(np.abs(np.diff(xs)).tolist(), np.abs(np.diff(ys)).tolist(), strict=True))
    assert steps <= {(1, 2), (2, 1)}
    assert (grid.sum(axis=0) == 260).all() and (grid.sum(axis=1) == 260).all()


@pytest.mark.parametrize(("grid", "want"), [(BEVERLEY, "quads"), (QUARTER_LOCAL, "quarters")])
def test_a_class_is_the_same_from_each_of_its_16_numberings(grid, want: str) -> None:
    """Beverley's tour is a quad tour; the other is quarter-local but not a quad tour. Every
    numbering of a class gives the class's family, range, closedness and canonical numbering:
    the least of the 16 in number order."""
    order = np.array(grid_order(grid))
    images = _images(order)
    least = min(tuple(o.tolist()) for o in images)
    described = {describe(Tour(B8, o, method="magic")) for o in images}
    assert len(described) == 1
    c = described.pop()
    assert c.family == want == _plain_family(8, 8, order)
    assert c.order == least
    assert all(tuple(canonical_numbering(B8, o).tolist()) == least for o in images)
    key, _ = canonical_form(B8, order, closed=False)  # the library's form of an open tour
    assert tuple(unpack(B8, key).tolist()) == least
    first, last = least[0], least[-1]
    assert c.closed == ({abs(first % 8 - last % 8), abs(first // 8 - last // 8)} == {1, 2})
    rng = ranges(8, 8)[c.range - 1]
    assert {(rng.first, rng.last), (rng.last, rng.first)} & {
        (int(g[first]), int(g[last])) for g in symmetries(8, 8)[0]
    }
    _sums_and_moves(np.array(c.numbering))
    assert c.text().splitlines()[-1].split()[:1] == [str(c.numbering[0][0])]


def test_families_match_a_plain_check_on_tours_of_any_shape() -> None:
    """Warnsdorff's tours leave their blocks; a tour made of runs inside blocks is checked by
    the plain code too, and boards not cut into blocks have no family."""
    for spec, start in (("8x8", "a1"), ("8x12", "c5"), ("12x8", "h2"), ("6x6", "a1")):
        t = kt.solve(spec, start=start, method="warnsdorff")
        got = family(t.board, t.indices)
        assert got == _plain_family(t.board.width, t.board.height, t.indices)
        assert got == (None if spec == "6x6" else "irregular")
    for o in _images(np.array(grid_order(QUARTER_LOCAL))):
        assert family(B8, o) == "quarters"


def test_every_pair_of_ends_finds_its_range() -> None:
    """Each range's pairs of ends (its images, either way round) give its number; squares of
    one colour give none."""
    perms, _ = symmetries(8, 8)
    seen = 0
    for r in ranges(8, 8):
        pairs = {(int(g[r.first]), int(g[r.last])) for g in perms}
        pairs |= {(b, a) for a, b in pairs}
        assert len(pairs) == r.size
        assert {range_of(B8, a, b) for a, b in pairs} == {r.number}
        seen += len(pairs)
    assert seen == 64 * 32  # every ordered pair of squares of opposite colours, once
    assert range_of(B8, 0, 9) is None and range_of(Board(12, 12), 0, 1) is None


def test_a_tour_that_is_not_semi_magic_is_refused_in_one_line() -> None:
    with pytest.raises(kt.InvalidInputError, match="not semi-magic: ranks should add up to 260"):
        describe(kt.solve("8x8", start="a1"))


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "m.db")
    with Library(path) as lib:
        lib.tours.add([_tour(BEVERLEY), _tour(QUARTER_LOCAL), kt.solve("8x8", start="a1")],
                      method="magic")  # fmt: skip
    return path


def test_magic_classes_lists_each_class_with_its_numbering(db: str, capsys) -> None:
    assert main(["magic", "8x8", "--classes", "--db", db]) == 0
    out = capsys.readouterr().out
    head, fams, starts, *rest = out.splitlines()
    assert head.startswith(f"2 classes of semi-magic tours of 8x8 in {db}, 1 of them closed;")
    assert "published census" in head and "140, 63 closed, 0 magic" in head
    assert fams == "by family: quads 1 (0 closed), quarters 1 (1 closed), irregular 0"
    blocks = "\n".join(rest).strip().split("\n\n")
    # each class names the start pass that walks it, and the tally counts them by start square
    passes = [re.search(r"start pass (-\d+) \(([a-h]\d)\)$", b.splitlines()[0]) for b in blocks]
    counted = dict(pair.split() for pair in starts.removeprefix("by start pass: ").split(", "))
    assert list(counted) == ["a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3", "d4"]
    assert sum(map(int, counted.values())) == 2
    for m in passes:
        assert m is not None and int(counted[m.group(2)]) >= 1
        assert int(m.group(1)) == -2 - list(counted).index(m.group(2))
    with Library(db) as lib:
        semi = {t.id for t in lib.tours.list() if t.tour.magic().verdict != "neither"}
    heads = [re.fullmatch(r"class (\d) \(library id (\d)\): .*", b.splitlines()[0]) for b in blocks]
    assert [m.group(1) for m in heads if m] == ["1", "2"]
    assert {int(m.group(2)) for m in heads if m} == semi and len(semi) == 2
    assert "open, quads, range" in blocks[0] and "closed, quarters, range" in blocks[1]
    for block, grid in zip(blocks, (BEVERLEY, QUARTER_LOCAL), strict=True):
        shown = np.array([[int(v) for v in line.split()] for line in block.splitlines()[1:]])
        _sums_and_moves(shown)
        order = np.array(grid_order(shown.tolist()))
        assert tuple(order.tolist()) == min(
            tuple(o.tolist()) for o in _images(np.array(grid_order(grid)))
        )


def test_magic_classes_as_json_and_filtered(db: str, capsys) -> None:
    assert main(["magic", "8x8", "--classes", "--db", db, "--closed", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["classes"], data["reentrant"]) == (1, 1)
    assert data["filters"] == {"closed": True, "diagonal": False}
    assert data["published"]["classes"] == 140
    (c,) = data["tours"]
    assert (c["family"], c["reentrant"], c["verdict"]) == ("quarters", True, "semi-magic")
    with Library(db) as lib:
        assert lib.tours.get(c["id"]).tour.magic().verdict == "semi-magic"
    assert c["closed"] is False and c["method"] == "magic"  # a numbering: an open path
    grid = np.array(c["numbering"])[::-1]
    _sums_and_moves(grid)
    assert grid_order(grid.tolist()) == [8 * y + x for x, y in c["xy"]]
    assert main(["magic", "12x12", "--classes", "--db", db, "--diagonal"]) == 0
    assert capsys.readouterr().out.startswith("0 classes of magic tours of 12x12")
    assert main(["magic", "8x8", "--classes", "--db", db, "--diagonal"]) == 1  # the census
    assert capsys.readouterr().out.startswith("no magic tour on 8x8: the published 2003 census")


def test_magic_classes_refuses_search_options_and_a_missing_library(tmp_path, capsys) -> None:
    assert main(["magic", "8x8", "--classes", "--count", "3", "--db", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("--classes lists what the library holds and searches nothing: no --count")
    assert main(["magic", "8x8", "--classes", "--db", str(tmp_path / "none.db")]) == 2
    assert "no tour library at" in capsys.readouterr().err
    assert main(["magic", "4x4x4", "--classes", "--db", str(tmp_path / "none.db")]) == 2
    assert "magic tours are numbered on flat boards" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_library_stats_counts_the_semi_magic_classes_by_family(db: str, capsys) -> None:
    assert main(["library", "stats", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "  semi-magic by family: quads 1 (0 closed), quarters 1 (1 closed), irregular 0" in out
    assert main(["library", "stats", "--db", db, "--format", "json"]) == 0
    (kind,) = json.loads(capsys.readouterr().out)["kinds"]
    assert kind["semi_magic"] == 2
    assert kind["semi_magic_families"] == {
        "quads": {"classes": 1, "reentrant": 0},
        "quarters": {"classes": 1, "reentrant": 1},
        "irregular": {"classes": 0, "reentrant": 0},
    }


def test_magic_classes_on_boards_other_than_8x8(tmp_path, capsys) -> None:
    """12x12: constructed tours, a family each, no range (the search does not take the board) and
    no published census; 6x8: no family at all (no blocks), and nothing held; 6x6 and 5x6: a
    theorem rules the tours out (exit 1), and no magic constant (exit 2)."""
    from knightstour.magic.construct import construct

    path = str(tmp_path / "t.db")
    with Library(path) as lib:
        tours = [Tour(Board(12, 12), construct(12, 12, seed=s), method="magic") for s in (1, 2)]
        lib.tours.add(tours, method="magic")
    assert main(["magic", "12x12", "--classes", "--db", path, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["published"] is None and data["classes"] == 2
    assert {c["family"] for c in data["tours"]} == {_plain_family(12, 12, t.indices) for t in tours}
    assert all(c["range"] is None for c in data["tours"])
    for c in data["tours"]:
        grid = np.array(c["numbering"])
        assert (grid.sum(axis=0) == 870).all() and (grid.sum(axis=1) == 870).all()
    assert main(["magic", "6x8", "--classes", "--db", path]) == 0
    out = capsys.readouterr().out
    assert out == f"0 classes of semi-magic tours of 6x8 in {path}, 0 of them closed\n"
    assert main(["magic", "6x8", "--classes", "--db", path, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["families"] == {}
    assert main(["magic", "6x6", "--classes", "--db", path, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["exists"] is False
    assert main(["magic", "5x6", "--classes", "--db", path]) == 2
    assert "no magic constant" in capsys.readouterr().err


def test_a_class_stored_both_ways_is_listed_once(tmp_path, capsys) -> None:
    """A semi-magic tour imported as a closed tour is read from its stored start; stored open
    and closed, its class is one class (the tour of the lower id), and library stats gives each
    kind its own family line."""
    path = str(tmp_path / "both.db")
    order = np.array(grid_order(QUARTER_LOCAL))  # reentrant: 64 is a move from 1
    with Library(path) as lib:
        lib.tours.add([Tour(B8, order, closed=True, method="magic")])
        lib.tours.add([Tour(B8, order, method="magic")])
    assert main(["magic", "8x8", "--classes", "--db", path, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["classes"] == 1 and data["tours"][0]["id"] == 1
    assert data["tours"][0]["family"] == "quarters"
    assert main(["library", "stats", "--db", path]) == 0
    out = capsys.readouterr().out
    assert out.count("semi-magic by family: quads 0, quarters 1 (1 closed), irregular 0") == 2


def test_magic_classes_says_how_far_the_search_got(tmp_path, capsys) -> None:
    """After a whole search of 4x8 (none found: the quad and quarter passes, then its 8 start
    passes), the listing says every pass was walked whole, with the search's own nodes; a part
    of a pass and of a numbered range walked since are said to be under way."""
    path = str(tmp_path / "t.db")
    assert main(["magic", "4x8", "--db", path, "--quiet", "--format", "json"]) == 1
    run = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main(["magic", "4x8", "--classes", "--db", path, "--format", "json"]) == 0
    searched = json.loads(capsys.readouterr().out)["searched"]
    names = [r["name"] for r in searched]
    assert names[:2] == ["the quad pass", "the quarter pass"]
    assert names[2:] == [f"start pass {sq}" for sq in ("a1", "b1", "a2", "b2", "a3", "b3", "a4",
                                                          "b4")]  # fmt: skip
    assert all(r["whole"] for r in searched)
    assert sum(r["nodes"] for r in searched) == run["nodes"]
    with Library(path) as lib:
        lib.journal.record_part("4x8", "starts/1/closed", -3, 0, found=0, nodes=7, seconds=1.0)
        lib.journal.record_part("4x8", "two-ended/1", 5, 2, found=0, nodes=5, seconds=1.0)
        lib.journal.keep_state("4x8", "starts/1/closed", -4, 3, b"walk")  # a part stopped
        lib.journal.keep_state("4x8", "starts/1/closed", -3, 1, b"walk")
        lib.journal.record_part("4x8", "quads/2", 0, 0, found=0, nodes=99, seconds=1.0)  # older
    assert main(["magic", "4x8", "--classes", "--db", path]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("searched so far: the quad pass whole; the quarter pass whole; start "
                           "pass a1 whole; ")  # fmt: skip
    assert (
        "start pass b1 of closed tours under way (1 part, 1 walk stopped on the way); start pass "
        "a2 of closed tours under way (0 parts, 1 walk stopped on the way); numbered ranges: 0 "
        f"whole, 1 under way (1 part); {run['nodes'] + 12:,} nodes in " in line
    )
    assert line.endswith("(1 range walked by an earlier version of the search apart)")
