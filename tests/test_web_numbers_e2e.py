"""Numbers mode in a browser: a number puzzle solved by the keyboard alone, Check, Hint, Undo,
a share link opened in a fresh context, the daily puzzle, accessibility in both themes, and the
screenshot docs/puzzles.md shows. The solutions come from the library, never from the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from knightstour.numberpuzzles.play import make_playable
from web_helpers import axe_violations, focused_square, key_to, opened, shot, tab_to

pytestmark = pytest.mark.browser

BOARD, LEVEL, SEED = "5x5", "easy", 3
LINK = f"#mode=numbers&board={BOARD}&level={LEVEL}&seed={SEED}"


def _solution() -> tuple[dict[str, int], dict[str, int]]:
    """The givens and the blanks' numbers of the puzzle, from the library (same seed)."""
    p = make_playable(BOARD, level=LEVEL, seed=SEED)
    assert p.solution is not None
    name = p.board.square_name
    numbers = {name(s): k for k, s in enumerate(p.solution, start=1)}
    givens = {name(s): k for s, k in p.givens.items()}
    return givens, {n: k for n, k in numbers.items() if n not in givens}


def square(pg: Any, name: str) -> Any:
    """The Numbers grid's square (the hidden chessboard has one of that name too)."""
    return pg.locator(f'#numbers-grid [data-square="{name}"]')


def _ready(pg: Any) -> None:
    expect(pg.locator("#numbers-grid td[data-square]")).to_have_count(25)
    expect(pg.locator("#numbers-msg")).not_to_have_class(re.compile(r"\bbusy\b"))


def _type(pg: Any, name: str, k: int) -> None:
    key_to(pg, name)
    pg.keyboard.type(str(k))
    expect(square(pg, name)).to_have_text(str(k))


def test_a_puzzle_solved_by_the_keyboard_alone(browser: Any, server_url: str) -> None:
    givens, blanks = _solution()
    with opened(browser, f"{server_url}/{LINK}") as pg:
        _ready(pg)
        for name, k in givens.items():  # bold and not editable
            expect(square(pg, name)).to_have_text(str(k))
            expect(square(pg, name)).to_have_class(re.compile(r"\bgiven\b"))
        tab_to(pg, '#numbers-grid td[tabindex="0"]')
        given = next(iter(givens))
        key_to(pg, given)
        pg.keyboard.type("9")
        expect(square(pg, given)).to_have_text(str(givens[given]))
        for name, k in blanks.items():
            _type(pg, name, k)
        expect(pg.locator("#numbers-msg")).to_contain_text("Solved in")
        assert focused_square(pg) in blanks


def test_check_flags_a_wrong_number_and_undo_takes_it_back(browser: Any, server_url: str) -> None:
    _, blanks = _solution()
    (good, k), (bad, j) = list(blanks.items())[:2]
    with opened(browser, f"{server_url}/{LINK}") as pg:
        _ready(pg)
        square(pg, good).click()
        pg.keyboard.type(str(k))
        square(pg, bad).click()
        wrong = j % 25 + 1
        pg.keyboard.type(str(wrong))
        pg.locator("#numbers-check").click()
        expect(square(pg, bad)).to_have_class(re.compile(r"\bwrong\b"))
        expect(square(pg, good)).not_to_have_class(re.compile(r"\bwrong\b"))
        expect(pg.locator("#numbers-msg")).to_contain_text(f"1 wrong: {bad}")
        pg.locator("#numbers-undo").click()
        expect(square(pg, bad)).to_have_text("")
        expect(square(pg, good)).to_have_text(str(k))
        square(pg, good).click()
        pg.keyboard.press("Backspace")
        expect(square(pg, good)).to_have_text("")
        pg.keyboard.press("u")  # the shortcut: the cleared number comes back
        expect(square(pg, good)).to_have_text(str(k))
        # a number of two digits is one entry: Undo takes the whole of it back
        blank = next(n for n in blanks if n not in (good, bad))
        square(pg, blank).click()
        pg.keyboard.type("12")
        expect(square(pg, blank)).to_have_text("12")
        pg.keyboard.press("u")
        expect(square(pg, blank)).to_have_text("")
        expect(square(pg, good)).to_have_text(str(k))
        # the shortcuts are the grid's: a letter typed on a button does not check
        pg.locator("#numbers-new").focus()
        pg.keyboard.press("h")
        pg.keyboard.press("u")
        expect(square(pg, good)).to_have_text(str(k))
        expect(pg.locator("#numbers-hint")).to_have_text("")


def test_a_hint_says_a_deduction_and_marks_its_squares(browser: Any, server_url: str) -> None:
    _, blanks = _solution()
    with opened(browser, f"{server_url}/{LINK}") as pg:
        _ready(pg)
        pg.locator("#numbers-hint-btn").click()
        expect(pg.locator("#numbers-hint")).to_contain_text(" goes on ")
        words = pg.locator("#numbers-hint").inner_text()
        marked = pg.locator("#numbers-grid td.hinted")
        expect(marked.first).to_be_visible()
        names = [marked.nth(i).get_attribute("data-square") for i in range(marked.count())]
        said = re.search(r"(\d+) goes on ([a-e][1-5])", words)
        assert said and said.group(2) in names
        assert blanks[said.group(2)] == int(said.group(1))  # the library's solution agrees
        expect(pg.locator("#numbers-hints")).to_have_text("1")


def test_a_share_link_reproduces_the_puzzle_and_the_numbers(browser: Any, server_url: str) -> None:
    givens, blanks = _solution()
    entered = dict(list(blanks.items())[:4])
    with opened(browser, f"{server_url}/") as pg:
        pg.locator("#tab-numbers").click()
        expect(pg.locator("#numbers-grid td[data-square]")).to_have_count(36)  # 6x6 first
        pg.locator("#numbers-board").select_option(BOARD)
        pg.locator("#numbers-new").click()
        _ready(pg)
        pg.goto(f"{server_url}/{LINK}")  # the seeded puzzle (a hash change)
        expect(pg.locator("#numbers-about")).to_contain_text(f"seed {SEED}")
        for name, k in entered.items():
            square(pg, name).click()
            pg.keyboard.type(str(k))
        link = pg.locator("#numbers-share").input_value()
        assert f"seed={SEED}" in link and "entries=" in link
    with opened(browser, link) as fresh:
        _ready(fresh)
        expect(fresh.locator("#tab-numbers")).to_have_attribute("aria-selected", "true")
        for name, k in {**givens, **entered}.items():
            expect(square(fresh, name)).to_have_text(str(k))
        expect(fresh.locator("#numbers-grid td.entry")).to_have_count(len(entered))


def test_the_daily_puzzle_and_the_other_modes(browser: Any, server_url: str) -> None:
    with opened(browser, f"{server_url}/") as pg:
        pg.locator("#tab-numbers").click()
        expect(pg.locator("#board")).to_be_hidden()
        # the skip link leads to what the mode shows, never to the hidden board
        expect(pg.locator("a.skip")).to_have_attribute("href", "#numbers-grid")
        about = pg.locator("#numbers-about")
        pg.locator("#numbers-daily").click()
        expect(about).to_contain_text("Daily numbers of")
        first = about.inner_text()
        pg.locator("#numbers-board").select_option("9x9")  # never a daily board (5x5 to 8x8)
        pg.locator("#numbers-new").click()
        expect(about).to_contain_text("9x9")
        pg.locator("#numbers-daily").click()
        expect(about).to_have_text(first)  # the day's again
        day = re.search(r"Daily numbers of ([0-9-]+)", first)
        assert day
        link = pg.locator("#numbers-share").input_value()
        assert f"daily={day.group(1)}" in link
        with opened(browser, link) as fresh:  # a share link keeps the day's label
            expect(fresh.locator("#numbers-about")).to_have_text(first)
        pg.locator("#tab-solve").click()
        expect(pg.locator("#board")).to_be_visible()
        expect(pg.locator("#numbers-view")).to_be_hidden()
        expect(pg.locator("#tab-solve")).to_have_attribute("aria-selected", "true")
        expect(pg.locator("a.skip")).to_have_attribute("href", "#board-wrap")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_numbers_mode_is_accessible(
    browser: Any, server_url: str, scheme: str, tmp_path: Path
) -> None:
    _, blanks = _solution()
    items = list(blanks.items())
    (name, k), (other, j) = items[0], items[-1]
    with opened(browser, f"{server_url}/{LINK}", color_scheme=scheme) as pg:
        _ready(pg)
        square(pg, name).click()
        pg.keyboard.type(str(k))
        pg.locator("#numbers-hint-btn").click()
        expect(pg.locator("#numbers-grid td.hinted").first).to_be_visible()
        square(pg, other).click()
        pg.keyboard.type(str(j % 25 + 1))
        pg.locator("#numbers-check").click()
        expect(square(pg, other)).to_have_class(re.compile(r"\bwrong\b"))
        assert axe_violations(pg) == []
        if scheme == "light":
            shot(pg, "web-numbers", tmp_path)


def test_an_answer_about_numbers_changed_since_is_dropped(browser: Any, server_url: str) -> None:
    """A Check whose answer comes after the player changed the grid says nothing of it: the
    answer was about numbers no longer there."""
    _, blanks = _solution()
    bad, j = next(iter(blanks.items()))
    with opened(browser, f"{server_url}/{LINK}") as pg:
        _ready(pg)
        held: list[Any] = []

        def hold(route: Any) -> None:
            held.append(route)  # the request waits here until the test lets it go

        pg.route("**/api/numbers/check", hold)
        square(pg, bad).click()
        pg.keyboard.type(str(j % 25 + 1))  # wrong
        pg.locator("#numbers-check").click()
        for _ in range(100):  # until the request is held
            if held:
                break
            pg.wait_for_timeout(50)
        assert held, "the check was never sent"
        square(pg, bad).click()
        pg.keyboard.press("Backspace")  # the wrong number goes before the answer comes
        held[0].continue_()
        pg.unroute("**/api/numbers/check")
        pg.locator("#numbers-hint-btn").click()  # a later answer: by then the check's is in
        expect(pg.locator("#numbers-hint")).to_contain_text(" goes on ")
        expect(square(pg, bad)).not_to_have_class(re.compile(r"\bwrong\b"))
        expect(pg.locator("#numbers-msg")).not_to_contain_text("wrong")
