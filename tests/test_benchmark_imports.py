"""No import cycle among the benchmarks (issue 39, item 7): the workloads are pieces that a
runner imports, and no workload imports its runner back.

The imports are read with `ast`, wherever they stand: one inside a function (imported when
called) closes a circle as surely as one at the top of a module. `importlib.import_module` with
a literal name counts too; a name made at run time (`attacks.py` picks `attack_<name>`) cannot be
read, and those modules import nothing of the benchmarks' but `served.py`.
"""

from __future__ import annotations

from pathlib import Path

from tests import import_graph

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "benchmarks"


def imports(folder: Path, package: str = PACKAGE) -> dict[str, set[str]]:
    """Each module of `folder` (the package `package`), with the package's modules it imports."""
    return import_graph.graph(folder, package)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that reach one another, as the path that
    closes it."""
    return [_circle(graph, set(group)) for group in import_graph.cycles(graph)]


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
