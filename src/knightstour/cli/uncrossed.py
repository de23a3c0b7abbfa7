"""``knightstour uncrossed``: the longest uncrossed knight's path (or cycle) of a board, exactly.

>>> from knightstour.cli import main
>>> main(["uncrossed", "4x4", "--quiet"])
longest uncrossed path on 4x4: 5 moves
4 | 1 6 . .
3 | . . 2 5
2 | 3 . . .
1 | . . 4 .
    a b c d
path: a4 c3 a2 c1 d3 b4
proof: exact: the frontier sweep met every uncrossed path of the board that could have ...
0
>>> main(["uncrossed", "3x3", "--closed", "--quiet"])
no uncrossed cycle on 3x3: exact: the frontier sweep met every uncrossed cycle ...
1
"""

from __future__ import annotations

import argparse

from knightstour import notation
from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_NO,
    EXIT_OK,
    add_board_options,
    add_options,
    board_of,
)
from knightstour.cli._output import check_target, err, open_output
from knightstour.cli.progress import progress_bar
from knightstour.errors import SearchFailedError

NAME = "uncrossed"
HELP = "the longest uncrossed knight's path or cycle of a board, exactly"
DESCRIPTION = (
    "Find the longest knight's path (with --closed, cycle) on BOARD whose moves, drawn as "
    "segments, never cross; print its length (in moves), one optimal path as a board of move "
    "numbers, and why none is longer (an exact frontier sweep over every uncrossed path). "
    "With --time-limit the sweep stops at the limit without an answer (exit 3); so does "
    "Ctrl-C (exit 130, as every command)."
)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``uncrossed``."""
    add_board_options(p)
    add_options(p, "closed", "time_limit", "svg", "force", "quiet")
    add_options(p, "format", format={"choices": ("text", "json")})


def run(args: argparse.Namespace) -> int:
    """Print the longest uncrossed path; exit 0, 1 when the board has no uncrossed cycle, 3
    when the time limit stopped the sweep, 130 on Ctrl-C."""
    from knightstour.counting.uncrossed import longest_uncrossed
    from knightstour.render.svg import tour_svg

    board = board_of(args)
    if args.svg:
        check_target(args.svg, args.force)
    kind = "cycle" if args.closed else "path"
    try:
        with progress_bar(f"{board.spec} uncrossed", unit="sq", quiet=args.quiet) as bar:
            best = longest_uncrossed(
                board, closed=args.closed, progress=bar, time_limit=args.time_limit
            )
    except SearchFailedError as e:
        reason = str(e).splitlines()[0]
        if args.format == "json":
            print(notation.compact_json(notation.answer_dict(board, None, reason)))
        else:
            err(reason)
        return EXIT_GAVE_UP
    except KeyboardInterrupt:
        err(f"stopped; no uncrossed {kind} on {board.spec} was found")
        return 130
    if best.length is None:
        reason = f"no uncrossed {kind} on {board.spec}: {best.proof}"
        if args.format == "json":
            print(notation.compact_json(notation.answer_dict(board, False, reason)))
        else:
            print(reason)
        return EXIT_NO
    if args.svg:
        with open_output(args.svg, args.force) as f:
            f.write(tour_svg(best.partial(), closed=args.closed))
    if args.format == "json":
        print(notation.compact_json({**best.to_dict(), "proof": best.proof}))
        return EXIT_OK
    print(f"longest uncrossed {kind} on {board.description}: {best.length} moves")
    print(best.partial().board_text(labels=True))
    print(
        "path: " + " ".join(best.path_names) + (" (and back to the first)" if args.closed else "")
    )
    print(f"proof: {best.proof}")
    return EXIT_OK
