"""``knightstour magic``: find semi-magic tours (8x8 and smaller), or build them (bigger boards).

On boards of up to 64 squares the compiled two-ended search walks the numbered ranges in order,
recording each part in the tour library (``--db``), so the same command run again goes on where
the last one stopped; a board whose every range is walked without a find has no semi-magic tour.
Bigger boards of 4m x 4n squares get constructed tours. Each tour is validated, checked by
``Tour.magic()``, printed and stored.

>>> import os, tempfile
>>> from knightstour.cli import main
>>> here = os.getcwd()
>>> os.chdir(tempfile.mkdtemp())
>>> main(["magic", "4x6", "--db", "m.db", "--quiet"])
no semi-magic tour on 4x6: every one of its 42 ranges was walked to its end (... nodes)
1
>>> main(["magic", "5x6"])      # the reason goes to stderr
2
>>> os.chdir(here)
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_NO,
    EXIT_OK,
    UsageError,
    add_options,
    int_range,
)
from knightstour.cli.progress import progress_bar

if TYPE_CHECKING:
    import numpy as np

    from knightstour.board import Board
    from knightstour.magic.search import Report

NAME = "magic"
HELP = "find or build semi-magic and magic tours"
DESCRIPTION = (
    "Find semi-magic knight's tours (every rank and file adds up to the same number) on BOARD "
    "and store them in a tour library. Boards of up to 64 squares are searched, range by range "
    "(resumable: run the same command again to go on); bigger 4m x 4n boards get constructed "
    "tours. --diagonal asks for magic tours: the diagonals too."
)
#: The 2003 census of 8x8, the reason no 8x8 tour is magic.
CENSUS = (
    "no magic tour on 8x8: the 2003 census (Stertenbrink, Meyrignac, Mackay) found every "
    "semi-magic 8x8 tour, 140 up to symmetry, and none has both diagonals adding up to 260"
)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``magic``."""
    add_options(p, "board", "closed", closed={"help": "closed tours only (search)"})
    p.add_argument(
        "--diagonal", action="store_true", help="magic tours: both long diagonals add up too"
    )
    p.add_argument(
        "--count",
        type=int_range(1),
        metavar="N",
        help="stop after N new tours (search: default every range; construction: default 1)",
    )
    add_options(p, "db", "time_limit", "scheduler", "format", "quiet", format={
        "choices": ("text", "json")})  # fmt: skip
    p.add_argument(
        "--workers",
        type=int_range(1, 256),
        metavar="K",
        help="threads walking parts (default: one per core)",
    )
    p.add_argument(
        "--range",
        dest="ranges",
        type=int_range(0),
        action="append",
        metavar="R",
        help="walk only range R (repeatable; 0 is the quad pass, which 4m x 4n boards walk "
        "first; see docs/magic.md)",
    )


def run(args: argparse.Namespace) -> int:
    """Search or construct; exit 0, 1 (proved none), 2 (bad input) or 3 (stopped early)."""
    from knightstour.board import parse_board
    from knightstour.magic.search import refusal
    from knightstour.theory import semi_magic_obstruction

    board = parse_board(args.board)
    if board.depth > 1:
        raise UsageError(f"magic tours are numbered on flat boards, not on {board.spec}")
    w, h = board.width, board.height
    small = w * h <= 64  # searched; bigger boards are built, and construct says why not
    # bigger boards: construct's gate says why not, this theorem included
    reason = (refusal(w, h) or semi_magic_obstruction(w, h)) if small else None
    if reason is not None:
        raise UsageError(reason)
    if args.diagonal and small:
        raise UsageError(
            CENSUS if (w, h) == (8, 8) else
            f"--diagonal: the search looks for semi-magic tours; magic ones are built on 12x12 "
            f"and bigger, not {w}x{h}"
        )  # fmt: skip
    if not small:
        for flag, given in (("--closed", args.closed), ("--range", args.ranges),
                            ("--scheduler", args.scheduler), ("--workers", args.workers)):  # fmt: skip
            if given:
                raise UsageError(f"{flag} is for the search of boards up to 64 squares")
        return _construct(args, board)
    return _search(args, board)


def _search(args: argparse.Namespace, board: Board) -> int:
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library
    from knightstour.magic.search import ranges, search

    w, h = board.width, board.height
    shown: list[dict[str, Any]] = []

    def found(order: np.ndarray) -> None:
        shown.append(_show(args, board, order))

    with Library(args.db) as lib, progress_bar(f"magic {w}x{h}", unit="part",
                                               quiet=args.quiet) as bar:  # fmt: skip
        journal = MagicJournal(lib, w, h)
        try:
            report = search(
                w, h, journal, closed=args.closed, count=args.count, time_limit=args.time_limit,
                workers=args.workers, scheduler=args.scheduler, only=args.ranges,
                progress=bar, on_found=found,
            )  # fmt: skip
        except KeyboardInterrupt:
            print(f"stopped; the parts walked and the walks under way are kept in {args.db}: "
                  "run the same command to go on")  # fmt: skip
            return 130
        classes = _classes(lib, board)
    total = len(ranges(w, h))
    data = {
        "board": f"{w}x{h}", "closed": args.closed, "ranges": report.ranges,
        "ranges_done": report.ranges_done, "parts_done": report.parts_done,
        "found": report.found, "new": report.new, "classes_in_library": classes,
        "nodes": report.nodes, "seconds": round(report.seconds, 3), "stopped": report.stopped,
        "tours": shown,
    }  # fmt: skip
    if args.format == "json":
        print(json.dumps(data))
    none = report.complete and classes == 0 and not args.ranges and not args.closed
    if args.format != "json":
        if none:
            print(f"no semi-magic tour on {w}x{h}: every one of its {total} ranges was walked "
                  f"to its end ({report.nodes:,} nodes)")  # fmt: skip
        else:
            print(_summary(report, classes, args.db))
    if none:
        return EXIT_NO
    if report.stopped in (None, "count"):
        return EXIT_OK
    return EXIT_OK if args.count is None and report.new else EXIT_GAVE_UP


def _summary(report: Report, classes: int, db: str) -> str:
    finished = report.complete and (report.ranges or not report.stopped)
    state = "every range asked for walked" if finished else (
        f"stopped ({report.stopped})" if report.stopped else "stopped")  # fmt: skip
    quads = "walked whole" if report.quads_done else "under way"
    if report.ranges and report.quads:
        walked = f"the quad pass (range 0) {quads}; numbered ranges walked: {report.ranges_done} of {report.ranges}"
    elif report.ranges:
        walked = f"numbered ranges walked: {report.ranges_done} of {report.ranges}"
    else:
        walked = f"the quad pass (range 0) alone, {quads}"
    return (
        f"{walked}; parts walked this run: "
        f"{report.parts_done:,}; found {report.found} semi-magic numberings, {report.new} new; "
        f"{classes} classes in {db}; {report.nodes:,} nodes in {report.seconds:.1f} s; {state}"
    )


def _classes(lib: Any, board: Board) -> int:
    """The semi-magic tours (classes) the library holds on ``board``: stored as numberings."""
    from knightstour.library.queries import magic_counts

    return magic_counts(lib, f"{board.width}x{board.height}", False)[0]


def _show(args: argparse.Namespace, board: Board, order: np.ndarray) -> dict[str, Any]:
    """Validate a found tour, check its sums, print it (text); its JSON."""
    from knightstour.errors import InternalError
    from knightstour.tour import Tour

    tour = Tour(board, order, closed=False, method="magic")
    magic = tour.magic()
    if not magic.semi_magic or (args.diagonal and not magic.magic):
        raise InternalError(f"a tour the magic search found is not semi-magic: {magic.summary()}")
    if args.format != "json":
        if board.area <= 1024:
            print(tour.board_text())
        closed = " (closed: its last square is a move from its first)" if _closed(tour) else ""
        print(magic.summary() + closed)
        print()
    return {**tour.to_dict(), "magic": magic.to_dict(), "reentrant": _closed(tour)}


def _closed(tour: Any) -> bool:
    b = tour.board
    a, z = int(tour.indices[0]), int(tour.indices[-1])
    dx, dy = abs(a % b.width - z % b.width), abs(a // b.width - z // b.width)
    return {dx, dy} == {1, 2}


def _construct(args: argparse.Namespace, board: Board) -> int:
    from knightstour.library.store import Library

    w, h = board.width, board.height
    try:
        from knightstour.magic.construct import construct, constructible
    except ImportError:
        raise UsageError(
            f"no construction for {w}x{h} yet: the search takes boards of up to 64 squares, "
            "and the constructions of bigger boards are still to come (docs/magic.md)"
        ) from None
    reason = constructible(w, h, args.diagonal)
    if reason is not None:
        raise UsageError(reason)
    wanted = args.count or 1
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    shown: list[dict[str, Any]] = []
    tours = []
    from knightstour.tour import Tour

    with progress_bar(f"magic {w}x{h}", unit="tour", quiet=args.quiet) as bar:
        for seed in range(wanted):
            if deadline is not None and time.monotonic() > deadline:
                break
            order = construct(w, h, diagonal=args.diagonal, seed=seed)
            tours.append(Tour(board, order, closed=False, method="magic-construct"))
            shown.append(_show(args, board, order))
            if bar is not None:
                bar(seed + 1, wanted)
    with Library(args.db) as lib:
        new = lib.tours.add(tours)
    if args.format == "json":
        print(json.dumps({"board": f"{w}x{h}", "built": len(tours), "new": new, "tours": shown}))
    else:
        kind = "magic" if args.diagonal else "semi-magic"
        noun = "tour" if len(tours) == 1 else "tours"
        print(f"built {len(tours)} {kind} {noun} of {w}x{h}; {new} new in {args.db}")
    return EXIT_OK if len(tours) == wanted else EXIT_GAVE_UP
