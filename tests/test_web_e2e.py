"""End-to-end: the page in a real headless Chromium (Debian's, driven by Playwright).

The browser is the system's (``conftest.CHROMIUM``: ``KNIGHTSTOUR_CHROMIUM``, else Debian's
``chromium-headless-shell``, else ``chromium``); no browser build is ever downloaded. Without
one these tests are skipped with a line saying how to install it (``make test`` installs it with
apt when it can).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import knightstour as kt


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server_url}/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    yield pg
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def square(pg: Page, name: str):
    return pg.locator(f'[data-square="{name}"]')


def set_board(pg: Page, width: int, height: int) -> None:
    pg.fill("#width", str(width))
    pg.fill("#height", str(height))
    pg.dispatch_event("#height", "change")
    expect(square(pg, f"{kt.board.file_name(width - 1)}{height}")).to_have_count(1)


# -- solve mode -------------------------------------------------------------------------------


def test_click_a_start_solve_and_animate_to_the_last_move(page: Page) -> None:
    square(page, "b1").click()
    expect(page.locator("#start-out")).to_have_text("b1")
    expect(square(page, "b1")).to_have_class(re.compile(r"\bis-start\b"))
    page.locator("#speed").fill("8")  # 256 moves a second
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Open tour of 64 squares from b1")
    expect(page.locator("#move-label")).to_have_text("Move 64 of 64", timeout=15_000)
    expect(page.locator("#btn-play")).to_have_attribute("aria-pressed", "false")
    expect(page.locator('.lines line[visibility="visible"]')).to_have_count(63)
    expect(square(page, "b1")).to_have_attribute("aria-label", re.compile(r"^b1, move 1\b"))
    # every square shows its move number once the animation is over
    numbers = page.locator(".nums text").all_text_contents()
    assert sorted(int(n) for n in numbers if n) == list(range(1, 65))

    page.click("#btn-back")
    expect(page.locator("#move-label")).to_have_text("Move 63 of 64")
    expect(page.locator('.lines line[visibility="visible"]')).to_have_count(62)
    page.click("#btn-forward")
    expect(page.locator("#move-label")).to_have_text("Move 64 of 64")
    page.click("#btn-first")
    expect(page.locator("#move-label")).to_have_text("Move 1 of 64")
    page.keyboard.press("]")
    expect(page.locator("#move-label")).to_have_text("Move 2 of 64")


def test_the_knight_leaves_its_squares_number_legible(page: Page, tmp_path: Path) -> None:
    """The knight glyph sits in a corner of its square: it does not cover the move number."""
    page.locator("#speed").fill("8")
    page.click("#btn-solve")
    expect(page.locator("#move-label")).to_have_text("Move 64 of 64", timeout=15_000)
    page.click("#btn-back")  # the knight on move 63's square, whose number shows
    expect(page.locator("#move-label")).to_have_text("Move 63 of 64")
    overlap = page.evaluate(
        """() => {
          const k = document.querySelector(".knight").getBBox();
          const num = [...document.querySelectorAll(".nums text")]
            .find(t => t.textContent === "63").getBBox();
          const w = Math.min(k.x + k.width, num.x + num.width) - Math.max(k.x, num.x);
          const h = Math.min(k.y + k.height, num.y + num.height) - Math.max(k.y, num.y);
          return Math.max(0, w) * Math.max(0, h) / (num.width * num.height);
        }"""
    )
    page.screenshot(path=str(tmp_path / "knight.png"))
    assert overlap < 0.1, f"the knight covers {overlap:.0%} of its square's number"


def test_play_and_pause(page: Page) -> None:
    page.locator("#speed").fill("0")  # one move a second
    page.click("#btn-solve")
    expect(page.locator("#btn-play")).to_have_attribute("aria-pressed", "true")
    page.click("#btn-play")
    expect(page.locator("#btn-play")).to_have_attribute("aria-pressed", "false")
    shown = page.locator("#move-label").text_content()
    page.wait_for_timeout(1500)
    expect(page.locator("#move-label")).to_have_text(shown or "")
    page.locator("#speed").fill("8")
    page.click("#btn-play")
    expect(page.locator("#move-label")).to_have_text("Move 64 of 64", timeout=15_000)


def test_start_and_end_closed_tour(page: Page) -> None:
    square(page, "a1").click()
    square(page, "b3").click()  # the next click sets the end
    expect(page.locator("#end-out")).to_have_text("b3")
    page.check("#closed")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Closed tour of 64 squares from a1 to b3")
    page.click("#btn-last")
    expect(page.locator("#move-label")).to_have_text("Move 64 of 64")
    expect(page.locator(".lines line.closing")).to_have_count(1)


def test_the_reason_when_no_tour_exists(page: Page) -> None:
    set_board(page, 4, 4)
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("No tour: no tour on 4x4")
    expect(page.locator(".dl").first).to_be_disabled()


def test_keyboard_sets_the_start(page: Page) -> None:
    square(page, "a1").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(square(page, "b2")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#start-out")).to_have_text("b2")


def test_onward_counts(page: Page) -> None:
    page.check("#show-counts")
    square(page, "a1").click()
    # the legal moves from a1 are b3 and c2, each with its onward count shown
    expect(page.locator(".sq.cand")).to_have_count(2)
    label = square(page, "c2").get_attribute("aria-label") or ""
    assert re.search(r"legal move, 5 onward", label), label


def test_downloads(page: Page, tmp_path: Path) -> None:
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Open tour")
    with page.expect_download() as info:
        page.click('.dl[data-format="json"]')
    data = json.loads(Path(info.value.path()).read_text())
    assert kt.Tour.from_dict(data).board.spec == "8x8"
    with page.expect_download() as info:
        page.click('.dl[data-format="svg"]')
    assert info.value.suggested_filename.endswith(".svg")
    assert "<svg" in Path(info.value.path()).read_text()[:500]


def test_narrow_screen_fits(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 380, "height": 800})
    pg = context.new_page()
    try:
        pg.goto(f"{server_url}/")
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        width = pg.evaluate("document.documentElement.scrollWidth")
        board = pg.locator("#board").bounding_box()
        assert width <= 380, f"the page scrolls sideways ({width} px)"
        assert board is not None and board["width"] >= 330
    finally:
        context.close()


# -- puzzle mode ------------------------------------------------------------------------------


def puzzle(page: Page, width: int, height: int) -> None:
    page.click("#tab-puzzle")
    expect(page.locator("#panel-puzzle")).to_be_visible()
    set_board(page, width, height)


def settled(page: Page) -> None:
    expect(page.locator("#puzzle-msg")).not_to_have_class(re.compile(r"\bbusy\b"))


def test_puzzle_move_undo_hint(page: Page) -> None:
    puzzle(page, 5, 5)
    square(page, "a1").click()
    expect(page.locator("#move-label")).to_have_text("Square 1 of 25")
    expect(page.locator(".sq.cand")).to_have_count(2)
    for name in ("b3", "c2"):
        expect(square(page, name)).to_have_class(re.compile(r"\bcand\b"))
    square(page, "e5").click()
    expect(page.locator("#puzzle-msg")).to_contain_text("e5 is not a knight's move from a1")
    square(page, "c2").click()
    expect(page.locator("#move-label")).to_have_text("Square 2 of 25")
    settled(page)
    expect(page.locator("#puzzle-msg")).to_contain_text("can still be completed")

    page.click("#btn-undo")
    expect(page.locator("#move-label")).to_have_text("Square 1 of 25")
    expect(square(page, "c2")).not_to_have_class(re.compile(r"\bvisited\b"))
    settled(page)

    page.click("#btn-hint")
    expect(page.locator("#puzzle-msg")).to_contain_text("Hint: move to")
    hinted = page.locator(".sq.hint")
    expect(hinted).to_have_count(1)
    name = hinted.get_attribute("data-square")
    assert name in {"b3", "c2"}
    hinted.click()
    expect(page.locator("#move-label")).to_have_text("Square 2 of 25")
    expect(square(page, name)).to_have_class(re.compile(r"\bvisited\b"))


def test_puzzle_warns_when_lost_and_says_when_won(page: Page) -> None:
    puzzle(page, 5, 5)
    for name in ("a1", "b3", "d2", "c4"):
        square(page, name).click()
    settled(page)
    expect(page.locator("#puzzle-msg")).to_contain_text("This position is lost")
    page.keyboard.press("u")  # undo by keyboard
    expect(page.locator("#move-label")).to_have_text("Square 3 of 25")

    page.click("#btn-restart")
    for name in kt.solve("5x5", start="a1").path:
        square(page, name).click()
    settled(page)
    expect(page.locator("#puzzle-msg")).to_contain_text("You win! A tour of all 25 squares")
    with page.expect_download() as info:
        page.click('.dl[data-format="json"]')
    data = json.loads(Path(info.value.path()).read_text())
    assert data["path"] == kt.solve("5x5", start="a1").path
    assert kt.Tour.from_dict(data).method == "puzzle"


def test_puzzle_closed_challenge(page: Page) -> None:
    puzzle(page, 6, 6)
    page.check("#challenge")
    tour = kt.solve("6x6", start="a1", closed=True)
    for name in tour.path:
        square(page, name).click()
    settled(page)
    expect(page.locator("#puzzle-msg")).to_contain_text("You win! A closed tour of all 36")
    expect(page.locator(".lines line.closing")).to_have_count(1)


# -- issue 11: the rough edges ----------------------------------------------------------------


def test_click_sets_the_start_again_after_a_resize(page: Page) -> None:
    square(page, "a1").click()
    expect(page.locator('input[name="clicksets"][value="end"]')).to_be_checked()
    set_board(page, 6, 6)
    expect(page.locator('input[name="clicksets"][value="start"]')).to_be_checked()
    square(page, "b1").click()
    expect(page.locator("#start-out")).to_have_text("b1")
    expect(page.locator("#end-out")).to_have_text("any")


@pytest.mark.parametrize(("width", "words"), [(101, "at most 100"), ("8.5", "whole numbers")])
def test_a_refused_size_takes_the_old_tour_away(page: Page, width: object, words: str) -> None:
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Open tour")
    expect(page.locator('.dl[data-format="json"]')).to_be_enabled()
    page.fill("#width", str(width))
    page.dispatch_event("#width", "change")
    expect(page.locator("#status")).to_contain_text(words)
    expect(page.locator("#board .lines line")).to_have_count(0)
    for fmt in ("svg", "png", "gif", "json"):
        expect(page.locator(f'.dl[data-format="{fmt}"]')).to_be_disabled()
    page.click("#btn-solve")  # still refused: no request made with the bad size
    expect(page.locator("#status")).to_contain_text(words)


def test_a_refused_size_leaves_nothing_of_the_old_board(page: Page) -> None:
    """docs/web.md: nothing of the old size stays on screen: not the board, its start square
    or its count line (issue 30, item 12); a valid size brings them back."""
    line = page.locator("#count-line")
    set_board(page, 5, 5)
    square(page, "a1").click()
    expect(page.locator("#start-out")).to_have_text("a1")
    expect(line).to_have_text("304 open tours on 5x5 from a1.", timeout=15_000)
    page.fill("#width", "101")
    page.dispatch_event("#width", "change")
    expect(page.locator("#status")).to_contain_text("at most 100")
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator("#board-canvas")).to_be_hidden()
    expect(page.locator("#start-out")).to_have_text("any")
    expect(line).to_have_text("")
    page.fill("#width", "5")  # the old size again: drawn afresh, nothing kept
    page.dispatch_event("#width", "change")
    expect(page.locator("#board")).to_be_visible()
    expect(square(page, "e5")).to_have_count(1)
    expect(page.locator("#start-out")).to_have_text("any")
    expect(line).to_have_text(
        "1,728 directed open tours on 5x5 (each path counted in both directions).", timeout=15_000
    )


def test_the_number_of_tours_follows_the_board_and_the_mode(page: Page) -> None:
    line = page.locator("#count-line")
    # 8x8, too large to count here: the published figures, labelled with their source, and
    # no count of the program's own (issue 30, item 4)
    expect(line).to_have_text(
        "19,591,828,170,979,904 directed open tours on 8x8 (each path counted in both "
        "directions) \u2014 published: OEIS A165134 (a(8) from Alex Chernov, 2014); not counted "
        "here."
    )
    page.check("#closed")
    expect(line).to_contain_text(
        "13,267,364,410,532 undirected closed tours on 8x8 (each cycle counted once) \u2014 "
        "published: OEIS A001230 (B. D. McKay, Knight's tours of an 8x8 chessboard"
    )
    page.uncheck("#closed")
    square(page, "a1").click()  # from a square: not published; the whole board's figure is
    expect(line).to_have_text(
        "Open tours on 8x8 from a1: not counted here. Published for the whole board: "
        "19,591,828,170,979,904 directed open tours on 8x8 (each path counted in both "
        "directions) \u2014 published: OEIS A165134 (a(8) from Alex Chernov, 2014)."
    )
    assert "too large to count here" in (line.get_attribute("title") or "")
    set_board(page, 7, 7)
    expect(line).to_contain_text("165,575,218,320 directed open tours on 7x7")
    expect(line).to_contain_text("published: OEIS A165134")
    set_board(page, 5, 5)
    expect(line).to_have_text(
        "1,728 directed open tours on 5x5 (each path counted in both directions).", timeout=15_000
    )
    square(page, "a1").click()
    expect(line).to_have_text("304 open tours on 5x5 from a1.", timeout=15_000)
    page.check("#closed")
    expect(line).to_have_text("0 undirected closed tours on 5x5 from a1.")
    page.click("#tab-puzzle")
    expect(line).to_have_text(
        "1,728 directed open tours on 5x5 (each path counted in both directions)."
    )


def test_a_search_that_gave_up_draws_its_partial_path(page: Page) -> None:
    set_board(page, 5, 6)
    square(page, "c3").click()
    page.select_option("#method", "warnsdorff")
    page.select_option("#tiebreak", "first")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Gave up after 23 of 30 squares")
    expect(page.locator("#board .lines line")).to_have_count(22)
    expect(page.locator("#board .sq.unvisited")).to_have_count(7)
    expect(page.locator("#board .sq.visited")).to_have_count(23)
    expect(square(page, "c3")).to_have_class(re.compile(r"\bis-start\b"))
    expect(page.locator('.dl[data-format="json"]')).to_be_disabled()


def test_on_a_phone_solve_and_the_status_are_next_to_the_board(
    browser: Browser, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    pg = context.new_page()
    try:
        pg.goto(f"{server_url}/")
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        board = pg.locator("#board").bounding_box()
        button = pg.locator("#btn-solve").bounding_box()
        assert board is not None and button is not None
        gap = button["y"] - (board["y"] + board["height"])
        assert 0 <= gap < 80, f"Solve is {gap:.0f} px below the board"
        assert button["y"] + button["height"] <= 844, "Solve is off the first screen"
        pg.click("#btn-solve")
        expect(pg.locator("#status")).to_contain_text("Open tour")
        status = pg.locator("#status").bounding_box()
        assert status is not None and status["y"] - (button["y"] + button["height"]) < 40
        assert status["y"] + status["height"] <= 844, "the status line is off the first screen"
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_api_docs_work_offline(browser: Browser, server_url: str) -> None:
    context = browser.new_context()
    outside: list[str] = []

    def only_the_server(route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if url.startswith(server_url):
            route.continue_()  # type: ignore[attr-defined]
        else:
            outside.append(url)
            route.abort()  # type: ignore[attr-defined]

    context.route("**/*", only_the_server)
    pg = context.new_page()
    try:
        pg.goto(f"{server_url}/docs")
        # the board's six, the palette, about, the daily puzzle, the library's five and the
        # number puzzles' three
        expect(pg.locator(".swagger-ui .opblock")).to_have_count(17)
        expect(pg.locator(".swagger-ui")).to_contain_text("/api/solve")
        expect(pg.locator(".swagger-ui")).to_contain_text("/api/count")
    finally:
        context.close()
    assert outside == [], f"/docs fetched from outside: {outside}"


def test_the_sums_of_the_move_numbers_by_rank_and_file(page: Page) -> None:
    set_board(page, 5, 5)
    square(page, "a1").click()
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("tour of 25 squares")
    expect(page.locator(".sums text")).to_have_count(0)  # off until asked for
    page.check("#show-sums")
    page.click("#btn-last")
    expect(page.locator("#move-label")).to_have_text("Move 25 of 25")
    expect(page.locator(".sums text")).to_have_count(10)  # 5 ranks and 5 files
    ranks = [int(t) for t in page.locator(".sums text[data-rank]").all_text_contents()]
    files = [int(t) for t in page.locator(".sums text[data-file]").all_text_contents()]
    assert sum(ranks) == sum(files) == 25 * 26 // 2
    expect(page.locator("#magic-line")).to_contain_text("should add up to 65")
    page.click("#btn-first")  # part of the tour: sums so far, no verdict
    expect(page.locator("#magic-line")).to_have_text("")
    assert sum(int(t) for t in page.locator(".sums text[data-rank]").all_text_contents()) == 1


def test_the_crossings_toggle_marks_where_the_path_crosses(page: Page) -> None:
    """Issue 33: the toggle marks each crossing (fed by /api/solve?metrics=true) once both its
    moves are drawn; their number is the tour's, their places those the server computes."""
    set_board(page, 5, 5)
    square(page, "a1").click()
    page.select_option("#method", "warnsdorff")
    with page.expect_response(lambda r: "api/solve" in r.url) as answer:
        page.click("#btn-solve")
    data = answer.value.json()
    assert "metrics=true" in answer.value.url
    want = kt.Tour.from_dict(data).metrics().crossings
    assert want > 0 and len(data["metrics"]["crossing_points"]) == want
    expect(page.locator("#status")).to_contain_text("tour of 25 squares")
    page.click("#btn-last")
    expect(page.locator("#move-label")).to_have_text("Move 25 of 25")
    expect(page.locator(".crossings .crossing")).to_have_count(0)  # off until asked for
    page.check("#show-crossings")
    expect(page.locator(".crossings .crossing")).to_have_count(want)
    expect(page.locator("#crossing-note")).to_have_text(
        f"{want} crossings: each marked once both its moves are drawn."
    )
    # each mark sits where its two moves cross: the centre of the square (x, y) at the point
    first = data["metrics"]["crossing_points"][0]
    # in the drawing's units: a1's square, and the first mark
    cell = page.locator('[data-square="a1"] .cell')
    size = float(cell.get_attribute("width") or 0)
    cx0 = float(cell.get_attribute("x") or 0) + size / 2
    cy0 = float(cell.get_attribute("y") or 0) + size / 2
    mark = page.locator(".crossings .crossing").first
    got = (float(mark.get_attribute("cx") or 0), float(mark.get_attribute("cy") or 0))
    want_at = (cx0 + first[0] * size, cy0 - first[1] * size)
    assert abs(got[0] - want_at[0]) < 0.01 and abs(got[1] - want_at[1]) < 0.01, (
        got,
        want_at,
        first,
    )
    page.click("#btn-first")  # one move drawn: no two moves to cross
    expect(page.locator(".crossings .crossing")).to_have_count(0)
    page.uncheck("#show-crossings")
    page.click("#btn-last")
    expect(page.locator(".crossings .crossing")).to_have_count(0)
    # the JSON downloaded is the contract's: the metrics are not in it
    with page.expect_download() as info:
        page.click('.dl[data-format="json"]')
    saved = json.loads(Path(info.value.path()).read_text())
    assert "metrics" not in saved and saved["path"] == data["path"]


# -- shaped boards, other pieces, wrapped boards ----------------------------------------------


def test_cut_holes_by_clicking_and_solve_a_closed_tour(page: Page) -> None:
    page.check('input[name="clicksets"][value="hole"]')
    for name in ("d4", "d5", "e4", "e5"):
        square(page, name).click()
    expect(page.locator("#holes-out")).to_have_text("d4,e4,d5,e5")
    expect(page.locator(".sq.hole")).to_have_count(4)
    square(page, "e5").click()  # clicked again: back on the board
    square(page, "e5").click()
    expect(page.locator(".sq.hole")).to_have_count(4)
    page.check("#closed")
    page.locator("#speed").fill("8")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Closed tour of 60 squares")
    expect(page.locator("#move-label")).to_have_text("Move 60 of 60", timeout=15_000)
    for name in ("d4", "e5"):
        expect(square(page, name)).to_have_attribute("aria-label", re.compile(r"^\w+, hole$"))
    expect(page.locator("#count-line")).to_contain_text(
        "8x8 holes=d4,e4,d5,e5 is too large to count here"
    )


def test_a_torus_draws_split_lines_and_the_camel_says_why_not(page: Page) -> None:
    set_board(page, 6, 6)
    page.select_option("#wrap", "torus")
    page.check("#closed")
    page.locator("#speed").fill("8")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Closed tour of 36 squares")
    expect(page.locator("#move-label")).to_have_text("Move 36 of 36", timeout=15_000)
    assert page.locator(".lines g.split").count() > 0  # moves across the seams
    page.select_option("#wrap", "")
    page.select_option("#leaper", "1,3")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("never changes colour")
    page.select_option("#leaper", "2,3")
    set_board(page, 10, 10)
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("tour of 100 squares")
