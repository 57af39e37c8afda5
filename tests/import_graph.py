"""The import graph of a package, read from its source with `ast`, and its circles: what the
service's and the benchmarks' no-circle tests both ask.

An import is an edge from the module that writes it to the module it names (`from a.b import c`
names `a.b.c` when that is a module, else `a.b`), within the package. Every import that can run
counts, at module level or inside a function (an import put off into a function still makes the
two modules need each other when it runs), and so does `importlib.import_module` with a literal
name; only the imports under `if TYPE_CHECKING:` are left out: they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

from tests.source import parse


def modules(folder: Path, package: str) -> dict[str, Path]:
    """Each module under `folder`, the package `package`, by its dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([package, *parts])] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _literal_import(node: ast.Call) -> str | None:
    """The name in `import_module("…")` (or `importlib.import_module("…")`), if literal."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name == "import_module" and node.args and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else None
    return None


def imports(node: ast.AST, module: str, is_package: bool, known: Collection[str]) -> list[str]:
    """Every module name an import under `node` may load, but those under `TYPE_CHECKING`;
    `known` are the package's modules, to tell `from a import b`'s module `a.b` from a name."""
    named: list[str] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child.test):
            for other in child.orelse:
                named += imports(other, module, is_package, known)
            continue
        if isinstance(child, ast.Import):
            named += [alias.name for alias in child.names]
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                parts = module.split(".")
                keep = len(parts) - child.level + (1 if is_package else 0)
                base = ".".join([*parts[:keep], *([base] if base else [])])
            named += [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in child.names
            ]
        elif isinstance(child, ast.Call) and (literal := _literal_import(child)) is not None:
            named.append(literal)
        named += imports(child, module, is_package, known)
    return named


def graph(folder: Path, package: str) -> dict[str, set[str]]:
    """Each module of the package, and the modules of the package it imports."""
    found = modules(folder, package)
    edges: dict[str, set[str]] = {}
    for name, path in found.items():
        tree = parse(path.read_text(encoding="utf-8"), str(path))
        targets = imports(tree, name, path.name == "__init__.py", found)
        edges[name] = {t for t in targets if t in found and t != name}
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
        for other in sorted(edges.get(node, ())):
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
