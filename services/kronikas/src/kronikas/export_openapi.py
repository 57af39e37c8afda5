"""Write the OpenAPI document to a file (`python -m kronikas.export_openapi [path]`): the
document of the app of the service's games; `write` exports any app's."""

from __future__ import annotations

import sys
from pathlib import Path

from litestar import Litestar

from kronikas.api.app import create_app
from kronikas.api.openapi import export
from kronikas.application.engines import service_games
from kronikas.config import Settings


def write(app: Litestar, target: Path) -> None:
    """Write `app`'s OpenAPI document to `target`, as the committed one is written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(export(app) + b"\n")


def main(argv: list[str]) -> int:
    target = Path(argv[1] if len(argv) > 1 else "openapi/openapi.json")
    app = create_app(Settings(redis_url="redis://unused:6379/0"), games=service_games())
    write(app, target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
