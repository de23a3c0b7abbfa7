"""End-to-end, share and return (issue 15, item 2): the address holds the board, mode, start and
moves, so a link opened in a fresh browser context shows the same game or tour; the daily puzzle
is the same in two contexts; a game comes back after a reload (localStorage) with its clock and
counts; best times are kept per board and level.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import knightstour as kt
from knightstour.web.gallery import daily_puzzle
from web_helpers import DESKTOP, PHONE, a_tour, opened, settled, square

pytestmark = pytest.mark.browser


def visited(pg: Page) -> list[str]:
    """The squares of the game in the order of the move list."""
    return [t.split(". ")[1] for t in pg.locator("#move-list button").all_text_contents()]


SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


@SIZES
def test_a_shared_link_reproduces_a_game_in_a_fresh_context(
    page: Page, browser: Browser, server_url: str, viewport: dict[str, int]
) -> None:
    page.click("#tab-puzzle")
    page.select_option("#preset", "6x6")
    page.select_option("#level", "medium")
    page.check("#challenge")
    moves = a_tour("6x6", "b1")[:9]
    for name in moves:
        square(page, name).click()
    settled(page)
    link = page.url
    assert re.search(r"#mode=puzzle&board=6x6&level=medium&closed=1&moves=", link), link
    # a new context (at each size): nothing shared but the link
    with opened(browser, link, viewport) as other:
        settled(other)
        expect(other.locator("#tab-puzzle")).to_have_attribute("aria-selected", "true")
        assert visited(other) == moves
        expect(other.locator("#level")).to_have_value("medium")
        expect(other.locator("#challenge")).to_be_checked()
        expect(other.locator(".sq.visited")).to_have_count(9)
        for k, name in enumerate(moves, 1):
            expect(square(other, name)).to_have_attribute(
                "aria-label", re.compile(f", move {k}\\b")
            )
        expect(other.locator("#puzzle-msg")).to_have_text(page.locator("#puzzle-msg").inner_text())


def test_a_shared_link_reproduces_a_won_game_and_its_share_text(
    page: Page, browser: Browser
) -> None:
    page.click("#tab-puzzle")
    page.select_option("#preset", "5x5")
    path = a_tour("5x5", "c3")
    for name in path:
        square(page, name).click()
    settled(page)
    text = page.locator("#share-text").input_value()
    link = text.split("Replay it: ")[1]
    with opened(browser, link) as other:
        settled(other)
        assert visited(other) == path
        expect(other.locator("#puzzle-msg")).to_contain_text("tour of all 25 squares")
        expect(other.locator("#win")).to_be_hidden()  # someone else's win: no time of ours


def test_a_shared_link_reproduces_a_solved_tour(page: Page, browser: Browser) -> None:
    page.select_option("#preset", "6x6")
    square(page, "c3").click()
    page.check("#closed")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Closed tour of 36 squares from c3")
    link = page.url
    assert "tour=closed" in link and "start=c3" in link
    shown = page.evaluate("() => location.hash")
    with opened(browser, link) as other:
        expect(other.locator("#move-label")).to_have_text("Move 36 of 36")
        expect(other.locator(".lines line.closing")).to_have_count(1)
        assert other.evaluate("() => location.hash") == shown
        moves = re.search(r"moves=([^&]+)", link).group(1).split(",")  # type: ignore[union-attr]
        kt.Tour("6x6", moves, closed=True)  # a real closed tour
        for k, name in enumerate(moves, 1):
            expect(square(other, name)).to_have_attribute(
                "aria-label", re.compile(f", move {k}\\b")
            )


def test_a_link_followed_in_an_open_page_has_its_own_shape_and_no_old_tour(
    browser: Browser, server_url: str
) -> None:
    """A link followed in a page already open (the hash changes) shows the link's board: a shape
    the link does not name is the plain board's, not the one shown before, and a tour shown
    before is gone when the link has none."""
    torus = kt.solve(kt.Board(8, 8, wrap="torus"), start="a1", method="warnsdorff").path
    with opened(
        browser, f"{server_url}/#mode=solve&board=8x8&wrap=torus&holes=&moves={','.join(torus)}"
    ) as pg:
        expect(pg.locator("#move-label")).to_have_text("Move 64 of 64")
        expect(pg.locator("#wrap")).to_have_value("torus")
        plain = a_tour("8x8")
        pg.evaluate(
            f"() => {{ location.hash = 'mode=puzzle&board=8x8&moves={plain[0]},{plain[1]}'; }}"
        )
        settled(pg)
        expect(pg.locator("#wrap")).to_have_value("")
        assert visited(pg) == plain[:2]
        pg.evaluate("() => { location.hash = 'mode=solve&board=8x8&wrap=torus&start=b1'; }")
        expect(pg.locator("#start-out")).to_have_text("b1")
        expect(pg.locator("#wrap")).to_have_value("torus")
        expect(pg.locator("#move-label")).to_have_text("No tour yet")
        pg.evaluate(f"() => {{ location.hash = 'mode=solve&board=8x8&moves={','.join(plain)}'; }}")
        expect(pg.locator("#move-label")).to_have_text("Move 64 of 64")
        expect(pg.locator("#wrap")).to_have_value("")
        pg.evaluate("() => { location.hash = 'mode=solve&board=8x8'; }")
        expect(pg.locator("#move-label")).to_have_text("No tour yet")


def test_a_link_with_a_bad_move_says_where_it_stops(browser: Browser, server_url: str) -> None:
    with opened(browser, f"{server_url}/#mode=puzzle&board=5x5&moves=a1,c2,c3") as pg:
        settled(pg)
        assert visited(pg) == []
        expect(pg.locator("#status")).to_contain_text("c2 to c3 is not a move")


@SIZES
def test_the_daily_puzzle_is_the_same_in_two_contexts(
    browser: Browser, server_url: str, viewport: dict[str, int]
) -> None:
    seen = []
    for _ in range(2):
        with opened(browser, f"{server_url}/", viewport) as pg:
            pg.click("#tab-puzzle")
            pg.click("#btn-daily")
            settled(pg)
            expect(pg.locator("#daily-note")).to_contain_text("Daily puzzle of")
            seen.append((pg.locator("#width").input_value(), pg.locator("#height").input_value(),
                         visited(pg), pg.locator("#daily-note").inner_text()))  # fmt: skip
    assert seen[0] == seen[1]
    today = httpx.get(f"{server_url}/api/daily").json()
    assert seen[0][2] == [today["start"]]
    assert (seen[0][0], seen[0][1]) == (str(today["width"]), str(today["height"]))


def test_the_daily_puzzle_from_its_link(browser: Browser, server_url: str) -> None:
    with opened(browser, f"{server_url}/#daily=2026-01-01") as pg:
        settled(pg)
        want = daily_puzzle(__import__("datetime").date(2026, 1, 1))
        assert visited(pg) == [want["start"]]
        expect(pg.locator("#daily-note")).to_contain_text("2026-01-01")
        # the start is one a tour exists from: the exact search agrees
        assert kt.solve(want["board"], start=want["start"]).path[0] == want["start"]


def test_daily_puzzles_vary_and_always_have_a_tour() -> None:
    import datetime

    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=k) for k in range(40)]
    puzzles = [daily_puzzle(d) for d in days]
    assert len({(p["board"], p["start"]) for p in puzzles}) > 20
    for p in puzzles[:8]:
        assert kt.solve(p["board"], start=p["start"]).path[0] == p["start"]


def test_a_game_comes_back_after_a_reload_with_its_clock_and_counts(page: Page) -> None:
    page.click("#tab-puzzle")
    page.select_option("#preset", "5x5")
    path = a_tour("5x5", "a1")
    for name in path[:5]:
        square(page, name).click()
    settled(page)
    page.click("#btn-undo")
    settled(page)
    page.click("#btn-hint")
    expect(page.locator("#hint-count")).to_have_text("1")
    page.wait_for_timeout(1100)
    # the same context, the bare address: localStorage brings the game back
    page.goto(page.url.split("#")[0])
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    settled(page)
    assert visited(page) == path[:4]
    expect(page.locator("#undo-count")).to_have_text("1")
    expect(page.locator("#hint-count")).to_have_text("1")
    expect(page.locator("#timer")).not_to_have_text("0:00")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    settled(page)
    assert visited(page) == path[:4]
    expect(page.locator("#undo-count")).to_have_text("1")


def test_best_times_per_board_and_level(page: Page) -> None:
    page.click("#tab-puzzle")
    for preset, level in [("5x5", "easy"), ("5x5", "hard"), ("5x5", "easy")]:
        page.select_option("#preset", preset)
        page.select_option("#level", level)
        for name in a_tour(preset, "a1"):
            square(page, name).click()
        settled(page)
        expect(page.locator("#win")).to_be_visible()
    best = page.locator("#best-times li")
    expect(best).to_have_count(2)
    expect(best.nth(0)).to_contain_text("5x5 easy open: 0:0")
    expect(best.nth(1)).to_contain_text("5x5 hard open: 0:0")
    expect(page.locator("#win-best")).to_contain_text(re.compile("best"))
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('knightstour.best'))")
    assert set(stored) == {"5x5 easy open", "5x5 hard open"}
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#best-times li")).to_have_count(2)


def test_the_daily_puzzle_keeps_its_start_through_undo_restart_and_level(page: Page) -> None:
    """The daily's start is the puzzle's, not a move: undo stops there, and Restart or another
    level starts the same daily puzzle again (not an empty board)."""
    page.click("#tab-puzzle")
    page.click("#btn-daily")
    settled(page)
    moves = page.locator("#move-list button")
    expect(moves).to_have_count(1)  # the daily's start, drawn once its puzzle is there
    start = visited(page)
    expect(page.locator("#btn-undo")).to_be_disabled()
    page.keyboard.press("u")
    assert visited(page) == start
    page.click("#btn-hint")
    expect(page.locator(".sq.hint")).to_have_count(1)
    square(page, page.locator(".sq.hint").get_attribute("data-square") or "").click()
    settled(page)
    expect(moves).to_have_count(2)
    page.click("#btn-undo")
    settled(page)
    expect(moves).to_have_count(1)
    assert visited(page) == start
    expect(page.locator("#btn-undo")).to_be_disabled()
    for again in ("restart", "level"):
        page.click("#btn-hint")
        expect(page.locator("#hint-count")).not_to_have_text("0")
        if again == "restart":
            page.click("#btn-restart")
        else:
            page.select_option("#level", "medium")
        expect(page.locator("#hint-count")).to_have_text("0")  # a new game ...
        settled(page)
        expect(moves).to_have_count(1)
        assert visited(page) == start  # ... of the same daily puzzle
        expect(page.locator("#daily-note")).to_contain_text("Daily puzzle of")
    expect(page.locator("#level")).to_have_value("medium")
    assert "daily=" in page.url


def test_a_reload_keeps_the_time_up_to_the_reload_not_the_last_move(page: Page) -> None:
    """The clock runs from the first move; a reload brings back the time played until the page
    was left (kept when it is hidden), not only the time until the last move."""
    page.click("#tab-puzzle")
    page.select_option("#preset", "5x5")
    square(page, "a1").click()
    settled(page)
    page.wait_for_timeout(2500)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    settled(page)
    assert visited(page) == ["a1"]
    seconds = page.evaluate(
        "() => JSON.parse(localStorage.getItem('knightstour.game')).game.acc / 1000"
    )
    assert seconds >= 2.5
    assert page.locator("#timer").inner_text() >= "0:02"
