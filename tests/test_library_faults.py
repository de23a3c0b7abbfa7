"""The tour library under faults (issue 11): integers past SQLite's range, damaged files,
concurrent writers, too many workers, Ctrl-C, read-only folders, and the small gaps of
``library export --limit`` and ``library import`` of a missing file."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from knightstour.cli import main
from knightstour.errors import InvalidInputError
from knightstour.library import Library
from knightstour.library import generate as gen
from knightstour.library.store import MAX_ID
from procs import interrupt_group

BIG = str(10**20)
#: The command line, as a user runs it.
KT = [sys.executable, "-m", "knightstour"]
PAGE = 16384


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of 3,000 open 8 x 8 tours (a dozen pages), closed (no WAL left)."""
    path = tmp_path_factory.mktemp("lib") / "t.db"
    gen.generate("8x8", 3000, seed=1, db=path, workers=1)
    return path


def copy(library: Path, tmp_path: Path, name: str = "t.db") -> Path:
    target = tmp_path / name
    shutil.copy(library, target)
    return target


def damage(path: Path) -> None:
    """Random bytes over the header of every page but the first (which holds the schema)."""
    rnd = random.Random(11)
    pages = os.path.getsize(path) // PAGE
    with open(path, "r+b") as f:
        for page in range(1, pages):
            f.seek(page * PAGE)
            f.write(rnd.randbytes(64))


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- 1: integers past SQLite's range ----------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "6x6", "--count", "1", "--seed", BIG],
        ["generate", "6x6", "--count", str(2**63)],
        ["generate", "6x6", "--count", BIG],
        ["library", "show", BIG],
        ["library", "show", str(2**63)],
    ],
)
def test_integers_past_sqlite_are_bad_input(
    argv: list[str], library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy(library, tmp_path)
    code, _, err = run_main([*argv, "--db", str(db)], capsys)
    assert code == 2, err
    assert "internal error" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("flag", ["--limit", "--after"])
def test_list_takes_any_integer(
    flag: str, library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy(library, tmp_path)
    code, out, err = run_main(["library", "list", flag, BIG, "--db", str(db)], capsys)
    assert code == 0, err
    assert len(out.splitlines()) == (3001 if flag == "--limit" else 1)  # a header, or "no tours"


def test_store_takes_any_integer() -> None:
    lib = Library(":memory:")
    assert lib.tours.list(after=10**20, limit=10**20) == [] == lib.tours.list(after=MAX_ID)
    with pytest.raises(InvalidInputError, match="no tour"):
        lib.tours.get(10**20)
    with pytest.raises(InvalidInputError, match="count must be"):
        gen.generate("8x8", 2**63, db=lib)


# -- 1 and 2: a damaged library -----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["library", "list", "--limit", "100000"],
        ["library", "stats"],
        ["library", "export"],
        ["library", "import", "TOURS"],
        ["generate", "8x8", "--count", "5", "-q"],
    ],
)
def test_damaged_library_is_named(
    argv: list[str], library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy(library, tmp_path)
    tours = tmp_path / "one.jsonl"
    assert main(["library", "export", "--db", str(db), "--limit", "1", "-o", str(tours)]) == 0
    capsys.readouterr()
    damage(db)
    before = db.read_bytes()
    argv = [str(tours) if a == "TOURS" else a for a in argv]
    code, _, err = run_main([*argv, "--db", str(db)], capsys)
    assert code == 2, err
    [line] = err.splitlines()
    assert re.search(r"is damaged \(PRAGMA (integrity|quick)_check: .+\)", line), line
    assert db.read_bytes() == before  # nothing written into it


def test_generate_checks_before_writing(library: Path, tmp_path: Path) -> None:
    """Item 2: a damage no read of the run would meet is still found, and nothing is written."""
    db = copy(library, tmp_path)
    with open(db, "r+b") as f:  # the last page of the tours' unique index
        f.seek((os.path.getsize(db) // PAGE - 1) * PAGE)
        f.write(random.Random(2).randbytes(64))
    before = db.read_bytes()
    with pytest.raises(InvalidInputError, match=r"damaged \(PRAGMA quick_check"):
        gen.generate("8x8", 10, db=db, workers=1)
    assert db.read_bytes() == before
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0


def test_not_sqlite_is_not_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(random.Random(3).randbytes(4 * PAGE))
    code, _, err = run_main(["library", "list", "--db", str(junk)], capsys)
    assert code == 2 and "not a tour library" in err


# -- 3: two writers, one count ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", [["--seed", "5"], []])
def test_two_processes_store_exactly_the_count(seed: list[str], tmp_path: Path) -> None:
    """Two processes started with the same command at once share its run and its count."""
    db = tmp_path / "two.db"
    argv = [*KT, "generate", "8x8", "--count", "60000", "--workers", "1", "-q", "--db", str(db)]
    procs = [
        subprocess.Popen([*argv, *seed], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    added = [int(re.search(r"added ([\d,]+)", o).group(1).replace(",", "")) for o, _ in outs]
    assert sum(added) == 60000
    with Library(db, readonly=True) as lib:
        assert lib.tours.count() == 60000


# -- 4: --workers capped ----------------------------------------------------------------------


def test_workers_capped_at_cores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    class Recording(gen._Batches):
        def __init__(self, plan: gen.Plan, first: int, workers: int) -> None:
            asked.append(workers)
            super().__init__(plan, first, workers)

    monkeypatch.setattr(gen, "_Batches", Recording)
    db = str(tmp_path / "w.db")
    code, _, err = run_main(
        ["generate", "8x8", "-n", "3", "--workers", "100000", "--db", db], capsys
    )
    assert code == 0
    assert f"this machine has {gen.max_workers()} cores; using {gen.max_workers()}" in err
    gen.generate("8x8", 3, db=db, workers=10**6)
    assert asked == [gen.max_workers()] * 2


# -- 5: Ctrl-C --------------------------------------------------------------------------------


def group_members(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (zombies included)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                out.append(int(entry))
    return out


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group (as from a terminal) once workers run."""
    db = tmp_path / "c.db"
    argv = [*KT, "generate", "8x8", "--count", "5000000", "--workers", "2", "-q", "--db", str(db)]
    proc = subprocess.Popen(
        argv, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 20
    while len(group_members(proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)  # until the two workers run
    time.sleep(0.3)
    _, err = interrupt_group(proc)  # how soon it stops: benchmarks/bench_stops.py
    assert proc.returncode == 130, err
    assert re.fullmatch(r"knightstour: stopped; [\d,]+ tours kept\n", err), err
    assert group_members(proc.pid) == []  # no worker, forkserver or resource tracker left
    kept = int(re.search(r"([\d,]+) tours", err).group(1).replace(",", ""))
    with Library(db, readonly=True) as lib:
        assert lib.tours.count() == kept


# -- 7: a read-only library -------------------------------------------------------------------


def test_readonly_open_writes_nothing(library: Path, tmp_path: Path) -> None:
    db = copy(library, tmp_path)
    before, mtime = db.read_bytes(), db.stat().st_mtime_ns
    with Library(db, readonly=True) as lib:
        assert (
            lib.tours.count() == 3000 and len(lib.tours.list(limit=5)) == 5 and lib.gallery.stats()
        )
        with pytest.raises(InvalidInputError, match="cannot be written"):
            lib.tours.add(lib.tours.list(limit=1)[0].tour for _ in range(1))
    wal = Path(f"{db}-wal")  # SQLite's mode=ro may make the WAL's files, and leaves them empty
    assert not wal.exists() or wal.stat().st_size == 0
    assert db.read_bytes() == before and db.stat().st_mtime_ns == mtime
    with pytest.raises(InvalidInputError, match="no tour library"):
        Library(tmp_path / "none.db", readonly=True)


def _can_mount_readonly() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp"],
        capture_output=True,
    )
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _can_mount_readonly(), reason="needs root and unshare -m to mount ro")
def test_readonly_filesystem_can_be_read(library: Path, tmp_path: Path) -> None:
    """A WAL library in a folder mounted read-only (no -shm can be made): the read commands
    work (immutable=1), a write is refused in one line."""
    folder = tmp_path / "ro"
    folder.mkdir()
    copy(library, folder)
    kt = " ".join(KT)
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} && "
        f"{kt} library list --db {folder}/t.db --limit 2 && {kt} library stats --db {folder}/t.db"
        f" && {kt} library show 1 --db {folder}/t.db --format moves && "
        f"{kt} library export --db {folder}/t.db --limit 3 && "
        f"{{ {kt} generate 8x8 -n 1 -q --db {folder}/t.db; echo generate=$?; }}"
    )
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "generate=2" in r.stdout and "3x4" not in r.stdout
    assert r.stdout.count('"path"') == 3 and "8x8 open: 3,000 tours" in r.stdout
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr


# -- 20: export --limit, import of a missing file ----------------------------------------------


@pytest.mark.parametrize(("fmt", "lines"), [("jsonl", 2), ("csv", 3)])
def test_export_limit(
    fmt: str, lines: int, library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy(library, tmp_path)
    code, out, err = run_main(
        ["library", "export", "--db", str(db), "--limit", "2", "--format", fmt], capsys
    )
    assert code == 0, err
    assert len(out.splitlines()) == lines
    target = tmp_path / "e.jsonl"
    code, _, err = run_main(
        ["library", "export", "--db", str(db), "--limit", BIG, "-o", str(target)], capsys
    )
    assert code == 0 and "exported 3,000 tours" in err


def test_import_of_missing_file_makes_no_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "m.db"
    code, _, err = run_main(
        ["library", "import", str(tmp_path / "missing.jsonl"), "--db", str(db)], capsys
    )
    assert code == 2 and "missing.jsonl" in err
    assert not db.exists()
