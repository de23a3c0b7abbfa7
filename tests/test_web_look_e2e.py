"""End-to-end, the look (issue 15, item 3): light and dark themes (the system's setting and the
toggle), one palette (the path on screen in the colours of a downloaded picture), big boards on
a canvas (a 100x100 tour drawn whole, keyboard and speech kept), playback of a whole tour in
about 20 s by default. How fast the canvas draws and how smoothly it plays:
benchmarks/bench_web_page.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import knightstour as kt
from knightstour.render.style import DEFAULT_COLORS, GRADIENT, MAX_BANDS
from tiers import sample
from web_helpers import DESKTOP, PHONE, opened, shot, square

pytestmark = pytest.mark.browser

# -- themes ------------------------------------------------------------------------------------


#: (scheme, the page's background, screen): two of the four every day, all with --all
THEMES = [
    (scheme, colour, screen)
    for scheme, colour in (("light", "rgb(255, 255, 255)"), ("dark", "rgb(13, 17, 23)"))
    for screen in ("desktop", "phone")
]


@pytest.mark.parametrize(
    ("scheme", "colour", "screen"), sample(THEMES, 2, seed=1, keep=[THEMES[0], THEMES[3]])
)
def test_the_theme_follows_the_system(
    browser: Browser,
    server_url: str,
    scheme: str,
    colour: str,
    screen: str,
    tmp_path: Path,
) -> None:
    viewport = DESKTOP if screen == "desktop" else PHONE
    with opened(browser, f"{server_url}/", viewport, color_scheme=scheme) as pg:
        bg = pg.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        assert bg == colour
        expect(pg.locator("#theme-toggle")).to_have_attribute(
            "aria-pressed", str(scheme == "dark").lower()
        )
        pg.select_option("#preset", "6x6")
        pg.click("#btn-solve")
        pg.click("#btn-last")
        if viewport == DESKTOP:
            shot(pg, f"web-solve-{scheme}", tmp_path)


def test_the_toggle_overrides_the_system_and_is_kept(browser: Browser, server_url: str) -> None:
    with opened(browser, f"{server_url}/", color_scheme="dark") as pg:
        html = pg.locator("html")
        pg.click("#theme-toggle")
        expect(html).to_have_attribute("data-theme", "light")
        expect(pg.locator("#theme-toggle")).to_have_attribute("aria-pressed", "false")
        assert (
            pg.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
            == "rgb(255, 255, 255)"
        )
        pg.reload()
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        expect(html).to_have_attribute("data-theme", "light")  # before the first paint too
        pg.click("#theme-toggle")
        expect(html).to_have_attribute("data-theme", "dark")
        assert (
            pg.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
            == "rgb(13, 17, 23)"
        )
        # the system changes; the choice stands
        pg.emulate_media(color_scheme="light")
        assert (
            pg.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
            == "rgb(13, 17, 23)"
        )


# -- one palette -------------------------------------------------------------------------------


def test_the_palette_is_the_packages(server_url: str) -> None:
    p = httpx.get(f"{server_url}/api/palette").json()
    assert p == {"colors": DEFAULT_COLORS, "gradient": list(GRADIENT), "max_bands": MAX_BANDS}


def svg_move_colours(server_url: str, tour: dict) -> list[str]:
    """The colour of each move in the server's SVG of ``tour`` (what a download holds)."""
    svg = httpx.post(f"{server_url}/api/render/svg", json=tour).text
    colours: list[str] = []
    for first, last, colour in re.findall(
        r'<polyline data-moves="(\d+)-(\d+)" stroke="(#[0-9a-f]{6})"', svg
    ):
        colours += [colour] * (int(last) - int(first) + 1)
    return colours


@pytest.mark.parametrize(("spec", "start"), [("5x5", "a1"), ("10x10", "c3"), ("20x20", "a1")])
def test_the_path_on_screen_has_the_pictures_colours(
    page: Page, server_url: str, spec: str, start: str
) -> None:
    w, h = spec.split("x")
    page.fill("#width", w)
    page.fill("#height", h)
    page.dispatch_event("#height", "change")
    # the board's squares (unvisited) in the pictures' colours
    for kind in ("light", "dark"):
        shown = page.eval_on_selector(f".cell.{kind}", "e => getComputedStyle(e).fill")
        r, g, b = (int(DEFAULT_COLORS[kind][k : k + 2], 16) for k in (1, 3, 5))
        assert shown == f"rgb({r}, {g}, {b})"
    square(page, start).click()
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("tour of", timeout=20_000)
    page.click("#btn-last")
    n = int(w) * int(h)
    expect(page.locator('.lines line[visibility="visible"]')).to_have_count(n - 1)
    on_screen = page.eval_on_selector_all(
        ".lines line", "els => els.map(e => e.getAttribute('stroke'))"
    )
    tour = page.evaluate(f"() => fetch('api/solve?board={spec}&start={start}').then(r => r.json())")
    assert on_screen == svg_move_colours(server_url, tour)


# -- big boards: the canvas --------------------------------------------------------------------


def big_tour(n: int = 100) -> list[str]:
    return kt.solve(f"{n}x{n}", start="a1").path


def draw_ms(pg: Page) -> int:
    pg.wait_for_function("() => document.body.dataset.drawMs", timeout=20_000)
    return int(pg.evaluate("() => document.body.dataset.drawMs"))


@pytest.mark.parametrize(("renderer", "n"), [("canvas", 100), ("svg", 40)])
def test_a_big_tour_is_drawn_whole(
    browser: Browser, server_url: str, tmp_path: Path, renderer: str, n: int
) -> None:
    """The canvas (100x100) and the SVG of a square an element (``?renderer=svg``, on 40x40:
    the bench times both on 100x100), the tour from a link (drawn whole) and from Solve."""
    link = f"#mode=solve&board={n}x{n}&moves={','.join(big_tour(n))}"
    figures: dict[str, int] = {}
    query = "?renderer=svg" if renderer == "svg" else ""
    squares = n * n
    with opened(browser, f"{server_url}/{query}{link}", reduced_motion="reduce") as pg:
        figures["link"] = draw_ms(pg)
        expect(pg.locator("#move-label")).to_have_text(f"Move {squares} of {squares}")
        if renderer == "canvas":
            expect(pg.locator("#board-canvas")).to_be_visible()
            expect(pg.locator("#board-canvas")).to_have_attribute("data-moves", str(squares - 1))
            expect(pg.locator("#board .sq")).to_have_count(0)
            expect(pg.locator("#board")).to_be_hidden()
            box = pg.locator("#board-canvas").bounding_box()
            assert box and box["y"] < 120 and box["width"] > 400, box  # at the top, big
            shot(pg, "web-100x100", tmp_path)
        else:
            expect(pg.locator("#board-canvas")).to_be_hidden()
            expect(pg.locator("#board .sq")).to_have_count(squares)
        # Solve, the whole tour shown at once (reduced motion)
        pg.evaluate("() => { document.body.dataset.drawMs = ''; }")
        pg.click("#btn-solve")
        # a hang guard, not a figure: a first solve may compile its kernels (a minute on a
        # loaded machine whose kernel cache is cold)
        expect(pg.locator("#status")).to_contain_text(f"tour of {squares} squares", timeout=180_000)
        figures["solve"] = draw_ms(pg)
    if renderer == "canvas":  # and on a phone
        with opened(browser, f"{server_url}/{link}", PHONE, reduced_motion="reduce") as pg:
            figures["link, phone"] = draw_ms(pg)
            box = pg.locator("#board-canvas").bounding_box()
            assert box and box["width"] <= PHONE["width"], box
    print(f"{n}x{n} tour drawn on the {renderer} in ms: {figures}")  # benchmarks/bench_web_page.py
    assert len(figures) == (3 if renderer == "canvas" else 2), figures
    assert all(ms >= 0 for ms in figures.values()), figures


def test_the_canvas_keeps_the_keyboard_and_speech(page: Page) -> None:
    page.fill("#width", "40")
    page.fill("#height", "40")
    page.dispatch_event("#height", "change")
    expect(page.locator("#board-canvas")).to_be_visible()
    page.focus("#board-canvas")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#cursor-live")).to_have_text("b2")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#cursor-live")).to_have_text("b1")
    page.keyboard.press("Enter")
    expect(page.locator("#start-out")).to_have_text("b1")
    # a click picks the square under it: the end, on the canvas's last square
    box = page.locator("#board-canvas").bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] - 6, box["y"] + 6)
    expect(page.locator("#end-out")).to_have_text("an40")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("tour of 1600 squares from b1 to an40")


# -- playback ----------------------------------------------------------------------------------


@pytest.mark.parametrize("side", [8, 60])
def test_a_whole_tour_plays_in_about_20_seconds(page: Page, side: int) -> None:
    page.fill("#width", str(side))
    page.fill("#height", str(side))
    page.dispatch_event("#height", "change")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("tour of", timeout=20_000)
    n = side * side
    expect(page.locator("#speed-out")).to_have_text(f"{round((n - 1) / 20)} moves/s")
    page.wait_for_timeout(2000)
    shown = int(re.search(r"Move (\d+)", page.locator("#move-label").inner_text()).group(1))  # type: ignore[union-attr]
    assert 0 < shown < n, (shown, n)  # under way, not shown at once (how fast: the benchmarks)
    # the frames keep coming while it plays (how smoothly: benchmarks/bench_web_page.py)
    frames = page.evaluate(
        """() => new Promise(done => { const t = []; const f = (now) => { t.push(now);
             if (t.length < 10) requestAnimationFrame(f); else done(t); }; requestAnimationFrame(f); })"""
    )
    assert len(frames) == 10 and frames == sorted(frames), frames
    # the slider takes over from the default
    page.locator("#speed").fill("8")
    expect(page.locator("#auto-speed")).not_to_be_checked()
    expect(page.locator("#speed-out")).to_have_text("256 moves/s")
