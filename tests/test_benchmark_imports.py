"""No import cycle among the benchmarks (issue 39, item 7): the workloads are pieces that a
runner imports, and no workload imports its runner back.

The imports are read with `ast`, wherever they stand: one inside a function (imported when
called) closes a circle as surely as one at the top of a module. `importlib.import_module` with
a literal name counts too; a name made at run time (`attacks.py` picks `attack_<name>`) cannot be
read, and those modules import nothing of the benchmarks' but `served.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "benchmarks"


def _named(node: ast.AST, package: str) -> list[str]:
    """The dotted names an import node (or a literal `import_module` call) asks for."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:  # relative to the package (the benchmarks are one flat package)
            base = ".".join(p for p in (package, base) if p)
        return [base, *(f"{base}.{alias.name}" for alias in node.names)]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
        == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


def imports(folder: Path, package: str = PACKAGE) -> dict[str, set[str]]:
    """Each module of `folder` (the package `package`), with the package's modules it imports."""
    modules = {f"{package}.{path.stem}": path for path in sorted(folder.glob("*.py"))}
    modules.pop(f"{package}.__init__", None)
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        wanted = {asked for node in ast.walk(tree) for asked in _named(node, package)}
        found[name] = {asked for asked in wanted if asked in modules and asked != name}
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that reach one another (Tarjan's strongly
    connected components), each as the path that closes it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle(graph, group) for group in groups]


def _circle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A path from the group's first module back to itself, within the group."""
    start = min(group)
    paths = [[start]]
    seen = {start}
    while paths:
        path = paths.pop(0)
        for nxt in sorted(graph[path[-1]] & group):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    raise AssertionError(f"no circle in {group}")


def test_no_benchmark_module_imports_one_that_imports_it_back() -> None:
    found = cycles(imports(ROOT / PACKAGE))
    assert not found, "import circles among the benchmarks: " + "; ".join(
        " → ".join(circle) for circle in found
    )


def test_a_circle_closed_inside_a_function_is_found(tmp_path: Path) -> None:
    """The finder itself: a runner whose workload imports it back from inside a function (as
    `follow.py` and `bench.py` did), and one through a relative import."""
    (tmp_path / "runner.py").write_text("from benchmarks import work\n")
    (tmp_path / "work.py").write_text("def go():\n    from benchmarks.runner import Service")
    (tmp_path / "one.py").write_text("from . import two\n")
    (tmp_path / "two.py").write_text("import importlib\nimportlib.import_module('benchmarks.one')")
    (tmp_path / "leaf.py").write_text("import benchmarks.work\nimport json\n")
    graph = imports(tmp_path)
    assert graph["benchmarks.leaf"] == {"benchmarks.work"}
    assert sorted(cycles(graph)) == [
        ["benchmarks.one", "benchmarks.two", "benchmarks.one"],
        ["benchmarks.runner", "benchmarks.work", "benchmarks.runner"],
    ]
