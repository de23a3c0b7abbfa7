"""Exact counts: the frontier dynamic program against a naive enumerator, its limits, and the
published figures it must reproduce (``knightstour/data/published.json``: checked one by one in
``tests/test_count_published.py``; the larger ones by ``benchmarks/bench_count.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import knightstour as kt
import tiers
from enumerator import count_tours
from knightstour import published
from knightstour.board import Board
from knightstour.counting import RunOptions, frontier
from knightstour.errors import InputLimitError, InvalidInputError, SearchFailedError
from tiers import examples

#: Published figures the sweeps below are checked against: undirected closed tours of 6x6
#: (OEIS A175881) and undirected open tours of 5x6 (OEIS A083386).
SIX_CLOSED = published.find(Board(6, 6), closed=True).count  # type: ignore[union-attr]
FIVE_SIX_OPEN = published.find(Board(5, 6), closed=False).count  # type: ignore[union-attr]


def test_a_start_on_the_other_colour_counts_0() -> None:
    assert kt.count("5x5", start="b1") == 0  # theory's 0
    assert kt.count("5x5", start="a1") > 0


@pytest.mark.parametrize("height", range(4, 11))
def test_the_sweep_itself_finds_no_closed_tour_on_4_by_n(height: int) -> None:
    # kt.count answers 0 from Schwenk's theorem; the dynamic program must agree on its own
    assert frontier.count_paths(Board(4, height), (), True) == 0
    assert kt.count(f"4x{height}", closed=True) == 0


@pytest.mark.slow
def test_counts_from_every_start_add_up_to_the_directed_total() -> None:
    for spec in tiers.sample(("5x5", "4x5", "3x8"), 2, seed=3, keep=["5x5"]):
        b = kt.parse_board(spec)
        total = sum(kt.count(b, start=s) for s in b.squares())
        assert total == kt.count(b)
        # and each start square alone agrees with the naive enumerator
        for s in list(b.squares())[:5]:
            assert kt.count(b, start=s) == count_tours(b, s)


def test_closed_counts_from_a_start_and_to_an_end() -> None:
    b = Board(5, 6)  # 8 cycles: with 3x10, the smallest board that has closed tours
    cycles = kt.count(b, closed=True, directed=False)
    assert kt.count(b, closed=True, start="c3") == 2 * cycles
    assert kt.count(b, closed=True, start="c3", directed=False) == cycles
    # every cycle uses two moves at c3: summing over the moves counts each cycle twice
    s = b.parse_square("c3")
    by_move = [kt.count(b, closed=True, start=s, end=e) for e in b.moves(s)]
    assert sum(by_move) == 2 * cycles
    assert kt.count(b, closed=True, start="c3", end="c4") == 0  # not a move apart


def test_open_counts_between_two_squares_match_the_enumerator() -> None:
    b = Board(5, 5)
    for s, e in [(0, 24), (12, 0), (2, 22)]:
        assert kt.count(b, start=s, end=e) == count_tours(b, s, e)
        assert kt.count(b, start=s, end=e) == kt.count(b, start=e, end=s)
    assert kt.count(b, end="a1") == kt.count(b, start="a1")


def test_a_board_and_its_transpose_have_the_same_counts() -> None:
    assert kt.count("10x3", closed=True) == kt.count("3x10", closed=True)
    assert kt.count("6x4") == kt.count("4x6")
    assert kt.count("6x5", start="a1") == kt.count("5x6", start="a1")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    w=st.integers(3, 5),
    h=st.integers(3, 5),
    holes=st.sets(st.integers(0, 24), max_size=4),
    closed=st.booleans(),
    data=st.data(),
)
def test_shaped_boards_agree_with_the_naive_enumerator(
    w: int, h: int, holes: set[int], closed: bool, data: st.DataObject
) -> None:
    b = Board(w, h, holes=frozenset(x for x in holes if x < w * h))
    squares = list(b.squares())
    if len(squares) < 2:
        return
    s = data.draw(st.sampled_from(squares))
    expected = count_tours(b, s, None, closed)  # directed tours from s
    terminals: tuple[int, ...] = () if closed else (s,)
    got = frontier.count_paths(b, terminals, closed)
    assert (2 * got if closed else got) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "closed"),
    [
        (Board(5, 6), False),
        (Board(6, 6), True),
        (Board(4, 7), False),  # swept across its ranks: the mirror swaps the files
        (Board(7, 4), False),  # swept across its files: the mirror swaps the ranks
        (Board(5, 5, holes=frozenset({0, 4})), False),  # a1 and e1: their own mirror images
        (Board(5, 5, holes=frozenset({0})), False),  # a1 alone: no mirror
    ],
)
def test_one_state_of_each_mirror_pair_counts_the_same_with_fewer_states(
    board: Board, closed: bool
) -> None:
    """Where the sweep maps onto itself (the end of a row), keeping the smaller key of each
    mirror pair with the counts of both changes no count and holds fewer states."""
    with_mirror, without = frontier.SweepStats(), frontier.SweepStats()
    kept = frontier.plan(board, (), closed)
    both = frontier.plan(board, (), closed, mirror=False)
    got = frontier.run(kept, RunOptions(stats=with_mirror))
    assert got == frontier.run(both, RunOptions(stats=without))
    if board.area <= 25:  # directed open tours from every start
        assert 2 * got == sum(count_tours(board, s) for s in board.squares())
    rows = [p for p in range(kept.steps) if kept.mirror[p, 0] >= 0]
    if board.holes == frozenset({0}):
        assert rows == [] and with_mirror.states == without.states
        return
    row = min(board.width, board.height)
    assert rows == list(range(row - 1, board.area, row))
    assert sum(with_mirror.states) < sum(without.states)
    assert with_mirror.peak < without.peak


def test_required_ends_off_the_mirror_keep_both_states() -> None:
    start = Board(5, 6).index(1, 0)  # b1: its image d1 is not a required end
    assert (frontier.plan(Board(5, 6), (start,), False).mirror[:, 0] == -1).all()
    middle = Board(5, 6).index(2, 0)  # c1 is its own image
    assert (frontier.plan(Board(5, 6), (middle,), False).mirror[:, 0] >= 0).any()


@pytest.mark.slow
def test_counts_outgrowing_64_bits_are_exact() -> None:
    sweep = frontier.plan(Board(6, 6), (), True)
    stats = frontier.SweepStats()
    weight = 2**63 + 5  # every count overflows one limb within a few squares
    assert frontier.run(sweep, RunOptions(stats=stats), weight=weight) == SIX_CLOSED * weight
    assert stats.limbs == 2
    two = frontier.run(sweep, weight=weight, shards=2)  # widened piece by piece on threads
    assert two == SIX_CLOSED * weight
    # a count beyond 2**128 from the sweep itself, equal on one thread and on two
    one = frontier.run(frontier.plan(Board(3, 100), (), True), shards=1)
    two = frontier.run(frontier.plan(Board(3, 100), (), True), shards=2)
    assert one == two and one > 2**128


@pytest.mark.slow
def test_threads_and_shards_give_the_same_numbers() -> None:
    sweep = frontier.plan(Board(5, 6), (), False)
    assert frontier.run(sweep, shards=1) == frontier.run(sweep, shards=2) == FIVE_SIX_OPEN
    frontier_mod_threshold = frontier._PARALLEL_FROM
    try:
        frontier._PARALLEL_FROM = 0  # every step on two threads
        assert frontier.run(frontier.plan(Board(6, 6), (), True), shards=2) == SIX_CLOSED
    finally:
        frontier._PARALLEL_FROM = frontier_mod_threshold


@pytest.mark.slow
def test_new_states_go_straight_into_their_owners_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31, item 1: each step adds every piece's new states into the tables of the pieces
    that own them, on two threads with a lock a table, and the counts stay exact when they
    carry out of a 64-bit limb on the way (a table widened in place); a swept piece's states
    are let go while the step goes on; each table ends the step from 3/5 to 3/4 full."""
    import weakref

    monkeypatch.setattr(frontier, "_PARALLEL_FROM", 0)  # every step on 32 pieces, two threads
    sweep = frontier.plan(Board(6, 6), (), True)
    weight = 2**63 + 5
    stats = frontier.SweepStats()
    assert (
        frontier.run(sweep, RunOptions(stats=stats), shards=2, weight=weight) == SIX_CLOSED * weight
    )
    assert stats.limbs == 2

    # one thread: the pieces are swept in order, so when piece i hands its new states over,
    # pieces 0 .. i-1 have been swept and their memory let go (a view would keep it)
    real = frontier._hand_over
    swept: list[list[weakref.ref[np.ndarray]]] = []

    def hand_over(*args: Any) -> None:
        first = args[-1]  # the piece handing over
        assert all(ref() is None for refs in swept[:first] for ref in refs)
        real(*args)

    monkeypatch.setattr(frontier, "_hand_over", hand_over)
    held = frontier.LocalShards(sweep, 1)
    try:
        for p in range(sweep.steps):
            swept[:] = [
                [weakref.ref(_memory_of(a)) for a in (keys, counts) if a.shape[0]]
                for keys, counts in zip(held.keys, held.counts, strict=True)
            ]
            _, _, table_bytes = held.step(p, 4.0)
            states = sum(held.states())
            if states > 5_000:  # tables of some size: the load the growth keeps
                rows = table_bytes // 16
                assert 0.75 / 1.25 * 0.95 <= states / rows <= 0.75
                assert len(held.keys) == held.pieces == 32 and min(held.states()) > 0
    finally:
        held.close()


def test_tables_are_made_whole_up_front_only_where_memory_allows() -> None:
    """Issue 31: with room in the bound for the states and the whole tables of the new ones,
    a square makes its tables up front (larger than the tables that grow) rather than growing
    them; never past the bound, and the states are the same square by square."""
    sweep = frontier.plan(Board(5, 7), (), False)
    budget = 48 << 20
    lean, roomy = frontier.LocalShards(sweep, 1), frontier.LocalShards(sweep, 1, budget=budget)
    tight = frontier.LocalShards(sweep, 1, budget=1 << 19)
    larger = tight_squares = 0
    try:
        for p in range(sweep.steps):
            nin = sum(roomy.states())
            made = [held.step(p, 4.0) for held in (lean, roomy, tight)]
            keys = [np.sort(np.concatenate(held.keys)) for held in (lean, roomy, tight)]
            assert np.array_equal(keys[0], keys[1]) and np.array_equal(keys[0], keys[2])
            assert made[0][1] == made[1][1] == made[2][1]  # the whole tours
            lean_bytes, roomy_bytes, tight_bytes = (m[2] for m in made)
            if roomy_bytes > lean_bytes:
                larger += 1
                assert nin * 16 + roomy_bytes <= budget
            if nin * 16 > 1 << 19:  # nothing more fits: the tables grow, as without a bound
                assert tight_bytes == lean_bytes
                tight_squares += 1
    finally:
        for held in (lean, roomy, tight):
            held.close()
    assert larger >= sweep.steps // 2 and tight_squares >= 3


def _memory_of(a: np.ndarray) -> np.ndarray:
    """The array that holds ``a``'s memory (``a`` itself, or the array it views)."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def test_sweep_statistics_are_recorded() -> None:
    stats = frontier.SweepStats()
    frontier.count_paths(Board(5, 5), (), False, RunOptions(stats=stats))
    assert len(stats.states) == 25 and stats.peak == max(stats.states) > 1000
    assert stats.states[-1] == 0 and stats.seconds > 0


def test_bad_requests_get_one_clear_line() -> None:
    with pytest.raises(InputLimitError, match="frontier of 19 squares"):
        kt.count("9x9")
    with pytest.raises(InvalidInputError, match="unknown counting method 'magic'"):
        kt.count("5x5", method="magic")
    with pytest.raises(InvalidInputError, match="same square"):
        kt.count("5x5", start="a1", end="a1")
    with pytest.raises(InvalidInputError, match="time_limit must be a positive"):
        kt.count("5x5", time_limit=0)
    with pytest.raises(InvalidInputError, match="off the 5x5 board"):
        kt.count("5x5", start="f9")
    with pytest.raises(InvalidInputError, match="takes no required ends"):
        frontier.count_paths(Board(6, 6), (0,), True)


def test_a_count_stops_at_its_time_limit() -> None:
    with pytest.raises(SearchFailedError, match="time limit"):
        kt.count("6x6", time_limit=0.05)


def test_memory_is_refused_before_it_is_spent() -> None:
    """States held elsewhere (as a cluster's are) are refused at the square that would not
    fit; in this process they are spilled to disk there instead (issue 31, item 3:
    tests/test_count_spill.py)."""
    sweep = frontier.plan(Board(6, 8), (), True)
    elsewhere = frontier.LocalShards(sweep, 1)
    with pytest.raises(InputLimitError, match=r"needs about .* of memory"):
        frontier.run(sweep, RunOptions(memory=10_000_000), states=elsewhere)
    elsewhere.close()


def test_trivial_boards() -> None:
    assert kt.count("1x1") == 1 and kt.count("1x1", closed=True) == 0
    assert kt.count("2x5") == 0 and kt.count("3x3") == 0
    assert kt.count("1x2") == 0


@pytest.mark.slow  # a Dask cluster: not in make test-fast
def test_dask_cluster_gives_the_in_process_numbers() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        assert kt.count("6x6", closed=True, scheduler=address) == 19724
        assert kt.count("5x5", start="a1", scheduler=address) == 304
        assert kt.count("3x16", closed=True, scheduler=address) == 2 * 15424


@pytest.mark.slow
@pytest.mark.sweep  # a cluster of processes; the threaded cluster test stays in make test
def test_dask_cluster_of_processes() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        assert kt.count("5x8", closed=True, scheduler=cluster.scheduler_address) == 2 * 44202


def test_an_unreachable_scheduler_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from knightstour.counting import distributed

    monkeypatch.setattr(distributed, "CONNECT_SECONDS", 1.0)
    with pytest.raises(InvalidInputError, match="cannot reach the Dask scheduler"):
        kt.count("5x5", scheduler="tcp://127.0.0.1:9")


def test_a_stopped_count_goes_on_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)  # save after every square
    saved = str(tmp_path / "sweep.npz")
    seen: list[int] = []

    def stop_at_20(done: int, total: int) -> None:
        seen.append(done)
        if done == 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        kt.count("5x8", closed=True, checkpoint=saved, progress=stop_at_20)
    assert Path(saved).exists()
    seen.clear()
    again = kt.count("5x8", closed=True, checkpoint=saved, progress=lambda d, t: seen.append(d))
    assert again == 2 * 44202
    assert seen[0] == 21 and not Path(saved).exists()  # went on from square 20, then tidied up
    # another count's checkpoint is refused, not mixed in
    with pytest.raises(KeyboardInterrupt):
        kt.count("5x8", closed=True, checkpoint=saved, progress=stop_at_20)
    with pytest.raises(InvalidInputError, match="checkpoint of another count"):
        kt.count("6x6", closed=True, checkpoint=saved)
    with pytest.raises(InvalidInputError, match="in this process only"):
        kt.count("5x5", method="enumerate", checkpoint=saved)


def test_an_8x8_count_is_refused_up_front_with_its_estimate() -> None:
    seen: list[int] = []
    with pytest.raises(InputLimitError, match=r"open tours on 8x8 would hold about .* states"):
        kt.count("8x8", progress=lambda done, total: seen.append(done))
    assert seen == []  # refused before the first square
    closed = frontier.estimate_states(frontier.plan(Board(8, 8), (), True))
    wide = frontier.estimate_states(frontier.plan(Board(8, 12), (), True))
    assert closed is not None and wide == closed  # by width: long boards the same
    assert frontier.estimate_states(frontier.plan(Board(7, 30), (), True)) is None
