"""The quad pass of the semi-magic search: every tour made of quads of the 4 x 4 blocks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from knightstour.board import symmetries
from knightstour.cli import main
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic._blocks import CYCLES
from knightstour.magic.quads import QUAD_RANGE, applies, quad_range, quad_walker
from knightstour.magic.search import search
from knightstour.numbering import BEVERLEY, grid_order


def _grid(order: np.ndarray, w: int = 8, h: int = 8) -> np.ndarray:
    grid = np.zeros((h, w), np.int64)
    grid[order // w, order % w] = np.arange(1, w * h + 1)
    return grid


def _check(order: np.ndarray) -> None:
    """Plain numpy: a knight's tour of 8x8, every rank and file 260, made of quads."""
    assert sorted(order.tolist()) == list(range(64))
    x, y = order % 8, order // 8
    steps = set(zip(np.abs(np.diff(x)).tolist(), np.abs(np.diff(y)).tolist(), strict=True))
    assert steps <= {(1, 2), (2, 1)}
    grid = _grid(order)
    assert grid.sum(axis=0).tolist() == [260] * 8 and grid.sum(axis=1).tolist() == [260] * 8
    for j in range(16):  # numbers 4j + 1 ... 4j + 4: one square in each rank and file of a block
        quad = order[4 * j : 4 * j + 4]
        assert len({(int(s) % 8 // 4, int(s) // 32) for s in quad}) == 1
        assert sorted(quad % 4) == [0, 1, 2, 3] and sorted(quad // 8 % 4) == [0, 1, 2, 3]


def _classes(orders: list[np.ndarray]) -> set[tuple[int, ...]]:
    """Each numbering's class under the 8 symmetries and the reversed numbering (the least)."""
    perms, _ = symmetries(8, 8)
    out = set()
    for o in orders:
        images = [tuple(g[o].tolist()) for g in perms]
        images += [im[::-1] for im in images]
        out.add(min(images))
    return out


@pytest.fixture(scope="module")
def whole_pass() -> list[np.ndarray]:
    with Library(":memory:") as lib:
        report = search(8, 8, MagicJournal(lib, 8, 8), only=[QUAD_RANGE])
        assert report.parts_done == 192 and report.new == 105
        assert lib.tours.count("8x8") == 105
    return report.tours


@pytest.mark.sweep  # the whole pass: --all (make test-all); a sample below
def test_the_quad_pass_finds_105_classes_of_semi_magic_8x8_tours(whole_pass) -> None:
    """105 of the census's 140; 45 of them walk every block's 4-cycles whole."""
    assert len(whole_pass) == 1680
    for order in whole_pass:
        _check(np.asarray(order))
    assert len(_classes(whole_pass)) == 105
    cycles = {frozenset(c) for c in CYCLES}
    whole = [o for o in whole_pass if all(
        frozenset((int(s) % 4, int(s) // 8 % 4) for s in o[4 * j : 4 * j + 4]) in cycles
        for j in range(16))]  # fmt: skip
    assert len(_classes(whole)) == 45


@pytest.mark.sweep  # the whole pass: --all (make test-all); a sample below
def test_beverleys_tour_of_1848_is_among_them(whole_pass) -> None:
    beverley = np.array(grid_order(BEVERLEY))
    assert _classes([beverley]) <= _classes(whole_pass)


@pytest.mark.sweep  # the whole pass: --all (make test-all); a sample below
def test_none_is_magic_and_some_are_closed(whole_pass) -> None:
    """The census says no 8x8 tour is magic; a closed tour's last square is a move from its
    first."""
    for order in whole_pass:
        grid = _grid(np.asarray(order))
        assert np.trace(grid) != 260 or np.trace(grid[::-1]) != 260
    closed = [o for o in whole_pass if {abs(o[0] % 8 - o[-1] % 8), abs(o[0] // 8 - o[-1] // 8)}
              == {1, 2}]  # fmt: skip
    assert len(_classes(closed)) == 44  # of the census's 63
    # a closed pass keeps only those, part by part (a part: the quad the tour begins with)
    w = quad_walker(8, 8)
    quads = [tuple(q) for q in w.quads.tolist()]
    part_of = lambda o: quads.index(tuple(int(v) for v in o[:4]))  # noqa: E731
    parts = [*sorted({part_of(o) for o in closed[:40]})[:4], part_of(whole_pass[0])]
    rng = quad_range(8, 8, closed=True)
    assert rng is not None
    for part in parts:
        got = {tuple(o) for o in w.run(rng, part).tours.tolist()}
        assert got == {tuple(int(v) for v in o) for o in closed if part_of(o) == part}


def _completions(prefix: list[int]) -> list[list[int]]:
    """Every quad tour beginning with the quads ``prefix`` that is semi-magic: found
    with no cut at all, only the final sums checked."""
    w = quad_walker(8, 8)
    used = {int(s) for q in prefix for s in w.quads[q]}
    out: list[list[int]] = []

    def grow(seq: list[int]) -> None:
        if len(seq) == 16:
            order = w.quads[seq].reshape(-1)
            grid = _grid(order)
            if (grid.sum(axis=0) == 260).all() and (grid.sum(axis=1) == 260).all():
                out.append(order.tolist())
            return
        last = w.quads[seq[-1], 3]
        for q in w.succ[last, : w.nsucc[last]].tolist():
            squares = set(w.quads[q].tolist())
            if not squares & used:
                used.update(squares)
                grow([*seq, q])
                used.difference_update(squares)

    grow(list(prefix))
    return out


@pytest.mark.sweep  # the whole pass: --all (make test-all); a sample below
def test_no_cut_loses_a_tour(whole_pass) -> None:
    """Below the first 9 to 11 quads of found tours, a walk without cuts finds exactly the
    tours the pass found there."""
    w = quad_walker(8, 8)
    found = {tuple(np.asarray(o).tolist()) for o in whole_pass}
    rng = np.random.default_rng(5)
    for k in rng.choice(len(whole_pass), 6, replace=False):
        order = np.asarray(whole_pass[k]).tolist()
        depth = int(rng.integers(9, 12))
        quads = [tuple(q) for q in w.quads.tolist()]
        prefix = [quads.index(tuple(order[4 * d : 4 * d + 4])) for d in range(depth)]
        full = {tuple(o) for o in _completions(prefix)}
        assert tuple(order) in full
        assert full == {o for o in found if list(o[: 4 * depth]) == order[: 4 * depth]}


#: Parts of the open pass walked in the default tier: Beverley's (2) and three drawn.
SAMPLE_PARTS = sorted({2, *random.Random(105).sample(range(192), 3)})


@pytest.mark.slow
def test_a_sample_of_the_pass_finds_semi_magic_quad_tours() -> None:
    """A few parts of the whole pass (which runs with --all): each tour found is a semi-magic
    knight's tour of quads, none magic, and Beverley's tour of 1848 is found in its part."""
    w, rng = quad_walker(8, 8), quad_range(8, 8)
    assert rng is not None
    beverley = np.array(grid_order(BEVERLEY))
    found: list[np.ndarray] = []
    for part in SAMPLE_PARTS:
        result = w.run(rng, part)
        assert result.done
        found += list(result.tours)
    for order in found:
        _check(np.asarray(order))
        grid = _grid(np.asarray(order))
        assert np.trace(grid) != 260 or np.trace(grid[::-1]) != 260
    assert len(found) > 4 and _classes([beverley]) <= _classes(found)


@pytest.mark.slow
def test_a_stopped_pass_goes_on_where_it_stopped(tmp_path, capsys) -> None:
    import json

    from knightstour.magic.quads import SCHEME

    db = str(tmp_path / "m.db")
    runs = [["--count", "1"], ["--time-limit", "0.3"]]
    walked = []
    for extra in runs:
        assert main(["magic", "8x8", "--range", "0", "--db", db, "--quiet", "--format", "json",
                     *extra]) in (0, 3)  # fmt: skip
        data = json.loads(capsys.readouterr().out)
        walked.append(data["parts_done"])
        with Library(db) as lib:  # every part walked is recorded once, none walked twice
            done = lib.journal.parts_done("8x8", SCHEME, QUAD_RANGE)
            assert done is not None and len(done) == sum(walked)
            assert data["classes_in_library"] == lib.tours.count("8x8") >= 1
    assert sum(walked) < 192  # a part whose tours pass the count is not recorded: walked again
    assert main(["magic", "8x8", "--range", "0", "--count", "1", "--db", db, "--quiet"]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[-1]
        .startswith("the quad pass (range 0) alone, under way;")
    )
    # without --range the summary counts each pass: the quad and quarter passes, then the
    # start passes (the numbered ranges are walked only when --range names them)
    assert main(["magic", "8x8", "--count", "1", "--db", db, "--quiet"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("the quad pass (range 0) under way; the quarter pass (range -1) under "
                           "way; the start passes walked whole: 0 of 10;")  # fmt: skip


def test_which_boards_the_pass_walks() -> None:
    assert applies(8, 8) and applies(4, 8) and applies(8, 4)
    assert not applies(6, 6) and not applies(12, 12) and not applies(4, 6)
    assert quad_range(6, 6) is None
    rng = quad_range(4, 8)
    assert rng is not None and rng.number == QUAD_RANGE
    with Library(":memory:") as lib:  # 4x8 has quad tours, but none semi-magic
        report = search(4, 8, MagicJournal(lib, 4, 8), only=[QUAD_RANGE])
        assert report.parts_done == 96 and report.found == 0


def test_the_offset_cut_never_cuts_a_share_quads_can_give() -> None:
    """``offsets_open`` accepts four lines' needs whenever ``left`` quads of one block row can
    meet them (each quad gives the four ranks 1, 2, 3 and 4 in some order), checked against every
    choice of up to 3 quads' orders, and its bound on pairs of lines cuts more than the bound on
    each line alone; and the squares one or two disjoint quads leave in a block can always be cut
    into quads, so a cut on a block's empty squares would never fire."""
    import itertools

    from knightstour.kernels.magic_quads import offsets_open
    from knightstour.magic.quads import block_quads

    orders = list(itertools.permutations(range(1, 5)))
    for left in range(4):
        reach = {(0, 0, 0, 0)}
        for _ in range(left):
            reach = {tuple(a + b for a, b in zip(r, o, strict=True)) for r in reach for o in orders}
        for need in reach:
            assert offsets_open(np.array(need), left)
    assert not offsets_open(np.array([1, 1, 4, 4]), 1)  # each alone is within 1 ... 4
    shapes = {frozenset(4 * y + x for x, y in q) for q in block_quads()}

    def cuttable(rest: frozenset[int]) -> bool:
        return not rest or any(s <= rest and cuttable(rest - s) for s in shapes if min(rest) in s)

    block = frozenset(range(16))
    for a in shapes:
        assert cuttable(block - a)
        for b in shapes:
            if not a & b:
                assert cuttable(block - a - b)


@pytest.mark.slow
def test_a_board_and_its_transpose_are_walked_alike() -> None:
    """Turning the board swaps ranks and files, so the pass walks 4x16 and 16x4 to the same
    number of nodes (every part walked whole): a cut that mixed up a rank's needs with a file's
    would cut the two differently. Neither has a semi-magic quad tour."""
    counts = []
    for w, h in ((4, 16), (16, 4)):
        walker, rng = quad_walker(w, h), quad_range(w, h)
        assert rng is not None
        results = [walker.run(rng, part) for part in range(walker.nparts)]
        assert all(r.done for r in results) and sum(len(r.tours) for r in results) == 0
        counts.append(sum(r.nodes for r in results))
    assert counts[0] == counts[1] > 100_000
