"""``knightstour solve``: find a tour and print it, write it, draw it.

>>> from knightstour.cli import main
>>> main(["solve", "5x5", "--start", "a1", "--method", "warnsdorff", "--format", "moves"])
a1 c2 e1 d3 e5 c4 a5 b3 c5 a4 b2 d1 e3 d5 b4 a2
c1 e2 d4 b5 a3 b1 d2 e4 c3
0
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from knightstour import notation
from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_NO,
    EXIT_OK,
    UsageError,
    add_board_options,
    add_options,
    add_picture_options,
    board_of,
    options_of,
)
from knightstour.cli._output import (
    compiling_said,
    open_output,
    precheck_outputs,
    write_pictures,
    write_tour,
    written,
)
from knightstour.errors import NoTourError, SearchFailedError
from knightstour.kernels import jit

if TYPE_CHECKING:
    from knightstour.tour import PartialTour

NAME = "solve"
HELP = "find a tour and print it"
DESCRIPTION = "Find an open or closed knight's tour on BOARD and print it."
FORMATS = ("text", "moves", "board", "json", "npy")


def _method_names() -> tuple[str, ...]:
    from knightstour.solvers import METHODS

    return ("auto", *sorted(m for m in METHODS if m != "auto"))


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``solve``."""
    from knightstour.solvers.warnsdorff import TIEBREAKS

    add_board_options(p)
    add_options(p, "start", "end", "closed")
    p.add_argument(
        "--method", default="auto", choices=_method_names(), help="method (default auto)"
    )
    p.add_argument("--tiebreak", choices=TIEBREAKS, help="Warnsdorff tie-break")
    add_options(
        p,
        "seed",
        "time_limit",
        "format",
        "output",
        "force",
        seed={"help": "seed for random tie-breaks"},
        format={
            "choices": FORMATS,
            "default": None,
            "help": "output format (default text; with a picture or --output FILE and no "
            "--format, stdout gets one line saying what was found and written)",
        },
    )
    p.add_argument("--time", action="store_true", help="print the time taken")
    p.add_argument(
        "--magic",
        action="store_true",
        help="with --format board or text: the sums of the numbering beside the ranks and "
        "under the files, the long diagonals, and whether the tour is magic or semi-magic",
    )
    p.add_argument(
        "--metrics",
        action="store_true",
        help="also show the shape of the tour: crossings, turns, the moves of each direction, "
        "its symmetries and its end displacement (text lines after the tour; with --format "
        'json a "metrics" object)',
    )
    add_picture_options(p)


def run(args: argparse.Namespace) -> int:
    """Solve, print or write the tour; 'no' and 'gave up' answers in the requested format."""
    import knightstour as kt

    board = board_of(args)
    args.format_given = args.format is not None
    args.format = args.format or "text"
    if args.format == "npy" and args.output is None:
        raise UsageError("--format npy writes binary: give --output FILE")
    if args.magic and args.format not in ("board", "text"):
        raise UsageError("--magic shows the sums with --format board or text")
    if args.metrics:
        if args.format == "npy":
            raise UsageError("--metrics shows the shape with the tour: not with --format npy")
        from knightstour.geometry import require_flat

        require_flat(board)  # before any search
    if any(getattr(args, k, None) for k in ("svg", "svg_animated", "png", "gif")):
        from knightstour.render.style import require_drawable

        require_drawable(board)  # before any search
    use = precheck_outputs(args)
    watch = jit.Stopwatch()
    pictures = any(getattr(args, k, None) for k in ("svg", "svg_animated", "png", "gif"))
    try:
        asked = options_of(args, "end", "closed", "method", "tiebreak", "seed", "time_limit")
        if args.format == "npy" and not pictures:
            # divide and conquer streams its tour to the file, validated a piece at a time
            with open_output(args.output, args.force, binary=True) as f:
                kt.solve_to_npy(board, cast(BinaryIO, f), args.start, **asked)
            _say_time(args, *watch.read())
            return EXIT_OK
        tour = kt.solve(board, args.start, **asked)
    except NoTourError as e:
        _no_tour(args, board, False, e.reason, use=use)
        return EXIT_NO
    except SearchFailedError as e:
        partial = e.partial
        if partial is not None and not partial.method and args.method != "auto":
            partial.method = args.method
        _no_tour(args, board, None, str(e), partial, use=use)
        if partial is not None:
            if use == "tour" and args.format in ("text", "board", "moves"):
                print("\n".join(partial.lines()))
                if args.metrics:
                    print("\n".join(partial.metrics().lines()))
            write_pictures(args, partial)  # the path so far, its unvisited squares shown
            drawn = written(args, tour=False)
            if use == "summary" and drawn:
                size = partial.board.size
                print(f"partial path: {len(partial)} of {size} squares; wrote {', '.join(drawn)}")
        return EXIT_GAVE_UP
    elapsed, compiling = watch.read()
    if use == "tour" or args.output is not None:
        write_tour(args, tour)
    write_pictures(args, tour)
    if use == "summary":  # the picture or the file is the output: not the whole tour again
        summary = notation.summary_line(tour.board, tour.indices, tour.closed, tour.method)
        print(f"{summary}; wrote {', '.join(written(args))}")
    if args.metrics and use != "tour":
        # the tour went to a file or a picture: its shape on the console (stderr beside a
        # picture on stdout)
        out = sys.stderr if use == "picture" else sys.stdout
        print("\n".join(tour.metrics().lines()), file=out)
    _say_time(args, elapsed, compiling, use)
    return EXIT_OK


def _say_time(
    args: argparse.Namespace, seconds: float, compiling: float, use: str = "tour"
) -> None:
    """``solved in X s`` (with --time), the seconds compiling kernels said apart."""
    if args.time:
        to_stdout = use == "summary" or (
            use == "tour" and args.format == "text" and args.output is None
        )
        print(f"solved in {seconds:.3f} s{compiling_said(compiling)}",
              file=sys.stdout if to_stdout else sys.stderr)  # fmt: skip


def _no_tour(
    args: argparse.Namespace,
    board: Any,
    answer: bool | None,
    reason: str,
    partial: PartialTour | None = None,
    *,
    use: str = "tour",
) -> None:
    """Say there is no tour, or that the search gave up (in JSON with its partial path); on
    stderr when stdout carries a picture."""
    out = sys.stderr if use == "picture" else sys.stdout
    if args.format == "json":
        data = notation.answer_dict(board, answer, reason, partial=partial)
        if getattr(args, "metrics", False) and partial is not None:
            data["metrics"] = partial.metrics().to_dict()  # the partial path's shape
        print(notation.compact_json(data), file=out)
    else:
        print(notation.answer_line("no tour" if answer is False else "gave up", reason), file=out)
