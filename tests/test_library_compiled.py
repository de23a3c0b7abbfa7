"""The compiled paths of the library give what the NumPy references give: decoding packed tours
(damaged rows flagged alike), the exporter's JSON lines (the bytes of ``Tour.to_json``), the
columnar reads of the store (one kind or several in a chunk), and ``export --limit``."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import Board
from knightstour.cli import main
from knightstour.library import Library
from knightstour.library import canonical as cf
from knightstour.library import io as kio
from knightstour.library.generate import generate, make_plan, run_batch, walk_starts
from tiers import sample

KERNELS = cf.library_kernels(0, -1)  # loaded: decode_batch and export use them from here on


#: Batches decoded: every one with --all; else the warnsdorff ones, 3x10 closed by backtrack and
#: one of the slower backtrack batches drawn.
DECODED = [
    (8, 8, False, "warnsdorff"),
    (8, 8, True, "warnsdorff"),
    (6, 6, True, "backtrack"),
    (5, 7, False, "backtrack"),
    (3, 10, True, "backtrack"),
    (17, 16, False, "warnsdorff"),
]


@pytest.mark.parametrize(
    ("width", "height", "closed", "method"),
    sample(DECODED, 4, seed=6, keep=[c for c in DECODED if c[3] == "warnsdorff" or c[1] == 10]),
)
def test_decode_keys_matches_the_numpy_reference(
    width: int, height: int, closed: bool, method: str
) -> None:
    board = Board(width, height)
    plan = make_plan(board, closed, walk_starts(board, None, closed), method, seed=3)
    batch = run_batch(plan, 0, 400 if method == "warnsdorff" else 6)
    assert len(batch) > 5
    keys, codes = batch.keys.copy(), batch.codes.copy()
    rng = np.random.default_rng(width * height)
    for i in range(0, len(keys), 5):  # damage every fifth key in one random bit
        j = int(rng.integers(0, keys.shape[1]))
        keys[i, j] ^= np.uint8(1 << int(rng.integers(0, 8)))
    codes[1::9] += 16 * board.area  # a rotation past the tour
    codes[2::13] = -1
    codes[3::17] = (codes[3::17] & ~7) | 7 if width != height else codes[3::17]
    want, want_ok = cf._decode_reference(board, keys, np.maximum(codes, 0), closed)
    want_ok &= codes >= 0
    got, ok = cf.decode_batch(board, keys, codes, closed)
    assert ok.tolist() == want_ok.tolist()
    assert (~ok).any() and ok.any()
    assert (got[ok] == want[ok]).all()
    # the undamaged batch decodes to its tours, each a valid tour
    tours, ok = cf.decode_batch(board, batch.keys, batch.codes, closed)
    assert ok.all()
    assert (tours[:, 0] == batch.starts).all() and (tours[:, -1] == batch.ends).all()
    for p in tours[:3]:
        kt.Tour(board, p, closed=closed)


def test_a_damaged_start_square_is_flagged() -> None:
    board = Board(5, 5)
    t = kt.solve(board, start="a1", method="warnsdorff")
    key, code = cf.canonical_form(board, t.indices, False)
    keys = np.frombuffer(key, dtype=np.uint8)[None, :].copy()
    keys[0, 0] = 200  # square 200 of a 25-square board
    _, ok = cf.decode_batch(board, keys, np.array([code]), False)
    assert ok.tolist() == [False]


@pytest.mark.parametrize("size", [(1, 1), (3, 4), (8, 8), (12, 30), (30, 12), (27, 3)])
def test_compiled_lines_are_the_numpy_lines(size: tuple[int, int]) -> None:
    w, h = size
    rng = np.random.default_rng(w * h)
    tours = np.stack([rng.permutation(w * h) for _ in range(9)]).astype(np.int32)
    b = Board(w, h)
    names = {1: "warnsdorff", 2: "backtrack", 7: 'a "quoted" método'}
    methods = np.array([1, 2, 7, 7, 1, 2, 1, 1, 2], dtype=np.int64)
    kinds = sorted(names)
    heads = [kio._head(b, w % 2 == 0, names[m]) for m in kinds]
    text = bytes(kio._jsonl_compiled(KERNELS, b, heads, kinds, methods, tours)).decode()
    per_row = [heads[kinds.index(m)] for m in methods.tolist()]
    assert text == kio._jsonl(w, h, per_row, tours)


def _library(path: Path) -> Library:
    lib = Library(path)
    generate("8x8", 1500, seed=3, db=lib, workers=1)
    generate("6x6", 30, closed=True, seed=3, db=lib, workers=1, method="backtrack")
    generate("8x8", 500, seed=4, db=lib, workers=1, method="warnsdorff")
    lib.tours.add([kt.solve("5x5", start="a1", method="warnsdorff")])  # a third method
    lib.tours.add([kt.Tour(Board(6, 6, wrap="torus"), kt.solve("6x6", start="a1").indices)])
    return lib


@pytest.mark.slow
def test_packed_reads_are_the_rows(tmp_path: Path) -> None:
    with _library(tmp_path / "t.db") as lib:
        rows = [r for chunk in lib.tours.iter_rows(chunk=700) for r in chunk]
        packed = list(lib.tours.iter_packed(chunk=700))
        ids = np.concatenate([p.ids for p in packed])
        assert ids.tolist() == [r[0] for r in rows]
        by_id = {r[0]: r for r in rows}
        for p in packed:
            for i, key, code, start, method in zip(
                p.ids.tolist(), p.keys, p.codes.tolist(), p.starts.tolist(),
                p.methods.tolist(), strict=True,
            ):  # fmt: skip
                r = by_id[i]
                assert (bytes(key), code, start, method) == (r[4], r[5], r[6], r[8])
                assert (p.board.key, p.closed) == (lib.tours.get(i).board.key, bool(r[3]))
        some = list(lib.tours.iter_packed(Board(8, 8), False, limit=1234, chunk=500))
        assert sum(len(p) for p in some) == 1234
        assert [len(p) for p in some] == [500, 500, 234]


@pytest.mark.slow
def test_exports_are_the_tours_json_every_path(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with _library(path) as lib:
        want = "".join(s.tour.to_json() + "\n" for s in lib.tours.iter_tours())
        n = lib.tours.count()
    for threshold in (10**9, 100):  # NumPy, then compiled with the reading thread
        kio.COMPILE_EXPORT_ROWS, old = threshold, kio.COMPILE_EXPORT_ROWS
        try:
            with Library(path, readonly=True) as lib:
                out = io.StringIO()
                assert kio.export(lib, out) == n
                assert out.getvalue() == want
                out = io.StringIO()
                assert kio.export(lib, out, limit=777) == 777
                assert out.getvalue() == "".join(want.splitlines(keepends=True)[:777])
        finally:
            kio.COMPILE_EXPORT_ROWS = old
    # to a file: the bytes go to the file's buffer
    with Library(path, readonly=True) as lib, open(tmp_path / "o.jsonl", "w") as f:
        kio.COMPILE_EXPORT_ROWS, old = 100, kio.COMPILE_EXPORT_ROWS
        try:
            assert kio.export(lib, f) == n
        finally:
            kio.COMPILE_EXPORT_ROWS = old
    assert (tmp_path / "o.jsonl").read_text() == want


def test_a_damaged_row_stops_the_compiled_export(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with Library(path) as lib:
        generate("8x8", 300, seed=5, db=lib, workers=1)
    db = sqlite3.connect(path)
    db.execute("UPDATE tours SET canon = zeroblob(25) WHERE id = 200")
    db.commit()
    db.close()
    kio.COMPILE_EXPORT_ROWS, old = 10, kio.COMPILE_EXPORT_ROWS
    try:
        with Library(path, readonly=True) as lib, pytest.raises(kt.InvalidInputError) as e:
            kio.export(lib, io.StringIO())
    finally:
        kio.COMPILE_EXPORT_ROWS = old
    assert "tour 200 does not decode" in str(e.value)
    db = sqlite3.connect(path)
    db.execute("UPDATE tours SET xform = '3x' WHERE id = 100")  # not an integer
    db.commit()
    db.close()
    with Library(path, readonly=True) as lib, pytest.raises(kt.InvalidInputError) as e:
        list(lib.tours.iter_packed())
    assert "damaged: a tour row has a missing or bad value" in str(e.value)


def test_cli_export_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.db"
    with _library(path):
        pass
    for fmt, extra in (("jsonl", 0), ("csv", 1)):
        assert main(["library", "export", "--db", str(path), "--format", fmt, "--limit", "5"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 5 + extra
        if fmt == "jsonl":
            assert all(kt.Tour.from_dict(json.loads(line)).to_json() == line for line in lines)
