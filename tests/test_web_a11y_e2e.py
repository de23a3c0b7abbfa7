"""End-to-end, accessibility (issue 15, item 5): axe-core (vendored from npm in tests/data, run by
Playwright in the system's Chromium, never fetched from a CDN) finds no serious or critical
violation on the board (solve, puzzle, the win screen, the canvas, dark and light, desktop and
phone) or the gallery; moves are announced (aria-live); every control is reachable by Tab.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tiers import sample
from web_helpers import (
    AXE,
    DESKTOP,
    PHONE,
    a_tour,
    axe_violations,
    open_page,
    opened,
    settled,
    square,
)

pytestmark = pytest.mark.browser


def test_axe_is_vendored_not_fetched() -> None:
    head = AXE.read_text(encoding="utf-8")[:400]
    assert "axe v4." in head, head[:200]


def states(pg: Page) -> Iterator[str]:
    """The board in the states a user meets, one after another (yields a name for each)."""
    yield "solve, empty"
    pg.select_option("#preset", "6x6")
    square(pg, "a1").click()
    pg.click("#btn-solve")
    expect(pg.locator("#status")).to_contain_text("tour of", timeout=20_000)
    pg.click("#btn-last")
    pg.check("#show-counts")
    pg.check("#show-sums")
    yield "solve, a tour shown with counts and sums"
    pg.click("#tab-puzzle")
    pg.select_option("#preset", "5x5")
    for name in a_tour("5x5", "a1")[:6]:
        square(pg, name).click()
    settled(pg)
    pg.click("#btn-hint")
    expect(pg.locator("#puzzle-msg")).to_contain_text("Hint")
    yield "puzzle, a game in progress with a hint"
    pg.locator("#move-list button").nth(2).click()
    yield "puzzle, looking back"
    pg.keyboard.press("Escape")
    for name in a_tour("5x5", "a1")[6:]:
        square(pg, name).click()
    settled(pg)
    expect(pg.locator("#win")).to_be_visible()
    yield "puzzle, the win screen"
    pg.click("#tab-solve")
    pg.fill("#width", "50")
    pg.fill("#height", "50")
    pg.dispatch_event("#height", "change")
    expect(pg.locator("#board-canvas")).to_be_visible()
    yield "solve, a 50x50 board on the canvas"


def test_axe_finds_a_planted_violation(browser: Browser, server_url: str) -> None:
    """The check can fail: an image without a text alternative is a critical violation."""
    pg, _errors = open_page(browser, f"{server_url}/")
    try:
        assert axe_violations(pg) == []
        pg.evaluate("() => document.body.appendChild(document.createElement('img')).src = 'data:,'")
        assert [v.split(" (")[0] for v in axe_violations(pg)] == ["critical: image-alt"]
    finally:
        pg.context.close()


#: Both themes on both screens under --all; without it, each theme once and each screen once.
LOOKS = [("desktop", DESKTOP, "light"), ("desktop", DESKTOP, "dark"),
         ("phone", PHONE, "light"), ("phone", PHONE, "dark")]  # fmt: skip


@pytest.mark.parametrize(
    ("viewport", "scheme"),
    [(v, s) for _, v, s in sample(LOOKS, 2, seed=1, keep=[LOOKS[1], LOOKS[2]])],
    ids=lambda v: v if isinstance(v, str) else ("desktop" if v == DESKTOP else "phone"),
)
def test_no_serious_violations_on_the_board(
    browser: Browser, server_url: str, scheme: str, viewport: dict[str, int]
) -> None:
    pg, errors = open_page(browser, f"{server_url}/", viewport, color_scheme=scheme)
    found: dict[str, list[str]] = {}
    try:
        for name in states(pg):
            bad = axe_violations(pg)
            if bad:
                found[name] = bad
    finally:
        pg.context.close()
    assert found == {}, found
    assert errors == []


@pytest.mark.parametrize("scheme", sample(["light", "dark"], 1, seed=1, keep=["dark"]))
def test_no_serious_violations_in_the_gallery(
    browser: Browser, small_library_url: str, scheme: str
) -> None:
    found: dict[str, list[str]] = {}
    for where in ("gallery", "gallery?board=6x6&closed=true", "gallery?compare=41,42"):
        with opened(browser, f"{small_library_url}/{where}", color_scheme=scheme) as pg:
            bad = axe_violations(pg)
            if bad:
                found[where] = bad
    assert found == {}, found


def test_moves_are_announced(browser: Browser, server_url: str) -> None:
    with opened(browser, f"{server_url}/") as pg:
        pg.click("#tab-puzzle")
        pg.select_option("#preset", "5x5")
        for live in ("#puzzle-msg", "#status", "#cursor-live"):
            assert pg.get_attribute(live, "aria-live") == "polite"
        path = a_tour("5x5", "a1")
        for name in path[:3]:
            square(pg, name).click()
        settled(pg)
        expect(pg.locator("#puzzle-msg")).to_have_text(
            re.compile(rf"^{path[2]}: 3 of 25 squares\. A tour can still be completed\.$")
        )
        square(pg, "a1").click()  # not a legal move: said why
        expect(pg.locator("#puzzle-msg")).to_contain_text("a1 is already visited")
        # solve mode: the square under the canvas's cursor is said
        pg.click("#tab-solve")
        pg.fill("#width", "40")
        pg.fill("#height", "40")
        pg.dispatch_event("#height", "change")
        pg.focus("#board-canvas")
        pg.keyboard.press("ArrowUp")
        expect(pg.locator("#cursor-live")).to_have_text("a2")


TABBABLE = """() => [...document.querySelectorAll(
    'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')]
  .filter(e => !e.disabled && e.tabIndex >= 0 && e.offsetParent !== null
               && getComputedStyle(e).visibility !== 'hidden')
  .map(e => e.id || e.dataset.square || e.dataset.move || e.name + ':' + (e.value || e.textContent.trim()))"""


def reached_by_tab(pg: Page, wanted: set[str], most: int = 200) -> set[str]:
    """The controls focus reaches by pressing Tab, up to ``most`` presses (fewer once every
    control of ``wanted`` has been reached)."""
    seen: set[str] = set()
    pg.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(most):
        pg.keyboard.press("Tab")
        key = pg.evaluate(
            """() => { const e = document.activeElement; if (!e || e === document.body) return '';
              return e.id || e.dataset.square || e.dataset.move || e.name + ':' + (e.value || e.textContent.trim()); }"""
        )
        seen.add(key)
        if wanted <= seen:
            break
    return seen


@pytest.mark.parametrize("mode", ["solve", "puzzle"])
def test_every_control_is_reachable_by_tab(browser: Browser, server_url: str, mode: str) -> None:
    with opened(browser, f"{server_url}/") as pg:
        if mode == "puzzle":
            pg.click("#tab-puzzle")
            pg.select_option("#preset", "5x5")
            for name in a_tour("5x5", "a1")[:3]:
                square(pg, name).click()
            settled(pg)
        else:
            pg.click("#btn-solve")
            expect(pg.locator("#status")).to_contain_text("tour of", timeout=20_000)
            pg.click("#btn-play")  # pause: the controls stay put
        controls = set(pg.evaluate(TABBABLE))
        # radio groups take one Tab stop (the arrow keys move within them)
        controls = {c for c in controls if not c.startswith("clicksets:")}
        reached = reached_by_tab(pg, controls)
        assert controls - reached == set(), controls - reached


def test_every_gallery_control_is_reachable_by_tab(
    browser: Browser, small_library_url: str
) -> None:
    with opened(browser, f"{small_library_url}/gallery") as pg:
        controls = set(pg.evaluate(TABBABLE))
        reached = reached_by_tab(pg, controls, 300)
        assert controls - reached == set(), controls - reached
