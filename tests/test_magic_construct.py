"""Constructions of semi-magic tours: each result checked here from scratch, refusals and theorems."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import knightstour as kt
from knightstour.errors import InvalidInputError
from knightstour.magic.construct import MAX_SIDE, construct, constructible
from knightstour.numbering import analyse
from tiers import sample

COVERED = [(8, 8), (12, 12), (12, 8), (8, 12)]


def sums_of(width: int, height: int, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank sums and file sums of the numbering, with plain numpy."""
    numbers = np.empty(width * height, dtype=np.int64)
    numbers[np.asarray(order, dtype=np.int64)] = np.arange(1, width * height + 1)
    grid = numbers.reshape(height, width)
    return grid.sum(axis=1), grid.sum(axis=0)


def assert_semi_magic_tour(width: int, height: int, order: np.ndarray) -> None:
    """Every square once, every step a knight's move, every rank and file on its constant."""
    order = np.asarray(order)
    n = width * height
    assert order.dtype == np.int32 and order.shape == (n,)
    assert np.array_equal(np.sort(order), np.arange(n))
    x, y = order % width, order // width
    dx, dy = np.abs(np.diff(x)), np.abs(np.diff(y))
    assert np.all(((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1)))
    ranks, files = sums_of(width, height, order)
    assert np.all(ranks == width * (n + 1) // 2)
    assert np.all(files == height * (n + 1) // 2)


_CACHE: dict[tuple[int, int, int | None], np.ndarray] = {}


def built(width: int, height: int, seed: int | None = None) -> np.ndarray:
    key = (width, height, seed)
    if key not in _CACHE:
        _CACHE[key] = construct(width, height, seed=seed)
    return _CACHE[key]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "height"), sample(COVERED, 3, seed=8, keep=COVERED[:2])
)  # both rectangles with --all (one is the other's search turned round; seeds below take 12x8)
def test_constructed_tours_are_semi_magic(width: int, height: int) -> None:
    assert constructible(width, height) is None
    order = built(width, height)
    assert_semi_magic_tour(width, height, order)
    kt.Tour(kt.Board(width, height), order)  # the package's own validation agrees
    assert analyse(width, height, order.tolist()).verdict in ("semi-magic", "magic")


@pytest.mark.slow
def test_the_default_is_fixed_and_seeds_vary() -> None:
    assert np.array_equal(construct(12, 12), built(12, 12))
    tours = [built(12, 12, seed) for seed in (1, 2)] + [built(12, 12)]
    for a, b in itertools.combinations(tours, 2):
        assert not np.array_equal(a, b)
    for order in tours:
        assert_semi_magic_tour(12, 12, order)
    assert np.array_equal(construct(12, 12, seed=2), built(12, 12, 2))


@pytest.mark.slow
def test_rectangles_both_ways_and_seeds() -> None:
    a, b = built(12, 8, 5), built(12, 8, 6)
    assert not np.array_equal(a, b)
    for order in (a, b):
        assert_semi_magic_tour(12, 8, order)


# -- refusals and the theorems behind them ---------------------------------------------------------


def test_odd_sides_are_refused_by_colour_parity() -> None:
    for width, height in [(5, 5), (7, 7), (9, 9), (3, 4), (5, 8), (6, 7)]:
        reason = constructible(width, height)
        assert reason is not None and reason.startswith(f"no semi-magic tour on {width}x{height}")
        assert "colour" in reason or "whole number" in reason
        with pytest.raises(InvalidInputError, match=f"{width}x{height}"):
            construct(width, height)


@pytest.mark.parametrize(("width", "height"), [(5, 5), (7, 7), (5, 6), (9, 10), (6, 5)])
def test_theorem_one_neighbouring_lines_of_odd_length_differ_in_parity(
    width: int, height: int
) -> None:
    """On any tour, two neighbouring ranks (files) of odd length have sums of different parity."""
    order = kt.solve(f"{width}x{height}", start="a1", method="warnsdorff").indices
    ranks, files = sums_of(width, height, order)
    if width % 2:
        assert np.all(ranks[:-1] % 2 != ranks[1:] % 2)
    if height % 2:
        assert np.all(files[:-1] % 2 != files[1:] % 2)


def test_theorem_one_exhaustively_on_3x4() -> None:
    """Every open tour of 3x4 (3 files of 4, 4 ranks of 3): none is semi-magic."""
    board = kt.Board(3, 4)
    moves = [
        [t for t in range(12) if sorted((abs(t % 3 - s % 3), abs(t // 3 - s // 3))) == [1, 2]]
        for s in range(12)
    ]
    tours = []

    def walk(path: list[int], seen: set[int]) -> None:
        if len(path) == 12:
            tours.append(list(path))
            return
        for t in moves[path[-1]]:
            if t not in seen:
                seen.add(t)
                path.append(t)
                walk(path, seen)
                path.pop()
                seen.discard(t)

    for s in range(12):
        walk([s], {s})
    assert tours and board.width == 3
    assert all(analyse(3, 4, t).verdict == "neither" for t in tours)
    assert constructible(3, 4).startswith("no semi-magic tour on 3x4")


def test_theorem_two_constants_must_be_whole() -> None:
    """A rank or file constant that is not a whole number (3x4: 78 / 4 ranks = 19.5) needs a side
    of odd length, so the odd-side theorem rules every such board out."""
    for width, height in itertools.product(range(1, 13), repeat=2):
        n = width * height
        whole = (n * (n + 1) // 2) % width == 0 and (n * (n + 1) // 2) % height == 0
        reason = constructible(width, height)
        if not whole:
            assert width % 2 or height % 2
            assert reason is not None and reason.startswith("no semi-magic tour")
        if width % 2 == 0 and height % 2 == 0:
            assert whole  # both sides even: both constants are whole numbers
    assert constructible(3, 4) == (
        "no semi-magic tour on 3x4: its ranks have an odd number of squares, so neighbouring "
        "ranks hold different numbers of odd numbers (the knight changes colour every move) and "
        "their sums differ in parity"
    )


def test_theorem_three_boards_without_tours() -> None:
    for width, height in [(2, 8), (8, 2), (1, 5), (4, 4), (3, 3), (3, 6)]:
        reason = constructible(width, height)
        assert reason is not None and reason.startswith(f"no semi-magic tour on {width}x{height}")
        assert "has no knight's tour at all" in reason
    assert constructible(1, 1) is None
    assert construct(1, 1).tolist() == [0]


def test_eight_by_eight_magic_is_refused_by_the_census() -> None:
    reason = constructible(8, 8, diagonal=True)
    assert reason is not None
    assert "2003" in reason and "Stertenbrink" in reason and "140" in reason
    with pytest.raises(InvalidInputError, match="census"):
        construct(8, 8, diagonal=True)


def test_sizes_without_a_construction_say_so_honestly() -> None:
    for width, height in [(4, 8), (8, 4), (4, 20), (20, 4), (8, 10)]:
        reason = constructible(width, height)
        assert reason is not None and reason.startswith(f"no construction for {width}x{height}")
        assert "no semi-magic tour" not in reason
    assert "multiples of 4" in constructible(8, 10)
    for width, height in [(6, 6), (10, 10), (10, 14)]:  # a theorem rules these out
        assert constructible(width, height).startswith(f"no semi-magic tour on {width}x{height}")
    assert "1 x 5" in constructible(4, 20)
    reason = constructible(12, 16, diagonal=True)
    assert reason is not None and "square board" in reason


# -- the folded construction -------------------------------------------------------------------

FOLDED = [(16, 16), (12, 16), (16, 12), (8, 16), (16, 8), (20, 16), (24, 12), (8, 20)]


def closed_ends(width: int, order: np.ndarray) -> bool:
    (x0, y0), (x1, y1) = divmod(int(order[0]), width)[::-1], divmod(int(order[-1]), width)[::-1]
    return sorted((abs(x0 - x1), abs(y0 - y1))) == [1, 2]


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), sample(FOLDED, 3, seed=16, keep=FOLDED[:1]))
def test_folded_tours_are_closed_and_semi_magic(width: int, height: int) -> None:
    assert constructible(width, height) is None
    order = built(width, height)
    assert_semi_magic_tour(width, height, order)
    assert closed_ends(width, order)  # the joint unit's first two squares are a move apart
    kt.Tour(kt.Board(width, height), order, closed=True)  # the package's validation agrees


@pytest.mark.sweep  # --all (make test-all): the folded family's smaller boards run above
def test_a_hundred_by_ninety_six_board_is_built() -> None:
    order = built(100, 96)
    assert_semi_magic_tour(100, 96, order)
    assert closed_ends(100, order)


@pytest.mark.slow
def test_folded_seeds_give_different_tours() -> None:
    tours = [built(16, 16, seed) for seed in (1, 2, 3)]
    for a, b in itertools.combinations(tours, 2):
        assert not np.array_equal(a, b)
    assert np.array_equal(construct(16, 16, seed=2), tours[1])


def test_foldable_takes_an_even_number_of_block_rows_or_columns() -> None:
    from knightstour.magic.fold import foldable

    for bw, bh in itertools.product(range(1, 9), repeat=2):
        either = foldable(bw, bh) or foldable(bh, bw)
        assert either == (
            (bw % 2 == 0 or bh % 2 == 0)
            and max(bw, bh) >= 3
            and min(bw, bh) >= 2
            and not (min(bw, bh) == 2 and max(bw, bh) == 3)
        )
        crossed = any(b % 2 and b >= 3 and a >= 5 for a, b in ((bw, bh), (bh, bw)))
        if (4 * bw, 4 * bh) not in ((8, 8), (8, 12), (12, 8), (12, 12)):
            assert (constructible(4 * bw, 4 * bh) is None) == (either or crossed)
            assert (constructible(4 * bw, 4 * bh) is None) == (min(bw, bh) >= 2)


# -- the crossed construction: an odd number of block rows --------------------------------------

CROSSED = [(20, 20), (28, 28), (28, 20), (20, 28), (24, 28), (36, 36), (28, 36), (44, 20)]


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), sample(CROSSED, 3, seed=20, keep=CROSSED[:1]))
def test_crossed_tours_are_closed_and_semi_magic(width: int, height: int) -> None:
    assert constructible(width, height) is None
    order = built(width, height)
    assert_semi_magic_tour(width, height, order)
    assert closed_ends(width, order)
    kt.Tour(kt.Board(width, height), order, closed=True)


@pytest.mark.sweep  # --all (make test-all): the crossed family's smaller boards run above
def test_a_hundred_by_a_hundred_board_is_built() -> None:
    order = built(100, 100)
    assert_semi_magic_tour(100, 100, order)
    assert closed_ends(100, order)
    other = built(100, 100, seed=5)
    assert_semi_magic_tour(100, 100, other)
    assert not np.array_equal(order, other)


def test_the_stored_turns_hold_what_they_claim() -> None:
    """Each stored turn: P and Q a knight's move on at every step, every block of its 2 x 3 on
    its four cycles once, each column's files balanced, the upper row mirroring the lower row,
    an antisymmetric middle row, and it ends a move from the reflection of where it starts."""
    from knightstour.magic._blocks import knight, traversals
    from knightstour.magic.cross import TURNS

    travs = traversals()
    assert len(TURNS) >= 3
    for ends, need_r, need_d, steps in TURNS:
        pe, qe = ends
        cycles: dict[tuple[int, int], list[int]] = {}
        rows = {dy: [0] * 4 for dy in (-1, 0, 1)}
        cols = {dc: [0] * 4 for dc in (0, 1)}
        for dc, dy, p, q in steps:
            sp = [(x + 4 * dc, y + 4 * dy) for x, y in travs[p][1]]
            sq = [(x + 4 * dc, y + 4 * dy) for x, y in travs[q][1]]
            assert knight(pe, sp[0]) and knight(qe, sq[0])
            assert all(knight(a, b) for a, b in itertools.pairwise(sp))
            assert all(knight(a, b) for a, b in itertools.pairwise(sq))
            cycles.setdefault((dc, dy), []).extend((travs[p][0], travs[q][0]))
            for k, ((x, y), (u, v)) in enumerate(zip(sp, sq, strict=True)):
                rows[dy][y - 4 * dy] += k + 1  # P's offsets run 1 ... 4, Q's 4 ... 1
                rows[dy][v - 4 * dy] += 4 - k
                cols[dc][x - 4 * dc] += k + 1
                cols[dc][u - 4 * dc] += 4 - k
            pe, qe = sp[-1], sq[-1]
        assert all(sorted(c) == [0, 1, 2, 3] for c in cycles.values()) and len(cycles) == 6
        assert knight(pe, (ends[0][0], 3 - ends[0][1])) and knight(qe, (ends[1][0], 3 - ends[1][1]))
        assert all(v == 30 for c in cols.values() for v in c)
        low, mid, high = ([v - 20 for v in rows[dy]] for dy in (-1, 0, 1))
        assert high == [-low[3], -low[2], -low[1], -low[0]]
        assert mid == [mid[0], mid[1], -mid[1], -mid[0]]
        assert list(need_r) == [-v for v in low] and list(need_d) == [-mid[0], -mid[1]]


def numbers_of(width: int, height: int, order: np.ndarray) -> np.ndarray:
    """The board of move numbers (row y holds rank y + 1), with plain numpy."""
    numbers = np.empty(width * height, dtype=np.int64)
    numbers[np.asarray(order, dtype=np.int64)] = np.arange(1, width * height + 1)
    return numbers.reshape(height, width)


def assert_magic_tour(n: int, order: np.ndarray) -> None:
    """A semi-magic tour whose two long diagonals add up to n(n^2 + 1)/2 as well."""
    assert_semi_magic_tour(n, n, order)
    grid = numbers_of(n, n, order)
    constant = n * (n * n + 1) // 2
    assert int(np.trace(grid)) == int(np.trace(np.fliplr(grid))) == constant


def test_magic_tours_are_refused_with_the_reason() -> None:
    """No construction builds a magic tour (the searches for one are in research/): refused,
    saying so, on every square board a theorem does not rule out; 1x1 is magic."""
    for n in (12, 16, 20):
        reason = constructible(n, n, diagonal=True)
        assert reason == (
            f"no construction for a magic tour on {n}x{n} yet: no diagonally magic block pattern "
            f"is known (docs/magic.md says how the search for one stands)"
        )
        with pytest.raises(InvalidInputError, match="no construction for a magic tour"):
            construct(n, n, diagonal=True)
    assert constructible(12, 16, diagonal=True).endswith(
        "needs a square board (two long diagonals)"
    )
    assert construct(1, 1, diagonal=True).tolist() == [0]


@pytest.mark.slow
def test_whole_cycles_never_make_a_twelve_by_twelve_diagonal() -> None:
    """Why magic tours need the open paths: with every cycle run in one go a diagonal's sum is a
    multiple of 4, and 870 is not. The diagonal's squares share a colour, so their numbers share
    a parity; each cycle it meets holds two of them, two apart (a and a + 2); six such pairs add
    up to 2(a1 + ... + a6) + 12, and six numbers of one parity add up to an even number."""
    for seed in range(6):
        grid = numbers_of(12, 12, built(12, 12, seed))
        assert int(np.trace(grid)) % 4 == 0 and int(np.trace(np.fliplr(grid))) % 4 == 0


def test_cli_magic_diagonal(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from knightstour.cli import main

    db = tmp_path / "magic.db"
    for n in (12, 16):
        code = main(["magic", f"{n}x{n}", "--diagonal", "--count", "1", "--db", str(db)])
        out, err = capsys.readouterr()
        assert code == 2 and out == ""
        assert err.strip() == f"knightstour: {constructible(n, n, diagonal=True)}"
    assert not db.exists()  # refused before the library is opened


def test_large_sides_are_refused_before_any_work() -> None:
    reason = constructible(MAX_SIDE + 4, 8)
    assert reason is not None and str(MAX_SIDE) in reason
    assert constructible(10**9, 10**9) is not None


@pytest.mark.parametrize("bad", [0, -4, 2.5, "12", True, None])
def test_bad_sizes_are_bad_input(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        constructible(bad, 12)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        construct(12, bad)  # type: ignore[arg-type]


# -- which constructions close their tours (issue 30, item 16) ---------------------------------


@pytest.mark.slow  # walks the stored patterns whole: seconds
@pytest.mark.parametrize(
    ("width", "height", "tours", "classes"), [(12, 12, 12, 6), (8, 12, 16, 8), (8, 8, 8, None)]
)
def test_the_stored_patterns_walked_whole_hold_what_construction_says(
    width: int, height: int, tours: int, classes: int | None
) -> None:
    """Every tour of a stored pattern, walked without a budget: semi-magic, as many as the docs
    say, closed exactly as :func:`construction` claims (12x12: all open; 8x12, 8x8: all closed)."""
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.construct import construction, pattern_walks

    walks = pattern_walks(width, height)
    assert len(walks) == tours
    name, all_closed = construction(width, height)
    assert name == "the stored block patterns"
    for order in walks:
        assert_semi_magic_tour(width, height, order)
        assert closed_ends(width, order) is all_closed
    if classes is not None:
        keeper = MagicJournal(Library(":memory:"), width, height)
        board = kt.Board(width, height)
        keys = {keeper.class_of(kt.Tour(board, order, closed=False)) for order in walks}
        assert len(keys) == classes


def test_construction_names_the_folded_and_crossed_ones_closed() -> None:
    from knightstour.magic.construct import construction, pattern_walks

    assert construction(16, 12) == ("the folded construction", True)
    assert construction(20, 20) == ("the crossed construction", True)
    assert construction(12, 20) == ("the crossed construction", True)
    assert construction(12, 12) == ("the stored block patterns", False)
    with pytest.raises(InvalidInputError, match="no stored block pattern"):
        pattern_walks(16, 16)
