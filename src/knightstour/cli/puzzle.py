"""``knightstour puzzle``: knight's tour number puzzles: make, solve, hint and check them
(docs/puzzles.md). Not the web game's puzzle mode.

>>> import os, tempfile
>>> from knightstour.cli import main
>>> path = os.path.join(tempfile.mkdtemp(), "p.txt")
>>> with open(path, "w") as f:
...     _ = f.write(" 7 20  9 14  5\\n10 15  6  . 24\\n21  8 25  4 13\\n16 11  . 23 18\\n 1 22 17 12  3\\n")
>>> main(["puzzle", "hint", path])
2 goes on c2: it is a knight's move from 1 on a1 and from 3 on e1, and no other free square is
squares: c2 a1 e1
level: easy (neighbour)
0
>>> main(["puzzle", "solve", path])
one solution (level easy, by logic alone):
 7 20  9 14  5
10 15  6 19 24
21  8 25  4 13
16 11  2 23 18
 1 22 17 12  3
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_NO,
    EXIT_OK,
    Parser,
    UsageError,
    add_board_options,
    add_command,
    add_options,
    board_of,
    exit_code,
    int_range,
)
from knightstour.cli._output import check_target, err, open_output, read_input
from knightstour.numberpuzzles.grid import LEVELS

NAME = "puzzle"
#: The actions of ``puzzle``.
ACTIONS = ("make", "solve", "hint", "check", "book")
HELP = "number puzzles: make, solve, hint, check and print them"
DESCRIPTION = (
    "Knight's tour number puzzles: a board with some squares numbered, to be filled in so that "
    "each number is a knight's move from the next. 'make' makes puzzles with exactly one "
    "solution at a level; 'solve' says whether a puzzle has one solution, none or several; "
    "'hint' gives the next deduction in words; 'check' names every mistake of a filled grid; "
    "'book' writes a printable PDF booklet of puzzles, the answers at the back."
)


def add(p: argparse.ArgumentParser) -> None:
    """The actions of ``puzzle``."""
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    make = add_command(
        actions,
        "make",
        "make number puzzles with exactly one solution",
        "Make puzzles on BOARD (5x5 to 32x32, rectangles, shaped with --holes, --mask or "
        "--corners): a tour drawn from the seed, its numbers thinned while the deductions of "
        "the level still fill the grid, the one solution proved by the exact search.",
    )
    add_board_options(make)
    make.add_argument(
        "--level", choices=LEVELS, default="medium", help="the hardest deduction (default medium)"
    )
    add_options(make, "closed", "seed", "force")
    make.add_argument(
        "--count", type=int_range(1, 10_000), default=1, metavar="K", help="make K puzzles (1)"
    )
    make.add_argument(
        "--solution",
        action="store_true",
        help="text: print each solution after its puzzle; svg, png: draw the solution",
    )
    make.add_argument(
        "--path", action="store_true", help="svg, png with --solution: draw the tour under it"
    )
    add_options(
        make,
        format={
            "choices": ("text", "json", "svg", "png"),
            "help": "text (one line a rank; puzzles apart by a blank line), json (one a line), "
            "or a picture of one puzzle: svg or png (png needs --output)",
        },
        output={"help": "write the puzzles (or the picture) to FILE"},
    )
    make.add_argument("--size", type=int_range(16, 8000), metavar="PX", help="picture size")
    book = add_command(
        actions,
        "book",
        "a printable PDF booklet of puzzles, the answers at the back",
        "Make COUNT puzzles (as 'make' does) and write them as a PDF booklet: a title, several "
        "puzzles a page, numbered, the answers at the back, every page numbered.",
    )
    book.add_argument(
        "--count", type=int, default=50, metavar="K", help="how many puzzles (default 50)"
    )
    book.add_argument(
        "--level", choices=LEVELS, default="medium", help="the hardest deduction (default medium)"
    )
    book.add_argument("--board", default="8x8", metavar="WxH", help="the board (default 8x8)")
    book.add_argument("--paper", default="a4", metavar="PAPER", help="a4 (default) or letter")
    book.add_argument("--title", default=None, help="the title on the first page")
    book.add_argument("--pdf", required=True, metavar="FILE", help="write the booklet to FILE")
    add_options(book, "closed", "seed", "force")
    for name, help_text, about in (
        ("solve", "solve a puzzle: one solution, none or several", "the puzzle"),
        ("hint", "the next deduction of a puzzle, in words", "the puzzle (numbers filled so far)"),
        ("check", "name every mistake of a filled grid", "the filled grid"),
    ):
        a = add_command(actions, name, help_text, help_text[0].upper() + help_text[1:] + ".")
        a.add_argument("file", metavar="FILE", help=f"{about}: text or JSON ('-': standard input)")
        if name == "solve":
            add_options(a, "time_limit", format={"choices": ("text", "json")})
            a.add_argument("--labels", action="store_true", help="rank and file labels")
        if name == "check":
            a.add_argument(
                "--puzzle",
                metavar="FILE",
                help="the puzzle the grid was filled from: its given numbers must be kept",
            )


def run(args: argparse.Namespace) -> int:
    """Run one action of ``puzzle``."""
    if not args.action:
        raise UsageError(
            "give an action: make, solve, hint, check (see 'knightstour puzzle --help')"
        )
    runs = {"make": _make, "solve": _solve, "hint": _hint, "check": _check, "book": _book}
    return runs[args.action](args)


def _read(file: str) -> Any:
    from knightstour.numberpuzzles import parse_puzzle

    return _named(file, parse_puzzle, read_input(file, "a puzzle file"))


def _named(file: str, parse: Any, text: str) -> Any:
    """``parse(text)``, its bad input said with the file's name."""
    from knightstour.errors import InputLimitError, InvalidInputError

    try:
        return parse(text)
    except InputLimitError:
        raise
    except InvalidInputError as e:
        raise UsageError(f"{file}: {e}") from None


def _make(args: argparse.Namespace) -> int:
    from knightstour.numberpuzzles.make import make_many

    picture = args.format in ("svg", "png")
    if picture:
        _check_picture(args)
    elif args.path or args.size is not None:
        raise UsageError(
            f"{'--path' if args.path else '--size'} shapes a picture: add --format svg or png"
        )
    if args.output:
        check_target(args.output, args.force)
    board = board_of(args)
    puzzles = make_many(board, args.count, level=args.level, closed=args.closed, seed=args.seed)
    if picture:
        return _picture(args, next(iter(puzzles)))
    with open_output(args.output, args.force) as f:
        for i, p in enumerate(puzzles):
            if args.format == "json":
                f.write(json.dumps(p.to_dict(), separators=(",", ":")) + "\n")
                continue
            if i:
                f.write("\n")
            f.write(f"level: {p.level}\n")
            if p.closed:
                f.write("closed: yes\n")
            f.write(p.text() + "\n")
            if args.solution:
                f.write("solution:\n" + p.solution_text() + "\n")
    return EXIT_OK


def _check_picture(args: argparse.Namespace) -> None:
    """Refuse, before any work, what a picture cannot be: several puzzles, a path without the
    solution, PNG bytes on a terminal, a file named for another format."""
    from knightstour.errors import InvalidInputError
    from knightstour.render import check_picture_name

    if args.count != 1:
        raise UsageError(f"--format {args.format} draws one puzzle: leave out --count")
    if args.path and not args.solution:
        raise UsageError("--path draws the tour of the solution: add --solution")
    if args.format == "png" and args.output in (None, "-"):
        raise UsageError("--format png writes a file: add --output FILE")
    if args.output and args.output != "-":
        try:
            check_picture_name(args.output, args.format)
        except InvalidInputError as e:
            raise UsageError(f"--output: {e}") from None


def _picture(args: argparse.Namespace, puzzle: Any) -> int:
    from knightstour.numberpuzzles.printing import puzzle_image, puzzle_svg

    shown = {"solution": args.solution, "path": args.path}
    if args.format == "svg":
        with open_output(args.output, args.force) as f:
            f.write(puzzle_svg(puzzle, size=args.size, **shown))
        return EXIT_OK
    image = puzzle_image(puzzle, size=args.size, **shown)
    with open_output(args.output, args.force, binary=True) as f:
        image.save(f, format="PNG")
    return EXIT_OK


def _book(args: argparse.Namespace) -> int:
    from knightstour.board import parse_board
    from knightstour.cli.progress import progress_bar
    from knightstour.numberpuzzles.make import make_many
    from knightstour.numberpuzzles.printing import PAPERS, write_book

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, got {args.count}")
    if args.count > 10_000:
        raise UsageError(f"--count is at most 10000, got {args.count}")
    if args.paper.lower() not in PAPERS:
        raise UsageError(f"unknown paper {args.paper!r} (expected one of {', '.join(PAPERS)})")
    check_target(args.pdf, args.force)
    board = parse_board(args.board)
    made = make_many(board, args.count, level=args.level, closed=args.closed, seed=args.seed)
    with progress_bar("making puzzles", unit="puzzle") as bar:
        puzzles = []
        for p in made:
            puzzles.append(p)
            if bar:
                bar(len(puzzles), args.count)
    with open_output(args.pdf, args.force, binary=True) as f:
        pages = write_book(puzzles, f, paper=args.paper.lower(), title=args.title)
    err(f"{args.pdf}: {pages} pages, {len(puzzles)} puzzles and their answers")
    return EXIT_OK


def _solve(args: argparse.Namespace) -> int:
    from knightstour.numberpuzzles.verdict import judge

    verdict = judge(_read(args.file), time_limit=args.time_limit)
    if args.format == "json":
        print(json.dumps(verdict.to_dict(), separators=(",", ":")))
    else:
        print("\n".join(verdict.lines(labels=args.labels)))
    return exit_code(verdict.answer)


def _hint(args: argparse.Namespace) -> int:
    from knightstour.numberpuzzles.logic import Deduction
    from knightstour.numberpuzzles.verdict import hint

    puzzle = _read(args.file)
    step = hint(puzzle)
    if isinstance(step, Deduction):
        name = puzzle.board.square_name
        print(step.reason)
        print("squares: " + " ".join(name(s) for s in step.squares))
        print(f"level: {step.level} ({step.kind})")
        return EXIT_OK
    if step.solved:
        print("every square is filled: nothing left to deduce ('puzzle check' checks the grid)")
        return EXIT_OK
    if step.contradiction:
        print(f"the numbers written cannot all be right: {step.contradiction}")
        return EXIT_NO
    print("no deduction of the four levels places a number here: the rest needs a guess")
    return EXIT_GAVE_UP


def _check(args: argparse.Namespace) -> int:
    from knightstour.numberpuzzles import check_filled, parse_grid

    grid = _named(args.file, parse_grid, read_input(args.file, "a filled grid"))
    puzzle = _read(args.puzzle) if args.puzzle else None
    mistakes = check_filled(grid, puzzle)
    if not mistakes:
        n = grid.board.size
        print(f"{args.file}: right: 1 to {n}, each a knight's move from the next")
        return EXIT_OK
    print(f"{args.file}: {len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''}")
    for m in mistakes:
        print(f"  {m}")
    return EXIT_NO
