"""One composition root (issue 39): the registry of games is built where the service is put
together and handed down, never defaulted below the app factory.

Read from the source (`ast`) of every module of the service:

- the registry is built (`service_games()`) only by the composition root: `serve.py` (the factory
  each worker's uvicorn calls) and `export_openapi.py`;
- no parameter annotated `Registry` has a default, and no module makes a wire (`Wire`,
  `ApiWire`) or a registry at import (a module-level singleton every caller would share);
- no `TYPE_CHECKING` block: a type the checker sees is the type that runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "services/kronikas/src/kronikas"
ROOTS = {"serve.py", "export_openapi.py"}
"""The composition root: the modules that build the service's registry."""
SINGLETONS = {"Wire", "ApiWire", "service_games", "registry"}
"""Calls that make a registry or a wire of one: never at a module's top level."""


def _modules() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(PACKAGE)): parse(path.read_text(), str(path))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute):
            return func.attr
    return None


def builders() -> list[str]:
    """Where the service's registry is built, outside the composition root."""
    return [
        f"{name}:{node.lineno}"
        for name, tree in _modules().items()
        if name not in ROOTS
        for node in ast.walk(tree)
        if _called(node) == "service_games"
    ]


def defaults() -> list[str]:
    """Parameters annotated `Registry` that have a default."""
    found: list[str] = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            defaulted = positional[len(positional) - len(args.defaults) :]
            defaulted += [
                a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
            ]
            for arg in defaulted:
                if arg.annotation is not None and "Registry" in ast.unparse(arg.annotation):
                    found.append(f"{name}:{node.lineno} {node.name}({arg.arg}=...)")
    return found


def singletons() -> list[str]:
    """Registries and wires made at a module's top level."""
    found: list[str] = []
    for name, tree in _modules().items():
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for node in ast.walk(statement):
                if _called(node) in SINGLETONS:
                    found.append(f"{name}:{node.lineno} {_called(node)}()")
    return found


def type_checking() -> list[str]:
    """Every use of `TYPE_CHECKING` in the service."""
    return [
        f"{name}:{node.lineno}"
        for name, tree in _modules().items()
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "TYPE_CHECKING")
        or (isinstance(node, ast.alias) and node.name == "TYPE_CHECKING")
    ]


def test_only_the_composition_root_builds_the_registry() -> None:
    assert builders() == []
    assert any(_called(n) == "service_games" for n in ast.walk(_modules()["serve.py"]))


def test_no_registry_is_defaulted_below_the_app_factory() -> None:
    assert defaults() == []


def test_no_module_makes_a_registry_or_a_wire_at_import() -> None:
    assert singletons() == []


def test_no_type_is_one_thing_to_the_checker_and_another_at_run_time() -> None:
    assert type_checking() == []
