"""The quarter pass of the semi-magic search: tours whose runs of four stay in a 4 x 4 block."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from knightstour.board import symmetries
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic.quads import block_quads, quad_range, quad_walker
from knightstour.magic.quarters import (
    QUARTER_RANGE,
    block_paths,
    covers,
    quarter_range,
    quarter_walker,
)
from knightstour.magic.search import search
from knightstour.numbering import BEVERLEY, grid_order


def _grid(order: np.ndarray) -> np.ndarray:
    grid = np.zeros((8, 8), np.int64)
    grid[order // 8, order % 8] = np.arange(1, 65)
    return grid


def _block(s: int) -> int:
    return s % 8 // 4 + 2 * (s // 32)


def _quarter_local(order: np.ndarray) -> bool:
    return all(len({_block(int(s)) for s in order[4 * j : 4 * j + 4]}) == 1 for j in range(16))


def _is_quad_tour(order: np.ndarray) -> bool:
    return all(
        sorted(order[4 * j : 4 * j + 4] % 4) == [0, 1, 2, 3]
        and sorted(order[4 * j : 4 * j + 4] // 8 % 4) == [0, 1, 2, 3]
        for j in range(16)
    )


def _check(order: np.ndarray) -> None:
    """Plain numpy: a knight's tour of 8x8, every rank and file 260, quarter-local, not magic."""
    assert sorted(order.tolist()) == list(range(64))
    x, y = order % 8, order // 8
    steps = set(zip(np.abs(np.diff(x)).tolist(), np.abs(np.diff(y)).tolist(), strict=True))
    assert steps <= {(1, 2), (2, 1)}
    grid = _grid(order)
    assert grid.sum(axis=0).tolist() == [260] * 8 and grid.sum(axis=1).tolist() == [260] * 8
    assert np.trace(grid) != 260 or np.trace(grid[::-1]) != 260
    assert _quarter_local(order)


def _classes(orders: list[np.ndarray]) -> set[tuple[int, ...]]:
    """Each numbering's class under the 8 symmetries and the reversed numbering (the least)."""
    perms, _ = symmetries(8, 8)
    out = set()
    for o in orders:
        images = [tuple(g[np.asarray(o)].tolist()) for g in perms]
        images += [im[::-1] for im in images]
        out.add(min(images))
    return out


def _closed(order: np.ndarray) -> bool:
    a, b = int(order[0]), int(order[-1])
    return {abs(a % 8 - b % 8), abs(a // 8 - b // 8)} == {1, 2}


def test_a_block_has_208_knight_paths_of_four_and_65_ways_to_be_cut_into_them() -> None:
    """Counted here by plain recursion: the paths, their sets of squares, the quads among them
    (one square in each rank and file), and the table of sets that can be cut into paths."""
    paths = block_paths()
    assert len(paths) == len(set(paths)) == 208
    for p in paths:
        assert len(set(p)) == 4 and all(0 <= x < 4 and 0 <= y < 4 for x, y in p)
        assert all({abs(p[i][0] - p[i + 1][0]), abs(p[i][1] - p[i + 1][1])} == {1, 2}
                   for i in range(3))  # fmt: skip
    sets = {sum(1 << (4 * y + x) for x, y in p) for p in paths}
    assert len(sets) == 92
    transversal = {p for p in paths if len({x for x, _ in p}) == 4 == len({y for _, y in p})}
    assert transversal == set(block_quads())

    @cache
    def ways(m: int) -> int:
        if not m:
            return 1
        low = m & -m
        return sum(ways(m ^ s) for s in sets if s & low and s & m == s)

    assert ways(0xFFFF) == 65
    table = covers()
    rng = random.Random(32)
    for m in [0, 0xFFFF, *rng.sample(range(1 << 16), 3000)]:
        assert bool(table[m]) == (bin(m).count("1") % 4 == 0 and ways(m) > 0)


def test_the_line_bound_never_cuts_numbers_it_could_get() -> None:
    """``parity_open`` accepts a line's total whenever some choice of distinct odd and even
    numbers of lo ... n reaches the constant, and refuses it when none does (small cases)."""
    import itertools

    from knightstour.kernels.magic_quads import parity_open

    n = 12
    for lo in (1, 5, 9):
        odds = list(range(lo, n + 1, 2))
        evens = list(range(lo + 1, n + 1, 2))
        for o in range(3):
            for e in range(3):
                reach = {sum(a) + sum(b) for a in itertools.combinations(odds, o)
                         for b in itertools.combinations(evens, e)}  # fmt: skip
                if not reach:
                    continue
                for const in range(0, 50):
                    got = parity_open(0, o, e, lo, n, const)
                    assert got == (min(reach) <= const <= max(reach))


def _uncut(prefix: list[int]) -> set[tuple[int, ...]]:
    """Every quarter-local tour beginning with the runs ``prefix`` that is semi-magic: found
    with no cut at all, only the final sums checked."""
    w = quarter_walker(8, 8)
    used = {int(s) for q in prefix for s in w.quads[q]}
    out: set[tuple[int, ...]] = set()

    def grow(seq: list[int]) -> None:
        if len(seq) == 16:
            order = w.quads[seq].reshape(-1)
            grid = _grid(order)
            if (grid.sum(axis=0) == 260).all() and (grid.sum(axis=1) == 260).all():
                out.add(tuple(order.tolist()))
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


def _runs(order: np.ndarray) -> list[int]:
    w = quarter_walker(8, 8)
    units = {tuple(u): i for i, u in enumerate(w.quads.tolist())}
    return [units[tuple(int(v) for v in order[4 * j : 4 * j + 4])] for j in range(16)]


#: A closed quarter-local semi-magic tour that is not a quad tour (each run 4j + 1 ... 4j + 4
#: stays in one block, some not one square to a rank and file of it), rank 8 first.
IRREGULAR = [
    [15, 42, 19, 44, 21, 46, 23, 50], [18, 55, 16, 53, 12, 49, 10, 47],
    [41, 14, 43, 20, 45, 22, 51, 24], [56, 17, 54, 13, 52, 11, 48, 9],
    [3, 40, 57, 32, 61, 8, 25, 34], [58, 31, 4, 37, 28, 33, 62, 7],
    [39, 2, 29, 60, 5, 64, 35, 26], [30, 59, 38, 1, 36, 27, 6, 63],
]  # fmt: skip


def _first_in_block_a1(order: np.ndarray) -> np.ndarray:
    """The image of ``order`` (a symmetry, the numbering maybe reversed) whose first run lies in
    the block of a1, as the pass walks it."""
    perms, _ = symmetries(8, 8)
    for g in perms:
        for image in (g[order], g[order][::-1]):
            if _block(int(image[0])) == 0:
                return np.asarray(image)
    raise AssertionError("no image begins in the block of a1")


@pytest.mark.parametrize("name", [pytest.param("beverley", marks=pytest.mark.slow), "irregular"])
def test_no_cut_loses_a_tour_below_the_first_runs_of_a_tour(name: str) -> None:
    """Beverley's tour of 1848 (a quad tour) and a quarter-local tour that is not one: below
    their first 8 runs, the compiled walk with every cut finds exactly what a walk without cuts
    finds, the tour among them."""
    order = np.array(grid_order(BEVERLEY if name == "beverley" else IRREGULAR))
    _check(order)
    assert _is_quad_tour(order) == (name == "beverley") != _closed(order)  # Beverley's is open
    order = _first_in_block_a1(order)
    w = quarter_walker(8, 8)
    prefix = _runs(order)[:8]
    found = {tuple(o) for o in w.below(prefix).tolist()}
    assert tuple(order.tolist()) in found
    assert found == _uncut(prefix)
    for o in found:
        _check(np.asarray(o))


def test_the_pass_walks_a_board_and_its_transpose_alike() -> None:
    """Turning the board swaps ranks and files: 4x8 and 8x4 are walked to the same nodes (a cut
    that mixed up a rank's bound with a file's would cut them differently). Neither has a
    semi-magic quarter-local tour; both walk one block's runs (the other block is its image
    under the half turn)."""
    counts = []
    for w, h in ((4, 8), (8, 4)):
        walker, rng = quarter_walker(w, h), quarter_range(w, h)
        assert rng is not None and walker.nparts == 208
        results = [walker.run(rng, part) for part in range(walker.nparts)]
        assert all(r.done for r in results) and sum(len(r.tours) for r in results) == 0
        counts.append(sum(r.nodes for r in results))
    assert counts[0] == counts[1] > 10_000
    assert quarter_range(6, 6) is None and quarter_walker(4, 12).nparts == 2 * 208


@pytest.fixture(scope="module")
def whole_pass() -> list[np.ndarray]:
    with Library(":memory:") as lib:
        report = search(8, 8, MagicJournal(lib, 8, 8), only=[QUARTER_RANGE])
        assert report.complete and report.parts_done == 208
    return [np.asarray(t) for t in report.tours]


@pytest.fixture(scope="module")
def quad_pass() -> list[np.ndarray]:
    w, rng = quad_walker(8, 8), quad_range(8, 8)
    assert rng is not None
    return [np.asarray(t) for part in range(w.nparts) for t in w.run(rng, part).tours]


@pytest.mark.sweep  # the whole pass: --all (make test-all)
def test_the_quarter_pass_finds_the_quad_classes_and_more(whole_pass, quad_pass) -> None:
    for order in whole_pass:
        _check(order)
        assert _block(int(order[0])) == 0
    classes, quads = _classes(whole_pass), _classes(quad_pass)
    assert quads < classes
    closed = _classes([o for o in whole_pass if _closed(o)])
    beyond = classes - quads
    assert (len(classes), len(closed), len(quads)) == (109, 46, 105)
    assert len(beyond) == 4 and not any(_is_quad_tour(np.array(c)) for c in beyond)
    assert _classes([np.array(grid_order(IRREGULAR))]) <= beyond
    # the families of magic --classes: the quad pass's classes are the quads, the others quarters
    from knightstour.board import Board
    from knightstour.magic.classes import family

    fams = {c: family(Board(8, 8), np.array(c)) for c in classes}
    assert {c for c, f in fams.items() if f == "quads"} == quads
    assert {c for c, f in fams.items() if f == "quarters"} == beyond
    closed_by_family = {f: sum(fams[c] == f for c in closed) for f in ("quads", "quarters")}
    assert closed_by_family == {"quads": 44, "quarters": 2}  # as docs/magic.md tabulates
    # the start passes that walk them (their homes), as docs/magic.md counts them
    from knightstour.magic.classes import start_pass_of

    homes = [start_pass_of(Board(8, 8), c) for c in classes]
    assert [homes.count(-2 - i) for i in range(10)] == [5, 5, 20, 42, 4, 17, 7, 7, 2, 0]


@pytest.mark.sweep  # the whole pass: --all (make test-all)
def test_no_cut_loses_a_tour_below_7_runs_of_those_beyond_the_quads(whole_pass, quad_pass) -> None:
    """Below the first 7 runs of a tour of each class the quad pass misses, a walk without cuts
    finds exactly what the pass found there."""
    quads = _classes(quad_pass)
    found = {tuple(o.tolist()) for o in whole_pass}
    for order in whole_pass:
        if _classes([order]) <= quads:
            continue
        prefix = _runs(order)[:7]
        below = {o for o in found if list(o[:28]) == order[:28].tolist()}
        assert _uncut(prefix) == below


def test_no_cut_loses_a_tour_below_random_prefixes() -> None:
    """Prefixes of 8 runs drawn at random (a fixed seed), each run a move on from the one before
    and disjoint from the others: the compiled walk below each finds exactly what a walk without
    cuts finds."""
    w = quarter_walker(8, 8)
    rng = random.Random(32)
    drawn = 0
    while drawn < 4:
        seq = [int(rng.choice(w.firsts.tolist()))]
        used = set(w.quads[seq[0]].tolist())
        while len(seq) < 8:
            last = w.quads[seq[-1], 3]
            options = [q for q in w.succ[last, : w.nsucc[last]].tolist()
                       if not used & set(w.quads[q].tolist())]  # fmt: skip
            if not options:
                break
            seq.append(rng.choice(options))
            used |= set(w.quads[seq[-1]].tolist())
        if len(seq) < 8:
            continue
        drawn += 1
        assert {tuple(o) for o in w.below(seq).tolist()} == _uncut(seq)


@pytest.mark.slow  # walks parts through the command line, stopped by its time limit
def test_a_stopped_quarter_pass_goes_on_where_it_stopped(tmp_path, capsys) -> None:
    """`--range -1` walks the quarter pass alone; stopped by the time limit and run again, it
    goes on: every part walked is recorded once, and the command says which pass it walked."""
    import json

    from knightstour.cli import main
    from knightstour.magic.quarters import SCHEME

    db = str(tmp_path / "m.db")
    walked, kept = [], []
    for _ in range(2):
        assert main(["magic", "8x8", "--range", "-1", "--db", db, "--quiet", "--format", "json",
                     "--time-limit", "4"]) == 3  # fmt: skip
        data = json.loads(capsys.readouterr().out)
        walked.append(data["parts_done"])
        assert data["nodes"] > 0
        with Library(db) as lib:
            done = lib.journal.parts_done("8x8", SCHEME, QUARTER_RANGE)
            states = lib.journal.states("8x8", SCHEME, QUARTER_RANGE)
            assert done is not None and len(done) == sum(walked)
            assert states and not set(states) & done  # the parts stopped keep their walks
            kept.append(set(states))
    assert walked[0] > 0 and sum(walked) < 208
    assert kept[0] <= kept[1] | done  # each stopped walk went on (or ended) in the second run
    assert main(["magic", "8x8", "--range", "-1", "--db", db, "--time-limit", "0.2"]) in (0, 3)
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("the quarter pass (range -1) alone, under way;")
    assert main(["magic", "8x8", "--range", "-12", "--db", db]) == 2  # -2 to -11: start passes
    assert "-2 to -11 (the start passes), not -12" in capsys.readouterr().err
    assert main(["magic", "8x8", "--range", "-66", "--db", db]) == 2
    assert "must be >= -65" in capsys.readouterr().err
