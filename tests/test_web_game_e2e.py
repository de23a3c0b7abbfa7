"""End-to-end, the puzzle as a game (issue 15, item 1): levels, the clock, hint and undo counts,
the move list and looking back, the win screen with its share text, board presets; a whole game
at each level played and won by the keyboard alone, on a desktop and on a phone.

Headless Chromium (the system's) through Playwright, as test_web_e2e.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tiers import sample
from web_helpers import (
    DESKTOP,
    PHONE,
    a_tour,
    key_to,
    opened,
    settled,
    shot,
    square,
    tab_to,
)

pytestmark = pytest.mark.browser


def to_puzzle(pg: Page, preset: str = "5x5", level: str = "easy") -> None:
    pg.click("#tab-puzzle")
    pg.select_option("#preset", preset)
    pg.select_option("#level", level)
    settled(pg)


def play(pg: Page, moves: list[str]) -> None:
    for name in moves:
        square(pg, name).click()
    settled(pg)


# -- a whole game by the keyboard alone, each level, desktop and phone --------------------------


#: (level, viewport) of a whole game: two of the six every day (the easiest on a desktop, the
#: hardest on a phone), all of them with --all
GAMES = [(lv, vp) for lv in ("easy", "medium", "hard") for vp in ("desktop", "phone")]


@pytest.mark.parametrize(
    ("level", "screen"),
    sample(GAMES, 2, seed=1, keep=[("easy", "desktop"), ("hard", "phone")]),
    ids=lambda v: str(v),
)
def test_a_whole_game_won_by_keyboard_alone(
    browser: Browser, server_url: str, level: str, screen: str, tmp_path: Path
) -> None:
    viewport = DESKTOP if screen == "desktop" else PHONE
    with opened(browser, f"{server_url}/", viewport) as pg:
        # the Puzzle tab, the 5x5 preset and the level, all by the keyboard
        tab_to(pg, "#tab-solve")
        pg.keyboard.press("ArrowRight")
        expect(pg.locator("#tab-puzzle")).to_have_attribute("aria-selected", "true")
        tab_to(pg, "#preset")
        pg.keyboard.type("5")  # the first option starting with 5: 5x5
        expect(pg.locator("#preset")).to_have_value("5x5")
        expect(square(pg, "e5")).to_have_count(1)
        tab_to(pg, "#level")
        pg.keyboard.type(level[0])
        expect(pg.locator("#level")).to_have_value(level)
        expect(pg.locator("#level-note")).to_contain_text(level.capitalize())
        tab_to(pg, ".sq")
        path = a_tour("5x5", "a1")
        key_to(pg, path[0])
        settled(pg)
        if level == "easy":  # a hint and an undo, counted
            pg.keyboard.press("h")
            expect(pg.locator("#puzzle-msg")).to_contain_text("Hint:")
            expect(pg.locator("#hint-count")).to_have_text("1")
            key_to(pg, path[1])
            settled(pg)
            pg.keyboard.press("u")
            settled(pg)
            expect(pg.locator("#undo-count")).to_have_text("1")
            expect(pg.locator("#move-list li")).to_have_count(1)
        else:
            pg.keyboard.press("h")
            expect(pg.locator("#puzzle-msg")).to_contain_text("No hints")
            expect(pg.locator("#btn-hint")).to_be_disabled()
            expect(pg.locator("#hint-count")).to_have_text("0")
        if level == "hard":
            key_to(pg, path[1])
            settled(pg)
            pg.keyboard.press("u")
            expect(pg.locator("#puzzle-msg")).to_contain_text("No undo")
            expect(pg.locator("#move-list li")).to_have_count(2)
            expect(pg.locator("#btn-undo")).to_be_disabled()
            rest = path[2:]
        else:
            rest = path[1:]
        # easy shows the legal next squares; medium and hard do not
        highlighted = pg.locator(".sq.cand").count()
        assert (highlighted > 0) == (level == "easy"), highlighted
        for name in rest:
            key_to(pg, name)
        settled(pg)
        expect(pg.locator("#puzzle-msg")).to_contain_text("You win! A tour of all 25 squares")
        win = pg.locator("#win")
        expect(win).to_be_visible()
        expect(pg.locator("#win-title")).to_be_focused()
        # the counts in good English, in the summary and the share text alike
        counts = "1 hint and 1 undo" if level == "easy" else "0 hints and 0 undos"
        expect(pg.locator("#win-summary")).to_contain_text(
            re.compile(rf"on 5x5 \({level}\) in \d+:\d\d, with {counts}\.")
        )
        share = pg.locator("#share-text").input_value()
        assert f"Knight's tour on 5x5 ({level}) in" in share
        assert f", {counts}. Replay it: " in share
        assert "moves=" + ",".join(path) in share
        expect(pg.locator("#win-best")).to_contain_text("first time")
        expect(pg.locator("#best-times")).to_contain_text(f"5x5 {level} open:")
        if viewport == DESKTOP and level == "easy":
            shot(pg, "web-win", tmp_path)


# -- the pieces --------------------------------------------------------------------------------


def test_the_clock_runs_from_the_first_move(page: Page) -> None:
    to_puzzle(page)
    page.wait_for_timeout(1200)
    expect(page.locator("#timer")).to_have_text("0:00")  # not before the first move
    square(page, "a1").click()
    expect(page.locator("#timer")).to_have_text("0:01", timeout=3000)
    expect(page.locator("#timer")).to_have_text("0:02", timeout=3000)


def test_the_move_list_looks_back(page: Page) -> None:
    to_puzzle(page)
    path = a_tour("5x5", "a1")
    play(page, path[:6])
    items = page.locator("#move-list button")
    expect(items).to_have_count(6)
    expect(items.nth(2)).to_have_text(f"3. {path[2]}")
    items.nth(2).click()
    expect(page.locator(".sq.visited")).to_have_count(3)
    expect(items.nth(2)).to_have_attribute("aria-current", "step")
    expect(page.locator("#move-label")).to_have_text("Move 3 of 6 (looking back)")
    expect(page.locator("#puzzle-msg")).to_contain_text("Looking back")
    expect(page.locator(".sq.cand")).to_have_count(0)  # no moves while looking back
    page.keyboard.press("Escape")
    expect(page.locator(".sq.visited")).to_have_count(6)
    expect(page.locator("#btn-back-to-game")).to_be_hidden()
    items.nth(1).click()
    page.click("#btn-back-to-game")
    expect(page.locator("#move-label")).to_have_text("Square 6 of 25")


def test_hard_has_no_undo_or_hint_and_says_when_lost(page: Page) -> None:
    to_puzzle(page, level="hard")
    play(page, ["a1", "c2", "e3", "c4"])  # lost (test_web_e2e's position)
    expect(page.locator("#puzzle-msg")).to_contain_text("No undo at this level: Restart")
    expect(page.locator("#btn-undo")).to_be_disabled()
    expect(page.locator("#btn-hint")).to_be_disabled()
    page.click("#btn-restart")
    expect(page.locator("#move-list li")).to_have_count(0)
    expect(page.locator("#timer")).to_have_text("0:00")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_onward_counts_do_not_show_the_moves_where_the_level_shows_none(
    page: Page, level: str
) -> None:
    """The onward counts mark the legal next squares and the best of them (Warnsdorff's hint):
    off at the levels without highlights and hints, even when ticked before; back on in easy."""
    page.check("#show-counts")
    to_puzzle(page, "8x8", level)
    play(page, ["a1"])
    expect(page.locator("#show-counts")).to_be_disabled()
    expect(page.locator(".sq.best")).to_have_count(0)
    assert (
        page.eval_on_selector_all(".counts text", "els => els.map(e => e.textContent)") == [""] * 64
    )
    expect(page.locator('[aria-label*="onward"]')).to_have_count(0)
    page.select_option("#level", "easy")
    play(page, ["a1"])
    expect(page.locator("#show-counts")).to_be_enabled()
    expect(page.locator(".sq.best")).not_to_have_count(0)


def test_a_new_level_is_a_new_game(page: Page) -> None:
    to_puzzle(page)
    play(page, ["a1", "c2"])
    page.select_option("#level", "medium")
    expect(page.locator("#move-list li")).to_have_count(0)
    square(page, "a1").click()
    settled(page)
    expect(page.locator(".sq.cand")).to_have_count(0)


@pytest.mark.parametrize(
    ("preset", "corner"),
    [("5x5", "e5"), ("6x6", "f6"), ("8x8", "h8"), ("10x10", "j10"), ("3x10", "c10")],
)
def test_board_presets(page: Page, preset: str, corner: str) -> None:
    page.click("#tab-puzzle")
    page.select_option("#preset", preset)
    expect(square(page, corner)).to_have_count(1)
    w, h = preset.split("x")
    expect(page.locator(".sq")).to_have_count(int(w) * int(h))
    expect(page.locator("#width")).to_have_value(w)


def test_custom_size_sets_the_preset_to_custom(page: Page) -> None:
    page.fill("#width", "7")
    page.fill("#height", "9")
    page.dispatch_event("#height", "change")
    expect(page.locator("#preset")).to_have_value("custom")
    page.fill("#width", "6")
    page.fill("#height", "6")
    page.dispatch_event("#height", "change")
    expect(page.locator("#preset")).to_have_value("6x6")


def test_the_closed_challenge_is_won_with_a_closed_tour(page: Page) -> None:
    to_puzzle(page, "6x6")
    page.check("#challenge")
    import knightstour as kt

    play(page, kt.solve("6x6", start="a1", closed=True).path)
    expect(page.locator("#puzzle-msg")).to_contain_text("You win! A closed tour of all 36")
    assert "closed tour on 6x6" in page.locator("#share-text").input_value()
    expect(page.locator("#best-times")).to_contain_text("6x6 easy closed:")
