"""The gallery's JSON twins (``knightstour serve --db``): the library's boards and counts, pages
of tours with keyset cursors, filters, one tour, two compared; read-only; no library, or a file
that is not one, refused with a clear error; a big library paged by keys (100,000 tours with
``--all``; how fast: benchmarks/bench_web_page.py).
"""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import knightstour as kt
import tiers
from gallery_data import big_library, small_library
from knightstour.errors import InvalidInputError
from knightstour.library import gallery as gallery_module
from knightstour.library.gallery import Gallery, TourFilter
from knightstour.library.generate import generate
from knightstour.library.store import Library
from knightstour.web.app import Limits, create_app


@pytest.fixture(scope="module")
def lib_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_library(tmp_path_factory.mktemp("gallery") / "tours.db")


@pytest.fixture(scope="module")
def api(lib_path: Path) -> TestClient:
    return TestClient(create_app(warm=False, library=lib_path))


@pytest.mark.slow
def test_the_overview(api: TestClient) -> None:
    over = api.get("/api/library").json()
    assert over["library"] == "tours.db"
    assert over["tours"] == 40 + 20 + 12 + 2
    kinds = {(b["board"], b["closed"]): b for b in over["boards"]}
    assert kinds[("8x8", False)]["tours"] == 42
    assert kinds[("8x8", False)]["methods"]["magic"] == 2
    assert kinds[("6x6", True)]["tours"] == 20
    assert kinds[("5x5", False)]["tours"] == 12
    assert over["methods"]["magic"] == 2
    assert api.get("/api/about").json()["library"] == "tours.db"


def test_pages_walk_the_library_in_id_order_both_ways(api: TestClient) -> None:
    seen: list[int] = []
    page = api.get("/api/library/tours", params={"limit": 10}).json()
    assert page["prev"] is None and page["count"] == 74
    while True:
        seen += [t["id"] for t in page["tours"]]
        if page["next"] is None:
            break
        page = api.get("/api/library/tours", params={"limit": 10, "after": page["next"]}).json()
    assert seen == sorted(seen) and len(seen) == len(set(seen)) == 74
    # and back, with the before cursor
    back: list[int] = []
    while page["prev"] is not None:
        page = api.get("/api/library/tours", params={"limit": 10, "before": page["prev"]}).json()
        back = [t["id"] for t in page["tours"]] + back
    assert back + seen[-4:] == seen


@pytest.mark.parametrize(
    ("params", "count", "check"),
    [
        ({"board": "6x6"}, 20, lambda t: t["board"] == "6x6" and t["closed"]),
        ({"closed": "true"}, 20, lambda t: t["closed"]),
        ({"closed": "false", "board": "8x8"}, 42, lambda t: not t["closed"]),
        ({"method": "magic"}, 2, lambda t: t["method"] == "magic"),
        ({"magic": "true"}, 2, lambda t: t["method"] == "magic"),
        ({"method": "nothing-like-it"}, 0, lambda t: False),
        ({"board": "7x7"}, 0, lambda t: False),
    ],
)
def test_filters(api: TestClient, params: dict, count: int, check) -> None:  # type: ignore[no-untyped-def]
    page = api.get("/api/library/tours", params={**params, "limit": 100}).json()
    assert page["count"] == count == len(page["tours"])
    assert all(check(t) for t in page["tours"])


def test_a_tour_and_its_thumbnail(api: TestClient) -> None:
    page = api.get("/api/library/tours", params={"magic": "true"}).json()
    first = page["tours"][0]
    t = api.get(f"/api/library/tours/{first['id']}").json()
    tour = kt.Tour.from_dict(t)  # the contract's tour JSON
    assert t["magic"] == "semi-magic" and tour.magic().verdict == "semi-magic"
    assert first["thumb"] == tour.indices.tolist() and first["thumb_step"] == 1
    assert (t["start"], t["end"]) == (tour.path[0], tour.path[-1])
    plain = api.get("/api/library/tours", params={"board": "5x5", "limit": 1}).json()["tours"][0]
    assert api.get(f"/api/library/tours/{plain['id']}").json()["magic"] == "neither"


def test_compare_names_the_shared_moves(api: TestClient) -> None:
    ids = [
        t["id"] for t in api.get("/api/library/tours", params={"board": "6x6"}).json()["tours"][:2]
    ]
    c = api.get("/api/library/compare", params={"a": ids[0], "b": ids[1]}).json()
    a, b = kt.Tour.from_dict(c["a"]), kt.Tour.from_dict(c["b"])

    def moves(t: kt.Tour) -> set[frozenset[str]]:
        p = [*t.path, t.path[0]]  # closed
        return {frozenset(m) for m in itertools.pairwise(p)}

    assert {frozenset(m) for m in c["shared"]} == moves(a) & moves(b)
    assert c["shared_count"] == len(moves(a) & moves(b)) and c["moves"] == [36, 36]
    other = api.get("/api/library/tours", params={"board": "5x5", "limit": 1}).json()["tours"][0]
    r = api.get("/api/library/compare", params={"a": ids[0], "b": other["id"]})
    assert r.status_code == 400 and "different boards" in r.json()["error"]


def test_missing_tours_and_bad_cursors(api: TestClient, lib_path: Path) -> None:
    r = api.get("/api/library/tours/99999")
    # the library by its name: the server's own paths are not the client's business
    assert r.status_code == 404 and r.json() == {"error": f"no tour 99999 in {lib_path.name}"}
    r = api.get("/api/library/compare", params={"a": 1, "b": 99999})
    assert r.status_code == 404 and r.json() == {"error": f"no tour 99999 in {lib_path.name}"}
    r = api.get("/api/library/tours", params={"after": 3, "before": 9})
    assert r.status_code == 400 and r.json() == {
        "error": "give one cursor, after or before, not both"
    }
    assert api.get("/api/library/tours", params={"after": -1}).status_code == 422
    assert api.get("/api/library/tours", params={"limit": 0}).status_code == 422
    r = api.get("/api/library/tours", params={"board": "9x9 leaper=99"})
    assert r.status_code == 400 and set(r.json()) == {"error"}


def test_the_library_is_only_read(api: TestClient, lib_path: Path) -> None:
    before = lib_path.stat().st_mtime_ns
    api.get("/api/library")
    api.get("/api/library/tours")
    assert lib_path.stat().st_mtime_ns == before
    assert (
        "library" in api.get("/openapi.json").json()["paths"]["/api/library/tours"]["get"]["tags"]
    )
    assert api.post("/api/library/tours").status_code == 405


def test_no_library_here() -> None:
    api = TestClient(create_app(warm=False))
    for path in (
        "/api/library",
        "/api/library/tours",
        "/api/library/tours/1",
        "/api/library/compare?a=1&b=2",
    ):
        r = api.get(path)
        assert r.status_code == 404
        assert r.json() == {
            "error": "this server shows no tour library: start it with knightstour serve --db FILE"
        }
    assert api.get("/api/about").json()["library"] is None


@pytest.mark.slow
def test_a_file_that_is_not_a_library_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused by the app and by ``knightstour serve --db`` (exit 2, one line): the command run
    in this process for each file (a server it started would fail the test, not hang it), and
    once as a real program."""
    from knightstour.cli import main
    from knightstour.web import server

    def no_server(*args: object, **kwargs: object) -> None:
        raise AssertionError("serve started a server for a file that is not a library")

    monkeypatch.setattr(server, "serve", no_server)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text)")
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    for path, words in [
        (other, "is an SQLite file but not a tour library"),
        (text, "is not a tour library"),
        (tmp_path / "missing.db", "no tour library at"),
    ]:
        with pytest.raises(InvalidInputError, match=words):
            create_app(warm=False, library=path)
        assert main(["serve", "--db", str(path), "--port", "0"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and words in err and err.count("\n") == 1, err
    run = subprocess.run(
        [sys.executable, "-m", "knightstour", "serve", "--db", str(other), "--port", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert "is an SQLite file but not a tour library" in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert other.read_bytes()[:16] == b"SQLite format 3\x00"  # untouched


def test_a_library_that_goes_bad_while_shown_is_one_clear_503(
    lib_path: Path, tmp_path: Path
) -> None:
    """Replaced by another SQLite file, or removed, under the running server: the server's
    trouble (HTTP 503, not 400 "bad input"), one line naming the file by its name; and
    readable again once it is back."""
    shown = tmp_path / "shown.db"
    shown.write_bytes(lib_path.read_bytes())
    api = TestClient(create_app(warm=False, library=shown))
    assert api.get("/api/library/tours/1").status_code == 200
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE notes (text)")
    shown.write_bytes((tmp_path / "other.db").read_bytes())
    for path in ("/api/library", "/api/library/tours", "/api/library/tours/1",
                 "/api/library/compare?a=1&b=2"):  # fmt: skip
        r = api.get(path)
        assert r.status_code == 503, (path, r.text)
        assert r.json() == {
            "error": "the tour library cannot be read: shown.db is an SQLite file but not a "
            "tour library; not touching it"
        }
    shown.unlink()
    r = api.get("/api/library/tours/2")
    assert r.status_code == 503 and str(tmp_path) not in r.json()["error"]
    shown.write_bytes(lib_path.read_bytes())
    assert api.get("/api/library/tours/2").status_code == 200


# -- a big library: 100,000 tours with --all (make test-all), 2,000 in the default tier ----------

#: 8x8 tours in the big library (a few 6x6 closed ones follow them).
BIG = 100_000 if tiers.WHOLE else 2_000


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return big_library(tmp_path_factory.mktemp("big") / "big.db", tours=BIG)


@pytest.mark.slow
def test_a_big_library_pages_by_keys_deep_in(big: Path) -> None:
    """Keyset pages from the start, deep in and at the end, a filter that keeps only the last
    rows, and backwards. How fast a page is: benchmarks/bench_web_page.py (100,000 tours)."""
    api = TestClient(create_app(warm=False, library=big))
    assert api.get("/api/library").json()["tours"] == BIG + 30
    page = api.get("/api/library/tours").json()
    for _ in range(5):  # the first pages
        last = page["tours"][-1]["id"]
        page = api.get("/api/library/tours", params={"after": page["next"]}).json()
        assert page["tours"][0]["id"] == last + 1
    for after in (BIG // 2, BIG - 10):  # deep in
        page = api.get("/api/library/tours", params={"after": after}).json()
        assert page["tours"][0]["id"] == after + 1
    page = api.get("/api/library/tours", params={"board": "6x6"}).json()
    assert page["count"] == 30
    params = {"before": BIG + 1, "board": "8x8"}
    page = api.get("/api/library/tours", params=params).json()
    assert page["tours"][-1]["id"] == BIG and page["next"] is None


def test_the_gallery_counts_each_filter_once_a_while(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A filter's count is kept a while, not counted again for every page of an unchanged file;
    tours stored meanwhile (in the WAL, the main file unchanged) show in it once the while is
    over. (A file replaced or changed is counted afresh at once: the tests of item 11 below.)"""
    from knightstour.library.store.gallery import GalleryQueries

    db = tmp_path / "g.db"
    # through SQLite, not the file's bytes: the fixture's last writes may sit in its WAL while
    # another test of this process still reads it
    with sqlite3.connect(big) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    g = Gallery(db)
    counted: list[TourFilter] = []
    real = GalleryQueries.count

    def count(self: GalleryQueries, kept: TourFilter | None = None) -> int:
        counted.append(kept)
        return real(self, kept)

    monkeypatch.setattr(GalleryQueries, "count", count)
    first = g.page(TourFilter(method="warnsdorff"))["count"]
    for after in (100, 500, 900):
        assert g.page(TourFilter(method="warnsdorff"), after=after)["count"] == first
    assert len(counted) == 1
    with Library(db) as lib:  # a writer: its tours in the WAL until it closes
        assert generate("8x8", 12, seed=3, db=lib, workers=1).added == 12  # by Warnsdorff
        assert g.page(TourFilter(method="warnsdorff"), after=500)["count"] == first
        monkeypatch.setattr(gallery_module, "OVERVIEW_SECONDS", 0.0)
        assert g.page(TourFilter(method="warnsdorff"), after=500)["count"] == first + 12


# -- the gallery's own lane (issue 29, item 10) ------------------------------------------------


def test_the_gallery_reads_in_a_lane_of_its_own(
    lib_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every read of the library runs on the gallery lane's threads (never FastAPI's pool, nor
    the quick lane's); with that lane full, one more gallery request is 503 with Retry-After
    while a quick solve still answers. How quickly under load: benchmarks/bench_web.py."""
    import asyncio

    import httpx

    app = create_app(
        Limits(gallery_workers=1, queue=1, time_limit=60), warm=False, library=lib_path
    )
    threads: list[str] = []
    release = threading.Event()
    real_page, real_tour = Gallery.page, Gallery.tour

    def page(self: Gallery, *args: Any, **kwargs: Any) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        assert release.wait(60), "never released"
        return real_page(self, *args, **kwargs)

    def tour(self: Gallery, tour_id: int) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return real_tour(self, tour_id)

    monkeypatch.setattr(Gallery, "page", page)
    monkeypatch.setattr(Gallery, "tour", tour)

    async def script(c: httpx.AsyncClient) -> dict[str, Any]:
        held = [asyncio.create_task(c.get("/api/library/tours")) for _ in range(2)]
        try:
            for _ in range(3000):  # one running, one waiting: the lane is full
                if threads and app.state.server.lane("gallery").in_flight == 2:
                    break
                await asyncio.sleep(0.01)
            refused = await c.get("/api/library/tours/1")
            quick = await c.get("/api/solve", params={"board": "5x5", "start": "a1"})
            waiting = not any(t.done() for t in held)
        finally:
            release.set()
        pages = await asyncio.gather(*held)
        return {"refused": refused, "quick": quick, "waiting": waiting, "pages": pages,
                "tour": await c.get("/api/library/tours/1")}  # fmt: skip

    async def main() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return await script(c)

    out = asyncio.run(main())
    assert out["waiting"], "the gallery's requests were not held while the solve answered"
    assert out["quick"].status_code == 200 and len(out["quick"].json()["path"]) == 25
    refused = out["refused"]
    assert refused.status_code == 503 and "gallery" in refused.json()["error"]
    assert int(refused.headers["retry-after"]) >= 1
    assert [r.status_code for r in out["pages"]] == [200, 200]
    assert out["tour"].status_code == 200 and out["tour"].json()["id"] == 1
    assert threads and all(name.startswith("knightstour-gallery") for name in threads), threads


# -- a library replaced or removed while shown (issue 29, item 11) -------------------------------


def _other_library(path: Path) -> Path:
    """A tour library other than the small one: 10 tours of 5x6."""
    with Library(path) as lib:
        generate("5x6", 10, seed=9, db=lib, workers=1)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("how", ["renamed over", "copied over", "removed, then put back"])
def test_a_library_replaced_while_shown_is_read_afresh_at_the_next_request(
    lib_path: Path, tmp_path: Path, how: str
) -> None:
    """Another library put at the path (a rename over it, a copy over it, or removed and
    another put back) is what the next request shows: its boards, its tours, its counts; never
    the old file's kept overview, nor an error."""
    shown = tmp_path / "shown.db"
    shown.write_bytes(lib_path.read_bytes())
    other = _other_library(tmp_path / "other.db")
    api = TestClient(create_app(warm=False, library=shown))
    assert api.get("/api/library").json()["tours"] == 74  # kept now (the overview, 30 s)
    assert api.get("/api/library/tours", params={"board": "8x8"}).json()["count"] == 42
    assert api.get("/api/library/tours/1").json()["width"] == 8
    if how == "renamed over":
        other.replace(shown)
    elif how == "copied over":
        shown.write_bytes(other.read_bytes())
    else:
        shown.unlink()
        assert api.get("/api/library").status_code == 503
        shown.write_bytes(other.read_bytes())
    over = api.get("/api/library").json()
    assert over["tours"] == 10 and [b["board"] for b in over["boards"]] == ["5x6"]
    page = api.get("/api/library/tours").json()
    assert page["count"] == 10 and {t["board"] for t in page["tours"]} == {"5x6"}
    assert api.get("/api/library/tours", params={"board": "8x8"}).json()["count"] == 0
    tour = api.get("/api/library/tours/1").json()
    assert (tour["width"], tour["height"]) == (5, 6)
    kt.Tour.from_dict(tour)  # a tour of the contract, valid


def test_a_library_removed_while_shown_is_503_at_the_next_request(
    lib_path: Path, tmp_path: Path
) -> None:
    """The file removed under a healthy, open library: every gallery request is 503 naming the
    file by its name (an open connection would go on answering from the removed file), and
    the library is shown again once it is back."""
    shown = tmp_path / "shown.db"
    shown.write_bytes(lib_path.read_bytes())
    api = TestClient(create_app(warm=False, library=shown))
    for path in ("/api/library", "/api/library/tours", "/api/library/tours/1"):
        assert api.get(path).status_code == 200
    shown.unlink()
    for path in ("/api/library", "/api/library/tours", "/api/library/tours/1",
                 "/api/library/compare?a=1&b=2"):  # fmt: skip
        r = api.get(path)
        assert r.status_code == 503, (path, r.text)
        assert r.json() == {"error": "the tour library cannot be read: shown.db was removed"}
    shown.write_bytes(lib_path.read_bytes())
    assert api.get("/api/library").json()["tours"] == 74


def test_the_semi_magic_classes_by_family(api: TestClient) -> None:
    """The twin of the gallery's classes panel: what ``magic 8x8 --classes --format json``
    prints, for the library shown; each page's semi-magic tour names its class's family."""
    from knightstour.magic.classes import describe
    from knightstour.magic.construct import construct

    data = api.get("/api/library/magic-classes", params={"board": "8x8"}).json()
    want = [describe(kt.Tour("8x8", construct(8, 8, seed=s))) for s in (1, 2)]
    assert data["library"] == "tours.db" and data["classes"] == len({c.order for c in want})
    families = {f: sum(c.family == f for c in want) for f in ("quads", "quarters", "irregular")}
    assert {f: v["classes"] for f, v in data["families"].items()} == families
    assert sorted(tuple(c["path"]) for c in data["tours"]) == sorted(
        tuple(kt.Board(8, 8).square_name(s) for s in c.order) for c in want
    )
    assert data["published"]["classes"] == 140
    page = api.get("/api/library/tours", params={"magic": "true"}).json()
    got = {tuple(t["magic_class"].values()) for t in page["tours"]}
    assert got == {(c.family, c.range, c.closed, c.verdict) for c in want}
    plain = api.get("/api/library/tours", params={"board": "5x5", "limit": 1}).json()
    assert "magic_class" not in plain["tours"][0]
    for bad in ("8x8x2", "x", "1" * 12):
        r = api.get("/api/library/magic-classes", params={"board": bad})
        assert r.status_code in (400, 422) and r.json()["error"]
