"""``knightstour exists``: whether a tour can exist, and why; or the map of start squares.

>>> from knightstour.cli import main
>>> main(["exists", "4x4"])
no tour on 4x4: ...
1
>>> main(["exists", "3x4", "--all-starts"])
start squares of open tours on 3x4 (Y a tour starts there, . none, ? unknown):
4 | Y Y Y
3 | . . .
2 | . . .
1 | Y Y Y
    a b c
0
"""

from __future__ import annotations

import argparse
from typing import Any

from knightstour import notation
from knightstour.cli._options import (
    UsageError,
    add_board_options,
    add_options,
    board_of,
    exit_code,
)

NAME = "exists"
HELP = "say whether a tour can exist, and why"
DESCRIPTION = "Say whether a tour exists on BOARD (from/to given squares), with the reason."

#: --all-starts prints a character per square: boards up to this many squares, this wide
ALL_STARTS_MAX = (40_000, 200)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``exists``."""
    add_board_options(p)
    add_options(p, "start", "end", "closed")
    p.add_argument(
        "--all-starts",
        action="store_true",
        help="print the board map of start squares that admit a tour (Y yes, . no, ? unknown); "
        "with --closed, of closed tours",
    )
    add_options(p, "format", format={"choices": ("text", "json")})


def run(args: argparse.Namespace) -> int:
    """Print yes/no/unknown with the reason; exit 0, 1 or 3."""
    import knightstour as kt

    board = board_of(args)
    if args.all_starts:
        return _all_starts(board, args)
    answer = kt.exists(board, args.start, end=args.end, closed=args.closed)
    if args.format == "json":
        print(notation.compact_json(notation.answer_dict(board, answer.exists, answer.reason)))
    else:
        print(notation.answer_line(notation.ANSWER_WORDS[answer.exists], answer.reason))
    return exit_code(answer.exists)


def _all_starts(board: Any, args: argparse.Namespace) -> int:
    """The map of start squares with an open tour; with --closed, of closed tours (every
    square or none: a closed tour passes them all), then the closed answer of the board."""
    import knightstour as kt
    from knightstour.existence import start_squares

    if args.start or args.end:
        raise UsageError("--all-starts maps every start square: give no --start or --end")
    if board.depth > 1:
        raise UsageError(f"--all-starts draws a flat map: {board.spec} has {board.depth} layers")
    most, widest = ALL_STARTS_MAX
    if board.area > most or board.width > widest:
        raise UsageError(
            f"--all-starts prints one character per square: {board.spec} is too large "
            f"(at most {widest} wide and {most:,} squares)"
        )
    answers = {q: a.exists for q, a in start_squares(board, closed=args.closed).items()}
    closed = kt.exists(board, closed=True) if args.closed else None
    if args.format == "json":
        data: dict[str, Any] = {
            "width": board.width,
            "height": board.height,
            "kind": "closed" if args.closed else "open",
            "map": notation.start_map_rows(board, answers),
            "starts": {board.square_name(q): a for q, a in answers.items()},
        }
        if closed is not None:
            data["closed"] = closed.to_dict()
        print(notation.compact_json(data))
    else:
        print("\n".join(notation.start_map_lines(board, answers, closed=args.closed)))
        if closed is not None:
            word = notation.ANSWER_WORDS[closed.exists]
            print(f"closed tour: {notation.answer_line(word, closed.reason)}")
    if closed is not None:
        return exit_code(closed.exists)
    known = set(answers.values())
    return exit_code(True if True in known else None if None in known else False)
