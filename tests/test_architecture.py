"""The layout's rules (docs/architecture.md): imports run one way, and the package imports light.

Every import of a knightstour module inside the package is read from the source (module level and
inside functions alike, but for the lazy imports of ``_repr_svg_`` and ``TYPE_CHECKING`` blocks)
and checked against the layers; the graph must have no cycle.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

import knightstour

PACKAGE = Path(knightstour.__file__).resolve().parent

#: Layers, lowest first: a module may import its own layer or a lower one, never a higher one.
LAYERS: list[tuple[str, ...]] = [
    (
        "errors",
        "progress",
        "kernels",
        "archive",
    ),  # the kernel loader and the compiled kernels: NumPy only
    ("board", "arguments"),  # the checks of the arguments the front doors share
    ("numbering", "published", "geometry"),
    ("tour", "notation", "theory", "render"),
    ("solvers",),
    ("existence",),
    ("counting", "magic"),
    ("library", "puzzle", "numberpuzzles", "warm"),
    ("cli", "web", "__init__"),  # the CLI and the web app may use the public names
    ("__main__",),
]


def _name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> int:
    head = module.split(".")[0]
    for rank, names in enumerate(LAYERS):
        if head in names:
            return rank
    raise AssertionError(f"module {module} has no layer: add it to LAYERS and the docs")


class _Imports(ast.NodeVisitor):
    """The knightstour modules a source file imports, leaving out the allowed lazy ones."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module, self.is_package = module, is_package
        self.found: set[str] = set()

    def generic_visit(self, node: ast.AST) -> None:
        """Only the statements: an import is one, so expressions need no visit (a quick read)."""
        for field in ("body", "orelse", "handlers", "finalbody", "cases"):
            for child in getattr(node, field, ()):
                if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                    self.visit(child)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name != "_repr_svg_":  # Jupyter display imports the renderer lazily
            self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
            self.generic_visit(node)
        else:
            for child in node.orelse:
                self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            here = self.module.split(".") if self.is_package else self.module.split(".")[:-1]
            up = here[: len(here) - (node.level - 1)] if node.level > 1 else here
            base = ".".join([*up, base] if base else up)
        else:
            if not base.startswith("knightstour"):
                return
            base = base.removeprefix("knightstour").removeprefix(".")
        for alias in node.names:
            full = f"{base}.{alias.name}" if base else alias.name
            self._add("knightstour." + full if full else "knightstour", fallback=base)

    def _add(self, name: str, fallback: str | None = None) -> None:
        if name != "knightstour" and not name.startswith("knightstour."):
            return
        target = name.removeprefix("knightstour").removeprefix(".") or "__init__"
        if target not in MODULES and fallback is not None:
            target = fallback or "__init__"
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in MODULES and target != self.module:
            self.found.add(target)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


@functools.cache  # each module parsed once a run: the checks below all walk the same trees
def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


@functools.cache  # read once a run: every test asks for it
def _graph() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(_tree(module))
        graph[module] = visitor.found
    return graph


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        _layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_one_way(module: str) -> None:
    upward = [t for t in _graph()[module] if _layer(t) > _layer(module)]
    assert not upward, f"{module} imports the higher layer(s) {upward}"


def test_no_import_cycle() -> None:
    graph = _graph()
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*trail, m, t]))
            if t not in state:
                visit(t, [*trail, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_the_graph_reader_sees_lazy_imports() -> None:
    """The reader finds imports inside functions (else the checks above could not fail)."""
    tree = ast.parse(MODULES["puzzle"].read_text(encoding="utf-8"))
    lazy = {
        node.module
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert lazy, "puzzle.py imports inside functions: pick another witness"
    for module in lazy:
        assert module.removeprefix("knightstour.") in _graph()["puzzle"]
    assert "render.svg" not in _graph()["board"]  # only in _repr_svg_


def test_theory_imports_only_the_board_and_errors() -> None:
    assert _graph()["theory"] <= {"board", "errors"}


def test_the_package_never_imports_research() -> None:
    """research/ (experiments) stays out of the package: no module imports it, lazily or not."""
    for module in MODULES:
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "research" for n in names), module


def _sources(skip: set[str]) -> list[tuple[str, str]]:
    return [(m, p.read_text(encoding="utf-8")) for m, p in sorted(MODULES.items()) if m not in skip]


def test_numba_only_in_the_kernel_loader() -> None:
    users = [m for m, src in _sources({"kernels.jit"}) if "numba" in src or "njit" in src]
    assert not users, f"compiled kernels must go through kernels/jit.py: {users}"


def test_kernel_modules_import_only_numpy_and_each_other() -> None:
    """The kernels sit at the bottom, so that every layer can use them: no package import."""
    for module in MODULES:
        if module.startswith("kernels."):
            assert _graph()[module] <= {m for m in MODULES if m.startswith("kernels")}, module


def _assignments_into_imports(source: str | ast.Module) -> list[str]:
    """Assignments (``x.attr = ...``, ``setattr(x, ...)``, ``del x.attr``) into a module or a
    class imported from the package: a hook wired by assignment, which the import graph misses."""
    tree = ast.parse(source) if isinstance(source, str) else source
    imported: set[str] = set()
    into: list[tuple[str, str, str]] = []  # (line, name, attribute): kept if name is imported
    for node in ast.walk(tree):  # one walk: the imports and the assignments
        targets: list[ast.expr] = []
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").startswith("knightstour")
        ):
            imported |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("knightstour"):
                    imported.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
        ):
            targets = [ast.Attribute(value=node.args[0], attr="?")]
        while targets:
            sub = targets.pop()
            if isinstance(sub, ast.Tuple | ast.List | ast.Starred):
                targets.extend(sub.elts if not isinstance(sub, ast.Starred) else [sub.value])
            elif isinstance(sub, ast.Attribute | ast.Subscript):  # x.a.b = ..., x.a[i] = ...
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                    into.append((str(getattr(node, "lineno", "?")), sub.value.id, sub.attr))
                targets.append(sub.value)
    return [f"line {line}: {name}.{attr}" for line, name, attr in into if name in imported]


def test_the_assignment_check_sees_hooks() -> None:
    """The check below can fail: each way of wiring a hook by assignment is seen."""
    hooks = (
        "from knightstour import tour as t\nt.fast_check = len\n",
        "from knightstour.errors import SearchFailedError\nSearchFailedError.make = len\n",
        "import knightstour.notation\nknightstour.notation.kernels = 1\n",
        "from knightstour import notation\nsetattr(notation, 'kernels', 1)\n",
    )
    for source in hooks:
        assert _assignments_into_imports(source), source
    assert not _assignments_into_imports(
        "from knightstour.board import Board\nb = Board\nb.x = 1\n"
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_assigns_into_another(module: str) -> None:
    found = _assignments_into_imports(_tree(module))
    assert not found, f"{module} assigns into another module or its classes: {found}"


def test_sql_only_in_the_store() -> None:
    sql = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", "CREATE ", ".execute(")
    store = {m for m in MODULES if m == "library.store" or m.startswith("library.store.")}
    assert len(store) > 1, "the store is a package of tables: pick another witness"
    users = [m for m, src in _sources(store) if any(w in src for w in sql)]
    assert not users, f"every SQL statement belongs to the library/store package: {users}"


def test_import_knightstour_is_light() -> None:
    code = (
        "import sys, knightstour\n"
        "heavy = {'numba', 'PIL', 'fastapi', 'uvicorn', 'tqdm', 'sqlite3', 'starlette'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
