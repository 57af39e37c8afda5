"""openapi/ and sdk/ must be what the code produces now (`make openapi sdk` rewrites them)."""

from __future__ import annotations

import filecmp
import json
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from kronikas.api.app import create_app
from kronikas.api.openapi import export
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tools.gen_sdk import GENERATED, generate

ROOT = Path(__file__).resolve().parent.parent
COMMITTED_SPEC = ROOT / "openapi" / "openapi.json"
COMMITTED_SDK = ROOT / "sdk" / GENERATED
HINT = "run `make openapi sdk` and commit the result"


def _app() -> Litestar:
    settings = Settings(
        redis_url="redis://unused:6379/0", log_level="CRITICAL", allowed_hosts=(TEST_HOST,)
    )
    return create_app(settings, games=ENGINES)


def test_committed_openapi_document_is_what_the_code_exports() -> None:
    assert COMMITTED_SPEC.read_bytes() == export(_app()) + b"\n", HINT


def test_service_serves_the_committed_document() -> None:
    with TestClient(_app()) as client:
        served = client.get("/schema/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads(COMMITTED_SPEC.read_bytes())


def _differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__", ".ruff_cache"])
    out = [f"only in {cmp.left}: {n}" for n in cmp.left_only]
    out += [f"only in {cmp.right}: {n}" for n in cmp.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    out += [f"differs: {a / n}" for n in mismatch + errors]
    for sub in cmp.common_dirs:
        out += _differences(a / sub, b / sub)
    return out


def test_committed_sdk_is_what_the_generator_produces(tmp_path: Path) -> None:
    fresh = tmp_path / GENERATED
    generate(fresh, COMMITTED_SPEC)
    assert _differences(fresh, COMMITTED_SDK) == [], HINT
