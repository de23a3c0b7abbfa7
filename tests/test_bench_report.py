"""``make bench`` prints ratios and writes them into docs/benchmarks.md: the figures a benchmark
records (``benchmarks/_report.py``) and the table ``benchmarks/run.py`` makes of them, written
between its markers and nowhere else."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_figure_is_printed_and_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = load("_report")
    out = tmp_path / "r.jsonl"
    monkeypatch.setenv(report.RESULTS_ENV, str(out))
    ratio = report.figure("w", "center", 24.0, 20.0, unit="ns", baseline_name="C walk", target=1.2)
    report.figure("w", "rate", 100.0, 250.0, unit="/s", baseline_name="target", target=1.0,
                  better="higher")  # fmt: skip
    assert ratio == pytest.approx(1.2)
    printed = capsys.readouterr().out
    assert "ratio 1.20 (target <= 1.2: met)" in printed
    assert "ratio 0.40 (target >= 1: MISSED)" in printed
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["met"] for r in recs] == [True, False]


def test_the_table_goes_between_the_markers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = load("run")
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nIntro.\n\n## Hand-written\n\nProse.\n")
    monkeypatch.setattr(run, "DOC", doc)
    rec = {
        "bench": "warnsdorff", "what": "center", "value": 22.0, "baseline": 20.0, "unit": "ns",
        "baseline_name": "C walk", "ratio": 1.1, "target": 1.2, "better": "lower", "met": True,
        "note": "",
    }  # fmt: skip
    results = {"warnsdorff": {"machine": run.machine(), "date": "2026-11-23", "figures": [rec]}}
    run.write_doc(results)
    first = doc.read_text()
    assert first.startswith("# Benchmarks\n\nIntro.\n\n" + run.BEGIN)
    assert "| warnsdorff | center | 22.0 ns | C walk 20.0 | 1.10 | <= 1.2 | met |" in first
    assert "Machine: " in first and first.endswith("## Hand-written\n\nProse.\n")
    rec["value"], rec["ratio"] = 30.0, 1.5
    run.write_doc(results)
    second = doc.read_text()
    assert second.count(run.BEGIN) == 1 and "| 30.0 ns |" in second
    assert second.split(run.END)[1] == first.split(run.END)[1]


def test_the_docs_table_is_the_last_runs_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/benchmarks.md and ``make bench`` agree: the table in the docs is the one the last
    runs' records (benchmarks/results.json) make, figure for figure."""
    run = load("run")
    real = run.DOC.read_text()
    copy = tmp_path / "benchmarks.md"
    copy.write_text(real)
    monkeypatch.setattr(run, "DOC", copy)
    run.write_doc(json.loads(run.RESULTS.read_text()))
    assert copy.read_text() == real, "docs/benchmarks.md's table is not results.json's"
