"""What a ``pip install`` gets: the wheel and the sdist built from this tree carry the licence, the
data and the web's static files, every package module, and nothing of research/ or tests/ in the
wheel (``python -m build``, its build requirements fetched from the package index)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tracked(root: Path) -> list[str]:
    """The files git tracks or would track (untracked but not ignored)."""
    r = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [line for line in r.stdout.splitlines() if (root / line).is_file()]


def _built(tmp_path: Path, *only: str) -> Path:
    """The folder of the distributions ``python -m build`` makes of a copy of this tree (``only``:
    its flags, ``--wheel`` for the wheel alone)."""
    if not (ROOT / ".git").exists():
        pytest.fail("this test builds from a git checkout (it lists the files git tracks)")
    tree = tmp_path / "tree"
    for name in _tracked(ROOT):  # a copy: building writes egg-info and build/ into the tree
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    out = tmp_path / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "build", *only, "--outdir", str(out), str(tree)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return out


@pytest.mark.slow
def test_the_wheel_and_the_sdist_carry_what_an_install_needs(tmp_path: Path) -> None:
    out = _built(tmp_path)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    package = {p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src").rglob("*.py")}
    assert package <= names, sorted(package - names)[:5]
    for data in ("py.typed", "data/published.json", "web/static/index.html", "web/static/app.js"):
        assert f"knightstour/{data}" in names
    assert not [n for n in names if n.startswith(("research/", "tests/", "benchmarks/"))]
    with tarfile.open(sdist) as tar:
        members = {m.split("/", 1)[1] for m in tar.getnames() if "/" in m}
    assert {"LICENSE", "README.md", "pyproject.toml"} <= members
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def _numbering(text: str) -> dict[int, tuple[int, int]]:
    """The squares of a board of move numbers as ``solve`` prints it (rank lines ``8 | 32 17
    ...``, the top rank first), by move number: (file, rank), zero-based."""
    ranks = [line.split("|", 1) for line in text.splitlines() if "|" in line]
    out = {}
    for label, numbers in ranks:
        for x, n in enumerate(numbers.split()):
            out[int(n)] = (x, int(label) - 1)
    return out


@pytest.mark.sweep  # --all: downloads the dependencies from the package index
def test_a_fresh_environment_from_the_wheel_runs_the_readme_pip_path(tmp_path: Path) -> None:
    """The README's pip path in a new virtual environment, from the wheel built here with its
    dependencies from the package index, and an empty Numba cache: ``solve 8x8`` prints a
    tour; ``count 5x5`` gives 1,728 and says on stderr, in its one line, that it compiles its
    kernels first (issue 30, "Done when")."""
    from knightstour.kernels.jit import COMPILE_NOTE

    (wheel,) = _built(tmp_path, "--wheel").glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    r = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NUMBA_CACHE_DIR"] = str(cache)
    work = tmp_path / "work"  # no tours.db here: the count is computed
    work.mkdir()

    def knightstour(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / "knightstour"), *args], cwd=work, env=env,
                              capture_output=True, text=True, timeout=900)  # fmt: skip

    solved = knightstour("solve", "8x8")
    assert solved.returncode == 0, solved.stderr
    squares = _numbering(solved.stdout)
    assert sorted(squares) == list(range(1, 65)) and len(set(squares.values())) == 64
    for n in range(1, 64):
        (x0, y0), (x1, y1) = squares[n], squares[n + 1]
        assert sorted((abs(x0 - x1), abs(y0 - y1))) == [1, 2], (n, squares[n], squares[n + 1])
    counted = knightstour("count", "5x5")
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.splitlines()[0] == "1728"
    notes = [line for line in counted.stderr.splitlines() if COMPILE_NOTE in line]
    assert len(notes) == 1 and notes[0] == f"knightstour: {COMPILE_NOTE}", counted.stderr
    assert "compiling its kernels" in counted.stdout  # compile time kept apart from counting
    assert not list(work.iterdir())  # nothing written where it ran
