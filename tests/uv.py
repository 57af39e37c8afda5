"""uv, as `make` installs or finds it, for the tests that install a package the way users do."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_uv() -> str | None:
    """uv from `UV` (`uv run` names itself there), the PATH, or `.tools/` (`make`'s copy)."""
    for found in (os.environ.get("UV"), shutil.which("uv"), str(ROOT / ".tools" / "bin" / "uv")):
        if found and Path(found).is_file():
            return found
    return None
