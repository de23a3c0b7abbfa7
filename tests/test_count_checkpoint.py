"""Counting checkpoints that cannot lie (issue 29, items 1 and 4): a format version and a
checksum, every damage refused in one line before a kernel sees it (fuzzed with Hypothesis),
saved when the time limit stops a count, a bad file refused before counting, one count a file,
and the answer kept when the file cannot be removed."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import archive_damage
import tiers
from knightstour import archive, published
from knightstour.board import Board
from knightstour.cli import main
from knightstour.counting import RunOptions, frontier
from knightstour.counting import checkpoint as checkpoints
from knightstour.errors import InvalidInputError, SearchFailedError
from knightstour.library import Library

KT = [sys.executable, "-m", "knightstour"]
#: The board of the damaged checkpoints: 5x5 open, undirected (checked against the enumerator
#: in tests/test_count.py), stopped after :data:`DONE` of its 25 squares.
BOARD, PATHS, DONE = Board(5, 5), 864, 12
FIVE_SIX_OPEN = published.find(Board(5, 6), closed=False).count  # type: ignore[union-attr]


def one_line(e: BaseException | str) -> str:
    text = str(e)
    assert text and len(text.strip().splitlines()) == 1 and "Traceback" not in text, text
    return text


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a real checkpoint of :data:`BOARD` after :data:`DONE` squares."""
    path = tmp_path_factory.mktemp("ckpt") / "c.npz"

    def stop(done: int, total: int) -> None:
        if done == DONE:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)
        with pytest.raises(KeyboardInterrupt):
            frontier.run(frontier.plan(BOARD), RunOptions(checkpoint=str(path), progress=stop))
    assert int(checkpoints.read(str(path))["done"]) == DONE
    return path.read_bytes()


def resume(path: Path) -> int:
    """The count of :data:`BOARD` from the checkpoint at ``path``."""
    return frontier.run(frontier.plan(BOARD), RunOptions(checkpoint=str(path)))


def fields(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        return {name: z[name] for name in z.files}


def rewritten(path: Path, arrays: dict[str, np.ndarray], checksum: bool = True) -> None:
    """``arrays`` saved to ``path`` as a checkpoint is, the checksum made anew (a forgery that
    only the shape and range checks can catch) unless ``checksum`` is False."""
    arrays = dict(arrays)
    if checksum:
        arrays["checksum"] = np.array(archive.checksum(arrays))
    with open(path, "wb") as f:
        np.savez(f, **arrays)  # type: ignore[arg-type]


# -- 1: what a checkpoint holds is checked before it is used ------------------------------------


def test_a_checkpoint_is_versioned_and_checksummed(saved: bytes, tmp_path: Path) -> None:
    data = fields(saved)
    assert set(data) == {"format", "version", "identity", "done", "squares", "total", "keys",
                         "counts", "parts", "digests", "checksum"}  # fmt: skip
    assert data["parts"].shape == (0, 2)  # held in memory: no partitions on disk
    assert int(data["version"]) == checkpoints.VERSION and len(str(data["checksum"])) == 64
    path = tmp_path / "c.npz"
    path.write_bytes(saved)
    assert resume(path) == PATHS and not path.exists()  # intact: the exact count, then removed


def _damaged(saved: bytes, tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of damage the issue names: the file, and the words of its refusal."""
    data = fields(saved)
    out: dict[str, tuple[Path, str]] = {}

    def case(name: str, words: str, content: bytes | None = None) -> Path:
        path = tmp_path / f"{name}.npz"
        if content is not None:
            path.write_bytes(content)
        out[name] = (path, words)
        return path

    case("truncated", "damaged", saved[: len(saved) // 2])
    flipped = bytearray(saved)
    flipped[len(saved) // 2] ^= 0x40  # inside the states
    case("flipped", "is damaged: Bad CRC", bytes(flipped))  # the zip's CRC sees it first
    case("empty", "is empty", b"")
    npy = io.BytesIO()
    np.save(npy, data["keys"])
    case("npy", r"\(\.npy\), not a checkpoint", npy.getvalue())
    rewritten(case("short_counts", "states but counts of shape"),
              {**data, "counts": data["counts"][:-1]})  # fmt: skip
    rewritten(case("keys_as_float", "keys is <f8"), {**data, "keys": data["keys"].astype(float)})
    rewritten(case("done_past_the_end", "says 26 squares are done, of 25"),
              {**data, "done": np.array(26)})  # fmt: skip
    rewritten(case("done_negative", "says -1 squares are done"), {**data, "done": np.array(-1)})
    rewritten(case("squares_short", "squares' states for"),
              {**data, "squares": data["squares"][:-1]})  # fmt: skip
    rewritten(case("total_of_10_30", "more tours than the board has"),
              {**data, "total": checkpoints.limbs(10**30)})  # fmt: skip
    rewritten(case("counts_doubled", "checksum does not match"),
              {**data, "counts": data["counts"] * 2}, checksum=False)  # fmt: skip
    rewritten(case("other_keys", "not this sweep's"),
              {**data, "keys": data["keys"] | np.uint64(1 << 62)})  # fmt: skip
    # a digest and no partition: found by the fuzz test below
    rewritten(case("digest_of_no_part", "names partitions it cannot hold"),
              {**data, "digests": np.array(["0"])})  # fmt: skip
    pickled = case("pickled", "is \\|O of 1 dimensions")
    with open(pickled, "wb") as f:
        np.savez(f, **{**data, "counts": np.array([{"x": 1}], dtype=object)})
    old = {k: v for k, v in data.items() if k in ("identity", "done", "keys", "counts")}
    old["total"] = np.array(str(int(checkpoints.number(data["total"]))))
    with open(case("old_format", "older version, without a checksum"), "wb") as f:
        np.savez(f, **old)
    return out


def test_every_damage_is_refused_in_one_line(saved: bytes, tmp_path: Path) -> None:
    for name, (path, words) in _damaged(saved, tmp_path).items():
        with pytest.raises(InvalidInputError, match=words) as e:
            resume(path)
        assert str(path) in one_line(e.value), name
        assert path.exists(), name  # a refused checkpoint is left as it was
    with pytest.raises(InvalidInputError, match="/dev/null is not a regular file"):
        frontier.run(frontier.plan(BOARD), RunOptions(checkpoint=os.devnull))


def test_the_command_refuses_a_damaged_checkpoint_and_remembers_nothing(
    saved: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    for name, (path, _) in _damaged(saved, tmp_path).items():
        code = main(["count", "5x5", "--undirected", "--db", str(db), "--checkpoint", str(path)])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and str(path) in one_line(err), name
    assert not db.exists()  # nothing counted from a damaged checkpoint is remembered
    path = tmp_path / "good.npz"
    path.write_bytes(saved)
    assert main(["count", "5x5", "--undirected", "--db", str(db), "--checkpoint", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == str(PATHS)
    with Library(db, readonly=True) as lib:
        assert [k.number for k in lib.counts.known_counts()] == [PATHS]


@pytest.mark.slow
def test_a_damaged_checkpoint_exits_2_from_a_real_process(saved: bytes, tmp_path: Path) -> None:
    """The command as a user runs it: exit 2 and one line, never 70 or a signal."""
    for name, (path, _) in _damaged(saved, tmp_path).items():
        if name not in ("truncated", "flipped", "short_counts", "pickled", "done_past_the_end"):
            continue
        r = subprocess.run(
            [*KT, "count", "5x5", "--undirected", "-q", "--checkpoint", str(path)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert r.returncode == 2 and r.stdout == "", (name, r.returncode, r.stderr)
        one_line(r.stderr)


def damage(saved: bytes) -> st.SearchStrategy[tuple[str, bytes]]:
    """A checkpoint with generated damage (:func:`archive_damage.damage`)."""
    names = ("format", "version", "identity", "done", "total", "keys", "counts", "parts",
             "digests", "checksum")  # fmt: skip
    keys = len(fields(saved)["keys"])
    return archive_damage.damage(saved, names, [(), (0,), (1,), (3,), (2, 2), (keys, 2)])


@pytest.mark.slow
@settings(
    max_examples=tiers.examples(400),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_damaged_checkpoints_are_refused_or_give_the_exact_count(
    data: st.DataObject, saved: bytes, tmp_path: Path
) -> None:
    kind, content = data.draw(damage(saved))
    path = tmp_path / "c.npz"
    path.write_bytes(content)
    try:
        got = resume(path)
    except InvalidInputError as e:
        one_line(e)
        assert str(path) in str(e), (kind, str(e))
    else:
        assert got == PATHS, kind  # harmless damage (bytes the file does not use): exact


def test_a_member_marked_as_encrypted_is_refused_as_damage(saved: bytes, tmp_path: Path) -> None:
    """Found by the fuzzing above: one flipped bit of a member's flags in the zip's directory
    made the reader ask for a password (a RuntimeError, a traceback) instead of one line."""
    at = saved.index(b"PK\x01\x02")  # the first member's entry in the central directory
    flags = int.from_bytes(saved[at + 8 : at + 10], "little") | 1
    path = tmp_path / "c.npz"
    path.write_bytes(saved[: at + 8] + flags.to_bytes(2, "little") + saved[at + 10 :])
    with pytest.raises(InvalidInputError) as e:
        resume(path)
    assert "is damaged" in one_line(e.value) and "marked as encrypted" in str(e.value)


# -- 4: saving on the time limit, the file checked up front, one count a file ------------------


def test_the_time_limit_saves_the_sweep_and_the_next_run_goes_on(tmp_path: Path) -> None:
    """A stop by the time limit keeps the squares swept since the last save, so a rerun with
    the same limit gets further (it used to stop at the same square every time)."""
    path = str(tmp_path / "c.npz")
    sweep = frontier.plan(Board(5, 6))
    frontier.run(frontier.plan(Board(5, 5)))  # the kernels loaded: the first squares are quick
    deadline = time.monotonic() + 2.0

    def slow_after_5(p: int, used: int) -> None:
        if p == 5:  # the time limit passes while square 6 waits
            time.sleep(max(0.0, deadline - time.monotonic()) + 0.05)

    with pytest.raises(SearchFailedError) as e:
        frontier.run(sweep, RunOptions(checkpoint=path, deadline=deadline), step_hook=slow_after_5)
    stopped = int(one_line(e.value).split("square ")[1].split(" ")[0])
    assert f"the sweep so far is in {path}" in str(e.value)
    assert 1 <= stopped <= 6 and int(checkpoints.read(path)["done"]) == stopped
    seen: list[int] = []
    assert frontier.run(
        sweep, RunOptions(checkpoint=path, progress=lambda d, t: seen.append(d))
    ) == (FIVE_SIX_OPEN)
    assert seen[0] == stopped + 1 and not os.path.exists(path)
    with pytest.raises(SearchFailedError) as e:  # out of time before a square: one, kept
        frontier.run(sweep, RunOptions(checkpoint=path, deadline=time.monotonic() - 1))
    assert "square 1 of 30" in one_line(e.value) and "sweep so far" in str(e.value)
    assert int(checkpoints.read(path)["done"]) == 1
    with pytest.raises(SearchFailedError) as e:  # without a checkpoint: nothing to keep
        frontier.run(sweep, RunOptions(deadline=time.monotonic() - 1))
    assert "square 0 of 30" in one_line(e.value) and "sweep so far" not in str(e.value)


def test_a_rerun_whose_time_is_spent_before_its_first_square_still_goes_one_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting a process and reading a big checkpoint may take longer than a short time limit
    (a loaded machine): a sweep that goes on from a checkpoint sweeps one square before the
    limit stops it, so each rerun gets further (CI once saw reruns stuck at one square)."""
    path = str(tmp_path / "c.npz")
    sweep = frontier.plan(Board(5, 6))

    def stop_after_10(p: int, used: int) -> None:
        if p + 1 == 10:
            raise KeyboardInterrupt

    monkeypatch.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)  # a save after every square
    with pytest.raises(KeyboardInterrupt):
        frontier.run(sweep, RunOptions(checkpoint=path), step_hook=stop_after_10)
    monkeypatch.undo()
    assert int(checkpoints.read(path)["done"]) == 10
    for expected in (11, 12, 13):  # each rerun's time is spent before it starts
        with pytest.raises(SearchFailedError) as e:
            frontier.run(sweep, RunOptions(checkpoint=path, deadline=time.monotonic() - 1))
        assert f"square {expected} of 30" in one_line(e.value)
        assert int(checkpoints.read(path)["done"]) == expected


@pytest.mark.slow
def test_reruns_with_a_short_time_limit_finish_a_count(tmp_path: Path) -> None:
    """The issue's case in real processes: ``--time-limit`` well under the minute between
    saves. Every rerun used to stop at the same square; now none goes back, and the reruns
    finish the count (6x6 open takes several seconds here: more than one run of 3). Each
    rerun sweeps one square at the least, so 36 reruns finish it however loaded the machine."""
    path = tmp_path / "c.npz"
    argv = [*KT, "count", "6x6", "-q", "--checkpoint", str(path), "--time-limit", "3"]
    stops: list[int] = []
    for _ in range(37):
        r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if r.returncode == 0:
            break
        assert r.returncode == 3, r.stderr
        stops.append(int(one_line(r.stderr).split("square ")[1].split(" ")[0]))
        assert stops == sorted(set(stops)), stops  # each rerun goes further
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "6637920", (stops, r.stderr)
    assert stops and not path.exists()


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("", "the checkpoint file name is empty"),
        ("{tmp}/no/such/folder/c.npz", "no folder"),
        ("{tmp}", "is a folder, not a file"),
        (os.devnull, "is not a regular file"),
    ],
)
def test_a_bad_checkpoint_path_is_refused_before_counting(
    given: str,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_counting(*args: object, **kwargs: object) -> int:
        raise AssertionError("counted before the checkpoint's file was checked")

    monkeypatch.setattr(frontier, "plan", no_counting)
    monkeypatch.chdir(tmp_path)
    path = given.format(tmp=tmp_path)
    code = main(["count", "6x6", "--checkpoint", path])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and words in one_line(err)
    assert sorted(os.listdir(tmp_path)) == []  # no .tmp or .lock left behind


def test_an_unwritable_folder_is_refused_before_counting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the tests may run as root, whom no permission stops: the folder's answer is asked of
    # os.access, as the check does
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if str(p) == str(tmp_path) else real(p, m))
    code = main(["count", "6x6", "--checkpoint", str(tmp_path / "c.npz")])
    assert code == 2 and f"{tmp_path} cannot be written" in one_line(capsys.readouterr().err)


def test_the_answer_stands_when_the_checkpoint_cannot_be_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder made read-only during the count (as root cannot be stopped by permissions, the
    removal's refusal is made by hand): the count is printed, the file named in one line."""
    path = str(tmp_path / "c.npz")
    monkeypatch.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)
    real = os.remove

    def read_only(p: str) -> None:
        if p == path:
            raise PermissionError(13, "Permission denied")
        real(p)

    monkeypatch.setattr(os, "remove", read_only)
    code = main(["count", "5x8", "--closed", "--checkpoint", path])
    out, err = capsys.readouterr()
    assert code == 0 and out.splitlines()[0] == "88404"
    assert one_line(err) == (
        f"knightstour: warning: the count is done, but its checkpoint {path} could not be "
        "removed (Permission denied): delete it\n"
    )
    assert os.listdir(tmp_path) == ["c.npz"]  # the lock is gone all the same


def test_a_checkpoint_in_use_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.npz")
    with checkpoints.held(path):
        code = main(["count", "5x6", "--checkpoint", path])
        assert code == 2 and "is in use by another count" in one_line(capsys.readouterr().err)
    assert main(["count", "5x6", "--undirected", "--checkpoint", path]) == 0  # free again
    assert capsys.readouterr().out.splitlines()[0] == str(FIVE_SIX_OPEN)
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_two_processes_sharing_a_checkpoint(tmp_path: Path) -> None:
    """Two counts of one checkpoint at once: the second is refused in one line; the first,
    interrupted, leaves its checkpoint, which a third finishes with the exact count. The first
    is held (stopped) while the second runs, so that it cannot finish first however slowly
    the second starts (on a quiet machine the first may finish before it is stopped: then
    nothing holds the checkpoint, and the second is not asked to be refused)."""
    path = tmp_path / "c.npz"
    argv = [*KT, "count", "6x6", "-q", "--checkpoint", str(path)]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if Path(f"{path}.lock").exists():
                break
            time.sleep(0.05)
        first.send_signal(signal.SIGSTOP)
        held = Path(f"{path}.lock").exists()  # not when the first finished before its stop
        try:
            second = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        finally:
            first.send_signal(signal.SIGCONT)
        if held:
            assert second.returncode == 2 and "in use by another count" in one_line(second.stderr)
    finally:
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=120)
    if first.returncode == 0:  # finished before the signal came
        assert out.splitlines()[0] == "6637920"
        return
    assert first.returncode == 130, err
    third = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert third.returncode == 0 and third.stdout.splitlines()[0] == "6637920", third.stderr
    assert os.listdir(tmp_path) == []


def test_the_checkpoint_reader_names_a_zip_of_other_things(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(InvalidInputError, match="holds other arrays"):
        checkpoints.read(str(path))


def test_states_in_pieces_are_saved_as_the_array_they_make(tmp_path: Path) -> None:
    """Issue 31, item 1: a checkpoint's states are written piece by piece (no second copy of
    them in memory), byte for byte the archive of the array the pieces make."""
    from knightstour import archive

    keys = [
        np.arange(5, dtype=np.uint64),
        np.arange(0, dtype=np.uint64),
        np.arange(3, dtype=np.uint64),
    ]
    counts = [np.full((k.shape[0], 2), 7, dtype=np.uint64) for k in keys]
    common = {"identity": np.array("x"), "done": np.array(2), "total": checkpoints.limbs(9)}
    whole = {**common, "keys": np.concatenate(keys), "counts": np.concatenate(counts)}
    pieces = {**common, "keys": archive.Parts(keys), "counts": archive.Parts(counts)}
    a, b = tmp_path / "whole.npz", tmp_path / "pieces.npz"
    checkpoints.write(str(a), whole)
    checkpoints.write(str(b), pieces)
    assert a.read_bytes() == b.read_bytes()
    saved = checkpoints.read(str(b))
    assert saved["keys"].tolist() == [0, 1, 2, 3, 4, 0, 1, 2] and saved["counts"].shape == (8, 2)
    with pytest.raises(ValueError, match="differ"):
        archive.Parts([np.zeros(2, dtype=np.uint64), np.zeros((2, 1), dtype=np.uint64)])


def test_ctrl_c_while_a_checkpoint_is_written_keeps_the_old_one_and_no_half_file(
    saved: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C that lands while the checkpoint is written (a big one takes seconds) leaves
    the checkpoint before it, whole, and no half-written file beside it."""
    path = tmp_path / "c.npz"
    path.write_bytes(saved)
    real = archive.save

    def interrupted(f: object, arrays: object) -> None:
        real(f, arrays)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(archive, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        checkpoints.write(str(path), fields(saved))
    assert os.listdir(tmp_path) == ["c.npz"] and path.read_bytes() == saved


def test_a_sweep_that_goes_on_judges_its_memory_as_the_whole_sweep_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep going on from a checkpoint used to guess that its first square makes four
    times the states (the guess for a sweep's first square): under a memory bound that the
    whole sweep kept to, a 7x8 count resumed at its peak spilled to disk, two times slower.
    The checkpoint keeps the states after each square, so the sweep that goes on judges its
    next square as the whole sweep did, and reports every square's states."""
    sweep = frontier.plan(Board(6, 5), (), False)
    whole = frontier.SweepStats()
    number = frontier.run(sweep, RunOptions(stats=whole))
    h = [1, *whole.states]  # the states before each square (one before the first)
    judged = [frontier.step_bytes(h[0], 4.0)] + [
        frontier.step_bytes(h[p], max(1.0, h[p] / max(h[p - 1], 1)) * 1.25)
        for p in range(1, len(h) - 1)
    ]
    budget = max(judged)  # what the whole sweep needed by its own judgement
    after = max(range(len(h) - 1), key=h.__getitem__)  # stopped where the states peak
    assert frontier.step_bytes(h[after], 4.0) > budget  # the old guess would spill there
    path = str(tmp_path / "c.npz")

    def stop_there(p: int, used: int) -> None:
        if p + 1 == after:
            raise KeyboardInterrupt

    monkeypatch.setattr(frontier, "CHECKPOINT_SECONDS", 0.0)  # a save after every square
    with pytest.raises(KeyboardInterrupt):
        frontier.run(sweep, RunOptions(checkpoint=path, memory=budget), step_hook=stop_there)
    monkeypatch.undo()
    assert int(checkpoints.read(path)["done"]) == after
    resumed = frontier.SweepStats()
    assert frontier.run(sweep, RunOptions(checkpoint=path, memory=budget, stats=resumed)) == (
        number
    )
    assert resumed.spilled_from is None and resumed.states == whole.states


def test_a_sweep_asked_to_stop_early_is_not_refused_for_the_whole_count(tmp_path: Path) -> None:
    """Open 8x8 is refused up front for its whole estimate; asked to stop after its first
    squares (``until``), it sweeps them, keeps its checkpoint, and the next part goes on from
    there without sweeping a square twice."""
    from knightstour.errors import InputLimitError

    sweep = frontier.plan(Board(8, 8), (), False)
    with pytest.raises(InputLimitError, match="would hold about"):
        frontier.run(sweep)
    path = str(tmp_path / "c.npz")
    swept: list[int] = []

    def hook(p: int, _states: int) -> None:
        swept.append(p)

    with pytest.raises(SearchFailedError, match="stopped as asked, square 16 of 64"):
        frontier.run(sweep, RunOptions(checkpoint=path, until=16), step_hook=hook)
    assert swept == list(range(16)) and os.path.exists(path)
    with pytest.raises(SearchFailedError, match="stopped as asked, square 18 of 64"):
        frontier.run(sweep, RunOptions(checkpoint=path, until=18), step_hook=hook)
    assert swept == list(range(18))


def test_a_resumed_sweep_lets_the_arrays_it_read_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The states read back from a checkpoint are split into the sweep's pieces (copies);
    the arrays read are let go before the first square (a resumed 8x8 count held 6 GB of
    them to its end), and the count is exact."""
    import weakref

    sweep = frontier.plan(Board(6, 6), (), False)
    path = str(tmp_path / "c.npz")
    with pytest.raises(SearchFailedError, match="stopped as asked"):
        frontier.run(sweep, RunOptions(checkpoint=path, until=22))
    real = frontier._load_checkpoint
    read: list[weakref.ref[np.ndarray]] = []

    def load(*args: object) -> object:
        saved = real(*args)  # type: ignore[arg-type]
        assert saved is not None and saved[2].shape[0] > 1000
        for a in saved[2:4]:
            while isinstance(a.base, np.ndarray):  # the array that holds the memory
                a = a.base
            read.append(weakref.ref(a))
        return saved

    monkeypatch.setattr(frontier, "_load_checkpoint", load)
    alive: list[int] = []

    def hook(_p: int, _states: int) -> None:
        alive.append(sum(ref() is not None for ref in read))

    assert frontier.run(sweep, RunOptions(checkpoint=path), step_hook=hook) == 3_318_960
    assert len(read) == 2 and alive == [0] * (sweep.steps - 22)
