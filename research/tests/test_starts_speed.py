"""The start passes' speed comparison: a variant kernel walks the same tree as the product's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from knightstour.kernels import magic_starts
from research import starts_speed


def test_the_product_against_a_copy_of_itself(tmp_path: Path) -> None:
    """A copy of the product's kernel module walks the same parts to the same nodes and tours
    (the script asserts it part by part)."""
    copy = tmp_path / "copy_kernels.py"
    shutil.copy(magic_starts.__file__, copy)
    nodes, ratio = starts_speed.main(
        ["--variant", str(copy), "--parts", "2", "--first", "100", "--budget", "20000"]
    )
    assert nodes > 0 and ratio > 0


def test_a_variant_that_walks_another_tree_is_refused(tmp_path: Path) -> None:
    """A variant that cuts less (each line's distance from the head taken as two less) walks
    another tree: refused."""
    text = Path(magic_starts.__file__).read_text()
    assert "vv = v * ONES" in text
    variant = tmp_path / "looser_kernels.py"
    variant.write_text(text.replace("vv = v * ONES", "vv = (v - 2) * ONES"))
    with pytest.raises(AssertionError):
        starts_speed.main(["--variant", str(variant), "--parts", "2", "--first", "100",
                           "--budget", "20000"])  # fmt: skip


def test_the_bare_walk_takes_as_many_nodes() -> None:
    """``--bare``: the bare knight-path walk from the pass's start square, as many nodes as the
    product's walk took on each part."""
    nodes, ratio = starts_speed.main(
        ["--bare", "--parts", "2", "--first", "100", "--budget", "5000"]
    )
    assert nodes == 10000 and ratio > 0
