"""The Python SDK's hand-written modules live in one place: the package (`make sdk` keeps them).

`kronikas_client.socket` and `kronikas_client.streaming` are written by hand inside the generated
package, and nowhere else: regeneration reads them from the tree it replaces, and the drift check
(tests/test_generated.py) still sees any generated file that is stale.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_generated import _differences
from tools.gen_sdk import COMMITTED, HAND_WRITTEN, generate

pytestmark = pytest.mark.generated

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"node_modules", "__pycache__"}


def _python_files(folder: Path) -> list[Path]:
    found: list[Path] = []
    for path in folder.iterdir():
        if path.name.startswith(".") or path.name in SKIPPED:
            continue  # .venv, .git, caches: not the repository's own files
        if path.is_dir():
            found += _python_files(path)
        elif path.suffix == ".py":
            found.append(path)
    return found


def test_each_hand_written_module_is_committed_once() -> None:
    own = {name: (COMMITTED / name).read_bytes() for name in HAND_WRITTEN}
    copies = [
        f"{path.relative_to(ROOT)} is a copy of {name}"
        for path in _python_files(ROOT)
        for name, body in own.items()
        if path != COMMITTED / name and path.read_bytes() == body
    ]
    assert copies == []


def test_regeneration_keeps_them_and_the_drift_check_sees_a_stale_client(tmp_path: Path) -> None:
    stale = tmp_path / "stale"
    shutil.copytree(COMMITTED, stale, ignore=shutil.ignore_patterns("__pycache__"))
    edited = {name: (stale / name).read_bytes() + b"# edited by hand\n" for name in HAND_WRITTEN}
    for name, body in edited.items():
        (stale / name).write_bytes(body)
    generated = stale / "kronikas_client" / "models" / "__init__.py"
    generated.write_bytes(generated.read_bytes() + b"# stale\n")

    generate(stale, hand_written=stale)  # as `make sdk` regenerates the committed tree

    assert {name: (stale / name).read_bytes() for name in HAND_WRITTEN} == edited
    assert generated.read_bytes() == (COMMITTED / generated.relative_to(stale)).read_bytes()

    generated.write_bytes(generated.read_bytes() + b"# stale\n")
    fresh = tmp_path / "fresh"
    generate(fresh, hand_written=stale)
    assert _differences(fresh, stale) == [f"differs: {fresh / generated.relative_to(stale)}"]
