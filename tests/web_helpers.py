"""What the browser tests of the game, the look, the gallery and accessibility share (issue 15):
opening the page with its errors collected, playing a square by the keyboard alone, axe-core.

Not a test file; the tests import it. The browser is the system's Chromium (conftest.py).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

import knightstour as kt

#: axe-core, vendored from npm (tests/data/axe.min.js: never fetched at run time)
AXE = Path(__file__).parent / "data" / "axe.min.js"
#: where the tests put the screenshots docs/web.md shows (KNIGHTSTOUR_SCREENSHOTS=docs/images)
SHOTS = os.environ.get("KNIGHTSTOUR_SCREENSHOTS", "")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def open_page(
    browser: Browser, url: str, viewport: dict[str, int] | None = None, **context: Any
) -> tuple[Page, list[str]]:
    """A new context and page at ``url``, ready; the list its errors are collected into."""
    ctx = browser.new_context(viewport=viewport or DESKTOP, **context)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    pg.goto(url)
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    return pg, errors


@contextmanager
def opened(
    browser: Browser, url: str, viewport: dict[str, int] | None = None, **context: Any
) -> Iterator[Page]:
    """:func:`open_page` for a ``with`` block: the context is closed at its end, and a block
    that ends normally must have left no error in the browser."""
    pg, errors = open_page(browser, url, viewport, **context)
    try:
        yield pg
    finally:
        pg.context.close()
    assert errors == [], f"errors in the browser: {errors}"


def square(pg: Page, name: str) -> Any:
    return pg.locator(f'[data-square="{name}"]')


def settled(pg: Page) -> None:
    expect(pg.locator("#puzzle-msg")).not_to_have_class(re.compile(r"\bbusy\b"), timeout=15_000)


def tab_to(pg: Page, selector: str, most: int = 80) -> None:
    """Press Tab until ``selector`` has the focus (so it is reachable by the keyboard)."""
    for _ in range(most):
        if pg.evaluate(f"() => document.activeElement?.matches({selector!r}) ?? false"):
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"{selector} not reached by Tab in {most} presses")


def focused_square(pg: Page) -> str:
    return pg.evaluate("() => document.activeElement?.dataset?.square ?? ''")


def xy(name: str) -> tuple[int, int]:
    m = re.fullmatch(r"([a-z]+)(\d+)", name)
    assert m, name
    x = 0
    for ch in m.group(1):
        x = x * 26 + ord(ch) - 96
    return x - 1, int(m.group(2)) - 1


def key_to(pg: Page, target: str) -> None:
    """Move the board's keyboard focus to ``target`` with the arrow keys, and pick it (Enter)."""
    here = focused_square(pg)
    assert here, "the board does not have the focus"
    (x0, y0), (x1, y1) = xy(here), xy(target)
    for _ in range(abs(x1 - x0)):
        pg.keyboard.press("ArrowRight" if x1 > x0 else "ArrowLeft")
    for _ in range(abs(y1 - y0)):
        pg.keyboard.press("ArrowUp" if y1 > y0 else "ArrowDown")
    assert focused_square(pg) == target
    pg.keyboard.press("Enter")


def a_tour(spec: str, start: str = "a1") -> list[str]:
    return kt.solve(spec, start=start).path


def shot(pg: Page, name: str, tmp: Path, **kwargs: Any) -> Path:
    """A screenshot: into docs' images when KNIGHTSTOUR_SCREENSHOTS names the folder."""
    folder = Path(SHOTS) if SHOTS else tmp
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    pg.screenshot(path=str(path), **kwargs)
    return path


def axe_violations(pg: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of the page as it is, of the given impacts, one line each."""
    if not pg.evaluate("() => typeof window.axe !== 'undefined'"):
        pg.add_script_tag(path=str(AXE))
    result = pg.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return [
        f"{v['impact']}: {v['id']} ({v['help']}) at {v['nodes']}"
        for v in result
        if v["impact"] in impacts
    ]
