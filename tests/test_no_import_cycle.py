"""No two modules of the service import each other, directly or round a longer circle (issue 39).

Read from the source (`ast`), not from `sys.modules`: an import is an edge from the module that
writes it to the module it names (`from a.b import c` names `a.b.c` when that is a module, else
`a.b`), within the `kronikas` package. The rule for where an import stands: every import that
can run counts, at module level or inside a function or method (an import put off into a
function still makes the two modules need each other when it runs: that is how `api/kinds.py`
and `api/shapes.py` closed a circle). Only the imports under `if TYPE_CHECKING:` are left out:
they never run.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "services/kronikas/src"
PACKAGE = "kronikas"


@functools.cache
def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _module_or_package(base: str, name: str) -> str:
    return f"{base}.{name}" if f"{base}.{name}" in _modules() else base


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Every module name an import under `node` may load, but those under `TYPE_CHECKING`."""
    named: list[str] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child.test):
            for other in child.orelse:
                named += _imports(other, module, is_package)
            continue
        if isinstance(child, ast.Import):
            named += [alias.name for alias in child.names]
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                parts = module.split(".")
                keep = len(parts) - child.level + (1 if is_package else 0)
                base = ".".join([*parts[:keep], *([base] if base else [])])
            # `from a.b import c` names the module `a.b.c` where there is one, else `a.b`
            named += [_module_or_package(base, alias.name) for alias in child.names]
        named += _imports(child, module, is_package)
    return named


def graph() -> dict[str, set[str]]:
    """Each module of the package, and the modules of the package it imports."""
    modules = _modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        targets = _imports(tree, name, path.name == "__init__.py")
        edges[name] = {t for t in targets if t in modules and t != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_graph_sees_the_imports_of_the_app_factory() -> None:
    edges = graph()
    assert "kronikas.api.shapes" in edges["kronikas.api.app"]
    assert "kronikas.application.games" in edges["kronikas.api.app"]


def test_no_module_of_the_service_imports_itself_round_a_circle() -> None:
    assert cycles(graph()) == []


def test_an_import_inside_a_function_closes_a_circle_too() -> None:
    sources = {"a": "def f():\n    from b import g\n", "b": "import a\n"}
    two = {
        name: set(_imports(ast.parse(text), name, False)) & set(sources)
        for name, text in sources.items()
    }
    assert cycles(two) == [["a", "b"]]
    hidden = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\n")
    assert _imports(hidden, "a", False) == ["typing"]
