"""What the TypeScript tests need of the machine: Node, and the package's dependencies installed
from its lock file (`npm ci` when the lock file is newer than the install, as `make test` does)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sdk" / "typescript"
NODE_MODULES = PACKAGE / "node_modules"
LOCK = PACKAGE / "package-lock.json"
INSTALLED = NODE_MODULES / ".package-lock.json"
"""What npm writes on each install: older than the lock file means install again."""


def node_or_skip() -> str:
    """The path of `node`, or the test is skipped saying why (Node is not a Python dependency:
    `make test` says so in one line and carries on)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the TypeScript client's tests did not run")
    return node


def installed() -> Path:
    """The package's node_modules as its lock file says (`npm ci` when the lock file is newer
    than the last install), skipping when Node or npm is missing."""
    node_or_skip()
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the TypeScript client's tests did not run")
    if not INSTALLED.exists() or INSTALLED.stat().st_mtime < LOCK.stat().st_mtime:
        run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], timeout=600)
    return NODE_MODULES


def bin_of(name: str) -> str:
    return str(installed() / ".bin" / name)


def run(
    command: list[str], timeout: float = 300, env: dict[str, str] | None = None, cwd: Path = PACKAGE
) -> subprocess.CompletedProcess[str]:
    """Run a command in the package; fail the test with its output when it fails."""
    done = subprocess.run(
        command,
        cwd=cwd,
        env=os.environ | (env or {}),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def built() -> Path:
    """The package compiled to dist/ (ES modules and declarations), from the sources now."""
    run([bin_of("tsc"), "-p", "tsconfig.json"])
    return PACKAGE / "dist"
