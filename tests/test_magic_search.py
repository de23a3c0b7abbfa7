"""The semi-magic search: its ranges, its cuts (no tour is lost), resuming, and Dask."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import symmetries
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic.search import Range, Walker, ranges, refusal, search
from knightstour.magic.starts import SCHEME as START_SCHEME
from knightstour.magic.starts import start_walker
from knightstour.numbering import BEVERLEY, from_grid, grid_order
from tiers import sample


def _order(grid: object) -> np.ndarray:
    return np.array(grid_order(grid), np.int32)  # type: ignore[arg-type]


def _prefix(order: np.ndarray, depth: int) -> tuple[int, ...]:
    """The squares the two ends place first: 2, N - 1, 3, N - 2, ..."""
    n = len(order)
    return tuple(int(order[1 + d // 2] if d % 2 == 0 else order[n - 2 - d // 2])
                 for d in range(depth))  # fmt: skip


def _independent_check(w: int, h: int, order: np.ndarray, rows: np.ndarray, cols: np.ndarray):
    """Plain numpy: a knight's tour whose ranks and files add up to ``rows`` and ``cols``."""
    order = np.asarray(order)
    assert sorted(order.tolist()) == list(range(w * h))
    x, y = order % w, order // w
    steps = sorted(zip(np.abs(np.diff(x)).tolist(), np.abs(np.diff(y)).tolist(), strict=True))
    assert set(steps) <= {(1, 2), (2, 1)}
    grid = np.zeros((h, w), np.int64)
    grid[y, x] = np.arange(1, w * h + 1)
    assert grid.sum(axis=1).tolist() == list(rows)
    assert grid.sum(axis=0).tolist() == list(cols)


def test_the_ranges_of_8x8_split_every_pair_of_ends_once() -> None:
    rs = ranges(8, 8)
    assert len(rs) == 136  # the number of ranges of the 2003 census
    perms, _ = symmetries(8, 8)
    seen: dict[tuple[int, int], int] = {}
    for r in rs:
        for g in perms:
            for pair in ((int(g[r.first]), int(g[r.last])), (int(g[r.last]), int(g[r.first]))):
                assert seen.setdefault(pair, r.number) == r.number
    colour = lambda s: (s % 8 + s // 8) % 2  # noqa: E731
    assert len(seen) == 64 * 32 and all(colour(a) != colour(b) for a, b in seen)
    assert sum(r.size for r in rs) == 2048
    assert sum(r.closed for r in rs) == 21


@pytest.mark.parametrize(
    ("w", "h", "words"),
    [(5, 6, "ranks have an odd number"), (6, 5, "files have an odd number"),
     (4, 4, "no knight's tour at all"), (2, 8, "no knight's tour at all"),
     (8, 10, "up to 64 squares")],
)  # fmt: skip
def test_refusals_name_the_reason(w: int, h: int, words: str) -> None:
    assert words in (refusal(w, h) or "")
    with pytest.raises(kt.InvalidInputError, match=words):
        Walker(w, h, compiled=False)


def test_the_walk_finds_beverleys_tour_below_its_first_numbers() -> None:
    order = _order(BEVERLEY)
    walker = Walker(8, 8)
    rng = Range(1, int(order[0]), int(order[-1]), 1, False)
    result = walker.run(rng, 0, np.array(_prefix(order, 16), np.int32))
    assert result.done and result.nodes > 0
    found = {tuple(t) for t in result.tours.tolist()}
    assert tuple(order.tolist()) in found
    for t in result.tours:
        _independent_check(8, 8, t, [260] * 8, [260] * 8)
    assert from_grid(BEVERLEY).verdict == "semi-magic"


@pytest.mark.parametrize(
    ("w", "h", "seeds"), [(6, 6, range(8)), (4, 6, range(4)), (8, 8, range(4))]
)
def test_no_cut_loses_a_tour_with_the_sums_it_looks_for(w: int, h: int, seeds: range) -> None:
    """Set the constants to a random tour's own sums: the walk from its ends finds that tour."""
    walker = Walker(w, h)
    tours = []
    seed = 0
    while len(tours) < len(seeds):  # random Warnsdorff walks, the ones that finish
        with contextlib.suppress(kt.SearchFailedError):
            tours.append(kt.solve(f"{w}x{h}", method="warnsdorff", tiebreak="random", seed=seed))
        seed += 1
    for tour in tours:
        order = tour.indices.astype(np.int32)
        grid = np.zeros((h, w), np.int64)
        grid[order // w, order % w] = np.arange(1, w * h + 1)
        rows, cols = grid.sum(axis=1), grid.sum(axis=0)
        walker.const = np.concatenate([rows, cols]).astype(np.int64)
        depth = 30 if w * h == 64 else 0  # 8x8: start below the first numbers, to be quick
        rng = Range(1, int(order[0]), int(order[-1]), 1, False, _prefix(order, depth))
        result = walker.run(rng, 0, np.array(rng.prefix, np.int32))
        assert result.done
        assert tuple(order.tolist()) in {tuple(t) for t in result.tours.tolist()}
        for t in result.tours:
            _independent_check(w, h, t, rows, cols)


@pytest.mark.slow
def test_small_boards_have_no_semi_magic_tour() -> None:
    """Each walked whole, by the start passes (the default) and by the numbered ranges of the
    two-ended walk; 6x6 (over a million positions) with --all only: no semi-magic tour there
    is also Jelliss's theorem (both sides 2 more than a multiple of 4, below)."""
    sizes = [(4, 6), (6, 4), (4, 8), (6, 6)]
    for w, h in sample(sizes, 3, seed=6, keep=sizes[:3]):
        lib = Library(":memory:")
        report = search(w, h, MagicJournal(lib, w, h), workers=2)
        assert report.complete and report.found == 0 and report.nodes > 0
        starts = len(start_walker(w, h).ranges)
        assert (report.ranges, report.starts) == (0, starts)
        assert lib.journal.progress(f"{w}x{h}", START_SCHEME)["ranges_done"] == starts
        numbered = [r.number for r in ranges(w, h)]
        both = search(w, h, MagicJournal(lib, w, h), workers=2, only=numbered)
        assert both.complete and both.found == 0 and both.ranges == len(numbered)
        assert lib.journal.progress(f"{w}x{h}", "two-ended/1")["ranges_done"] == len(numbered)


def _beverley_range(depth: int) -> Range:
    order = _order(BEVERLEY)
    return Range(1, int(order[0]), int(order[-1]), 1, False, _prefix(order, depth))


def _run(lib: Library, rng: Range, **kw: object) -> object:
    import knightstour.magic.search as ms

    real = ms.ranges
    ms.ranges.cache_clear()
    try:
        ms.ranges = lambda w, h: (rng,)  # type: ignore[assignment]
        return search(8, 8, MagicJournal(lib, 8, 8), only=[1], **kw)  # type: ignore[arg-type]
    finally:
        ms.ranges = real


@pytest.mark.slow
def test_a_killed_search_goes_on_where_it_stopped_and_loses_nothing() -> None:
    rng = _beverley_range(16)
    whole = _run(Library(":memory:"), rng)
    assert whole.complete and whole.found >= 1

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
    import knightstour.magic.search as ms

    saved = ms.ranges
    ms.ranges = lambda w, h: (rng,)  # type: ignore[assignment]
    try:
        with pytest.raises(KeyboardInterrupt):
            search(8, 8, journal, workers=2, only=[1])
        assert len(lib.journal.parts_done("8x8", ms.SCHEME, 1) or ()) == 3
        again = search(8, 8, MagicJournal(lib, 8, 8), workers=2, only=[1])
    finally:
        ms.ranges = saved
    assert again.complete
    assert again.parts_done + 3 == whole.parts_done
    progress = lib.journal.progress("8x8", ms.SCHEME)
    assert progress["ranges_done"] == 1 and progress["found"] == whole.found


@pytest.mark.slow  # a Dask cluster: not in make test-fast (as test_count.py's)
def test_dask_finds_the_tours_the_threads_find() -> None:
    distributed = pytest.importorskip("distributed")
    rng = _beverley_range(18)
    local = _run(Library(":memory:"), rng, workers=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = _run(Library(":memory:"), rng, scheduler=cluster.scheduler_address)
    key = lambda r: sorted(tuple(t) for t in np.asarray(r.tours).tolist())  # noqa: E731
    assert local.complete and remote.complete and local.found >= 1
    assert key(local) == key(remote) and local.nodes == remote.nodes


def test_a_time_limit_stops_and_keeps_the_walks_under_way() -> None:
    import knightstour.magic.search as ms

    lib = Library(":memory:")
    report = search(8, 8, MagicJournal(lib, 8, 8), time_limit=0.5, workers=2, only=[1])
    assert report.stopped == "time limit" and not report.complete
    assert report.nodes > 0
    kept = lib.journal.states("8x8", ms.SCHEME, 1)
    assert 1 <= len(kept) <= 2  # one a thread


@pytest.mark.slow
def test_a_part_stopped_by_the_time_limit_goes_on_from_its_walk() -> None:
    """One part, stopped again and again: every tour is found once, as in one go."""
    import knightstour.magic.search as ms

    rng = _beverley_range(15)  # about 690,000 positions: a few budgets of 200,000
    walker = Walker(8, 8)
    whole = walker.run(rng, 0, np.array(rng.prefix, np.int32))
    assert whole.done and len(whole.tours) >= 1

    lib = Library(":memory:")
    journal = MagicJournal(lib, 8, 8)
    one = Range(1, rng.first, rng.last, 1, False, rng.prefix)
    state, found, calls = None, [], 0
    while True:
        calls += 1
        res = walker.run(one, 0, np.array(one.prefix, np.int32), budget=200_000, state=state)
        found.extend(map(tuple, res.tours.tolist()))
        if res.done:
            journal.record(res)
            break
        journal.keep(res)
        state = journal.saved(one)[0]  # through the library, as a new process would read it
    assert calls > 2
    assert sorted(found) == sorted(map(tuple, whole.tours.tolist()))
    assert res.total_nodes == whole.nodes and res.total_found == len(whole.tours)
    assert lib.journal.states("8x8", ms.SCHEME, 1) == {}


@pytest.mark.slow
def test_a_time_limited_search_resumes_its_stopped_parts() -> None:
    rng = _beverley_range(15)
    whole = _run(Library(":memory:"), rng, workers=2)
    lib = Library(":memory:")
    first = _run(lib, rng, workers=2, time_limit=0.2)
    assert first.stopped == "time limit"
    again = _run(lib, rng, workers=2)
    assert again.complete
    got = sorted(tuple(t) for t in [*first.tours, *again.tours] for t in [np.asarray(t).tolist()])
    assert got == sorted(tuple(np.asarray(t).tolist()) for t in whole.tours)


def _class_sums(w: int, h: int, order: list[int]) -> dict[tuple[int, int], int]:
    """The odd numbers' sum on each class of squares by (file, rank) parities."""
    sums: dict[tuple[int, int], int] = {}
    for k, s in enumerate(order, start=1):
        if k % 2:
            key = (s % w % 2, s // w % 2)
            sums[key] = sums.get(key, 0) + k
    return sums


def test_no_semi_magic_tour_when_both_sides_are_2_more_than_a_multiple_of_4(capsys) -> None:
    """Jelliss's theorem, each step of the argument checked on real tours: a semi-magic
    numbering gives the two classes of the odd numbers' colour equal sums (Beverley's tour);
    on 6x10 and 10x10 each of those classes holds an odd count of odd numbers, so an odd sum,
    while equal sums would be even (random tours); the exhaustive walk of 6x6 above agrees."""
    from knightstour.cli import main
    from knightstour.theory import semi_magic_obstruction

    beverley = _class_sums(8, 8, _order(BEVERLEY).tolist())
    assert len(beverley) == 2 and len(set(beverley.values())) == 1
    for w, h in ((6, 10), (10, 10)):
        tours = []
        for seed in range(30):
            with contextlib.suppress(kt.SearchFailedError):
                tours.append(kt.solve(f"{w}x{h}", method="warnsdorff", tiebreak="random",
                                      start="a1", seed=seed))  # fmt: skip
        assert len(tours) >= 3
        for tour in tours:
            sums = _class_sums(w, h, tour.indices.tolist())
            assert len(sums) == 2 and sum(sums.values()) == (w * h // 2) ** 2
            assert all(v % 2 == 1 for v in sums.values()) and (w * h // 2) ** 2 // 2 % 2 == 0
    assert semi_magic_obstruction(kt.Board(6, 6)) is not None  # 6x6: walked whole above, none
    for ok in ((8, 8), (6, 8), (8, 10), (12, 12), (4, 6)):
        assert semi_magic_obstruction(kt.Board(*ok)) is None
    for board in ("6x10", "10x10", "6x6", "14x10"):  # a proved no: exit 1, as the search's
        assert main(["magic", board, "--quiet"]) == 1
        out = capsys.readouterr().out.strip()
        assert len(out.splitlines()) == 1 and "Jelliss 2003" in out, out
