"""``knightstour warm``: compile every kernel into the cache, once after install."""

from __future__ import annotations

import argparse

from knightstour.cli._options import EXIT_OK, add_options
from knightstour.cli.progress import progress_bar

NAME = "warm"
HELP = (
    "compile every kernel into the cache so that no first call pays for compilation "
    "(run once after install)"
)


DESCRIPTION = HELP[0].upper() + HELP[1:] + "."


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``warm``."""
    add_options(p, "quiet")


def run(args: argparse.Namespace) -> int:
    """Compile, printing each step with its seconds and the total."""
    from knightstour.warm import warm

    with progress_bar("warm", unit="kernels", delay=0, quiet=args.quiet) as bar:
        steps = warm(progress=bar)
    width = max((len(name) for name, _ in steps), default=5)
    for name, seconds in steps:
        print(f"{name:<{width}}  {seconds:6.2f} s")
    print(f"{'total':<{width}}  {sum(s for _, s in steps):6.2f} s")
    return EXIT_OK
