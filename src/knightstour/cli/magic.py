"""``knightstour magic``: find semi-magic tours (8x8 and smaller), or build them (bigger boards).

On boards of up to 64 squares the compiled search walks the quad and quarter passes where they
apply, then the start passes (Denef's decomposition: 1 on each start square in turn, the end
free), recording each part in the tour library (``--db``), so the same command run again goes on
where the last one stopped; a board whose every pass is walked without a find has no semi-magic
tour. ``--range`` also takes the numbered ranges of the older two-ended walk.
Bigger boards of 4m x 4n squares get constructed tours. Each tour is validated, checked by
``Tour.magic()``, printed and stored. The choice, the theorems' refusals and the checks are
:func:`knightstour.magic.find`'s; this module parses the options and prints.

>>> import os, tempfile
>>> from knightstour.cli import main
>>> here = os.getcwd()
>>> os.chdir(tempfile.mkdtemp())
>>> main(["magic", "4x6", "--db", "m.db", "--quiet"])
no semi-magic tour on 4x6: every one of its 6 start passes was walked to its end (... nodes)
1
>>> main(["magic", "6x10"])     # a theorem says no
no semi-magic tour on 6x10: both sides are 2 more than a multiple of 4 ...
1
>>> main(["magic", "5x6"])      # no magic constant: the reason goes to stderr
2
>>> os.chdir(here)
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_NO,
    EXIT_OK,
    UsageError,
    add_options,
    int_range,
)
from knightstour.cli._output import capped_workers, compiling_said
from knightstour.cli.progress import progress_bar

if TYPE_CHECKING:
    from knightstour.board import Board
    from knightstour.magic import Found, MagicTour

NAME = "magic"
HELP = "find or build semi-magic and magic tours"
DESCRIPTION = (
    "Find semi-magic knight's tours (every rank and file adds up to the same number) on BOARD "
    "and store them in a tour library. Boards of up to 64 squares are searched, range by range "
    "(resumable: run the same command again to go on); bigger 4m x 4n boards get constructed "
    "tours. --diagonal asks for magic tours: the diagonals too."
)
#: The exit code of each outcome of :func:`knightstour.magic.find`.
EXITS = {"none": EXIT_NO, "done": EXIT_OK, "stopped": EXIT_GAVE_UP}


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``magic``."""
    add_options(p, "board", "closed", closed={
        "help": "closed tours only (search); with --classes, the closed classes"})  # fmt: skip
    p.add_argument(
        "--diagonal", action="store_true", help="magic tours: both long diagonals add up too"
    )
    p.add_argument(
        "--count",
        type=int_range(1),
        metavar="N",
        help="stop after N tours of classes new to the library (search: default every range; "
        "construction: default 1; exit 3 when the construction's seeds give fewer)",
    )
    add_options(p, "db", "time_limit", "scheduler", "format", "quiet", format={
        "choices": ("text", "json")})  # fmt: skip
    add_options(p, workers={"help": "threads walking parts (default, and at most: one per core)"})
    p.add_argument(
        "--discard-damaged",
        action="store_true",
        help="walk a part whose saved walk is damaged again from its start (else refused)",
    )
    p.add_argument(
        "--classes",
        action="store_true",
        help="search nothing: list the classes of semi-magic tours the library holds on BOARD "
        "(canonical numbering, closed or open, family, range), with --closed the closed ones, "
        "with --diagonal the magic ones",
    )
    p.add_argument(
        "--range",
        dest="ranges",
        type=int_range(-65),
        action="append",
        metavar="R",
        help="walk only range R (repeatable; 0 is the quad pass and -1 the quarter pass, which "
        "4m x 4n boards walk first, in that order, -2, -3, ... the start passes, walked next, "
        "and 1, 2, ... the numbered ranges of the older two-ended walk; see docs/magic.md)",
    )
    p.add_argument(
        "--starts",
        action="store_true",
        help="walk the start passes alone (Denef's decomposition: 1 on each start square in "
        "turn, the end free; ranges -2, -3, ...), not the quad and quarter passes before them, "
        "with the ranges given by --range",
    )


def run(args: argparse.Namespace) -> int:
    """Search or construct; exit 0 (what was asked), 1 (proved none: a theorem, the census or
    the search), 2 (input it cannot take) or 3 (stopped short, by the time limit)."""
    from knightstour import magic
    from knightstour.arguments import cores
    from knightstour.board import parse_board
    from knightstour.library.magic import MagicJournal
    from knightstour.library.store import Library

    board = parse_board(args.board)
    if args.classes:
        return _classes(board, args)
    if magic.searched(board) and args.scheduler is None:  # threads on this machine
        args.workers = capped_workers(args.workers, cores())
    options = {
        "diagonal": args.diagonal, "closed": args.closed, "ranges": args.ranges,
        "workers": args.workers, "scheduler": args.scheduler,
    }  # fmt: skip
    reason = magic.refusal(board, **options)
    if reason is not None:  # before the library is opened: a refused board leaves no file
        raise UsageError(reason)
    answer = magic.judged(board, diagonal=args.diagonal, closed=args.closed)
    if answer is not None:  # proved no by a theorem or the census: no library either
        print(json.dumps(answer.to_dict()) if args.format == "json" else answer.reason)
        return EXITS[answer.outcome]
    if args.starts:  # after the answers a theorem gives: 5x5 --starts is a proved no, exit 1
        options["ranges"] = (args.ranges or []) + magic.start_passes(board)
    searched = magic.searched(board)
    with Library(args.db) as lib, progress_bar(f"magic {board.spec}", quiet=args.quiet,
                                               unit="part" if searched else "tour") as bar:  # fmt: skip
        try:
            found = magic.find(
                board, MagicJournal(lib, board.width, board.height), count=args.count,
                time_limit=args.time_limit, progress=bar,
                on_found=lambda t: _show(args.format, t), discard_damaged=args.discard_damaged,
                **options,
            )  # fmt: skip
        except KeyboardInterrupt:
            if not searched:
                raise
            print(f"stopped; the parts walked and the walks under way are kept in {args.db}: "
                  "run the same command to go on")  # fmt: skip
            return 130
    if args.format == "json":
        print(json.dumps(found.to_dict()))
    elif found.built:
        print(_built(found, args.diagonal, args.db))
    else:
        print(found.reason or _summary(found, args.db))
    return EXITS[found.outcome]


#: The options of a search that a listing of classes does not take, and their flags.
_SEARCH_ONLY = {
    "count": "--count", "time_limit": "--time-limit", "scheduler": "--scheduler",
    "workers": "--workers", "discard_damaged": "--discard-damaged", "ranges": "--range",
    "starts": "--starts",
}  # fmt: skip


def _classes(board: Board, args: argparse.Namespace) -> int:
    """``--classes``: list the classes the library holds, and how they compare with the census."""
    from knightstour.library.queries import magic_classes_json, magic_classes_report
    from knightstour.library.store import Library
    from knightstour.magic import listing_refusal, ruled_out

    reentrant = True if args.closed else None
    given = [
        flag for name, flag in _SEARCH_ONLY.items() if getattr(args, name) not in (None, False)
    ]
    if given:
        raise UsageError(
            f"--classes lists what the library holds and searches nothing: no {given[0]}"
        )
    unfit = listing_refusal(board, diagonal=args.diagonal)
    if unfit is not None:
        raise UsageError(unfit)
    why = ruled_out(board, diagonal=args.diagonal)
    if why is not None:  # proved: none to list, whatever the library holds (exit 1, as a search)
        print(json.dumps(judged_json(board, why)) if args.format == "json" else why)
        return EXIT_NO
    with Library(args.db, create=False, readonly=True) as lib:
        if args.format == "json":
            data = magic_classes_json(lib, board, reentrant=reentrant, diagonal=args.diagonal)
            print(json.dumps(data))
            return EXIT_OK
        report, classes = magic_classes_report(
            lib, board, reentrant=reentrant, diagonal=args.diagonal
        )
    print(report.text(args.db))
    for n, c in enumerate(classes, 1):
        print()
        print(f"class {n} (library id {c.id}): {c.summary()}")
        print(c.text())
    return EXIT_OK


def judged_json(board: Board, why: str) -> dict[str, object]:
    """The no-tour JSON of a board whose classes a theorem (or the census) rules out."""
    return {"width": board.width, "height": board.height, "exists": False, "reason": why}


def _built(found: Found, diagonal: bool, db: str) -> str:
    """The last line of a construction: how many new classes, where kept, and whether the
    construction closes its tours; or why it stopped short."""
    if found.reason is not None:
        return f"{found.reason}; kept in {db}"
    kind = "magic" if diagonal else "semi-magic"
    noun = "class" if found.new == 1 else "classes"
    line = f"built {found.new} new {noun} of {kind} tours of {found.board.spec} in {db}"
    if found.all_closed is True:
        line += f"; closed, as every tour of {found.construction} is"
    elif found.all_closed is False:
        line += f"; open: {found.construction} of {found.board.spec} hold no closed tour"
    return line


def _summary(found: Found, db: str) -> str:
    """The last line of a search: what it walked, found and kept, and how it ended."""
    report = found.report
    assert report is not None
    finished = report.complete
    state = "every range asked for walked" if finished else (
        f"stopped ({report.stopped})" if report.stopped else "stopped")  # fmt: skip
    passes = [
        (name, "walked whole" if done else "under way")
        for name, asked, done in (
            ("the quad pass (range 0)", report.quads, report.quads_done),
            ("the quarter pass (range -1)", report.quarters, report.quarters_done),
        )
        if asked
    ]
    if report.starts:
        passes.append((
            "the start passes", f"walked whole: {report.starts_done} of {report.starts}"
            if report.starts > 1 else ("walked whole" if report.starts_done else "under way"),
        ))  # fmt: skip
    if report.ranges or len(passes) != 1:
        walked = "; ".join(
            [f"{name} {state}" for name, state in passes]
            + ([f"numbered ranges walked: {report.ranges_done} of {report.ranges}"]
               if report.ranges or not passes else [])
        )  # fmt: skip
    elif passes[0][0] == "the start passes":  # the whole search on a board without blocks
        walked = f"{passes[0][0]} {passes[0][1]}"
    else:
        walked = f"{passes[0][0]} alone, {passes[0][1]}"
    return (
        f"{walked}; parts walked this run: "
        f"{report.parts_done:,}; found {report.found} semi-magic numberings, {report.new} new; "
        f"{found.classes} classes in {db}; {report.nodes:,} nodes in {report.seconds:.1f} s"
        f"{compiling_said(report.compiling)}; {state}"
    )


def _show(fmt: str, found: MagicTour) -> None:
    """Print a tour as it comes (text): its board of move numbers and its sums."""
    if fmt == "json":
        return
    tour = found.tour
    if tour.board.area <= 1024:
        print(tour.board_text())
    closed = " (closed: its last square is a move from its first)" if found.reentrant else ""
    print(found.sums.summary() + closed)
    print()
