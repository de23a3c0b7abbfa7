"""``knightstour library``: list, show, stats, export, import and update the tours of a tour
library.

>>> import os, tempfile
>>> import knightstour as kt
>>> from knightstour.cli import main
>>> here = os.getcwd()
>>> os.chdir(tempfile.mkdtemp())
>>> with open("t.jsonl", "w") as f:
...     _ = f.write(kt.solve("3x4", start="a1").to_json())
>>> main(["library", "import", "t.jsonl", "--db", "t.db"])
imported 1 tour: 1 new, 0 already in t.db
0
>>> main(["library", "stats", "--db", "t.db"])
t.db: 1 tours
<BLANKLINE>
3x4 open: 1 tours (...)
  8 of 16 tours known
  by start square:
  4 | . . .
  3 | . . .
  2 | . . .
  1 | 1 . .
  by end square:
  4 | . . .
  3 | . . .
  2 | . . .
  1 | . 1 .
0
>>> main(["generate", "3x4", "--all", "--db", "t.db"])
added 2 new 3x4 open tours in ... s (every tour: 3 up to symmetry, standing for all 16 directed ones); t.db holds 3 of them
0
>>> main(["library", "stats", "--db", "t.db", "--format", "json"])
{"db": "t.db", "tours": 3, "kinds": [{..., "completeness": {"complete": true, "represented": 16, "count": 16, "published": null}, "semi_magic": 0, "magic": 0, "semi_magic_families": null}]}
0
>>> os.chdir(here)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from knightstour import notation
from knightstour.cli._options import (
    BOARD_OPTIONS,
    EXIT_OK,
    Parser,
    UsageError,
    add_command,
    add_kind_filter,
    add_options,
    add_picture_options,
    board_of,
    int_range,
)
from knightstour.cli._output import (
    check_source,
    err,
    open_output,
    precheck_outputs,
    write_pictures,
    write_tour,
    written,
)

NAME = "library"

#: The actions: name -> (help, declare its options, run it).
ACTIONS: dict[str, tuple[str, Callable[[Any], None], Callable[[Any, argparse.Namespace], int]]]


HELP = "list, show, stats, export, import and update the tours of a tour library"
DESCRIPTION = "Work with a tour library (an SQLite file made by 'generate' or 'import')."


def add(p: argparse.ArgumentParser) -> None:
    """The actions of ``library``, each with ``--db``."""
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    for name, (help_text, declare, _run) in ACTIONS.items():
        a = add_command(actions, name, help_text, help_text[0].upper() + help_text[1:] + ".")
        add_options(a, "db")
        declare(a)


def run(args: argparse.Namespace) -> int:
    """Run one library action: ``import`` opens the library to write (making it if need be,
    once its source is found); the others only read it, so a library in a read-only folder or
    on a read-only file system can be listed, shown, counted and exported."""
    from knightstour.library import Library

    if not args.action:
        raise UsageError(f"give an action: {', '.join(ACTIONS)} (see 'knightstour library --help')")
    writes = args.action in ("import", "update")
    creates = args.action == "import"
    if creates and args.file != "-":
        check_source(args.file, "a file of tours")  # before the library is made
    made = creates and args.db != ":memory:" and not os.path.exists(args.db)
    try:
        with Library(args.db, create=creates, readonly=not writes) as lib:
            return ACTIONS[args.action][2](lib, args)
    except BaseException:
        if made:  # an import that stored nothing leaves no empty library behind
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(args.db + suffix)
        raise


# -- the board filter -------------------------------------------------------------------------

#: The help of ``--board`` in the library's actions: a spec, or a shaped board's key.
BOARD_FILTER_HELP = (
    "only tours on this board: WxH, WxHxD, or a shaped board's key as 'library stats' shows it "
    "(quoted: '8x8 wrap=torus holes=a1'); or WxH with the board shape options"
)


def _add_board_filter(a: Any) -> None:
    """``--board`` and the board shape options (--holes, --mask, --corners, --leaper, --wrap),
    which shape the board ``--board`` names."""
    add_options(a, "board_filter", board_filter={"metavar": "BOARD", "help": BOARD_FILTER_HELP})
    group = a.add_argument_group("board shape (with --board)")
    for flags, kwargs in BOARD_OPTIONS.values():
        group.add_argument(*flags, **kwargs)


def _board_filter(args: argparse.Namespace) -> Any:
    """The board ``--board`` and the shape options name: None (every board), the text of
    ``--board`` (a spec or a key), or a shaped :class:`~knightstour.board.Board`."""
    shaped = any(getattr(args, name, None) for name in BOARD_OPTIONS)
    if not shaped:
        return args.board
    if args.board is not None and "=" in args.board:
        raise UsageError("give the board as a key or as WxH with shape options, not both")
    return board_of(args)


# -- list -------------------------------------------------------------------------------------


def _add_list(a: Any) -> None:
    _add_board_filter(a)
    add_kind_filter(a)
    a.add_argument("--after", type=int_range(0), default=0, metavar="ID", help="ids above this")
    a.add_argument("--limit", type=int_range(1), default=20, metavar="N", help="at most N (20)")
    a.add_argument(
        "--magic",
        action="store_true",
        help="only the semi-magic tours (every rank and file adds up to the same number), "
        "with a column saying which are magic (the diagonals too)",
    )
    a.add_argument(
        "--order",
        choices=("id", "crossings", "turns"),
        default="id",
        help="id (default), or crossings or turns: the fewest first, ties by id (--after ID "
        "goes on after that tour in this order)",
    )
    for name in ("crossings", "turns"):
        a.add_argument(
            f"--max-{name}",
            type=int_range(0),
            metavar="N",
            help=f"only tours with at most N {name}",
        )
    add_options(a, format={"choices": ("text", "json")})


def _list(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.queries import magic_tours
    from knightstour.library.store.gallery import TourFilter

    board, kind = _board_filter(args), args.kind
    verdicts: dict[int, str] = {}
    shaped = args.order != "id" or args.max_crossings is not None or args.max_turns is not None
    if args.magic:
        if shaped:
            raise UsageError(
                "--magic lists the semi-magic tours in id order: no --order or --max-*"
            )
        chosen = magic_tours(lib, board, kind, after=args.after, limit=args.limit)
        tours = [t for t, _ in chosen]
        verdicts = {t.id: v for t, v in chosen}
    elif shaped:
        kept = TourFilter(board, kind, None, args.order, args.max_crossings, args.max_turns)
        tours = lib.gallery.page(kept, after=args.after, limit=min(args.limit, 500))[0]
    else:
        tours = lib.tours.list(board, kind, after=args.after, limit=args.limit)
    if args.format == "json":
        for t in tours:
            info = t.info()
            if args.magic:
                info = {**info, "magic": verdicts[t.id]}
            print(json.dumps(info))
        return EXIT_OK
    if not tours:
        print("no semi-magic tours" if args.magic else "no tours")
        return EXIT_OK
    columns: tuple[str, ...] = (
        "id", "board", "kind", "start", "end", "method", "seed", "created", "crossings", "turns",
    )  # fmt: skip
    if args.magic:
        columns = (*columns, "magic")
    rows = [columns]
    for t in tours:
        i = {**t.info(), "kind": "closed" if t.info()["closed"] else "open"}
        i["board"] = t.board.description
        i["magic"] = verdicts.get(t.id)
        rows.append(tuple("" if i[c] is None else str(i[c]) for c in columns))
    print("\n".join(notation.table_lines(rows)))
    return EXIT_OK


# -- show -------------------------------------------------------------------------------------


def _add_show(a: Any) -> None:
    a.add_argument("id", type=int_range(1), metavar="ID", help="the tour's id (see 'library list')")
    add_options(
        a,
        "format",
        "output",
        "force",
        format={
            "choices": ("text", "moves", "board", "json"),
            "default": None,
            "help": "output format (default text; with a picture or --output FILE and no "
            "--format, stdout gets one line saying what was written)",
        },
    )
    add_picture_options(a)


def _show(lib: Any, args: argparse.Namespace) -> int:
    args.format_given = args.format is not None
    args.format = args.format or "text"
    use = precheck_outputs(args)
    stored = lib.tours.get(args.id)
    i = stored.info()
    seed = "" if i["seed"] is None else f", seed {i['seed']}"
    about = f"tour {i['id']} of {lib.path}{seed}, stored {i['created']}"
    if use == "tour" and args.format == "text" and args.output is None:
        print(about)
    if use == "tour" or args.output is not None:
        write_tour(args, stored.tour)
    write_pictures(args, stored.tour)
    if use == "summary":  # the picture or the file is the output: not the whole tour again
        t = stored.tour
        summary = notation.summary_line(t.board, t.indices, t.closed, t.method)
        print(f"{about}: {summary}; wrote {', '.join(written(args))}")
    return EXIT_OK


# -- stats ------------------------------------------------------------------------------------


def _add_stats(a: Any) -> None:
    _add_board_filter(a)
    add_options(a, "format", format={"choices": ("text", "json")})


def _stats(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.queries import library_report

    report = library_report(lib, _board_filter(args))
    if args.format == "json":
        print(json.dumps(report.to_dict()))
    else:
        print("\n".join(_stats_lines(report)))
    return EXIT_OK


def _stats_lines(report: Any) -> Iterator[str]:
    """The lines of ``library stats``: the total, then each board and kind
    (:func:`_kind_lines`), its heading followed by whether its collection is complete (when the
    count is quick) and how many of its tours are semi-magic (when any)."""
    yield f"{report.db}: {report.tours:,} tours"
    for kind in report.kinds:
        blank, head, *rest = _kind_lines(report.db, kind)
        yield from (blank, head)
        if kind.completeness.text():
            yield f"  {kind.completeness.text()}"
        if kind.semi_magic:
            yield f"  semi-magic: {kind.semi_magic:,} (magic, the diagonals too: {kind.magic:,})"
            line = None if kind.families is None else kind.families.family_line()
            if line is not None:
                yield f"  semi-magic {line}"
        yield from rest


def _kind_lines(db: str, kind: Any) -> list[str]:
    """A board and kind of ``library stats``, headed by a blank line and its heading:
    :func:`knightstour.notation.stats_lines` for a plain board; a shaped board's headed by its
    description (its squares drawn when it is flat, else its most common squares)."""
    s = kind.stats
    if kind.plain:
        return list(notation.stats_lines(db, [s]))[1:]
    spec = s["board"].split()[0]
    label = "closed" if s["closed"] else "open"
    if spec.count("x") == 1:  # flat: the grid of the plain board of its sides
        lines = list(notation.stats_lines(db, [{**s, "board": spec}]))[1:]
        head = f"{s['description']} {label}" + lines[1][len(spec) + len(label) + 1 :]
        return ["", head, *lines[2:]]
    methods = ", ".join(f"{m} {n:,}" for m, n in sorted(s["methods"].items()))
    out = ["", f"{s['description']} {label}: {s['tours']:,} tours ({methods})"]
    for side in ("start", "end"):
        top = sorted(s[f"{side}s"].items(), key=lambda kv: -kv[1])[:10]
        out.append(f"  most common {side} squares: " + ", ".join(f"{k} {v:,}" for k, v in top))
    return out


# -- update -----------------------------------------------------------------------------------


def _add_update(a: Any) -> None:
    add_options(a, "quiet")


def _update(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.cli.generate import EXIT_STOPPED
    from knightstour.cli.progress import progress_bar
    from knightstour.library.metrics import MetricsInterrupted, update_metrics

    try:
        with progress_bar("measuring", unit="tours", quiet=args.quiet) as bar:
            r = update_metrics(lib, bar)
    except MetricsInterrupted as e:
        err(str(e))
        return EXIT_STOPPED
    undefined = (
        f" ({r.undefined:,} of wrapped or 3-D boards have none: not defined there)"
        if r.undefined
        else ""
    )
    print(f"stored the crossings and turns of {r.updated:,} tours in {lib.path}{undefined}")
    return EXIT_OK


# -- export and import ------------------------------------------------------------------------


def _formats() -> tuple[str, ...]:
    from knightstour.library.io import EXPORT_FORMATS

    return EXPORT_FORMATS


def _add_export(a: Any) -> None:
    _add_board_filter(a)
    add_kind_filter(a)
    a.add_argument("--limit", type=int_range(1), metavar="N", help="at most N tours (all)")
    add_options(
        a,
        "format",
        "output",
        "force",
        format={"choices": _formats(), "default": "jsonl", "help": "jsonl (default) or csv"},
        output={"help": "write to FILE (default standard output)"},
        force={"help": "overwrite an existing FILE"},
    )


def _export(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.io import export

    with open_output(args.output, args.force) as f:
        board = _board_filter(args)
        n = export(lib, f, fmt=args.format, board=board, closed=args.kind, limit=args.limit)
    if args.output not in (None, "-"):
        print(f"exported {n:,} tours to {args.output}", file=sys.stderr)
    return EXIT_OK


def _add_import(a: Any) -> None:
    a.add_argument("file", metavar="FILE", help="file to read ('-' for standard input)")
    add_options(
        a,
        format={
            "choices": _formats(),
            "default": None,
            "help": "jsonl or csv (default: csv for a .csv file, else jsonl)",
        },
    )


def _import(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.io import import_tours

    fmt = args.format or ("csv" if args.file.lower().endswith(".csv") else "jsonl")
    lib.check_integrity()  # never write into a damaged file
    if args.file == "-":
        r = import_tours(lib, sys.stdin, fmt=fmt, source="<stdin>")
    else:
        path = check_source(args.file, "a file of tours")
        try:
            with open(path, encoding="utf-8", newline="" if fmt == "csv" else None) as f:
                r = import_tours(lib, f, fmt=fmt, source=args.file)
        except UnicodeDecodeError:
            raise UsageError(f"{args.file} is not a text file of tours ({fmt})") from None
    noun = "tour" if r.read == 1 else "tours"
    print(f"imported {r.read:,} {noun}: {r.added:,} new, {r.duplicates:,} already in {lib.path}")
    return EXIT_OK


ACTIONS = {
    "list": ("list the tours, their boards, squares, methods and seeds", _add_list, _list),
    "show": ("print one tour (and draw it)", _add_show, _show),
    "stats": (
        "count the tours per board, open and closed, and per start and end square, and say "
        "whether a board's collection is complete",
        _add_stats,
        _stats,
    ),
    "export": (
        "write the tours one a line: JSON lines (the tour JSON) or CSV",
        _add_export,
        _export,
    ),
    "import": (
        "add the tours of a JSON lines or CSV file, every one validated",
        _add_import,
        _import,
    ),
    "update": (
        "store the crossings and turns of the tours that lack them (a library made by an "
        "older knightstour); Ctrl-C keeps what is done",
        _add_update,
        _update,
    ),
}
