"""End-to-end, the gallery (``knightstour serve --db``, issue 15 item 4): boards and counts, the
filters, pages of thumbnails, a tour opened on the board to replay, two tours side by side with
their shared moves, and a big library paged in the browser (100,000 tours with ``--all``; how
fast a page is: benchmarks/bench_web_page.py).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import tiers
from gallery_data import big_library
from knightstour.web.app import create_app
from knightstour.web.server import running_server
from web_helpers import PHONE, open_page, opened, shot

pytestmark = pytest.mark.browser

#: 8x8 tours in the big library (a few 6x6 closed ones follow them).
BIG = 100_000 if tiers.WHOLE else 2_000


@pytest.fixture(scope="module")
def big_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = big_library(tmp_path_factory.mktemp("big") / "big.db", tours=BIG)
    with running_server(create_app(library=db, warm=False)) as url:
        yield url


@pytest.fixture
def page(browser: Browser, small_library_url: str) -> Iterator[Page]:
    with opened(browser, f"{small_library_url}/gallery") as pg:
        yield pg


def ids(pg: Page) -> list[int]:
    return [int(i) for i in pg.eval_on_selector_all(".thumb", "els => els.map(e => e.dataset.id)")]


def test_boards_counts_and_a_page_of_thumbnails(page: Page, tmp_path: Path) -> None:
    rows = page.locator("#boards tbody tr")
    expect(rows).to_have_count(4)  # 5x5 open, 6x6 closed, 8x8 open, all
    expect(page.locator("#boards")).to_contain_text("74")
    expect(page.locator("#boards")).to_contain_text("magic 2")
    expect(page.locator(".thumb")).to_have_count(24)
    expect(page.locator(".thumb svg polyline").first).to_be_visible()
    expect(page.locator("#summary")).to_have_text("74 tours match; showing 24 (ids 1 to 24).")
    expect(page.locator("#twin")).to_have_attribute("href", "api/library/tours?")
    shot(page, "web-gallery", tmp_path)


def test_the_filters(page: Page, small_library_url: str) -> None:
    page.select_option("#f-board", "6x6")
    page.select_option("#f-closed", "true")
    page.click("#filters button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert re.search(r"gallery\?board=6x6&closed=true&method=$", page.url), page.url
    expect(page.locator("#summary")).to_contain_text("20 tours match")
    expect(page.locator(".thumb")).to_have_count(20)
    twin = httpx.get(
        f"{small_library_url}/api/library/tours", params={"board": "6x6", "closed": "true"}
    ).json()
    assert ids(page) == [t["id"] for t in twin["tours"]]
    page.check("#f-magic")
    page.select_option("#f-board", "")
    page.select_option("#f-closed", "")
    page.click("#filters button[type=submit]")
    expect(page.locator("#summary")).to_contain_text("2 tours match")
    expect(page.locator(".thumb .caption").first).to_contain_text("magic")
    # the classes of the semi-magic tours, by family, beside the published census
    twin = httpx.get(f"{small_library_url}/api/library/magic-classes", params={"board": "8x8"})
    classes = twin.json()
    expect(page.locator("#classes-section")).to_be_visible()
    for fam, n in classes["families"].items():
        row = page.locator(f"#classes tbody tr[data-family={fam}]")
        expect(row).to_contain_text(f"8x8{fam}{n['classes']}{n['reentrant']}")
    expect(page.locator("#census")).to_contain_text(f"8x8: {classes['classes']} of the 140 classes")
    fams = page.eval_on_selector_all(".thumb .caption", "els => els.map(e => e.dataset.family)")
    assert sorted(fams) == sorted(c["family"] for c in classes["tours"])


def crossings(pg: Page) -> list[int]:
    return [
        int(c)
        for c in pg.eval_on_selector_all(
            ".thumb .caption", "els => els.map(e => e.dataset.crossings)"
        )
    ]


def test_the_gallery_shows_sorts_and_filters_by_crossings(
    page: Page, small_library_url: str
) -> None:
    """Issue 33: each thumbnail says its tour's crossings and turns; the order and the bound
    go into the address and give the page the API gives."""
    expect(page.locator(".thumb .caption").first).to_contain_text(
        re.compile(r"\d+ crossings, \d+ turns")
    )
    page.select_option("#f-board", "8x8")
    page.select_option("#f-order", "crossings")
    page.click("#filters button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert re.search(r"gallery\?board=8x8&closed=&method=&order=crossings$", page.url), page.url
    expect(page.locator("#f-order")).to_have_value("crossings")
    shown = crossings(page)
    assert len(shown) == 24 and shown == sorted(shown)
    twin = httpx.get(
        f"{small_library_url}/api/library/tours", params={"board": "8x8", "order": "crossings"}
    ).json()
    assert ids(page) == [t["id"] for t in twin["tours"]]
    assert shown == [t["crossings"] for t in twin["tours"]]
    page.click("#next")  # the next page goes on in the same order
    expect(page.locator(".thumb")).to_have_count(42 - 24)
    more = crossings(page)
    assert more == sorted(more) and more[0] >= shown[-1]
    bound = shown[5]
    page.fill("#f-max-crossings", str(bound))
    page.click("#filters button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert f"max_crossings={bound}" in page.url
    few = crossings(page)
    assert few and max(few) <= bound and few == sorted(few)
    count = httpx.get(
        f"{small_library_url}/api/library/tours",
        params={"board": "8x8", "order": "crossings", "max_crossings": bound},
    ).json()["count"]
    expect(page.locator("#summary")).to_contain_text(f"{count} tours match")


def test_pages_forward_and_back(page: Page) -> None:
    first = ids(page)
    page.click("#next")
    expect(page.locator("#summary")).to_contain_text("ids 25 to 48")
    assert "after=24" in page.url
    page.click("#next")
    expect(page.locator("#summary")).to_contain_text("ids 49 to 72")
    page.click("#next")
    expect(page.locator(".thumb")).to_have_count(2)
    expect(page.locator("#next")).to_be_hidden()
    page.click("#prev")
    expect(page.locator("#summary")).to_contain_text("ids 49 to 72")
    page.go_back()  # the history: the last page (2 tours), then the third again
    expect(page.locator(".thumb")).to_have_count(2)
    page.go_back()
    expect(page.locator("#summary")).to_contain_text("ids 49 to 72")
    page.click("#prev")
    expect(page.locator("#summary")).to_contain_text("ids 25 to 48")
    page.click("#prev")
    expect(page.locator("#prev")).to_be_hidden()
    assert ids(page) == first


def test_a_tour_opens_on_the_board_to_replay(page: Page, small_library_url: str) -> None:
    page.select_option("#f-board", "5x5")
    page.click("#filters button[type=submit]")
    expect(page.locator(".thumb")).to_have_count(12)
    tid = ids(page)[3]
    page.locator(".thumb a.open").nth(3).click()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#status")).to_contain_text(f"Tour {tid} of the library: open, 25 squares")
    expect(page.locator("#btn-play")).to_have_attribute("aria-pressed", "true")
    page.click("#btn-last")
    expect(page.locator("#move-label")).to_have_text("Move 25 of 25")
    tour = httpx.get(f"{small_library_url}/api/library/tours/{tid}").json()
    for k, name in enumerate(tour["path"], 1):
        expect(page.locator(f'[data-square="{name}"]')).to_have_attribute(
            "aria-label", re.compile(f", move {k}\\b")
        )
    expect(page.locator("#gallery-link")).to_be_visible()


def test_two_tours_compared_with_their_shared_moves(
    page: Page, small_library_url: str, tmp_path: Path
) -> None:
    page.select_option("#f-board", "6x6")
    page.click("#filters button[type=submit]")
    expect(page.locator(".thumb")).to_have_count(20)
    a, b = ids(page)[:2]
    page.locator(".choose").nth(0).check()
    expect(page.locator("#btn-compare")).to_be_disabled()
    page.locator(".choose").nth(1).check()
    page.click("#btn-compare")
    expect(page.locator("#compare")).to_be_visible()
    c = httpx.get(f"{small_library_url}/api/library/compare", params={"a": a, "b": b}).json()
    n = c["shared_count"]
    expect(page.locator("#compare-summary")).to_have_text(
        f"Tours #{a} and #{b} share {n} of their 36 moves."
    )
    expect(page.locator("#fig-a line.shared")).to_have_count(n)
    expect(page.locator("#fig-b line.shared")).to_have_count(n)
    expect(page.locator("#twin")).to_have_attribute("href", f"api/library/compare?a={a}&b={b}")
    shot(page, "web-compare", tmp_path)


def test_a_phone_sees_the_gallery_in_one_column(browser: Browser, small_library_url: str) -> None:
    with opened(browser, f"{small_library_url}/gallery", PHONE) as pg:
        expect(pg.locator(".thumb")).to_have_count(24)
        wide = pg.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], wide


def test_a_big_library_pages_in_the_browser(browser: Browser, big_url: str) -> None:
    with opened(browser, f"{big_url}/gallery") as pg:
        expect(pg.locator("#boards")).to_contain_text(f"{BIG + 30:,}")
        times = []
        for k in range(1, 6):
            pg.evaluate("() => { document.body.dataset.pageMs = ''; }")
            pg.click("#next")
            expect(pg.locator("#summary")).to_contain_text(f"ids {24 * k + 1} to {24 * k + 24}")
            pg.wait_for_function("() => document.body.dataset.pageMs")
            times.append(int(pg.evaluate("() => document.body.dataset.pageMs")))
        deep = BIG - 1000
        pg.goto(f"{big_url}/gallery?after={deep}")
        expect(pg.locator("#summary")).to_contain_text(f"ids {deep + 1} to {deep + 24}")
        pg.evaluate("() => { document.body.dataset.pageMs = ''; }")
        pg.click("#next")
        expect(pg.locator("#summary")).to_contain_text(f"ids {deep + 25} to {deep + 48}")
        pg.wait_for_function("() => document.body.dataset.pageMs")
        times.append(int(pg.evaluate("() => document.body.dataset.pageMs")))
        print(f"gallery pages in the browser, ms (fetch, draw, next frame): {times}")
        assert len(times) == 6 and min(times) >= 0, times  # how fast: bench_web_page.py


@pytest.fixture(scope="module")
def shaped_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A library of 3-D tours (3x4x3) and closed 10x10 ones (100 moves: 64 colour bands)."""
    from knightstour.library.generate import generate
    from knightstour.library.store import Library

    db = tmp_path_factory.mktemp("shaped") / "shaped.db"
    with Library(db) as lib:
        generate("3x4x3", 4, seed=5, db=lib, workers=1)
        generate("10x10", 2, closed=True, seed=6, db=lib, workers=1)
    with running_server(create_app(library=db, warm=False)) as url:
        yield url


def test_3d_tours_are_drawn_layer_by_layer_and_compare(browser: Browser, shaped_url: str) -> None:
    """A 3-D tour's thumbnail has its layers side by side, every point on one of them; two 3-D
    tours compare (their squares named c3:2) with the shared moves drawn."""
    with opened(browser, f"{shaped_url}/gallery?board=3x4x3") as pg:
        expect(pg.locator(".thumb")).to_have_count(4)
        for box in pg.eval_on_selector_all(
            ".thumb svg",
            """els => els.map(svg => {
              const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
              const pts = [...svg.querySelectorAll('polyline')].flatMap(p =>
                p.getAttribute('points').split(' ').map(xy => xy.split(',').map(Number)));
              return {w, h, pts};
            })""",
        ):
            assert (box["w"], box["h"]) == (3 * 3 + 2, 4)  # three 3x4 layers, a square apart
            for x, y in box["pts"]:
                assert 0 < x < box["w"] and 0 < y < box["h"] and int(x) % 4 != 3, (x, y)
        a, b = ids(pg)[:2]
        pg.goto(f"{shaped_url}/gallery?compare={a},{b}")
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        c = httpx.get(f"{shaped_url}/api/library/compare", params={"a": a, "b": b}).json()
        expect(pg.locator("#compare-summary")).to_have_text(
            f"Tours #{a} and #{b} share {c['shared_count']} of their 35 moves."
        )
        expect(pg.locator("#error")).to_be_hidden()
        expect(pg.locator("#fig-a line.shared")).to_have_count(c["shared_count"])


def test_the_compare_view_has_the_pictures_colour_bands(browser: Browser, shaped_url: str) -> None:
    """The compared tours' paths are banded as the package's pictures are: the same bounds
    (style.bands) and the same colours (style.band_colors, Python's rounding)."""
    from knightstour.render.style import band_colors, bands

    page = httpx.get(f"{shaped_url}/api/library/tours", params={"board": "10x10"}).json()
    a, b = (t["id"] for t in page["tours"][:2])
    with opened(browser, f"{shaped_url}/gallery?compare={a},{b}") as pg:
        expect(pg.locator("#compare")).to_be_visible()
        lines = pg.eval_on_selector_all(
            "#fig-a polyline",
            "els => els.map(p => [p.getAttribute('stroke'), p.getAttribute('points').split(' ').length])",
        )
        bounds = bands(100)  # a closed 10x10 tour: 100 moves, the closing one included
        want = band_colors(len(bounds) - 1, True, "")
        assert [s for s, _ in lines] == want
        assert [n for _, n in lines] == [hi - lo + 1 for lo, hi in itertools.pairwise(bounds)]


def test_a_refused_page_says_so_at_the_top(browser: Browser, small_library_url: str) -> None:
    """A page whose parameters the JSON twin refuses says why where a phone's screen shows it
    (above the boards, not under them), in the twin's own words."""
    pg, errors = open_page(browser, f"{small_library_url}/gallery?after=abc", PHONE)
    error = pg.locator("#error")
    expect(error).to_have_text(
        "after: Input should be a valid integer, unable to parse string as an integer"
    )
    expect(error).to_be_in_viewport()
    # however long the library's list of boards: the message comes first
    above, boards = error.bounding_box(), pg.locator("#boards-section").bounding_box()
    assert above is not None and boards is not None and above["y"] < boards["y"]
    pg.context.close()
    assert [e for e in errors if "status of 422" not in e] == []
