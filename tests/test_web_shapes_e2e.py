"""End-to-end, shaped boards in the page (issue 14): 3-D boards drawn as labelled layers, solved
and played; counts on a holed board; the counting's reason on boards it does not cover.

Headless Chromium driven by Playwright, found as in ``test_web_e2e.py`` (the system's Chromium;
no browser is ever downloaded).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import knightstour as kt
from knightstour.board import Board
from knightstour.counting import count_request
from knightstour.errors import InvalidInputError

pytestmark = pytest.mark.browser


def open_page(browser: Browser, server_url: str, width: int, height: int) -> tuple[Page, list]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, accept_downloads=True
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    pg.goto(f"{server_url}/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    return pg, errors


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    pg, errors = open_page(browser, server_url, 1280, 900)
    yield pg
    pg.context.close()
    assert errors == [], f"errors in the browser: {errors}"


def square(pg: Page, name: str):
    return pg.locator(f'[data-square="{name}"]')


def set_board(pg: Page, width: int, height: int, layers: int = 1) -> None:
    pg.fill("#width", str(width))
    pg.fill("#height", str(height))
    pg.fill("#depth", str(layers))
    pg.dispatch_event("#depth", "change")
    corner = f"{kt.board.file_name(width - 1)}{height}" + (f":{layers}" if layers > 1 else "")
    expect(square(pg, corner)).to_have_count(1)


def settled(pg: Page) -> None:
    expect(pg.locator("#puzzle-msg")).not_to_have_class(re.compile(r"\bbusy\b"))


def refusal(board: Board) -> str:
    """The counting's own reason for not counting ``board``."""
    with pytest.raises(InvalidInputError) as refused:
        count_request(board)
    return str(refused.value).splitlines()[0]


def shown_path(pg: Page) -> list[str]:
    """The tour as the page shows it: each square's spoken label names its move number."""
    labels = pg.eval_on_selector_all(
        ".sq", "els => els.map(e => [e.dataset.square, e.getAttribute('aria-label')])"
    )
    numbered = {}
    for name, label in labels:
        m = re.search(r", move (\d+)", label)
        if m:
            numbered[int(m.group(1))] = name
    return [numbered[k] for k in sorted(numbered)]


# -- 3-D boards: solve ------------------------------------------------------------------------


def test_three_layers_solved_and_shown_layer_by_layer(page: Page) -> None:
    set_board(page, 4, 4, 3)
    titles = page.locator(".layer-title")
    expect(titles).to_have_text(["layer 1", "layer 2", "layer 3"])
    for z in (1, 2, 3):
        group = page.locator(f'#board [role="rowgroup"][aria-label="layer {z}"]')
        expect(group.locator('[role="gridcell"]')).to_have_count(16)
    expect(page.locator("#board")).to_have_attribute("aria-rowcount", "12")
    expect(page.locator("#count-line")).to_have_text(
        f"Number of tours: not counted here; {refusal(Board(4, 4, depth=3))}."
    )

    square(page, "a1:1").click()
    expect(page.locator("#start-out")).to_have_text("a1:1")
    page.locator("#speed").fill("8")
    page.click("#btn-solve")
    expect(page.locator("#status")).to_contain_text("Open tour of 48 squares from a1:1")
    expect(page.locator("#move-label")).to_have_text("Move 48 of 48", timeout=15_000)
    numbers = page.locator(".nums text").all_text_contents()
    assert sorted(int(n) for n in numbers if n) == list(range(1, 49))

    path = shown_path(page)
    board = Board(4, 4, depth=3)
    tour = kt.Tour(board, path)  # validated: every square once, each step a 3-D knight's move
    assert tour.path[0] == "a1:1"
    layer = [p.split(":")[1] for p in path]
    hops = sum(a != b for a, b in itertools.pairwise(layer))
    assert hops > 0
    # a move within a layer is a line; a move to another layer is a hop, numbered on both sides
    expect(page.locator('.lines g.hop[visibility="visible"]')).to_have_count(hops)
    expect(page.locator('.lines > line[visibility="visible"]')).to_have_count(47 - hops)
    # the first hop: a disc with the next layer's number, and one with the layer it came from
    first = next(k for k in range(47) if layer[k] != layer[k + 1])
    hop = page.locator(".lines g.hop").first
    expect(hop.locator("text")).to_have_text([layer[first + 1], layer[first]])
    expect(square(page, "a1:1")).to_have_attribute(
        "aria-label", re.compile(r"^a1:1 \(layer 1\), move 1\b")
    )
    # the knight's layer has its title marked
    last_layer = int(layer[-1])
    expect(titles.nth(last_layer - 1)).to_have_class(re.compile(r"\bhere\b"))

    with page.expect_download() as info:
        page.click('.dl[data-format="json"]')
    data = json.loads(Path(info.value.path()).read_text())
    assert data["depth"] == 3 and kt.Tour.from_dict(data).path == path
    with page.expect_download() as info:
        page.click('.dl[data-format="svg"]')
    assert info.value.suggested_filename == "tour-4x4x3-a1-1.svg"
    assert "<svg" in Path(info.value.path()).read_text()[:500]


def test_layers_wrap_on_a_narrow_screen(browser: Browser, server_url: str) -> None:
    pg, errors = open_page(browser, server_url, 390, 844)
    try:
        set_board(pg, 4, 4, 3)
        cols = int(pg.locator("#board").get_attribute("data-cols") or "0")
        assert 1 <= cols < 3, f"{cols} layers side by side on a phone"
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        size = square(pg, "a1:3").bounding_box()
        assert size is not None and size["width"] >= 24, f"squares of {size} px"
        below = square(pg, "a1:3").bounding_box()
        above = square(pg, "a4:1").bounding_box()
        assert below is not None and above is not None and below["y"] > above["y"]
        pg.set_viewport_size({"width": 1280, "height": 900})  # wider: the layers in one row
        expect(pg.locator("#board")).to_have_attribute("data-cols", "3")
    finally:
        pg.context.close()
    assert errors == [], f"errors in the browser: {errors}"


def test_the_keyboard_goes_from_layer_to_layer(page: Page) -> None:
    set_board(page, 4, 4, 3)
    square(page, "c1:1").focus()
    page.keyboard.press("ArrowRight")
    expect(square(page, "d1:1")).to_be_focused()
    page.keyboard.press("ArrowRight")  # on, into the layer beside it
    expect(square(page, "a1:2")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press(">")
    expect(square(page, "a2:3")).to_be_focused()
    page.keyboard.press("<")
    page.keyboard.press("<")
    expect(square(page, "a2:1")).to_be_focused()
    page.keyboard.press("ArrowLeft")  # the first layer's edge: stays
    expect(square(page, "a2:1")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#start-out")).to_have_text("a2:1")


# -- 3-D boards: puzzle -----------------------------------------------------------------------


def test_puzzle_moves_across_layers(page: Page) -> None:
    page.click("#tab-puzzle")
    expect(page.locator("#panel-puzzle")).to_be_visible()
    set_board(page, 4, 4, 3)
    board = Board(4, 4, depth=3)
    moves = kt.solve(board, start="a1:1").path[:5]

    square(page, moves[0]).click()
    expect(page.locator("#move-label")).to_have_text("Square 1 of 48")
    legal = {board.square_name(s) for s in board.moves(board.parse_square(moves[0]))}
    expect(page.locator(".sq.cand")).to_have_count(len(legal))
    shown = set(page.eval_on_selector_all(".sq.cand", "els => els.map(e => e.dataset.square)"))
    assert shown == legal and {n.split(":")[1] for n in shown} > {"1"}  # other layers too

    wrong = next(n for n in board_names(board) if n not in legal and n != moves[0])
    square(page, wrong).click()
    expect(page.locator("#puzzle-msg")).to_contain_text(f"{wrong} is not a knight's move")
    for k, name in enumerate(moves[1:], start=2):
        square(page, name).click()
        expect(page.locator("#move-label")).to_have_text(f"Square {k} of 48")
    settled(page)
    expect(page.locator("#puzzle-msg")).to_contain_text("A tour can still be completed")
    for name in moves:
        expect(square(page, name)).to_have_class(re.compile(r"\bvisited\b"))
    here = board.parse_square(moves[-1])
    onward = {board.square_name(s) for s in board.moves(here)} - set(moves)
    shown = set(page.eval_on_selector_all(".sq.cand", "els => els.map(e => e.dataset.square)"))
    assert shown == onward

    page.keyboard.press("u")  # undo by keyboard
    expect(page.locator("#move-label")).to_have_text("Square 4 of 48")
    settled(page)
    page.click("#btn-hint")
    expect(page.locator("#puzzle-msg")).to_contain_text("Hint: move to")
    hinted = page.locator(".sq.hint")
    expect(hinted).to_have_count(1)
    assert hinted.get_attribute("data-square") in {
        board.square_name(s) for s in board.moves(board.parse_square(moves[3]))
    }


def board_names(board: Board) -> list[str]:
    return [board.square_name(s) for s in board.squares()]


# -- counts on shaped boards ------------------------------------------------------------------


def test_a_hole_cut_by_clicking_is_counted(page: Page) -> None:
    line = page.locator("#count-line")
    set_board(page, 5, 5)
    expect(line).to_contain_text("1,728 directed open tours on 5x5", timeout=15_000)
    page.check('input[name="clicksets"][value="hole"]')
    square(page, "c3").click()
    expect(page.locator("#holes-out")).to_have_text("c3")
    holed = Board(5, 5, holes=frozenset({12}))
    number = kt.count(holed)
    expect(line).to_have_text(
        f"{number:,} directed open tours on 5x5 holes=c3 (each path counted in both directions).",
        timeout=15_000,
    )
    page.check('input[name="clicksets"][value="start"]')
    square(page, "a1").click()
    from_a1 = kt.count(holed, start="a1")
    expect(line).to_have_text(f"{from_a1:,} open tours on 5x5 holes=c3 from a1.", timeout=15_000)
    page.check("#closed")  # 24 squares, but the holed board's closed tours: theory or a count
    closed = kt.count(holed, closed=True, start="a1", directed=False)
    expect(line).to_contain_text(f"{closed:,} undirected closed tours on 5x5 holes=c3 from a1")


def test_a_wrapped_board_says_why_it_is_not_counted(page: Page) -> None:
    set_board(page, 5, 5)
    page.select_option("#wrap", "torus")
    expect(page.locator("#count-line")).to_have_text(
        f"Number of tours: not counted here; {refusal(Board(5, 5, wrap='torus'))}."
    )
    page.select_option("#wrap", "")
    page.select_option("#leaper", "2,3")  # a flat board again: another piece is counted
    number = kt.count(Board(5, 5, leaper="zebra"))
    expect(page.locator("#count-line")).to_have_text(
        f"{number:,} directed open tours on 5x5 leaper=2,3 (each path counted in both directions)."
    )
