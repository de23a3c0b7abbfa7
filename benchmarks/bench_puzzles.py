"""Number puzzles (issue 34, item 6): seconds to make an 8x8 puzzle of each level, and of the
exact search's proof that a made puzzle has one solution (8x8 and 10x10), the slowest of three
seeds each.

Targets (the issue's): an 8x8 puzzle of any level made in under 2 s; a uniqueness check of an
8x8 or 10x10 puzzle in under 100 ms; a 50-puzzle booklet (8x8, medium, A4) in under a minute,
made and written as a PDF. The kernels are loaded (compiled, from the cache) before
the clock starts.
"""

from __future__ import annotations

import time

from _report import figure

LEVELS = ("easy", "medium", "hard", "expert")
SEEDS = (0, 1, 2)


def main() -> None:
    from knightstour.numberpuzzles import completions
    from knightstour.numberpuzzles.make import make

    make("6x6", level="easy", seed=0)  # load the kernels
    for level in LEVELS:
        took = []
        for seed in SEEDS:
            t0 = time.perf_counter()
            make("8x8", level=level, seed=seed)
            took.append(time.perf_counter() - t0)
        figure(
            "puzzles",
            f"make an 8x8 {level} puzzle (slowest of {len(SEEDS)})",
            max(took),
            2.0,
            unit="s",
            baseline_name="the issue's 2 s",
            target=1.0,
            note=f"each: {', '.join(f'{t:.2f}' for t in took)} s",
        )
    for spec in ("8x8", "10x10"):
        for level in ("medium", "expert"):
            proofs = []
            for seed in SEEDS:
                p = make(spec, level=level, seed=seed)
                t0 = time.perf_counter()
                found = completions(p, limit=2)
                proofs.append(time.perf_counter() - t0)
                assert found.unique
            figure(
                "puzzles",
                f"prove a {spec} {level} puzzle unique (slowest of {len(SEEDS)})",
                max(proofs) * 1000,
                100.0,
                unit="ms",
                baseline_name="the issue's 100 ms",
                target=1.0,
                note=f"each: {', '.join(f'{t * 1000:.1f}' for t in proofs)} ms",
            )
    import io

    from knightstour.numberpuzzles.make import make_many
    from knightstour.numberpuzzles.printing import write_book

    t0 = time.perf_counter()
    puzzles = list(make_many("8x8", 50, level="medium", seed=0))
    made = time.perf_counter() - t0
    pages = write_book(puzzles, io.BytesIO(), paper="a4")
    took = time.perf_counter() - t0
    figure(
        "puzzles",
        "a 50-puzzle 8x8 medium booklet, made and written as a PDF",
        took,
        60.0,
        unit="s",
        baseline_name="the issue's minute",
        target=1.0,
        note=f"making {made:.1f} s, drawing and writing {took - made:.1f} s, {pages} pages",
    )


if __name__ == "__main__":
    main()
