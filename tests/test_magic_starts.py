"""The start passes of the semi-magic search (Denef's decomposition): their line tables, their
cuts (no tour is lost), the split of the census between them, resuming, Dask and the command."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import symmetries
from knightstour.cli import main
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic.search import Range, Report, search
from knightstour.magic.starts import (
    FIRST_START,
    SCHEME,
    StartWalker,
    line_tables,
    start_range,
    start_walker,
)
from knightstour.numbering import BEVERLEY, grid_order


def _independent_check(w: int, h: int, order: list[int], rows: list[int], cols: list[int]) -> None:
    """Plain Python: a knight's tour whose ranks and files add up to ``rows`` and ``cols``."""
    assert sorted(order) == list(range(w * h))
    for a, b in itertools.pairwise(order):
        assert {abs(a % w - b % w), abs(a // w - b // w)} == {1, 2}
    num = [0] * (w * h)
    for k, q in enumerate(order, start=1):
        num[q] = k
    assert [sum(num[y * w : (y + 1) * w]) for y in range(h)] == rows
    assert [sum(num[x::w]) for x in range(w)] == cols


@pytest.mark.parametrize("n", [24, 48, 64])
def test_the_line_tables_agree_with_every_choice_of_numbers(n: int) -> None:
    """``thr`` and ``most`` against all sets of up to 4 numbers (3 on 64 squares), none
    consecutive."""
    thr, most = line_tables(n, 4)
    for a, b in itertools.product(range(4), repeat=2):
        if a + b == 0 or a + b > (3 if n == 64 else 4):
            continue
        sums: dict[int, list[int]] = {}  # every reachable sum: the least numbers that make it
        for nums in itertools.combinations(range(1, n + 1), a + b):
            if sum(v % 2 for v in nums) != a or any(
                y - x == 1 for x, y in itertools.pairwise(nums)
            ):
                continue
            sums.setdefault(sum(nums), []).append(nums[0])
        assert int(most[a, b]) == max(sums)
        for need in range(0, max(sums) + 2):
            # the largest lo from which such numbers add up to as little as need
            firsts = [f for s, fs in sums.items() if s <= need for f in fs]
            assert int(thr[a, b, need]) == (max(firsts) if firsts else -1), (a, b, need)


def _random_tours(w: int, h: int, k: int, closed: bool) -> list[list[int]]:
    tours, seed = [], 0
    while len(tours) < k:  # random Warnsdorff walks, the ones that finish
        with contextlib.suppress(kt.SearchFailedError):
            t = kt.solve(f"{w}x{h}", method="warnsdorff", tiebreak="random", seed=seed,
                         closed=closed)  # fmt: skip
            tours.append([int(q) for q in t.indices])
        seed += 1
    return tours


@pytest.mark.parametrize(
    ("w", "h", "closed"),
    [(8, 8, False), (8, 8, True), (6, 8, False), (6, 8, True), (6, 6, True), (4, 6, False)],
)
def test_no_cut_loses_a_tour_with_the_sums_it_looks_for(w: int, h: int, closed: bool) -> None:
    """The constants set to a random tour's own sums, its start the only start: the walk below
    its first squares finds it, and every tour it finds has those sums. (Such sums are not the
    board's symmetries' to keep: the walker is given the identity alone, so no end is banned and
    no second square left out.)"""
    walker = StartWalker(w, h)
    walker.perms = walker.perms[:1]
    for order in _random_tours(w, h, 3, closed):
        num = [0] * (w * h)
        for k, q in enumerate(order, start=1):
            num[q] = k
        rows = [sum(num[y * w : (y + 1) * w]) for y in range(h)]
        cols = [sum(num[x::w]) for x in range(w)]
        walker.const = np.array(rows + cols, np.int64)
        walker.starts = [order[0]]
        walker._parts.clear()
        for depth in (w * h * 5 // 8, w * h * 7 // 16):
            rng = dataclasses.replace(start_range(w, h, 0, closed), first=order[0],
                                      prefix=tuple(order[1:depth]))  # fmt: skip
            found = []
            for part in range(walker.nparts(rng)):
                result = walker.run(rng, part)
                assert result.done
                found += result.tours.tolist()
            assert order in found
            for t in found:
                _independent_check(w, h, t, rows, cols)
                ends = {abs(t[0] % w - t[-1] % w), abs(t[0] // w - t[-1] // w)}
                assert not closed or ends == {1, 2}


def test_the_interpreted_walk_keeps_square_63_in_64_bits() -> None:
    """Bit 63 (h8) as the compiled walk has it: a path through h8, placed by the interpreted
    kernels (whose plain 1 << 63 would be 2**63), gives the compiled walk's bit boards, and
    walks on below it to the same nodes."""
    path = np.array([17, 34, 51, 61, 46, 63])  # b3 c5 d7 f8 g6 h8 after a1
    plain, compiled = StartWalker(8, 8, compiled=False), StartWalker(8, 8)
    a, b = plain.state(0, False, path), compiled.state(0, False, path)
    assert a is not None and b is not None
    assert all(np.array_equal(x, y) for x, y in zip(a[1], b[1], strict=True))
    assert int(a[1][0][len(path), 0]) >> 63 & 1 == 0  # h8 no longer empty
    out = np.zeros((4, 64), np.int64)
    for walker, (board, state) in ((plain, a), (compiled, b)):
        walker.k.walk(board, state, 3000, np.zeros(1, np.uint8), -1, out)
    assert np.array_equal(a[1][6], b[1][6]) and a[1][-1][2] == b[1][-1][2] == 3000


def test_every_tour_has_a_home_in_exactly_the_pass_that_walks_it() -> None:
    """Beverley's tour and random tours: among their 16 images, the start passes walk the
    home's (the least start, its end not an earlier start's image, its second square the least
    of its images under the start's symmetries) and no image of an earlier pass."""
    w = start_walker(8, 8)
    perms, _ = symmetries(8, 8)
    for order in [grid_order(BEVERLEY), *_random_tours(8, 8, 6, False)]:
        home = w.home(order)
        assert home is not None
        i, image = home
        assert image[0] == w.starts[i]
        images = [[int(g[q]) for q in p] for p in (order, order[::-1]) for g in perms]
        assert image in images
        for img in images:  # no image starts on an earlier start and ends where that pass may
            j = w.starts.index(img[0]) if img[0] in w.starts else None
            if j is not None and j < i:
                board = w.board(j, False)
                assert not board[4][img[-1]] or img[1] != min(
                    int(g[img[1]]) for g in perms if int(g[img[0]]) == img[0]
                )


def test_the_start_pass_finds_beverleys_tour_below_its_first_numbers() -> None:
    w = start_walker(8, 8)
    i, image = w.home(grid_order(BEVERLEY))
    rng = dataclasses.replace(start_range(8, 8, i), prefix=tuple(image[1:24]))
    found = []
    for part in range(w.nparts(rng)):
        found += w.run(rng, part).tours.tolist()
    assert image in found
    for t in found:
        _independent_check(8, 8, t, [260] * 8, [260] * 8)


#: The first class of the irregular family the program found (some run of four leaves its 4x4
#: block): part 1987 of the start pass of c3 (range -9), in the census run of docs/magic.md.
#: As a board is written: the top rank first.
C3_IRREGULAR = [
    [6, 31, 50, 55, 10, 15, 58, 35], [49, 54, 7, 32, 57, 34, 11, 16],
    [30, 5, 56, 51, 14, 9, 36, 59], [53, 48, 25, 8, 33, 64, 17, 12],
    [4, 29, 52, 41, 24, 13, 60, 37], [47, 44, 1, 26, 63, 40, 21, 18],
    [28, 3, 42, 45, 20, 23, 38, 61], [43, 46, 27, 2, 39, 62, 19, 22],
]  # fmt: skip


def _class_of(grid: list[list[int]]) -> Any:
    """The class (:func:`describe`) of a numbering written top rank first."""
    from knightstour.magic.classes import describe

    return describe(kt.Tour(kt.Board(8, 8), np.array(grid_order(grid)), method="magic"))


def _irregular(
    grid: list[list[int]], number: int = -9, closed: bool = False
) -> tuple[list[int], Any]:
    """Checks common to the irregular classes the start passes found: semi-magic by plain code,
    irregular, closed or open as said, not magic, its home start pass ``number`` (c3: -9),
    found by that pass's walk below its first 20 squares; its order and its class
    (:func:`describe`)."""
    from knightstour.magic.classes import describe

    order = grid_order(grid)
    _independent_check(8, 8, order, [260] * 8, [260] * 8)
    tour = kt.Tour(kt.Board(8, 8), np.array(order), method="magic")
    assert tour.magic().semi_magic and not tour.magic().magic
    d = describe(tour)
    assert (d.family, d.start_pass, d.closed) == ("irregular", number, closed)
    w = start_walker(8, 8)
    home = w.home(order)
    assert home is not None and home[0] == FIRST_START - number
    rng = dataclasses.replace(start_range(8, 8, home[0]), prefix=tuple(home[1][1:20]))
    found = [t for part in range(w.nparts(rng)) for t in w.run(rng, part).tours.tolist()]
    assert home[1] in found
    return order, d


def test_the_irregular_class_of_c3_is_found_by_its_start_pass() -> None:
    """The class is semi-magic (checked by plain code), irregular (a run leaves its block, so
    neither structured pass holds it), not magic, its home the pass of c3; and that pass's walk
    below its first 20 squares finds it."""
    order, _ = _irregular(C3_IRREGULAR)
    blocks = [(q % 8 // 4, q // 8 // 4) for q in order]
    assert sum(len(set(blocks[j : j + 4])) > 1 for j in range(0, 64, 4)) == 8  # of 16 runs
    c = kt.Tour(kt.Board(8, 8), np.array(order), method="magic").magic()
    assert c.diagonals == (176, 248)
    assert (order[0], order[-1]) == (18, 37)  # c3, f5


#: The second irregular class: part 7071 of the same pass. Top rank first.
C3_IRREGULAR_2 = [
    [16, 11, 62, 43, 18, 33, 46, 31], [61, 42, 17, 12, 45, 30, 19, 34],
    [10, 15, 44, 63, 36, 13, 32, 47], [41, 60, 9, 14, 29, 52, 35, 20],
    [8, 27, 64, 37, 2, 21, 48, 53], [59, 40, 1, 28, 51, 56, 3, 22],
    [26, 7, 38, 57, 24, 5, 54, 49], [39, 58, 25, 6, 55, 50, 23, 4],
]  # fmt: skip


def test_the_second_irregular_class_of_c3_too() -> None:
    """Semi-magic by plain code, irregular, open, 1 on c3 and 64 on c4, its home the pass of c3,
    a class of its own; that pass's walk below its first 20 squares finds it."""
    order, d = _irregular(C3_IRREGULAR_2)
    tour = kt.Tour(kt.Board(8, 8), np.array(order), method="magic")
    assert tour.magic().diagonals == (176, 232) and (order[0], order[-1]) == (18, 26)
    assert d.numbering != _class_of(C3_IRREGULAR).numbering  # not the first class again


#: The first closed irregular class: part 34 of the start pass of d3 (range -10). Top rank first.
D3_IRREGULAR_CLOSED = [
    [47, 44, 51, 10, 23, 18, 13, 54], [50, 9, 48, 45, 12, 53, 24, 19],
    [43, 46, 11, 52, 17, 22, 55, 14], [8, 49, 42, 37, 64, 15, 20, 25],
    [41, 4, 63, 16, 21, 26, 33, 56], [62, 7, 38, 1, 36, 59, 30, 27],
    [3, 40, 5, 60, 29, 32, 57, 34], [6, 61, 2, 39, 58, 35, 28, 31],
]  # fmt: skip


def test_the_closed_irregular_class_of_d3() -> None:
    """Semi-magic by plain code, irregular, closed (64 on e5, a move from 1 on d3), its home
    the pass of d3 (no image of it starts on an earlier start); that pass's walk below its
    first 20 squares finds it."""
    order, d = _irregular(D3_IRREGULAR_CLOSED, -10, True)
    assert (order[0], order[-1]) == (19, 36)  # d3, e5
    others = {_class_of(g).numbering for g in (C3_IRREGULAR, C3_IRREGULAR_2)}
    assert d.numbering not in others


@pytest.mark.sweep  # one part of the census run, walked whole: minutes
@pytest.mark.parametrize(("grid", "index", "part"), [(C3_IRREGULAR, 7, 1987),
                                                     (D3_IRREGULAR_CLOSED, 8, 34)])  # fmt: skip
def test_the_parts_that_found_irregular_classes_find_them_again(
    grid: list[list[int]], index: int, part: int
) -> None:
    """The part of the census run that found a class finds it again (the parts of the scheme
    starts/1 are numbered as they were), every tour checked by plain code."""
    w = start_walker(8, 8)
    rng = start_range(8, 8, index)
    home = w.home(grid_order(grid))
    assert home is not None and home[0] == index
    image = home[1]
    result = w.run(rng, part)
    assert result.done and image in result.tours.tolist()
    for t in result.tours.tolist():
        _independent_check(8, 8, t, [260] * 8, [260] * 8)


def _beverley_pass() -> tuple[StartWalker, Range]:
    w = start_walker(8, 8)
    i, image = w.home(grid_order(BEVERLEY))
    return w, dataclasses.replace(start_range(8, 8, i), prefix=tuple(image[1:18]))


def test_a_part_stopped_again_and_again_goes_on_from_its_walk() -> None:
    """One part walked with a small budget, its walk kept in the library and read back each
    time: the tours and nodes of one go."""
    w, rng = _beverley_pass()
    part = max(range(w.nparts(rng)), key=lambda p: w.run(rng, p).nodes)
    whole = w.run(rng, part)
    assert whole.done and whole.nodes > 200_000
    lib = Library(":memory:")
    journal = MagicJournal(lib, 8, 8)
    state, found, calls = None, [], 0
    while True:
        calls += 1
        res = w.run(rng, part, budget=50_000, state=state)
        assert res.scheme == SCHEME
        found += res.tours.tolist()
        if res.done:
            break
        journal.keep(res)
        state = journal.saved(rng)[part]
    assert calls > 2
    assert sorted(found) == sorted(whole.tours.tolist())
    assert res.total_nodes == whole.nodes and res.total_found == len(whole.tours)


@contextlib.contextmanager
def _narrowed(rng: Range) -> Iterator[None]:
    """The start pass of ``rng``'s number narrowed to ``rng`` (below its prefix) meanwhile."""
    walker = start_walker(8, 8)
    saved = walker.ranges
    walker.ranges = [rng if r.number == rng.number else r for r in saved]
    try:
        yield
    finally:
        walker.ranges = saved


def _run_passes(lib: Library, rng: Range, **kw: Any) -> Report:
    """The search over the start pass ``rng`` alone (a narrow one, below a prefix)."""
    with _narrowed(rng):
        return search(8, 8, MagicJournal(lib, 8, 8), only=[rng.number], **kw)


@pytest.mark.slow
def test_a_killed_search_goes_on_where_it_stopped_and_loses_nothing() -> None:
    _, rng = _beverley_pass()
    whole = _run_passes(Library(":memory:"), rng, workers=2)
    assert whole.complete and whole.found >= 1 and whole.starts == whole.starts_done == 1

    lib = Library(":memory:")
    journal = MagicJournal(lib, 8, 8)
    calls = {"n": 0}
    real = journal.record

    def dies(result, limit=None):  # the process is killed after its third part
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return real(result, limit)

    journal.record = dies  # type: ignore[method-assign]
    with _narrowed(rng):
        with pytest.raises(KeyboardInterrupt):
            search(8, 8, journal, workers=2, only=[rng.number])
        assert len(lib.journal.parts_done("8x8", SCHEME, rng.number) or ()) == 3
    again = _run_passes(lib, rng, workers=2)
    assert again.complete
    assert again.parts_done + 3 == whole.parts_done
    progress = lib.journal.progress("8x8", SCHEME)
    assert progress["ranges_done"] == 1 and progress["found"] == whole.found


def test_a_part_stopped_again_and_again_is_timed_over_all_its_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search stopped by its time limit again and again: each part's recorded seconds are
    those of every call that walked it, not of its last (each call timed as 1 s here)."""
    w, rng = _beverley_pass()
    calls: dict[int, int] = {}
    real = w.run

    def timed(*args: Any, **kw: Any) -> Any:
        res = real(*args, **kw)
        res.seconds = 1.0 if res.nodes else 0.0
        calls[res.part] = calls.get(res.part, 0) + (res.nodes > 0)
        return res

    monkeypatch.setattr(w, "run", timed)
    lib = Library(":memory:")
    for _ in range(400):
        report = _run_passes(lib, rng, workers=1, time_limit=0.05)
        if report.complete:
            break
    assert report.complete and max(calls.values()) > 1  # some part took several calls
    (row,) = [r for r in lib.journal.walked("8x8") if r["range"] == rng.number]
    assert row["whole"] and row["seconds"] == sum(calls.values())


@pytest.mark.slow  # a Dask cluster: not in make test-fast
def test_dask_finds_the_tours_the_threads_find() -> None:
    distributed = pytest.importorskip("distributed")
    _, rng = _beverley_pass()
    local = _run_passes(Library(":memory:"), rng, workers=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = _run_passes(Library(":memory:"), rng, scheduler=cluster.scheduler_address)
    key = lambda r: sorted(tuple(t) for t in np.asarray(r.tours).tolist())  # noqa: E731
    assert local.complete and remote.complete and local.found >= 1
    assert key(local) == key(remote) and local.nodes == remote.nodes


def test_the_command_walks_the_start_passes_and_says_so(tmp_path, capsys) -> None:
    db = str(tmp_path / "t.db")
    # every start pass walked, whichever way they were asked for: a proof (exit 1)
    for how in (["--starts"], [], [f"--range={r}" for r in range(-2, -8, -1)]):
        assert main(["magic", "4x6", *how, "--db", db, "--quiet"]) == 1
        out = capsys.readouterr().out
        assert "no semi-magic tour on 4x6: every one of its 6 start passes was walked" in out
    # some of them only, or of closed tours only: no proof
    assert main(["magic", "4x6", "--range", "-2", "--db", db, "--quiet"]) == 0
    assert "the start passes walked whole" in capsys.readouterr().out
    assert main(["magic", "4x6", "--starts", "--closed", "--db", db, "--quiet"]) == 0
    assert "the start passes walked whole: 6 of 6" in capsys.readouterr().out
    code = main(["magic", "8x8", "--range", "-9", "--time-limit", "0.5", "--db", db, "--quiet"])
    assert code == 3
    assert "the start passes under way" in capsys.readouterr().out


def test_a_proof_needs_every_tour_walked() -> None:
    """No range named is refused, not a walk of nothing taken for a proof; a numbered range that
    holds no closed tour is refused with --closed, not walked as nothing."""
    from knightstour import magic

    with pytest.raises(kt.InvalidInputError, match="no range to walk"):
        magic.find("8x8", MagicJournal(Library(":memory:"), 8, 8), ranges=[])
    with pytest.raises(kt.InvalidInputError, match="range 1 of 8x8 holds no closed tours"):
        search(8, 8, MagicJournal(Library(":memory:"), 8, 8), closed=True, only=[1])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["8x8", "--range", "-12"], "-2 to -11 (the start passes), not -12"),
        (["12x12", "--starts"], "the start passes are for the search of boards up to 64 squares"),
    ],
)
def test_bad_start_passes_are_refused_in_one_line(tmp_path, capsys, args, words) -> None:
    assert main(["magic", *args, "--db", str(tmp_path / "t.db"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_start_passes_leave_the_other_answers_as_they_were(tmp_path, capsys) -> None:
    """A board a theorem rules out is a proved no (exit 1) with --starts too; 1x1 keeps its class
    (no start pass); a closed search naming a range of no closed tour is refused in one line, one
    of closed tours walked; every start pass walked is a proof, --starts or not."""
    from knightstour.magic.classes import describe

    db = str(tmp_path / "t.db")
    assert main(["magic", "5x5", "--starts", "--db", db, "--quiet"]) == 1
    assert capsys.readouterr().out.startswith("no semi-magic tour on 5x5")
    assert describe(kt.solve("1x1")).start_pass is None
    # range 1 of 8x8 (a1 to b1) holds no closed tour: refused, not walked as nothing
    assert main(["magic", "8x8", "--closed", "--range", "1", "--db", db, "--quiet"]) == 2
    assert "range 1 of 8x8 holds no closed tours" in capsys.readouterr().err
    assert main(["magic", "8x8", "--closed", "--range", "5", "--time-limit", "0.2", "--db", db,
                 "--quiet"]) == 3  # fmt: skip
    capsys.readouterr()
    assert main(["magic", "4x6", "--starts", "--db", db, "--quiet", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["starts"], data["starts_done"], data["ranges"]) == (6, 6, 0)
    assert data["outcome"] == "none" and (data["quads"], data["quarters"]) == (False, False)
