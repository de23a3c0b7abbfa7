"""``knightstour generate``: add many distinct tours to a tour library."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from knightstour.cli._options import (
    EXIT_OK,
    UsageError,
    add_board_options,
    add_options,
    board_of,
    int_range,
    options_of,
)
from knightstour.cli._output import capped_workers, compiling_said, err
from knightstour.cli.progress import progress_bar

NAME = "generate"
#: The largest count SQLite can record: ``2**63 - 1``.
MAX_COUNT = (1 << 63) - 1
HELP = "add many distinct tours to a tour library"
DESCRIPTION = (
    "Add N new tours of BOARD to the tour library, each distinct from every "
    "tour it holds up to the board's symmetries, reversal and (closed tours) the start "
    "square. Runs worker processes on every core; a run stopped at any point continues "
    "when the same command is run again. Shaped boards (--holes, --mask, --corners, "
    "--leaper, --wrap, WxHxD) are kept apart from plain ones, each up to its own symmetries. "
    "With --all, store every tour of a small plain board "
    "(one per class up to symmetry, walked exhaustively): boards with more than "
    "10,000,000 tours, or whose tours cannot be counted in a few seconds, are refused."
)
#: The exit code of a run stopped by Ctrl-C (its tours so far are kept).
EXIT_STOPPED = 130
#: The options that only random generation (``--count``) takes.
COUNT_ONLY = ("seed", "workers", "method")


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``generate``."""
    from knightstour.library.generate import GENERATE_METHODS

    add_board_options(p)
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--count",
        "-n",
        type=int_range(1, MAX_COUNT),
        metavar="N",
        help="how many new tours to add",
    )
    how.add_argument(  # local to generate: no other command lists every tour
        "--all",
        action="store_true",
        help="every tour of the board (from --start): a complete library (at most "
        "10,000,000 tours)",
    )
    add_options(
        p,
        "closed",
        "start",
        "seed",
        "db",
        start={"help": "start every tour on this square"},
        seed={"help": "seed (default: random, kept in the library)"},
    )
    add_options(p, workers={"help": "worker processes (default and at most: one per core)"})
    p.add_argument(
        "--method",
        default="auto",
        choices=GENERATE_METHODS,
        help="auto (default), warnsdorff (random walks) or backtrack (random search)",
    )
    p.add_argument(
        "--keep-fewest",
        choices=("crossings", "turns"),
        metavar="METRIC",
        help="keep the N tours (--count) with the fewest crossings (or turns) among the tours "
        "met (--meet): the others are not stored",
    )
    p.add_argument(
        "--meet",
        type=int_range(1, MAX_COUNT),
        metavar="M",
        help="with --keep-fewest: make M tours to choose from (default 10 x N, at least 1,000)",
    )
    add_options(p, "quiet")


def run(args: argparse.Namespace) -> int:
    """Generate, store and report; exit 3 when the run stopped short of N new tours."""
    from knightstour.library.generate import generate, max_workers

    board = board_of(args)
    if args.meet is not None and args.keep_fewest is None:
        raise UsageError("--meet goes with --keep-fewest")
    if args.all:
        if args.keep_fewest:
            raise UsageError("--all stores every tour: it keeps no fewest (use --count N)")
        return _run_all(args, board)
    if args.keep_fewest:
        return _run_fewest(args, board)
    kind = "closed" if args.closed else "open"
    label = _label(args, board)
    args.workers = capped_workers(args.workers, max_workers())
    asked = options_of(args, "closed", "start", "seed", "db", "workers", "method")

    def work(bar: Any) -> Any:
        return generate(board, args.count, progress=bar, **asked)

    r = _until_stopped(work, f"{label} {kind}", "tours", args.quiet)
    if r is None:
        return EXIT_STOPPED
    resumed = f", resuming run {r.run} at {r.resumed_from:,}" if r.resumed_from else ""
    print(
        f"added {r.added:,} new {label} {kind} tours in {r.seconds:.2f} s "
        f"({r.rate:,.0f} a second; {r.method}, seed {r.seed}{resumed}"
        f"{compiling_said(r.compiling)}); "
        f"{args.db} holds {r.library_count:,} of them"
        + (
            f", every {label} {kind} tour{_from(board, args.start)} up to symmetry "
            f"({r.complete}): no new one is left to add"
            if r.complete
            else ""
        )
    )
    return EXIT_OK


def _run_fewest(args: argparse.Namespace, board: Any) -> int:
    """``generate --keep-fewest``: the N tours with the fewest crossings (or turns) met."""
    from knightstour.library.generate import keep_fewest, max_workers

    kind = "closed" if args.closed else "open"
    label = _label(args, board)
    args.workers = capped_workers(args.workers, max_workers())
    asked = options_of(args, "closed", "start", "seed", "db", "workers", "method")
    metric = args.keep_fewest

    def work(bar: Any) -> Any:
        return keep_fewest(board, args.count, metric, meet=args.meet, progress=bar, **asked)

    with progress_bar(f"{label} {kind}, fewest {metric}", unit="tours", quiet=args.quiet) as bar:
        r = work(bar)
    held = r.kept - r.added
    span = "" if r.least is None else (
        f" ({r.least:,} to {r.most:,} {metric})" if r.least != r.most else f" ({r.least:,} {metric})"
    )  # fmt: skip
    print(
        f"kept the {r.kept:,} {label} {kind} tours with the fewest {metric}{span} of {r.met:,} "
        f"met ({r.distinct:,} distinct) in {r.seconds:.2f} s ({r.method}, seed {r.seed}); "
        f"{r.added:,} new to {args.db}" + (f", {held:,} held already" if held else "")
    )
    if r.stopped:
        err(f"stopped after meeting {r.met:,} tours; the fewest met so far are kept")
        return EXIT_STOPPED
    return EXIT_OK


def _from(board: Any, start: str | None) -> str:
    """`` from a1`` for a run from a start square, else ''."""
    return "" if start is None else f" from {board.square_name(board.parse_square(start))}"


def _until_stopped(work: Callable[[Any], Any], title: str, unit: str, quiet: bool) -> Any:
    """``work(bar)`` under a progress bar; None when Ctrl-C stopped it (after saying on standard
    error what was kept)."""
    from knightstour.library.generate import GenerateInterrupted

    try:
        with progress_bar(title, unit=unit, quiet=quiet) as bar:
            return work(bar)
    except GenerateInterrupted as e:
        err(str(e))
    except KeyboardInterrupt:
        err("stopped; the tours stored so far are kept")
    return None


def _label(args: argparse.Namespace, board: Any) -> str:
    """The board as the messages name it: as typed for a plain board, else its description."""
    return args.board if board.is_plain_knight and args.board else board.description


def _run_all(args: argparse.Namespace, board: Any) -> int:
    """``generate --all``: every tour of the board, one per class, into the library."""
    from knightstour.library.complete import generate_all

    given = ["--" + name for name in COUNT_ONLY if getattr(args, name) not in (None, "auto")]
    if given:
        raise UsageError(f"--all lists every tour: it takes no {', '.join(given)}")
    if not board.is_plain_knight:
        raise UsageError(
            f"--all lists the tours of plain knight's boards, not {board.description}: "
            f"use --count N"
        )
    kind = "closed" if args.closed else "open"
    label = _label(args, board)

    def work(bar: Any) -> Any:
        return generate_all(board, closed=args.closed, start=args.start, db=args.db, progress=bar)

    r = _until_stopped(work, f"{label} {kind}, all", "parts", args.quiet)
    if r is None:
        return EXIT_STOPPED
    where = "" if r.start is None else f" from {r.start}"
    print(
        f"added {r.added:,} new {label} {kind} tours in {r.seconds:.2f} s (every tour"
        f"{where}: {r.classes:,} up to symmetry, standing for all {r.count:,} directed ones"
        f"{compiling_said(r.compiling)}); "
        f"{args.db} holds {r.library_count:,} of them"
    )
    return EXIT_OK
