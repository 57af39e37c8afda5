"""Generate the Python SDK from openapi/openapi.json (`python -m tools.gen_sdk [target]`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi" / "openapi.json"
CONFIG = ROOT / "tools" / "sdk-config.yaml"
GENERATED = "kronikas-client"
PACKAGE = "kronikas_client"
# Hand-written parts of the SDK: copied over the generated tree, so regeneration keeps them.
EXTRAS = ROOT / "tools" / "sdk_extras"
OVERLAY = {
    EXTRAS / "streaming.py": Path(PACKAGE) / "streaming.py",
    EXTRAS / "README.md": Path("README.md"),
}


def generate(target: Path, spec: Path = SPEC) -> None:
    """Generate the client into `target`, replacing what was there; fail on any warning."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / GENERATED
        bin_dir = Path(sys.executable).parent
        subprocess.run(
            [
                str(bin_dir / "openapi-python-client"),
                "generate",
                "--path", str(spec),
                "--config", str(CONFIG),
                "--output-path", str(out),
                "--meta", "uv",
                "--fail-on-warning",
            ],
            check=True,
            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "RUFF_NO_CACHE": "true"},
        )  # fmt: skip
        for source, destination in OVERLAY.items():
            shutil.copyfile(source, out / destination)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(out, target)


def main(argv: list[str]) -> int:
    target = Path(argv[1] if len(argv) > 1 else ROOT / "sdk" / GENERATED)
    generate(target)
    print(f"generated {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
