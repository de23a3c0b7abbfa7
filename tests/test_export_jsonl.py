"""The exporter's JSON lines, made a chunk at a time by vectorised NumPy, are the bytes the tour
JSON has (one tour at a time, as before): every board size, several methods in one chunk."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import knightstour as kt
from knightstour.library import Library
from knightstour.library.generate import generate
from knightstour.library.io import _fragments, _jsonl, export


def one_at_a_time(width: int, height: int, heads: list[str], tours: np.ndarray) -> str:
    jnames, jxy, _ = _fragments(width, height)
    return "".join(
        f'{h}{",".join([jnames[s] for s in p])}],"xy":[{",".join([jxy[s] for s in p])}]}}\n'
        for h, p in zip(heads, tours.tolist(), strict=True)
    )


@pytest.mark.parametrize("size", [(1, 1), (3, 4), (8, 8), (12, 30), (30, 12), (27, 3)])
def test_same_text_as_one_at_a_time(size: tuple[int, int]) -> None:
    w, h = size
    rng = np.random.default_rng(w * h)
    tours = np.stack([rng.permutation(w * h) for _ in range(7)])
    heads = [
        json.dumps({"width": w, "height": h, "closed": c, "method": m}, separators=(",", ":"))[:-1]
        + ',"path":['
        for c, m in [(False, "warnsdorff"), (True, "backtrack"), (False, "x")] * 3
    ][:7]
    assert _jsonl(w, h, heads, tours) == one_at_a_time(w, h, heads, tours)
    one = heads[:1] * 7  # one method: laid out in place where the fragments have one width
    assert _jsonl(w, h, one, tours) == one_at_a_time(w, h, one, tours)


def test_export_lines_are_tours(tmp_path: object) -> None:
    with Library(":memory:") as lib:
        generate("8x8", 300, seed=3, db=lib, workers=1)
        generate("6x6", 20, closed=True, seed=3, db=lib, workers=1, method="backtrack")
        out = io.StringIO()
        assert export(lib, out) == 320
    lines = out.getvalue().splitlines()
    assert len(lines) == 320
    for line in lines[::37]:
        data = json.loads(line)
        tour = kt.Tour.from_dict(data)
        assert list(data) == ["width", "height", "closed", "method", "path", "xy"]
        assert tour.to_json() == line
