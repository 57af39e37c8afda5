"""What the TypeScript tests need of the machine: Node, and the package's dependencies installed
from its lock file (`npm ci` when the lock file is newer than the install, as `make test` does)."""

from __future__ import annotations

import filecmp
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


DIST = PACKAGE / "dist"
"""The package compiled (ES modules and declarations): committed, rebuilt and compared by
test_package.py, so the tests below it use it as it is."""


def package_dist() -> Path:
    """The committed dist/, with the package's dependencies installed (`ws`, for the socket)."""
    installed()
    return DIST


SOURCES = ("package.json", "tsconfig.json", "build.mjs", "README.md", "LICENSE", "src")
"""What the package is made from: copied, these build and pack as the package itself does."""


def copy_of_package(into: Path) -> Path:
    """The package's sources copied into `into` (no dist/), with its node_modules linked, to
    build and pack there without touching the repository."""
    into.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        if (PACKAGE / name).is_dir():
            shutil.copytree(PACKAGE / name, into / name)
        else:
            shutil.copy2(PACKAGE / name, into / name)
    (into / "node_modules").symlink_to(installed(), target_is_directory=True)
    return into


def differences(a: Path, b: Path) -> list[str]:
    """The files in which two folders differ, by name and by bytes, all the way down."""
    cmp = filecmp.dircmp(a, b)
    out = [f"only in {cmp.left}: {n}" for n in cmp.left_only]
    out += [f"only in {cmp.right}: {n}" for n in cmp.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    out += [f"differs: {a / n}" for n in mismatch + errors]
    for sub in cmp.common_dirs:
        out += differences(a / sub, b / sub)
    return out
