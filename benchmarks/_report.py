"""How a benchmark reports a figure against its baseline: one printed line with the ratio, and
one JSON record for ``benchmarks/run.py`` (which prints the table of ratios and writes it into
docs/benchmarks.md).

    from _report import figure, median_of
    figure("warnsdorff", "center 1000x1000 via kt.solve", 21.9, 20.1, unit="ns/square",
           baseline_name="C walk", target=1.2)

A figure is ``value`` against ``baseline`` measured in the same run; ``ratio = value /
baseline`` (for rates, where more is better, ``better="higher"`` and the ratio is still value /
baseline, the target a floor). When ``run.py`` runs a benchmark it names a file in the
environment variable ``KT_BENCH_RESULTS``; each record is appended there as a JSON line.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable

__all__ = ["figure", "median_of", "timed"]

RESULTS_ENV = "KT_BENCH_RESULTS"


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes (wall clock)."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_of(fns: dict[str, Callable[[], float]], reps: int) -> dict[str, float]:
    """The median of ``reps`` runs of each measurement, the runs interleaved (round robin), so
    that a baseline and its rival share whatever else the machine is doing.

    Each ``fn`` returns its own measurement (seconds, or any number).
    """
    got: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            got[k].append(fn())
    return {k: statistics.median(v) for k, v in got.items()}


def figure(
    bench: str,
    what: str,
    value: float,
    baseline: float | None,
    *,
    unit: str,
    baseline_name: str,
    target: float | None = None,
    better: str = "lower",
    note: str = "",
) -> float | None:
    """Print and record ``what`` = ``value`` against ``baseline``; returns the ratio (None when
    there is no baseline: the figure is recorded alone, with why in ``note``).

    ``target`` bounds the ratio: at most it when ``better == "lower"``, at least it when
    ``"higher"``.
    """
    ratio = value / baseline if baseline else None
    met = None
    if ratio is not None and target is not None:
        met = ratio <= target if better == "lower" else ratio >= target
    sign = "<=" if better == "lower" else ">="
    line = f"  {what}: {_num(value)} {unit}"
    if baseline is not None:
        line += f" vs {baseline_name} {_num(baseline)}: ratio {ratio:.2f}"
    else:
        line += f" ({baseline_name} not measured{': ' + note if note else ''})"
    if target is not None:
        line += (
            f" (target {sign} {target:g}: {'met' if met else 'MISSED' if met is False else '-'})"
        )
    print(line, flush=True)
    path = os.environ.get(RESULTS_ENV)
    if path:
        rec = {
            "bench": bench,
            "what": what,
            "value": value,
            "baseline": baseline,
            "unit": unit,
            "baseline_name": baseline_name,
            "ratio": ratio,
            "target": target,
            "better": better,
            "met": met,
            "note": note,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
        with open(path, "a") as f:
            f.write(json.dumps(rec) + "\n")
    return ratio


def _num(v: float) -> str:
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"
