"""Write the OpenAPI document to a file (`python -m kronikas.export_openapi [path]`)."""

from __future__ import annotations

import sys
from pathlib import Path

from kronikas.api.app import create_app
from kronikas.api.openapi import export
from kronikas.config import Settings


def main(argv: list[str]) -> int:
    target = Path(argv[1] if len(argv) > 1 else "openapi/openapi.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    app = create_app(Settings(redis_url="redis://unused:6379/0"))
    target.write_bytes(export(app) + b"\n")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
