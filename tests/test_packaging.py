"""What a ``pip install`` gets: the wheel and the sdist built from this tree carry the licence, the
data and the web's static files, every package module, and nothing of research/ or tests/ in the
wheel (``python -m build``, its build requirements fetched from the package index)."""

from __future__ import annotations

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


@pytest.mark.slow
def test_the_wheel_and_the_sdist_carry_what_an_install_needs(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.fail("this test builds from a git checkout (it lists the files git tracks)")
    tree = tmp_path / "tree"
    for name in _tracked(ROOT):  # a copy: building writes egg-info and build/ into the tree
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    out = tmp_path / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
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
