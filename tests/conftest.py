"""Shared fixtures, test tiers, and the correctness check every method's answers go through.

Tiers (the Makefile's targets; ``pytest`` alone runs the default tier):

- ``browser``: every test of ``test_web_e2e.py`` (and the other ``*_e2e.py`` files) drives
  Debian's Chromium through Playwright: ``KNIGHTSTOUR_CHROMIUM`` if set, else the package
  ``chromium-headless-shell`` (the same engine without the full browser's window machinery: far
  less CPU a page), else the package ``chromium``.
  Where none is found they are skipped and the run ends with a line saying why and how to
  enable them;
- ``slow``: real processes started, killed or interrupted (worker pools, the CLI run as a
  program), Dask clusters, schema fuzzing (``test_web_schema.py``), and any test that takes
  more than about half a second of CPU (``make test-fast`` stays an everyday loop of a minute or so);
- ``sweep``: a whole domain walked (every square of every board up to an area, a whole search
  pass, a 100,000-tour library). Left out unless ``--all`` is given (``make test-all``); the
  default tier runs a fixed-seed sample of each through :func:`tiers.sample` instead.

``make test-fast`` leaves out ``browser`` and ``slow``; ``make test`` runs both; ``make test-all``
adds ``--all``.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

import tiers
from knightstour.board import Board

# CI replays the same generated examples every run (a submission's checks must not hinge on the
# luck of a draw); elsewhere each run draws new ones, so the fuzz tests go on finding things
# A run started in the background of a script (``make test &``, a CI runner) inherits SIGINT
# ignored, and so would every process the tests start (an ignored signal stays ignored across
# exec): the Ctrl-C tests would wait for a stop that never comes, or pass without one. The
# tests' processes get SIGINT as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

#: Debian's Chromium executables the browser tests use, the first found (or KNIGHTSTOUR_CHROMIUM)
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = os.environ.get("KNIGHTSTOUR_CHROMIUM") or next(
    (c for c in CHROMIUMS if os.access(c, os.X_OK)), CHROMIUMS[0]
)
#: Test files whose every test is in a tier.
TIER_FILES = {
    "test_web_e2e.py": "browser",
    "test_web_schema.py": "slow",
    "distributed.py": "slow",  # the doctest of counting/distributed.py starts a Dask cluster
    "library.md": "slow",  # docs/library.md generates and stores libraries of tours
    "cross.py": "slow",  # the doctests of magic/cross.py and magic/construct.py build 12-wide
    "construct.py": "slow",  # semi-magic tours (about a second each)
    "procs.py": "slow",  # its doctest starts and interrupts a real process
}
NO_CHROMIUM = (
    f"no Chromium at {CHROMIUM}: run 'apt-get install chromium-headless-shell' as root (make "
    f"test does it when it can) or set KNIGHTSTOUR_CHROMIUM to a Chromium executable"
)


def chromium_available() -> bool:
    """Whether the browser tests can run: a Chromium executable where they look for it."""
    return os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--all``: the whole sweeps too (``make test-all``)."""
    parser.addoption(
        "--all",
        action="store_true",
        default=False,
        help="walk whole domains: run the tests marked sweep, and tiers.sample takes everything",
    )


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown under -p no:xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core for a run with the tests that mostly wait (the browser's,
    real processes, time limits: the slow and browser tiers), so that a waiting test leaves its
    core to another; one a core for the fast tier, which computes (more workers would only
    collect the tests more times)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    fast = "not browser and not slow" in (config.getoption("markexpr") or "")
    return cores if fast else 2 * cores


def pytest_configure(config: pytest.Config) -> None:
    """Tell :mod:`tiers` whether this run takes whole domains (before any test is collected)."""
    tiers.WHOLE = bool(config.getoption("--all"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tier files' tests, leave the sweeps out without ``--all``, and skip the browser
    tests when there is no Chromium."""
    if not tiers.WHOLE:
        swept = [item for item in items if item.get_closest_marker("sweep") is not None]
        if swept:
            config.hook.pytest_deselected(items=swept)
            items[:] = [item for item in items if item.get_closest_marker("sweep") is None]
    have_browser = chromium_available()
    for item in items:
        tier = TIER_FILES.get(item.path.name)
        if tier is not None:
            item.add_marker(getattr(pytest.mark, tier))
        if item.get_closest_marker("browser") is not None and not have_browser:
            item.add_marker(pytest.mark.skip(reason=NO_CHROMIUM))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say loudly, at the end of the run, that the browser tests did not run, and why (from the
    reports, which pytest-xdist's workers send back too)."""
    skipped = [
        r for r in terminalreporter.stats.get("skipped", []) if NO_CHROMIUM in str(r.longrepr)
    ]
    if skipped:
        terminalreporter.write_line(
            f"browser tests skipped ({len(skipped)}): {NO_CHROMIUM}", yellow=True, bold=True
        )


def assert_is_tour(
    board: Board,
    indices: np.ndarray,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
) -> None:
    """An independent, plain check that ``indices`` is a tour (not using find_problems)."""
    seq = [int(v) for v in indices]
    assert len(seq) == board.size, f"{len(seq)} squares, expected {board.size}"
    assert sorted(seq) == sorted(board.squares()), "not every square exactly once"
    for a, b in itertools.pairwise(seq):
        ax, ay = a % board.width, a // board.width
        bx, by = b % board.width, b // board.width
        assert sorted((abs(ax - bx), abs(ay - by))) == [1, 2], f"{a}->{b} is not a knight's move"
    if closed:
        a, b = seq[-1], seq[0]
        assert sorted(
            (abs(a % board.width - b % board.width), abs(a // board.width - b // board.width))
        ) == [1, 2], "not closed"
    if start is not None:
        assert seq[0] == start
    if end is not None:
        assert seq[-1] == end


def assert_is_partial_path(board: Board, indices: np.ndarray) -> None:
    """A path of distinct squares joined by knight's moves (what a stuck heuristic shows)."""
    seq = [int(v) for v in indices]
    assert len(set(seq)) == len(seq)
    assert all(0 <= s < board.area for s in seq)
    for a, b in itertools.pairwise(seq):
        assert board.is_move(a, b)


# -- the browser tests' shared fixtures: the app served on a free port, the system's Chromium -------

#: Chromium's flags for the browser tests.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """The web app (with its warm-up) served on a free local port, one a test process. Its searches get 60 s rather
    than 5 (``Limits.time_limit``): on a busy machine an 8x8 solve can outlast 5 s, and what
    these tests check is the page, not the machine's speed."""
    from knightstour.web.app import Limits, create_app
    from knightstour.web.server import running_server

    with running_server(create_app(Limits(time_limit=60.0, hint_time_limit=30.0))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright (never a downloaded build), one a test module (each
    test opens its own context: nothing of one test's pages reaches another's). Not one a
    session: Playwright's sync API keeps an asyncio loop running in the thread while it lives,
    and the tests of other modules on that worker that call ``asyncio.run`` would fail. Its expectations wait
    up to 15 s (Playwright's default is 5 s): on a busy machine a first solve can take longer,
    and a wait is not a measure (benchmarks/bench_web_page.py measures)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15_000)

    if not chromium_available():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: install Debian's package (apt-get install "
            f"chromium-headless-shell) or set KNIGHTSTOUR_CHROMIUM to a Chromium executable"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def small_library_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app serving :func:`gallery_data.small_library` (read-only to the tests that use it:
    the gallery's and the accessibility scan's), one a test process."""
    from gallery_data import small_library
    from knightstour.web.app import create_app
    from knightstour.web.server import running_server

    db = small_library(tmp_path_factory.mktemp("small") / "tours.db")
    with running_server(create_app(library=db)) as url:
        yield url


@pytest.fixture
def page(browser: Any, server_url: str) -> Iterator[Any]:
    """The app's page in a new context, ready; no error in the browser by the test's end (the
    browser test files' own ``page``, where they have one, stands in its place)."""
    from web_helpers import opened

    with opened(browser, f"{server_url}/") as pg:
        yield pg
