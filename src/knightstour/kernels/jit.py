"""The one loader of compiled kernels: every hot loop of knightstour goes through :func:`load`.

A kernel module is plain Python written in the subset that Numba compiles, and names its kernels
in ``__kernels__``. :func:`load` returns them as they are (interpreted: no Numba import, right
for small boards) or compiled with ``numba.njit(cache=True, nogil=True)``, the machine code cached
on disk beside the module. A compiled kernel calls the compiled versions of the kernels it uses,
from its own module or another kernel module, because the loader compiles each kernel over a copy
of its module's namespace in which every kernel is replaced by its compiled version. A module
may name in ``__inline__`` kernels that are compiled into each kernel calling them (Numba's
``inline="always"``) rather than called: a helper that takes many arrays and runs once per
state costs Numba's reference counting of every array on every call otherwise. Kernels named
in ``__borrow__`` are compiled without that reference counting at all (Numba's ``_nrt=False``):
they may make no array, only work on those they are given, and a hot loop then takes no
reference, atomically, each time it reads an array out of a tuple.

>>> from knightstour.kernels import walk as _kernels
>>> plain = load(_kernels, compiled=False)
>>> plain.flat_cells is _kernels.flat_cells
True
>>> for_work(_kernels, 10, threshold=100).flat_cells is _kernels.flat_cells
True

:data:`MODULES` lists every kernel module; ``knightstour warm`` compiles them all into the cache
so that no first call of a command pays for compilation.
"""

from __future__ import annotations

import importlib
import threading
import time
import types
from collections.abc import Callable
from typing import Any

__all__ = [
    "COMPILE_NOTE",
    "MODULES",
    "Kernels",
    "Stopwatch",
    "compile_seconds",
    "compiled_modules",
    "for_work",
    "load",
    "on_first_compile",
]

#: Every module of compiled kernels (each lists its kernels in ``__kernels__``).
MODULES: tuple[str, ...] = (
    "knightstour.kernels.walk",
    "knightstour.kernels.search",
    "knightstour.kernels.divide",
    "knightstour.kernels.library",
    "knightstour.kernels.frontier",
    "knightstour.kernels.enumerate",
    "knightstour.kernels.magic_search",
    "knightstour.kernels.magic_quads",
    "knightstour.kernels.magic_starts",
    "knightstour.kernels.text",
    "knightstour.kernels.geometry",
    "knightstour.kernels.uncrossed",
    "knightstour.kernels.numbers",
)

#: What a command line says on stderr just before it first compiles a kernel that is not in the
#: disk cache (a first call after a plain install); ``docs/benchmarks.md`` has the figures.
COMPILE_NOTE = (
    "compiling the kernels this needs for this machine, once per install "
    "(a few seconds to a minute); `knightstour warm` compiles them all ahead"
)

_lock = threading.RLock()
_compiled: dict[str, Kernels] = {}
#: Compiling so far in this process: seconds spent, and whether it has begun.
_compiling = {"seconds": 0.0, "depth": 0, "began": 0.0, "watched": False}
_notices: list[Callable[[], None]] = []


class Kernels:
    """The kernels of one module, interpreted or compiled, as attributes."""

    def __init__(self, module: str, functions: dict[str, Callable[..., Any]], compiled: bool):
        self.module = module
        self.compiled = compiled
        self._functions = functions

    def __getattr__(self, name: str) -> Callable[..., Any]:
        try:
            return self._functions[name]
        except KeyError:
            raise AttributeError(f"{self.module} has no kernel {name!r}") from None

    def names(self) -> tuple[str, ...]:
        """The names of the kernels."""
        return tuple(self._functions)

    def __repr__(self) -> str:
        kind = "compiled" if self.compiled else "interpreted"
        return f"<Kernels {self.module} ({kind}): {', '.join(self._functions)}>"


def _module(module: types.ModuleType | str) -> types.ModuleType:
    if isinstance(module, str):
        return importlib.import_module(module)
    return module


def _kernel_names(mod: types.ModuleType) -> tuple[str, ...]:
    names = getattr(mod, "__kernels__", None)
    if not names:
        raise TypeError(f"{mod.__name__} is not a kernel module (no __kernels__)")
    return tuple(names)


def load(module: types.ModuleType | str, *, compiled: bool) -> Kernels:
    """The kernels of ``module``, compiled by Numba (cached on disk) or as plain Python."""
    mod = _module(module)
    names = _kernel_names(mod)
    if not compiled:
        return Kernels(mod.__name__, {n: getattr(mod, n) for n in names}, False)
    with _lock:
        if mod.__name__ not in _compiled:
            _compiled[mod.__name__] = _compile(mod, names)
        return _compiled[mod.__name__]


def for_work(module: types.ModuleType | str, work: int, *, threshold: int) -> Kernels:
    """The kernels of ``module``: compiled when ``work`` is above ``threshold``, else plain.

    Compiling (or loading from the cache) costs a fraction of a second once per process: small
    work is done sooner interpreted.
    """
    return load(module, compiled=work > threshold)


def compiled_modules() -> frozenset[str]:
    """The kernel modules this process has loaded compiled so far.

    >>> compiled_modules() <= set(MODULES)
    True
    """
    with _lock:
        return frozenset(_compiled)


def on_first_compile(notice: Callable[[], None]) -> None:
    """Have ``notice()`` called once, just before this process first compiles a kernel that
    the disk cache does not hold (loading a cached kernel is not compiling). The same notice
    given again is kept once.

    >>> on_first_compile(print)
    """
    with _lock:
        if notice not in _notices and not _compiling["seconds"]:
            _notices.append(notice)


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels (not loading them from the cache).

    >>> compile_seconds() >= 0.0
    True
    """
    with _lock:
        return float(_compiling["seconds"])


class Stopwatch:
    """The seconds of a piece of work, the seconds this process spent compiling kernels on
    the way (a first call after a plain install) kept apart: the one measure of every "in X s"
    the commands print.

    >>> seconds, compiling = Stopwatch().read()
    >>> seconds >= 0.0 and compiling >= 0.0
    True
    """

    def __init__(self) -> None:
        self._began, self._compiled = time.perf_counter(), compile_seconds()

    def read(self) -> tuple[float, float]:
        """(seconds of work, seconds compiling kernels) since the watch started: the first
        without the second."""
        compiling = max(0.0, compile_seconds() - self._compiled)
        return max(0.0, time.perf_counter() - self._began - compiling), compiling


def _watch_compiles() -> None:
    """Listen to Numba's compile events (only a cache miss compiles): the first one calls the
    notices of :func:`on_first_compile`, and every outermost one adds to
    :func:`compile_seconds` (a kernel compiles the kernels it calls inside its own)."""
    if _compiling["watched"]:
        return
    from numba.core import event

    class _Listener(event.Listener):  # type: ignore[misc]
        def on_start(self, _event: Any) -> None:
            with _lock:
                _compiling["depth"] += 1
                if _compiling["depth"] > 1:
                    return
                notices = list(_notices)
                _notices.clear()
                _compiling["began"] = time.perf_counter()
            for notice in notices:
                notice()

        def on_end(self, _event: Any) -> None:
            with _lock:
                _compiling["depth"] -= 1
                if _compiling["depth"] == 0:
                    _compiling["seconds"] += time.perf_counter() - _compiling["began"]

    event.register("numba:compile", _Listener())
    _compiling["watched"] = True


def _compile(mod: types.ModuleType, names: tuple[str, ...]) -> Kernels:
    from numba import njit

    _watch_compiles()

    namespace = dict(vars(mod))
    # kernels of other kernel modules that this module calls: their compiled versions
    for key, value in vars(mod).items():
        home = getattr(value, "__module__", None)
        if (
            isinstance(value, types.FunctionType)
            and home != mod.__name__
            and home in MODULES
            and key not in names
        ):
            other = load(home, compiled=True)
            if value.__name__ in other.names():
                namespace[key] = getattr(other, value.__name__)
    for name in getattr(mod, "__intrinsics__", ()):
        namespace[name] = _intrinsic(name)
    inline = frozenset(getattr(mod, "__inline__", ()))
    if not inline <= set(names):
        raise TypeError(f"{mod.__name__} inlines what is not one of its kernels: {sorted(inline)}")
    borrow = frozenset(getattr(mod, "__borrow__", ()))
    if not borrow <= set(names):
        raise TypeError(
            f"{mod.__name__} borrows for what is not one of its kernels: {sorted(borrow)}"
        )
    functions: dict[str, Callable[..., Any]] = {}
    for name in names:
        fn = getattr(mod, name)
        copy = types.FunctionType(
            fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__
        )
        copy.__qualname__ = fn.__qualname__
        copy.__doc__ = fn.__doc__
        options: dict[str, Any] = {"inline": "always"} if name in inline else {}
        if name in borrow:
            options["_nrt"] = False
        functions[name] = namespace[name] = njit(cache=True, nogil=True, **options)(copy)
    return Kernels(mod.__name__, functions, True)


def _intrinsic(name: str) -> Callable[..., Any]:
    """A compiler intrinsic that a kernel module names in ``__intrinsics__`` (the module's own
    plain definition runs when interpreted).

    - ``prefetch(array, row)``: LLVM's prefetch of the row's first element, for reading and
      writing, kept in every cache level, so that a hash table's row is on its way while the
      kernel computes the next keys;
    - ``popcount(x)``: the set bits of the 64-bit integer ``x`` (one instruction);
    - ``ctz(x)``: the index of the lowest set bit of ``x`` (x not 0).
    """
    if name not in ("prefetch", "popcount", "ctz"):
        raise TypeError(f"no compiler intrinsic {name!r}")
    from llvmlite import ir
    from numba import types as nbtypes
    from numba.core import cgutils
    from numba.extending import intrinsic

    if name != "prefetch":

        @intrinsic  # type: ignore[misc]
        def bits(typingctx: Any, x: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                value = context.cast(builder, args[0], signature.args[0], nbtypes.int64)
                if name == "popcount":
                    return builder.ctpop(value)
                return builder.cttz(value, ir.Constant(ir.IntType(1), 1))

            return nbtypes.int64(x), codegen

        return bits  # type: ignore[no-any-return]

    @intrinsic  # type: ignore[misc]
    def prefetch(typingctx: Any, array: Any, row: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            zero = context.get_constant(nbtypes.intp, 0)
            where = [args[1]] + [zero] * (aryty.ndim - 1)
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, where)
            i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
            builder.call(fn, [builder.bitcast(ptr, i8p), i32(1), i32(3), i32(1)])
            return context.get_dummy_value()

        return nbtypes.void(array, row), codegen

    return prefetch  # type: ignore[no-any-return]
