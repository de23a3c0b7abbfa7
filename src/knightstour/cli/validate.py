"""``knightstour validate``: check that a file holds a tour, naming every problem.

>>> import json, os, tempfile
>>> import knightstour as kt
>>> from knightstour.cli import main
>>> path = os.path.join(tempfile.mkdtemp(), "t.json")
>>> with open(path, "w") as f:
...     _ = f.write(kt.solve("5x5", start="a1").to_json())
>>> main(["validate", path, "--format", "json"])
{"valid":true,"width":5,"height":5,"closed":false,"squares":25}
0
"""

from __future__ import annotations

import argparse
from typing import Any

from knightstour import notation
from knightstour.cli._options import EXIT_NO, EXIT_OK, UsageError, add_options
from knightstour.cli._output import read_input
from knightstour.errors import InvalidInputError, InvalidTourError

NAME = "validate"
HELP = "check that a file holds a valid tour"
DESCRIPTION = (
    "Check a tour file: the contract's tour JSON, or a .npy of square indices "
    "(with --board). Lists every problem found."
)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``validate``."""
    p.add_argument("file", metavar="FILE", help="tour JSON file ('-' for standard input) or .npy")
    add_options(
        p,
        board_filter={"help": "the board, for a .npy file"},
        closed={"help": "for a .npy file: require a closed tour"},
        format={"choices": ("text", "json")},
    )
    p.add_argument(
        "--magic",
        action="store_true",
        help="also show the sums of the tour's numbering: ranks, files, long diagonals, and "
        "whether it is magic or semi-magic",
    )
    p.add_argument(
        "--metrics",
        action="store_true",
        help="also show the shape of the tour: crossings, turns, the moves of each direction, "
        'its symmetries and its end displacement (with --format json, a "metrics" object)',
    )


def run(args: argparse.Namespace) -> int:
    """Validate a tour file; exit 0 when valid, 1 listing every problem when not."""
    try:
        tour = _read(args)
    except InvalidTourError as e:
        if args.format == "json":
            print(notation.compact_json({"valid": False, "problems": [str(p) for p in e.problems]}))
        else:
            print(f"{args.file}: not a valid tour")
            for problem in e.problems:
                print(f"  {problem}")
        return EXIT_NO
    if args.format == "json":
        b = tour.board
        data = {"valid": True, "width": b.width, "height": b.height}
        data = {**data, "closed": tour.closed, "squares": len(tour)}
        if args.magic:
            data["magic"] = _magic(tour).to_dict()
        if args.metrics:
            data["metrics"] = tour.metrics().to_dict()
        print(notation.compact_json(data))
    else:
        n = len(tour)
        print(
            f"{args.file}: valid {'closed' if tour.closed else 'open'} tour on "
            f"{tour.board.spec}, {n} square{'s' if n != 1 else ''}, {tour.start} to {tour.end}"
        )
        if args.magic:
            _magic(tour)
            print("\n".join(notation.magic_lines(tour.board, tour.indices)))
        if args.metrics:
            print("\n".join(tour.metrics().lines()))
    return EXIT_OK


def _magic(tour: Any) -> Any:
    """The tour's sums; a board with holes has none (bad input)."""
    return tour.magic()


def _read(args: argparse.Namespace) -> Any:
    """The tour in the file (a .npy of indices, or the tour JSON); InvalidTourError if not one."""
    import numpy as np

    import knightstour as kt

    if args.file.endswith(".npy"):
        if not args.board:
            raise UsageError("a .npy file holds only square indices: give --board WxH")
        board = kt.parse_board(args.board)
        try:
            arr = np.load(args.file, allow_pickle=False, mmap_mode="r")
        except (ValueError, OSError) as e:
            raise UsageError(f"cannot read {args.file}: {e}") from None
        return kt.Tour(board, np.asarray(arr), closed=args.closed)
    text = _read_text(args.file)  # its errors name the file
    try:
        data = notation.load_json(text)
    except notation.InputLimitError as e:
        raise notation.InputLimitError(f"{args.file}: {e}") from None
    except InvalidInputError as e:
        raise UsageError(f"{args.file} is {e}") from None
    try:
        return kt.Tour.from_dict(data)
    except InvalidTourError:
        raise  # not a tour: the answer is no
    except notation.InputLimitError as e:  # more than is read at all: bad input
        raise notation.InputLimitError(f"{args.file}: {e}") from None
    except InvalidInputError as e:  # parsed, but not a tour: the answer is no
        raise InvalidTourError([str(e)]) from None


def _read_text(file: str) -> str:
    """The text of the tour file ``file`` (``-``: standard input): :func:`read_input`.

    Pipes and devices are read like files (``validate <(knightstour solve 8x8 --format json)``).
    """
    return read_input(file, "a tour file")
