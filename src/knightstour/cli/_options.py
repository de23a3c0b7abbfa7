"""The one table of command-line options, the parser that fails in one line, and the exit codes.

Every option that more than one command takes is declared once in :data:`OPTIONS` and added by
name; a command may reword its help or change its default, never its meaning.

>>> import argparse
>>> p = Parser(prog="demo")
>>> add_options(p, "board", "start", "closed", seed={"help": "seed"})
>>> p.parse_args(["8x8", "--start", "c3", "--closed", "--seed", "7"])
Namespace(board='8x8', start='c3', closed=True, seed=7)
>>> p.parse_args(["8x8", "--seed", "-1"])
Traceback (most recent call last):
...
knightstour.cli._options.UsageError: argument --seed: must be >= 0, got -1 (see 'demo --help')
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from knightstour.board import brief
from knightstour.errors import InvalidInputError

if TYPE_CHECKING:
    from knightstour.board import Board

__all__ = [
    "EXIT_GAVE_UP",
    "EXIT_NO",
    "EXIT_OK",
    "EXIT_USAGE",
    "OPTIONS",
    "PROG",
    "Parser",
    "UsageError",
    "add_command",
    "add_options",
    "add_picture_options",
    "exit_code",
    "int_range",
    "options_of",
    "port",
    "scheduler_address",
    "seconds",
]

PROG = "knightstour"
EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_GAVE_UP = 0, 1, 2, 3


def exit_code(answer: bool | None) -> int:
    """The exit code of an answer: 0 yes, 1 no, 3 unknown (the search stopped).

    >>> [exit_code(a) for a in (True, False, None)]
    [0, 1, 3]
    """
    return {True: EXIT_OK, False: EXIT_NO, None: EXIT_GAVE_UP}[answer]


class UsageError(InvalidInputError):
    """Bad command-line usage (exit code 2)."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one clean line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        if len(message) > 300:  # argparse repeats the arguments, however long they are
            message = f"{message[:200]}... ({len(message):,} characters)"
        raise UsageError(f"{message} (see '{self.prog} --help')")


# -- value types ------------------------------------------------------------------------------


def int_range(lo: int, hi: float = math.inf) -> Callable[[str], int]:
    """A parser of integers from ``lo`` to ``hi`` for ``type=``.

    >>> int_range(1, 9)("5"), int_range(0)("12")
    (5, 12)
    """

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:  # not digits, or more than Python reads (4,300)
            raise argparse.ArgumentTypeError(f"not an integer: {brief(text)}") from None
        if lo <= v <= hi:
            return v
        if hi < math.inf:
            raise argparse.ArgumentTypeError(f"must be {lo} to {hi}, got {brief(v)}")
        raise argparse.ArgumentTypeError(
            f"must be at least 1, got {brief(v)}" if lo == 1 else f"must be >= {lo}, got {brief(v)}"
        )

    return parse


def seconds(text: str) -> float:
    """A positive, finite number of seconds.

    >>> seconds("2.5")
    2.5
    """
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {brief(text)}") from None
    if not 0 < v < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return v


def port(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free port).

    >>> port("8000")
    8000
    """
    v = int_range(0)(text)
    if v > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {v}")
    return v


def scheduler_address(text: str) -> str:
    """The address of a Dask scheduler, read as text (no connection is made here).

    >>> scheduler_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    from knightstour.arguments import address_problem

    problem = address_problem(text.strip())
    if problem is not None:
        raise argparse.ArgumentTypeError(
            f"{brief(text)} is not the address of a Dask scheduler: {problem}"
        )
    return text.strip()


def _default_db() -> str:
    from knightstour.library import DEFAULT_DB

    return DEFAULT_DB


# -- the table --------------------------------------------------------------------------------

#: Name -> (flags, keyword arguments of ``add_argument``). A callable value is computed when the
#: option is added (so that the library is imported only by commands that use it).
OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "board": (("board",), {"metavar": "BOARD", "help": "board spec WxH (width x height) or N"}),
    "start": (
        ("--start",),
        {"metavar": "SQ", "help": "start square: algebraic (c3) or zero-based x,y"},
    ),
    "end": (("--end",), {"metavar": "SQ", "help": "end square of the tour"}),
    "closed": (
        ("--closed",),
        {"action": "store_true", "help": "closed tours (ending a move from the start)"},
    ),
    "seed": (("--seed",), {"type": int_range(0), "help": "seed for random choices"}),
    "time_limit": (
        ("--time-limit",),
        {"type": seconds, "metavar": "SECONDS", "help": "give up after this many seconds"},
    ),
    "db": (
        ("--db",),
        {"default": _default_db, "metavar": "FILE", "help": "library file (default {default})"},
    ),
    "board_filter": (("--board",), {"metavar": "WxH", "help": "only tours on this board"}),
    "scheduler": (
        ("--scheduler",),
        {
            "type": scheduler_address,
            "metavar": "ADDRESS",
            "help": "a Dask scheduler (tcp://host:8786) to spread the work over "
            "(default: this process)",
        },
    ),
    "format": (("--format",), {"default": "text", "help": "output format (default {default})"}),
    "output": (("--output", "-o"), {"metavar": "FILE", "help": "write the tour to FILE"}),
    "force": (("--force",), {"action": "store_true", "help": "overwrite existing output files"}),
    "quiet": (("--quiet", "-q"), {"action": "store_true", "help": "no progress bar"}),
    "workers": (
        ("--workers",),
        {
            "type": int_range(1),
            "metavar": "K",
            "help": "processes at once (default, and at most: one per core)",
        },
    ),
    # pictures
    "svg": (("--svg",), {"metavar": "FILE", "help": "draw the tour as an SVG"}),
    "svg_animated": (
        ("--svg-animated",),
        {"metavar": "FILE", "help": "an SVG that draws the tour a move at a time (CSS, no script)"},
    ),
    "png": (("--png",), {"metavar": "FILE", "help": "draw the tour as a PNG"}),
    "gif": (("--gif",), {"metavar": "FILE", "help": "an animated GIF, one move a frame"}),
    "size": (
        ("--size",),
        {
            "type": int_range(16, 32768),
            "metavar": "PX",
            "help": "longest side of the pictures in pixels (default: from the board)",
        },
    ),
    "numbers": (
        ("--numbers",),
        {"action": "store_true", "help": "write move numbers on the squares (SVG, PNG)"},
    ),
    "style": (
        ("--style",),
        {
            "choices": ("auto", "full", "path"),
            "default": "auto",
            "help": "full: squares and labels; path: the path alone (default: full up to 200x200)",
        },
    ),
    "moves_per_frame": (
        ("--moves-per-frame",),
        {
            "type": int_range(1, 10**9),
            "metavar": "N",
            "help": "moves added by each GIF frame (default 1, more on big boards so that "
            "the animation lasts at most 30 s)",
        },
    ),
    "frame_ms": (
        ("--frame-ms",),
        {
            "type": int_range(20, 655350),
            "metavar": "MS",
            "help": "how long each frame shows (default 500, shorter on big boards: the whole "
            "animation lasts at most 30 s unless --frame-ms and --moves-per-frame say otherwise)",
        },
    ),
    "final_ms": (
        ("--final-ms",),
        {
            "type": int_range(20, 655350),
            "default": 3000,
            "metavar": "MS",
            "help": "how long the last frame shows (default 3000)",
        },
    ),
}

#: The options that shape the pictures, in the order ``--help`` shows them.
PICTURE_OPTIONS = (
    "svg",
    "svg_animated",
    "png",
    "gif",
    "size",
    "numbers",
    "style",
    "moves_per_frame",
    "frame_ms",
    "final_ms",
)
#: The picture files, by their attribute names on the parsed arguments.
PICTURE_FILES = PICTURE_OPTIONS[:4]


#: The options that shape a board beyond WxH (:func:`add_board_options`, :func:`board_of`).
BOARD_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "holes": (
        ("--holes",),
        {
            "metavar": "SQ,SQ",
            "help": "squares removed from the board, like d4,e5 or zero-based '3,3 4,4' "
            "(commas, semicolons or spaces between them)",
        },
    ),
    "mask": (
        ("--mask",),
        {
            "metavar": "FILE",
            "help": "the board drawn in a text file: one line a rank, top rank first, '.' a "
            "square, '#' or a space a hole (then the board spec may be left out)",
        },
    ),
    "corners": (
        ("--corners",),
        {
            "metavar": "R",
            "type": int_range(0),
            "help": "cut the four corners, rounded by R squares",
        },
    ),
    "leaper": (
        ("--leaper",),
        {
            "metavar": "A,B",
            "help": "the piece: knight (default), camel, zebra, giraffe, antelope, or legs like 1,3",
        },
    ),
    "wrap": (
        ("--wrap",),
        {
            "choices": ("cylinder", "torus"),
            "help": "moves wrap round the left and right edges (cylinder) or every edge (torus)",
        },
    ),
}


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """BOARD (optional with --mask) and the ``board shape`` group: holes, mask, corners, leaper,
    wrap. :func:`board_of` reads them back."""
    parser.add_argument(
        "board",
        metavar="BOARD",
        nargs="?",
        help="board spec WxH (width x height), N, or WxHxD for three dimensions",
    )
    group = parser.add_argument_group("board shape")
    for flags, kwargs in BOARD_OPTIONS.values():
        group.add_argument(*flags, **kwargs)


def board_of(args: argparse.Namespace) -> Board:
    """The :class:`~knightstour.board.Board` that BOARD and the shape options describe: the
    mask file read, then :func:`~knightstour.board.parse_board` (its rules, docs/boards.md).

    >>> args = argparse.Namespace(board="8x8", holes="d4,e5", mask=None, corners=None,
    ...                           leaper="zebra", wrap=None)
    >>> board_of(args).description
    '8x8 leaper=2,3 holes=d4,e5'
    """
    from knightstour.board import parse_board

    mask = None
    if args.mask is not None:
        mask = read_mask(args.mask)
    elif args.board is None:
        raise UsageError("the BOARD argument is required: give one like 8x8, or --mask FILE")
    return parse_board(
        args.board,
        holes=args.holes,
        mask=mask,
        corners=args.corners,
        leaper=args.leaper,
        wrap=args.wrap,
    )


#: The largest mask file read (bytes): a board of about 1,000 x 1,000 squares drawn.
MASK_BYTES = 1 << 20


def read_mask(path: str) -> str:
    """The text of the mask file ``path``: UTF-8, at most :data:`MASK_BYTES` bytes. Anything
    else is refused whole (one line, exit 2), never cut to another board.

    >>> read_mask("/no/such/mask")
    Traceback (most recent call last):
    ...
    knightstour.cli._options.UsageError: cannot read the mask /no/such/mask: No such file or directory
    """
    from knightstour.errors import InputLimitError

    try:
        with open(path, "rb") as f:
            data = f.read(MASK_BYTES + 1)
    except OSError as e:
        raise UsageError(f"cannot read the mask {path}: {e.strerror or e}") from None
    except ValueError as e:  # a NUL in the path
        raise UsageError(f"cannot read the mask {brief(path)}: {e}") from None
    if len(data) > MASK_BYTES:
        raise InputLimitError(
            f"the mask {path} is over {MASK_BYTES:,} bytes (1 MiB), the most a mask file may "
            f"hold: give a smaller board, or its holes with --holes"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(
            f"cannot read the mask {path}: not UTF-8 text (byte {e.start:,} is {data[e.start]:#04x}); "
            f"draw the board with '.' and '#'"
        ) from None


def add_command(subparsers: Any, name: str, help: str, description: str) -> Parser:
    """A command (or an action of one) on ``subparsers``, with its help and description."""
    return subparsers.add_parser(name, help=help, description=description)


def options_of(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The parsed values of ``names``, as keyword arguments for the library.

    >>> options_of(argparse.Namespace(seed=7, closed=True, board="8x8"), "closed", "seed")
    {'closed': True, 'seed': 7}
    """
    return {name: getattr(args, name) for name in names}


def add_options(
    parser: argparse.ArgumentParser | Any, *names: str, **changes: dict[str, Any]
) -> None:
    """Add the options ``names`` from :data:`OPTIONS`; ``changes`` rewords one by name.

    A ``{default}`` in the help is filled in with the option's default.
    """
    for name in (*names, *(n for n in changes if n not in names)):
        flags, kwargs = OPTIONS[name]
        kwargs = {**kwargs, **changes.get(name, {})}
        if callable(kwargs.get("default")):
            kwargs["default"] = kwargs["default"]()
        if "help" in kwargs:
            kwargs["help"] = kwargs["help"].replace("{default}", str(kwargs.get("default")))
        parser.add_argument(*flags, **kwargs)


def add_picture_options(parser: argparse.ArgumentParser) -> None:
    """The ``pictures`` group: --svg, --svg-animated, --png, --gif and what shapes them."""
    add_options(parser.add_argument_group("pictures"), *PICTURE_OPTIONS)


def add_kind_filter(parser: argparse.ArgumentParser) -> None:
    """--closed or --open: only closed or only open tours (``kind``: True, False or None)."""
    kind = parser.add_mutually_exclusive_group()
    for flag, value in (("--closed", True), ("--open", False)):
        word = "closed" if value else "open"
        kind.add_argument(
            flag, dest="kind", action="store_const", const=value, help=f"only {word} tours"
        )
