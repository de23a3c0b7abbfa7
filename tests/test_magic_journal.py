"""The magic search's journal: saved walks that cannot lie (issue 29, item 2), parts claimed by
one run at a time (item 8), constructions stored as they are built (item 9), ``--count N``
keeping N (issue 30, item 5) and one exit code a kind of answer (issue 30, item 6)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import archive_damage
import tiers
from knightstour.errors import InvalidInputError
from knightstour.library.magic import MagicJournal
from knightstour.library.store import Library
from knightstour.magic import saved as walks
from knightstour.magic import search as ms
from knightstour.magic._parts import PartResult, Range
from knightstour.magic.quads import QuadWalker, quad_range
from knightstour.magic.starts import SCHEME as START_SCHEME
from knightstour.magic.starts import start_walker
from knightstour.numbering import BEVERLEY, grid_order

ROOT = Path(__file__).resolve().parents[1]


def one_line(e: BaseException) -> str:
    text = str(e)
    assert text and len(text.splitlines()) == 1, text
    return text


def beverley_range(depth: int) -> Range:
    """Range 1 narrowed to the tours that share the first and last numbers of Beverley's tour
    (the low and the high end in turn, ``depth`` squares after the two ends)."""
    order = np.array(grid_order(BEVERLEY), np.int32)  # type: ignore[arg-type]
    n = len(order)
    prefix = tuple(int(order[1 + d // 2] if d % 2 == 0 else order[n - 2 - d // 2])
                   for d in range(depth))  # fmt: skip
    return Range(1, int(order[0]), int(order[-1]), 1, False, prefix)


class Part:
    """One part of a walk, walked whole, and stopped part-way with its walk saved."""

    def __init__(self, walker: ms.Walker | QuadWalker, rng: Range, part: int,
                 prefix: np.ndarray, budget: int) -> None:  # fmt: skip
        self.walker, self.rng, self.part, self.prefix = walker, rng, part, prefix
        self.whole = self.run()
        self.stopped = self.run(budget=budget)
        assert self.whole.done and not self.stopped.done and self.stopped.state is not None
        lib = Library(":memory:")
        MagicJournal(lib, 8, 8).keep(self.stopped)
        ((_, blob),) = lib.journal.states("8x8", self.stopped.scheme, rng.number).items()
        self.blob = blob

    def run(self, budget: int = 2**62, state: dict | None = None) -> PartResult:
        if isinstance(self.walker, QuadWalker):
            return self.walker.run(self.rng, self.part, None, budget, state)
        return self.walker.run(self.rng, self.part, self.prefix, None, budget, state)

    def resume(self, blob: bytes) -> PartResult | None:
        """The part walked on from ``blob`` as the search does it (None: from its start)."""
        lib = Library(":memory:")
        lib.journal.keep_state("8x8", self.stopped.scheme, self.rng.number, self.part, blob)
        journal = MagicJournal(lib, 8, 8)
        walker = ms.Walker(8, 8)
        prefixes = np.zeros((self.part + 1, len(self.prefix)), np.int32)
        prefixes[self.part] = self.prefix
        states = ms._checked_walks(walker, journal, self.rng, prefixes, False)
        if self.part not in states:
            return None
        return self.run(state=states[self.part])

    def tours(self, *results: PartResult) -> list[tuple[int, ...]]:
        return sorted(tuple(t) for r in results for t in np.asarray(r.tours).tolist())


@pytest.fixture(scope="module")
def parts() -> dict[str, Part]:
    """A part of the two-ended walk below Beverley's first and last 9 numbers, and a part of
    the quad pass of 8x8, each holding tours, each stopped half-way."""
    rng = beverley_range(18)
    walker = ms.Walker(8, 8)
    prefixes = walker.parts(rng)
    found = [p for p in range(len(prefixes))
             if len(walker.run(rng, p, prefixes[p]).tours)]  # fmt: skip
    two = Part(walker, rng, found[0], prefixes[found[0]], 2_000)
    quads = Part(QuadWalker(8, 8), quad_range(8, 8), QUAD_PART, np.zeros(0, np.int32), 20_000)
    assert len(two.whole.tours) and len(quads.whole.tours)
    return {"two-ended": two, "quads": quads}


#: A part of the quad pass of 8x8 that holds tours and walks in a moment.
QUAD_PART = 48


def _values(draw: st.DrawFn, data: dict[str, np.ndarray]) -> None:
    """The path and counters of a saved walk changed (the walk's own checks must catch it)."""
    path, counters = data["path"].copy(), data["counters"].copy()
    if len(path) and draw(st.booleans()):
        path[draw(st.integers(0, len(path) - 1))] = draw(st.integers(-3, 200))
    if draw(st.booleans()):
        path = path[: draw(st.integers(0, len(path)))]
    counters[draw(st.integers(0, 2))] = draw(st.sampled_from([-1, 0, 1, 7, 2**40, 2**63 - 1]))
    data["path"], data["counters"] = path, counters


def damage(blob: bytes) -> st.SearchStrategy[tuple[str, bytes]]:
    """A saved walk with generated damage (:func:`archive_damage.damage`), its path and
    counters changed too."""
    shapes = [(), (0,), (1,), (3,), (2, 2), (40,)]
    return archive_damage.damage(blob, sorted(walks.LAYOUT), shapes, _values)


@pytest.mark.slow
@settings(
    max_examples=tiers.examples(400),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_a_damaged_saved_walk_is_refused_or_walks_on_exactly(
    data: st.DataObject, parts: dict[str, Part]
) -> None:
    """No exit 70, no crash, no hang, no tour lost or counted twice: a damaged walk is refused in
    one line, or (damage the walk does not use, or a forged walk that is still a walk of its
    part, as the checksum is made anew) walked on with every tour found once."""
    part = parts[data.draw(st.sampled_from(sorted(parts)))]
    kind, blob = data.draw(damage(part.blob))
    try:
        resumed = part.resume(blob)
    except InvalidInputError as e:
        assert "saved walk of part" in one_line(e) and "--discard-damaged" in str(e), kind
        return
    if resumed is None:  # walked again from its start
        return
    assert resumed.done
    if kind in ("truncate", "flip", "shape", "swap"):  # whatever got through is the walk saved
        assert part.tours(part.stopped, resumed) == part.tours(part.whole), kind
        assert resumed.total_found == part.whole.total_found, kind
        assert resumed.total_nodes == part.whole.total_nodes, kind
    else:  # a forged walk of the part: every tour it reports is one of the part's
        assert set(part.tours(resumed)) <= set(part.tours(part.whole)), kind


def test_an_undamaged_walk_goes_on_exactly(parts: dict[str, Part]) -> None:
    for part in parts.values():
        resumed = part.resume(part.blob)
        assert resumed is not None and resumed.done
        assert part.tours(part.stopped, resumed) == part.tours(part.whole)
        assert (resumed.total_found, resumed.total_nodes) == (
            part.whole.total_found, part.whole.total_nodes)  # fmt: skip


def test_a_walk_saved_before_versions_is_walked_again_from_its_start(
    parts: dict[str, Part],
) -> None:
    """The compiled walk's arrays, as saved before walks had a version and a checksum: not
    trusted, not refused either: the part starts over (its tours are kept by class, so none
    is stored twice)."""
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.zeros(9, np.int64), num=np.zeros(64, np.int32))
    assert parts["two-ended"].resume(buffer.getvalue()) is None


def test_a_walk_saved_before_its_time_was_kept_goes_on_from_0_seconds() -> None:
    """A saved walk of three counters (cursor, nodes, found: before the seconds were kept) is
    read as it was, its seconds 0; a walk saved now keeps them to the microsecond."""
    from knightstour import archive

    ident = walks.identity("8x8", START_SCHEME, -9, 3)
    fields = {"identity": np.array(ident), "path": np.array([5, 9], np.int32),
              "counters": np.array([1, 40, 0])}  # fmt: skip
    blob = archive.to_bytes(archive.pack(walks.FORMAT, walks.VERSION, walks.LAYOUT, fields))
    refuse = lambda problem: InvalidInputError(problem)  # noqa: E731
    old = walks.decode(blob, ident, refuse)
    assert old is not None and (old["cursor"], old["nodes"], old["seconds"]) == (1, 40, 0.0)
    now = walks.decode(walks.encode(ident, {**old, "seconds": 12.345678}), ident, refuse)
    assert now is not None and now["seconds"] == 12.345678


def test_a_walk_of_another_part_is_refused(parts: dict[str, Part]) -> None:
    two = parts["two-ended"]
    lib = Library(":memory:")
    lib.journal.keep_state("8x8", two.stopped.scheme, 1, two.part + 1, two.blob)
    with pytest.raises(InvalidInputError, match=f"part {two.part}, not of this part"):
        MagicJournal(lib, 8, 8).saved(two.rng)
    assert MagicJournal(lib, 8, 8).saved(two.rng, discard_damaged=True) == {}
    assert lib.journal.states("8x8", two.stopped.scheme, 1) == {}  # dropped


@pytest.mark.slow  # real processes
def test_the_command_refuses_a_damaged_walk_in_one_line_and_discards_it_when_asked(
    tmp_path: Path, parts: dict[str, Part]
) -> None:
    """``magic 8x8 --range 0`` on a library whose saved walk of a quad part is damaged: exit 2
    and one line, within its time limit (no crash, no hang); with --discard-damaged the part is
    walked from its start."""
    quads = parts["quads"]
    db = tmp_path / "t.db"
    with Library(str(db)) as lib:
        bad = bytearray(quads.blob)  # a bit of the path's last quad flipped
        bad[quads.blob.index(b"PK\x03\x04", quads.blob.index(b"path.npy")) - 1] ^= 0x20
        lib.journal.keep_state("8x8", quads.stopped.scheme, 0, quads.part, bytes(bad))
    args = ["magic", "8x8", "--range", "0", "--db", str(db), "--quiet", "--time-limit", "3"]
    done = cli(*args)
    assert done.returncode == 2 and done.stdout == "", done
    assert len(done.stderr.splitlines()) == 1 and "--discard-damaged" in done.stderr
    assert f"part {quads.part} of range 0 of 8x8" in done.stderr
    done = cli(*args, "--discard-damaged", "--workers", "1")
    assert done.returncode in (0, 3), done.stderr
    with Library(str(db)) as lib:
        assert quads.part not in lib.journal.states("8x8", quads.stopped.scheme, 0)


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "knightstour", *args], capture_output=True, text=True,
        env=env, timeout=timeout,
    )  # fmt: skip


def test_a_part_that_fails_stops_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker fails; the other, walking a part that would go on for hours, is stopped (it
    sees its stop flag) and keeps its walk; the failure is raised."""
    walker = ms._walker(8, 8)
    real = walker.run
    stopped = threading.Event()
    calls: list[int] = []

    def run(rng, part, prefix, stop=None, budget=2**62, state=None):  # type: ignore[no-untyped-def]
        calls.append(part)
        if len(calls) == 1:  # the first part waits on its stop flag, as a long walk would
            for _ in range(6000):
                if stop is not None and stop[0]:
                    stopped.set()
                    break
                threading.Event().wait(0.01)
            return real(rng, part, prefix, np.zeros(1, np.uint8), 1000, state)  # a little walked
        raise RuntimeError("a worker failed")

    monkeypatch.setattr(walker, "run", run)
    lib = Library(":memory:")
    with pytest.raises(RuntimeError, match="a worker failed"):
        ms.search(8, 8, MagicJournal(lib, 8, 8), only=[1], workers=2)
    assert stopped.is_set()
    assert len(lib.journal.states("8x8", ms.SCHEME, 1)) == 1  # the stopped walk was kept


# -- item 8: parts claimed by one run at a time; finishing a part idempotent ------------------


@pytest.mark.slow  # a whole search of seconds
def test_a_part_held_by_a_live_run_is_left_to_it() -> None:
    """Another run (alive: this process) holds a part of 4x6's first start pass: this run walks
    the rest, waits for that part until its time limit, and stops short; once released, the
    part is walked and the proof made."""
    lib = Library(":memory:")
    other = MagicJournal(lib, 4, 6)
    first = start_walker(4, 6).ranges[0]
    assert other.claim(first, [0]) == [0]
    stopped = ms.search(4, 6, MagicJournal(lib, 4, 6), workers=1, time_limit=1.0)
    assert stopped.stopped == "time limit" and not stopped.complete
    assert lib.journal.parts_done("4x6", START_SCHEME, first.number) is not None
    assert 0 not in (lib.journal.parts_done("4x6", START_SCHEME, first.number) or {0})
    other.release()
    again = ms.search(4, 6, MagicJournal(lib, 4, 6), workers=1)
    assert again.complete and again.parts_done == 1  # that part alone was left


@pytest.mark.slow  # a whole search of seconds
def test_a_part_held_by_a_dead_run_is_taken_over() -> None:
    import socket

    gone = subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert gone.returncode == 0
    lib = Library(":memory:")
    first = start_walker(4, 6).ranges[0]
    dead = [
        f"{socket.gethostname()}:{os.getpid()}:0:x",  # this process id, another process's start
        f"{socket.gethostname()}:{2**22 + 7}:1:x",  # no such process
    ]
    for part, owner in enumerate(dead):
        assert lib.journal.claim("4x6", START_SCHEME, first.number, [part], owner) == [part]
    whole = ms.search(4, 6, MagicJournal(lib, 4, 6), workers=1, time_limit=60)
    assert whole.complete and whole.stopped is None


def test_finishing_is_idempotent() -> None:
    """A part recorded again after its range was made one row leaves the totals as they are;
    a range is one row only once every part is recorded."""
    journal = Library(":memory:").journal
    for part in range(3):
        journal.record_part("8x8", "s", 1, part, found=10 * part, nodes=100, seconds=1.0)
    assert journal.finish_range("8x8", "s", 1, parts=4) is False  # part 3 still to come
    journal.record_part("8x8", "s", 1, 3, found=6, nodes=100, seconds=1.0)
    assert journal.finish_range("8x8", "s", 1, parts=4) is True
    journal.record_part("8x8", "s", 1, 2, found=0, nodes=1, seconds=0.0)  # a second run's
    assert journal.finish_range("8x8", "s", 1, parts=4) is True
    progress = journal.progress("8x8", "s")
    assert (progress["found"], progress["nodes"], progress["ranges_done"]) == (36, 400, 1)


@pytest.mark.slow  # two real processes
def test_two_runs_on_one_library_share_the_parts(tmp_path: Path) -> None:
    """Two ``magic 4x8`` runs at once on one library: each part walked once between them, both
    end with the proof (every range walked: none), and the journal's totals are one run's."""
    alone = cli("magic", "4x8", "--db", str(tmp_path / "alone.db"), "--format", "json",
                "--workers", "1")  # fmt: skip
    assert alone.returncode == 1, alone.stderr
    whole = json_of(alone.stdout)
    db = str(tmp_path / "shared.db")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "knightstour", "magic", "4x8", "--db", db, "--format",
               "json", "--workers", "1"]  # fmt: skip
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env) for _ in range(2)]  # fmt: skip
    outs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], [err for _, err in outs]
    shares = [json_of(out) for out, _ in outs]
    assert sum(s["parts_done"] for s in shares) == whole["parts_done"]
    assert all(s["ranges_done"] == whole["ranges_done"] for s in shares)
    with Library(db) as lib:
        for scheme in (START_SCHEME, "quads/3", "quarters/1"):
            ours = lib.journal.progress("4x8", scheme)
            with Library(str(tmp_path / "alone.db")) as one:
                assert ours == {**one.journal.progress("4x8", scheme),
                                "seconds": ours["seconds"]}  # fmt: skip


def json_of(out: str) -> dict:
    import json

    return json.loads(out.strip().splitlines()[-1])


# -- item 9: constructions stored as they are built -------------------------------------------


def classes_of(seeds: int) -> int:
    """How many classes the constructions of 12x12 with seeds 0 ... seeds - 1 fall in."""
    from knightstour.magic import find

    lib = Library(":memory:")
    find("12x12", MagicJournal(lib, 12, 12), count=seeds) if seeds else None
    return lib.tours.count("12x12")


@pytest.mark.slow  # a real process killed
def test_a_killed_construction_keeps_every_tour_it_printed(tmp_path: Path) -> None:
    """``magic 12x12 --count 6`` (its constructions hold 6 classes) killed with kill -9 after 3
    tours: those are in the library (each is stored before it is printed); the classes still
    missing, asked for again, are added."""
    db = str(tmp_path / "m.db")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "knightstour", "magic", "12x12", "--count", "6", "--db", db,
               "--quiet"]  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    printed = 0
    assert run.stdout is not None
    for line in run.stdout:
        printed += line.startswith("semi-magic: ")
        if printed == 3:
            run.kill()
            break
    run.wait(timeout=60)
    assert run.returncode == -9 and printed == 3
    with Library(db) as lib:
        kept = lib.tours.count("12x12")
    assert 3 <= kept <= 4  # each printed tour stored (one more maybe)
    again = cli("magic", "12x12", "--count", str(6 - kept), "--db", db, "--format", "json",
                "--quiet")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json_of(again.stdout)["new"] == 6 - kept
    with Library(db) as lib:
        assert lib.tours.count("12x12") == classes_of(6) == 6


# -- issue 30, item 5: --count N keeps exactly N; item 6: one exit code a kind of answer --------


@pytest.mark.slow  # parts of the quad pass, seconds each
@pytest.mark.parametrize("closed", tiers.sample([False, True], 1, seed=2))  # both with --all
def test_count_n_keeps_exactly_n_new_classes(closed: bool) -> None:
    """The quad pass's first parts hold several tours each: --count 1 keeps one, --count 2 then
    two more; a part whose tours pass the count is not recorded (it is walked again)."""
    from knightstour.magic import find

    lib = Library(":memory:")
    first = find("8x8", MagicJournal(lib, 8, 8), ranges=[0], count=1, workers=2, closed=closed)
    assert first.outcome == "done" and first.new == 1 and lib.tours.count("8x8") == 1
    assert len(first.tours) == first.report.found >= 1  # type: ignore[union-attr]
    more = find("8x8", MagicJournal(lib, 8, 8), ranges=[0], count=2, workers=2, closed=closed)
    assert more.outcome == "done" and more.new == 2 and lib.tours.count("8x8") == 3
    scheme = f"quads/3{'/closed' if closed else ''}"
    walker, journal = QuadWalker(8, 8), MagicJournal(lib, 8, 8)
    for part in lib.journal.parts_done("8x8", scheme, 0) or ():  # recorded: all its tours held
        batch = journal._batch(walker.run(quad_range(8, 8, closed), part))
        assert batch is None or lib.tours.add_batch(batch, method="magic") == 0


@pytest.mark.slow  # a whole search of seconds
def test_a_search_stopped_by_its_time_limit_exits_3_whatever_it_found() -> None:
    """The rule: exit 0 only when what was asked is done (N new tours with --count N, else
    every range asked for walked); stopped short by the time limit is exit 3 even when tours
    were found and stored on the way."""
    from knightstour.magic import find

    found = find("8x8", MagicJournal(Library(":memory:"), 8, 8), ranges=[0], time_limit=2.0,
                 workers=2)  # fmt: skip
    assert found.report is not None and found.report.stopped == "time limit"
    assert found.outcome == "stopped" and not found.report.complete
