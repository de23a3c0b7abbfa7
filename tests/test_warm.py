"""``warm`` reaches every kernel: each module of the one loader, and each kernel in it."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from knightstour.errors import InternalError, InvalidInputError
from knightstour.kernels import jit
from knightstour.warm import GROUPS, STEPS, warm


@pytest.fixture(scope="module")
def steps() -> list[tuple[str, float]]:
    seen: list[tuple[int, int]] = []
    out = warm(progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, len(STEPS)) and seen[-1] == (len(STEPS), len(STEPS))
    return out


@pytest.mark.slow
def test_every_step_reports_its_time(steps: list[tuple[str, float]]) -> None:
    assert [name for name, _ in steps] == [name for name, _ in STEPS]
    assert all(seconds >= 0 for _, seconds in steps)


def test_every_kernel_module_is_compiled(steps: list[tuple[str, float]]) -> None:
    assert set(jit.MODULES) <= jit.compiled_modules()
    for module in jit.MODULES:  # machine code made (or loaded from the cache) for each
        kernels = jit.load(module, compiled=True)
        assert any(getattr(kernels, n).signatures for n in kernels.names()), module


def test_every_kernel_is_compiled_or_called_by_one_that_is(
    steps: list[tuple[str, float]],
) -> None:
    """A kernel with no compiled signature after ``warm`` must be a helper another kernel calls
    (of its module or another: compiled into that kernel's cached code); else a real call would
    compile it."""
    loaded = {module: jit.load(module, compiled=True) for module in jit.MODULES}
    sources = {
        (module, n): inspect.getsource(getattr(kernels, n).py_func)
        for module, kernels in loaded.items()
        for n in kernels.names()
    }
    for module, kernels in loaded.items():
        compiled = {n for n in kernels.names() if getattr(kernels, n).signatures}
        for name in kernels.names():
            if name in compiled:
                continue
            callers = [k for k, src in sources.items() if k != (module, name) and f"{name}(" in src]
            assert callers, f"warm never compiles {module}.{name}, and no kernel calls it"


def test_a_module_warm_misses_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit, "MODULES", (*jit.MODULES, "knightstour.solvers._missing"))
    monkeypatch.setattr("knightstour.warm.STEPS", ())
    with pytest.raises(InternalError, match=r"knightstour\.solvers\._missing"):
        warm()


def test_bad_steps_and_workers_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="no warm step named 'sink'"):
        warm(only=["sink"])
    with pytest.raises(InvalidInputError, match="workers must be at least 1, got 0"):
        warm(workers=0)


def test_every_step_is_in_one_group() -> None:
    grouped = [name for group in GROUPS for name in group]
    assert sorted(grouped) == sorted(name for name, _ in STEPS)


@pytest.mark.slow
def test_steps_made_in_other_processes_report_in_order() -> None:
    seen: list[tuple[int, int]] = []
    chosen = ["counting", "text of huge tours"]
    out = warm(lambda done, total: seen.append((done, total)), only=chosen, workers=2)
    assert [name for name, _ in out] == chosen and all(s >= 0 for _, s in out)
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)


def test_a_first_compile_is_announced_once_and_timed_apart(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command line says on stderr, once, that it compiles (a first call after a plain
    install), and the seconds spent compiling are counted apart from the work."""
    from numba import njit

    from knightstour.cli import main

    jit.load("knightstour.kernels.walk", compiled=True)  # listens to the compiler from here
    monkeypatch.setattr(jit, "_notices", [])  # as in a new process: nothing compiled yet
    monkeypatch.setitem(jit._compiling, "seconds", 0.0)
    assert main(["exists", "4x4"]) == 1 and main(["exists", "5x5"]) == 0
    assert jit.COMPILE_NOTE not in capsys.readouterr().err  # nothing compiled: nothing said
    assert njit(lambda x: x + 1)(1) == 2  # a function no disk cache holds: compiled here
    assert njit(lambda x: x * 3)(2) == 6
    err = capsys.readouterr().err
    assert err.count(jit.COMPILE_NOTE) == 1 and err.startswith("knightstour: compiling")
    assert jit.compile_seconds() > 0
    main(["exists", "4x4"])
    njit(lambda x: x - 1)(1)
    assert jit.COMPILE_NOTE not in capsys.readouterr().err  # said once a process


def test_count_tells_compiling_apart_from_counting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The seconds a count spent compiling kernels (a first call after a plain install) are not
    its counting time: the tally keeps them apart, and the command line says both."""
    from knightstour.cli import main
    from knightstour.counting import count_request
    from knightstour.counting.compute import tally

    monkeypatch.chdir(tmp_path)  # no tours.db here: each count is computed
    clock = iter([0.0, 4.0])  # 4 s of compiling happened during the count
    monkeypatch.setattr(jit, "compile_seconds", lambda: next(clock))
    t = tally(count_request("5x5"))
    assert t.number == 1728 and t.compiling == 4.0 and t.seconds >= 0.0
    clock = iter([0.0, 2.5])
    assert main(["count", "5x5"]) == 0
    out = capsys.readouterr().out
    assert "after 2.50 s compiling its kernels" in out and "computed in" in out
    clock = iter([1.0, 1.0])
    main(["count", "5x5"])
    assert "compiling" not in capsys.readouterr().out  # nothing compiled: nothing said


def test_every_in_x_seconds_line_tells_compiling_apart(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``solve --time``, ``generate`` (with --count and --all) and the magic search say the
    seconds spent compiling kernels apart from their own, measured by the one
    :class:`~knightstour.kernels.jit.Stopwatch`; nothing compiled, nothing said."""
    import itertools

    from knightstour.cli import main

    monkeypatch.chdir(tmp_path)
    watch_clock = itertools.count(0.0, 1.5)  # each look at the compile clock: 1.5 s more
    monkeypatch.setattr(jit, "compile_seconds", lambda: next(watch_clock))
    seconds, compiling = jit.Stopwatch().read()
    assert compiling == 1.5 and seconds == 0.0  # the compiling is not the work's
    assert main(["solve", "8x8", "--time"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("solved in ") and out[-1].endswith(
        ", after 1.50 s compiling its kernels (once an install)"
    )
    assert main(["generate", "5x5", "--count", "3", "--db", "g.db", "-q"]) == 0
    assert "compiling its kernels (once an install)); g.db holds" in capsys.readouterr().out
    assert main(["generate", "5x5", "--all", "--start", "a1", "--db", "a.db", "-q"]) == 0
    assert "compiling its kernels (once an install)); a.db holds" in capsys.readouterr().out
    assert main(["magic", "4x6", "--range", "1", "--db", "m.db", "--quiet"]) == 0
    assert " s, after 1.50 s compiling its kernels" in capsys.readouterr().out
    monkeypatch.setattr(jit, "compile_seconds", lambda: 7.0)  # nothing compiled meanwhile
    assert main(["solve", "8x8", "--time"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("solved in ") and "compiling" not in last


def test_the_kernels_a_module_inlines_are_compiled_into_their_callers() -> None:
    """``__inline__`` names kernels compiled with Numba's ``inline="always"`` (the frontier's
    ``successors``, run once per state by ``expand`` and ``expand_links``); the others are not."""
    from knightstour.kernels import frontier

    kernels = jit.load(frontier, compiled=True)
    assert frontier.__inline__ == ("successors",)
    assert kernels.successors.targetoptions.get("inline") == "always"
    assert kernels.expand.targetoptions.get("inline", "never") == "never"


def test_the_kernels_a_module_borrows_for_are_compiled_without_reference_counting() -> None:
    """``__borrow__`` names kernels compiled with Numba's ``_nrt=False`` (the counting sweep's
    hot loop); the kernels that make arrays keep their reference counting."""
    from knightstour.kernels import frontier

    kernels = jit.load(frontier, compiled=True)
    assert "expand_to" in frontier.__borrow__ and "_scratch" not in frontier.__borrow__
    assert kernels.expand_to.targetoptions.get("_nrt") is False
    assert kernels._scratch.targetoptions.get("_nrt", True) is True


@pytest.mark.parametrize("listed", ["__inline__", "__borrow__"])
def test_a_misspelt_kernel_in_a_modules_lists_is_refused(listed: str) -> None:
    """A name in ``__inline__`` or ``__borrow__`` that is not a kernel would silently compile
    the kernel it meant the ordinary way: the loader refuses the module instead."""
    import types

    mod = types.ModuleType("knightstour_test_kernels")
    exec("def twice(x):\n    return 2 * x\n", mod.__dict__)
    mod.__kernels__ = ("twice",)  # type: ignore[attr-defined]
    setattr(mod, listed, ("twise",))
    with pytest.raises(TypeError, match="twise"):
        jit.load(mod, compiled=True)
