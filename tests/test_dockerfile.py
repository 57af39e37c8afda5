"""The API image holds what the service imports (services/kronikas/Dockerfile; no Docker engine
here, so it is read): every workspace member the service depends on, by the lock file, is copied
into the image before the sync that installs the service, and `.dockerignore` lets it through."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "services/kronikas/Dockerfile"


def _members_the_service_needs() -> set[str]:
    """The workspace members (editable sources in uv.lock) the service depends on, transitively."""
    packages = {p["name"]: p for p in tomllib.loads((ROOT / "uv.lock").read_text())["package"]}
    found: set[str] = set()
    todo = ["kronikas"]
    while todo:
        package = packages[todo.pop()]
        source = package["source"].get("editable")
        if source is None or source in found:
            continue
        found.add(source)
        todo += [d["name"] for d in package.get("dependencies", [])]
    return found


def test_every_workspace_member_the_service_needs_is_copied_before_it_is_installed() -> None:
    members = _members_the_service_needs()
    assert members == {"services/kronikas", "rules"}
    lines = [line.split() for line in DOCKERFILE.read_text().splitlines()]
    copies = [i for i, words in enumerate(lines) if words[:1] == ["COPY"]]
    last_sync = max(
        i
        for i, words in enumerate(lines)
        if words[:3] == ["RUN", "uv", "sync"] and "--package" in words
    )
    for member in members:
        copied = [i for i in copies if lines[i][1:] == [member, member]]
        assert copied and copied[0] < last_sync, (
            f"{member} is not in the image when it is installed"
        )
        manifest = f"{member}/pyproject.toml"
        assert any(lines[i][1:] == [manifest, manifest] for i in copies), manifest


def test_dockerignore_lets_the_members_through() -> None:
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#") and not line.startswith("!")
    ]
    for member in _members_the_service_needs():
        for path in (ROOT / member).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            relative = path.relative_to(ROOT).as_posix()
            assert not any(
                fnmatch.fnmatch(relative, pattern) or relative.startswith(pattern.rstrip("*"))
                for pattern in ignored
                if "/" in pattern and not pattern.startswith("**")
            ), relative
