"""Parsing the project's own source in the tests that read its shape.

CPython 3.11 before 3.11.8 keeps one AST-construction depth counter for the whole interpreter,
so an `ast.parse` in the test's thread that overlaps one in another thread (a traceback being
formatted for a log line uses `ast` for its carets) can fail with a spurious `SystemError: AST
constructor recursion depth mismatch` (python/cpython#106905). The source did not change:
parsing it again gives the tree.
"""

from __future__ import annotations

import ast

_TRIES = 5


def parse(text: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(text, filename)`, tried again when CPython's AST counter was raced."""
    for _ in range(_TRIES - 1):
        try:
            return ast.parse(text, filename)
        except SystemError as exc:
            if "recursion depth mismatch" not in str(exc):
                raise
    return ast.parse(text, filename)
