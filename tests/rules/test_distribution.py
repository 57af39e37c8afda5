"""The rules package stands alone (issue 44, rules/README.md): built as a wheel, or installed
from the repository's path, into an empty virtualenv, it brings `msgspec` and nothing else, plays
a match, and `import kronikas_rules` loads none of the environments' libraries."""

from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.uv import ROOT, find_uv

pytestmark = pytest.mark.processes

PLAY = """
import random, sys
import kronikas_rules
from kronikas_rules.table import Table
assert not {"numpy", "pettingzoo", "pyspiel", "litestar", "redis"} & set(sys.modules), sys.modules
for kind in kronikas_rules.games.games():
    table = Table(kind, 3, seed=1)
    rng = random.Random(1)
    while not table.finished:
        seat = table.waiting_for
        table.play(seat, table.house(seat, rng))
    print(kind, table.view(None).winners)
"""


def _run(args: list[str], cwd: Path = ROOT) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _installed(uv: str, venv: Path, what: str) -> list[str]:
    """`what` installed into a new virtualenv holding only the package's dependencies from the
    lock file (`uv sync --no-dev --package kronikas-rules`, as uv installs a workspace member);
    what the virtualenv then holds."""
    env = os.environ | {"UV_PROJECT_ENVIRONMENT": str(venv)}
    sync = [uv, "sync", "--frozen", "--no-dev", "--package", "kronikas-rules", "--quiet"]
    done = subprocess.run(
        [*sync, "--no-install-workspace"], cwd=ROOT, env=env, capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    python = str(venv / "bin" / "python")
    _run([uv, "pip", "install", "--quiet", "--no-deps", "--python", python, what])
    listed = _run([uv, "pip", "freeze", "--python", python])
    return sorted(line.split("=")[0].split(" @ ")[0] for line in listed.splitlines())


def _requires(wheel: Path) -> list[str]:
    """The wheel's run-time requirements: its `Requires-Dist` lines outside every extra."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    heads = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    return [h.split(":", 1)[1].strip() for h in heads if "extra ==" not in h]


@pytest.fixture(scope="module")
def uv() -> str:
    found = find_uv()
    if found is None:
        pytest.skip("no uv here: `make test` installs it")
    return found


def test_the_wheel_brings_msgspec_alone_and_plays(uv: str, tmp_path: Path) -> None:
    _run([uv, "build", "--quiet", "--wheel", "--package", "kronikas-rules", "-o", str(tmp_path)])
    (wheel,) = tmp_path.glob("kronikas_rules-*.whl")
    assert _requires(wheel) == ["msgspec>=0.18"]
    assert _installed(uv, tmp_path / "venv", str(wheel)) == ["kronikas-rules", "msgspec"]
    played = _run([str(tmp_path / "venv" / "bin" / "python"), "-c", PLAY], cwd=tmp_path)
    assert [line.split()[0] for line in played.splitlines()] == ["cheat", "thirty_one"]
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.namelist()
    assert sum(name.endswith("/rules.md") for name in shipped) == 2  # each game's rules text
    assert "kronikas_rules/py.typed" in shipped


def test_the_repository_path_installs_too(uv: str, tmp_path: Path) -> None:
    assert _installed(uv, tmp_path / "venv", str(ROOT / "rules")) == ["kronikas-rules", "msgspec"]
    typed = _run([str(tmp_path / "venv" / "bin" / "python"), "-c", PLAY], cwd=tmp_path)
    assert typed.count("\n") == 2
