"""The tour library on shaped boards: board keys, symmetry groups, storage and deduplication on
holes, other leapers, wrapped and 3-D boards, the migration of older libraries, ``generate`` on
shaped boards, and export and import that carry the board's fields."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import Board
from knightstour.cli import main
from knightstour.errors import InvalidInputError
from knightstour.library import Library
from knightstour.library import canonical as cf
from knightstour.library.generate import generate
from knightstour.library.io import export, import_tours
from knightstour.library.store import MIGRATIONS, RunRequest, canonical_batch, shape_of
from oldlib import old_library
from procs import interrupt_group

KT = [sys.executable, "-m", "knightstour"]

SHAPED = [
    Board(6, 6, holes=["a1", "b1"]),
    Board(8, 8, leaper="camel", holes=["a1"]),
    Board(6, 6, wrap="torus"),
    Board(5, 5, wrap="cylinder"),
    Board(4, 4, depth=3),
    Board(3, 3, depth=3, holes=["b2:2"]),
    Board(10, 10).with_corners(2),
    Board(7, 5, leaper="zebra", wrap="torus", holes=["a1", "c2"]),
]


# -- an independent statement of the symmetries -------------------------------------------------


def box_maps(board: Board) -> list[tuple[tuple[int, int, int], tuple[bool, bool, bool]]]:
    """Every map of the box as (axis permutation, reflections), from the sides alone."""
    dims = (board.width, board.height, board.depth)
    out = []
    for perm in itertools.permutations(range(3)):
        if all(dims[perm[j]] == dims[j] for j in range(3)):
            for flip in itertools.product((False, True), repeat=3):
                out.append((perm, flip))
    return out


def candidate_images(board: Board) -> list[list[int]]:
    """Every map of the box followed by every translation along the wrapped sides, each as the
    list of images of the squares, computed plainly from coordinates."""
    w, h, _ = dims = (board.width, board.height, board.depth)
    shifts = [
        range(w) if board.wrap else range(1),
        range(h) if board.wrap == "torus" else range(1),
        range(1),
    ]
    seen, out = set(), []
    for perm, flip in box_maps(board):
        for t in itertools.product(*shifts):
            image = []
            for s in range(board.area):
                c = (s % w, s // w % h, s // (w * h))
                n = [c[perm[j]] for j in range(3)]
                n = [dims[j] - 1 - n[j] if flip[j] else n[j] for j in range(3)]
                n = [(n[j] + t[j]) % dims[j] for j in range(3)]
                image.append((n[2] * h + n[1]) * w + n[0])
            if tuple(image) not in seen:
                seen.add(tuple(image))
                out.append(image)
    return out


def is_symmetry(board: Board, image: list[int]) -> bool:
    """Whether ``image`` maps the board onto itself: holes to holes, moves to moves."""
    if {image[h] for h in board.holes} != set(board.holes):
        return False
    return all(
        {image[q] for q in board.moves(s)} == set(board.moves(image[s])) for s in board.squares()
    )


def some_tour(board: Board, closed: bool = False) -> kt.Tour:
    return kt.solve(board, closed=closed, method="backtrack", time_limit=20)


# -- 1: the board key ----------------------------------------------------------------------------


@pytest.mark.parametrize("board", [Board(8, 8), Board(3, 10), Board(1, 1), *SHAPED])
def test_key_round_trip(board: Board) -> None:
    key = board.key
    assert Board.from_key(key) == board
    assert " " not in key or not board.is_plain_knight
    if board.is_plain_knight:
        assert key == board.spec  # a plain board keeps the key it always had


def test_key_names_every_hole_and_tells_boards_apart() -> None:
    mask = "\n".join("".join(".#"[(x * y) % 3 == 1] for x in range(20)) for y in range(20))
    board = Board.from_mask(mask)
    assert len(board.holes) > 40 and "more" in board.description
    assert Board.from_key(board.key) == board  # the description shortens; the key does not
    other = Board(20, 20, holes=sorted(board.holes)[:-1])
    keys = {b.key for b in (board, other, Board(20, 20), Board(20, 20, wrap="torus"))}
    assert len(keys) == 4


@pytest.mark.parametrize(
    "text",
    ["", "8x8 holes=", "8x8 wrap=sphere", "8x8 holes=a1 holes=b1", "8x8 holes=c1-a1", "8x8 x"],
)
def test_bad_keys_are_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        Board.from_key(text)


# -- 2: the groups ---------------------------------------------------------------------------


@pytest.mark.parametrize("board", SHAPED)
def test_group_is_exactly_the_symmetries(board: Board) -> None:
    """The library's group is every candidate map that is a symmetry (checked here from the
    board's own moves), and nothing else."""
    grp = cf.shape_group(board)
    mine = {tuple(grp.apply(g, np.arange(board.area)).tolist()) for g in range(grp.order)}
    assert len(mine) == grp.order
    expected = {tuple(i) for i in candidate_images(board) if is_symmetry(board, i)}
    assert mine == expected


def test_groups_of_known_boards() -> None:
    assert cf.shape_group(Board(8, 8, holes=["a1"])).order == 2  # the a1-h8 diagonal
    assert cf.shape_group(Board(8, 8, holes=["a1", "h1", "a8", "h8"])).order == 8
    assert cf.shape_group(Board(6, 6, wrap="cylinder")).order == 4 * 6  # no diagonal
    assert cf.shape_group(Board(6, 6, wrap="torus")).order == 8 * 36
    assert cf.shape_group(Board(4, 4, depth=4)).order == 48
    assert cf.shape_group(Board(4, 4, depth=2)).order == 16


# -- 3: canonical forms and packing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "closed"),
    [
        (Board(6, 6, holes=["a1", "b1"]), True),
        (Board(6, 6, wrap="torus"), True),
        (Board(6, 6, wrap="torus"), False),
        (Board(4, 4, depth=3), False),
        (Board(10, 10).with_corners(2), False),
        (Board(5, 5, wrap="cylinder"), False),
    ],
)
def test_every_image_has_one_canonical_form(board: Board, closed: bool) -> None:
    t = some_tour(board, closed)
    key, _ = cf.canonical_form(board, t.indices, closed)
    assert len(key) == cf.key_length(board)
    rng = np.random.default_rng(1)
    images = [i for i in candidate_images(board) if is_symmetry(board, i)]
    for image in [images[k] for k in rng.choice(len(images), min(len(images), 12), False)]:
        p = np.array(image)[t.indices]
        for q in (p, p[::-1]):
            q = np.roll(q, int(rng.integers(q.size))) if closed else q
            k2, c2 = cf.canonical_form(board, q, closed)
            assert k2 == key
            back = cf.apply_transform(board, cf.unpack(board, k2), c2)
            assert back.tolist() == q.tolist()  # the code turns the form back into the tour


def test_packing_holds_only_the_squares_and_finds_damage() -> None:
    board = Board(8, 8).with_corners(3)  # 40 squares of 64
    t = some_tour(board)
    batch = canonical_batch(board, False, t.indices[None, :])
    assert batch.keys.shape[1] == cf.key_length(board) == 1 + (3 * 39 + 7) // 8
    tours, ok = cf.decode_batch(board, batch.keys, batch.codes, False)
    assert ok.all() and tours[0].tolist() == t.indices.tolist()
    damaged = batch.keys.copy()
    damaged[0, 3] ^= 0xFF
    _, ok = cf.decode_batch(board, damaged, batch.codes, False)
    assert not ok[0]


# -- 4: storing and deduplicating ----------------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [Board(6, 6, holes=["a1", "b1"]), Board(6, 6, wrap="torus"), Board(4, 4, depth=3)],
)
def test_images_are_stored_once(board: Board) -> None:
    t = some_tour(board)
    images = [i for i in candidate_images(board) if is_symmetry(board, i)]
    views = [t, t.reversed()] + [kt.Tour(board, np.array(i)[t.indices]) for i in images[1:6]]
    with Library(":memory:") as lib:
        assert lib.tours.add(views) == 1
        assert lib.tours.count(board) == 1 and lib.tours.count() == 1
        (stored,) = lib.tours.list()
        assert stored.tour == t and stored.board == board
        assert stored.info()["board"] == board.key


def test_leaper_board_dedupes() -> None:
    board = Board(8, 8, leaper="giraffe", wrap="torus")
    t = some_tour(board)
    mirrored = [(s // 8) * 8 + 7 - s % 8 for s in t.indices.tolist()]
    shifted = [(s // 8) * 8 + (s % 8 + 3) % 8 for s in t.indices.tolist()]
    with Library(":memory:") as lib:
        assert lib.tours.add([t, kt.Tour(board, mirrored), kt.Tour(board, shifted)]) == 1


def test_same_squares_on_different_boards_do_not_collide() -> None:
    """A plain 8x8 tour is also a tour of the 8x8 torus (and of the cylinder): three boards,
    three tours, each found again on its own board only."""
    plain = some_tour(Board(8, 8))
    boards = [Board(8, 8), Board(8, 8, wrap="torus"), Board(8, 8, wrap="cylinder")]
    with Library(":memory:") as lib:
        for b in boards:
            assert lib.tours.add([kt.Tour(b, plain.indices)]) == 1
        assert lib.tours.add([kt.Tour(b, plain.indices) for b in boards]) == 0
        assert lib.tours.count() == 3
        assert [lib.tours.count(b) for b in boards] == [1, 1, 1]
        assert {t.board for t in lib.tours.iter_tours()} == set(boards)
        assert lib.tours.count("8x8 wrap=torus") == 1  # a key names the board too
        assert [s["board"] for s in lib.gallery.stats()] == [
            "8x8",
            "8x8 wrap=cylinder",
            "8x8 wrap=torus",
        ]


# -- 5: the migration ------------------------------------------------------------------------------


def test_old_library_migrates_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    tours = [some_tour(Board(5, 5)), some_tour(Board(6, 6), True), some_tour(Board(3, 4))]
    rows = old_library(path, tours)
    with Library(path, readonly=True) as lib:  # read as it is, before any migration
        assert lib.tours.count() == 3 and lib.tours.count(Board(5, 5, wrap="torus")) == 0
        assert [t.tour for t in lib.tours.iter_tours()] == tours
        assert not lib.tours.holds_shapes()
    with Library(path) as lib:  # migrates
        assert lib.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        after = lib.db.execute(
            "SELECT id, width, height, closed, canon, xform, start_sq, end_sq, method, seed, "
            "run, created FROM tour_rows ORDER BY id"  # the tours with their kinds' boards
        ).fetchall()
        assert after == rows  # every row, with its id
        assert lib.db.execute("SELECT DISTINCT shape FROM tour_rows").fetchall() == [("",)]
        assert [(t.id, t.tour, t.seed, t.created) for t in lib.tours.iter_tours()] == [
            (10 * i + 3, t, i, 1000 + i) for i, t in enumerate(tours)
        ]
        # the unique constraint still holds for the old rows, and now keeps shapes apart
        assert lib.tours.add([tours[0].reversed()]) == 0
        assert lib.tours.add([kt.Tour(Board(6, 6, wrap="torus"), tours[1].indices)]) == 1
        assert lib.tours.count() == 4
        run = lib.runs.resumable(RunRequest(Board(5, 5), False, None, "auto", 7, 9))
        assert run is not None and run.id == 1  # the old run is found, as a plain board's
        torus = RunRequest(Board(5, 5, wrap="torus"), False, None, "auto", 7, 9)
        assert lib.runs.resumable(torus) is None
        assert lib.tours.add([some_tour(Board(5, 5))]) == 0
    with Library(path) as lib:  # opening again migrates nothing more
        assert lib.tours.count() == 4


def test_a_library_of_schema_4_is_keyed_by_kind_and_loses_nothing(tmp_path: Path) -> None:
    """Migration 5 makes the tours' kinds a table and keys the tours by kind and canonical
    form: every row and id kept, each kind once, the key still refusing a tour held."""
    path = tmp_path / "v4.db"
    torus = Board(6, 6, wrap="torus")
    tours = [some_tour(Board(5, 5)), some_tour(Board(6, 6), True), some_tour(torus)]
    tours.append(kt.Tour(torus, tours[1].indices))  # a tour of two boards: two kinds
    rows = old_library(path, tours, version=4)
    with Library(path, readonly=True) as lib:  # read as it is: the boards from the old columns
        assert lib.version == 4
        assert [lib.tours.count(t.board, t.closed) for t in tours] == [1, 1, 2, 2]
        assert [s["tours"] for s in lib.gallery.stats()] == [1, 1, 2]
    with Library(path) as lib:
        assert lib.version == len(MIGRATIONS)
        after = lib.db.execute(
            "SELECT id, width, height, shape, closed, canon, xform, start_sq, end_sq, method, "
            "seed, run, created FROM tour_rows ORDER BY id"
        ).fetchall()
        assert after == rows  # every row, with its id
        kinds = lib.db.execute("SELECT width, height, shape, closed FROM kinds").fetchall()
        assert sorted(kinds) == [(5, 5, "", 0), (6, 6, "", 1), (6, 6, "6x6 wrap=torus", 0)]
        assert [lib.tours.count(t.board, t.closed) for t in tours] == [1, 1, 2, 2]
        assert [s["tours"] for s in lib.gallery.stats()] == [1, 1, 2]
        assert lib.tours.add([t.reversed() for t in tours]) == 0  # the key holds
        assert lib.tours.add([kt.Tour(torus, tours[1].indices, closed=True)]) == 1  # a new kind
        assert lib.db.execute("SELECT count(*) FROM kinds").fetchone()[0] == 4
        assert [t.tour for t in lib.tours.iter_tours()][:4] == tours


def test_a_tour_of_a_kind_not_in_the_kinds_table_is_named_as_damage(tmp_path: Path) -> None:
    with Library(tmp_path / "k.db") as lib:
        lib.tours.add([some_tour(Board(5, 5)), some_tour(Board(6, 6))])
        lib.db.execute("UPDATE tours SET kind = 99 WHERE id = 2")
        assert lib.tours.get(1).board == Board(5, 5)
        for read in (lambda: lib.tours.get(2), lambda: list(lib.tours.iter_packed())):
            with pytest.raises(InvalidInputError, match=r"damaged: .*kind is missing"):
                read()


# -- 6: generate -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "closed", "count"),
    [
        (Board(8, 8, wrap="torus"), False, 60),
        (Board(6, 6, holes=["a1", "b1"]), True, 20),
        (Board(4, 4, depth=4), False, 20),
        (Board(10, 10).with_corners(2), True, 10),
    ],
)
def test_generate_stores_valid_distinct_tours(board: Board, closed: bool, count: int) -> None:
    seen = []
    with Library(":memory:") as lib:
        r = generate(
            board, count, closed=closed, seed=5, db=lib, workers=1,
            progress=lambda done, total: seen.append((done, total)),
        )  # fmt: skip
        assert r.added == count == lib.tours.count(board, closed)
        assert seen[-1] == (count, count)
        forms = set()
        for st in lib.tours.iter_tours(board, closed):  # each decoded and validated as it is read
            assert st.board == board and st.closed == closed
            assert st.tour.indices.size == board.size
            forms.add(cf.canonical_form(board, st.tour.indices, closed)[0])
        assert len(forms) == count


def test_generate_is_reproducible_by_seed() -> None:
    board = Board(7, 7, wrap="cylinder")
    runs = []
    for _ in range(2):
        with Library(":memory:") as lib:
            generate(board, 30, seed=11, db=lib, workers=1, method="warnsdorff")
            runs.append(sorted((t.seed, t.tour.path[0]) for t in lib.tours.iter_tours()))
    assert runs[0] == runs[1]


@pytest.mark.slow
def test_generate_cli_on_shaped_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    argv = ["generate", "8x8", "--wrap", "torus", "--count", "25", "--seed", "1", "--db", db, "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert re.match(r"added 25 new 8x8 wrap=torus open tours in .* s \(.*\); .* holds 25", out)
    mask = tmp_path / "board.txt"
    mask.write_text(".....\n.....\n..#..\n.....\n.....\n")
    assert main(["generate", "--mask", str(mask), "--count", "5", "--db", db, "-q"]) == 0
    assert "5x5 holes=c3 open" in capsys.readouterr().out
    assert main(["generate", "4x4x3", "--holes", "a1:1", "--count", "5", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert main(["generate", "8x8", "--leaper", "zebra", "--count", "2", "--db", db]) == 1
    assert main(["generate", "8x8", "--holes", "z9", "--count", "2", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "z9 is off the 8x8 board" in err
    assert main(["generate", "6x6", "--holes", "a1", "--all", "--db", db]) == 2
    assert "use --count N" in capsys.readouterr().err

    assert main(["library", "list", "--db", db, "--limit", "40"]) == 0
    out = capsys.readouterr().out
    assert "8x8 wrap=torus" in out and "5x5 holes=c3" in out and "4x4x3 holes=a1:1" in out
    assert main(["library", "stats", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "8x8 wrap=torus open: 25 tours (warnsdorff 25)" in out
    assert "4x4x3 holes=a1:1 open: 5 tours" in out
    assert main(["library", "stats", "--db", db, "--format", "json"]) == 0
    kinds = json.loads(capsys.readouterr().out)["kinds"]
    assert {k["board"]: k["tours"] for k in kinds} == {
        "4x4x3 holes=a1:1": 5, "5x5 holes=c3": 5, "8x8 wrap=torus": 25,
    }  # fmt: skip
    for board_args in (["--board", "8x8 wrap=torus"], ["--board", "8x8", "--wrap", "torus"]):
        assert main(["library", "export", "--db", db, "--format", "jsonl", *board_args]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 25 and all(json.loads(x)["wrap"] == "torus" for x in lines)
    assert main(["library", "export", "--db", db, "--board", "8x8 wrap=moebius"]) == 2


# -- 7: export and import --------------------------------------------------------------------------


@pytest.mark.slow
def test_export_import_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = [
        Board(6, 6),
        Board(6, 6, wrap="torus"),
        Board(4, 4, depth=3),
        Board(6, 6, holes=[0, 1]),
    ]
    with Library(":memory:") as lib:
        for b in boards:
            generate(b, 6, seed=2, db=lib, workers=1)
        held = sorted((t.board.key, t.tour.path) for t in lib.tours.iter_tours())
        for fmt in ("jsonl", "csv"):
            f = tmp_path / f"all.{fmt}"
            with open(f, "w", newline="" if fmt == "csv" else None) as out:
                assert export(lib, out, fmt=fmt) == 24
            with Library(":memory:") as other, open(f, newline="" if fmt == "csv" else None) as src:
                r = import_tours(other, src, fmt=fmt)
                assert (r.read, r.added) == (24, 24)
                assert sorted((t.board.key, t.tour.path) for t in other.tours.iter_tours()) == held
                with open(f, newline="" if fmt == "csv" else None) as again:
                    assert import_tours(other, again, fmt=fmt).added == 0
        plain_csv = tmp_path / "plain.csv"
        with open(plain_csv, "w", newline="") as out:
            export(lib, out, fmt="csv", board="6x6")
        header = plain_csv.read_text().splitlines()[0]
        assert header == "id,width,height,closed,method,start,end,seed,created,path"
    lines = (tmp_path / "all.jsonl").read_text().splitlines()

    def crosses_the_seam(line: str) -> bool:
        xy = json.loads(line)["xy"]
        return any(abs(a[0] - b[0]) > 2 or abs(a[1] - b[1]) > 2 for a, b in itertools.pairwise(xy))

    torus = next(x for x in lines if '"wrap":"torus"' in x and crosses_the_seam(x))
    data = json.loads(torus)
    assert kt.Tour.from_dict(data).board == Board(6, 6, wrap="torus")
    assert torus == kt.Tour.from_dict(data).to_json()  # exactly the tour JSON
    one = tmp_path / "one.json"
    one.write_text(torus)  # a move crosses the seam: valid only as read with its wrap
    assert main(["validate", str(one)]) == 0
    assert "valid open tour on 6x6" in capsys.readouterr().out


def test_import_of_a_broken_shaped_tour_stores_nothing() -> None:
    board = Board(6, 6, wrap="torus")
    good = some_tour(board).to_json()
    bad = json.loads(good)
    bad["wrap"] = None  # the same squares on the plain board: a move crosses the edge
    with Library(":memory:") as lib:
        with pytest.raises(InvalidInputError, match="line 2: not a valid tour"):
            import_tours(lib, [good, json.dumps(bad)])
        assert lib.tours.count() == 0


def test_shape_column_is_empty_for_plain_boards() -> None:
    assert shape_of(Board(8, 8)) == ""
    assert shape_of(Board(8, 8, holes=["a1"])) == "8x8 holes=a1"


# -- 8: Ctrl-C -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_ctrl_c_on_a_shaped_board(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    argv = [*KT, "generate", "30x30", "--wrap", "torus", "--count", "100000000", "-q",
            "--workers", "1", "--db", str(db)]  # fmt: skip
    proc = subprocess.Popen(
        argv, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until the first tours are committed
        time.sleep(0.2)
        if db.exists():
            try:
                with Library(db, readonly=True) as lib:
                    if lib.tours.count() > 0:
                        break
            except InvalidInputError:
                pass
    _, err = interrupt_group(proc)  # how soon it stops: benchmarks/bench_stops.py
    assert proc.returncode == 130, err
    assert re.fullmatch(r"knightstour: stopped; [\d,]+ tours kept\n", err), err
    kept = int(re.search(r"([\d,]+) tours", err).group(1).replace(",", ""))
    with Library(db, readonly=True) as lib:
        assert lib.tours.count() == kept > 0
