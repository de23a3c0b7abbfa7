"""Run the benchmarks: every ``benchmarks/bench_*.py`` in turn, or the ones named; print the ratio
of each figure to its baseline, and write the table of ratios into docs/benchmarks.md.

    python benchmarks/run.py            # all (make bench): the heavy counts left out
    python benchmarks/run.py --full     # all, the heavy counts (7x7 open: about 15 minutes) and
                                        # the divide moonshot (30000x30000 to a file) too
    python benchmarks/run.py warnsdorff # bench_warnsdorff.py only (its rows of the table renewed)
    python benchmarks/run.py roth       # bench_roth.py: where Roth's rule gets stuck, n <= 450
    python benchmarks/run.py --no-write warnsdorff   # print only, leave the docs alone

Each benchmark file is a script with a ``main()`` that prints one line per figure. They run in
separate processes so that one's memory or compiled code does not colour another's figures. A
figure measured against a baseline in the same run is reported through ``_report.figure``: a
JSON record in the file named by ``KT_BENCH_RESULTS``, which this script gathers. The records of
the last run of each benchmark are kept in ``benchmarks/results.json``; docs/benchmarks.md's
table between its ``bench:begin`` and ``bench:end`` markers is made from them, with the machine
each ran on. The prose around the table is written by hand.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # loaded by path rather than run as the script (the tests)
    sys.path.insert(0, str(HERE))

from _report import _num  # noqa: E402  (figures printed and tabled alike)

ROOT = HERE.parent
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS = HERE / "results.json"
BEGIN, END = "<!-- bench:begin (made by benchmarks/run.py) -->", "<!-- bench:end -->"

#: Arguments each benchmark gets from ``make bench``; ``--full`` leaves them out.
QUICK_ARGS: dict[str, list[str]] = {"count": ["--quick"]}
#: Arguments each benchmark gets from ``--full`` (the moonshots).
FULL_ARGS: dict[str, list[str]] = {"divide": ["--moonshot"]}


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    cc = shutil.which("cc") or shutil.which("gcc")
    ccv = ""
    if cc:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
        ccv = out.splitlines()[0] if out else cc
    versions = []
    for mod in ("numpy", "numba"):
        with contextlib.suppress(ImportError):
            versions.append(f"{mod} {__import__(mod).__version__}")
    return {
        "cpu": f"{cpu}, {os.cpu_count()} cores",
        "memory": mem,
        "system": f"{platform.system()} {platform.release()}",
        "python": f"Python {platform.python_version()}, {', '.join(versions)}",
        "cc": ccv or "no C compiler",
        "load": f"{os.getloadavg()[0]:.1f}",
    }


def run(files: list[Path], full: bool) -> tuple[int, list[dict]]:
    """Run each benchmark in its own process; (how many failed, their figures)."""
    failed = 0
    records: list[dict] = []
    for f in files:
        name = f.stem.removeprefix("bench_")
        print(f"== {name}", flush=True)
        t0 = time.perf_counter()
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as res:
            env = {**os.environ, "KT_BENCH_RESULTS": res.name}
            args = FULL_ARGS.get(name, []) if full else QUICK_ARGS.get(name, [])
            rc = subprocess.call([sys.executable, str(f), *args], cwd=ROOT, env=env)
            got = [json.loads(line) for line in res.read().splitlines() if line.strip()]
        secs = time.perf_counter() - t0
        print(f"   ({secs:.1f} s{'' if rc == 0 else f', exit {rc}'})", flush=True)
        failed += rc != 0
        records += got
    return failed, records


def table(records: list[dict]) -> list[str]:
    """The markdown table of figures and their ratios."""
    rows = [
        "| benchmark | figure | measured | baseline (same run) | ratio | target | |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in records:
        base = (
            f"{r['baseline_name']} {_num(r['baseline'])}"
            if r["baseline"] is not None
            else f"{r['baseline_name']}: not measured"
        )
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else "-"
        sign = "<=" if r["better"] == "lower" else ">="
        target = f"{sign} {r['target']:g}" if r["target"] is not None else ""
        met = {True: "met", False: "**missed**", None: ""}[r["met"]]
        what = r["what"] + (f" ({r['note']})" if r.get("note") else "")
        rows.append(
            f"| {r['bench']} | {what} | {_num(r['value'])} {r['unit']} | {base} | {ratio} | "
            f"{target} | {met} |"
        )
    return rows


def write_doc(results: dict) -> None:
    """Renew the generated part of docs/benchmarks.md from ``results`` (benchmark -> its last
    run: machine, date, figures)."""
    lines = [
        BEGIN,
        "",
        "Ratios to each baseline, measured in the same run (the medians of interleaved repeats:",
        "the machine is shared, so compare ratios rather than times). Made by `make bench`;",
        "`python benchmarks/run.py NAME` renews one benchmark's rows.",
        "",
    ]
    machines: dict[str, list[str]] = {}
    for name, run in results.items():
        key = json.dumps(run["machine"], sort_keys=True)
        machines.setdefault(key, []).append(f"{name} ({run['date']})")
    for key, names in machines.items():
        m = json.loads(key)
        lines.append(
            f"Machine: {m['cpu']}, {m['memory']}; {m['system']}; {m['python']}; {m['cc']}; "
            f"load average {m['load']} at the start. Runs: {', '.join(names)}."
        )
        lines.append("")
    records = [r for run in results.values() for r in run["figures"]]
    lines += [*table(records), "", END]
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
    else:  # first time: after the opening paragraph
        parts = text.split("\n\n", 2)
        head = "\n\n".join(parts[:2]) + "\n\n"
        tail = "\n\n" + (parts[2] if len(parts) > 2 else "")
    DOC.write_text(head + "\n".join(lines) + tail)


def main(argv: list[str]) -> int:
    if {"-h", "--help"} & set(argv):
        print(__doc__)
        return 0
    unknown = [a for a in argv if a.startswith("-") and a not in ("--full", "--no-write")]
    if unknown:
        print(f"unknown option {unknown[0]}: see --help", file=sys.stderr)
        return 2
    full = "--full" in argv
    write = "--no-write" not in argv
    names = [a for a in argv if not a.startswith("--")]
    files = sorted(HERE.glob("bench_*.py"))
    if names:
        files = [f for f in files if f.stem.removeprefix("bench_") in names]
        if not files:
            print(f"no benchmark named {', '.join(names)}", file=sys.stderr)
            return 2
    where = machine()
    failed, records = run(files, full)
    if records:
        print("\n== ratios to the baselines")
        print("\n".join(table(records)))
    if write and records:
        results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        date = time.strftime("%Y-%m-%d", time.gmtime())
        for f in files:
            name = f.stem.removeprefix("bench_")
            mine = [r for r in records if r["bench"] == name]
            if mine:
                results[name] = {"machine": where, "date": date, "figures": mine}
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        write_doc(results)
        print(f"\nwrote {DOC.relative_to(ROOT)} and {RESULTS.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
