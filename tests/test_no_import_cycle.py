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

from pathlib import Path

from tests.import_graph import cycles, graph, imports
from tests.source import parse

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "services/kronikas/src/kronikas"
RULES = ROOT / "rules/src/kronikas_rules"


def _graph() -> dict[str, set[str]]:
    return graph(SOURCE, "kronikas")


def test_the_graph_sees_the_imports_of_the_app_factory() -> None:
    edges = _graph()
    assert "kronikas.api.shapes" in edges["kronikas.api.app"]
    assert "kronikas.application.games" in edges["kronikas.api.app"]


def test_no_module_of_the_service_imports_itself_round_a_circle() -> None:
    assert cycles(_graph()) == []


def test_no_module_of_the_rules_package_imports_itself_round_a_circle() -> None:
    edges = graph(RULES, "kronikas_rules")
    assert "kronikas_rules.engine" in edges["kronikas_rules.builder"]
    assert cycles(edges) == []


def test_an_import_inside_a_function_closes_a_circle_too() -> None:
    sources = {"a": "def f():\n    from b import g\n", "b": "import a\n"}
    two = {
        name: set(imports(parse(text), name, False, sources)) & set(sources)
        for name, text in sources.items()
    }
    assert cycles(two) == [["a", "b"]]
    hidden = parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\n")
    assert imports(hidden, "a", False, ()) == ["typing"]
